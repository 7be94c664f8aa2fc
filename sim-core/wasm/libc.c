/* libc.c — the C library the WebAssembly module needs and nothing more:
 * an allocator over memory.grow, the mem and str functions sim-core calls,
 * and a vsnprintf for the conversions its messages use. Compiled with -ffreestanding, so
 * the compiler does not turn these loops back into calls to themselves. */
#include "heap.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ heap
 * Size classes: a block of class k is 32 << k bytes, a 16-byte header (the
 * class) and the caller's bytes, 16-aligned. Freed blocks go on their
 * class's list and are reused first; new ones are cut from the top, which
 * grows the memory by whole 64 KiB pages. A run frees what it allocated,
 * so the next run of the same board reuses the same blocks and the memory
 * stops growing; the price is up to half of each block unused. */

#define HEADER 16
#define MIN_SHIFT 5
#define CLASSES 27 /* 32 B .. 2 GiB */
#define PAGE 65536u
#define BLOCK_TAG 0x6270u /* "bp": a block of ours, for free's sanity check */

typedef struct free_block {
    struct free_block *next;
} free_block;

typedef struct {
    uint32_t tag, cls;
} header;

extern unsigned char __heap_base; /* set by wasm-ld: the first byte after data and stack */

static free_block *free_lists[CLASSES];
static uintptr_t heap_top; /* next unused byte; 0 until the first allocation */
static size_t in_use;      /* bytes of blocks handed out */

size_t heap_in_use(void)
{
    return in_use;
}

static size_t class_size(unsigned cls)
{
    return (size_t)1 << (cls + MIN_SHIFT);
}

/* Grow the memory to hold [.., end); false when the engine refuses. */
static bool reserve(uintptr_t end)
{
    uintptr_t have = __builtin_wasm_memory_size(0) * PAGE;
    if (end <= have)
        return true;
    size_t pages = (end - have + PAGE - 1) / PAGE;
    return __builtin_wasm_memory_grow(0, pages) != (size_t)-1;
}

void *malloc(size_t n)
{
    if (n > class_size(CLASSES - 1) - HEADER)
        return NULL;
    unsigned cls = 0;
    while (class_size(cls) - HEADER < n)
        cls++;
    unsigned char *block;
    if (free_lists[cls]) {
        block = (unsigned char *)free_lists[cls];
        free_lists[cls] = free_lists[cls]->next;
    } else {
        if (!heap_top)
            heap_top = ((uintptr_t)&__heap_base + 15) & ~(uintptr_t)15;
        size_t size = class_size(cls);
        if (heap_top > UINTPTR_MAX - size || !reserve(heap_top + size))
            return NULL;
        block = (unsigned char *)heap_top;
        heap_top += size;
    }
    header h = {BLOCK_TAG, cls};
    memcpy(block, &h, sizeof h);
    in_use += class_size(cls);
    return block + HEADER;
}

static header header_of(void *p)
{
    header h;
    memcpy(&h, (unsigned char *)p - HEADER, sizeof h);
    if (h.tag != BLOCK_TAG || h.cls >= CLASSES)
        __builtin_trap(); /* not a block of ours, or freed twice */
    return h;
}

void free(void *p)
{
    if (!p)
        return;
    header h = header_of(p);
    unsigned char *block = (unsigned char *)p - HEADER;
    memset(block, 0, sizeof h); /* a second free of it traps */
    free_block *f = (free_block *)(void *)block;
    f->next = free_lists[h.cls];
    free_lists[h.cls] = f;
    in_use -= class_size(h.cls);
}

void *calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = malloc(count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

void *realloc(void *p, size_t n)
{
    if (!p)
        return malloc(n);
    size_t have = class_size(header_of(p).cls) - HEADER;
    if (n <= have)
        return p;
    void *q = malloc(n);
    if (q) {
        memcpy(q, p, have);
        free(p);
    }
    return q;
}

/* ------------------------------------------------------------------ memory and strings */

/* With bulk memory (-mbulk-memory) the compiler makes each of these one
 * instruction (memory.copy, which allows overlap, and memory.fill), at
 * every call it can see and here for the rest. */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
    return __builtin_memcpy(dst, src, n);
}

void *memmove(void *dst, const void *src, size_t n)
{
    return __builtin_memmove(dst, src, n);
}

void *memset(void *dst, int c, size_t n)
{
    return __builtin_memset(dst, c, n);
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < n; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    for (size_t i = 0; i < n; i++)
        if (p[i] == (unsigned char)c)
            return (void *)(uintptr_t)(p + i);
    return NULL;
}

size_t strlen(const char *s)
{
    size_t n = 0;
    while (s[n])
        n++;
    return n;
}

int strcmp(const char *a, const char *b)
{
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    while (*x && *x == *y)
        x++, y++;
    return (*x > *y) - (*x < *y);
}

char *strstr(const char *haystack, const char *needle)
{
    for (const char *p = haystack;; p++) {
        size_t i = 0;
        while (needle[i] && p[i] == needle[i])
            i++;
        if (!needle[i])
            return (char *)(uintptr_t)p;
        if (!*p)
            return NULL;
    }
}

/* ------------------------------------------------------------------ formatting
 * What sim-core's messages use and nothing more: conversions d i u c s %,
 * sizes l ll z, no flags, width or precision (tests/wasm/compare.js checks
 * that every format string in sim-core stays within these). Anything else
 * is copied as it is. Returns the length of the whole text, like C's
 * vsnprintf. */

typedef struct {
    char *out;
    size_t cap, len;
} sink;

static void emit(sink *s, char c)
{
    if (s->len + 1 < s->cap)
        s->out[s->len] = c;
    s->len++;
}

static void emit_decimal(sink *s, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do {
        digits[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        emit(s, digits[--n]);
}

int vsnprintf(char *restrict out, size_t n, const char *restrict fmt, va_list ap)
{
    sink s = {out, n, 0};
    va_list args;
    va_copy(args, ap);
    for (const char *f = fmt; *f; f++) {
        if (*f != '%') {
            emit(&s, *f);
            continue;
        }
        const char *start = f++;
        int longs = 0; /* l: 1, ll: 2, z: 3 */
        while (*f == 'l' && longs < 2)
            f++, longs++;
        if (*f == 'z' && !longs)
            f++, longs = 3;
        switch (*f) {
        case 'd':
        case 'i': {
            int64_t v = longs == 2   ? va_arg(args, long long)
                        : longs == 1 ? va_arg(args, long)
                        : longs == 3 ? (int64_t)va_arg(args, size_t)
                                     : va_arg(args, int);
            if (v < 0)
                emit(&s, '-');
            emit_decimal(&s, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
            break;
        }
        case 'u':
            emit_decimal(&s, longs == 2   ? va_arg(args, unsigned long long)
                             : longs == 1 ? va_arg(args, unsigned long)
                             : longs == 3 ? va_arg(args, size_t)
                                          : va_arg(args, unsigned));
            break;
        case 'c':
            emit(&s, (char)va_arg(args, int));
            break;
        case 's':
            for (const char *str = va_arg(args, const char *); *str; str++)
                emit(&s, *str);
            break;
        case '%':
            emit(&s, '%');
            break;
        default: /* not a conversion we know: copy it */
            for (const char *c = start; c <= f && *c; c++)
                emit(&s, *c);
            if (!*f)
                f--;
            break;
        }
    }
    va_end(args);
    if (n)
        out[s.len < n ? s.len : n - 1] = '\0';
    return s.len > INT_MAX ? -1 : (int)s.len;
}

int snprintf(char *restrict out, size_t n, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(out, n, fmt, ap);
    va_end(ap);
    return r;
}
