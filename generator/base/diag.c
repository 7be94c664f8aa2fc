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

static void record_free(diag_record *r)
{
    free(r->path);
    free(r->message);
    free(r->hint);
}

void diag_records_free(diag_record *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        record_free(&r[i]);
    free(r);
}

void diag_free(diag *d)
{
    if (!d)
        return;
    diag_records_free(d->recs, d->n_recs);
    d->recs = NULL;
    d->n_recs = d->cap_recs = 0;
    free(d->seen);
    d->seen = NULL;
    d->n_seen = d->cap_seen = 0;
    free(d->lines);
    d->lines = NULL;
}

diag_record *diag_records_copy(const diag *d, size_t *n)
{
    diag_record *v = xcalloc(d->n_recs + 1, sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < d->n_recs; i++) {
        const diag_record *r = &d->recs[i];
        if (r->cls != DIAG_ERROR)
            continue;
        v[k] = *r;
        v[k].path = r->path ? xstrdup(r->path) : NULL;
        v[k].message = xstrdup(r->message);
        v[k].hint = r->hint ? xstrdup(r->hint) : NULL;
        k++;
    }
    *n = k;
    return v;
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

static const char *class_word(diag_class c)
{
    return c == DIAG_WARNING ? "warning" : "error";
}

/* The message as the terminal says it, with its hint. */
static void message_with_hint(buf *b, const diag_record *r)
{
    buf_puts(b, r->message);
    if (r->hint)
        buf_printf(b, r->hint_paren ? " (%s)" : "; %s", r->hint);
}

void diag_line(buf *b, const diag_record *r)
{
    if (!r->path)
        buf_puts(b, "boardpress");
    else if (r->line > 0 && r->col > 0)
        buf_printf(b, "%s:%d:%d", r->path, r->line, r->col);
    else if (r->line > 0)
        buf_printf(b, "%s:%d", r->path, r->line);
    else
        buf_puts(b, r->path);
    buf_printf(b, ": %s: ", class_word(r->cls));
    message_with_hint(b, r);
}

const char *diag_text(diag *d)
{
    buf b;
    buf_init(&b);
    for (size_t i = 0; i < d->n_recs; i++) {
        if (d->recs[i].cls != DIAG_ERROR)
            continue;
        diag_line(&b, &d->recs[i]);
        buf_putc(&b, '\n');
    }
    free(d->lines);
    d->lines = b.len ? buf_detach(&b) : NULL;
    buf_free(&b);
    return d->lines;
}

/* Take the record r (its strings now d's): said to out and kept, an error
 * counted, unless the same error line was given before (then freed). */
static void add_record(diag *d, diag_record *r)
{
    buf line;
    buf_init(&line);
    diag_line(&line, r);
    buf_putc(&line, '\n');
    if (r->cls == DIAG_ERROR) {
        d->reports++;
        if (!first_time(d, hash64(line.data, line.len, 0))) {
            record_free(r);
            buf_free(&line);
            return;
        }
        d->errors++;
    }
    if (d->out) {
        fwrite(line.data, 1, line.len, d->out);
        fflush(d->out);
    }
    buf_free(&line);
    d->recs = xgrow(d->recs, sizeof *d->recs, &d->cap_recs, d->n_recs + 1);
    d->recs[d->n_recs++] = *r;
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

void diag_merge(diag *d, diag *from)
{
    d->io |= from->io;
    d->usage |= from->usage;
    for (size_t i = 0; i < from->n_recs; i++)
        add_record(d, &from->recs[i]);
    from->n_recs = 0; /* their strings are d's now */
    diag_free(from);
}

/* Make a record of the message fmt/ap and its hint and add it. */
static void report(diag *d, diag_class cls, const char *path, int line, int col, const char *hint,
                   bool paren, const char *fmt, va_list ap)
{
    buf msg;
    buf_init(&msg);
    buf_vprintf(&msg, fmt, ap);
    diag_record r = {path ? xstrdup(path) : NULL, line, col, cls, buf_detach(&msg),
                     hint ? xstrdup(hint) : NULL, paren};
    if (!r.message)
        r.message = xstrdup("");
    add_record(d, &r);
}

void diag_error(diag *d, const char *path, int line, int col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, DIAG_ERROR, path, line, col, NULL, false, fmt, ap);
    va_end(ap);
}

void diag_error_hint(diag *d, const char *path, int line, int col, const char *hint,
                     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report(d, DIAG_ERROR, path, line, col, hint, false, fmt, ap);
    va_end(ap);
}

void diag_error_near(diag *d, const char *path, int line, int col, const char *near,
                     const char *fmt, ...)
{
    char *hint = near ? xasprintf("did you mean '%s'?", near) : NULL;
    va_list ap;
    va_start(ap, fmt);
    report(d, DIAG_ERROR, path, line, col, hint, false, fmt, ap);
    va_end(ap);
    free(hint);
}

void diag_warning(diag *d, const char *path, const char *fmt, ...)
{
    if (!d->out)
        return;
    va_list ap;
    va_start(ap, fmt);
    report(d, DIAG_WARNING, path, 0, 0, NULL, false, fmt, ap);
    va_end(ap);
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

/* diag_unknown's sentence into msg and its hint into hint (left empty
 * when there is none; *paren: said in parentheses). */
static void unknown_parts(buf *msg, buf *hint, bool *paren, const char *what, const char *word,
                          const char *const *candidates, size_t count)
{
    /* "NOUN|CONTEXT" reads "unknown NOUN 'WORD' CONTEXT" */
    const char *bar = strchr(what, '|');
    int noun_len = bar ? (int)(bar - what) : (int)strlen(what);
    buf_printf(msg, "unknown %.*s '%s'", noun_len, what, word);
    if (bar)
        buf_printf(msg, " %s", bar + 1);
    const char *near = diag_suggest(word, candidates, count);
    *paren = !near;
    if (near) {
        buf_printf(hint, "did you mean '%s'?", near);
    } else if (count > 0 && count <= DIAG_LIST_MAX) {
        buf_puts(hint, "expected ");
        for (size_t i = 0; i < count; i++)
            buf_printf(hint, "%s'%s'", i == 0 ? "" : (i + 1 == count ? " or " : ", "),
                       candidates[i]);
    }
}

/* ------------------------------------------------------------ notes */

void diag_note_set(diag_note *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->msg, sizeof n->msg, fmt, ap);
    va_end(ap);
    n->hint[0] = '\0';
    n->paren = false;
}

void diag_note_hint(diag_note *n, bool paren, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->hint, sizeof n->hint, fmt, ap);
    va_end(ap);
    n->paren = paren;
}

