/* serve_internal.h — what the files of `boardpress serve` share: serve.c
 * (the command: the listening socket, the build loop), reload.c (what the
 * builds tell the pages, and the page script), files.c (requests to files
 * under --out) and server.c (the HTTP server, the only user of
 * libmicrohttpd). */
#ifndef BP_SERVE_INTERNAL_H
#define BP_SERVE_INTERNAL_H

#include "base/util.h"
#include "model/site.h"

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

/* Where the server's own resources are: a slug is [a-z0-9-], so no page
 * can be called this. */
#define SERVE_PREFIX "/__boardpress/"
#define SERVE_EVENTS SERVE_PREFIX "events"
#define SERVE_SCRIPT SERVE_PREFIX "reload.js"

/* ------------------------------------------------------------ reload.c */

/* What the builds tell the pages, shared by the build (the main thread
 * writes it after each build) and the server's threads (each event stream
 * reads it). Everything below lock is guarded by it. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed; /* broadcast after each build and at stop */
    uint64_t gen;           /* builds that ran to their end (0: none yet) */
    bool ok;                /* the last one succeeded */
    char *errors;           /* its messages as a JSON array ("[]" when none) */
    char *changed_paths;    /* the URL paths whose bytes it changed, a JSON array */
    bool stopping;          /* the server stops: streams end */
    size_t streams;         /* event streams open now */
} reload_state;

void reload_init(reload_state *l);
void reload_free(reload_state *l);
/* After a build (main thread): a new generation with its status and
 * report; every stream wakes. */
void reload_update(reload_state *l, int status, const build_report *r);
/* Every stream ends (before the server stops). */
void reload_stop(reload_state *l);

/* The event a stream sends next (lock held), appended to out: "hello"
 * when hello (the state as it is: for a page that just connected, or
 * connected again), else "build" (the last build, with what it changed).
 * Both carry {"gen", "ok", "errors"}; "build" also "changed". */
void reload_event(const reload_state *l, bool hello, buf *out);

/* The page script (reload.js), NUL-terminated, and its length. */
const char *reload_script(size_t *len);

/* Append s as the inside of a JSON string: as buf_json_str, with bytes
 * that are not UTF-8 written as U+FFFD (a message may quote a file's bad
 * bytes; the page parses the JSON). */
void reload_json_str(buf *b, const char *s);

/* ------------------------------------------------------------ files.c */

/* A request's path, checked and taken apart. */
typedef struct {
    char *path;  /* decoded, without the leading '/' ("slug/", "static/a.css", "") */
    char *query; /* the raw query after '?' (NULL: none) */
    char *raw;   /* the raw path as sent (for a redirect's Location) */
    bool dir;    /* it ends with '/' (or is "/") */
    bool hidden; /* a part starts with '.': never served */
} serve_path;

/* Take a request target apart ("/slug/?x"): percent-decoded, refusing
 * what could step outside --out or hide a name: a '..' or '.' part, an
 * empty part ("//"), an encoded '/' or '\', a NUL or control character,
 * a backslash, a bad escape, more than 1 KiB. Returns 0, or -1 (400). */
int serve_path_parse(const char *target, serve_path *p);
void serve_path_free(serve_path *p);

typedef enum {
    SERVE_FOUND,    /* fd, st, type */
    SERVE_REDIRECT, /* a folder asked for without its '/' */
    SERVE_MISSING,  /* nothing there (a link, a pipe, a device, a folder without
                       index.html are nothing too) */
    SERVE_NO_SITE,  /* --out is not there yet */
} serve_found;

typedef struct {
    int fd; /* open on the regular file, read-only; the caller closes it */
    struct stat st;
    const char *type; /* its Content-Type */
    bool html;        /* a page: the script goes in */
    char etag[24];    /* "\"…\"" */
} serve_file;

/* Open p's file under out: the folder at out as it is now (a build swaps
 * a whole new tree in: a request sees the old or the new one, never a
 * mix), then one part at a time with O_NOFOLLOW, so no link is followed
 * out of it; a folder gives its index.html. */
serve_found serve_open(const char *out, const serve_path *p, serve_file *f);

/* The Content-Type for a file name (by its extension). */
const char *serve_type(const char *name);

/* True when an If-None-Match header value names etag ("*" too). */
bool serve_etag_match(const char *if_none_match, const char *etag);

/* A page as served: html (n bytes) with the page script's tag before its
 * last </body> (or at its end). Caller frees; *len gets the length. */
char *serve_inject(const char *html, size_t n, const char *etag, size_t *len);

/* The page for a path with nothing there (HTML, with the script). */
char *serve_not_found(const char *path, bool no_site, size_t *len);

/* ------------------------------------------------------------ server.c */

typedef struct serve_server serve_server;

typedef struct {
    int listen_fd;    /* bound and listening; the server closes it */
    bool ipv6;        /* of the address family AF_INET6 */
    bool loopback;    /* bound to a loopback address: requests must name it (Host) */
    int port;         /* the port it listens on */
    const char *out;  /* --out: the files served */
    reload_state *reload; /* what the event streams send */
} serve_server_options;

/* Start serving on o->listen_fd, on threads of the server's own. NULL when
 * the library refuses (said on stderr). */
serve_server *serve_server_start(const serve_server_options *o);
/* End every event stream, then stop: returns when no request is served
 * any more. NULL: nothing. */
void serve_server_stop(serve_server *s);

#endif
