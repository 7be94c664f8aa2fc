/* output.c — atomic output folders (see output.h). Linux: the swap uses
 * renameat2(RENAME_EXCHANGE), so readers see the old site or the new one,
 * never a mix; elsewhere (or where the file system refuses) two renames.
 *
 * Speed (README "Performance"): deleting a folder is the slowest thing a
 * build can ask of the file system (ext4 mounted with `discard` frees each
 * folder's block synchronously: up to ~2.5 ms per rmdir on the bench
 * machine), so the previous tree is not deleted after the swap but kept in
 * the cache folder (spare-NAME-HASH) and recycled as the next build's new
 * tree: its folders stay, unchanged files are hard links shared with the
 * live tree, and a rebuild only replaces what changed. Nothing is left
 * beside --out. Without a cache folder, or across file systems, the previous
 * tree is deleted as before. Writes may come from several threads (pages
 * render in parallel); the manifest is kept in a deterministic order by the
 * (seq, sub) of each write, whatever the threads did. */
#define _GNU_SOURCE
#include "output.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define IN_PROGRESS ".boardpress-in-progress"

typedef struct {
    size_t seq, sub;
    char *rel;
} entry;

typedef struct {
    char *out;          /* as given */
    char *tmp;          /* the new tree */
    char *keep_dir;     /* where the spare tree is kept (the cache folder), or NULL */
    char *spare;        /* the tree kept for the next build, or NULL: none */
    strset old_files;   /* paths the live tree's manifest lists */
    strset spare_files; /* paths the recycled tree held when it was claimed */
    strset new_files;   /* paths written into the new tree */
    entry *entries;     /* the manifest, sorted at commit */
    size_t n_entries, cap_entries;
    bool had_old;      /* out existed */
    bool recycled;     /* tmp is the previous build's spare tree */
    bool chmod_needed; /* the umask takes bits off 0644 */
    size_t written, linked;
    pthread_mutex_t lock;
} outcore;

struct outdir {
    outcore *c;
    size_t seq, sub;
    bool view;      /* made by outdir_view: freeing it leaves the core alone */
    char *last_dir; /* the folder this handle made last */
};

static char *parent_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

static const char *base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* realpath of path, or of its parent joined with its name when it does not
 * exist yet. */
static char *resolve(const char *path)
{
    char tmp[PATH_MAX];
    if (realpath(path, tmp))
        return xstrdup(tmp);
    char *parent = parent_of(path);
    char *r = NULL;
    if (realpath(parent, tmp))
        r = xasprintf("%s/%s", strcmp(tmp, "/") == 0 ? "" : tmp, base_of(path));
    free(parent);
    return r;
}

/* a is b, or inside b. */
static bool within(const char *a, const char *b)
{
    size_t n = strlen(b);
    if (strcmp(b, "/") == 0)
        return true;
    return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (flag == FTW_DP)
        return rmdir(path);
    return unlink(path);
}

