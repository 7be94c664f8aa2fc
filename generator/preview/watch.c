/* watch.c — inotify-driven rebuilds. Changes within WATCH_SETTLE_MS of each
 * other are taken together, so an editor's save (write, rename, chmod) is
 * one rebuild.
 * Every folder under content, templates and static is watched except --out
 * and --cache (a build writes there: watching them rebuilt forever); a
 * folder moved away, deleted or put in place again (also a source folder
 * itself: its parent is watched for its name) is dropped and watched anew;
 * a folder that cannot be watched is said, with why. */
#include "preview/watch.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WATCH_MASK                                                                                 \
    (IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB |            \
     IN_DELETE_SELF | IN_MOVE_SELF)
/* The folder holding a source folder: only entries named like it matter. */
#define PARENT_MASK (IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)

typedef struct {
    int wd;
    char *path;     /* as the user names it: "content/boards" */
    bool tree;      /* a folder under a source folder: every entry matters */
    unsigned roots; /* bit i: it holds source folder i, whose name matters */
} wdir;

struct watcher {
    int fd;
    wdir *dirs;
    size_t n, cap;
    const char *roots[3];
    bool present[3];  /* each source folder was there after the last burst */
    char *skip[2];    /* --out and --cache, resolved (NULL when not given) */
    size_t unwatched; /* folders that could not be watched since the last report */
    char *first_unwatched;
    int first_errno;
};

/* dir is there, a folder. */
static bool root_present(const char *dir)
{
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* dir resolved even when it does not exist yet (its parent resolved, then
 * its name), or NULL. Caller frees. */
static char *resolve(const char *dir)
{
    char real[PATH_MAX];
    if (realpath(dir, real))
        return xstrdup(real);
    char *copy = xstrdup(dir);
    char *slash = strrchr(copy, '/');
    const char *name = slash ? slash + 1 : copy;
    char *parent = slash ? (slash == copy ? xstrdup("/") : xstrndup(copy, (size_t)(slash - copy)))
                         : xstrdup(".");
    char *out = realpath(parent, real) ? xasprintf("%s/%s", real, name) : NULL;
    free(parent);
    free(copy);
    return out;
}

/* True when path is --out or --cache or lies inside one. */
static bool skipped(const watcher *w, const char *path)
{
    char *real = resolve(path);
    bool skip = false;
    for (int i = 0; i < 2 && real && !skip; i++) {
        size_t n = w->skip[i] ? strlen(w->skip[i]) : 0;
        skip = n && strncmp(real, w->skip[i], n) == 0 && (real[n] == '\0' || real[n] == '/');
    }
    free(real);
    return skip;
}

static wdir *by_wd(const watcher *w, int wd)
{
    for (size_t i = 0; i < w->n; i++)
        if (w->dirs[i].wd == wd)
            return &w->dirs[i];
    return NULL;
}

/* The last part of a source folder's path: its name in its parent. */
static const char *root_name(const char *root)
{
    const char *slash = strrchr(root, '/');
    return slash ? slash + 1 : root;
}

/* Watch path for mask (added to what it is watched for already); tree or
 * the root bits say why. */
static void add_watch(watcher *w, const char *path, uint32_t mask, bool tree, unsigned roots)
{
    int wd = inotify_add_watch(w->fd, path, mask | IN_MASK_ADD);
    if (wd < 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return; /* gone again already */
        if (!w->unwatched++) {
            w->first_unwatched = xstrdup(path);
            w->first_errno = errno;
        }
        return;
    }
    wdir *known = by_wd(w, wd);
    if (known) { /* the same folder again, or by another name */
        if (tree) {
            free(known->path);
            known->path = xstrdup(path);
        }
        known->tree |= tree;
        known->roots |= roots;
        return;
    }
    w->dirs = xgrow(w->dirs, sizeof *w->dirs, &w->cap, w->n + 1);
    w->dirs[w->n++] = (wdir){wd, xstrdup(path), tree, roots};
}

static void add_tree(watcher *w, const char *dir)
{
    if (skipped(w, dir))
        return;
    add_watch(w, dir, WATCH_MASK, true, 0);
    DIR *dh = opendir(dir);
    if (!dh)
        return;
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (e->d_name[0] == '.')
            continue;
        char *sub = xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(sub, &st) == 0 && S_ISDIR(st.st_mode))
            add_tree(w, sub);
        free(sub);
    }
    closedir(dh);
}

/* Stop watching path and everything below it (it was moved away or
 * deleted: a watch follows the folder, not its name). */
