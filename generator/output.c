/* output.c — atomic output folders (see output.h). Linux: the swap uses
 * renameat2(RENAME_EXCHANGE), so readers see the old site or the new one,
 * never a mix; elsewhere (or where the file system refuses) two renames. */
#define _GNU_SOURCE
#include "output.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct outdir {
    char *out;        /* as given */
    char *tmp;        /* the new tree */
    strset old_files; /* paths the previous manifest lists */
    strset new_files; /* paths written into the new tree */
    buf manifest;     /* the same, one per line, in write order */
    bool had_old;     /* out existed */
    size_t written, linked;
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
        strset_add(set, line);
        free(line);
        p = nl ? nl + 1 : NULL;
    }
}

/* The first file under dir (relative path rel) not in manifest, or NULL. */
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
        char *path = xasprintf("%s/%s", dir, e->d_name);
        char *r = rel[0] ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode))
            found = foreign_file(path, r, manifest);
        else if (strcmp(r, OUTPUT_MANIFEST) != 0 && !strset_has(manifest, r))
            found = xstrdup(r);
        free(path);
        free(r);
    }
    closedir(dh);
    return found;
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
 * that carry our in-progress marker or manifest, unless their build still
 * runs. */
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
        char *marker = xasprintf("%s/%s", path, OUTPUT_MANIFEST);
        char *inprog = xasprintf("%s/.boardpress-in-progress", path);
        if (access(marker, F_OK) == 0 || access(inprog, F_OK) == 0)
            rm_tree(path);
        free(inprog);
        free(marker);
        free(path);
    }
    closedir(dh);
    free(parent);
}

static int mkdirs(const char *root, const char *rel)
{
    char *path = xasprintf("%s/%s", root, rel);
    int rc = 0;
    for (char *p = path + strlen(root) + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0755) != 0 && errno != EEXIST)
            rc = -1;
        *p = '/';
        if (rc)
            break;
    }
    free(path);
    return rc;
}

outdir *outdir_begin(const char *out, const char *const *sources, size_t n_sources, diag *d)
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
    o->out = xstrdup(out);
    buf_init(&o->manifest);
    restore_old(out);
    struct stat st;
    if (lstat(out, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            diag_error(d, out, 0, 0, "refusing to replace it: it is not a folder");
            goto fail;
        }
        o->had_old = true;
        char *mpath = xasprintf("%s/%s", out, OUTPUT_MANIFEST);
        size_t len;
        char *text = NULL;
        if (file_read(mpath, (size_t)64 << 20, &text, &len) == 0)
            manifest_load(&o->old_files, text);
        free(text);
        free(mpath);
        char *foreign = foreign_file(out, "", &o->old_files);
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
    o->tmp = xasprintf("%s.tmp-%ld", out, (long)getpid());
    if (mkdir(o->tmp, 0755) != 0) {
        d->io = true;
        diag_error(d, o->tmp, 0, 0, "cannot create the new site folder: %s", strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        goto fail;
    }
    char *inprog = xasprintf("%s/.boardpress-in-progress", o->tmp);
    FILE *f = fopen(inprog, "w");
    if (f)
        fclose(f);
    free(inprog);
    free(real);
    return o;
fail:
    free(real);
    outdir_abort(o);
    return NULL;
}

/* True when the previous tree has rel with exactly these bytes. */
static bool same_as_old(const outdir *o, const char *old_path, const void *data, size_t len)
{
    struct stat st;
    if (!o->had_old || stat(old_path, &st) != 0 || !S_ISREG(st.st_mode) ||
        (size_t)st.st_size != len)
        return false;
    int fd = open(old_path, O_RDONLY);
    if (fd < 0)
        return false;
    const char *p = data;
    char chunk[65536];
    size_t at = 0;
    bool same = true;
    while (same && at < len) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n <= 0) {
            same = false;
            break;
        }
        same = at + (size_t)n <= len && memcmp(chunk, p + at, (size_t)n) == 0;
        at += (size_t)n;
    }
    close(fd);
    return same && at == len;
}

int outdir_write(outdir *o, const char *rel, const void *data, size_t len, diag *d)
{
    if (rel[0] == '/' || strstr(rel, "..") || !strset_add(&o->new_files, rel)) {
        diag_error(d, rel, 0, 0, "internal: bad or repeated output path");
        return -1;
    }
    if (mkdirs(o->tmp, rel) != 0) {
        d->io = true;
        diag_error(d, o->tmp, 0, 0, "cannot create folders for '%s': %s", rel, strerror(errno));
        return -1;
    }
    char *path = xasprintf("%s/%s", o->tmp, rel);
    char *old = xasprintf("%s/%s", o->out, rel);
    int rc = 0;
    if (same_as_old(o, old, data, len) && link(old, path) == 0) {
        o->linked++;
    } else {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        const char *p = data;
        size_t left = len;
        while (fd >= 0 && left > 0) {
            ssize_t n = write(fd, p, left);
            if (n < 0) {
                if (errno == EINTR)
                    continue;
                break;
            }
            p += n;
            left -= (size_t)n;
        }
        if (fd < 0 || left > 0 || fchmod(fd, 0644) != 0 || close(fd) != 0) {
            d->io = true;
            diag_error(d, path, 0, 0, "cannot write: %s", strerror(errno));
            rc = -1;
        }
        o->written++;
    }
    if (rc == 0) {
        buf_puts(&o->manifest, rel);
        buf_putc(&o->manifest, '\n');
    }
    free(path);
    free(old);
    return rc;
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

int outdir_commit(outdir *o, diag *d)
{
    int rc = -1;
    if (outdir_write(o, OUTPUT_MANIFEST, o->manifest.data ? o->manifest.data : "", o->manifest.len,
                     d) != 0) {
        outdir_abort(o);
        return -1;
    }
    char *inprog = xasprintf("%s/.boardpress-in-progress", o->tmp);
    unlink(inprog);
    free(inprog);
    if (!o->had_old) {
        if (rename(o->tmp, o->out) == 0)
            rc = 0;
    } else if (renameat2(AT_FDCWD, o->tmp, AT_FDCWD, o->out, RENAME_EXCHANGE) == 0) {
        rm_tree(o->tmp); /* now holds the previous site */
        rc = 0;
    } else {
        char *old = xasprintf("%s.old-%ld", o->out, (long)getpid());
        if (rename(o->out, old) == 0) {
            if (rename(o->tmp, o->out) == 0) {
                rm_tree(old);
                rc = 0;
            } else {
                rename(old, o->out);
            }
        }
        free(old);
    }
    if (rc != 0) {
        d->io = true;
        diag_error(d, o->out, 0, 0, "cannot put the new site in place: %s", strerror(errno));
        rm_tree(o->tmp);
    }
    free(o->tmp);
    o->tmp = NULL;
    outdir_abort(o);
    return rc;
}

void outdir_abort(outdir *o)
{
    if (!o)
        return;
    if (o->tmp)
        rm_tree(o->tmp);
    free(o->tmp);
    strset_free(&o->old_files);
    strset_free(&o->new_files);
    buf_free(&o->manifest);
    free(o->out);
    free(o);
}

void outdir_counts(const outdir *o, size_t *written, size_t *unchanged)
{
    *written = o->written;
    *unchanged = o->linked;
}