static int rm_tree(const char *path)
{
    return nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* Load a manifest's lines into a set. */
static void manifest_load(strset *set, const char *text)
{
    for (const char *p = text; p && *p;) {
        const char *nl = strchr(p, '\n');
        size_t l = nl ? (size_t)(nl - p) : strlen(p);
        char *line = xstrndup(p, l);
        if (l)
            strset_add(set, line);
        free(line);
        p = nl ? nl + 1 : NULL;
    }
}

static bool manifest_read(const char *dir, strset *set)
{
    char *mpath = xasprintf("%s/%s", dir, OUTPUT_MANIFEST);
    size_t len;
    char *text = NULL;
    bool ok = file_read(mpath, (size_t)64 << 20, &text, &len) == 0;
    if (ok)
        manifest_load(set, text);
    free(text);
    free(mpath);
    return ok;
}

/* The first file under dir (relative path rel) that is neither in manifest
 * nor one of our markers, or NULL. Folders are told by d_type, so a tree
 * costs a few system calls per folder, none per file. */
static char *foreign_file(const char *dir, const char *rel, const strset *manifest)
{
    DIR *dh = opendir(dir);
    if (!dh)
        return NULL;
    struct dirent *e;
    char *found = NULL;
    while (!found && (e = readdir(dh))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *r = rel[0] ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
        bool is_dir = e->d_type == DT_DIR;
        if (e->d_type == DT_UNKNOWN) {
            struct stat st;
            is_dir =
                fstatat(dirfd(dh), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode);
        }
        if (is_dir) {
            char *path = xasprintf("%s/%s", dir, e->d_name);
            found = foreign_file(path, r, manifest);
            free(path);
        } else if (strcmp(r, OUTPUT_MANIFEST) != 0 && strcmp(r, IN_PROGRESS) != 0 &&
                   !strset_has(manifest, r)) {
            found = xstrdup(r);
        }
        free(r);
    }
    closedir(dh);
    return found;
}

static bool has_marker(const char *dir)
{
    char *marker = xasprintf("%s/%s", dir, OUTPUT_MANIFEST);
    char *inprog = xasprintf("%s/%s", dir, IN_PROGRESS);
    bool ours = access(marker, F_OK) == 0 || access(inprog, F_OK) == 0;
    free(inprog);
    free(marker);
    return ours;
}

/* True when the process whose id ends a temporary tree's name ("1234" of
 * OUT.tmp-1234) still runs: that tree belongs to a build in progress. */
static bool owner_alive(const char *pid_text)
{
    char *end;
    long pid = strtol(pid_text, &end, 10);
    if (*end != '\0' || pid <= 0 || pid > INT_MAX)
        return false;
    return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

/* When a swap by two renames was cut off between them, OUT is missing and
 * OUT.old-PID holds the previous site: put it back before anything else. */
static void restore_old(const char *out)
{
    struct stat st;
    if (lstat(out, &st) == 0 || errno != ENOENT)
        return;
    char *parent = parent_of(out);
    const char *name = base_of(out);
    size_t n = strlen(name);
    DIR *dh = opendir(parent);
    struct dirent *e;
    while (dh && (e = readdir(dh))) {
        if (strncmp(e->d_name, name, n) != 0 || strncmp(e->d_name + n, ".old-", 5) != 0 ||
            owner_alive(e->d_name + n + 5))
            continue;
        char *path = xasprintf("%s/%s", parent, e->d_name);
        char *manifest = xasprintf("%s/%s", path, OUTPUT_MANIFEST);
        bool restored = access(manifest, F_OK) == 0 && rename(path, out) == 0;
        free(manifest);
        free(path);
        if (restored)
            break;
    }
    if (dh)
        closedir(dh);
    free(parent);
}

/* Remove leftovers of interrupted builds: OUT.tmp-* and OUT.old-* beside out
 * that carry our in-progress marker or manifest (the spare tree is kept),
 * unless their build still runs. */
static void clean_stale(const char *out)
{
    char *parent = parent_of(out);
    const char *name = base_of(out);
    DIR *dh = opendir(parent);
    if (!dh) {
        free(parent);
        return;
    }
    size_t n = strlen(name);
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (strncmp(e->d_name, name, n) != 0 ||
            (strncmp(e->d_name + n, ".tmp-", 5) != 0 && strncmp(e->d_name + n, ".old-", 5) != 0))
            continue;
        if (owner_alive(e->d_name + n + 5))
            continue; /* another build is writing it now */
        char *path = xasprintf("%s/%s", parent, e->d_name);
        if (has_marker(path))
            rm_tree(path);
        free(path);
    }
    closedir(dh);
    free(parent);
}

/* Claim the spare tree as the new tree: only when it is ours (its manifest
 * lists every file in it) and nobody else claimed it first (the rename). */
static bool claim_spare(outcore *c)
{
    struct stat st;
    if (!c->spare || lstat(c->spare, &st) != 0 || !S_ISDIR(st.st_mode))
        return false;
    strset files = {0};
    if (!manifest_read(c->spare, &files)) {
        char *inprog = xasprintf("%s/%s", c->spare, IN_PROGRESS);
        if (access(inprog, F_OK) == 0) /* ours, half made: not worth keeping */
            rm_tree(c->spare);
        free(inprog);
        strset_free(&files);
        return false;
    }
    char *foreign = foreign_file(c->spare, "", &files);
    if (foreign || rename(c->spare, c->tmp) != 0) {
        free(foreign);
        strset_free(&files);
        return false;
    }
    c->spare_files = files;
    c->recycled = true;
    char *m = xasprintf("%s/%s", c->tmp, OUTPUT_MANIFEST);
    unlink(m);
    free(m);
    return true;
}

/* The spare tree's place in keep_dir: named after out's resolved path, and
 * only where neither folder holds the other. */
static char *spare_path(const char *keep_dir, const char *out_real)
{
    if (!keep_dir)
        return NULL;
    char *keep_real = resolve(keep_dir);
    char *r = NULL;
    if (keep_real && !within(keep_real, out_real) && !within(out_real, keep_real)) {
        const char *name = strrchr(out_real, '/');
        name = name && name[1] ? name + 1 : "site";
        r = xasprintf("%s/spare-%s-%016llx", keep_dir, name,
                      (unsigned long long)hash64(out_real, strlen(out_real), 0));
    }
    free(keep_real);
    return r;
}

outdir *outdir_begin(const char *out, const char *const *sources, size_t n_sources,
                     const char *keep_dir, diag *d)
{
    char *real = resolve(out);
    if (!real) {
        d->io = true;
        diag_error(d, out, 0, 0, "cannot use this output folder: its parent does not exist");
        return NULL;
    }
    const char *home = getenv("HOME");
    char *home_real = home ? resolve(home) : NULL;
    char *git = xasprintf("%s/.git", real);
    const char *why = NULL;
    if (strcmp(real, "/") == 0)
        why = "it is the root folder";
    else if (home_real && strcmp(real, home_real) == 0)
        why = "it is your home folder";
    else if (access(git, F_OK) == 0)
        why = "it is the root of a git work tree";
    for (size_t i = 0; i < n_sources && !why; i++) {
        char *src = resolve(sources[i]);
        if (src && (within(real, src) || within(src, real)))
            why = "it is, holds, or lies inside a source folder";
        free(src);
    }
    free(git);
    free(home_real);
    if (why) {
        diag_error(d, out, 0, 0, "refusing to write the site here: %s", why);
        free(real);
        return NULL;
    }

    outdir *o = xcalloc(1, sizeof *o);
    outcore *c = xcalloc(1, sizeof *c);
    o->c = c;
    pthread_mutex_init(&c->lock, NULL);
    c->out = xstrdup(out);
    c->keep_dir = keep_dir ? xstrdup(keep_dir) : NULL;
    c->spare = spare_path(keep_dir, real);
    mode_t mask = umask(022);
    umask(mask);
    c->chmod_needed = (mask & 0644) != 0;
    restore_old(out);
    struct stat st;
    if (lstat(out, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            diag_error(d, out, 0, 0, "refusing to replace it: it is not a folder");
            goto fail;
        }
        c->had_old = true;
        manifest_read(out, &c->old_files);
        char *foreign = foreign_file(out, "", &c->old_files);
        if (foreign) {
            diag_error(d, out, 0, 0,
                       "refusing to replace this folder: '%s' in it was not written by "
                       "boardpress (move it away or choose another --out)",
                       foreign);
            free(foreign);
            goto fail;
        }
    }
    clean_stale(out);
    c->tmp = xasprintf("%s.tmp-%ld", out, (long)getpid());
    if (!claim_spare(c) && mkdir(c->tmp, 0755) != 0) {
        d->io = true;
        diag_error(d, c->tmp, 0, 0, "cannot create the new site folder: %s", strerror(errno));
        free(c->tmp);
        c->tmp = NULL;
        goto fail;
    }
    char *inprog = xasprintf("%s/%s", c->tmp, IN_PROGRESS);
    int fd = open(inprog, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0)
        close(fd);
    free(inprog);
    free(real);
    return o;
fail:
    free(real);
    outdir_abort(o);
    return NULL;
}

outdir *outdir_view(outdir *o, size_t seq)
{
    outdir *v = xcalloc(1, sizeof *v);
    v->c = o->c;
    v->seq = seq;
    v->view = true;
    return v;
}

void outdir_view_free(outdir *v)
{
    if (v && v->view) {
        free(v->last_dir);
        free(v);
    }
}

void outdir_set_seq(outdir *o, size_t seq)
{
    o->seq = seq;
    o->sub = 0;
}

/* True when the file at path holds exactly data; *st gets its status. */
static bool same_content(const char *path, const void *data, size_t len, struct stat *st)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool same = fstat(fd, st) == 0 && S_ISREG(st->st_mode) && (size_t)st->st_size == len;
    const char *p = data;
    char chunk[65536];
    size_t at = 0;
    while (same && at < len) {
        size_t want = len - at < sizeof chunk ? len - at : sizeof chunk;
        ssize_t n = read(fd, chunk, want);
        if (n <= 0) {
            same = false;
            break;
        }
        same = memcmp(chunk, p + at, (size_t)n) == 0;
        at += (size_t)n;
    }
    close(fd);
    return same && at == len;
}

