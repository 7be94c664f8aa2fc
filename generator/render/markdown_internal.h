/* markdown_internal.h — what the two halves of the Markdown renderer share:
 * the page body (markdown.c parses it with cmark-gfm; md_limits.c checks
 * it before that and maps positions in it to the file). */
#ifndef BP_MARKDOWN_INTERNAL_H
#define BP_MARKDOWN_INTERNAL_H

#include "base/diag.h"
#include "render/markdown.h"

#include <stddef.h>

typedef struct {
    const md_options *o;
    const char *text;
    size_t len;
    size_t *line_start; /* byte offset of each body line (0-based index) */
    size_t n_lines;
    diag *d;
    int errors; /* reported so far */
} md_body;

/* The 1-based character column of a 1-based byte column on body line line
 * (byte_col itself when the line is not in the body). */
int md_char_col(const md_body *b, int line, int byte_col);
/* Report msg at body line line, byte column byte_col, as the file's line
 * and character column; counts it in b->errors. */
void md_report(md_body *b, int line, int byte_col, const char *msg);

/* Report what would make cmark-gfm slow or large (the MD_MAX_* limits of
 * markdown.h); returns how many were reported. */
int md_check_limits(md_body *b);

#endif
