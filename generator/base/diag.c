/* diag.c — error reporting with file positions and spelling hints. */
#include "base/diag.h"
#include "base/util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_init(diag *d, FILE *out)
{
    memset(d, 0, sizeof *d);
    d->out = out;
}

void diag_free(diag *d)
{
    if (!d)
        return;
    free(d->text);
    d->text = NULL;
    d->len = d->cap = 0;
    free(d->seen);
    d->seen = NULL;
    d->n_seen = d->cap_seen = 0;
}

char *diag_take(diag *d)
{
    char *text = d->text;
    d->text = NULL;
    diag_free(d);
    return text;
}

int diag_exit_status(const diag *d)
{
    return d->usage ? 2 : d->io ? 3 : d->errors ? 1 : 0;
}

/* Add h to the set of lines seen; false when it was there already. */
static bool first_time(diag *d, uint64_t h)
{
    h |= 1; /* 0 marks a free slot */
    if ((d->n_seen + 1) * 2 > d->cap_seen) {
        size_t cap = d->cap_seen ? d->cap_seen * 2 : 64;
        uint64_t *slots = xcalloc(cap, sizeof *slots);
        for (size_t i = 0; i < d->cap_seen; i++) {
            if (!d->seen[i])
                continue;
            size_t k = (size_t)d->seen[i] & (cap - 1);
            while (slots[k])
                k = (k + 1) & (cap - 1);
            slots[k] = d->seen[i];
        }
        free(d->seen);
        d->seen = slots;
        d->cap_seen = cap;
    }
    size_t k = (size_t)h & (d->cap_seen - 1);
    while (d->seen[k] && d->seen[k] != h)
        k = (k + 1) & (d->cap_seen - 1);
    if (d->seen[k])
        return false;
    d->seen[k] = h;
    d->n_seen++;
    return true;
}

/* One message line (ending in '\n'): shown, kept and counted, unless the
 * same line was given before. */
static void add_line(diag *d, const char *line, size_t n)
{
    d->reports++;
    if (!first_time(d, hash64(line, n, 0)))
        return;
    if (d->out) {
        fwrite(line, 1, n, d->out);
        fflush(d->out);
    }
    d->text = xgrow(d->text, 1, &d->cap, d->len + n + 1);
    memcpy(d->text + d->len, line, n);
    d->len += n;
    d->text[d->len] = '\0';
    d->errors++;
}

size_t diag_mark(const diag *d)
{
    return d->reports;
}

bool diag_failed_since(const diag *d, size_t mark)
{
    return d->reports != mark;
}

void diag_read_error(diag *d, const char *path, int line, int col, const char *file,
                     const char *what, int err, size_t max_bytes)
{
    char why[160];
    d->io |= file_error_is_io(err);
    diag_error(d, path, line, col, "cannot read %s: %s", what,
               file_error_text(file, err, max_bytes, why, sizeof why));
}

void diag_add_text(diag *d, const char *text, bool io)
{
    d->io |= io;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        if (nl) {
            add_line(d, p, (size_t)(nl - p) + 1);
            p = nl + 1;
        } else {
            char *line = xasprintf("%s\n", p);
            add_line(d, line, strlen(line));
            free(line);
            break;
        }
    }
}

void diag_error(diag *d, const char *path, int line, int col, const char *fmt, ...)
{
    buf b;
    buf_init(&b);
    if (!path)
        buf_puts(&b, "boardpress");
    else if (line > 0 && col > 0)
        buf_printf(&b, "%s:%d:%d", path, line, col);
    else if (line > 0)
        buf_printf(&b, "%s:%d", path, line);
    else
        buf_puts(&b, path);
    buf_puts(&b, ": error: ");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    buf_putc(&b, '\n');
    add_line(d, b.data, b.len);
    buf_free(&b);
}

void diag_warning(diag *d, const char *path, const char *fmt, ...)
{
    if (!d->out)
        return;
    fprintf(d->out, "%s: warning: ", path ? path : "boardpress");
    va_list ap;
    va_start(ap, fmt);
    vfprintf(d->out, fmt, ap);
    va_end(ap);
    fputc('\n', d->out);
    fflush(d->out);
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Optimal string alignment distance (Damerau-Levenshtein with adjacent
 * transpositions), ignoring ASCII case. O(|a|·|b|); words here are short identifiers. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return (size_t)-1;
    size_t d[65][65];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        for (size_t j = 1; j <= lb; j++) {
            size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            size_t best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
                lower(a[i - 2]) == lower(b[j - 1]) && d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    }
    return d[la][lb];
}

