/* journal.c — see journal.h. A record is text, one field a line:
 *   boardpress-tree 1
 *   token HEX / role live|new|old|spare / out PATH / dev N / ino N
 *   at PATH / next PATH (optional)
 *   file INODE SIZE CHECKSUM MTIME_NS RELPATH (one per file: what tells
 *   that it is still exactly the file boardpress wrote; the folders are
 *   those on the way to the files)
 *   end
 * Paths are whole lines after the field name, so they may hold spaces; the
 * output layer refuses names with control characters, and a record holding
 * one (or a file path that is not relative and normalised) is damaged. */
#define _GNU_SOURCE
#include "write/journal.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define HEADER "boardpress-tree 2\n"
#define RECORD_MAX ((size_t)256 << 20)

static const char *const role_names[] = {"live", "new", "old", "spare"};

void journal_random_hex(char *dst, size_t n)
{
    unsigned char bytes[64];
    if (n > sizeof bytes)
        n = sizeof bytes;
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(bytes + got, n - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            /* no getrandom: the kernel's file; never a guessable fallback */
            int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
            if (fd < 0 || read(fd, bytes + got, n - got) != (ssize_t)(n - got)) {
                fprintf(stderr, "boardpress: error: no random numbers from the kernel\n");
                abort();
            }
            close(fd);
            break;
        }
        got += (size_t)r;
    }
    for (size_t i = 0; i < n; i++)
        snprintf(dst + 2 * i, 3, "%02x", bytes[i]);
}

int journal_open(journal *j, const char *dir, diag *d)
{
    memset(j, 0, sizeof *j);
    j->fd = j->lock_fd = -1;
    j->dir = xstrdup(dir);
    j->started = time(NULL);
    int e = 0;
    if (mkdir(j->dir, 0700) != 0 && errno != EEXIST)
        e = errno;
    else if ((j->fd = open(j->dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        e = errno;
    if (e) {
        d->io = true;
        diag_error(d, j->dir, 0, 0,
                   "cannot make the folder for the record of what boardpress wrote: %s",
                   strerror(e));
        journal_close(j);
        return -1;
    }
    struct stat st;
    if (fstat(j->fd, &st) != 0 || st.st_uid != geteuid() || (st.st_mode & 022)) {
        d->io = true;
        diag_error(d, j->dir, 0, 0,
                   "refusing to use this journal of what boardpress wrote: it %s (it must "
                   "belong to you, and only you may write it: chmod go-w)",
                   st.st_uid != geteuid() ? "belongs to another user" : "may be written by others");
        journal_close(j);
        return -1;
    }
    j->lock_fd = openat(j->fd, "lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (j->lock_fd < 0) {
        d->io = true;
        diag_error(d, j->dir, 0, 0, "cannot make the journal's lock file: %s", strerror(errno));
        journal_close(j);
        return -1;
    }
    return 0;
}

void journal_close(journal *j)
{
    if (j->locked)
        journal_unlock(j);
    if (j->lock_fd >= 0)
        close(j->lock_fd);
    if (j->fd >= 0)
        close(j->fd);
    free(j->dir);
    memset(j, 0, sizeof *j);
    j->fd = j->lock_fd = -1;
}

/* Wait for the lock, saying whose it is when another build keeps it longer
 * than a moment (a stopped build holds it for as long as it is stopped).
 * A signal that ends the process while it waits leaves everything as it
 * was: nothing has been done yet. */
static int wait_for_lock(journal *j, const char *shown)
{
    for (int tries = 0; tries < 25; tries++) {
        if (flock(j->lock_fd, LOCK_EX | LOCK_NB) == 0)
            return 0;
        if (errno != EWOULDBLOCK && errno != EINTR)
            return -1;
        struct timespec pause = {0, 20 * 1000 * 1000}; /* 20 ms: the usual hold is shorter */
        nanosleep(&pause, NULL);
    }
    char who[128] = "";
    ssize_t n = pread(j->lock_fd, who, sizeof who - 1, 0);
    who[n > 0 ? n : 0] = '\0';
    who[strcspn(who, "\n")] = '\0';
    fprintf(stderr, "boardpress: waiting for the build that holds %s (%s); Ctrl-C stops\n", shown,
            who[0] ? who : "pid unknown");
    fflush(stderr);
    while (flock(j->lock_fd, LOCK_EX) != 0)
        if (errno != EINTR)
            return -1;
    return 0;
}

int journal_lock(journal *j, const char *shown)
{
    if (wait_for_lock(j, shown) != 0)
        return -1;
    j->locked = true;
    /* who holds it, for a build that waits: "pid N, started T" */
    char when[64];
    struct tm tm;
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", localtime_r(&j->started, &tm));
    char who[128];
    int len = snprintf(who, sizeof who, "pid %ld, started %s\n", (long)getpid(), when);
    if (ftruncate(j->lock_fd, 0) != 0 || pwrite(j->lock_fd, who, (size_t)len, 0) != len) {
        /* only a waiting build's message lacks it */
    }
    /* Only the lock's holder writes records: a ".new" file now is what a
     * build that died left half written. */
    int fd = openat(j->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dh = fd >= 0 ? fdopendir(fd) : NULL;
    struct dirent *e;
    while (dh && (e = readdir(dh))) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".new") == 0)
            unlinkat(j->fd, e->d_name, 0);
    }
    if (dh)
        closedir(dh);
    else if (fd >= 0)
        close(fd);
    return 0;
}

void journal_unlock(journal *j)
{
    flock(j->lock_fd, LOCK_UN);
    j->locked = false;
}

jrec *jrec_new(const char *out, jrole role)
{
    jrec *r = xcalloc(1, sizeof *r);
    journal_random_hex(r->token, 16);
    r->role = role;
    r->out = xstrdup(out);
    r->name = xstrdup(r->token);
    return r;
}

void jrec_free(jrec *r)
{
    if (!r)
        return;
    free(r->out);
    free(r->at);
    free(r->next);
    free(r->name);
    outfs_list_free(&r->files);
    free(r);
}

void jrec_set_at(jrec *r, const char *at)
{
    char *copy = at ? xstrdup(at) : NULL;
    free(r->at);
    r->at = copy;
}

void jrec_set_next(jrec *r, const char *next)
{
    char *copy = next ? xstrdup(next) : NULL;
    free(r->next);
    r->next = copy;
}

static bool abs_path_ok(const char *p)
{
    if (p[0] != '/')
        return false;
    for (const unsigned char *c = (const unsigned char *)p; *c; c++)
        if (*c < 0x20 || *c == 0x7f)
            return false;
    return true;
}

static bool parse_u64(const char *s, uint64_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || s[0] == '+')
        return false;
    *v = (uint64_t)x;
    return true;
}

