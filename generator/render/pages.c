/* pages.c — the render stage (render.h): each page's body through
 * Markdown with its placeholders expanded (expand.c), then through its
 * template with the site's and the page's variables, the nav and the page
 * lists; every page on --jobs threads (the drawings they show are made
 * before, by the draw stage); then the default home page and the
 * sitemap. Each page's body is the one the loader read (bp_page.body),
 * dropped once the page is rendered. */
#include "render/render.h"
#include "base/spans.h"
#include "load/page.h"
#include "render/markdown.h"
#include "render/render_internal.h"
#include "render/tmpl.h"
#include "simcore.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(PAGE_MAX_FILE_BYTES == MD_MAX_BYTES + 64 * 1024,
               "a page file is its body and at most 64 KiB of front matter");

/* ------------------------------------------------------------ variables */

/* The variables of every template rendering; root leads to the site's top
 * ("" or "../"). */
static void common_vars(site *s, tmpl_scope *sc, const char *root)
{
    tmpl_set_text(sc, "site_title", s->cfg.title);
    tmpl_set_text(sc, "site_description", s->cfg.description ? s->cfg.description : "");
    tmpl_set_text(sc, "lang", s->cfg.language);
    tmpl_set_text(sc, "root", root);
    char *st = xasprintf("%sstatic/", root);
    tmpl_set_text(sc, "static", st);
    free(st);
    tmpl_set_text(sc, "home_url", root[0] ? root : "./");
    tmpl_set_text(sc, "card_width", "1200");
    tmpl_set_text(sc, "card_height", "630");
    tmpl_set_text(sc, "build_date", s->date);
    tmpl_set_text(sc, "version", BOARDPRESS_VERSION);
    tmpl_set_text(sc, "simulator_version", SIMCORE_VERSION);
}

/* The share tags' variables: card_url (absolute; "" without base_url, and
 * then the tags are left out) and the description the card shows. */
static void share_vars(const site *s, tmpl_scope *sc, const char *slug, const char *summary)
{
    char *card = !s->cfg.base_url[0] ? xstrdup("")
                 : *slug             ? xasprintf("%s%s/%s", s->cfg.base_url, slug, CARD_FILE)
                                     : xasprintf("%s%s", s->cfg.base_url, CARD_FILE);
    tmpl_set_text(sc, "card_url", card);
    free(card);
    const char *d = summary ? summary : s->cfg.description;
    tmpl_set_text(sc, "card_description", d ? d : "");
}

/* The template a page names, from the build's library (each file parsed
 * once); a name without a file is reported at the first page naming it. */
static tmpl *template_for(site *s, diag *d, tmpl_lib *lib, strset *named, const char *name,
                          const bp_page *p)
{
    if (p && strset_add(named, name)) {
        char *file = xasprintf("%s/%s.html", s->opt.templates, name);
        bool missing = access(file, F_OK) != 0;
        if (missing)
            diag_error(d, p->path, p->template_pos.line, p->template_pos.col,
                       "template '%s' does not exist (%s)", name, file);
        free(file);
        if (missing)
            return NULL;
    }
    return tmpl_lib_load(lib, name, d);
}

/* The nav and pages lists of a page, made item by item while its template
 * renders (tmpl_list_lazy): a list of every page costs one item at a time. */
/* The most pages the header's menu lists itself. */
#define SITE_MENU_MAX 40

typedef struct {
    bp_page **order; /* the nav is its first n_nav items */
    size_t n_order, n_nav;
    const bp_page *current;
    const char *root;
} page_lists;

static void fill_nav(void *ctx, size_t i, tmpl_scope *item)
{
    const page_lists *l = ctx;
    char *url = xasprintf("%s%s/", l->root, l->order[i]->slug);
    tmpl_set_text(item, "title", l->order[i]->title);
    tmpl_set_text(item, "url", url);
    tmpl_set_text(item, "current", l->order[i] == l->current ? "page" : "");
    free(url);
}

