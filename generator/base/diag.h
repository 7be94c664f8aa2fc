/* diag.h — every error a user sees goes through here, as
 *   PATH:LINE:COL: error: MESSAGE
 * with 1-based positions in the real file, and "did you mean" hints. */
#ifndef BP_DIAG_H
#define BP_DIAG_H

#include "base/util.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* An error fails the build; a warning is only said. */
typedef enum { DIAG_ERROR, DIAG_WARNING } diag_class;

/* One message as a record, made where it is found and formatted only at
 * the edge: the terminal's line (diag_line) and the preview's overlay
 * (diag_entries) are both made from it. */
typedef struct {
    char *path;    /* the file it names; NULL: the program ("boardpress: error: ...") */
    int line, col; /* 1-based (col in characters); 0 when the message has none */
    diag_class cls;
    char *message;   /* the sentence, without its hint */
    char *hint;      /* what to do: "did you mean 'x'?", "expected 'a' or 'b'"; NULL: none */
    bool hint_paren; /* said as "MESSAGE (HINT)"; else "MESSAGE; HINT" */
} diag_record;

typedef struct {
    FILE *out;         /* where messages go; NULL collects them only */
    int errors;        /* how many errors were reported (a repeated line counts once) */
    size_t reports;    /* diag_error calls and merged records, repeats included */
    bool io;           /* one of them was an I/O or resource failure (exit status 3) */
    bool usage;        /* one of them was bad usage, refused up front (exit status 2) */
    diag_record *recs; /* every error so far, and the warnings said to out, in order (owned) */
    size_t n_recs, cap_recs;
    uint64_t *seen; /* hashes of the lines given so far (open addressing, 0 = free):
                       the same line twice (a partial two templates share) is said once */
    size_t n_seen, cap_seen;
    char *lines; /* diag_text's last answer (owned) */
} diag;

void diag_init(diag *d, FILE *out);
void diag_free(diag *d);
/* Report every record of from in d, in order, as diag_error would (said
 * once, counted), with its I/O and usage flags; from is freed. How a
 * thread's own diag joins the build's. */
void diag_merge(diag *d, diag *from);

/* Every error so far as the terminal said them, one per line, or NULL
 * when there are none (for tests and messages about messages). The text is
 * d's, good until the next call or diag_free. */
const char *diag_text(diag *d);

/* The terminal's line of r, without its newline:
 * "PATH:LINE:COL: error: MESSAGE; HINT" (or "MESSAGE (HINT)"). */
void diag_line(buf *b, const diag_record *r);

/* A copy of d's error records (free with diag_records_free); *n the count. */
diag_record *diag_records_copy(const diag *d, size_t *n);
void diag_records_free(diag_record *r, size_t n);

/* Report one error. line/col 0 leave the position out ("PATH: error: ...");
 * a NULL path gives "boardpress: error: ...". A line already reported is
 * not repeated (nor counted again). */
void diag_error(diag *d, const char *path, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* The same with a hint that says what to do ("did you mean 'x'?"; NULL:
 * none), said after the message: "MESSAGE; HINT". The message is never
 * searched for a hint: a hint is given here or not at all. */
void diag_error_hint(diag *d, const char *path, int line, int col, const char *hint,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same with the hint "did you mean 'NEAR'?" (near NULL: no hint). */
void diag_error_near(diag *d, const char *path, int line, int col, const char *near,
                     const char *fmt, ...) __attribute__((format(printf, 6, 7)));

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

/* One error as the preview server's overlay shows it (diag_entries). */
typedef struct {
    char *text;    /* the line exactly as stderr got it, without its newline */
    char *path;    /* the file it names; NULL for "boardpress: error: ..." */
    int line, col; /* 1-based (col in characters); 0 when the message has none */
    char *message; /* what follows "error: " (the hint included, as the terminal says it) */
    char *hint;    /* the hint at its end, "did you mean 'x'?" or "expected 'a' or 'b'";
                      NULL when there is none */
    char *source;  /* the line of path that line names (tabs kept, bytes that are not
                      UTF-8 as U+FFFD, a long line cut around col with "…"); NULL when
                      there is no line or the file cannot be read */
    char *caret;   /* for source: a space for every character before col (a tab for a
                      tab), then '^'; NULL without source or col */
} diag_entry;

/* The errors of records r[0..n) (warnings left out), with each named
 * file's line read now (files are read for the first DIAG_SOURCE_ENTRIES
 * only). *count gets how many. Free with diag_entries_free. */
#define DIAG_SOURCE_ENTRIES 100
diag_entry *diag_entries(const diag_record *r, size_t n, size_t *count);
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

/* A message made where no diag is at hand (a value's parser, a name's
 * lookup), its hint kept apart, for the caller to report at its place
 * (diag_error_note): the record gets both as they were made. */
typedef struct {
    char msg[1024];
    char hint[2048]; /* "" when there is none */
    bool paren;      /* the hint is said as "MESSAGE (HINT)"; else "MESSAGE; HINT" */
} diag_note;

/* n's message, without a hint. */
void diag_note_set(diag_note *n, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* n's hint (said in parentheses with paren). */
void diag_note_hint(diag_note *n, bool paren, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Put what the message is about before it: "WHAT: MESSAGE". */
void diag_note_lead(diag_note *n, const char *what);
/* diag_unknown's message and hint into n. WHAT may be "NOUN|CONTEXT":
 * "unknown key 'x' in section 'y'" (in diag_unknown too). */
void diag_note_unknown(diag_note *n, const char *what, const char *word,
                       const char *const *candidates, size_t count);
/* Report n as diag_error_hint would its message and hint. */
void diag_error_note(diag *d, const char *path, int line, int col, const diag_note *n);
/* n as the terminal says it after "error: " (its hint included), into
 * dst (size size): for tests and for text that is not a diagnostic. */
void diag_note_text(const diag_note *n, char *dst, size_t size);

#endif
