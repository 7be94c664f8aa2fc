/* util.c — memory, buffers, escaping, file reading and writing, worker
 * threads (see util.h). */
#define _GNU_SOURCE /* O_TMPFILE */
#include "base/util.h"
#include "base/spans.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void oom(size_t n)
{
    fprintf(stderr, "boardpress: error: out of memory (asked for %zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        oom(count * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

void *xgrow(void *p, size_t size, size_t *cap, size_t need)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 8;
    while (c < need) {
        if (c > SIZE_MAX / 2 / size)
            oom(SIZE_MAX);
        c *= 2;
    }
    *cap = c;
    return xrealloc(p, c * size);
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    buf b;
    buf_init(&b);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    return buf_detach(&b);
}

void buf_init(buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void buf_free(buf *b)
{
    free(b->data);
    buf_init(b);
}

void buf_clear(buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static void reserve(buf *b, size_t extra)
{
    if (b->len + extra + 1 > b->cap)
        b->data = xgrow(b->data, 1, &b->cap, b->len + extra + 1);
}

void buf_put(buf *b, const char *s, size_t n)
{
    reserve(b, n);
    if (n)
        memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void buf_puts(buf *b, const char *s)
{
    buf_put(b, s, strlen(s));
}

void buf_putc(buf *b, char c)
{
    buf_put(b, &c, 1);
}

void buf_vprintf(buf *b, const char *fmt, va_list ap)
{
    /* Format straight into the free space; only text longer than that is
     * formatted twice (most calls are short numbers: one pass, not two). */
    reserve(b, 64);
    va_list ap2;
    va_copy(ap2, ap);
    size_t room = b->cap - b->len;
    int n = vsnprintf(b->data + b->len, room, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->data[b->len] = '\0';
        return;
    }
    if ((size_t)n >= room) {
        reserve(b, (size_t)n);
        vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    }
    b->len += (size_t)n;
}

void buf_printf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

char *buf_detach(buf *b)
{
    char *p = b->data ? b->data : xstrdup("");
    buf_init(b);
    return p;
}

void buf_html(buf *b, const char *s, size_t n)
{
    if (n == 0)
        return; /* an empty buf has no data to point into */
    size_t start = 0;
    for (size_t i = 0; i < n; i++) {
        const char *rep = NULL;
        switch (s[i]) {
        case '&':
            rep = "&amp;";
            break;
        case '<':
            rep = "&lt;";
            break;
        case '>':
            rep = "&gt;";
            break;
        case '"':
            rep = "&quot;";
            break;
        case '\'':
            rep = "&#39;";
            break;
        default:
            continue;
        }
        buf_put(b, s + start, i - start);
        buf_puts(b, rep);
        start = i + 1;
    }
    buf_put(b, s + start, n - start);
}

void buf_html_s(buf *b, const char *s)
{
    buf_html(b, s, strlen(s));
}

void buf_json_str(buf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
            buf_puts(b, "\\\"");
            break;
        case '\\':
            buf_puts(b, "\\\\");
            break;
        case '\n':
            buf_puts(b, "\\n");
            break;
        case '\r':
            buf_puts(b, "\\r");
            break;
        case '\t':
            buf_puts(b, "\\t");
            break;
        case '<':
            buf_puts(b, "\\u003c");
            break;
        case '>':
            buf_puts(b, "\\u003e");
            break;
        case '&':
            buf_puts(b, "\\u0026");
            break;
        default:
            if (c < 0x20) {
                buf_printf(b, "\\u%04x", c);
            } else if (c == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
                       ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9)) {
                buf_puts(b, (unsigned char)s[i + 2] == 0xA8 ? "\\u2028" : "\\u2029");
                i += 2;
            } else {
                buf_putc(b, (char)c);
            }
        }
    }
}

int file_read(const char *path, size_t max_bytes, char **out, size_t *len)
{
    /* open, fstat, one read of the known size, close: a build reads every
     * file of the site, so every system call counts. O_NONBLOCK: opening a
     * named pipe must not wait for a writer; fstat then refuses it unread. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        errno = S_ISDIR(st.st_mode) ? EISDIR : FILE_ENOTREG;
        return -1;
    }
    if ((size_t)st.st_size > max_bytes) {
        close(fd);
        errno = EFBIG;
        return -1;
    }
    /* The size is known, but a file may still grow while it is read. */
    size_t cap = (size_t)st.st_size + 1;
    char *b = xmalloc(cap + 1);
    size_t n = 0;
    int err = 0;
    for (;;) {
        if (n == cap) {
            if (cap > max_bytes) {
                err = EFBIG;
                break;
            }
            cap = cap * 2 > max_bytes + 1 ? max_bytes + 1 : cap * 2;
            b = xrealloc(b, cap + 1);
        }
        ssize_t r = read(fd, b + n, cap - n);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            err = errno == EAGAIN ? EIO : errno;
            break;
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (n > max_bytes) {
            err = EFBIG;
            break;
        }
        if (n == (size_t)st.st_size)
            break; /* all of it: no read just to see the end */
    }
    close(fd);
    if (err) {
        free(b);
        errno = err;
        return -1;
    }
    b[n] = '\0';
    *len = n;
    *out = b;
    return 0;
}

static void size_words(char *dst, size_t n, size_t bytes)
{
    if (bytes >= ((size_t)1 << 20) && bytes % ((size_t)1 << 20) == 0)
        snprintf(dst, n, "%zu MiB", bytes >> 20);
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(dst, n, "%zu KiB", bytes >> 10);
    else
        snprintf(dst, n, "%zu bytes", bytes);
}

const char *file_error_text(const char *path, int err, size_t max_bytes, char *why, size_t n)
{
    struct stat st;
    char size[32];
    switch (err) {
    case ENOENT:
        snprintf(why, n, "no such file");
        break;
    case EISDIR:
        snprintf(why, n, "it is a folder, not a file");
        break;
    case FILE_ENOTREG:
        snprintf(why, n, "it is %s, not a regular file",
                 stat(path, &st) != 0   ? "not a regular file"
                 : S_ISFIFO(st.st_mode) ? "a named pipe"
                 : S_ISSOCK(st.st_mode) ? "a socket"
                                        : "a device");
        break;
    case EFBIG:
        size_words(size, sizeof size, max_bytes);
        snprintf(why, n, "larger than %s", size);
        break;
    case ELOOP:
        snprintf(why, n, "too many symbolic links (a link that leads to itself?)");
        break;
    default:
        snprintf(why, n, "%s", strerror(err));
    }
    return why;
}

bool file_error_is_io(int err)
{
    return err != ENOENT && err != EISDIR && err != FILE_ENOTREG && err != EFBIG && err != ELOOP &&
           err != ENOTDIR && err != ENAMETOOLONG;
}

bool utf8_valid(const char *s, size_t n, size_t *bad_at)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        /* ASCII without NUL, eight bytes at a time */
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, p + i, sizeof w);
            if ((w & 0x8080808080808080ULL) |
                ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL))
                break;
            i += 8;
        }
        if (i >= n)
            break;
        unsigned char c = p[i];
        size_t need;
        uint32_t cp;
        if (c == 0)
            goto bad;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
            cp = c & 0x1Fu;
        } else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            cp = c & 0x0Fu;
        } else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            cp = c & 0x07u;
        } else {
            goto bad;
        }
        if (i + need >= n)
            goto bad;
        for (size_t k = 1; k <= need; k++) {
            if ((p[i + k] & 0xC0) != 0x80)
                goto bad;
            cp = (cp << 6) | (p[i + k] & 0x3Fu);
        }
        if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
            (cp >= 0xD800 && cp <= 0xDFFF))
            goto bad;
        i += need + 1;
    }
    return true;
