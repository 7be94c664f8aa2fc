/* server.c — the HTTP server of `boardpress serve`, the only user of GNU
 * libmicrohttpd. It runs on the library's threads, one per connection (an
 * event stream waits on its own thread for the next build), bounded in
 * number, request size and idle time. GET and HEAD only; files under --out
 * (files.c), pages with the page script, and the server's own resources
 * under /__boardpress/: the script and the event stream (reload.c). */
#include "preview/serve_internal.h"

#include <errno.h>
#include <microhttpd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

/* Bounds: connections (each a thread), from one address (every tab of
 * the author's browser is 127.0.0.1), event streams (one per open page),
 * bytes of a request's line and headers (a larger one gets 431), seconds
 * a connection may stay idle, and how often a stream says it is alive. */
/* Every connection comes from this machine (127.0.0.1), so a limit per
 * address guards nothing a total limit does not: both are high enough
 * that hundreds of connections that never send a request (each closed
 * after HALF_OPEN_SECONDS) leave room for the browser's. */
#define MAX_CONNECTIONS 512u
#define MAX_PER_ADDRESS 480u
#define HALF_OPEN_SECONDS 5u
#define MAX_STREAMS 64u
#define REQUEST_MEMORY ((size_t)32 * 1024)
#define IDLE_SECONDS 30u
#define KEEPALIVE_SECONDS 15
/* A page larger than this is served as it is, without the script. */
#define MAX_INJECT_BYTES ((off_t)64 << 20)

struct serve_server {
    struct MHD_Daemon *d;
    serve_server_options o;
};

/* One request: its target as the client sent it (MHD hands the access
 * handler a decoded path; files.c decodes the raw one itself). */
typedef struct {
    char *target;
    bool headers_seen; /* the access handler was called for it once */
} request;

static void *on_uri(void *cls, const char *uri, struct MHD_Connection *c)
{
    (void)cls;
    (void)c;
    request *rq = xcalloc(1, sizeof *rq);
    rq->target = xstrdup(uri);
    return rq;
}

static void on_done(void *cls, struct MHD_Connection *c, void **con_cls,
                    enum MHD_RequestTerminationCode toe)
{
    (void)cls;
    (void)c;
    (void)toe;
    request *rq = *con_cls;
    if (rq) {
        free(rq->target);
        free(rq);
    }
    *con_cls = NULL;
}

/* The path stays as sent: files.c decodes it, refusing what MHD's own
 * decoding would let through (an encoded '/', a NUL cutting the name). */
static size_t no_unescape(void *cls, struct MHD_Connection *c, char *s)
{
    (void)cls;
    (void)c;
    return strlen(s);
}

/* ------------------------------------------------------------ replies */

static enum MHD_Result send_reply(struct MHD_Connection *c, unsigned status, struct MHD_Response *r,
                                  const char *type)
{
    if (!r)
        return MHD_NO;
    if (type)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static struct MHD_Response *from_copy(const char *s, size_t n)
{
    return MHD_create_response_from_buffer(n, (void *)(uintptr_t)s, MHD_RESPMEM_MUST_COPY);
}

static struct MHD_Response *from_heap(char *s, size_t n)
{
    return MHD_create_response_from_buffer(n, s, MHD_RESPMEM_MUST_FREE);
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *text)
{
    return send_reply(c, status, from_copy(text, strlen(text)), "text/plain; charset=utf-8");
}

static enum MHD_Result send_not_found(struct MHD_Connection *c, const char *path, bool no_site)
{
    size_t n;
    char *page = serve_not_found(path, no_site, &n);
    return send_reply(c, MHD_HTTP_NOT_FOUND, from_heap(page, n), "text/html; charset=utf-8");
}

/* ------------------------------------------------------------ the event stream */

typedef struct {
    reload_state *reload;
    uint64_t gen; /* the generation it sent last */
    bool greeted; /* the hello went out */
    buf pending;  /* what is still to go out of the last event */
    size_t off;
} stream;

static ssize_t stream_read(void *cls, uint64_t pos, char *out, size_t max)
{
    (void)pos;
    stream *st = cls;
    reload_state *l = st->reload;
    if (st->off == st->pending.len) {
        buf_clear(&st->pending);
        st->off = 0;
        pthread_mutex_lock(&l->lock);
        if (!st->greeted) {
            /* reconnect after half a second (the server restarted) */
            buf_puts(&st->pending, "retry: 500\n\n");
            reload_event(l, true, &st->pending);
            st->greeted = true;
            st->gen = l->gen;
        } else {
            struct timespec until;
            clock_gettime(CLOCK_MONOTONIC, &until);
            until.tv_sec += KEEPALIVE_SECONDS;
            int rc = 0;
            while (!l->stopping && l->gen == st->gen && rc != ETIMEDOUT)
                rc = pthread_cond_timedwait(&l->changed, &l->lock, &until);
            if (l->stopping) {
                pthread_mutex_unlock(&l->lock);
                return MHD_CONTENT_READER_END_OF_STREAM;
            }
            if (l->gen != st->gen) {
                reload_event(l, false, &st->pending);
                st->gen = l->gen;
            } else {
                buf_puts(&st->pending, ": still here\n\n"); /* a comment: keeps it open */
            }
        }
        pthread_mutex_unlock(&l->lock);
    }
    size_t n = st->pending.len - st->off;
    if (n > max)
        n = max;
    memcpy(out, st->pending.data + st->off, n);
    st->off += n;
    return (ssize_t)n;
}

static void stream_free(void *cls)
{
    stream *st = cls;
    pthread_mutex_lock(&st->reload->lock);
    st->reload->streams--;
    pthread_mutex_unlock(&st->reload->lock);
    buf_free(&st->pending);
    free(st);
}

static enum MHD_Result send_stream(serve_server *s, struct MHD_Connection *c)
{
    reload_state *l = s->o.reload;
    pthread_mutex_lock(&l->lock);
    bool full = l->streams >= MAX_STREAMS || l->stopping;
    if (!full)
        l->streams++;
    pthread_mutex_unlock(&l->lock);
    if (full)
        return send_text(c, MHD_HTTP_SERVICE_UNAVAILABLE,
                         "too many pages are open on this preview; close some\n");
    stream *st = xcalloc(1, sizeof *st);
    st->reload = l;
    buf_init(&st->pending);
    struct MHD_Response *r =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, stream_read, st, stream_free);
    if (!r) {
        stream_free(st);
        return MHD_NO;
    }
    return send_reply(c, MHD_HTTP_OK, r, "text/event-stream; charset=utf-8");
}