static void drop_tree(watcher *w, const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < w->n;) {
        wdir *d = &w->dirs[i];
        if (d->tree && strncmp(d->path, path, n) == 0 &&
            (d->path[n] == '\0' || d->path[n] == '/')) {
            inotify_rm_watch(w->fd, d->wd);
            free(d->path);
            w->dirs[i] = w->dirs[--w->n];
        } else {
            i++;
        }
    }
}

/* Watch the folder each source folder lies in, for its name (so one put
 * in place again is seen); again after every burst of changes, since such a
 * folder may itself have been moved away and back. */
static void watch_parents(watcher *w)
{
    for (unsigned i = 0; i < 3; i++) {
        const char *name = root_name(w->roots[i]);
        if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
            continue;
        char *parent = name > w->roots[i] ? xstrndup(w->roots[i], (size_t)(name - 1 - w->roots[i]))
                                          : xstrdup(".");
        add_watch(w, parent[0] ? parent : "/", PARENT_MASK, false, 1u << i);
        free(parent);
    }
}

static void watch_roots(watcher *w)
{
    watch_parents(w);
    for (int i = 0; i < 3; i++)
        add_tree(w, w->roots[i]);
}

/* Say which folders could not be watched since the last time. */
static void report_unwatched(watcher *w)
{
    if (!w->unwatched)
        return;
    fprintf(stderr,
            "boardpress: cannot watch %zu folder%s (%s: %s%s); changes there go unseen until "
            "the next rebuild\n",
            w->unwatched, w->unwatched == 1 ? "" : "s", w->first_unwatched,
            strerror(w->first_errno),
            w->first_errno == ENOSPC ? ": raise fs.inotify.max_user_watches" : "");
    free(w->first_unwatched);
    w->first_unwatched = NULL;
    w->unwatched = 0;
}

/* Read pending events; note changed paths and follow folders that come and
 * go. A path that was created and is gone again (an editor's or sed's
 * temporary file) is dropped from *created* and left out of the report. */
static int drain(watcher *w, strset *changed, strset *created, buf *names)
{
    char evbuf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
    int relevant = 0;
    for (;;) {
        ssize_t n = read(w->fd, evbuf, sizeof evbuf);
        if (n <= 0)
            break;
        for (char *p = evbuf; p < evbuf + n;) {
            struct inotify_event *ev = (struct inotify_event *)(void *)p;
            p += sizeof *ev + ev->len;
            if (ev->mask & IN_Q_OVERFLOW) { /* events were lost: watch everything anew */
                for (size_t i = 0; i < w->n; i++) {
                    inotify_rm_watch(w->fd, w->dirs[i].wd);
                    free(w->dirs[i].path);
                }
                w->n = 0;
                watch_roots(w);
                if (strset_add(changed, "(too many changes at once)"))
                    buf_puts(names, "(too many changes at once)\n");
                relevant++;
                continue;
            }
            const wdir *d = by_wd(w, ev->wd);
            if (!d || ev->len == 0 || ev->name[0] == '.' || ev->name[strlen(ev->name) - 1] == '~')
                continue; /* a dropped watch, the folder itself, editor swap files */
            char *path = NULL;
            for (unsigned i = 0; i < 3 && !path; i++) /* a source folder itself */
                if ((d->roots & (1u << i)) && strcmp(root_name(w->roots[i]), ev->name) == 0)
                    path = xstrdup(w->roots[i]);
            if (!path && d->tree)
                path = xasprintf("%s/%s", d->path, ev->name);
            if (!path)
                continue; /* beside a source folder, not it */
            if (skipped(w, path)) {
                free(path);
                continue;
            }
            if ((ev->mask & (IN_MOVED_FROM | IN_DELETE)) && (ev->mask & IN_ISDIR))
                drop_tree(w, path);
            if ((ev->mask & (IN_CREATE | IN_MOVED_TO)) && (ev->mask & IN_ISDIR)) {
                drop_tree(w, path); /* replaced in place */
                add_tree(w, path);
            }
            if (ev->mask & IN_CREATE)
                strset_add(created, path);
            if (strset_add(changed, path)) {
                buf_puts(names, path);
                buf_putc(names, '\n');
            }
            free(path);
            relevant++;
        }
    }
    return relevant;
}

/* "a, b" of the changed paths that still exist or existed before the burst. */
static void report_names(const buf *names, const strset *created, buf *out)
{
    for (const char *p = names->data; p && *p;) {
        const char *nl = strchr(p, '\n');
        char *path = xstrndup(p, (size_t)(nl - p));
        if (access(path, F_OK) == 0 || !strset_has(created, path)) {
            if (out->len)
                buf_puts(out, ", ");
            buf_puts(out, path);
        }
        free(path);
        p = nl + 1;
    }
}