bad:
    if (bad_at)
        *bad_at = i;
    return false;
}

void text_pos(const char *text, size_t off, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            (*col)++;
        }
    }
}

size_t text_control_at(const char *s, size_t n, unsigned *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n; i++) {
        unsigned c = p[i];
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
            *cp = c;
            return i;
        }
        if (c == 0xC2 && i + 1 < n && p[i + 1] >= 0x80 && p[i + 1] <= 0x9F) {
            *cp = p[i + 1];
            return i;
        }
    }
    return n;
}

uint64_t hash64(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = 14695981039346656037ULL ^ seed; /* FNV-1a 64 offset basis */
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static size_t strset_slot(char *const *slots, size_t cap, const char *s)
{
    size_t i = (size_t)hash64(s, strlen(s), 0) & (cap - 1);
    while (slots[i] && strcmp(slots[i], s) != 0)
        i = (i + 1) & (cap - 1);
    return i;
}

bool strset_add(strset *set, const char *s)
{
    if ((set->n + 1) * 2 > set->cap) {
        size_t cap = set->cap ? set->cap * 2 : 64;
        char **slots = xcalloc(cap, sizeof *slots);
        for (size_t i = 0; i < set->cap; i++)
            if (set->slots[i])
                slots[strset_slot(slots, cap, set->slots[i])] = set->slots[i];
        free(set->slots);
        set->slots = slots;
        set->cap = cap;
    }
    size_t i = strset_slot(set->slots, set->cap, s);
    if (set->slots[i])
        return false;
    set->slots[i] = xstrdup(s);
    set->n++;
    return true;
}

bool strset_has(const strset *set, const char *s)
{
    return set->cap && set->slots[strset_slot(set->slots, set->cap, s)] != NULL;
}

void strset_free(strset *set)
{
    for (size_t i = 0; i < set->cap; i++)
        free(set->slots[i]);
    free(set->slots);
    set->slots = NULL;
    set->cap = set->n = 0;
}

int file_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = EIO;
            return -1;
        }
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