/* ------------------------------------------------------------ files */

/* A page with the script put in, or NULL (read failed, or too large). */
static char *page_as_served(const serve_file *f, size_t *len)
{
    if (f->st.st_size > MAX_INJECT_BYTES)
        return NULL;
    size_t n = (size_t)f->st.st_size, at = 0;
    char *html = xmalloc(n + 1);
    while (at < n) {
        ssize_t k = pread(f->fd, html + at, n - at, (off_t)at);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        at += (size_t)k;
    }
    char *page = at == n ? serve_inject(html, n, f->etag, len) : NULL;
    free(html);
    return page;
}

static enum MHD_Result send_file(serve_server *s, struct MHD_Connection *c, const serve_path *p)
{
    serve_file f;
    serve_found found = serve_open(s->o.out, p, &f);
    switch (found) {
    case SERVE_REDIRECT: {
        char *to = xasprintf("%s/%s%s", p->raw, p->query ? "?" : "", p->query ? p->query : "");
        struct MHD_Response *r = from_copy("", 0);
        if (r)
            MHD_add_response_header(r, MHD_HTTP_HEADER_LOCATION, to);
        free(to);
        return send_reply(c, MHD_HTTP_MOVED_PERMANENTLY, r, NULL);
    }
    case SERVE_MISSING:
    case SERVE_NO_SITE:
        return send_not_found(c, p->path, found == SERVE_NO_SITE);
    case SERVE_FOUND:
        break;
    }
    const char *inm = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "If-None-Match");
    struct MHD_Response *r;
    unsigned status = MHD_HTTP_OK;
    if (inm && serve_etag_match(inm, f.etag)) {
        close(f.fd);
        r = from_copy("", 0);
        status = MHD_HTTP_NOT_MODIFIED;
    } else if (f.html) {
        size_t n;
        char *page = page_as_served(&f, &n);
        if (page) {
            close(f.fd);
            r = from_heap(page, n);
        } else {
            r = MHD_create_response_from_fd64((uint64_t)f.st.st_size, f.fd);
        }
    } else {
        r = MHD_create_response_from_fd64((uint64_t)f.st.st_size, f.fd); /* owns the fd now */
    }
    if (r)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ETAG, f.etag);
    return send_reply(c, status, r, status == MHD_HTTP_OK ? f.type : NULL);
}

/* ------------------------------------------------------------ requests */

static enum MHD_Result count_host(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
    (void)kind;
    (void)value;
    if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0)
        (*(int *)cls)++;
    return MHD_YES;
}

/* Bound to a loopback address, the server answers only requests that name
 * it: a page elsewhere whose name leads to 127.0.0.1 (DNS rebinding)
 * cannot read the preview. The Host header must be one header, exactly
 * localhost, 127.0.0.1 or [::1], a colon and the port in digits: nothing
 * before, after or between (no user part, no second name, no list). An
 * HTTP/1.0 request without one (no browser sends that) is let through. */