/* Parse one record; false when anything in it is off. */
static bool parse(jrec *r, char *text, size_t len)
{
    if (len < sizeof HEADER - 1 || memcmp(text, HEADER, sizeof HEADER - 1) != 0 ||
        text[len - 1] != '\n' || memchr(text, '\0', len))
        return false;
    bool ended = false, have_dev = false, have_ino = false, have_role = false;
    for (char *line = text + sizeof HEADER - 1; *line;) {
        char *nl = strchr(line, '\n');
        *nl = '\0';
        char *sp = strchr(line, ' ');
        const char *val = sp ? sp + 1 : "";
        if (sp)
            *sp = '\0';
        if (ended)
            return false; /* nothing after "end" */
        if (strcmp(line, "end") == 0 && !sp) {
            ended = true;
        } else if (strcmp(line, "token") == 0) {
            if (strlen(val) != 32 || strspn(val, "0123456789abcdef") != 32)
                return false;
            memcpy(r->token, val, 33);
        } else if (strcmp(line, "role") == 0) {
            have_role = false;
            for (int k = 0; k < 4; k++)
                if (strcmp(val, role_names[k]) == 0) {
                    r->role = (jrole)k;
                    have_role = true;
                }
            if (!have_role)
                return false;
        } else if (strcmp(line, "out") == 0 || strcmp(line, "at") == 0 ||
                   strcmp(line, "next") == 0) {
            if (!abs_path_ok(val))
                return false;
            char **dst = line[0] == 'o' ? &r->out : line[0] == 'a' ? &r->at : &r->next;
            free(*dst);
            *dst = xstrdup(val);
        } else if (strcmp(line, "dev") == 0) {
            have_dev = parse_u64(val, &r->dev);
        } else if (strcmp(line, "ino") == 0) {
            have_ino = parse_u64(val, &r->ino);
        } else if (strcmp(line, "file") == 0) {
            /* four numbers, then the path (which may hold spaces) */
            outfs_file f;
            uint64_t v[4];
            char *at = (char *)val;
            for (int k = 0; k < 4; k++) {
                char *sp2 = strchr(at, ' ');
                if (!sp2)
                    return false;
                *sp2 = '\0';
                if (!parse_u64(at, &v[k]))
                    return false;
                at = sp2 + 1;
            }
            if (!outfs_rel_ok(at) || strcmp(at, OUTFS_MARKER) == 0)
                return false;
            f = (outfs_file){v[0], v[1], v[2], (int64_t)v[3]};
            outfs_list_add(&r->files, at, &f);
        } else {
            return false;
        }
        line = nl + 1;
    }
    return ended && have_dev && have_ino && have_role && r->token[0] && r->out && r->at;
}

