/* reload.c — what the builds tell the pages `boardpress serve` serves: after
 * each build a new generation, whether it succeeded, its errors (the
 * build's records, diag_entries) and the URL paths whose bytes changed, as the events of a
 * Server-Sent Events stream; and the page script that listens to them
 * (reload.js, built into the program). */
#include "preview/serve_internal.h"
#include "base/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* More changed files than this (a template edit on a large site) are sent
 * as "all": every open page reloads, and the event stays small. */
#define LIVE_MAX_CHANGED 2000

void reload_init(reload_state *l)
{
    memset(l, 0, sizeof *l);
    pthread_mutex_init(&l->lock, NULL);
    /* streams wait on the monotonic clock (server.c): a clock step does
     * not stretch or cut their keep-alive */
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&l->changed, &ca);
    pthread_condattr_destroy(&ca);
    l->ok = true;
    l->errors = xstrdup("[]");
    l->changed_paths = xstrdup("[]");
}

void reload_free(reload_state *l)
{
    free(l->errors);
    free(l->changed_paths);
    pthread_cond_destroy(&l->changed);
    pthread_mutex_destroy(&l->lock);
}

void reload_json_str(buf *b, const char *s)
{
    size_t n = strlen(s);
    while (n) {
        size_t bad;
        if (utf8_valid(s, n, &bad)) {
            buf_json_str(b, s, n);
            return;
        }
        buf_json_str(b, s, bad);
        buf_puts(b, "\\ufffd");
        s += bad + 1;
        n -= bad + 1;
    }
}

/* "KEY":"value" or "KEY":null, after a comma unless first. */
static void json_field(buf *b, const char *key, const char *value)
{
    buf_printf(b, ",\"%s\":", key);
    if (!value) {
        buf_puts(b, "null");
        return;
    }
    buf_putc(b, '"');
    reload_json_str(b, value);
    buf_putc(b, '"');
}

/* The errors of a build as a JSON array of objects: each message as the
 * terminal printed it ("text"), its record's parts, and the source line
 * with a caret under the column. */
static char *errors_json(const diag_record *recs, size_t n_recs)
{
    size_t n;
    diag_entry *e = diag_entries(recs, n_recs, &n);
    buf b;
    buf_init(&b);
    buf_putc(&b, '[');
    for (size_t i = 0; i < n; i++) {
        buf_puts(&b, i ? ",{\"text\":\"" : "{\"text\":\"");
        reload_json_str(&b, e[i].text);
        buf_putc(&b, '"');
        json_field(&b, "path", e[i].path);
        buf_printf(&b, ",\"line\":%d,\"col\":%d", e[i].line, e[i].col);
        json_field(&b, "message", e[i].message);
        json_field(&b, "hint", e[i].hint);
        json_field(&b, "source", e[i].source);
        json_field(&b, "caret", e[i].caret);
        buf_putc(&b, '}');
    }
    buf_putc(&b, ']');
    diag_entries_free(e, n);
    return buf_detach(&b);
}

/* The changed output files as URL paths ("/slug/index.html"). */
static char *changed_json(const build_report *r)
{
    if (r->n_changed > LIVE_MAX_CHANGED)
        return xstrdup("\"all\"");
    buf b;
    buf_init(&b);
    buf_putc(&b, '[');
    for (size_t i = 0; i < r->n_changed; i++) {
        buf_puts(&b, i ? ",\"/" : "\"/");
        reload_json_str(&b, r->changed[i]);
        buf_putc(&b, '"');
    }
    buf_putc(&b, ']');
    return buf_detach(&b);
}

void reload_update(reload_state *l, int status, const build_report *r)
{
    char *errors = errors_json(r->diags, r->n_diags);
    char *changed = changed_json(r);
    pthread_mutex_lock(&l->lock);
    free(l->errors);
    free(l->changed_paths);
    l->errors = errors;
    l->changed_paths = changed;
    l->ok = status == 0;
    l->gen++;
    pthread_cond_broadcast(&l->changed);
    pthread_mutex_unlock(&l->lock);
}

void reload_stop(reload_state *l)
{
    pthread_mutex_lock(&l->lock);
    l->stopping = true;
    pthread_cond_broadcast(&l->changed);
    pthread_mutex_unlock(&l->lock);
}

void reload_event(const reload_state *l, bool hello, buf *out)
{
    buf_printf(out, "event: %s\ndata: {\"gen\":%llu,\"ok\":%s,\"errors\":%s",
               hello ? "hello" : "build", (unsigned long long)l->gen, l->ok ? "true" : "false",
               l->errors);
    if (!hello)
        buf_printf(out, ",\"changed\":%s", l->changed_paths);
    buf_puts(out, "}\n\n");
}

/* ------------------------------------------------------------ the page script */

/* reload.js as bytes of the program (the server needs no file at run time),
 * NUL-terminated: the assembler includes it where the compiler runs (the
 * top of the repository; the Makefile rebuilds this file when it changes). */
__asm__(".pushsection .rodata\n"
        ".balign 16\n"
        ".globl bp_reload_js\n"
        ".type bp_reload_js, @object\n"
        "bp_reload_js:\n"
        ".incbin \"generator/preview/reload.js\"\n"
        ".byte 0\n"
        ".size bp_reload_js, . - bp_reload_js\n"
        ".popsection\n");
extern const char bp_reload_js[];

const char *reload_script(size_t *len)
{
    *len = strlen(bp_reload_js);
    return bp_reload_js;
}
