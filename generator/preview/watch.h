/* watch.h — `boardpress watch`: build, then rebuild whenever a file under the
 * content, templates or static folder changes (inotify), one line per
 * rebuild. A failed rebuild leaves the last good site in place. The
 * watcher is also an event source of its own, and the loop takes hooks,
 * for `boardpress serve` (serve.h). */
#ifndef BP_WATCH_H
#define BP_WATCH_H

#include "base/util.h"
#include "model/site.h"

#include <stdbool.h>

/* Changes closer together than this are one burst, built once: an editor's
 * save (write, rename, chmod) takes well under a millisecond between its
 * steps, and every millisecond here is one the preview waits. */
#define WATCH_SETTLE_MS 10
/* How long a source folder that disappeared is waited for before a
 * rebuild runs without it (and says it is missing). */
#define WATCH_RETURN_MS 10000
/* ... and once it is back, how long without a change means it is whole. */
#define WATCH_RETURN_SETTLE_MS 250

/* A build as the preview runs it: site_build_report (build.h), given by
 * the caller so the preview knows no stage of it. */
typedef int (*site_build_fn)(const site_options *o, build_report *r);

/* ------------------------------------------------------------ the event source */

typedef struct watcher watcher;

/* Watch every folder under o's content, templates and static folders
 * (not --out or --cache). NULL after saying why (exit status 3). */
watcher *watcher_new(const site_options *o);
void watcher_free(watcher *w);
/* Readable (poll) when something changed. */
int watcher_fd(const watcher *w);
/* Once watcher_fd is readable: take the changes, with those that follow
 * within WATCH_SETTLE_MS of each other, and follow folders that came and
 * went. True when a rebuild is due; shown gets "a, b" of the changed
 * paths. Says which folders could not be watched. */
bool watcher_collect(watcher *w, buf *shown);
/* Say which folders could not be watched since the last time, with why. */
void watcher_report(watcher *w);

/* ------------------------------------------------------------ the loop */

typedef struct {
    site_build_fn build;
    /* After each build that ran to its end (first: the one before watching
     * began), with its status and report; NULL: nothing. */
    void (*built)(void *ctx, int status, const build_report *r, bool first);
    void *ctx;
    int max_rebuilds; /* > 0: return after this many rebuilds (tests) */
} watch_hooks;

/* Build, then rebuild on every change (one line each on stderr), until
 * Ctrl-C or SIGTERM: the first one stops the loop and a build under way
 * (which writes nothing then), a second one ends the process at once.
 * Returns an exit status: 0 when stopped so, else the last build's. */
int watch_loop(const site_options *o, const watch_hooks *h);

/* `boardpress watch`: watch_loop without hooks. */
int watch_run(const site_options *o, site_build_fn build, int max_rebuilds);

#endif
