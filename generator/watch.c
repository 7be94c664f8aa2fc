/* watch.c — inotify-driven rebuilds. Changes within 100 ms of each other are
 * taken together, so an editor's save (write, rename, chmod) is one rebuild. */
#include "watch.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define WATCH_MAX_DIRS 4096
#define WATCH_MASK                                                                                 \
    (IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB |            \
     IN_DELETE_SELF)

typedef struct {
    int fd;
    int wd[WATCH_MAX_DIRS];
    char *path[WATCH_MAX_DIRS];
    size_t n;
} watcher;

static void add_tree(watcher *w, const char *dir)
{
    if (w->n >= WATCH_MAX_DIRS)
        return;
    int wd = inotify_add_watch(w->fd, dir, WATCH_MASK);
    if (wd < 0)
        return;
    bool known = false;
    for (size_t i = 0; i < w->n && !known; i++)
        known = w->wd[i] == wd;
    if (!known) {
        w->wd[w->n] = wd;
        w->path[w->n++] = xstrdup(dir);
    }
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

static const char *dir_of(const watcher *w, int wd)
{
    for (size_t i = 0; i < w->n; i++)
        if (w->wd[i] == wd)
            return w->path[i];
    return "?";
}

/* Read pending events; note changed paths and watch new folders. A path
 * that was created and is gone again (an editor's or sed's temporary file)
 * is dropped from *created* and left out of the report. */
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
            if (ev->len == 0 || ev->name[0] == '.' || ev->name[strlen(ev->name) - 1] == '~')
                continue; /* editor swap and backup files */
            char *path = xasprintf("%s/%s", dir_of(w, ev->wd), ev->name);
            if ((ev->mask & (IN_CREATE | IN_MOVED_TO)) && (ev->mask & IN_ISDIR))
                add_tree(w, path);
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

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int watch_run(const site_options *o, int max_rebuilds)
{
    watcher w;
    memset(&w, 0, sizeof w);
    w.fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (w.fd < 0) {
        fprintf(stderr, "boardpress: error: cannot watch for changes: %s\n", strerror(errno));
        return 3;
    }
    add_tree(&w, o->content);
    add_tree(&w, o->templates);
    add_tree(&w, o->statics);
    int status = site_build(o);
    fprintf(stderr, "boardpress: watching %s, %s and %s for changes (Ctrl-C stops)\n", o->content,
            o->templates, o->statics);
    site_options quiet = *o;
    quiet.quiet = true;
    int rebuilds = 0;
    while (max_rebuilds <= 0 || rebuilds < max_rebuilds) {
        struct pollfd pfd = {w.fd, POLLIN, 0};
        if (poll(&pfd, 1, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        strset changed = {0}, created = {0};
        buf names, shown;
        buf_init(&names);
        buf_init(&shown);
        int got = drain(&w, &changed, &created, &names);
        /* Let a burst of writes settle. */
        while (poll(&pfd, 1, 100) > 0)
            got += drain(&w, &changed, &created, &names);
        report_names(&names, &created, &shown);
        if (got > 0 && shown.len) {
            double t0 = now_s();
            status = site_build(&quiet);
            double dt = now_s() - t0;
            if (status == 0)
                fprintf(stderr, "boardpress: %s changed; rebuilt in %.2f s\n", shown.data, dt);
            else
                fprintf(stderr,
                        "boardpress: %s changed; the rebuild failed (above), %s still holds the "
                        "last good site\n",
                        shown.data, o->out);
            rebuilds++;
        }
        strset_free(&changed);
        strset_free(&created);
        buf_free(&names);
        buf_free(&shown);
    }
    for (size_t i = 0; i < w.n; i++)
        free(w.path[i]);
    close(w.fd);
    return status;
}
