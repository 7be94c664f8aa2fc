/* serve.h — `boardpress serve`: build, watch (watch.h) and serve
 * --out over HTTP with GNU libmicrohttpd, on 127.0.0.1:8000 by default.
 * Pages as served (never the files in --out) get a script that listens
 * for rebuilds: changed pages reload, a changed stylesheet is swapped, and
 * a failed rebuild's errors show over the last good page. */
#ifndef BP_SERVE_H
#define BP_SERVE_H

#include "model/site.h"
#include "preview/watch.h"

typedef struct {
    const char *bind; /* an IPv4 or IPv6 address, or "localhost" (default "127.0.0.1") */
    int port;         /* 0 to 65535 (0: any free port, said on stderr); default 8000 */
    int max_rebuilds; /* > 0: stop after this many rebuilds (tests) */
} serve_options;

/* Parse --port's value; -1 when it is not a number from 0 to 65535. */
int serve_parse_port(const char *s);

/* Listen, build with build(o), serve and rebuild on every change until
 * Ctrl-C or SIGTERM. Returns an exit status: 3 when the address cannot be
 * listened on (a port in use says which to try instead), 0 when stopped,
 * else the last build's. */
int serve_run(const site_options *o, const serve_options *so, site_build_fn build);

#endif
