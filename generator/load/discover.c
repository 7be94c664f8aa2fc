/* discover.c — the pages of the content folder: every *.md file read and
 * its front matter parsed on --jobs threads (messages kept per page and
 * shown in name order, so they do not depend on the threads), sorted for
 * lists and previous/next, and put in navigation order. */
#include "load/discover.h"
#include "load/page.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SITE_MAX_PAGES 100000
/* Without a nav in site.yaml, the nav lists the first this many pages. */
#define SITE_NAV_DEFAULT 8

static int page_cmp(const void *a, const void *b)
{
    const bp_page *x = *(bp_page *const *)a, *y = *(bp_page *const *)b;
    if (x->is_home != y->is_home)
        return x->is_home ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return strcmp(x->slug, y->slug);
}

/* One page file of the content folder, read and its front matter parsed on
 * a worker thread; messages are kept per page and shown in name order. */
typedef struct {
    char *name;    /* file name */
    bool plain;    /* readdir says: a regular file, not a link */
    bp_page *page; /* NULL when it failed */
    diag d;        /* its messages, merged into the site's in name order */
} page_file;

typedef struct {
    site *s;
    page_file *files;
    const char *root; /* realpath of the content folder, or NULL */
} discover_queue;

static void discover_one(const discover_queue *q, page_file *f)
{
    diag d;
    diag_init(&d, NULL);
    char *path = xasprintf("%s/%s", q->s->opt.content, f->name);
    char real[PATH_MAX];
    char *text = NULL;
    size_t len;
    /* A regular file listed in the folder is inside it; a link (or a file
     * system that does not say) is resolved and checked. */
    bool inside = q->root && (f->plain || (realpath(path, real) &&
                                           strncmp(real, q->root, strlen(q->root)) == 0 &&
                                           real[strlen(q->root)] == '/'));
    if (!inside) {
        diag_error(&d, path, 0, 0,
                   "leads outside the content folder (a symbolic link?); copy the file in");
    } else if (file_read(path, PAGE_MAX_FILE_BYTES, &text, &len) != 0) {
        if (errno == EFBIG)
            diag_error(&d, path, 0, 0,
                       "cannot read the page: larger than 320 KiB (a page body may be at most "
                       "256 KiB)");
        else
            diag_read_error(&d, path, 0, 0, path, "the page", errno, PAGE_MAX_FILE_BYTES);
    } else {
        f->name[strlen(f->name) - 3] = '\0';
        f->page = page_parse(path, text, len, f->name, &d);
    }
    free(text);
    free(path);
    f->d = d;
}

static void discover_at(void *ctx, size_t i)
{
    const discover_queue *q = ctx;
    discover_one(q, &q->files[i]);
}

static int page_file_cmp(const void *a, const void *b)
{
    return strcmp(((const page_file *)a)->name, ((const page_file *)b)->name);
}

void discover_pages(site *s)
{
    DIR *dh = opendir(s->opt.content);
    if (!dh) {
        s->d.io = errno != ENOENT;
        diag_error(&s->d, s->opt.content, 0, 0, "cannot open the content folder: %s",
                   strerror(errno));
        return;
    }
    page_file *files = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dh))) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l < 4 || strcmp(e->d_name + l - 3, ".md") != 0)
            continue;
        files = xgrow(files, sizeof *files, &cap, n + 1);
        memset(&files[n], 0, sizeof files[n]);
        files[n].name = xstrdup(e->d_name);
        files[n].plain = e->d_type == DT_REG;
        n++;
    }
    closedir(dh);
    if (n)
        qsort(files, n, sizeof *files, page_file_cmp);
    if (n > SITE_MAX_PAGES)
        diag_error(&s->d, s->opt.content, 0, 0, "%zu pages; the limit is %d", n, SITE_MAX_PAGES);
    s->pages = xcalloc(n ? n : 1, sizeof *s->pages);
    char root[PATH_MAX];
    discover_queue q = {s, files, realpath(s->opt.content, root) ? root : NULL};
    size_t n_read = n < SITE_MAX_PAGES ? n : SITE_MAX_PAGES;
    /* a few pages are not worth a thread */
    threads_for_each(s->opt.jobs, n_read / 4 + 1, n_read, discover_at, NULL, &q);
    for (size_t i = 0; i < n_read; i++) {
        diag_merge(&s->d, &files[i].d);
        if (files[i].page)
            s->pages[s->n_pages++] = files[i].page;
        else
            s->failed_pages++;
    }
    for (size_t i = 0; i < n; i++)
        free(files[i].name);
    free(files);
    qsort(s->pages, s->n_pages, sizeof *s->pages, page_cmp);
    for (size_t i = 0; i < s->n_pages; i++) /* the site's own top-level folder */
        if (strcmp(s->pages[i]->slug, "static") == 0)
            diag_error(&s->d, s->pages[i]->path, s->pages[i]->slug_pos.line,
                       s->pages[i]->slug_pos.col,
                       "slug 'static' is the site's folder for the static files (%s/static/); "
                       "rename the page or give it another 'slug:'",
                       s->opt.out);
    for (size_t i = 1; i < s->n_pages; i++) {
        if (strcmp(s->pages[i]->slug, s->pages[i - 1]->slug) != 0)
            continue;
        /* Point at a `slug:` line when one of the two set it. */
        const bp_page *p = s->pages[i], *o = s->pages[i - 1];
        if (!p->slug_pos.line && o->slug_pos.line) {
            p = s->pages[i - 1];
            o = s->pages[i];
        }
        diag_error(&s->d, p->path, p->slug_pos.line, p->slug_pos.col,
                   "slug '%s' is also used by %s", p->slug, o->path);
    }
}

/* The order of previous/next and of the home page's list; s->n_nav_items
 * of them, from the front, make the nav. */
void discover_nav_order(site *s)
{
    bp_page **out = s->order = xcalloc(s->n_pages + 1, sizeof *s->order);
    size_t n = 0;
    for (size_t i = 0; i < s->n_pages; i++)
        s->pages[i]->nav_pos = SIZE_MAX;
    for (size_t k = 0; k < s->cfg.n_nav; k++)
        for (size_t i = 0; i < s->n_pages; i++) {
            bp_page *p = s->pages[i];
            if (!p->is_home && p->nav_pos == SIZE_MAX && strcmp(p->slug, s->cfg.nav[k]) == 0) {
                p->nav_pos = n;
                out[n++] = p;
            }
        }
    size_t named = n;
    for (size_t i = 0; i < s->n_pages; i++) {
        bp_page *p = s->pages[i];
        if (!p->is_home && p->nav_pos == SIZE_MAX) {
            p->nav_pos = n;
            out[n++] = p;
        }
    }
    s->n_nav_items = s->cfg.nav ? named : n < SITE_NAV_DEFAULT ? n : SITE_NAV_DEFAULT;
    s->n_order = n;
}
