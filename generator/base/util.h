/* util.h — memory, growable buffers, string sets, whole-file reading and
 * writing, and worker threads for the generator. Out of memory aborts with
 * a tagged message (xmalloc family); every other failure is returned to the
 * caller. */
#ifndef BP_UTIL_H
#define BP_UTIL_H

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The largest content file boardpress reads (Markdown, YAML, templates). */
#define BP_MAX_FILE_BYTES ((size_t)1 << 20)

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow an array of count elements of size each so it holds at least need
 * elements; *cap is updated. Returns the (possibly moved) array. */
void *xgrow(void *p, size_t size, size_t *cap, size_t need);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable byte buffer, always NUL-terminated. */
typedef struct {
    char *data;
    size_t len;
    size_t cap;
} buf;

void buf_init(buf *b);
void buf_free(buf *b);
void buf_clear(buf *b);
void buf_put(buf *b, const char *s, size_t n);
void buf_puts(buf *b, const char *s);
void buf_putc(buf *b, char c);
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(buf *b, const char *fmt, va_list ap);
/* Hand over the bytes (caller frees); the buffer is left empty. */
char *buf_detach(buf *b);

/* Escape for HTML text and double-quoted attributes (& < > " '). */
void buf_html(buf *b, const char *s, size_t n);
void buf_html_s(buf *b, const char *s);
/* Escape as the inside of a JSON string (also safe inside <script>: "<" and
 * the line separators are written as \u escapes). */
void buf_json_str(buf *b, const char *s, size_t n);

/* Read a whole regular file. Returns 0 and a NUL-terminated heap copy in
 * *out (the caller frees), or -1 with errno set: EFBIG above max_bytes,
 * EISDIR for a folder, FILE_ENOTREG for a named pipe, socket or device
 * (refused unread: a pipe would block the build forever). */
int file_read(const char *path, size_t max_bytes, char **out, size_t *len);
/* The errno file_read gives a path that is neither a regular file nor a
 * folder (Linux has no errno of its own for that). */
#define FILE_ENOTREG ENODEV

/* Why file_read failed on path, as words for a message ("no such file",
 * "it is a folder, not a file", "larger than 1 MiB"), in why (size n);
 * returns why. */
const char *file_error_text(const char *path, int err, size_t max_bytes, char *why, size_t n);
/* True when err is the system's failure (permissions, I/O), false when it
 * is the input's (missing, too large, not a regular file). */
bool file_error_is_io(int err);

/* Write all of data to fd (retrying short writes). Returns 0 or -1 (errno). */
int file_write_all(int fd, const void *data, size_t len);

/* Write a whole file so that no reader sees half of it and a writer killed
 * on the way leaves nothing behind: an unnamed file (O_TMPFILE) linked in
 * when complete, or where that is missing a temporary file renamed into
 * place. Returns 0 or -1 (errno set). */
int file_write_atomic(const char *path, const void *data, size_t len);

/* True when s[0..n) is valid UTF-8 without NUL bytes; otherwise *bad_at is the
 * offset of the first bad byte. */
bool utf8_valid(const char *s, size_t n, size_t *bad_at);

/* The 1-based line and character column of byte offset off in text. */
void text_pos(const char *text, size_t off, int *line, int *col);

/* The offset of the first control character in s[0..n) (valid UTF-8) that
 * text on a page may not hold: C0 controls other than tab, line feed and
 * carriage return, DEL, and the C1 controls U+0080 to U+009F (they are
 * invisible, and HTML calls them errors); n when there is none. *cp gets
 * the character. */
size_t text_control_at(const char *s, size_t n, unsigned *cp);

/* A set of strings (open addressing; copies what it stores). */
typedef struct {
    char **slots;
    size_t cap, n;
} strset;

/* Add s; returns false when it was already there. */
bool strset_add(strset *set, const char *s);
bool strset_has(const strset *set, const char *s);
void strset_free(strset *set);

/* 64-bit FNV-1a, for cache keys and stable ids. */
uint64_t hash64(const void *data, size_t n, uint64_t seed);
/* A faster checksum of n bytes for files (cache entries, the files of a
 * site): 8-byte words in four lanes; a change of one word or of the
 * length always changes it. */
uint64_t hash64_words(const void *data, size_t n);

/* Seconds on the monotonic clock, for how long something took. */
double clock_now_s(void);

/* Call fn(ctx, i) once for every i in [0, n), spread over up to max_threads
 * threads, the caller's among them: jobs threads at most (--jobs; when
 * jobs <= 0, the number of cores), 1 to 64. done(ctx), when not NULL, runs
 * on each of the threads once it finds no more work. Returns when every
 * call has; calls come in any order, so fn keeps what it makes at i. */
void threads_for_each(int jobs, size_t max_threads, size_t n, void (*fn)(void *ctx, size_t i),
                      void (*done)(void *ctx), void *ctx);

#endif
