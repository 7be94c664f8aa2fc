/* outcheck.c — the checks made before a build writes anything (see
 * outdir_check in output.h), and the path helpers they share with
 * output.c: where --out and the cache really are, even when part of the
 * path does not exist yet. */
#define _GNU_SOURCE
#include "write/output.h"
#include "write/output_internal.h"
#include "base/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------ paths */

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
char *outpath_resolve(const char *path, bool *dangling)
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
        char *parent = outtree_parent_of(p);
        if (realpath(parent, tmp))
            r = outtree_join(tmp, outtree_base_of(p));
        free(parent);
    }
    free(p);
    return r;
}

/* The real path of path however much of it exists: the deepest existing
 * folder's real path, then the missing parts as written ("." and ".."
 * taken lexically: a missing folder holds no link). NULL when even the
 * working folder cannot be found. */
static char *resolve_deep(const char *path)
{
    char *p = trimmed(path);
    char cwd[PATH_MAX], tmp[PATH_MAX];
    if (p[0] != '/') {
        if (!getcwd(cwd, sizeof cwd)) {
            free(p);
            return NULL;
        }
        char *abs = outtree_join(cwd, p);
        free(p);
        p = abs;
    }
    size_t keep = strlen(p); /* p[0..keep) is tried; the rest is missing */
    while (true) {
        char saved = p[keep];
        p[keep] = '\0';
        bool found = realpath(keep ? p : "/", tmp) != NULL;
        p[keep] = saved;
        if (found)
            break;
        while (keep > 0 && p[keep - 1] != '/')
            keep--;
        if (keep > 0)
            keep--; /* the slash */
    }
    buf b;
    buf_init(&b);
    buf_puts(&b, strcmp(tmp, "/") == 0 ? "" : tmp);
    for (char *part = p + keep; *part;) {
        while (*part == '/')
            part++;
        size_t n = strcspn(part, "/");
        if (n == 0)
            break;
        if (n == 2 && part[0] == '.' && part[1] == '.') {
            char *sl = b.len ? strrchr(b.data, '/') : NULL;
            if (sl) {
                b.len = (size_t)(sl - b.data);
                b.data[b.len] = '\0';
            }
        } else if (!(n == 1 && part[0] == '.')) {
            buf_putc(&b, '/');
            buf_put(&b, part, n);
        }
        part += n;
    }
    if (b.len == 0)
        buf_putc(&b, '/');
    free(p);
    return buf_detach(&b);
}

/* a is b, or inside b. */
bool outpath_within(const char *a, const char *b)
{
    size_t n = strlen(b);
    if (strcmp(b, "/") == 0)
        return true;
    return strncmp(a, b, n) == 0 && (a[n] == '\0' || a[n] == '/');
}

bool outpath_has_control(const char *s)
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
    char *real = resolve_deep(dir);
    const char *why = NULL;
    if (!real)
        return;
    if (outpath_has_control(real))
        why = "its path holds a control character";
    for (size_t i = 0; i < o->n_sources && !why; i++) {
        char *src = outpath_resolve(o->sources[i], NULL);
        if (src && outpath_within(real, src))
            why = "it is or lies inside a source folder (boardpress would write into your "
                  "sources)";
        free(src);
    }
    if (!why && out_real && (outpath_within(real, out_real) || outpath_within(out_real, real))) {
        d->usage = true;
        diag_error(d, dir, 0, 0,
                   "--cache may not be inside --out, nor --out inside --cache (the site would "
                   "publish the cache, or the cache would hold the site); choose a --cache "
                   "beside --out, such as the default .boardpress-cache");
    } else if (why)
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
        real = outpath_resolve(o->out, &dangling);
        if (!real) {
            d->io = !dangling;
            diag_error(d, o->out, 0, 0, "%s",
                       dangling ? "refusing to write the site here: it is a link that leads "
                                  "nowhere"
                                : "cannot use this output folder: its parent does not exist");
            return -1;
        }
        const char *home = getenv("HOME");
        char *home_real = home ? outpath_resolve(home, NULL) : NULL;
        char *git = outtree_join(real, ".git");
        char *parent = outtree_parent_of(real);
        const char *why = NULL;
        struct stat st;
        bool exists = lstat(real, &st) == 0;
        if (strcmp(real, "/") == 0)
            why = "it is the root folder";
        else if (outpath_has_control(real))
            why = "its path holds a control character";
        else if (home_real && strcmp(real, home_real) == 0)
            why = "it is your home folder";
        else if (access(git, F_OK) == 0)
            why = "it is the root of a git work tree";
        for (size_t i = 0; i < o->n_sources && !why; i++) {
            char *src = outpath_resolve(o->sources[i], NULL);
            if (src && (outpath_within(real, src) || outpath_within(src, real)))
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
    free(real);
    return d->errors == errors ? 0 : -1;
}
