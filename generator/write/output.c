/* output.c — atomic output folders (see output.h). Linux: the swap uses
 * renameat2(RENAME_EXCHANGE), so readers see the old site or the new one,
 * never a mix; where the file system refuses, two renames, and the next
 * build finishes a swap cut off between them.
 *
 * What boardpress owns, and how it knows (docs/architecture.md "Atomic output"): a tree
 * is ours when a record in the journal (journal.h) names its device and
 * inode at the place where we find it and — for every tree but the live
 * site — a marker file at its top holds the record's random token. Nothing
 * is recognised by its name or by a process ID; a build that uses a tree
 * holds an flock on its marker, which the kernel lets go when the build
 * dies (in any PID namespace). Inside a tree every operation goes through
 * descriptors without following links (outfs.h). A folder that fails a
 * check is left alone, and named in the error when it stops the build.
 * The trees themselves (identity, recovery, claiming, the swap) are in
 * outtree.c; the record format in journal.c; descriptor walks in outfs.c.
 * Why the previous tree is recycled, not deleted: output.h. */
#define _GNU_SOURCE
#include "write/output.h"
#include "write/output_internal.h"
#include "base/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOT_LOOKED_UP (-2)

struct outdir {
    outcore *c;
    size_t seq, sub;
    bool view;      /* made by outdir_view: freeing it leaves the core alone */
    char *last_dir; /* the folder this handle wrote into last */
    int last_fd;    /* that folder in the new tree */
    int last_live;  /* that folder in the live tree, -1, or NOT_LOOKED_UP */
};

