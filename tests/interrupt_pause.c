/* interrupt_pause.c — an LD_PRELOAD shim for tests that stop a build at
 * one known point of its writing (run-interrupt.sh, run-crash.sh): an
 * open() of a path that ends with $BP_PAUSE_AT waits until the file
 * $BP_PAUSE_UNTIL exists (or, without it, until a signal ends the build,
 * which keeps the default actions); the first $BP_PAUSE_SKIP such opens
 * (default 0) go through (run-serve.sh pauses a rebuild, not the first
 * build). boardpress refuses to read a named
 * pipe, so the pipe that used to hold it there would no longer do.
 * With $BP_OPEN_LOG set, every open() appends its path and a newline to
 * that file (run-reads.sh counts the openings of each page). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int skipped; /* matching opens let through so far (BP_PAUSE_SKIP) */

static void maybe_pause(const char *path)
{
    const char *at = getenv("BP_PAUSE_AT");
    size_t n = at ? strlen(at) : 0, len = strlen(path);
    if (!n || len < n || strcmp(path + len - n, at) != 0)
        return;
    const char *skip = getenv("BP_PAUSE_SKIP");
    if (skip && __atomic_fetch_add(&skipped, 1, __ATOMIC_SEQ_CST) < atoi(skip))
        return;
    const char *until = getenv("BP_PAUSE_UNTIL");
    while (!until || access(until, F_OK) != 0) {
        if (until)
            usleep(10000);
        else
            pause();
    }
}

/* One line "PATH\n" appended to $BP_OPEN_LOG, in one write (O_APPEND:
 * the lines of threads opening at once do not mix). */
static void log_open(const char *path)
{
    const char *log = getenv("BP_OPEN_LOG");
    if (!log)
        return;
    int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, "open");
    int fd = real(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return;
    size_t n = strlen(path);
    char line[4097];
    if (n < sizeof line) {
        memcpy(line, path, n);
        line[n] = '\n';
        ssize_t w = write(fd, line, n + 1);
        (void)w;
    }
    close(fd);
}

/* The real open (or open64), after the pause when path is the one. */
static int next_open(const char *name, const char *path, int flags, va_list ap)
{
    bool has_mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
    mode_t mode = has_mode ? (mode_t)va_arg(ap, int) : 0;
    log_open(path);
    maybe_pause(path);
    int (*real)(const char *, int, ...) = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, name);
    return real(path, flags, mode);
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = next_open("open", path, flags, ap);
    va_end(ap);
    return fd;
}

int open64(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    int fd = next_open("open64", path, flags, ap);
    va_end(ap);
    return fd;
}

/* openat: the same pause, only when $BP_PAUSE_OPENAT is set (the output
 * code opens the files of --out relative to a folder: run-trust.sh pauses
 * a build while it holds the lock, inspecting the site it will replace). */
int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    bool has_mode = (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
    mode_t mode = has_mode ? (mode_t)va_arg(ap, int) : 0;
    va_end(ap);
    if (getenv("BP_PAUSE_OPENAT"))
        maybe_pause(path);
    int (*real)(int, const char *, int, ...) = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT, "openat");
    return real(dirfd, path, flags, mode);
}

/* mkdirat: the same pause, only when $BP_PAUSE_MKDIRAT is set (the
 * output code makes a page's folder in the new tree just before it writes
 * the page's first file there, and nowhere else: run-interrupt.sh pauses
 * at the last page's folder, once every other page is written). */
int mkdirat(int dirfd, const char *path, mode_t mode)
{
    if (getenv("BP_PAUSE_MKDIRAT"))
        maybe_pause(path);
    int (*real)(int, const char *, mode_t) =
        (int (*)(int, const char *, mode_t))dlsym(RTLD_NEXT, "mkdirat");
    return real(dirfd, path, mode);
}
