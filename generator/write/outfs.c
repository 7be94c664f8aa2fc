/* outfs.c — see outfs.h. Folders are told by readdir's d_type and files by
 * its d_ino, so checking a tree costs a few system calls per folder and
 * none per file (a stat only where d_ino differs from the listed inode, as
 * overlayfs may report). A folder on another device (something mounted
 * into a tree) is never entered. */
#define _GNU_SOURCE
#include "write/outfs.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

bool outfs_rel_ok(const char *rel)
{
    size_t n = strlen(rel);
    if (n == 0 || n >= PATH_MAX || rel[0] == '/' || rel[n - 1] == '/')
        return false;
    for (const char *part = rel; part;) {
        const char *slash = strchr(part, '/');
        size_t len = slash ? (size_t)(slash - part) : strlen(part);
        if (len == 0 || (len == 1 && part[0] == '.') ||
            (len == 2 && part[0] == '.' && part[1] == '.'))
            return false;
        part = slash ? slash + 1 : NULL;
    }
    for (const unsigned char *p = (const unsigned char *)rel; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return false;
    return true;
}

static size_t slot_of(const outfs_list *l, const char *rel)
{
    size_t i = (size_t)hash64(rel, strlen(rel), 0) & (l->n_slots - 1);
    while (l->slots[i] && strcmp(l->rel[l->slots[i] - 1], rel) != 0)
        i = (i + 1) & (l->n_slots - 1);
    return i;
}

void outfs_list_add(outfs_list *l, const char *rel, const outfs_file *f)
{
    if (2 * (l->n + 1) > l->n_slots) {
        size_t n_slots = l->n_slots ? 2 * l->n_slots : 64;
        free(l->slots);
        l->slots = xcalloc(n_slots, sizeof *l->slots);
        l->n_slots = n_slots;
        for (size_t k = 0; k < l->n; k++)
            l->slots[slot_of(l, l->rel[k])] = k + 1;
    }
    size_t i = slot_of(l, rel);
    if (l->slots[i]) {
        l->file[l->slots[i] - 1] = *f;
        return;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap;
        l->rel = xgrow(l->rel, sizeof *l->rel, &cap, l->n + 1);
        l->file = xgrow(l->file, sizeof *l->file, &l->cap, l->n + 1);
    }
    l->rel[l->n] = xstrdup(rel);
    l->file[l->n] = *f;
    l->slots[i] = ++l->n;
}

const outfs_file *outfs_list_get(const outfs_list *l, const char *rel)
{
    if (!l->n_slots)
        return NULL;
    size_t i = slot_of(l, rel);
    return l->slots[i] ? &l->file[l->slots[i] - 1] : NULL;
}

void outfs_list_free(outfs_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->rel[i]);
    free(l->rel);
    free(l->file);
    free(l->slots);
    memset(l, 0, sizeof *l);
}

/* A new descriptor of the folder root (its own read position). */
static int reopen(int root)
{
    return openat(root, ".", DIR_FLAGS);
}