/* Whether name has word as one of its parts between '-', '_' and '.'. */
static bool has_part(const char *name, const char *word, size_t len)
{
    for (const char *p = name; (p = strstr(p, word)) != NULL; p++) {
        bool starts = p == name || p[-1] == '-' || p[-1] == '_' || p[-1] == '.';
        char after = p[len];
        if (starts && (after == '\0' || after == '-' || after == '_' || after == '.'))
            return strcmp(name, word) != 0;
    }
    return false;
}

const char *diag_suggest(const char *word, const char *const *candidates, size_t n)
{
    size_t len = strlen(word);
    size_t limit = len / 3 > 2 ? len / 3 : 2;
    if (len <= 2)
        limit = 1;
    const char *best = NULL;
    size_t best_d = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        size_t dist = distance(word, candidates[i]);
        /* On a tie, a candidate with the same first letter reads as the
         * likelier typo ("wroker": "worker" before "broker"). */
        bool better =
            dist < best_d || (dist == best_d && best && lower(candidates[i][0]) == lower(word[0]) &&
                              lower(best[0]) != lower(word[0]));
        if (dist <= limit && better) {
            best = candidates[i];
            best_d = dist;
        }
    }
    if (best || len < 3)
        return best;
    /* No near spelling: a name of which the word is one whole part, when
     * only one has it ("broker": "message-broker", "p99": "latency_p99"). */
    size_t found = 0;
    for (size_t i = 0; i < n; i++)
        if (has_part(candidates[i], word, len)) {
            best = candidates[i];
            found++;
        }
    return found == 1 ? best : NULL;
}

/* The most names a message lists when no spelling is near: every measure,
 * every key of a part kind, every catalog section. */
#define DIAG_LIST_MAX 40

void diag_unknown_text(char *dst, size_t n, const char *what, const char *word,
                       const char *const *candidates, size_t count)
{
    /* "NOUN|CONTEXT" reads "unknown NOUN 'WORD' CONTEXT" */
    const char *bar = strchr(what, '|');
    int noun_len = bar ? (int)(bar - what) : (int)strlen(what);
    char context[160] = "";
    if (bar)
        snprintf(context, sizeof context, " %s", bar + 1);
    const char *near = diag_suggest(word, candidates, count);
    if (near) {
        snprintf(dst, n, "unknown %.*s '%s'%s; did you mean '%s'?", noun_len, what, word, context,
                 near);
        return;
    }
    buf b;
    buf_init(&b);
    buf_printf(&b, "unknown %.*s '%s'%s", noun_len, what, word, context);
    if (count > 0 && count <= DIAG_LIST_MAX) {
        buf_puts(&b, " (expected ");
        for (size_t i = 0; i < count; i++)
            buf_printf(&b, "%s'%s'", i == 0 ? "" : (i + 1 == count ? " or " : ", "), candidates[i]);
        buf_putc(&b, ')');
    }
    snprintf(dst, n, "%s", b.data);
    buf_free(&b);
}

void diag_unknown(diag *d, const char *path, int line, int col, const char *what, const char *word,
                  const char *const *candidates, size_t n)
{
    char msg[1024];
    diag_unknown_text(msg, sizeof msg, what, word, candidates, n);
    diag_error(d, path, line, col, "%s", msg);
}

/* ------------------------------------------------------------ messages taken apart */

/* *out gets the number at the end of s[0..*n) (digits after a ':'), and
 * *n shrinks to before that ':'; false (nothing changed) when there is none. */
static bool trailing_number(const char *s, size_t *n, int *out)
{
    size_t end = *n, i = end;
    while (i > 0 && s[i - 1] >= '0' && s[i - 1] <= '9' && end - i < 9)
        i--;
    if (i == end || i == 0 || s[i - 1] != ':')
        return false;
    int v = 0;
    for (size_t k = i; k < end; k++)
        v = v * 10 + (s[k] - '0');
    if (v <= 0)
        return false;
    *out = v;
    *n = i - 1;
    return true;
}

/* The hint diag_unknown and the loaders end a message with, or NULL. */
static char *hint_of(const char *msg)
{
    const char *mean = strstr(msg, "; did you mean ");
    if (mean)
        return xstrdup(mean + 2);
    size_t n = strlen(msg);
    const char *expected = strstr(msg, " (expected ");
    if (expected && n > 0 && msg[n - 1] == ')')
        return xstrndup(expected + 2, (size_t)(msg + n - 1 - (expected + 2)));
    return NULL;
}

