/* output.c — atomic output folders (see output.h). Linux: the swap uses
 * renameat2(RENAME_EXCHANGE), so readers see the old site or the new one,
 * never a mix; where the file system refuses, two renames, and the next
 * build finishes a swap cut off between them.
 *
 * What boardpress owns, and how it knows (README "Atomic output"): a tree
 * is ours when a record in the journal (journal.h) names its device and
 * inode at the place where we find it and — for every tree but the live
 * site — a marker file at its top holds the record's random token. Nothing
 * is recognised by its name or by a process ID; a build that uses a tree
 * holds an flock on its marker, which the kernel lets go when the build
 * dies (in any PID namespace). Inside a tree every operation goes through
 * descriptors without following links (outfs.h). A folder that fails a
 * check is left alone, and named in the error when it stops the build.
 *
 * Speed (README "Performance"): deleting a folder is the slowest thing a
 * build can ask of the file system (ext4 mounted with `discard` frees each
 * folder's block synchronously), so the previous tree is not deleted after
 * the swap but kept in the cache folder (spare-NAME-TOKEN) and recycled as
 * the next build's new tree: its folders stay, unchanged files are hard
 * links shared with the live tree, and a rebuild only replaces what
 * changed. Writes may come from several threads; the journal lists files in
 * the deterministic order of the (seq, sub) of each write. */
#define _GNU_SOURCE
#include "output.h"
#include "journal.h"
#include "outfs.h"
#include "util.h"

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

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define NOT_LOOKED_UP (-2)

typedef struct {
    size_t seq, sub;
    char *rel;
    uint64_t ino;
} entry;

typedef struct {
    char *out;      /* as given, for messages */
    char *out_real; /* its real path */
    char *parent;   /* the real path of the folder it is in */
    char *name;     /* its name there */
    int pfd;        /* that folder */
    char *cache;    /* the real path of the journal's folder (the cache folder) */
    int cfd;        /* that folder */
    bool spares;    /* the previous tree may be kept there (not --no-cache) */
    journal j;
    /* the live site when the build began */
    bool had_old;
    outfs_list live_files; /* what its record lists */
    int livefd;            /* open on it, or -1 */
    /* the new tree */
    jrec *rec;              /* its record (role new) */
    char *tmp_name;         /* its name beside --out */
    char *tmp_path;         /* parent/tmp_name */
    int tfd;                /* its top folder */
    int marker_fd;          /* its marker, whose flock this build holds */
    bool recycled;          /* it was the spare tree */
    outfs_list spare_files; /* what the spare tree held when it was claimed */
    strset new_files;       /* paths written into the new tree */
    entry *entries;         /* what it holds, sorted at commit */
    size_t n_entries, cap_entries;
    bool chmod_needed; /* the umask takes bits off 0644 */
    size_t written, linked;
    pthread_mutex_t lock;
} outcore;

struct outdir {
    outcore *c;
    size_t seq, sub;
    bool view;      /* made by outdir_view: freeing it leaves the core alone */
    char *last_dir; /* the folder this handle wrote into last */
    int last_fd;    /* that folder in the new tree */
    int last_live;  /* that folder in the live tree, -1, or NOT_LOOKED_UP */
};

/* ------------------------------------------------------------ paths */

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