static void core_free(outcore *c)
{
    if (c->tfd >= 0)
        close(c->tfd);
    if (c->marker_fd >= 0)
        close(c->marker_fd);
    if (c->livefd >= 0)
        close(c->livefd);
    if (c->pfd >= 0)
        close(c->pfd);
    if (c->cfd >= 0)
        close(c->cfd);
    journal_close(&c->j);
    jrec_free(c->rec);
    free(c->tmp_name);
    free(c->tmp_path);
    free(c->out);
    free(c->out_real);
    free(c->parent);
    free(c->name);
    free(c->cache);
    outfs_list_free(&c->live_files);
    outfs_list_free(&c->spare_files);
    strset_free(&c->new_files);
    for (size_t i = 0; i < c->n_entries; i++)
        free(c->entries[i].rel);
    free(c->entries);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

static void handle_close(outdir *o)
{
    if (o->last_fd >= 0)
        close(o->last_fd);
    if (o->last_live >= 0)
        close(o->last_live);
    free(o->last_dir);
    o->last_dir = NULL;
    o->last_fd = -1;
    o->last_live = NOT_LOOKED_UP;
}

static outdir *handle_new(outcore *c)
{
    outdir *o = xcalloc(1, sizeof *o);
    o->c = c;
    o->last_fd = -1;
    o->last_live = NOT_LOOKED_UP;
    return o;
}

/* The journal folder jname beside --out, written as --out was when that
 * names the same place (messages then show the path the user gave), else
 * its real path. The caller frees. */
static char *journal_path(const char *out, const outcore *c, const char *jname)
{
    char *given = xstrdup(out);
    for (size_t n = strlen(given); n > 1 && given[n - 1] == '/'; n--)
        given[n - 1] = '\0';
    char *dir = outtree_parent_of(given);
    char *dir_real = outpath_resolve(dir, NULL);
    char *path;
    if (strcmp(outtree_base_of(given), c->name) == 0 && dir_real &&
        strcmp(dir_real, c->parent) == 0)
        path = strcmp(dir, ".") == 0 ? xstrdup(jname) : outtree_join(dir, jname);
    else
        path = outtree_join(c->parent, jname);
    free(given);
    free(dir);
    free(dir_real);
    return path;
}

outdir *outdir_begin(const outdir_options *o, diag *d)
{
    outcore *c = xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    c->pfd = c->cfd = c->livefd = c->tfd = c->marker_fd = -1;
    c->j.fd = c->j.lock_fd = -1;
    c->out = xstrdup(o->out);
    c->out_real = outpath_resolve(o->out, NULL);
    mode_t mask = umask(022);
    umask(mask);
    c->chmod_needed = (mask & 0644) != 0;
    c->dir_chmod_needed = (mask & 0755) != 0;
    if (!c->out_real) {
        d->io = true;
        diag_error(d, o->out, 0, 0, "cannot use this output folder: its parent does not exist");
        core_free(c);
        return NULL;
    }
    c->parent = outtree_parent_of(c->out_real);
    c->name = xstrdup(outtree_base_of(c->out_real));
    c->pfd = open(c->parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (c->pfd < 0) {
        d->io = true;
        diag_error(d, c->parent, 0, 0, "cannot open the folder of --out: %s", strerror(errno));
        core_free(c);
        return NULL;
    }
    /* the record belongs to --out, whatever --cache says */
    char *jname = xasprintf(OUTDIR_JOURNAL_PREFIX "%s", c->name);
    char *jdir = journal_path(o->out, c, jname);
    free(jname);
    /* no journal yet: --out must be missing or empty, and nothing is made
     * beside one boardpress is refusing */
    if (faccessat(c->pfd, outtree_base_of(jdir), F_OK, AT_SYMLINK_NOFOLLOW) != 0 &&
        errno == ENOENT) {
        jrec *none;
        int ofd;
        struct stat ost;
        c->j.dir = jdir; /* for the message */
        int orc = outtree_inspect_out(c, NULL, 0, NULL, OUTFS_STATUS, &none, &ofd, &ost, d);
        c->j.dir = NULL;
        if (ofd >= 0)
            close(ofd);
        if (orc != 0) {
            free(jdir);
            core_free(c);
            return NULL;
        }
    }
    int jrc = journal_open(&c->j, jdir, d);
    free(jdir);
    if (jrc != 0) {
        core_free(c);
        return NULL;
    }
    /* the cache folder (vetted by the caller) only keeps the spare tree */
    c->cache = o->cache ? outpath_resolve(o->cache, NULL) : NULL;
    c->cfd = c->cache ? open(c->cache, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    c->spares = c->cfd >= 0;
    journal_lock(&c->j, c->out);
    size_t n;
    char *damaged = NULL;
    jrec **recs = outtree_load(c, &n, &damaged);
    jrec *live;
    struct stat st;
    /* every byte of the live site is the record's, before anything is done */
    int rc = outtree_inspect_out(c, recs, n, damaged, OUTFS_BYTES, &live, &c->livefd, &st, d);
    free(damaged);
    if (rc == 0) {
        c->had_old = c->livefd >= 0;
        if (live) {
            c->live_files = live->files;
            memset(&live->files, 0, sizeof live->files);
        }
        if (!outtree_claim_spare(c, recs, n) && outtree_make(c) != 0) {
            d->io = true;
            diag_error(d, c->tmp_path ? c->tmp_path : c->out, 0, 0,
                       "cannot create the new site folder: %s", strerror(errno));
            rc = -1;
        }
    }
    journal_unlock(&c->j);
    outtree_free_recs(recs, n);
    if (rc != 0) {
        core_free(c);
        return NULL;
    }
    return handle_new(c);
}

outdir *outdir_view(outdir *o, size_t seq)
{
    outdir *v = handle_new(o->c);
    v->seq = seq;
    v->view = true;
    return v;
}

void outdir_view_free(outdir *v)
{
    if (v && v->view) {
        handle_close(v);
        free(v);
    }
}

void outdir_set_seq(outdir *o, size_t seq)
{
    o->seq = seq;
    o->sub = 0;
}

/* ------------------------------------------------------------ writing */

/* True when the regular file name in the folder dfd holds exactly data
 * with mode 0644; *st gets its status. */
static bool same_content(int dfd, const char *name, const void *data, size_t len, struct stat *st)
{
    int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    bool same = fstat(fd, st) == 0 && S_ISREG(st->st_mode) && (st->st_mode & 07777) == 0644 &&
                (size_t)st->st_size == len;
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

/* A new file name in dfd holding data, mode 0644; *f gets its inode and
 * time. */
static int write_new(const outcore *c, int dfd, const char *name, const void *data, size_t len,
                     outfs_file *f)
{
    int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    struct stat st;
    bool ok = file_write_all(fd, data, len) == 0 && (!c->chmod_needed || fchmod(fd, 0644) == 0) &&
              fstat(fd, &st) == 0;
    int e = errno;
    if (close(fd) != 0 && ok) {
        ok = false;
        e = errno;
    }
    if (!ok) {
        unlinkat(dfd, name, 0);
        errno = e;
        return -1;
    }
    f->ino = (uint64_t)st.st_ino;
    f->mtime_ns = outfs_mtime_ns(&st);
    return 0;
}

/* Put data at name in the new tree's folder dfd (live_dfd: the same folder
 * of the live site, or -1); returns 1 when the file was (re)written, 0
 * when an unchanged file was kept or linked, -1 with errno. */
static int place(outcore *c, int dfd, int live_dfd, const char *name, bool in_old, bool in_spare,
                 const void *data, size_t len, outfs_file *f)
{
    struct stat live_st, st;
    if (in_old && live_dfd >= 0 && same_content(live_dfd, name, data, len, &live_st)) {
        f->ino = (uint64_t)live_st.st_ino;
        f->mtime_ns = outfs_mtime_ns(&live_st);
        if (in_spare && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            st.st_dev == live_st.st_dev && st.st_ino == live_st.st_ino)
            return 0; /* already the live file's twin */
        if (in_spare && unlinkat(dfd, name, 0) != 0 && errno != ENOENT)
            return -1;
        if (linkat(live_dfd, name, dfd, name, 0) == 0)
            return 0;
        return write_new(c, dfd, name, data, len, f) == 0 ? 1 : -1;
    }
    if (in_spare && same_content(dfd, name, data, len, &st) && st.st_nlink == 1) {
        f->ino = (uint64_t)st.st_ino;
        f->mtime_ns = outfs_mtime_ns(&st);
        return 1; /* the spare already holds these bytes: a change for the site */
    }
    /* never written into: the old file may be a link shared with the site */
    if (in_spare && unlinkat(dfd, name, 0) != 0 && errno != ENOENT)
        return -1;
    return write_new(c, dfd, name, data, len, f) == 0 ? 1 : -1;
}

/* The handle's folders for rel's folder (n bytes of it): made in the new
 * tree; looked up in the live one when wanted. */
static int folders_for(outdir *o, const char *rel, size_t n, bool want_live)
{
    outcore *c = o->c;
    if (!o->last_dir || strlen(o->last_dir) != n || memcmp(o->last_dir, rel, n) != 0) {
        handle_close(o);
        o->last_fd =
            outfs_open_dir(c->tfd, rel, n, c->dir_chmod_needed ? OUTFS_MAKE_CHMOD : OUTFS_MAKE);
        if (o->last_fd < 0)
            return -1;
        o->last_dir = xstrndup(rel, n);
    }
    if (want_live && o->last_live == NOT_LOOKED_UP)
        o->last_live = c->livefd >= 0 ? outfs_open_dir(c->livefd, rel, n, OUTFS_OPEN) : -1;
    return 0;
}

int outdir_write(outdir *o, const char *rel, const void *data, size_t len, diag *d)
{
    outcore *c = o->c;
    outfs_file f = {0, len, hash64_words(data, len), 0};
    pthread_mutex_lock(&c->lock);
    bool fresh =
        outfs_rel_ok(rel) && strcmp(rel, OUTFS_MARKER) != 0 && strset_add(&c->new_files, rel);
    bool in_old = c->had_old && outfs_list_get(&c->live_files, rel);
    bool in_spare = c->recycled && outfs_list_get(&c->spare_files, rel);
    pthread_mutex_unlock(&c->lock);
    if (!fresh) {
        diag_error(d, rel, 0, 0, "internal: bad or repeated output path");
        return -1;
    }
    const char *slash = strrchr(rel, '/');
    size_t n = slash ? (size_t)(slash - rel) : 0;
    const char *name = slash ? slash + 1 : rel;
    if (folders_for(o, rel, n, in_old) != 0) {
        d->io = true;
        diag_error(d, c->tmp_path, 0, 0, "cannot create folders for '%s': %s", rel,
                   strerror(errno));
        return -1;
    }
    int rc =
        place(c, o->last_fd, in_old ? o->last_live : -1, name, in_old, in_spare, data, len, &f);
    if (rc < 0) {
        int e = errno;
        d->io = true;
        diag_error(d, rel, 0, 0, "cannot write it into %s: %s", c->tmp_path, strerror(e));
        return -1;
    }
    pthread_mutex_lock(&c->lock);
    if (rc == 1)
        c->written++;
    else
        c->linked++;
    c->entries = xgrow(c->entries, sizeof *c->entries, &c->cap_entries, c->n_entries + 1);
    c->entries[c->n_entries++] = (entry){o->seq, o->sub++, xstrdup(rel), f};
    pthread_mutex_unlock(&c->lock);
    return 0;
}

/* path with control characters shown as \xNN, for a message. */
static char *shown(const char *path)
{
    buf b;
    buf_init(&b);
    for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            buf_printf(&b, "\\x%02x", *p);
        else
            buf_putc(&b, (char)*p);
    }
    return buf_detach(&b);
}

static int copy_dir(outdir *o, const char *root_real, const char *dir, const char *rel, diag *d)
{
    DIR *dh = opendir(dir);
    if (!dh) {
        d->io = true;
        diag_error(d, dir, 0, 0, "cannot read the folder: %s", strerror(errno));
        return -1;
    }
    /* Sorted, so the journal (and any error order) does not depend on the
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
        if (outpath_has_control(names[i])) {
            char *s = shown(path);
            diag_error(d, s, 0, 0,
                       "the file name holds a control character (a newline or a tab): rename "
                       "it to publish it");
            free(s);
            rc = -1;
        } else if (!realpath(path, real) || stat(path, &st) != 0) {
            d->io = true;
            diag_error(d, path, 0, 0, "cannot read: %s", strerror(errno));
            rc = -1;
        } else if (!outpath_within(real, root_real)) {
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

/* ------------------------------------------------------------ commit */

static int entry_cmp(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return x->sub < y->sub ? -1 : x->sub > y->sub;
}

static int stale_error(const outcore *c, const char *what, const char *rel, int e, diag *d)
{
    d->io = true;
    diag_error(d, c->tmp_path, 0, 0,
               "cannot delete %s'%s', which the site no longer has, from the recycled tree: %s",
               what, rel, strerror(e));
    return -1;
}

/* The new tree's record lists what it holds: the files written (in write
 * order) and, when abandoned, what the recycled tree held besides. */
static void list_entries(outcore *c, bool with_spare)
{
    outfs_list_free(&c->rec->files);
    if (c->n_entries)
        qsort(c->entries, c->n_entries, sizeof *c->entries, entry_cmp);
    for (size_t i = 0; with_spare && i < c->spare_files.n; i++)
        outfs_list_add(&c->rec->files, c->spare_files.rel[i], &c->spare_files.file[i]);
    for (size_t i = 0; i < c->n_entries; i++)
        outfs_list_add(&c->rec->files, c->entries[i].rel, &c->entries[i].f);
}

/* Files the recycled tree held that this build did not write: delete them,
 * then every folder not on the way to a file it wrote (deepest first: the
 * site holds no folder boardpress did not need). A file or folder that
 * cannot go is an error: it would stay published. */
static int drop_stale(outcore *c, diag *d)
{
    if (!c->recycled)
        return 0;
    int rc = 0;
    for (size_t i = 0; i < c->spare_files.n; i++) {
        const char *f = c->spare_files.rel[i];
        if (strset_has(&c->new_files, f))
            continue;
        if (outfs_unlink(c->tfd, f, 0) != 0 && errno != ENOENT)
            rc = stale_error(c, "", f, errno, d);
    }
    char *kept = NULL;
    list_entries(c, false);
    if (rc == 0 && outfs_prune(c->tfd, &c->rec->files, &kept) != 0)
        rc = stale_error(c, "the folder ", kept ? kept : "", errno, d);
    free(kept);
    return rc;
}

int outdir_commit(outdir *o, diag *d)
{
    outcore *c = o->c;
    if (drop_stale(c, d) != 0) {
        outdir_abort(o);
        return -1;
    }
    journal_lock(&c->j, c->out);
    /* --out now: another build may have swapped its site in meanwhile */
    size_t n;
    jrec **recs = outtree_load(c, &n, NULL);
    jrec *x;
    int xfd = -1, xmarker = -1;
    struct stat st;
    /* and still, now, byte for byte: nothing added, changed or made in it
     * during the build (an edit may keep the size and put the time back) */
    int rc = outtree_inspect_out(c, recs, n, NULL, OUTFS_BYTES, &x, &xfd, &st, d);
    jrec *adopted = NULL;
    if (rc == 0 && xfd >= 0 && !x) {
        /* an empty folder (checked just now): taken over, and its owner,
         * group and mode with it; recorded as ours on its way out */
        x = adopted = jrec_new(c->out_real, JR_LIVE);
        x->dev = (uint64_t)st.st_dev;
        x->ino = (uint64_t)st.st_ino;
        jrec_set_at(x, c->out_real);
    }
    if (rc == 0) {
        outtree_take_attrs(c, xfd >= 0 ? &st : NULL);
        list_entries(c, false);
        if (outtree_swap_in(c, x, xfd, &xmarker) != 0) {
            d->io = true;
            diag_error(d, c->out, 0, 0, "cannot put the new site in place: %s", strerror(errno));
            rc = -1;
        }
    }
    if (rc == 0 && x) {
        /* the previous site: the next build's spare, or deleted as far as
         * it is ours (anything added to --out during the build stays) */
        if (!outtree_make_spare(c, x, recs, n)) {
            char *kept = NULL;
            int gone = outtree_remove(c, x, xfd, false, &kept);
            d->io |= gone != 0;
            if (gone > 0) {
                diag_error(d, x->at, 0, 0,
                           "kept beside --out, as it holds what boardpress did not write "
                           "('%s', put into --out during the build?): move that where you "
                           "want it and delete the folder",
                           kept ? kept : "");
                journal_forget(&c->j, x);
            } else if (gone < 0) {
                diag_error(d, x->at, 0, 0,
                           "the new site is in place, but the previous one could not be "
                           "deleted ('%s': %s); the next build tries again",
                           kept ? kept : "", strerror(errno));
            }
            free(kept);
        }
    }
    journal_unlock(&c->j);
    if (xmarker >= 0)
        close(xmarker);
    if (xfd >= 0)
        close(xfd);
    jrec_free(adopted);
    outtree_free_recs(recs, n);
    if (rc != 0 && c->rec && c->rec->role != JR_LIVE) {
        outdir_abort(o);
        return -1;
    }
    handle_close(o);
    free(o);
    core_free(c);
    return rc;
}

void outdir_abort(outdir *o)
{
    if (!o)
        return;
    outcore *c = o->c;
    handle_close(o);
    free(o);
    if (c->rec) {
        /* the new tree: the spare (with a record of what it holds now), or
         * deleted */
        journal_lock(&c->j, c->out);
        size_t n;
        jrec **recs = journal_load(&c->j, c->out_real, &n, NULL);
        list_entries(c, true);
        if (c->rec->files.n == 0 || !outtree_make_spare(c, c->rec, recs, n)) {
            char *kept = NULL;
            outtree_remove(c, c->rec, c->tfd, true, &kept);
            free(kept);
        }
        journal_unlock(&c->j);
        outtree_free_recs(recs, n);
    }
    core_free(c);
}

void outdir_changes(const outdir *o, void (*each)(void *ctx, const char *rel), void *ctx)
{
    const outcore *c = o->c;
    for (size_t i = 0; i < c->n_entries; i++) {
        const entry *e = &c->entries[i];
        const outfs_file *was = c->had_old ? outfs_list_get(&c->live_files, e->rel) : NULL;
        if (!was || was->ino != e->f.ino)
            each(ctx, e->rel);
    }
    for (size_t i = 0; c->had_old && i < c->live_files.n; i++)
        if (!strset_has(&c->new_files, c->live_files.rel[i]))
            each(ctx, c->live_files.rel[i]);
}

void outdir_counts(const outdir *o, size_t *written, size_t *unchanged)
{
    *written = o->c->written;
    *unchanged = o->c->linked;
}