static void fill_pages(void *ctx, size_t i, tmpl_scope *item)
{
    const page_lists *l = ctx;
    char *url = xasprintf("%s/", l->order[i]->slug);
    tmpl_set_text(item, "title", l->order[i]->title);
    tmpl_set_text(item, "summary", l->order[i]->summary ? l->order[i]->summary : "");
    tmpl_set_text(item, "url", url);
    free(url);
}

/* nav, prev/next, and the pages list (only where with_pages: home pages);
 * l must outlive the rendering. */
static void nav_vars(const site *s, tmpl_scope *sc, page_lists *l, const bp_page *current,
                     const char *root, bool with_pages)
{
    bp_page **order = s->order;
    size_t n_order = s->n_order;
    *l = (page_lists){order, n_order, s->n_nav_items, current, root};
    tmpl_list_lazy(sc, "nav", l->n_nav, fill_nav, l);
    /* the header's menu of every page, so each is one step from any other;
     * a larger site's menu ends at the home page's full list */
    tmpl_list_lazy(sc, "contents", n_order < SITE_MENU_MAX ? n_order : SITE_MENU_MAX, fill_nav, l);
    tmpl_set_text(sc, "contents_more", n_order > SITE_MENU_MAX ? "more" : "");
    tmpl_list_lazy(sc, "pages", with_pages ? n_order : 0, fill_pages, l);
    size_t at = current && current->nav_pos < n_order && order[current->nav_pos] == current
                    ? current->nav_pos
                    : n_order;
    const bp_page *prev = at < n_order && at > 0 ? order[at - 1] : NULL;
    const bp_page *next = at + 1 < n_order ? order[at + 1] : NULL;
    char *u;
    tmpl_set_text(sc, "prev_title", prev ? prev->title : "");
    u = prev ? xasprintf("%s%s/", root, prev->slug) : xstrdup("");
    tmpl_set_text(sc, "prev_url", u);
    free(u);
    tmpl_set_text(sc, "next_title", next ? next->title : "");
    u = next ? xasprintf("%s%s/", root, next->slug) : xstrdup("");
    tmpl_set_text(sc, "next_url", u);
    free(u);
}

/* ------------------------------------------------------------ one page */

/* A board, level or chart the front matter lists and the page never shows
 * is a mistake (a leftover, or a missing placeholder); it would still
 * appear in the page's measured line and model note. */
static void check_shown(page_ctx *pc)
{
    const bp_page *p = pc->page;
    site *s = pc->s;
    diag *d = pc->d;
    for (size_t i = 0; i < p->n_boards; i++) {
        const bp_variant *b = site_board_file(s, p->boards[i].path);
        if (!pc->shows_board[i] && b && b->board)
            diag_error(d, p->path, p->boards[i].pos.line, p->boards[i].pos.col,
                       "board '%s' is listed under 'boards:' but the page never shows it: add "
                       "{{ board %s }} or one of its values, or remove it from the list",
                       b->board->id, b->board->id);
    }
    for (size_t i = 0; i < p->n_levels; i++) {
        const slevel *sl = site_level_file(s, p->levels[i].path);
        if (!pc->shows_level[i] && sl && sl->loaded && pc->quotes_level[i].line)
            diag_error(d, p->path, pc->quotes_level[i].line, pc->quotes_level[i].col,
                       "{{ scrub }} and {{ live }} move and measure level '%s' through its "
                       "section, and the page never shows it: add {{ level %s }}",
                       sl->level->id, sl->level->id);
        else if (!pc->shows_level[i] && sl && sl->loaded)
            diag_error(d, p->path, p->levels[i].pos.line, p->levels[i].pos.col,
                       "level '%s' is listed under 'levels:' but the page never shows it: "
                       "add {{ level %s }}, or remove it from the list",
                       sl->level->id, sl->level->id);
    }
    for (size_t i = 0; i < p->n_charts; i++) {
        const schart *sc = site_chart_file(s, p->charts[i].path);
        if (!pc->shows_chart[i] && sc && sc->chart && sc->points)
            diag_error(d, p->path, p->charts[i].pos.line, p->charts[i].pos.col,
                       "chart '%s' is listed under 'charts:' but the page never shows it: "
                       "add {{ chart %s }}, or remove it from the list",
                       sc->chart->id, sc->chart->id);
    }
}