/* Make the folders of rel inside the new tree. A handle remembers the last
 * folder it made (a page writes its files into one folder), so nothing is
 * kept per page; a folder that exists already is fine. */
static int make_dirs(outdir *o, const char *rel)
{
    const char *slash = strrchr(rel, '/');
    if (!slash)
        return 0;
    size_t n = (size_t)(slash - rel);
    if (o->last_dir && strlen(o->last_dir) == n && memcmp(o->last_dir, rel, n) == 0)
        return 0;
    char *path = xasprintf("%s/%.*s", o->c->tmp, (int)n, rel);
    int rc = 0;
    if (mkdir(path, 0755) != 0 && errno != EEXIST) {
        /* parents first, shallowest first */
        rc = errno == ENOENT ? 0 : -1;
        for (char *p = path + strlen(o->c->tmp) + 1; rc == 0; p++) {
            if (*p != '/' && *p != '\0')
                continue;
            char keep = *p;
            *p = '\0';
            if (mkdir(path, 0755) != 0 && errno != EEXIST)
                rc = -1;
            *p = keep;
            if (keep == '\0')
                break;
        }
    }
    free(path);
    if (rc == 0) {
        free(o->last_dir);
        o->last_dir = xstrndup(rel, n);
    }
    return rc;
}

static int write_new(const outcore *c, const char *path, const void *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    const char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        p += n;
        left -= (size_t)n;
    }
    int e = errno;
    bool ok = left == 0 && (!c->chmod_needed || fchmod(fd, 0644) == 0);
    if (!ok)
        e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    errno = e;
    return ok ? 0 : -1;
}