int outfs_open_dir(int root, const char *rel, size_t n, outfs_make make)
{
    int fd = reopen(root);
    if (fd < 0)
        return -1;
    char part[NAME_MAX + 1];
    for (size_t at = 0; at < n;) {
        size_t end = at;
        while (end < n && rel[end] != '/')
            end++;
        if (end - at > NAME_MAX) {
            close(fd);
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(part, rel + at, end - at);
        part[end - at] = '\0';
        bool made = make != OUTFS_OPEN && mkdirat(fd, part, 0755) == 0;
        int next = openat(fd, part, DIR_FLAGS);
        int e = errno;
        close(fd);
        if (next < 0) {
            errno = e;
            return -1;
        }
        if (made && make == OUTFS_MAKE_CHMOD && fchmod(next, 0755) != 0) {
            e = errno;
            close(next);
            errno = e;
            return -1;
        }
        fd = next;
        at = end + 1;
    }
    return fd;
}

/* The type of entry e in the folder fd (d_type, or a stat without
 * following links where the file system leaves it out). */
static unsigned char type_of(int fd, const struct dirent *e)
{
    if (e->d_type != DT_UNKNOWN)
        return e->d_type;
    struct stat st;
    if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return DT_UNKNOWN;
    return S_ISDIR(st.st_mode) ? DT_DIR : S_ISREG(st.st_mode) ? DT_REG : DT_LNK;
}

typedef struct {
    const outfs_list *list;
    outfs_level level;
    strset dirs; /* OUTFS_STATUS and up: the folders on the way to listed files */
    dev_t dev;
    bool marker_ok, fix_modes;
    bool all;        /* outfs_empty of everything */
    char *found;     /* check: first foreign entry; empty: first kept one */
    const char *why; /* check: what is wrong with it */
    int err;         /* errno of a failed removal or read */
    char *err_rel;   /* what it failed on */
} walk;

static char *join(const char *rel, const char *name)
{
    return rel[0] ? xasprintf("%s/%s", rel, name) : xstrdup(name);
}

static void note_err(walk *w, const char *rel, int e)
{
    if (!w->err) {
        w->err = e;
        w->err_rel = xstrdup(rel);
    }
}

/* Every folder on the way to a listed file ("a", "a/b" for "a/b/c"). */
static void dirs_of(const outfs_list *l, strset *dirs)
{
    for (size_t i = 0; i < l->n; i++) {
        char *p = xstrdup(l->rel[i]);
        for (char *sl = strrchr(p, '/'); sl; sl = strrchr(p, '/')) {
            *sl = '\0';
            if (!strset_add(dirs, p))
                break; /* its parents are in too */
        }
        free(p);
    }
}

int64_t outfs_mtime_ns(const struct stat *st)
{
    return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

/* The checksum of the regular file fd holds (size bytes); -1 when it
 * cannot be read whole. */
static int sum_of(int fd, uint64_t size, uint64_t *sum)
{
    char *data = xmalloc(size ? (size_t)size : 1);
    size_t got = 0;
    while (got < size) {
        ssize_t r = pread(fd, data + got, (size_t)size - got, (off_t)got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    *sum = hash64_words(data, got);
    free(data);
    return got == size ? 0 : -1;
}

/* e (in the folder fd, at path rel) is the listed file, as closely as
 * w->level asks; otherwise w->why says how it is not (w->err is set when
 * it could not be read). */
static bool listed_file(walk *w, int fd, const struct dirent *e, const char *rel)
{
    const outfs_file *f = outfs_list_get(w->list, rel);
    w->why = "was not written by boardpress";
    if (!f)
        return false;
    if (w->level == OUTFS_INODES && (uint64_t)e->d_ino == f->ino)
        return true;
    struct stat st;
    if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode) ||
        (uint64_t)st.st_ino != f->ino)
        return false;
    if (w->level == OUTFS_INODES)
        return true;
    w->why = "was changed since boardpress wrote it";
    if ((uint64_t)st.st_size != f->size || outfs_mtime_ns(&st) != f->mtime_ns)
        return false;
    if ((st.st_mode & 07777) != 0644) {
        w->why = "has another mode than boardpress gave it (0644)";
        return false;
    }
    if (w->level == OUTFS_STATUS)
        return true;
    errno = 0;
    int ffd = openat(fd, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    uint64_t sum = 0;
    int rc = ffd >= 0 ? sum_of(ffd, f->size, &sum) : -1;
    if (rc != 0)
        note_err(w, rel, errno ? errno : EIO);
    if (ffd >= 0)
        close(ffd);
    return rc == 0 && sum == f->sum;
}

/* Open the subfolder name of fd when it is on the tree's device; -1 (and
 * errno EXDEV for another device) otherwise. */
static int open_sub(walk *w, int fd, const char *name, struct stat *st)
{
    int sub = openat(fd, name, DIR_FLAGS);
    if (sub < 0)
        return -1;
    if (fstat(sub, st) != 0 || st->st_dev != w->dev) {
        close(sub);
        errno = EXDEV;
        return -1;
    }
    return sub;
}

static void check_dir(walk *w, int fd, const char *rel)
{
    DIR *dh = fdopendir(fd);
    if (!dh) {
        note_err(w, rel, errno);
        close(fd);
        return;
    }
    struct dirent *e;
    while (!w->found && !w->err && (e = readdir(dh))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *r = join(rel, e->d_name);
        unsigned char t = type_of(dirfd(dh), e);
        if (!rel[0] && w->marker_ok && t == DT_REG && strcmp(e->d_name, OUTFS_MARKER) == 0) {
            /* the caller checks the marker's contents */
        } else if (t == DT_DIR) {
            /* in a tree of builds a folder is fine when what it holds is;
             * in a site it must be one boardpress made, as it made it */
            struct stat st;
            int sub = open_sub(w, dirfd(dh), e->d_name, &st);
            w->why = "is a folder boardpress did not make";
            if (sub < 0) {
                w->found = xstrdup(r);
            } else if (w->level != OUTFS_INODES && !strset_has(&w->dirs, r)) {
                w->found = xstrdup(r);
                close(sub);
            } else if (w->level != OUTFS_INODES && (st.st_mode & 07777) != 0755) {
                w->why = "is a folder of another mode than boardpress gave it (0755)";
                w->found = xstrdup(r);
                close(sub);
            } else if (w->fix_modes && (st.st_mode & 07777) != 0755 && fchmod(sub, 0755) != 0) {
                w->found = xstrdup(r);
                close(sub);
            } else {
                check_dir(w, sub, r);
            }
        } else if (t != DT_REG || !listed_file(w, dirfd(dh), e, r)) {
            if (t != DT_REG)
                w->why = "was not written by boardpress";
            if (!w->err)
                w->found = xstrdup(r);
        }
        free(r);
    }
    closedir(dh);
}

/* A new descriptor of root for a walk, whose device w gets; -1 (errno). */
static int walk_start(int root, walk *w)
{
    struct stat st;
    int fd = reopen(root);
    if (fd >= 0 && fstat(fd, &st) != 0) {
        close(fd);
        fd = -1;
    }
    if (fd >= 0)
        w->dev = st.st_dev;
    return fd;
}

int outfs_check(int root, const outfs_list *list, outfs_level level, bool marker_ok, bool fix_modes,
                char **found, const char **why)
{
    walk w = {.list = list, .level = level, .marker_ok = marker_ok, .fix_modes = fix_modes};
    int fd = walk_start(root, &w);
    if (fd < 0)
        return -1;
    if (level != OUTFS_INODES)
        dirs_of(list, &w.dirs);
    check_dir(&w, fd, "");
    strset_free(&w.dirs);
    if (w.err) {
        free(w.err_rel);
        free(w.found);
        errno = w.err;
        return -1;
    }
    *found = w.found;
    if (why)
        *why = w.why;
    return w.found ? 1 : 0;
}

/* Remove the folders below fd (at rel) that are not in w->dirs, deepest
 * first; each must be empty by then. */
static void prune_dir(walk *w, int fd, const char *rel)
{
    DIR *dh = fdopendir(fd);
    if (!dh) {
        note_err(w, rel, errno);
        close(fd);
        return;
    }
    struct dirent *e;
    while (!w->err && (e = readdir(dh))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            type_of(dirfd(dh), e) != DT_DIR)
            continue;
        char *r = join(rel, e->d_name);
        struct stat st;
        int sub = open_sub(w, dirfd(dh), e->d_name, &st);
        if (sub >= 0)
            prune_dir(w, sub, r);
        if (!w->err && !strset_has(&w->dirs, r) &&
            unlinkat(dirfd(dh), e->d_name, AT_REMOVEDIR) != 0)
            note_err(w, r, errno);
        free(r);
    }
    closedir(dh);
}

int outfs_prune(int root, const outfs_list *list, char **kept)
{
    walk w = {.list = list};
    *kept = NULL;
    int fd = walk_start(root, &w);
    if (fd < 0)
        return -1;
    dirs_of(list, &w.dirs);
    prune_dir(&w, fd, "");
    strset_free(&w.dirs);
    if (w.err) {
        *kept = w.err_rel;
        errno = w.err;
        return -1;
    }
    return 0;
}

/* unlinkat, and once more after making the folder writable when it was
 * not (a tree whose folders a user made read-only is still ours). */
static int remove_at(int fd, const char *name, int flags)
{
    if (unlinkat(fd, name, flags) == 0)
        return 0;
    if (errno != EACCES && errno != EPERM)
        return -1;
    int e = errno;
    struct stat st;
    if (fstat(fd, &st) != 0 || (st.st_mode & 0700) == 0700 ||
        fchmod(fd, (st.st_mode & 07777) | 0700) != 0) {
        errno = e;
        return -1;
    }
    return unlinkat(fd, name, flags);
}

/* Empty the folder fd (at rel); true when it is empty now. */
static bool empty_dir(walk *w, int fd, const char *rel)
{
    DIR *dh = fdopendir(fd);
    if (!dh) {
        note_err(w, rel, errno);
        close(fd);
        return false;
    }
    bool empty = true, marker = false;
    struct dirent *e;
    while (!w->err && (e = readdir(dh))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *r = join(rel, e->d_name);
        unsigned char t = type_of(dirfd(dh), e);
        if (!rel[0] && t == DT_REG && strcmp(e->d_name, OUTFS_MARKER) == 0) {
            marker = true;
        } else if (t == DT_DIR) {
            struct stat st;
            int sub = open_sub(w, dirfd(dh), e->d_name, &st);
            if (sub < 0) {
                empty = false;
                if (!w->found)
                    w->found = xstrdup(r);
            } else if (!empty_dir(w, sub, r)) {
                empty = false;
            } else if (remove_at(dirfd(dh), e->d_name, AT_REMOVEDIR) != 0) {
                note_err(w, r, errno);
                empty = false;
            }
        } else if (w->all || (t == DT_REG && listed_file(w, dirfd(dh), e, r))) {
            if (remove_at(dirfd(dh), e->d_name, 0) != 0 && errno != ENOENT) {
                note_err(w, r, errno);
                empty = false;
            }
        } else {
            empty = false;
            if (!w->found)
                w->found = xstrdup(r);
        }
        free(r);
    }
    /* the marker goes last: a tree that keeps anything stays recognisable */
    if (marker && empty && !w->err && remove_at(dirfd(dh), OUTFS_MARKER, 0) != 0) {
        note_err(w, OUTFS_MARKER, errno);
        empty = false;
    }
    closedir(dh);
    return empty && !w->err;
}

int outfs_empty(int root, const outfs_list *list, char **kept)
{
    walk w = {.list = list, .all = list == NULL};
    int fd = walk_start(root, &w);
    *kept = NULL;
    if (fd < 0)
        return -1;
    bool empty = empty_dir(&w, fd, "");
    if (w.err) {
        free(w.found);
        *kept = w.err_rel;
        errno = w.err;
        return -1;
    }
    *kept = w.found;
    return empty ? 0 : 1;
}

int outfs_unlink(int root, const char *rel, int flags)
{
    const char *slash = strrchr(rel, '/');
    int dfd = outfs_open_dir(root, rel, slash ? (size_t)(slash - rel) : 0, OUTFS_OPEN);
    if (dfd < 0)
        return -1;
    int rc = unlinkat(dfd, slash ? slash + 1 : rel, flags);
    int e = errno;
    close(dfd);
    errno = e;
    return rc;
}

int outfs_rmdir(int parent, const char *name, dev_t dev, ino_t ino)
{
    struct stat st;
    if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return -1;
    if (!S_ISDIR(st.st_mode) || st.st_dev != dev || st.st_ino != ino) {
        errno = ESTALE;
        return -1;
    }
    return remove_at(parent, name, AT_REMOVEDIR);
}
