/* markdown.h — Markdown to HTML with cmark-gfm (tables, autolinks,
 * strikethrough), placeholders `{{ ... }}` found in text (never in code),
 * stable heading ids. markdown.c is the only file that uses cmark-gfm. */
#ifndef BP_MARKDOWN_H
#define BP_MARKDOWN_H

#include "base/diag.h"
#include "base/util.h"

#include <stdbool.h>
#include <stddef.h>

#define MD_MAX_BYTES ((size_t)256 << 10) /* a page body; cmark-gfm has quadratic corners */
#define MD_MAX_TABLE_COLUMNS 64
#define MD_MAX_HTML_BYTES ((size_t)16 << 20)
/* cmark-gfm 0.29.0.gfm.6 is quadratic inside one paragraph in several ways
 * (`![[]()` repeated, unclosed `<?`, a table row of many cells): a cap on the
 * text between blank lines bounds the whole page at (body / cap) * cap^2. */
#define MD_MAX_PARAGRAPH_BYTES ((size_t)32 << 10)
/* Table rows are padded to the header's columns: a short row costs a node
 * per column, so the cells of all tables are counted before parsing. */
#define MD_MAX_TABLE_CELLS 100000
/* ... and cmark-gfm is quadratic in the cells of one row. */
#define MD_MAX_ROW_CELLS 256
/* Every use of a link reference copies its URL and title: uses times the
 * longest definition must stay below this before cmark-gfm sees the page. */
#define MD_MAX_REF_EXPANSION ((size_t)64 << 20)
/* Directives (placeholders alone in their paragraph: figures, tables,
 * levels) per page: each gets an element id, and a page of thousands of
 * figures is not one a reader can use. */
#define MD_MAX_DIRECTIVES 1000

/* Expands one placeholder. inner is the text between "{{" and "}}" (not
 * trimmed); line/col its position in the file; alone is true when it is the
 * whole paragraph. Append HTML to out and set *block when that HTML is a
 * block (a figure, a table): only allowed when alone. Return 0, or -1 after
 * reporting an error (rendering goes on to find more). */
typedef int (*md_expand_fn)(void *ctx, const char *inner, size_t len, int line, int col, bool alone,
                            buf *out, bool *block);

/* Told of one link or image of the page (after its placeholders): url as
 * written (entities and escapes decoded), line/col where it starts in the
 * file (1-based, col in characters; the start of its block when cmark-gfm
 * gives an inline no position, as for autolinks). */
typedef void (*md_link_fn)(void *ctx, const char *url, int line, int col);

typedef struct {
    const char *path; /* for messages */
    int line_offset;  /* file lines before the body (front matter) */
    bool unsafe_html; /* pass raw HTML through (site.yaml unsafe_html) */
    md_expand_fn expand;
    void *ctx;
    strset *ids;     /* element ids the page already uses (the expand callback's figures, the
                        template's); heading ids avoid them and are added. NULL: none */
    md_link_fn link; /* NULL: links are not reported */
    void *link_ctx;
} md_options;

/* Register cmark-gfm's extensions: call once before rendering from several
 * threads (md_render is then safe to call concurrently). */
void md_init(void);

/* Free the calling thread's Markdown memory (kept between pages for
 * speed); call when a thread is done rendering. */
void md_release(void);

/* Render text (len bytes, UTF-8 checked by the caller) to HTML appended to
 * out. Returns 0, or -1 when errors were reported to d. */
int md_render(const char *text, size_t len, const md_options *o, buf *out, diag *d);

/* The id a heading with this text gets: lowercase ASCII letters and digits,
 * other runs become '-' ("How it works" -> "how-it-works"). */
void md_slugify(buf *out, const char *text, size_t len);

/* Release cmark-gfm's registry of extensions, once, at program exit (so
 * valgrind sees nothing left); md_render cannot be used afterwards. */
void md_shutdown(void);

#endif