/* One page: its body (as the loader read it) rendered with its
 * placeholders expanded, checked to show what its front matter lists, then
 * through template t (NULL: its template did not load) into index.html and
 * results.json, written through out when there is a sink; the body is
 * dropped after. */
static void render_page(site *s, diag *d, const render_sink *sink, void *out, bp_page *p, tmpl *t,
                        page_info *pi)
{
    page_ctx pc;
    memset(&pc, 0, sizeof pc);
    pc.s = s;
    pc.d = d;
    pc.page = p;
    pc.info = pi;
    pc.sink = sink;
    pc.out = out;
    buf_init(&pc.results);
    pc.shows_board = xcalloc(p->n_boards + 1, sizeof *pc.shows_board);
    pc.shows_level = xcalloc(p->n_levels + 1, sizeof *pc.shows_level);
    pc.quotes_level = xcalloc(p->n_levels + 1, sizeof *pc.quotes_level);
    pc.shows_chart = xcalloc(p->n_charts + 1, sizeof *pc.shows_chart);
    /* ids the template itself uses */
    strset_add(&pc.ids, "main");
    strset_add(&pc.ids, "model-note-title");

    md_options mo = {p->path, p->body_line - 1, s->cfg.unsafe_html, expand_placeholder,
                     &pc,     &pc.ids,          links_record,       pi};
    buf body;
    buf_init(&body);
    size_t mark = diag_mark(d);
    md_render(p->body, p->body_len, &mo, &body, d);
    if (!diag_failed_since(d, mark)) {
        check_shown(&pc);
        search_sections(pi, body.data ? body.data : "", body.len);
        search_page_terms(pi, p->title);
        /* the About page explains the notation itself */
        if (!s->cfg.about || strcmp(s->cfg.about, p->slug) != 0) {
            char *about = s->cfg.about
                              ? xasprintf("%s%s/", p->is_home ? "" : "../", s->cfg.about)
                              : NULL;
            notation_note(&body, about);
            free(about);
        }
    }
    /* Pages without a placeholder for a listed board still publish its
     * results: results.json holds every measured result of the page. */
    for (size_t i = 0; i < p->n_boards; i++) {
        bp_variant *b = site_board_file(s, p->boards[i].path);
        if (b && b->board && b->ran && !b->run_failed)
            expand_results_board(&pc, b->board->id, b);
    }
    if (!diag_failed_since(d, mark) && t) {
        const char *root = p->is_home ? "" : "../";
        tmpl_scope *sc = tmpl_scope_new(NULL);
        common_vars(s, sc, root);
        tmpl_set_text(sc, "title", p->title);
        tmpl_set_text(sc, "summary", p->summary ? p->summary : "");
        tmpl_set_text(sc, "slug", p->slug);
        char *canonical = s->cfg.base_url[0]
                              ? xasprintf("%s%s%s", s->cfg.base_url, p->slug, p->is_home ? "" : "/")
                              : xstrdup("");
        tmpl_set_text(sc, "canonical", canonical);
        free(canonical);
        share_vars(s, sc, p->slug, p->summary);
        tmpl_set_html(sc, "content", body.data ? body.data : "");
        buf note;
        buf_init(&note);
        expand_measured(&pc, &note);
        tmpl_set_html(sc, "measured", note.data ? note.data : "");
        buf_free(&note);
        tmpl_set_text(sc, "interactive", pc.interactive ? "yes" : "");
        tmpl_set_text(sc, "live", pc.live ? "yes" : "");
        tmpl_set_text(sc, "results_url", pc.results.len ? "results.json" : "");
        page_lists lists;
        nav_vars(s, sc, &lists, p, root, p->is_home);
        buf html;
        buf_init(&html);
        if (tmpl_render(t, sc, &html, d) == 0 && sink) {
            char *rel = p->is_home ? xstrdup("index.html") : xasprintf("%s/index.html", p->slug);
            sink->write(out, rel, html.data, html.len, d);
            free(rel);
            expand_results_file(&pc);
        }
        buf_free(&html);
        tmpl_scope_free(sc);
    }
    pi->rendered = !diag_failed_since(d, mark) && t;
    buf_free(&body);
    /* the renderer is the body's last reader: the search and cards stages
     * that follow need not hold every page's text */
    free(p->body);
    p->body = NULL;
    p->body_len = 0;
    buf_free(&pc.results);
    pi->files = pc.files;
    pi->ids = pc.ids;
    strset_free(&pc.in_results);
    free(pc.shows_board);
    free(pc.shows_level);
    free(pc.quotes_level);
    free(pc.shows_chart);
}