static bool host_ok(const serve_server *s, struct MHD_Connection *c)
{
    if (!s->o.loopback)
        return true;
    int n = 0;
    MHD_get_connection_values(c, MHD_HEADER_KIND, count_host, &n);
    const char *h = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (n == 0 && !h)
        return true;
    if (n != 1 || !h)
        return false;
    static const char *const names[] = {"localhost", "127.0.0.1", "[::1]"};
    const char *port = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !port; i++) {
        size_t len = strlen(names[i]);
        if (strncasecmp(h, names[i], len) == 0 && h[len] == ':')
            port = h + len + 1;
    }
    if (!port || strlen(port) < 1 || strlen(port) > 5 || strspn(port, "0123456789") != strlen(port))
        return false;
    return atoi(port) == s->o.port;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    (void)url;
    (void)version;
    (void)upload;
    serve_server *s = cls;
    request *rq = *con_cls;
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0) {
        /* at once, before any body is read: none of it is wanted */
        struct MHD_Response *r = from_copy("only GET and HEAD\n", 18);
        if (r)
            MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
        return send_reply(c, MHD_HTTP_METHOD_NOT_ALLOWED, r, "text/plain; charset=utf-8");
    }
    /* A GET is answered on the last call, when its body (if any, unread)
     * is over: answered on the first, the library cannot tell whether one
     * follows, and closes the connection. */
    if (*upload_size) {
        *upload_size = 0;
        return MHD_YES;
    }
    if (rq && !rq->headers_seen) {
        rq->headers_seen = true;
        /* a request came: from now on the connection's time is the usual
         * one (a connection that sends none has HALF_OPEN_SECONDS) */
        MHD_set_connection_option(c, MHD_CONNECTION_OPTION_TIMEOUT, IDLE_SECONDS);
        return MHD_YES;
    }
    if (!host_ok(s, c))
        return send_text(c, MHD_HTTP_BAD_REQUEST,
                         "this preview answers only to Host: localhost:PORT, 127.0.0.1:PORT or "
                         "[::1]:PORT, its own port\n");
    serve_path p;
    if (!rq || serve_path_parse(rq->target, &p) != 0)
        return send_text(c, MHD_HTTP_BAD_REQUEST, "bad request path\n");
    enum MHD_Result rc;
    if (strcmp(p.raw, SERVE_EVENTS) == 0) {
        rc = send_stream(s, c);
    } else if (strcmp(p.raw, SERVE_SCRIPT) == 0) {
        size_t n;
        const char *js = reload_script(&n);
        rc = send_reply(
            c, MHD_HTTP_OK,
            MHD_create_response_from_buffer(n, (void *)(uintptr_t)js, MHD_RESPMEM_PERSISTENT),
            "text/javascript; charset=utf-8");
    } else if (strncmp(p.raw, SERVE_PREFIX, strlen(SERVE_PREFIX)) == 0) {
        rc = send_not_found(c, p.path, false);
    } else {
        rc = send_file(s, c, &p);
    }
    serve_path_free(&p);
    return rc;
}

/* ------------------------------------------------------------ start, stop */

serve_server *serve_server_start(const serve_server_options *o)
{
    serve_server *s = xcalloc(1, sizeof *s);
    s->o = *o;
    unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL_INTERNAL_THREAD | MHD_USE_ITC |
                     (o->ipv6 ? MHD_USE_IPv6 : 0);
    s->d = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, s, MHD_OPTION_LISTEN_SOCKET, o->listen_fd,
        MHD_OPTION_CONNECTION_LIMIT, MAX_CONNECTIONS, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
        MAX_PER_ADDRESS, MHD_OPTION_CONNECTION_TIMEOUT, HALF_OPEN_SECONDS,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, REQUEST_MEMORY, MHD_OPTION_URI_LOG_CALLBACK, on_uri, s,
        MHD_OPTION_NOTIFY_COMPLETED, on_done, s, MHD_OPTION_UNESCAPE_CALLBACK, no_unescape, s,
        MHD_OPTION_STRICT_FOR_CLIENT, 1, MHD_OPTION_END);
    if (!s->d) {
        fprintf(stderr, "boardpress: error: cannot start the HTTP server (libmicrohttpd %s)\n",
                MHD_get_version());
        close(o->listen_fd);
        free(s);
        return NULL;
    }
    return s;
}

void serve_server_stop(serve_server *s)
{
    if (!s)
        return;
    reload_stop(s->o.reload);
    MHD_stop_daemon(s->d); /* joins every connection's thread, closes the socket */
    free(s);
}
