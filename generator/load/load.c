/* load.c — the load stage of a build (load.h): the source folders, the
 * catalog, site.yaml, the pages and what they list, in that order; and
 * site.yaml itself, whose nav and about must name pages. */
#include "load/load.h"
#include "load/board.h"
#include "load/discover.h"
#include "load/refs.h"
#include "load/sources.h"
#include "load/yread.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Every page shows the nav: it lists what site.yaml names, at most this
 * many (a nav of every page made output grow with the square of the pages:
 * 16 GB for 20,000). */
#define SITE_MAX_NAV 100

/* ------------------------------------------------------------ site.yaml */

static const char *const site_keys[] = {"title",       "description", "base_url", "language",
                                        "unsafe_html", "nav",         "about"};

/* A file of the content folder that resolves outside it (a symbolic link):
 * true after reporting it, as pages, boards and levels are. */
static bool leads_outside(site *s, const char *path)
{
    char real[PATH_MAX], root[PATH_MAX];
    if (!realpath(path, real) || !realpath(s->opt.content, root))
        return false; /* missing: the reader says so */
    size_t n = strlen(root);
    if (strncmp(real, root, n) == 0 && real[n] == '/')
        return false;
    diag_error(&s->d, path, 0, 0,
               "leads outside the content folder (a symbolic link?); copy the file in");
    return true;
}

/* site.yaml into s->cfg (language "en" and no base_url unless it says). */
static void load_config(site *s)
{
    site_config *c = &s->cfg;
    c->language = xstrdup("en");
    c->base_url = xstrdup("");
    char *path = xasprintf("%s/site.yaml", s->opt.content);
    char *text = NULL;
    size_t len;
    diag *d = &s->d;
    if (leads_outside(s, path)) {
        free(path);
        return;
    }
    if (file_read(path, BP_MAX_FILE_BYTES, &text, &len) != 0) {
        if (errno == ENOENT)
            diag_error(d, path, 0, 0,
                       "cannot read the site settings: no such file (every site needs a "
                       "site.yaml with a title)");
        else
            diag_read_error(d, path, 0, 0, path, "the site settings", errno, BP_MAX_FILE_BYTES);
        free(path);
        return;
    }
    bool empty;
    ynode *root = yaml_parse(path, text, len, 0, d, &empty);
    free(text);
    if (!root) {
        if (empty)
            diag_error(d, path, 1, 1, "site.yaml is empty; it needs at least a title");
        free(path);
        return;
    }
    if (yexpect(path, root, YN_MAP, "site.yaml", d) == 0) {
        ycheck_keys(path, root, "site key", site_keys, sizeof site_keys / sizeof site_keys[0], d);
        const ynode *v;
        if (!(v = ymap_get(root, "title")))
            ymissing(path, root, "title", "site.yaml", d);
        else
            yread_text(path, v, "title", &c->title, d);
        if ((v = ymap_get(root, "description")))
            yread_text(path, v, "description", &c->description, d);
        if ((v = ymap_get(root, "language"))) {
            free(c->language);
            c->language = NULL;
            yread_text(path, v, "language", &c->language, d);
        }
        if ((v = ymap_get(root, "base_url"))) {
            char *u = NULL;
            if (yread_text(path, v, "base_url", &u, d) == 0) {
                if (strncmp(u, "https://", 8) != 0 && strncmp(u, "http://", 7) != 0) {
                    diag_error(d, path, v->line, v->col,
                               "base_url must start with https:// or http://");
                } else {
                    free(c->base_url);
                    size_t n = strlen(u);
                    c->base_url = n && u[n - 1] == '/' ? xstrdup(u) : xasprintf("%s/", u);
                }
            }
            free(u);
        }
        if ((v = ymap_get(root, "unsafe_html")))
            yread_bool(path, v, "unsafe_html", &c->unsafe_html, d);
        if ((v = ymap_get(root, "about")) && yread_id(path, v, "about", &c->about, d) == 0)
            c->about_pos = (bp_pos){v->line, v->col};
        if ((v = ymap_get(root, "nav")) && yexpect(path, v, YN_SEQ, "nav", d) == 0 &&
            v->n > SITE_MAX_NAV) {
            diag_error(d, path, v->line, v->col,
                       "nav lists %zu pages; the limit is %d (every page shows the nav, and the "
                       "home page lists every page anyway)",
                       v->n, SITE_MAX_NAV);
        } else if (v && v->type == YN_SEQ) {
            c->nav = xcalloc(v->n ? v->n : 1, sizeof *c->nav);
            c->nav_pos = xcalloc(v->n ? v->n : 1, sizeof *c->nav_pos);
            for (size_t i = 0; i < v->n; i++)
                if (yread_id(path, v->kids[i], "nav entry", &c->nav[c->n_nav], d) == 0)
                    c->nav_pos[c->n_nav++] = (bp_pos){v->kids[i]->line, v->kids[i]->col};
        }
    }
    ynode_free(root);
    free(path);
}

/* ------------------------------------------------------------ nav and about */

/* A slug site.yaml names (nav, about) must be a page's; else an error with
 * the nearest slug as a hint. */
static void check_slug_ref(site *s, const char *path, const char *what, const char *slug,
                           bp_pos pos)
{
    const char **slugs = xcalloc(s->n_pages + 1, sizeof *slugs);
    size_t n = 0;
    bool found = false;
    for (size_t i = 0; i < s->n_pages && !found; i++) {
        found = strcmp(s->pages[i]->slug, slug) == 0;
        if (s->pages[i]->slug[0])
            slugs[n++] = s->pages[i]->slug;
    }
    if (!found) {
        const char *near = diag_suggest(slug, slugs, n);
        diag_error_near(&s->d, path, pos.line, pos.col, near,
                        "%s names '%s', but no page has that slug", what, slug);
    }
    free(slugs);
}

static void check_nav(site *s)
{
    /* A page that did not load may have had any slug: saying that nav
     * names no such page would be a second error for the page's one. */
    if (s->failed_pages)
        return;
    char *path = xasprintf("%s/site.yaml", s->opt.content);
    for (size_t k = 0; k < s->cfg.n_nav; k++)
        check_slug_ref(s, path, "nav", s->cfg.nav[k], s->cfg.nav_pos[k]);
    if (s->cfg.about)
        check_slug_ref(s, path, "about", s->cfg.about, s->cfg.about_pos);
    free(path);
}

/* ------------------------------------------------------------ the stage */

void load_site(site *s)
{
    /* The catalog first: nothing simulates without it. Nothing of a content
     * folder that is not there is read (each file would be one more error). */
    if (sources_check(s) || !s->no_content) {
        char *cat_path = xasprintf("%s/catalog.yaml", s->opt.content);
        s->cat = leads_outside(s, cat_path) ? NULL : catalog_load(cat_path, &s->d);
        free(cat_path);
        load_config(s);
        discover_pages(s);
    }
    if (s->cat)
        refs_load(s);
    check_nav(s);
    discover_nav_order(s);
}