/* ------------------------------------------------------------ every page */

/* What rendering one page reported, shown in page order afterwards. */
typedef struct {
    diag d; /* its messages (the template's first) */
    page_info info;
} page_out;

typedef struct {
    site *s;
    const render_sink *sink;
    tmpl **page_t;
    page_out *res;
    size_t *todo; /* page indices, in page order */
} render_queue;

/* Render page i with its own error buffer and its own handle from the sink
 * (opened with the page's index, so the sink can keep each page's files in
 * page order, whatever thread wrote them first). */
static void render_one(render_queue *q, size_t i)
{
    page_out *r = &q->res[i]; /* r->d holds the template's messages: they come first */
    double t0 = spans_now();
    void *out = q->sink ? q->sink->open(q->sink->ctx, i) : NULL;
    render_page(q->s, &r->d, q->sink, out, q->s->pages[i], q->page_t[i], &r->info);
    if (out)
        q->sink->close(out);
    span_add("page", q->s->pages[i]->path, t0);
}

static void render_at(void *ctx, size_t k)
{
    render_queue *q = ctx;
    render_one(q, q->todo[k]);
}

static void render_done(void *ctx)
{
    (void)ctx;
    md_release();
}

/* Render every page on --jobs threads. When a drawing could not be made,
 * the pages that show boards, levels or charts render first, one at a time
 * in page order, so the first of them that shows it says why (and only
 * it). Each body is dropped once its page is rendered. */
static void render_all(site *s, const render_sink *sink, tmpl **page_t, page_out *res)
{
    md_init();
    render_queue q = {s, sink, page_t, res, NULL};
    q.todo = xcalloc(s->n_pages + 1, sizeof *q.todo);
    size_t n_todo = 0;
    for (size_t i = 0; i < s->n_pages; i++) {
        const bp_page *p = s->pages[i];
        if (s->draw_failures && (p->n_boards || p->n_levels || p->n_charts))
            render_one(&q, i);
        else
            q.todo[n_todo++] = i;
    }
    threads_for_each(s->opt.jobs, n_todo / 4 + 1, n_todo, render_at, render_done, &q);
    free(q.todo);
}

/* ------------------------------------------------------------ what pages show */

/* Read one page's body as render_page will, with expand_scan_placeholder
 * for its placeholders; its output and its messages are dropped
 * (render_page renders the same bytes, and says them). */
static void scan_page(site *s, const bp_page *p)
{
    scan_ctx c = {s, p};
    md_options mo = {p->path, p->body_line - 1, s->cfg.unsafe_html, expand_scan_placeholder,
                     &c,      NULL,             NULL,               NULL};
    buf html;
    buf_init(&html);
    diag d;
    diag_init(&d, NULL);
    md_render(p->body, p->body_len, &mo, &html, &d);
    diag_free(&d);
    buf_free(&html);
}

void render_scan(site *s)
{
    md_init();
    for (size_t i = 0; i < s->n_pages; i++)
        if (s->pages[i]->n_boards)
            scan_page(s, s->pages[i]);
    md_release();
}

/* ------------------------------------------------------------ the site's own files */