/* ------------------------------------------------------------ the event source */

watcher *watcher_new(const site_options *o)
{
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "boardpress: error: cannot watch for changes: %s\n", strerror(errno));
        return NULL;
    }
    watcher *w = xcalloc(1, sizeof *w);
    w->fd = fd;
    w->roots[0] = o->content;
    w->roots[1] = o->templates;
    w->roots[2] = o->statics;
    w->skip[0] = o->write ? resolve(o->out) : NULL;
    w->skip[1] = o->cache ? resolve(o->cache) : NULL;
    for (int i = 0; i < 3; i++)
        w->present[i] = root_present(w->roots[i]);
    watch_roots(w);
    return w;
}

void watcher_free(watcher *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n; i++)
        free(w->dirs[i].path);
    free(w->dirs);
    free(w->skip[0]);
    free(w->skip[1]);
    free(w->first_unwatched);
    close(w->fd);
    free(w);
}

int watcher_fd(const watcher *w)
{
    return w->fd;
}

void watcher_report(watcher *w)
{
    report_unwatched(w);
}

/* A source folder that was there and is gone is being replaced (rm -r
 * and a copy, a checkout, mv old aside and new in): wait for it to come
 * back, up to WATCH_RETURN_MS, rather than rebuild without it. Its parent
 * is watched for its name, so its return is an event. True when every
 * source folder that was there is there again. */
static bool await_roots(watcher *w, strset *changed, strset *created, buf *names, int *got,
                        bool *waited)
{
    double deadline = clock_now_s() + WATCH_RETURN_MS / 1000.0;
    for (bool said = false;; said = true) {
        int gone = -1;
        for (int i = 0; i < 3 && gone < 0; i++)
            if (w->present[i] && !root_present(w->roots[i]))
                gone = i;
        double left_ms = (deadline - clock_now_s()) * 1000.0;
        if (gone < 0 || left_ms <= 0)
            return gone < 0;
        *waited = true;
        if (!said)
            fprintf(stderr, "boardpress: %s is gone; waiting up to %d s for it to come back\n",
                    w->roots[gone], WATCH_RETURN_MS / 1000);
        struct pollfd pfd = {w->fd, POLLIN, 0};
        if (poll(&pfd, 1, left_ms < 100 ? (int)left_ms + 1 : 100) > 0)
            *got += drain(w, changed, created, names);
        watch_parents(w); /* a parent replaced too */
    }
}

bool watcher_collect(watcher *w, buf *shown)
{
    strset changed = {0}, created = {0};
    buf names;
    buf_init(&names);
    int got = drain(w, &changed, &created, &names);
    /* Let a burst of writes settle; a source folder that went away first
     * comes back (or the wait ends), then what follows it settles too. */
    struct pollfd pfd = {w->fd, POLLIN, 0};
    bool waited = false;
    for (;;) {
        /* a folder that came back is being filled (a copy, a checkout):
         * its files get a longer quiet time to arrive */
        while (poll(&pfd, 1, waited ? WATCH_RETURN_SETTLE_MS : WATCH_SETTLE_MS) > 0)
            got += drain(w, &changed, &created, &names);
        bool was_waiting = waited;
        if (!await_roots(w, &changed, &created, &names, &got, &waited))
            break; /* the wait ran out: the rebuild says what is missing */
        if (waited && !was_waiting)
            continue; /* just came back: settle again, longer */
        if (poll(&pfd, 1, 0) <= 0)
            break; /* all settled */
    }
    for (int i = 0; i < 3; i++)
        w->present[i] = root_present(w->roots[i]);
    watch_parents(w);
    report_names(&names, &created, shown);
    report_unwatched(w);
    strset_free(&changed);
    strset_free(&created);
    buf_free(&names);
    return got > 0 && shown->len > 0;
}

/* ------------------------------------------------------------ stopping */

/* Ctrl-C (SIGINT) or SIGTERM: the first asks the loop, and a build under
 * way, to stop (the build writes nothing and gives its tree back); a second
 * one ends the process at once (the next build's journal puts right what
 * it left). A signal handler reaches only statics: these two. */
static atomic_int stop_signal;
static int stop_pipe[2] = {-1, -1};