/* Put data at rel in the new tree; returns 1 when the file was (re)written,
 * 0 when an unchanged file was kept or linked, -1 with errno. */
static int place(outcore *c, const char *rel, bool in_old, bool in_spare, const void *data,
                 size_t len)
{
    char *path = xasprintf("%s/%s", c->tmp, rel);
    int rc = 1;
    struct stat live_st;
    char *live = in_old ? xasprintf("%s/%s", c->out, rel) : NULL;
    if (live && same_content(live, data, len, &live_st)) {
        struct stat st;
        if (in_spare && fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            st.st_dev == live_st.st_dev && st.st_ino == live_st.st_ino) {
            rc = 0; /* already the live file's twin */
        } else {
            if (in_spare)
                unlink(path);
            if (link(live, path) == 0)
                rc = 0;
            else
                rc = write_new(c, path, data, len) == 0 ? 1 : -1;
        }
    } else {
        struct stat st;
        if (in_spare && same_content(path, data, len, &st) && st.st_nlink == 1) {
            rc = 1; /* the spare already holds these bytes: a change for the site */
        } else {
            if (in_spare)
                unlink(path);
            rc = write_new(c, path, data, len) == 0 ? 1 : -1;
        }
    }
    free(live);
    free(path);
    return rc;
}

int outdir_write(outdir *o, const char *rel, const void *data, size_t len, diag *d)
{
    outcore *c = o->c;
    pthread_mutex_lock(&c->lock);
    bool fresh = rel[0] != '/' && !strstr(rel, "..") && strset_add(&c->new_files, rel);
    bool in_old = c->had_old && strset_has(&c->old_files, rel);
    bool in_spare = c->recycled && strset_has(&c->spare_files, rel);
    pthread_mutex_unlock(&c->lock);
    if (!fresh) {
        diag_error(d, rel, 0, 0, "internal: bad or repeated output path");
        return -1;
    }
    if (make_dirs(o, rel) != 0) {
        d->io = true;
        diag_error(d, c->tmp, 0, 0, "cannot create folders for '%s': %s", rel, strerror(errno));
        return -1;
    }
    int rc = place(c, rel, in_old, in_spare, data, len);
    if (rc < 0 && errno == ENOENT) {
        /* a folder of the recycled tree went missing: make it, try again */
        char *path = xasprintf("%s/%s", c->tmp, rel);
        for (char *p = path + strlen(c->tmp) + 1; *p; p++)
            if (*p == '/') {
                *p = '\0';
                mkdir(path, 0755);
                *p = '/';
            }
        free(path);
        rc = place(c, rel, in_old, in_spare, data, len);
    }
    if (rc < 0) {
        int e = errno;
        d->io = true;
        diag_error(d, rel, 0, 0, "cannot write it into %s: %s", c->tmp, strerror(e));
        return -1;
    }
    pthread_mutex_lock(&c->lock);
    if (rc == 1)
        c->written++;
    else
        c->linked++;
    c->entries = xgrow(c->entries, sizeof *c->entries, &c->cap_entries, c->n_entries + 1);
    c->entries[c->n_entries++] = (entry){o->seq, o->sub++, xstrdup(rel)};
    pthread_mutex_unlock(&c->lock);
    return 0;
}