static char *join_path(const char *dir, const char *name)
{
    return xasprintf("%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
}

/* path as users write it: "public/", "./public", "a/b//" */
static char *trimmed(const char *path)
{
    char *p = xstrdup(path);
    for (size_t n = strlen(p); n > 1 && p[n - 1] == '/'; n--)
        p[n - 1] = '\0';
    return p;
}

/* The real path of path, which need not exist yet (its parent must); NULL
 * (errno) otherwise. A link that leads nowhere gives ENOENT with *dangling. */
static char *resolve(const char *path, bool *dangling)
{
    char *p = trimmed(path);
    char tmp[PATH_MAX];
    char *r = NULL;
    struct stat st;
    if (dangling)
        *dangling = false;
    if (realpath(p, tmp)) {
        r = xstrdup(tmp);
    } else if (errno == ENOENT && lstat(p, &st) == 0) {
        if (dangling)
            *dangling = true;
        errno = ENOENT;
    } else if (errno == ENOENT) {
        char *parent = parent_of(p);
        if (realpath(parent, tmp))
            r = join_path(tmp, base_of(p));
        free(parent);
    }
    free(p);
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

static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return true;
    return false;
}

/* ------------------------------------------------------------ checks */

/* A folder that is a mount point (rename cannot move it). */
static bool mount_point(const char *parent, const char *path)
{
    struct statx sx, px;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_MNT_ID, &sx) == 0) {
        if (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
            return (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
        if ((sx.stx_mask & STATX_MNT_ID) && statx(AT_FDCWD, parent, 0, STATX_MNT_ID, &px) == 0 &&
            (px.stx_mask & STATX_MNT_ID))
            return sx.stx_mnt_id != px.stx_mnt_id;
    }
    struct stat st, pt;
    return lstat(path, &st) == 0 && stat(parent, &pt) == 0 && st.st_dev != pt.st_dev;
}

/* Refuse a cache (or journal) folder that is or lies in a source folder,
 * or (writing) overlaps --out. */
static void check_cache(const char *dir, const char *out_real, const outdir_options *o, diag *d)
{
    char *real = resolve(dir, NULL);
    const char *why = NULL;
    if (!real)
        return; /* its parent is missing: reported when it is made */
    if (has_control(real))
        why = "its path holds a control character";
    for (size_t i = 0; i < o->n_sources && !why; i++) {
        char *src = resolve(o->sources[i], NULL);
        if (src && within(real, src))
            why = "it is or lies inside a source folder (boardpress would write into your "
                  "sources)";
        free(src);
    }
    if (!why && out_real && (within(real, out_real) || within(out_real, real)))
        why = "it is, holds, or lies inside --out (the site would publish it, or the cache "
              "would hold the site)";
    if (why)
        diag_error(d, dir, 0, 0, "refusing to keep the cache here: %s; choose another --cache",
                   why);
    free(real);
}

int outdir_check(const outdir_options *o, bool write, diag *d)
{
    int errors = d->errors;
    char *real = NULL;
    if (write) {
        bool dangling;
        real = resolve(o->out, &dangling);
        if (!real) {
            d->io = !dangling;
            diag_error(d, o->out, 0, 0, "%s",
                       dangling ? "refusing to write the site here: it is a link that leads "
                                  "nowhere"
                                : "cannot use this output folder: its parent does not exist");
            return -1;
        }
        const char *home = getenv("HOME");
        char *home_real = home ? resolve(home, NULL) : NULL;
        char *git = join_path(real, ".git");
        char *parent = parent_of(real);
        const char *why = NULL;
        struct stat st;
        bool exists = lstat(real, &st) == 0;
        if (strcmp(real, "/") == 0)
            why = "it is the root folder";
        else if (has_control(real))
            why = "its path holds a control character";
        else if (home_real && strcmp(real, home_real) == 0)
            why = "it is your home folder";
        else if (access(git, F_OK) == 0)
            why = "it is the root of a git work tree";
        for (size_t i = 0; i < o->n_sources && !why; i++) {
            char *src = resolve(o->sources[i], NULL);
            if (src && (within(real, src) || within(src, real)))
                why = "it is, holds, or lies inside a source folder";
            free(src);
        }
        if (why) {
            diag_error(d, o->out, 0, 0, "refusing to write the site here: %s", why);
        } else if (exists && !S_ISDIR(st.st_mode)) {
            diag_error(d, o->out, 0, 0, "refusing to replace it: it is not a folder");
        } else if (exists && mount_point(parent, real)) {
            diag_error(d, o->out, 0, 0,
                       "refusing to write the site here: it is a mount point, which the new "
                       "site cannot be swapped in for (a rename cannot move it); give --out a "
                       "folder inside it (e.g. --out %s/site) and serve that, or mount the "
                       "folder above it",
                       o->out);
        } else if (access(parent, W_OK) != 0) {
            d->io = true;
            diag_error(d, o->out, 0, 0,
                       "cannot write the new site beside it: its folder %s is read-only (%s)",
                       parent, strerror(errno));
        } else if (exists && access(real, W_OK) != 0) {
            d->io = true;
            diag_error(d, o->out, 0, 0,
                       "cannot replace it: it is read-only (%s); make it writable, or choose "
                       "another --out",
                       strerror(errno));
        }
        free(parent);
        free(git);
        free(home_real);
        if (d->errors != errors) {
            /* --out is refused: whether the cache overlaps it is moot */
            free(real);
            real = NULL;
        }
    }
    if (o->cache)
        check_cache(o->cache, real, o, d);
    if (write && o->journal && (!o->cache || strcmp(o->journal, o->cache) != 0))
        check_cache(o->journal, real, o, d);
    free(real);
    return d->errors == errors ? 0 : -1;
}

/* ------------------------------------------------------------ trees */

/* The marker text of a tree with this token. */
static char *marker_text(const char *token)
{
    return xasprintf("boardpress tree %s\n", token);
}

/* The marker at the top of the tree fd, when it holds token: its
 * descriptor (the caller closes it), else -1. */
static int marker_open(int fd, const char *token)
{
    int m = openat(fd, OUTFS_MARKER, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (m < 0)
        return -1;
    char *want = marker_text(token);
    char got[128];
    struct stat st;
    ssize_t n = fstat(m, &st) == 0 && S_ISREG(st.st_mode) ? read(m, got, sizeof got - 1) : -1;
    bool ok = n == (ssize_t)strlen(want) && memcmp(got, want, (size_t)n) == 0;
    free(want);
    if (!ok) {
        close(m);
        return -1;
    }
    return m;
}

/* Make the marker of a tree with token at the top of fd and take its lock.
 * Returns its descriptor or -1 (errno). */
static int marker_make(int fd, const char *token)
{
    int m = openat(fd, OUTFS_MARKER, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (m < 0)
        return -1;
    char *text = marker_text(token);
    int rc = file_write_all(m, text, strlen(text));
    free(text);
    if (rc == 0 && flock(m, LOCK_EX | LOCK_NB) == 0)
        return m;
    int e = errno;
    close(m);
    unlinkat(fd, OUTFS_MARKER, 0);
    errno = e;
    return -1;
}

/* Open the tree at path when it is the folder of (dev, ino): its
 * descriptor, or -1 (errno ESTALE when something else is there). */
static int open_tree_at(const char *path, uint64_t dev, uint64_t ino)
{
    char *dir = parent_of(path);
    int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (dfd < 0)
        return -1;
    int fd = openat(dfd, base_of(path), DIR_FLAGS);
    int e = errno;
    close(dfd);
    if (fd < 0) {
        errno = e;
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || (uint64_t)st.st_dev != dev || (uint64_t)st.st_ino != ino) {
        close(fd);
        errno = ESTALE;
        return -1;
    }
    return fd;
}

/* Find r's tree where its record says it is, or is about to be; the record
 * then says where it was found. Returns its descriptor, or -1: *gone when
 * neither place holds it (moved or deleted by someone else). */
static int locate(jrec *r, bool *gone)
{
    *gone = false;
    int fd = open_tree_at(r->at, r->dev, r->ino);
    bool gone_at =
        fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == ESTALE);
    if (fd < 0 && r->next) {
        fd = open_tree_at(r->next, r->dev, r->ino);
        if (fd >= 0)
            jrec_set_at(r, r->next);
        else
            *gone = gone_at &&
                    (errno == ENOENT || errno == ENOTDIR || errno == ELOOP || errno == ESTALE);
    } else if (fd < 0) {
        *gone = gone_at;
    }
    jrec_set_next(r, NULL);
    return fd;
}

/* Remove the tree fd (at path, of record r) — everything in it when whole,
 * else only the files r lists — and forget r when it is gone. Returns 0,
 * or -1 with *kept naming what is left (the caller frees). */
static int remove_tree(outcore *c, jrec *r, int fd, bool whole, char **kept)
{
    int rc = outfs_empty(fd, whole ? NULL : &r->files, kept);
    struct stat st;
    if (rc == 0 && fstat(fd, &st) == 0) {
        char *dir = parent_of(r->at);
        int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        free(dir);
        if (dfd >= 0 && outfs_rmdir(dfd, base_of(r->at), st.st_dev, st.st_ino) == 0) {
            journal_forget(&c->j, r);
        } else {
            rc = -1;
            *kept = xstrdup("");
        }
        if (dfd >= 0)
            close(dfd);
    } else if (rc > 0) {
        rc = -1;
    }
    return rc;
}

/* A recorded folder whose marker is missing is ours only when it holds
 * nothing (a tree being made or taken apart when its build died): remove
 * it. */
static void remove_if_empty(outcore *c, jrec *r, int fd)
{
    char *found = NULL;
    outfs_list none = {0};
    if (outfs_check(fd, &none, true, false, &found) == 0) {
        char *kept = NULL;
        remove_tree(c, r, fd, false, &kept);
        free(kept);
    } else {
        journal_forget(&c->j, r); /* not provably ours any more: left alone */
    }
    free(found);
}

static bool in_folder(const char *path, const char *dir)
{
    char *p = parent_of(path);
    bool in = dir && strcmp(p, dir) == 0;
    free(p);
    return in;
}

static int count_spares(jrec **recs, size_t n)
{
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += recs[i] && recs[i]->role == JR_SPARE;
    return k;
}

/* Put right what builds that died left, from the records of --out (the
 * journal is locked): a tree that was being made or taken apart goes, a
 * tree swapped in or half swapped is made the live site, a swap cut off
 * between two renames is undone, and trees beside --out go. Trees whose
 * marker's lock is held belong to a build that runs: they are left alone.
 * Records whose tree is gone are forgotten; recs[i] is NULL for them. */
static void recover(outcore *c, jrec **recs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        jrec *r = recs[i];
        if (r->role != JR_LIVE && r->dev == 0 && r->ino == 0) {
            /* being made: a folder, maybe the marker, nothing else */
            struct stat st;
            char *dir = parent_of(r->at);
            int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
            free(dir);
            int fd = dfd >= 0 ? openat(dfd, base_of(r->at), DIR_FLAGS) : -1;
            if (dfd >= 0)
                close(dfd);
            if (fd >= 0 && fstat(fd, &st) == 0) {
                r->dev = (uint64_t)st.st_dev;
                r->ino = (uint64_t)st.st_ino;
                int m = marker_open(fd, r->token);
                if (m >= 0 && flock(m, LOCK_EX | LOCK_NB) != 0) {
                    close(m); /* its build runs */
                    close(fd);
                    r->dev = r->ino = 0;
                    continue;
                }
                remove_if_empty(c, r, fd);
                if (m >= 0)
                    close(m);
                close(fd);
            } else if (fd < 0 && (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)) {
                journal_forget(&c->j, r);
            }
            jrec_free(r);
            recs[i] = NULL;
            continue;
        }
        bool gone;
        int fd = locate(r, &gone);
        if (fd < 0) {
            if (gone) {
                journal_forget(&c->j, r);
                jrec_free(r);
                recs[i] = NULL;
            }
            continue;
        }
        bool at_out = strcmp(r->at, c->out_real) == 0;
        if (r->role == JR_LIVE) {
            if (!at_out) {
                journal_forget(&c->j, r); /* moved away by someone: theirs now */
                jrec_free(r);
                recs[i] = NULL;
            } else {
                /* a marker left by a build that died while swapping */
                int m = marker_open(fd, r->token);
                if (m >= 0) {
                    unlinkat(fd, OUTFS_MARKER, 0);
                    close(m);
                }
                journal_save(&c->j, r);
            }
            close(fd);
            continue;
        }
        int m = marker_open(fd, r->token);
        if (m < 0) {
            remove_if_empty(c, r, fd);
            close(fd);
            jrec_free(r);
            recs[i] = NULL;
            continue;
        }
        if (flock(m, LOCK_EX | LOCK_NB) != 0) {
            close(m); /* a build that runs uses it */
            close(fd);
            continue;
        }
        bool beside = in_folder(r->at, c->parent);
        bool keep = false;
        if (at_out) {
            /* swapped in (or not yet out) when its build died: the live site */
            r->role = JR_LIVE;
            keep = journal_save(&c->j, r) == 0 && unlinkat(fd, OUTFS_MARKER, 0) == 0;
        } else if (r->role == JR_SPARE && in_folder(r->at, c->cache)) {
            keep = count_spares(recs, n) == 1; /* one spare per --out */
        } else if (r->role == JR_OLD && beside &&
                   faccessat(c->pfd, c->name, F_OK, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT) {
            /* a swap by two renames cut off between them: put it back */
            r->role = JR_LIVE;
            jrec_set_next(r, c->out_real);
            if (journal_save(&c->j, r) == 0 &&
                renameat2(c->pfd, base_of(r->at), c->pfd, c->name, RENAME_NOREPLACE) == 0) {
                jrec_set_at(r, c->out_real);
                jrec_set_next(r, NULL);
                keep = journal_save(&c->j, r) == 0 && unlinkat(fd, OUTFS_MARKER, 0) == 0;
            }
        }
        if (!keep && (beside || in_folder(r->at, c->cache))) {
            /* a dead build's tree, a previous site on its way out, a spare
             * too many: removed (a previous site only as far as it is ours) */
            char *kept = NULL;
            if (remove_tree(c, r, fd, r->role != JR_OLD, &kept) != 0 && r->role == JR_OLD)
                journal_forget(&c->j, r); /* it holds what is not ours: left */
            free(kept);
            jrec_free(r);
            recs[i] = NULL;
        } else if (!keep) {
            journal_forget(&c->j, r); /* somewhere we never put it */
            jrec_free(r);
            recs[i] = NULL;
        }
        close(m);
        close(fd);
    }
}

static void free_recs(jrec **recs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        jrec_free(recs[i]);
    free(recs);
}

/* Load and put right the records of --out (journal locked). */
static jrec **load_recovered(outcore *c, size_t *n, char **damaged)
{
    jrec **recs = journal_load(&c->j, c->out_real, n, damaged);
    recover(c, recs, *n);
    return recs;
}

/* The live record whose tree is the folder st, or NULL. */
static jrec *live_of(jrec **recs, size_t n, const struct stat *st)
{
    for (size_t i = 0; i < n; i++)
        if (recs[i] && recs[i]->role == JR_LIVE && recs[i]->dev == (uint64_t)st->st_dev &&
            recs[i]->ino == (uint64_t)st->st_ino)
            return recs[i];
    return NULL;
}

/* A name beside --out for a new tree: OUT.tmp-RANDOM. */
static char *tmp_name_for(const outcore *c)
{
    char hex[17];
    journal_random_hex(hex, 8);
    return xasprintf("%s.tmp-%s", c->name, hex);
}

/* Claim the spare tree (journal locked): only one the journal records in
 * the cache folder, with its marker, unused, holding only what its record
 * lists; renamed beside --out. True when c->rec is now that tree. */
static bool claim_spare(outcore *c, jrec **recs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        jrec *r = recs[i];
        if (!r || r->role != JR_SPARE || !c->spares)
            continue;
        bool gone;
        int fd = locate(r, &gone);
        if (fd < 0)
            continue;
        int m = marker_open(fd, r->token);
        if (m < 0 || flock(m, LOCK_EX | LOCK_NB) != 0) {
            if (m >= 0)
                close(m);
            close(fd);
            continue;
        }
        char *found = NULL;
        int chk = outfs_check(fd, &r->files, true, true, &found);
        free(found);
        if (chk != 0) {
            /* something in it is not ours: left alone, and forgotten */
            journal_forget(&c->j, r);
            close(m);
            close(fd);
            continue;
        }
        char *name = tmp_name_for(c);
        char *path = join_path(c->parent, name);
        char *was = xstrdup(r->at);
        r->role = JR_NEW;
        jrec_set_next(r, path);
        bool moved = journal_save(&c->j, r) == 0 &&
                     renameat2(c->cfd, base_of(was), c->pfd, name, RENAME_NOREPLACE) == 0;
        if (moved) {
            jrec_set_at(r, path);
            jrec_set_next(r, NULL);
            moved = journal_save(&c->j, r) == 0;
            if (!moved)
                renameat2(c->pfd, name, c->cfd, base_of(was), RENAME_NOREPLACE);
        }
        if (!moved) {
            r->role = JR_SPARE;
            jrec_set_at(r, was);
            jrec_set_next(r, NULL);
            journal_save(&c->j, r);
            free(name);
            free(path);
            free(was);
            close(m);
            close(fd);
            continue;
        }
        free(was);
        c->spare_files = r->files;
        memset(&r->files, 0, sizeof r->files);
        c->rec = r;
        recs[i] = NULL;
        c->tmp_name = name;
        c->tmp_path = path;
        c->tfd = fd;
        c->marker_fd = m;
        c->recycled = true;
        return true;
    }
    return false;
}

/* Make a new tree beside --out (journal locked): recorded before it is
 * made, so a build killed at any point leaves nothing the next one cannot
 * prove. Returns 0 or -1 (errno). */
static int make_tree(outcore *c)
{
    jrec *r = jrec_new(c->out_real, JR_NEW);
    for (int tries = 0; tries < 16; tries++) {
        free(c->tmp_name);
        free(c->tmp_path);
        c->tmp_name = tmp_name_for(c);
        c->tmp_path = join_path(c->parent, c->tmp_name);
        jrec_set_at(r, c->tmp_path);
        if (journal_save(&c->j, r) != 0)
            break;
        if (mkdirat(c->pfd, c->tmp_name, 0700) == 0) {
            c->tfd = openat(c->pfd, c->tmp_name, DIR_FLAGS);
            struct stat st;
            if (c->tfd >= 0 && fstat(c->tfd, &st) == 0) {
                c->marker_fd = marker_make(c->tfd, r->token);
                r->dev = (uint64_t)st.st_dev;
                r->ino = (uint64_t)st.st_ino;
                if (c->marker_fd >= 0 && journal_save(&c->j, r) == 0) {
                    c->rec = r;
                    return 0;
                }
            }
            int e = errno;
            unlinkat(c->pfd, c->tmp_name, AT_REMOVEDIR);
            errno = e;
            break;
        }
        if (errno != EEXIST)
            break;
    }
    int e = errno;
    journal_forget(&c->j, r);
    jrec_free(r);
    errno = e;
    return -1;
}

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

/* What is in --out now (journal locked): 0 when it is missing or is ours
 * (*live its record, NULL for an empty folder taken over), -1 after
 * reporting. With walk, every entry is checked against the record. */
static int inspect_out(outcore *c, jrec **recs, size_t n, const char *damaged, bool walk,
                       jrec **live, int *fd_out, struct stat *st, diag *d)
{
    *live = NULL;
    *fd_out = -1;
    int fd = openat(c->pfd, c->name, DIR_FLAGS);
    if (fd < 0 && errno == ENOENT)
        return 0;
    if (fd < 0 || fstat(fd, st) != 0) {
        d->io = true;
        diag_error(d, c->out, 0, 0, "cannot read this output folder: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    *fd_out = fd;
    jrec *r = live_of(recs, n, st);
    outfs_list none = {0};
    char *found = NULL;
    int chk = r && !walk ? 0 : outfs_check(fd, r ? &r->files : &none, false, false, &found);
    if (chk == 0) {
        *live = r;
        return 0;
    }
    if (chk < 0) {
        d->io = true;
        diag_error(d, c->out, 0, 0, "cannot read this output folder: %s", strerror(errno));
    } else if (r) {
        diag_error(d, c->out, 0, 0,
                   "refusing to replace this folder: '%s' in it was not written by boardpress "
                   "(move it away or choose another --out)",
                   found);
    } else if (damaged) {
        diag_error(d, c->out, 0, 0,
                   "refusing to replace this folder: the record of what boardpress wrote "
                   "into it, %s, is damaged (move the folder away or delete it, then build "
                   "again)",
                   damaged);
    } else {
        diag_error(d, c->out, 0, 0,
                   "refusing to replace this folder: boardpress has no record of writing it "
                   "(records are kept in %s: an older boardpress, a copy, or a deleted cache "
                   "folder; move it away or delete it, then build again)",
                   c->j.dir);
    }
    free(found);
    close(fd);
    *fd_out = -1;
    return -1;
}

outdir *outdir_begin(const outdir_options *o, diag *d)
{
    outcore *c = xcalloc(1, sizeof *c);
    pthread_mutex_init(&c->lock, NULL);
    c->pfd = c->cfd = c->livefd = c->tfd = c->marker_fd = -1;
    c->j.fd = c->j.lock_fd = -1;
    c->out = xstrdup(o->out);
    c->out_real = resolve(o->out, NULL);
    mode_t mask = umask(022);
    umask(mask);
    c->chmod_needed = (mask & 0644) != 0;
    const char *jdir = o->journal ? o->journal : o->cache;
    if (!c->out_real || !jdir) {
        d->io = true;
        diag_error(d, o->out, 0, 0, "cannot use this output folder: %s",
                   c->out_real ? "no folder for the journal" : "its parent does not exist");
        core_free(c);
        return NULL;
    }
    c->parent = parent_of(c->out_real);
    c->name = xstrdup(base_of(c->out_real));
    c->pfd = open(c->parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (c->pfd < 0) {
        d->io = true;
        diag_error(d, c->parent, 0, 0, "cannot open the folder of --out: %s", strerror(errno));
        core_free(c);
        return NULL;
    }
    if (journal_open(&c->j, jdir, d) != 0) {
        core_free(c);
        return NULL;
    }
    c->cache = resolve(jdir, NULL);
    c->cfd = c->cache ? open(c->cache, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    if (c->cfd < 0) {
        d->io = true;
        diag_error(d, jdir, 0, 0, "cannot open the cache folder: %s", strerror(errno));
        core_free(c);
        return NULL;
    }
    c->spares = o->cache != NULL;
    journal_lock(&c->j);
    size_t n;
    char *damaged = NULL;
    jrec **recs = load_recovered(c, &n, &damaged);
    jrec *live;
    struct stat st;
    int rc = inspect_out(c, recs, n, damaged, true, &live, &c->livefd, &st, d);
    free(damaged);
    if (rc == 0) {
        c->had_old = c->livefd >= 0;
        if (live) {
            c->live_files = live->files;
            memset(&live->files, 0, sizeof live->files);
        }
        if (!claim_spare(c, recs, n) && make_tree(c) != 0) {
            d->io = true;
            diag_error(d, c->tmp_path ? c->tmp_path : c->out, 0, 0,
                       "cannot create the new site folder: %s", strerror(errno));
            rc = -1;
        }
    }
    journal_unlock(&c->j);
    free_recs(recs, n);
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

/* A new file name in dfd holding data, mode 0644; *ino gets its inode. */
static int write_new(const outcore *c, int dfd, const char *name, const void *data, size_t len,
                     uint64_t *ino)
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
    *ino = (uint64_t)st.st_ino;
    return 0;
}

/* Put data at name in the new tree's folder dfd (live_dfd: the same folder
 * of the live site, or -1); returns 1 when the file was (re)written, 0
 * when an unchanged file was kept or linked, -1 with errno. */
static int place(outcore *c, int dfd, int live_dfd, const char *name, bool in_old, bool in_spare,
                 const void *data, size_t len, uint64_t *ino)
{
    struct stat live_st, st;
    if (in_old && live_dfd >= 0 && same_content(live_dfd, name, data, len, &live_st)) {
        *ino = (uint64_t)live_st.st_ino;
        if (in_spare && fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            st.st_dev == live_st.st_dev && st.st_ino == live_st.st_ino)
            return 0; /* already the live file's twin */
        if (in_spare && unlinkat(dfd, name, 0) != 0 && errno != ENOENT)
            return -1;
        if (linkat(live_dfd, name, dfd, name, 0) == 0)
            return 0;
        return write_new(c, dfd, name, data, len, ino) == 0 ? 1 : -1;
    }
    if (in_spare && same_content(dfd, name, data, len, &st) && st.st_nlink == 1) {
        *ino = (uint64_t)st.st_ino;
        return 1; /* the spare already holds these bytes: a change for the site */
    }
    /* never written into: the old file may be a link shared with the site */
    if (in_spare && unlinkat(dfd, name, 0) != 0 && errno != ENOENT)
        return -1;
    return write_new(c, dfd, name, data, len, ino) == 0 ? 1 : -1;
}

/* The handle's folders for rel's folder (n bytes of it): made in the new
 * tree; looked up in the live one when wanted. */
static int folders_for(outdir *o, const char *rel, size_t n, bool want_live)
{
    outcore *c = o->c;
    if (!o->last_dir || strlen(o->last_dir) != n || memcmp(o->last_dir, rel, n) != 0) {
        handle_close(o);
        o->last_fd = outfs_open_dir(c->tfd, rel, n, true);
        if (o->last_fd < 0)
            return -1;
        o->last_dir = xstrndup(rel, n);
    }
    if (want_live && o->last_live == NOT_LOOKED_UP)
        o->last_live = c->livefd >= 0 ? outfs_open_dir(c->livefd, rel, n, false) : -1;
    return 0;
}

int outdir_write(outdir *o, const char *rel, const void *data, size_t len, diag *d)
{
    outcore *c = o->c;
    uint64_t ino;
    pthread_mutex_lock(&c->lock);
    bool fresh =
        outfs_rel_ok(rel) && strcmp(rel, OUTFS_MARKER) != 0 && strset_add(&c->new_files, rel);
    bool in_old = c->had_old && outfs_list_get(&c->live_files, rel, &ino);
    bool in_spare = c->recycled && outfs_list_get(&c->spare_files, rel, &ino);
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
        place(c, o->last_fd, in_old ? o->last_live : -1, name, in_old, in_spare, data, len, &ino);
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
    c->entries[c->n_entries++] = (entry){o->seq, o->sub++, xstrdup(rel), ino};
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
        if (has_control(names[i])) {
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

/* ------------------------------------------------------------ commit */

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

static int stale_error(const outcore *c, const char *what, const char *rel, int e, diag *d)
{
    d->io = true;
    diag_error(d, c->tmp_path, 0, 0,
               "cannot delete %s'%s', which the site no longer has, from the recycled tree: %s",
               what, rel, strerror(e));
    return -1;
}

/* Files the recycled tree held that this build did not write: delete them,
 * then the folders that became empty (deepest first; a folder still in use
 * refuses). A file that cannot go is an error: it would stay published. */
static int drop_stale(outcore *c, diag *d)
{
    if (!c->recycled)
        return 0;
    int rc = 0;
    char **dirs = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < c->spare_files.n; i++) {
        const char *f = c->spare_files.rel[i];
        if (strset_has(&c->new_files, f))
            continue;
        if (outfs_unlink(c->tfd, f, 0) != 0 && errno != ENOENT)
            rc = stale_error(c, "", f, errno, d);
        const char *s = strrchr(f, '/');
        if (s) {
            dirs = xgrow(dirs, sizeof *dirs, &cap, n + 1);
            dirs[n++] = xstrndup(f, (size_t)(s - f));
        }
    }
    /* deepest first, then each parent in turn */
    if (n)
        qsort(dirs, n, sizeof *dirs, longer_first);
    for (size_t i = 0; i < n; i++) {
        for (char *dp = dirs[i]; dp[0] && rc == 0;) {
            char *sl = strrchr(dp, '/');
            int r = outfs_unlink(c->tfd, dp, AT_REMOVEDIR);
            int e = errno;
            if (r != 0 && e != ENOTEMPTY && e != EEXIST && e != ENOENT)
                rc = stale_error(c, "the folder ", dp, e, d);
            if (r != 0 || !sl)
                break;
            *sl = '\0';
        }
        free(dirs[i]);
    }
    free(dirs);
    return rc;
}

/* The new tree's record lists what it holds: the files written (in write
 * order) and, when abandoned, what the recycled tree held besides. */
static void list_entries(outcore *c, bool with_spare)
{
    outfs_list_free(&c->rec->files);
    if (c->n_entries)
        qsort(c->entries, c->n_entries, sizeof *c->entries, entry_cmp);
    for (size_t i = 0; with_spare && i < c->spare_files.n; i++)
        outfs_list_add(&c->rec->files, c->spare_files.rel[i], c->spare_files.ino[i]);
    for (size_t i = 0; i < c->n_entries; i++)
        outfs_list_add(&c->rec->files, c->entries[i].rel, c->entries[i].ino);
}

/* Move tree r (open as fd, its marker's lock held) into the cache folder as
 * the spare (journal locked). True when it is there. */
static bool make_spare(outcore *c, jrec *r, jrec **recs, size_t n)
{
    if (!c->spares || count_spares(recs, n) > 0)
        return false;
    char *from = xstrdup(r->at);
    char *name = xasprintf("spare-%s-%.16s", c->name, r->token);
    char *path = join_path(c->cache, name);
    jrole was = r->role;
    r->role = JR_SPARE;
    jrec_set_next(r, path);
    bool ok = journal_save(&c->j, r) == 0 &&
              renameat2(c->pfd, base_of(from), c->cfd, name, RENAME_NOREPLACE) == 0;
    if (ok)
        jrec_set_at(r, path);
    else
        r->role = was;
    jrec_set_next(r, NULL);
    journal_save(&c->j, r);
    free(from);
    free(name);
    free(path);
    return ok;
}

/* Give the new tree's top folder the owner, group and mode of the folder it
 * replaces (st), or 0755 for a new --out. */
static void take_attrs(outcore *c, const struct stat *st)
{
    if (st) {
        if ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
            fchown(c->tfd, st->st_uid, st->st_gid) != 0)
            (void)fchown(c->tfd, (uid_t)-1, st->st_gid); /* the group, where we may */
        fchmod(c->tfd, st->st_mode & 07777);
    } else {
        fchmod(c->tfd, 0755);
    }
}

/* Swap the new tree in for the folder at --out (xfd, record x; NULL when it
 * is missing). Journal locked. Returns 0 or -1 (errno; nothing changed). */
static int swap_in(outcore *c, jrec *x, int xfd, int *xmarker)
{
    jrec *y = c->rec;
    jrec_set_next(y, c->out_real);
    if (journal_save(&c->j, y) != 0)
        return -1;
    if (x) {
        /* the site about to go out gets a marker: from now on it is a tree
         * the next build can take apart if this one dies */
        *xmarker = marker_make(xfd, x->token);
        x->role = JR_OLD;
        jrec_set_next(x, c->tmp_path);
        if (*xmarker < 0 || journal_save(&c->j, x) != 0)
            goto undo;
        if (renameat2(c->pfd, c->tmp_name, c->pfd, c->name, RENAME_EXCHANGE) != 0) {
            if (errno != EINVAL && errno != ENOSYS)
                goto undo;
            /* no exchange on this file system: two renames; the next build
             * finishes a swap cut off between them */
            char *aside = tmp_name_for(c);
            char *aside_path = join_path(c->parent, aside);
            jrec_set_next(x, aside_path);
            bool ok = journal_save(&c->j, x) == 0 && renameat(c->pfd, c->name, c->pfd, aside) == 0;
            if (ok && renameat(c->pfd, c->tmp_name, c->pfd, c->name) != 0) {
                int e = errno;
                renameat(c->pfd, aside, c->pfd, c->name);
                errno = e;
                ok = false;
            }
            free(aside);
            free(aside_path);
            if (!ok)
                goto undo;
            jrec_set_at(x, x->next);
        } else {
            jrec_set_at(x, c->tmp_path);
        }
        jrec_set_next(x, NULL);
    } else if (renameat2(c->pfd, c->tmp_name, c->pfd, c->name, RENAME_NOREPLACE) != 0 &&
               (errno != EINVAL || renameat(c->pfd, c->tmp_name, c->pfd, c->name) != 0)) {
        goto undo;
    }
    /* the new site is in place: its record first, then its marker goes */
    y->role = JR_LIVE;
    jrec_set_at(y, c->out_real);
    jrec_set_next(y, NULL);
    journal_save(&c->j, y);
    unlinkat(c->tfd, OUTFS_MARKER, 0);
    if (x)
        journal_save(&c->j, x);
    return 0;
undo:;
    int e = errno;
    if (x) {
        if (*xmarker >= 0) {
            unlinkat(xfd, OUTFS_MARKER, 0);
            close(*xmarker);
            *xmarker = -1;
        }
        x->role = JR_LIVE;
        jrec_set_next(x, NULL);
        journal_save(&c->j, x);
    }
    jrec_set_next(y, NULL);
    journal_save(&c->j, y);
    errno = e;
    return -1;
}

int outdir_commit(outdir *o, diag *d)
{
    outcore *c = o->c;
    if (drop_stale(c, d) != 0) {
        outdir_abort(o);
        return -1;
    }
    journal_lock(&c->j);
    /* --out now: another build may have swapped its site in meanwhile */
    size_t n;
    jrec **recs = load_recovered(c, &n, NULL);
    jrec *x;
    int xfd = -1, xmarker = -1;
    struct stat st;
    int rc = inspect_out(c, recs, n, NULL, false, &x, &xfd, &st, d);
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
        take_attrs(c, xfd >= 0 ? &st : NULL);
        list_entries(c, false);
        if (swap_in(c, x, xfd, &xmarker) != 0) {
            d->io = true;
            diag_error(d, c->out, 0, 0, "cannot put the new site in place: %s", strerror(errno));
            rc = -1;
        }
    }
    if (rc == 0 && x) {
        /* the previous site: the next build's spare, or deleted as far as
         * it is ours (anything added to --out during the build stays) */
        if (!make_spare(c, x, recs, n)) {
            char *kept = NULL;
            if (remove_tree(c, x, xfd, false, &kept) != 0) {
                d->io = true;
                diag_error(d, x->at, 0, 0,
                           "kept beside --out, as it holds what boardpress did not write "
                           "('%s', put into --out during the build?): move that where you "
                           "want it and delete the folder",
                           kept ? kept : "");
                journal_forget(&c->j, x);
                rc = -1;
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
    free_recs(recs, n);
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
        journal_lock(&c->j);
        size_t n;
        jrec **recs = journal_load(&c->j, c->out_real, &n, NULL);
        list_entries(c, true);
        if (c->rec->files.n == 0 || !make_spare(c, c->rec, recs, n)) {
            char *kept = NULL;
            remove_tree(c, c->rec, c->tfd, true, &kept);
            free(kept);
        }
        journal_unlock(&c->j);
        free_recs(recs, n);
    }
    core_free(c);
}

void outdir_counts(const outdir *o, size_t *written, size_t *unchanged)
{
    *written = o->c->written;
    *unchanged = o->c->linked;
}
