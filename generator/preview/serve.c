/* serve.c — `boardpress serve`: the listening socket (made here, before
 * the first build, so a port in use is said at once and precisely), then
 * the server (server.c) on its own threads and the build loop (watch.c) on
 * this one; after each build the pages hear of it (reload.c). */
#include "preview/serve.h"
#include "preview/serve_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* How many ports after a taken one are tried for the hint. */
#define PORT_HINT_TRIES 20

int serve_parse_port(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (!*s || *end || errno || v < 0 || v > 65535)
        return -1;
    return (int)v;
}

typedef struct {
    struct sockaddr_storage sa;
    socklen_t len;
    bool loopback, any;
    char shown[64]; /* for a URL: "127.0.0.1", "[::1]" */
} address;

/* bind's address: an IPv4 or IPv6 literal, or "localhost" (127.0.0.1).
 * Returns 0, or -1 when it is neither. */
static int parse_address(const char *bind, int port, address *a)
{
    memset(a, 0, sizeof *a);
    if (strcmp(bind, "localhost") == 0)
        bind = "127.0.0.1";
    struct sockaddr_in *v4 = (struct sockaddr_in *)(void *)&a->sa;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)(void *)&a->sa;
    if (inet_pton(AF_INET, bind, &v4->sin_addr) == 1) {
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        a->len = sizeof *v4;
        uint32_t ip = ntohl(v4->sin_addr.s_addr);
        a->loopback = (ip >> 24) == 127;
        a->any = ip == 0;
        snprintf(a->shown, sizeof a->shown, "%s", bind);
        return 0;
    }
    if (inet_pton(AF_INET6, bind, &v6->sin6_addr) == 1) {
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        a->len = sizeof *v6;
        const uint8_t *b = v6->sin6_addr.s6_addr;
        a->loopback = IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr) ||
                      (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr) && b[12] == 127);
        a->any = IN6_IS_ADDR_UNSPECIFIED(&v6->sin6_addr);
        char text[INET6_ADDRSTRLEN];
        inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
        snprintf(a->shown, sizeof a->shown, "[%s]", text);
        return 0;
    }
    return -1;
}

static void set_port(address *a, int port)
{
    if (a->sa.ss_family == AF_INET)
        ((struct sockaddr_in *)(void *)&a->sa)->sin_port = htons((uint16_t)port);
    else
        ((struct sockaddr_in6 *)(void *)&a->sa)->sin6_port = htons((uint16_t)port);
}

/* A socket bound to a and listening, or -1 (errno). */
static int listen_on(const address *a)
{
    int fd = socket(a->sa.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    int one = 1;
    /* a port left in TIME_WAIT by the last run is free; one another
     * program listens on is still in use (Linux) */
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, (const struct sockaddr *)&a->sa, a->len) != 0 || listen(fd, 64) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

/* The first port after port that is free on a's address, or -1. */
static int free_port_after(address a, int port)
{
    for (int p = port + 1; p <= 65535 && p <= port + PORT_HINT_TRIES; p++) {
        set_port(&a, p);
        int fd = listen_on(&a);
        if (fd >= 0) {
            close(fd);
            return p;
        }
    }
    return -1;
}

static int bound_port(int fd)
{
    struct sockaddr_storage sa;
    socklen_t len = sizeof sa;
    if (getsockname(fd, (struct sockaddr *)&sa, &len) != 0)
        return -1;
    return ntohs(sa.ss_family == AF_INET ? ((struct sockaddr_in *)(void *)&sa)->sin_port
                                         : ((struct sockaddr_in6 *)(void *)&sa)->sin6_port);
}

typedef struct {
    reload_state *reload;
    const site_options *o;
    char url[96];
} serve_ctx;

static void built(void *cls, int status, const build_report *r, bool first)
{
    serve_ctx *ctx = cls;
    reload_update(ctx->reload, status, r);
    if (first)
        fprintf(stderr, "boardpress: serving %s on %s (Ctrl-C stops)\n", ctx->o->out, ctx->url);
}

int serve_run(const site_options *o, const serve_options *so, site_build_fn build)
{
    address a;
    if (parse_address(so->bind, so->port, &a) != 0) {
        fprintf(stderr,
                "boardpress: error: --bind takes an IPv4 or IPv6 address (or localhost), "
                "found '%s'\n",
                so->bind);
        return 2;
    }
    int fd = listen_on(&a);
    if (fd < 0) {
        if (errno == EADDRINUSE) {
            int next = free_port_after(a, so->port);
            if (next > 0)
                fprintf(stderr, "boardpress: error: port %d is in use; try --port %d\n", so->port,
                        next);
            else
                fprintf(stderr,
                        "boardpress: error: port %d is in use, and so are the %d after it; "
                        "choose another --port\n",
                        so->port, PORT_HINT_TRIES);
        } else {
            fprintf(stderr, "boardpress: error: cannot listen on %s port %d: %s\n", a.shown,
                    so->port, strerror(errno));
        }
        return 3;
    }
    int port = bound_port(fd);
    if (!a.loopback)
        fprintf(stderr,
                "boardpress: warning: listening on %s, not only this machine's loopback: anyone "
                "who can reach it on port %d can read the preview\n",
                a.shown, port);
    /* a page closed mid-write must not end the program (the library's own
     * threads are guarded; this is for the rest) */
    signal(SIGPIPE, SIG_IGN);
    reload_state reload;
    reload_init(&reload);
    serve_ctx ctx = {&reload, o, ""};
    snprintf(ctx.url, sizeof ctx.url, "http://%s:%d/", a.any ? "127.0.0.1" : a.shown, port);
    serve_server_options sopt = {fd, a.sa.ss_family == AF_INET6, a.loopback, port, o->out, &reload};
    serve_server *server = serve_server_start(&sopt);
    int status = 3;
    if (server) {
        watch_hooks h = {build, built, &ctx, so->max_rebuilds};
        status = watch_loop(o, &h);
        serve_server_stop(server);
    }
    reload_free(&reload);
    return status;
}