static int copy_dir(outdir *o, const char *root_real, const char *dir, const char *rel, diag *d)
{
    DIR *dh = opendir(dir);
    if (!dh) {
        d->io = true;
        diag_error(d, dir, 0, 0, "cannot read the folder: %s", strerror(errno));
        return -1;
    }
    /* Sorted, so the manifest (and any error order) does not depend on the
     * file system's directory order. */
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (e->d_name[0] == '.')
            continue;
        names = xgrow(names, sizeof *names, &cap, n + 1);
        names[n++] = xstrdup(e->d_name);
    }
    closedir(dh);
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", dir, names[i]);
        char *r = xasprintf("%s/%s", rel, names[i]);
        char real[PATH_MAX];
        struct stat st;
        if (!realpath(path, real) || stat(path, &st) != 0) {
            d->io = true;
            diag_error(d, path, 0, 0, "cannot read: %s", strerror(errno));
            rc = -1;
        } else if (!within(real, root_real)) {
            diag_error(d, path, 0, 0,
                       "is a link to '%s', outside the folder; copy the file in instead", real);
            rc = -1;
        } else if (S_ISDIR(st.st_mode)) {
            if (copy_dir(o, root_real, path, r, d) != 0)
                rc = -1;
        } else if (S_ISREG(st.st_mode)) {
            char *data;
            size_t len;
            if (file_read(path, (size_t)64 << 20, &data, &len) != 0) {
                d->io = errno != EFBIG;
                diag_error(d, path, 0, 0, "cannot read: %s",
                           errno == EFBIG ? "larger than 64 MiB" : strerror(errno));
                rc = -1;
            } else {
                if (outdir_write(o, r, data, len, d) != 0)
                    rc = -1;
                free(data);
            }
        }
        free(path);
        free(r);
        free(names[i]);
    }
    free(names);
    return rc;
}

int outdir_copy_tree(outdir *o, const char *src, const char *rel_prefix, diag *d)
{
    char real[PATH_MAX];
    if (!realpath(src, real)) {
        if (errno == ENOENT)
            return 0; /* no static folder: nothing to copy */
        d->io = true;
        diag_error(d, src, 0, 0, "cannot read the folder: %s", strerror(errno));
        return -1;
    }
    return copy_dir(o, real, src, rel_prefix, d);
}

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return x->sub < y->sub ? -1 : x->sub > y->sub;
}

static int longer_first(const void *a, const void *b)
{
    size_t x = strlen(*(char *const *)a), y = strlen(*(char *const *)b);
    return x > y ? -1 : x < y;
}

/* Files the recycled tree held that this build did not write: delete them,
 * then the folders that became empty (deepest first; a folder still in use
 * refuses). */
static void drop_stale(outcore *c)
{
    if (!c->recycled)
        return;
    char **dirs = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < c->spare_files.cap; i++) {
        const char *f = c->spare_files.slots[i];
        if (!f || strset_has(&c->new_files, f))
            continue;
        char *path = xasprintf("%s/%s", c->tmp, f);
        unlink(path);
        free(path);
        for (const char *s = strrchr(f, '/'); s; s = NULL) {
            dirs = xgrow(dirs, sizeof *dirs, &cap, n + 1);
            dirs[n++] = xstrndup(f, (size_t)(s - f));
        }
    }
    /* deepest first, then each parent in turn */
    if (n)
        qsort(dirs, n, sizeof *dirs, longer_first);
    for (size_t i = 0; i < n; i++) {
        for (char *dp = dirs[i]; dp[0];) {
            char *path = xasprintf("%s/%s", c->tmp, dp);
            int r = rmdir(path);
            free(path);
            char *sl = strrchr(dp, '/');
            if (r != 0 || !sl)
                break;
            *sl = '\0';
        }
        free(dirs[i]);
    }
    free(dirs);
}

