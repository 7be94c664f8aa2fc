/* diag.h — every error a user sees goes through here, as
 *   PATH:LINE:COL: error: MESSAGE
 * with 1-based positions in the real file, and "did you mean" hints. */
#ifndef BP_DIAG_H
#define BP_DIAG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    FILE *out;      /* where messages go; NULL collects them only */
    int errors;     /* how many errors were reported (a repeated line counts once) */
    size_t reports; /* diag_error calls and added lines, repeats included */
    bool io;        /* one of them was an I/O or resource failure (exit status 3) */
    bool usage;     /* one of them was bad usage, refused up front (exit status 2) */
    char *text;     /* every message so far, one per line (owned) */
    size_t len, cap;
    uint64_t *seen; /* hashes of the lines given so far (open addressing, 0 = free):
                       the same line twice (a partial two templates share) is said once */
    size_t n_seen, cap_seen;
} diag;

void diag_init(diag *d, FILE *out);
void diag_free(diag *d);
/* Hand over the messages (the caller frees; NULL when there were none) and
 * free the rest, as diag_free does. */
char *diag_take(diag *d);

/* Report one error. line/col 0 leave the position out ("PATH: error: ...");
 * a NULL path gives "boardpress: error: ...". A line already reported is
 * not repeated (nor counted again). */
void diag_error(diag *d, const char *path, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Say something that does not fail the build ("PATH: warning: MESSAGE"):
 * printed only (a diag without out drops it), never counted as an error. */
void diag_warning(diag *d, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A mark, and whether anything was reported since it, repeats included.
 * A loader asks this, not whether errors grew: a line said before (the same
 * file met twice) is shown and counted once, yet it is still a failure. */
size_t diag_mark(const diag *d);
bool diag_failed_since(const diag *d, size_t mark);

/* Report that file could not be read, at path:line:col (the file itself, or
 * what refers to it): "cannot read WHAT: REASON", with err the errno of
 * file_read and max_bytes the size it allowed. A missing file, a folder or
 * a named pipe in its place and a file too large are bad input (exit 1);
 * anything else the system refused is an I/O failure (d->io, exit 3). */
void diag_read_error(diag *d, const char *path, int line, int col, const char *file,
                     const char *what, int err, size_t max_bytes);

/* Report the messages another diag collected (text as it kept them, one
 * per line; NULL for none), each as diag_error would; io is its I/O flag. */
void diag_add_text(diag *d, const char *text, bool io);

/* One message taken apart (diag_entries), for a reader other than the
 * terminal (the preview server's error overlay). */
typedef struct {
    char *text;    /* the line exactly as stderr got it, without its newline */
    char *path;    /* the file it names; NULL for "boardpress: error: ..." */
    int line, col; /* 1-based (col in characters); 0 when the message has none */
    char *message; /* what follows "error: " (the hint included) */
    char *hint;    /* the hint at its end, "did you mean 'x'?" or "expected 'a' or 'b'";
                      NULL when there is none */
    char *source;  /* the line of path that line names (tabs kept, bytes that are not
                      UTF-8 as U+FFFD, a long line cut around col with "…"); NULL when
                      there is no line or the file cannot be read */
    char *caret;   /* for source: a space for every character before col (a tab for a
                      tab), then '^'; NULL without source or col */
} diag_entry;

/* The messages of text (as a diag keeps them: d->text, diag_take; NULL for
 * none) taken apart, with each named file's line read now (files are read
 * for the first DIAG_SOURCE_ENTRIES messages only). *n gets the count. The
 * caller frees the array with diag_entries_free. A path that itself holds
 * ":LINE:COL: error: " cannot be told from a position. */
#define DIAG_SOURCE_ENTRIES 100
diag_entry *diag_entries(const char *text, size_t *n);
void diag_entries_free(diag_entry *e, size_t n);

/* The exit status for what was reported: 0, 1 (bad input), 2 (bad usage)
 * or 3 (I/O). */
int diag_exit_status(const diag *d);

/* The candidate closest to word (edit distance at most 2, or a third of the
 * word's length for long words), or NULL. */
const char *diag_suggest(const char *word, const char *const *candidates, size_t n);

/* "unknown WHAT 'WORD'; did you mean 'X'?" when a candidate is near; else
 * "unknown WHAT 'WORD' (expected 'a', 'b' or 'c')" when there are at most 12. */
void diag_unknown(diag *d, const char *path, int line, int col, const char *what, const char *word,
                  const char *const *candidates, size_t n);

/* In both, WHAT may be "NOUN|CONTEXT": "unknown key 'x' in section 'y'". */
/* Append diag_unknown's text (without position) to dst (size n). */
void diag_unknown_text(char *dst, size_t n, const char *what, const char *word,
                       const char *const *candidates, size_t count);

#endif
