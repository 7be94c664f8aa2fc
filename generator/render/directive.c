/* directive.c — what every directive of a page uses (render_internal.h):
 * the page's boards, levels and charts by id (what is found counts as
 * shown), files in the page folder (once each, through the sink), unique
 * element ids, errors at a word of the placeholder, a board's figure,
 * goals in words. */
#include "render/render_internal.h"
#include "base/fmt.h"
#include "draw/figures.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ errors at a word */

char *expand_word_str(const word *w)
{
    return xstrndup(w->s, w->len);
}

int expand_err_word(const ph_at *a, const word *w, const char *msg)
{
    diag_error(a->pc->d, a->pc->page->path, a->line, a->col + 2 + (int)w->off, "%s", msg);
    return -1;
}

int expand_err_note(const ph_at *a, const word *w, const diag_note *n)
{
    diag_error_note(a->pc->d, a->pc->page->path, a->line, a->col + 2 + (int)w->off, n);
    return -1;
}

int expand_err_unknown(const ph_at *a, const word *w, const char *what, const char *name,
                       const char *const *cands, size_t n)
{
    diag_note note;
    diag_note_unknown(&note, what, name, cands, n);
    return expand_err_note(a, w, &note);
}

/* The ids of the boards, levels or charts (what[0]: 'b', 'l', 'c') the
 * page lists and that loaded; at most max. */
static size_t listed_ids(const page_ctx *pc, const char *what, const char **ids, size_t max)
{
    const site *s = pc->s;
    const bp_page *p = pc->page;
    size_t n = 0;
    if (what[0] == 'b') {
        for (size_t i = 0; i < p->n_boards; i++) {
            const bp_variant *b = site_board_file(s, p->boards[i].path);
            if (n < max && b && b->board)
                ids[n++] = b->board->id;
        }
    } else if (what[0] == 'l') {
        for (size_t i = 0; i < p->n_levels; i++) {
            const slevel *sl = site_level_file(s, p->levels[i].path);
            if (n < max && sl && sl->loaded)
                ids[n++] = sl->level->id;
        }
    } else {
        for (size_t i = 0; i < p->n_charts; i++) {
            const schart *sc = site_chart_file(s, p->charts[i].path);
            if (n < max && sc && sc->chart)
                ids[n++] = sc->chart->id;
        }
    }
    return n;
}

/* An id (name) that is none of the page's boards, levels or charts (what):
 * "unknown board 'x'; did you mean 'y'?" for a near one, else the ones the
 * page has and where a page lists them. The same words for directives and
 * value placeholders. */
int expand_err_unlisted(const ph_at *a, const word *w, const char *name, const char *what)
{
    const char *ids[256];
    size_t n = listed_ids(a->pc, what, ids, 256);
    diag_note note;
    diag_note_unknown(&note, what, name, ids, n);
    if (!diag_suggest(name, ids, n)) { /* the ids it has are part of the message; then what to do */
        char said[sizeof note.msg];
        diag_note_text(&note, said, sizeof said);
        diag_note_set(&note, "%s", said);
        diag_note_hint(&note, false, "a page can use the %ss its front matter lists under '%ss:'",
                       what, what);
    }
    return expand_err_note(a, w, &note);
}

/* ------------------------------------------------------------ labels */

void expand_put_label(buf *out, const bp_page *p, sim_measure m)
{
    const char *t = page_measure_label(p, m);
    if (t[0] >= 'a' && t[0] <= 'z') {
        buf_putc(out, (char)(t[0] - 'a' + 'A'));
        t++;
    }
    buf_html_s(out, t);
}

/* ------------------------------------------------------------ figures */

void expand_unique_id(page_ctx *pc, buf *out, const char *base)
{
    char *id = xstrdup(base);
    for (int k = 2; !strset_add(&pc->ids, id); k++) {
        free(id);
        id = xasprintf("%s-%d", base, k);
    }
    buf_puts(out, id);
    free(id);
}

/* Width and height from an SVG's root element, for <img> sizes. */
void expand_svg_size(const char *svg, int *w, int *h)
{
    *w = *h = 0;
    const char *tag = strstr(svg, "<svg");
    if (!tag)
        return;
    const char *ws = strstr(tag, " width=\""), *hs = strstr(tag, " height=\"");
    if (ws)
        *w = (int)ceil(strtod(ws + 8, NULL));
    if (hs)
        *h = (int)ceil(strtod(hs + 9, NULL));
}