void diag_note_lead(diag_note *n, const char *what)
{
    char *msg = xasprintf("%s: %s", what, n->msg);
    snprintf(n->msg, sizeof n->msg, "%s", msg);
    free(msg);
}

void diag_note_unknown(diag_note *n, const char *what, const char *word,
                       const char *const *candidates, size_t count)
{
    buf msg, hint;
    buf_init(&msg);
    buf_init(&hint);
    bool paren;
    unknown_parts(&msg, &hint, &paren, what, word, candidates, count);
    diag_note_set(n, "%s", msg.data);
    if (hint.len)
        diag_note_hint(n, paren, "%s", hint.data);
    buf_free(&msg);
    buf_free(&hint);
}

void diag_error_note(diag *d, const char *path, int line, int col, const diag_note *n)
{
    diag_record r = {
        path ? xstrdup(path) : NULL,          line,    col, DIAG_ERROR, xstrdup(n->msg),
        n->hint[0] ? xstrdup(n->hint) : NULL, n->paren};
    add_record(d, &r);
}

void diag_note_text(const diag_note *n, char *dst, size_t size)
{
    diag_record r = {NULL,    0, 0, DIAG_ERROR, (char *)n->msg, n->hint[0] ? (char *)n->hint : NULL,
                     n->paren};
    buf b;
    buf_init(&b);
    message_with_hint(&b, &r);
    snprintf(dst, size, "%s", b.data ? b.data : "");
    buf_free(&b);
}

void diag_unknown(diag *d, const char *path, int line, int col, const char *what, const char *word,
                  const char *const *candidates, size_t n)
{
    diag_note note;
    diag_note_unknown(&note, what, word, candidates, n);
    diag_error_note(d, path, line, col, &note);
}

/* ------------------------------------------------------------ messages taken apart */

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

diag_entry *diag_entries(const diag_record *recs, size_t n_recs, size_t *n)
{
    diag_entry *v = xcalloc(n_recs + 1, sizeof *v);
    size_t count = 0;
    char *file = NULL, *file_path = NULL; /* the last file read, for the next message */
    size_t file_len = 0;
    for (size_t i = 0; i < n_recs; i++) {
        const diag_record *r = &recs[i];
        if (r->cls != DIAG_ERROR)
            continue;
        diag_entry *e = &v[count++];
        buf b;
        buf_init(&b);
        diag_line(&b, r);
        e->text = buf_detach(&b);
        buf_init(&b);
        message_with_hint(&b, r);
        e->message = buf_detach(&b);
        e->path = r->path ? xstrdup(r->path) : NULL;
        e->line = r->path ? r->line : 0;
        e->col = r->path && r->line ? r->col : 0;
        e->hint = r->hint ? xstrdup(r->hint) : NULL;
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
