/* page.h — content pages: front matter split off the Markdown body and read
 * into the site model's bp_page (docs/pages.md "Front matter"), with the body's first line
 * remembered so errors in the body point at real file lines. */
#ifndef BP_PAGE_H
#define BP_PAGE_H

#include "base/diag.h"
#include "model/site.h"

#include <stdbool.h>
#include <stddef.h>

/* The largest page file read: front matter and a body of at most
 * MD_MAX_BYTES (render/markdown.h; 256 KiB). */
#define PAGE_MAX_FILE_BYTES ((size_t)320 << 10)

/* Split front matter off text. A page starts with a line "---" (after an
 * optional UTF-8 byte order mark); the front matter runs to the next line
 * that is "---" or "...". On success sets the YAML's byte range, the body
 * offset and the body's first line (1-based) and returns 0; without front
 * matter returns 1; unterminated returns -1. */
int page_split(const char *text, size_t len, size_t *fm_start, size_t *fm_len, size_t *body_offset,
               int *body_line);

/* Read a page's front matter, and keep a copy of its body (bp_page.body).
 * slug_default is the file name without ".md". Returns NULL after
 * reporting every problem; free with page_free. */
bp_page *page_parse(const char *path, const char *text, size_t len, const char *slug_default,
                    diag *d);

/* True when s is a valid slug or id: 1-64 of [a-z0-9-]. */
bool page_valid_slug(const char *s);

#endif