/* An unnamed file in path's folder (O_TMPFILE), linked in once written: a
 * writer killed half way leaves nothing behind. The link cannot replace a
 * file, so one already there (a miss: damaged, or another writer's) is
 * removed first; readers in between just miss. Returns 0, or 1 when the
 * caller should try the named way (no O_TMPFILE, no /proc, any failure). */
static int write_unnamed(const char *path, const void *data, size_t len)
{
#ifdef O_TMPFILE
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    int fd = open(slash ? (dir[0] ? dir : "/") : ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
    free(dir);
    if (fd < 0)
        return 1;
    int rc = file_write_all(fd, data, len);
    if (rc == 0) {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        rc = linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
        if (rc != 0 && errno == EEXIST && unlink(path) == 0)
            rc = linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
    }
    int e = errno;
    close(fd);
    errno = e;
    return rc == 0 ? 0 : 1;
#else
    (void)path, (void)data, (void)len;
    return 1;
#endif
}

int file_write_atomic(const char *path, const void *data, size_t len)
{
    int u = write_unnamed(path, data, len);
    if (u <= 0)
        return u;
    /* no O_TMPFILE here (or no /proc): a named temporary file */
    char *tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int rc = -1;
    if (fd >= 0) {
        bool ok = file_write_all(fd, data, len) == 0;
        ok = close(fd) == 0 && ok;
        if (ok && rename(tmp, path) == 0)
            rc = 0;
        else
            unlink(tmp);
    }
    free(tmp);
    return rc;
}

double clock_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ------------------------------------------------------------ threads */

typedef struct {
    void (*fn)(void *ctx, size_t i);
    void (*done)(void *ctx);
    void *ctx;
    size_t n;
    atomic_size_t next; /* the next index to hand out */
} work_queue;

/* One thread of threads_for_each: the queue, and its number in the
 * build's spans (base/spans.h). */
typedef struct {
    work_queue *q;
    int thread;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    work_queue *q = w->q;
    spans_thread_set(w->thread);
    for (;;) {
        size_t i = atomic_fetch_add(&q->next, 1);
        if (i >= q->n)
            break;
        q->fn(q->ctx, i);
    }
    if (q->done)
        q->done(q->ctx);
    return NULL;
}

/* The number of cores (1 to 64): threads when --jobs is not given. */
static int cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n > 64 ? 64 : n) : 1;
}

void threads_for_each(int jobs, size_t max_threads, size_t n, void (*fn)(void *ctx, size_t i),
                      void (*done)(void *ctx), void *ctx)
{
    work_queue q = {fn, done, ctx, n, 0};
    int threads = jobs > 0 ? jobs : cores();
    if (max_threads < 1)
        max_threads = 1;
    if ((size_t)threads > max_threads)
        threads = (int)max_threads;
    pthread_t tids[64];
    worker w[64];
    int started = 0;
    for (int t = 1; t < threads && t < 64; t++) {
        w[started] = (worker){&q, started + 1};
        if (pthread_create(&tids[started], NULL, work, &w[started]) == 0)
            started++;
    }
    worker self = {&q, 0};
    work(&self);
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
}

/* FNV-1a's step over 8-byte words in four lanes of
 * their own (hash64 goes a byte at a time, one multiply after another;
 * the cached drawings a rebuild reads are megabytes), the last bytes and
 * the length through hash64, the lanes folded in. Each step is a bijection
 * of its lane for a given word, so a file that differs in one word, or in
 * its length, never matches. */
uint64_t hash64_words(const void *bytes, size_t n)
{
    const char *data = bytes;
    const uint64_t prime = 1099511628211ULL;
    uint64_t lane[4] = {1, 2, 3, 4};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t w;
            memcpy(&w, data + i + 8 * (size_t)k, sizeof w);
            lane[k] = (lane[k] ^ w) * prime;
        }
    uint64_t sum = hash64(data + i, n - i, (uint64_t)n);
    for (int k = 0; k < 4; k++)
        sum = (sum ^ lane[k] ^ (lane[k] >> 32)) * prime;
    return sum;
}
