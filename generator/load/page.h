/* page.h — content pages: front matter split off the Markdown body and read
 * into bp_page (SPEC §5), with the body's first line remembered so errors in
 * the body point at real file lines. */
#ifndef BP_PAGE_H
#define BP_PAGE_H

#include "load/board.h"
#include "base/diag.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char *path; /* content-relative path, as listed: "boards/mini.yaml" */
    bp_pos pos; /* where the page lists it */
} bp_ref;

typedef struct {
    char *path;      /* file path as opened */
    char *slug;      /* output folder name; "" for the home page (index.md) */
    bp_pos slug_pos; /* of the `slug:` value; 0:0 when the slug is the file name */
    char *title;
    char *summary; /* may be NULL */
    int order;     /* sort key for the index and prev/next; ties by slug */
    char *template_name;
    bp_pos template_pos; /* of the `template:` value; 0:0 for the default */
    bp_ref *boards;
    size_t n_boards;
    bp_ref *levels;
    size_t n_levels;
    bp_ref *charts;
    size_t n_charts;
    size_t body_offset; /* byte offset of the body in the file */
    int body_line;      /* 1-based file line where the body starts */
    bool is_home;
    size_t nav_pos; /* index in the site's navigation order (site.c) */
} bp_page;

/* Split front matter off text. A page starts with a line "---" (after an
 * optional UTF-8 byte order mark); the front matter runs to the next line
 * that is "---" or "...". On success sets the YAML's byte range, the body
 * offset and the body's first line (1-based) and returns 0; without front
 * matter returns 1; unterminated returns -1. */
int page_split(const char *text, size_t len, size_t *fm_start, size_t *fm_len, size_t *body_offset,
               int *body_line);

/* Read a page's front matter. slug_default is the file name without ".md".
 * Returns NULL after reporting every problem. */
bp_page *page_parse(const char *path, const char *text, size_t len, const char *slug_default,
                    diag *d);
void page_free(bp_page *p);

/* True when s is a valid slug or id: 1-64 of [a-z0-9-]. */
bool page_valid_slug(const char *s);

#endif
