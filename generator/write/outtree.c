/* outtree.c — the trees boardpress owns beside --out and in the cache
 * folder (see output.c for the rules, output_internal.h for the calls): a
 * tree is found by its record's device and inode at the place the record
 * names, and, for all but the live site, by the token in its marker, whose
 * flock tells a tree in use. Every step that moves a tree is recorded
 * before it is taken, so that outtree_load can finish or undo the steps of
 * a build that died at any point. */
#define _GNU_SOURCE
#include "write/output_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

char *outtree_parent_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xstrndup(path, (size_t)(slash - path));
}

const char *outtree_base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

char *outtree_join(const char *dir, const char *name)
{
    return xasprintf("%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
}

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
    char *dir = outtree_parent_of(path);
    int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (dfd < 0)
        return -1;
    int fd = openat(dfd, outtree_base_of(path), DIR_FLAGS);
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
 * then says where it was found (*moved: the record changed). Returns its
 * descriptor, or -1: *gone when neither place holds it (moved or deleted by
 * someone else). */
static int locate(jrec *r, bool *gone, bool *moved)
{
    *gone = false;
    *moved = r->next != NULL;
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
 * else only the files r lists — and forget r when it is gone. Returns 0;
 * 1 when it holds what r does not list (kept; *kept names it); -1 (errno)
 * when a removal failed (*kept names it, the record stays so that the
 * next build tries again). The caller frees *kept. */
int outtree_remove(outcore *c, jrec *r, int fd, bool whole, char **kept)
{
    int rc = outfs_empty(fd, whole ? NULL : &r->files, kept);
    struct stat st;
    if (rc == 0 && fstat(fd, &st) == 0) {
        char *dir = outtree_parent_of(r->at);
        int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        free(dir);
        if (dfd >= 0 && outfs_rmdir(dfd, outtree_base_of(r->at), st.st_dev, st.st_ino) == 0) {
            journal_forget(&c->j, r);
        } else {
            int e = errno;
            rc = -1;
            *kept = xstrdup(outtree_base_of(r->at));
            errno = e;
        }
        if (dfd >= 0)
            close(dfd);
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
    if (outfs_check(fd, &none, OUTFS_INODES, true, false, &found, NULL) == 0) {
        char *kept = NULL;
        outtree_remove(c, r, fd, false, &kept);
        free(kept);
    } else {
        journal_forget(&c->j, r); /* not provably ours any more: left alone */
    }
    free(found);
}

static bool in_folder(const char *path, const char *dir)
{
    char *p = outtree_parent_of(path);
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
            char *dir = outtree_parent_of(r->at);
            int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
            free(dir);
            int fd = dfd >= 0 ? openat(dfd, outtree_base_of(r->at), DIR_FLAGS) : -1;
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
        bool moved;
        int fd = locate(r, &gone, &moved);
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
                if (moved)
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
        } else if (r->role == JR_SPARE && (!c->spares || in_folder(r->at, c->cache))) {
            /* one spare per --out; one in another cache folder than this
             * build's goes (a build without a cache leaves it) */
            keep = count_spares(recs, n) == 1;
        } else if (r->role == JR_OLD && beside &&
                   faccessat(c->pfd, c->name, F_OK, AT_SYMLINK_NOFOLLOW) != 0 && errno == ENOENT) {
            /* a swap by two renames cut off between them: put it back */
            r->role = JR_LIVE;
            jrec_set_next(r, c->out_real);
            if (journal_save(&c->j, r) == 0 &&
                renameat2(c->pfd, outtree_base_of(r->at), c->pfd, c->name, RENAME_NOREPLACE) == 0) {
                jrec_set_at(r, c->out_real);
                jrec_set_next(r, NULL);
                keep = journal_save(&c->j, r) == 0 && unlinkat(fd, OUTFS_MARKER, 0) == 0;
            }
        }
        if (!keep && (beside || in_folder(r->at, c->cache) || r->role == JR_SPARE)) {
            /* a dead build's tree, a previous site on its way out, a spare
             * too many or in another cache folder: removed (all but a dead
             * build's tree only as far as the record lists it) */
            char *kept = NULL;
            if (outtree_remove(c, r, fd, r->role == JR_NEW, &kept) > 0 && r->role != JR_NEW)
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

void outtree_free_recs(jrec **recs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        jrec_free(recs[i]);
    free(recs);
}

/* Load and put right the records of --out (journal locked). */
jrec **outtree_load(outcore *c, size_t *n, char **damaged)
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
bool outtree_claim_spare(outcore *c, jrec **recs, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        jrec *r = recs[i];
        if (!r || r->role != JR_SPARE || !c->spares || !in_folder(r->at, c->cache))
            continue;
        bool gone;
        bool relocated; /* saved below, whatever happens */
        int fd = locate(r, &gone, &relocated);
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
        int chk = outfs_check(fd, &r->files, OUTFS_INODES, true, true, &found, NULL);
        free(found);
        if (chk != 0) {
            /* something in it is not ours: left alone, and forgotten */
            journal_forget(&c->j, r);
            close(m);
            close(fd);
            continue;
        }
        char *name = tmp_name_for(c);
        char *path = outtree_join(c->parent, name);
        char *was = xstrdup(r->at);
        r->role = JR_NEW;
        jrec_set_next(r, path);
        bool moved = journal_save(&c->j, r) == 0 &&
                     renameat2(c->cfd, outtree_base_of(was), c->pfd, name, RENAME_NOREPLACE) == 0;
        if (moved) {
            jrec_set_at(r, path);
            jrec_set_next(r, NULL);
            moved = journal_save(&c->j, r) == 0;
            if (!moved)
                renameat2(c->pfd, name, c->cfd, outtree_base_of(was), RENAME_NOREPLACE);
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
int outtree_make(outcore *c)
{
    jrec *r = jrec_new(c->out_real, JR_NEW);
    for (int tries = 0; tries < 16; tries++) {
        free(c->tmp_name);
        free(c->tmp_path);
        c->tmp_name = tmp_name_for(c);
        c->tmp_path = outtree_join(c->parent, c->tmp_name);
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
            /* undone whole; when the folder cannot go, its record stays for
             * the next build to remove it */
            int e = errno;
            if (c->marker_fd >= 0) {
                unlinkat(c->tfd, OUTFS_MARKER, 0);
                close(c->marker_fd);
                c->marker_fd = -1;
            }
            if (c->tfd >= 0) {
                close(c->tfd);
                c->tfd = -1;
            }
            bool gone = unlinkat(c->pfd, c->tmp_name, AT_REMOVEDIR) == 0;
            errno = e;
            if (!gone) {
                jrec_free(r);
                return -1;
            }
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

/* What is in --out now (journal locked): 0 when it is missing or is
 * exactly what its record lists, as closely as level checks (*live its
 * record; NULL for an empty folder taken over), -1 after reporting. */
int outtree_inspect_out(outcore *c, jrec **recs, size_t n, const char *damaged, outfs_level level,
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
    const char *why = NULL;
    int chk = outfs_check(fd, r ? &r->files : &none, r ? level : OUTFS_STATUS, false, false, &found,
                          &why);
    if (chk == 0) {
        *live = r;
        return 0;
    }
    if (chk < 0) {
        d->io = true;
        diag_error(d, c->out, 0, 0, "cannot read this output folder: %s", strerror(errno));
    } else if (r) {
        diag_error(d, c->out, 0, 0,
                   "refusing to replace this folder: '%s' in it %s; nothing was changed (move "
                   "it out of --out, or delete it if you do not need it, then build again)",
                   found, why);
    } else if (damaged) {
        diag_error(d, c->out, 0, 0,
                   "refusing to replace this folder: the record of what boardpress wrote "
                   "into it, %s, is damaged (move the folder away or delete it, then build "
                   "again)",
                   damaged);
    } else {
        diag_error(d, c->out, 0, 0,
                   "refusing to replace this folder: boardpress has no record of writing it "
                   "(its record would be in %s: a copy, a folder moved here, or a site an "
                   "older boardpress wrote; move it away or delete it, then build again)",
                   c->j.dir);
    }
    free(found);
    close(fd);
    *fd_out = -1;
    return -1;
}

/* Move tree r (open as fd, its marker's lock held) into the cache folder as
 * the spare (journal locked). True when it is there. */
bool outtree_make_spare(outcore *c, jrec *r, jrec **recs, size_t n)
{
    if (!c->spares || count_spares(recs, n) > 0)
        return false;
    char *from = xstrdup(r->at);
    char *name = xasprintf("spare-%s-%.16s", c->name, r->token);
    char *path = outtree_join(c->cache, name);
    jrole was = r->role;
    r->role = JR_SPARE;
    jrec_set_next(r, path);
    bool ok = journal_save(&c->j, r) == 0 &&
              renameat2(c->pfd, outtree_base_of(from), c->cfd, name, RENAME_NOREPLACE) == 0;
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
void outtree_take_attrs(outcore *c, const struct stat *st)
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
int outtree_swap_in(outcore *c, jrec *x, int xfd, int *xmarker)
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
            char *aside_path = outtree_join(c->parent, aside);
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