/* The home page: index.md when there is one, else a list of pages. */
static void render_default_index(site *s, const render_sink *sink, void *out, tmpl *t)
{
    tmpl_scope *sc = tmpl_scope_new(NULL);
    common_vars(s, sc, "");
    tmpl_set_text(sc, "title", s->cfg.title);
    tmpl_set_text(sc, "summary", s->cfg.description ? s->cfg.description : "");
    tmpl_set_text(sc, "slug", "");
    tmpl_set_text(sc, "canonical", s->cfg.base_url);
    share_vars(s, sc, "", s->cfg.description);
    tmpl_set_html(sc, "content", "");
    tmpl_set_html(sc, "measured", "");
    tmpl_set_text(sc, "interactive", "");
    tmpl_set_text(sc, "live", "");
    tmpl_set_text(sc, "results_url", "");
    page_lists lists;
    nav_vars(s, sc, &lists, NULL, "", true);
    buf html;
    buf_init(&html);
    if (tmpl_render(t, sc, &html, &s->d) == 0 && sink)
        sink->write(out, "index.html", html.data, html.len, &s->d);
    buf_free(&html);
    tmpl_scope_free(sc);
}

static void write_sitemap(site *s, const render_sink *sink, void *out)
{
    if (!sink || !s->cfg.base_url[0])
        return;
    bp_page **order = s->order;
    size_t n_order = s->n_order;
    buf x;
    buf_init(&x);
    buf_puts(&x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>");
    buf_html_s(&x, s->cfg.base_url);
    buf_printf(&x, "</loc><lastmod>%s</lastmod></url>\n", s->date);
    for (size_t i = 0; i < n_order; i++) {
        buf_puts(&x, "<url><loc>");
        buf_html_s(&x, s->cfg.base_url);
        buf_html_s(&x, order[i]->slug);
        buf_printf(&x, "/</loc><lastmod>%s</lastmod></url>\n", s->date);
    }
    buf_puts(&x, "</urlset>\n");
    sink->write(out, "sitemap.xml", x.data, x.len, &s->d);
    buf_free(&x);
}

/* ------------------------------------------------------------ the stage */

void render_site(site *s, const render_sink *sink)
{
    tmpl_lib *lib = tmpl_lib_new(s->opt.templates);
    strset named = {0};
    bool have_home = false;
    tmpl **page_t = xcalloc(s->n_pages + 1, sizeof *page_t);
    page_out *res = xcalloc(s->n_pages + 1, sizeof *res);
    for (size_t i = 0; i < s->n_pages; i++) {
        /* Templates load here, in page order; their errors are shown
         * where the sequential build showed them (before the page's). */
        bp_page *p = s->pages[i];
        have_home |= p->is_home;
        diag_init(&res[i].d, NULL);
        page_t[i] =
            template_for(s, &res[i].d, lib, &named, p->is_home ? "index" : p->template_name, p);
    }
    render_all(s, sink, page_t, res);
    for (size_t i = 0; i < s->n_pages; i++) {
        diag_merge(&s->d, &res[i].d);
    }
    page_info *info = xcalloc(s->n_pages + 1, sizeof *info);
    for (size_t i = 0; i < s->n_pages; i++)
        info[i] = res[i].info;
    free(res);
    /* links are checked against every page, so only once all rendered */
    bool rendered = !s->d.errors;
    if (rendered)
        links_check(s, info);
    free(page_t);
    /* the site's own files come after every page's */
    void *out = sink ? sink->open(sink->ctx, s->n_pages) : NULL;
    if (!have_home) {
        tmpl *t = template_for(s, &s->d, lib, &named, "index", NULL);
        if (t)
            render_default_index(s, sink, out, t);
    }
    write_sitemap(s, sink, out);
    feed_write(s, sink, out);
    if (rendered) {
        double t0 = spans_now();
        cards_write(s, info, sink, out);
        span_add("stage", "cards", t0);
        t0 = spans_now();
        search_write(s, info, sink, out);
        span_add("stage", "search", t0);
    }
    if (out)
        sink->close(out);
    for (size_t i = 0; i < s->n_pages; i++)
        page_info_free(&info[i]);
    free(info);
    tmpl_lib_free(lib);
    strset_free(&named);
}