jrec **journal_load(journal *j, const char *out, size_t *n, char **damaged)
{
    *n = 0;
    if (damaged)
        *damaged = NULL;
    jrec **recs = NULL;
    size_t cap = 0;
    int fd = openat(j->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dh = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dh) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (strlen(e->d_name) != 32 || strspn(e->d_name, "0123456789abcdef") != 32)
            continue; /* the lock, a record being written */
        int rfd = openat(j->fd, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        struct stat st;
        char *text = NULL;
        ssize_t got = -1;
        if (rfd >= 0 && fstat(rfd, &st) == 0 && S_ISREG(st.st_mode) &&
            (size_t)st.st_size <= RECORD_MAX) {
            text = xmalloc((size_t)st.st_size + 1);
            got = 0;
            while (got < st.st_size) {
                ssize_t r = read(rfd, text + got, (size_t)(st.st_size - got));
                if (r <= 0)
                    break;
                got += r;
            }
            text[got < 0 ? 0 : got] = '\0';
        }
        if (rfd >= 0)
            close(rfd);
        jrec *r = xcalloc(1, sizeof *r);
        r->name = xstrdup(e->d_name);
        bool ok = text && got == st.st_size && parse(r, text, (size_t)got) &&
                  strcmp(r->token, e->d_name) == 0;
        bool ours = r->out && strcmp(r->out, out) == 0;
        free(text);
        if (!ok || !ours) {
            /* another --out's, or damaged: named when it is (or says it is)
             * this one's */
            if (!ok && ours && damaged && !*damaged)
                *damaged = xasprintf("%s/%s", j->dir, e->d_name);
            jrec_free(r);
            continue;
        }
        recs = xgrow(recs, sizeof *recs, &cap, *n + 1);
        recs[(*n)++] = r;
    }
    closedir(dh);
    return recs;
}

int journal_save(journal *j, const jrec *r)
{
    buf b;
    buf_init(&b);
    buf_puts(&b, HEADER);
    buf_printf(&b, "token %s\nrole %s\nout %s\ndev %" PRIu64 "\nino %" PRIu64 "\nat %s\n", r->token,
               role_names[r->role], r->out, r->dev, r->ino, r->at);
    if (r->next)
        buf_printf(&b, "next %s\n", r->next);
    for (size_t i = 0; i < r->files.n; i++)
        buf_printf(&b, "file %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %s\n",
                   r->files.file[i].ino, r->files.file[i].size, r->files.file[i].sum,
                   (uint64_t)r->files.file[i].mtime_ns, r->files.rel[i]);
    buf_puts(&b, "end\n");
    char *tmp = xasprintf("%s.new", r->name);
    int fd = openat(j->fd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    int rc = -1;
    if (fd >= 0) {
        bool ok = file_write_all(fd, b.data, b.len) == 0;
        ok = close(fd) == 0 && ok;
        if (ok && renameat(j->fd, tmp, j->fd, r->name) == 0)
            rc = 0;
        else
            unlinkat(j->fd, tmp, 0);
    }
    free(tmp);
    buf_free(&b);
    return rc;
}

void journal_forget(journal *j, const jrec *r)
{
    unlinkat(j->fd, r->name, 0);
}