static void on_stop(int sig)
{
    if (atomic_exchange(&stop_signal, sig) != 0) {
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    int e = errno;
    if (write(stop_pipe[1], "", 1) < 0) {
        /* the pipe is full: a stop is pending already */
    }
    errno = e;
}

static int stop_catch(struct sigaction old[2])
{
    atomic_store(&stop_signal, 0);
    if (pipe(stop_pipe) != 0) {
        fprintf(stderr, "boardpress: error: cannot set up the stop signal: %s\n", strerror(errno));
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        fcntl(stop_pipe[i], F_SETFD, FD_CLOEXEC);
        fcntl(stop_pipe[i], F_SETFL, O_NONBLOCK);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    /* a signal ignored from the start (nohup, a script's background job)
     * stays ignored */
    int sigs[2] = {SIGINT, SIGTERM};
    for (int i = 0; i < 2; i++)
        if (sigaction(sigs[i], &sa, &old[i]) == 0 && old[i].sa_handler == SIG_IGN)
            sigaction(sigs[i], &old[i], NULL);
    return 0;
}

static void stop_release(const struct sigaction old[2])
{
    sigaction(SIGINT, &old[0], NULL);
    sigaction(SIGTERM, &old[1], NULL);
    close(stop_pipe[0]);
    close(stop_pipe[1]);
    stop_pipe[0] = stop_pipe[1] = -1;
}

/* ------------------------------------------------------------ the loop */

/* "(2 simulated, 1 page and 3 other files changed)" for a rebuild. */
static void rebuild_counts(const build_report *r, buf *out)
{
    size_t pages = 0;
    for (size_t i = 0; i < r->n_changed; i++) {
        size_t n = strlen(r->changed[i]);
        pages += n >= 5 && strcmp(r->changed[i] + n - 5, ".html") == 0;
    }
    size_t other = r->n_changed - pages;
    buf_printf(out, " (%zu simulated, %zu page%s", r->simulated, pages, pages == 1 ? "" : "s");
    if (other)
        buf_printf(out, " and %zu other file%s", other, other == 1 ? "" : "s");
    buf_puts(out, " changed)");
}

int watch_loop(const site_options *o, const watch_hooks *h)
{
    watcher *w = watcher_new(o);
    if (!w)
        return 3;
    struct sigaction old[2];
    if (stop_catch(old) != 0) {
        watcher_free(w);
        return 3;
    }
    site_options first = *o;
    first.cancel = &stop_signal;
    build_report r;
    int status = h->build(&first, &r);
    if (h->built && !r.interrupted)
        h->built(h->ctx, status, &r, true);
    build_report_free(&r);
    if (!atomic_load(&stop_signal)) {
        fprintf(stderr, "boardpress: watching %s, %s and %s for changes (Ctrl-C stops)\n",
                o->content, o->templates, o->statics);
        watcher_report(w);
    }
    site_options quiet = first;
    quiet.quiet = true;
    int rebuilds = 0;
    while (!atomic_load(&stop_signal) && (h->max_rebuilds <= 0 || rebuilds < h->max_rebuilds)) {
        struct pollfd pfd[2] = {{w->fd, POLLIN, 0}, {stop_pipe[0], POLLIN, 0}};
        if (poll(pfd, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (atomic_load(&stop_signal) || !(pfd[0].revents & POLLIN))
            continue;
        buf shown, line;
        buf_init(&shown);
        buf_init(&line);
        if (watcher_collect(w, &shown) && !atomic_load(&stop_signal)) {
            double t0 = clock_now_s();
            status = h->build(&quiet, &r);
            double dt = clock_now_s() - t0;
            if (r.interrupted)
                ; /* said by the build; the loop ends */
            else if (status == 0) {
                rebuild_counts(&r, &line);
                fprintf(stderr, "boardpress: %s changed; rebuilt in %.2f s%s\n", shown.data, dt,
                        line.data);
            } else
                fprintf(stderr,
                        "boardpress: %s changed; the rebuild failed (above), %s still holds the "
                        "last good site\n",
                        shown.data, o->out);
            if (h->built && !r.interrupted)
                h->built(h->ctx, status, &r, false);
            build_report_free(&r);
            rebuilds++;
        }
        buf_free(&shown);
        buf_free(&line);
    }
    bool stopped = atomic_load(&stop_signal) != 0;
    if (stopped)
        fprintf(stderr, "boardpress: stopped\n");
    stop_release(old);
    watcher_free(w);
    return stopped ? 0 : status;
}

int watch_run(const site_options *o, site_build_fn build, int max_rebuilds)
{
    watch_hooks h = {build, NULL, NULL, max_rebuilds};
    return watch_loop(o, &h);
}