/* After the swap, path holds the previous site: keep it as the spare tree
 * for the next build, or delete it when a spare is already there. */
static bool keep(outcore *c, const char *path)
{
    return c->spare && (mkdir(c->keep_dir, 0755) == 0 || errno == EEXIST) &&
           rename(path, c->spare) == 0;
}

static void retire(outcore *c, const char *path)
{
    if (!keep(c, path))
        rm_tree(path);
}

int outdir_commit(outdir *o, diag *d)
{
    outcore *c = o->c;
    int rc = -1;
    drop_stale(c);
    if (c->n_entries)
        qsort(c->entries, c->n_entries, sizeof *c->entries, entry_cmp);
    buf manifest;
    buf_init(&manifest);
    for (size_t i = 0; i < c->n_entries; i++) {
        buf_puts(&manifest, c->entries[i].rel);
        buf_putc(&manifest, '\n');
    }
    o->seq = SIZE_MAX;
    int w = outdir_write(o, OUTPUT_MANIFEST, manifest.data ? manifest.data : "", manifest.len, d);
    buf_free(&manifest);
    if (w != 0) {
        outdir_abort(o);
        return -1;
    }
    char *inprog = xasprintf("%s/%s", c->tmp, IN_PROGRESS);
    unlink(inprog);
    free(inprog);
    if (!c->had_old) {
        if (rename(c->tmp, c->out) == 0)
            rc = 0;
    } else if (renameat2(AT_FDCWD, c->tmp, AT_FDCWD, c->out, RENAME_EXCHANGE) == 0) {
        retire(c, c->tmp); /* now holds the previous site */
        rc = 0;
    } else {
        char *old = xasprintf("%s.old-%ld", c->out, (long)getpid());
        if (rename(c->out, old) == 0) {
            if (rename(c->tmp, c->out) == 0) {
                retire(c, old);
                rc = 0;
            } else {
                rename(old, c->out);
            }
        }
        free(old);
    }
    if (rc != 0) {
        d->io = true;
        diag_error(d, c->out, 0, 0, "cannot put the new site in place: %s", strerror(errno));
        rm_tree(c->tmp);
    }
    free(c->tmp);
    c->tmp = NULL;
    outdir_abort(o);
    return rc;
}

/* A failed build: the new tree becomes the spare (with a manifest of what
 * it holds now) when there is a site to rebuild later, else it goes. */
static void keep_as_spare(outcore *c)
{
    buf m;
    buf_init(&m);
    strset all = {0};
    for (size_t i = 0; i < c->spare_files.cap; i++)
        if (c->spare_files.slots[i] && strset_add(&all, c->spare_files.slots[i]))
            buf_printf(&m, "%s\n", c->spare_files.slots[i]);
    for (size_t i = 0; i < c->n_entries; i++)
        if (strset_add(&all, c->entries[i].rel))
            buf_printf(&m, "%s\n", c->entries[i].rel);
    strset_free(&all);
    char *mpath = xasprintf("%s/%s", c->tmp, OUTPUT_MANIFEST);
    unlink(mpath);
    int ok = write_new(c, mpath, m.data ? m.data : "", m.len) == 0;
    free(mpath);
    buf_free(&m);
    char *inprog = xasprintf("%s/%s", c->tmp, IN_PROGRESS);
    if (ok)
        unlink(inprog);
    free(inprog);
    if (!ok || !keep(c, c->tmp))
        rm_tree(c->tmp);
}

void outdir_abort(outdir *o)
{
    if (!o)
        return;
    outcore *c = o->c;
    if (c->tmp) {
        if (c->spare && c->had_old && c->n_entries + c->spare_files.n > 0)
            keep_as_spare(c);
        else
            rm_tree(c->tmp);
    }
    free(c->tmp);
    free(c->spare);
    free(c->keep_dir);
    strset_free(&c->old_files);
    strset_free(&c->spare_files);
    strset_free(&c->new_files);
    for (size_t i = 0; i < c->n_entries; i++)
        free(c->entries[i].rel);
    free(c->entries);
    free(c->out);
    pthread_mutex_destroy(&c->lock);
    free(c);
    free(o->last_dir);
    free(o);
}

void outdir_counts(const outdir *o, size_t *written, size_t *unchanged)
{
    *written = o->c->written;
    *unchanged = o->c->linked;
}