static bool has_goals(const bp_board *b)
{
    for (int m = 0; m < SIM_M_COUNT; m++)
        if (b->sim.goals[m].has_max || b->sim.goals[m].has_min)
            return true;
    return false;
}

static void verdict(buf *out, const bp_variant *b)
{
    if (!has_goals(b->board))
        return;
    int missed = 0;
    for (int m = 0; m < SIM_M_COUNT; m++)
        if (b->result.goals[m].present && !b->result.goals[m].pass)
            missed++;
    if (missed == 0)
        buf_puts(out, ": <span class=\"bp-verdict bp-pass\">meets the goals</span>");
    else if (missed == 1)
        buf_puts(out, ": <span class=\"bp-verdict bp-fail\">misses a goal</span>");
    else
        buf_printf(out, ": <span class=\"bp-verdict bp-fail\">misses %d goals</span>", missed);
}

/* The board's figure, its SVG written into the page folder. */
int expand_board_figure(page_ctx *pc, bp_variant *b, const ph_at *a, const char *file_stem,
                        int wide_w, buf *out)
{
    if (figure_board(pc->d, b, pc->page->path, a->line, a->col) != 0)
        return -1;
    if (!pc->info->first_board)
        pc->info->first_board = b;
    buf pic;
    buf_init(&pic);
    fig_spec f = {&b->fig, file_stem, "bp-diagram", 0, wide_w, false, NULL};
    if (expand_figure(pc, &f, &pic) != 0) {
        buf_free(&pic);
        return -1;
    }
    buf_puts(out, "<figure class=\"bp-figure bp-board\" id=\"");
    char *base = xasprintf("board-%s", b->board->id);
    expand_unique_id(pc, out, base);
    free(base);
    buf_puts(out, "\" data-board=\"");
    buf_html_s(out, b->board->id);
    buf_puts(out, "\">");
    buf_put(out, pic.data, pic.len);
    buf_free(&pic);
    buf_puts(out, "<figcaption><span class=\"bp-board-title\">");
    buf_html_s(out, b->board->title);
    buf_puts(out, "</span>");
    verdict(out, b);
    buf_puts(out, "</figcaption></figure>\n");
    expand_results_board(pc, b->board->id, b);
    return 0;
}

void expand_goal_text(buf *b, sim_measure m, const sim_goal *g)
{
    sim_unit u = sim_measure_unit(m);
    if (g->has_max && g->has_min) {
        buf_puts(b, "between ");
        fmt_measure(b, m, g->min);
        buf_puts(b, " and ");
        fmt_measure(b, m, g->max);
    } else if (g->has_max) {
        if (g->max == 0 && u == SIM_UNIT_COUNT) {
            buf_puts(b, "none allowed");
            return;
        }
        buf_puts(b, u == SIM_UNIT_SECONDS ? "under " : "at most ");
        fmt_measure(b, m, g->max);
    } else if (g->has_min) {
        buf_puts(b, "at least ");
        fmt_measure(b, m, g->min);
    }
}

/* ------------------------------------------------------------ the page's own */

bp_variant *expand_page_board(page_ctx *pc, const char *id)
{
    size_t listed;
    bp_variant *b = site_page_board(pc->s, pc->page, id, &listed);
    if (b)
        pc->shows_board[listed] = true;
    return b;
}

slevel *expand_page_level(page_ctx *pc, const char *id)
{
    size_t listed;
    slevel *sl = site_page_level(pc->s, pc->page, id, &listed);
    if (sl)
        pc->shows_level[listed] = true;
    return sl;
}

schart *expand_page_chart(page_ctx *pc, const char *id)
{
    size_t listed;
    schart *sc = site_page_chart(pc->s, pc->page, id, &listed);
    if (sc)
        pc->shows_chart[listed] = true;
    return sc;
}

int expand_page_file(page_ctx *pc, const char *name, const char *data)
{
    if (!strset_add(&pc->files, name))
        return 0;
    if (!pc->sink)
        return 0;
    char *rel = pc->page->is_home ? xstrdup(name) : xasprintf("%s/%s", pc->page->slug, name);
    int rc = pc->sink->write(pc->out, rel, data, strlen(data), pc->d);
    free(rel);
    return rc;
}