/* Append one character (its bytes at s, valid UTF-8 of length len, or a
 * bad byte when len is 0) to b, as U+FFFD when bad. */
static void put_char(buf *b, const char *s, size_t len)
{
    if (len)
        buf_put(b, s, len);
    else
        buf_puts(b, "\xEF\xBF\xBD");
}

/* The length of the valid UTF-8 character at s[0..n) (NUL is not one), or 0. */
static size_t char_len(const char *s, size_t n)
{
    unsigned char c = (unsigned char)s[0];
    size_t len = c < 0x80                 ? 1
                 : c >= 0xC2 && c <= 0xDF ? 2
                 : c >= 0xE0 && c <= 0xEF ? 3
                 : c >= 0xF0 && c <= 0xF4 ? 4
                                          : 0;
    size_t bad;
    return len && len <= n && utf8_valid(s, len, &bad) ? len : 0;
}

/* The source line and caret of e from the file's text (n bytes). Lines
 * longer than DIAG_SOURCE_WIDTH characters are cut to a window around the
 * column. */
#define DIAG_SOURCE_WIDTH 240
static void source_of(diag_entry *e, const char *text, size_t n)
{
    const char *p = text, *end = text + n;
    for (int l = 1; l < e->line; l++) {
        const char *next = memchr(p, '\n', (size_t)(end - p));
        if (!next)
            return; /* the file has fewer lines (it changed since) */
        p = next + 1;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *stop = nl ? nl : end;
    if (stop > p && stop[-1] == '\r')
        stop--;
    /* characters to skip so the column stays in view */
    int first = e->col > DIAG_SOURCE_WIDTH * 2 / 3 ? e->col - DIAG_SOURCE_WIDTH / 3 : 1;
    buf src, caret;
    buf_init(&src);
    buf_init(&caret);
    if (first > 1) {
        buf_puts(&src, "\xE2\x80\xA6");
        buf_putc(&caret, ' ');
    }
    int col = 1;
    bool cut = false;
    for (const char *q = p; q < stop; col++) {
        size_t len = char_len(q, (size_t)(stop - q));
        if (col >= first) {
            if (col - first >= DIAG_SOURCE_WIDTH) {
                cut = true;
                break;
            }
            put_char(&src, q, len);
            if (col < e->col)
                buf_putc(&caret, *q == '\t' ? '\t' : ' ');
        }
        q += len ? len : 1;
    }
    if (cut)
        buf_puts(&src, "\xE2\x80\xA6");
    e->source = buf_detach(&src);
    if (e->col > 0 && e->col <= col) {
        buf_putc(&caret, '^');
        e->caret = buf_detach(&caret);
    }
    buf_free(&caret);
    buf_free(&src);
}

diag_entry *diag_entries(const char *text, size_t *n)
{
    diag_entry *v = NULL;
    size_t count = 0, cap = 0;
    char *file = NULL, *file_path = NULL; /* the last file read, for the next message */
    size_t file_len = 0;
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        v = xgrow(v, sizeof *v, &cap, count + 1);
        diag_entry *e = &v[count++];
        memset(e, 0, sizeof *e);
        e->text = xstrndup(p, len);
        const char *sep = strstr(e->text, ": error: ");
        if (sep) {
            size_t head = (size_t)(sep - e->text);
            e->message = xstrdup(sep + strlen(": error: "));
            int a = 0, b = 0;
            if (trailing_number(e->text, &head, &a)) {
                if (trailing_number(e->text, &head, &b)) {
                    e->line = b;
                    e->col = a;
                } else {
                    e->line = a;
                }
            }
            if (!(head == strlen("boardpress") && strncmp(e->text, "boardpress", head) == 0 &&
                  !e->line))
                e->path = xstrndup(e->text, head);
        } else {
            e->message = xstrdup(e->text);
        }
        e->hint = hint_of(e->message);
        if (e->path && e->line && count <= DIAG_SOURCE_ENTRIES) {
            if (!file_path || strcmp(file_path, e->path) != 0) {
                free(file);
                free(file_path);
                file = NULL;
                file_path = xstrdup(e->path);
                if (file_read(e->path, BP_MAX_FILE_BYTES, &file, &file_len) != 0)
                    file = NULL;
            }
            if (file)
                source_of(e, file, file_len);
        }
        p = nl ? nl + 1 : p + len;
    }
    free(file);
    free(file_path);
    *n = count;
    return v;
}

void diag_entries_free(diag_entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(e[i].text);
        free(e[i].path);
        free(e[i].message);
        free(e[i].hint);
        free(e[i].source);
        free(e[i].caret);
    }
    free(e);
}
