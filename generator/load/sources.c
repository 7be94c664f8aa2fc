/* sources.c — the source folders, checked before a build reads any of
 * them: each must be a folder (a missing one gets a near name as a hint,
 * and no further errors about what it would hold), and static/, which is
 * copied as it is, may hold only files and folders, with no symbolic link
 * that leads back into a folder holding it (copying that never ends).
 * `check` writes nothing, so static/ is not looked at then. */
#include "load/sources.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* A folder beside path with a near name, written as path is ("static",
 * "site/static"), or NULL. Caller frees. */
static char *near_folder(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *parent = slash ? xstrndup(path, (size_t)(slash - path)) : xstrdup(".");
    const char *name = slash ? slash + 1 : path;
    char *owned[256];
    const char *cands[256];
    size_t n = 0;
    DIR *dh = opendir(parent[0] ? parent : "/");
    struct dirent *e;
    while (dh && (e = readdir(dh)) && n < 256) {
        char *p = xasprintf("%s/%s", parent, e->d_name);
        struct stat st;
        if (e->d_name[0] != '.' && stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            owned[n] = xstrdup(e->d_name);
            cands[n] = owned[n];
            n++;
        }
        free(p);
    }
    if (dh)
        closedir(dh);
    const char *near = diag_suggest(name, cands, n);
    char *out = !near ? NULL : slash ? xasprintf("%s/%s", parent, near) : xstrdup(near);
    for (size_t i = 0; i < n; i++)
        free(owned[i]);
    free(parent);
    return out;
}

/* Whether path is a folder; when not, why (errno of stat, or ENOTDIR). */
static bool is_folder(const char *path, int *err)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        *err = errno;
        return false;
    }
    *err = ENOTDIR;
    return S_ISDIR(st.st_mode);
}

/* The folders above an entry of static/ on the way down: each resolved,
 * and as the walk named it. */
typedef struct {
    char real[PATH_MAX];
    char *path;
} up_dir;

/* Walk static/: every entry a file, folder or link to one, and no folder
 * met again on the way down (up[0..depth): the folders above). Returns
 * false after reporting. */
static bool check_static(site *s, const char *dir, up_dir *up, int depth)
{
    DIR *dh = opendir(dir);
    if (!dh)
        return true; /* the copy reports it */
    bool ok = true;
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (e->d_name[0] == '.')
            continue;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        char real[PATH_MAX];
        if (stat(path, &st) != 0) {
            /* a dangling link, or one that loops in itself */
            diag_read_error(&s->d, path, 0, 0, path, "the static file", errno, 0);
            ok = false;
        } else if (S_ISDIR(st.st_mode) && realpath(path, real)) {
            int seen = -1;
            for (int i = 0; i < depth && seen < 0; i++)
                if (strcmp(up[i].real, real) == 0)
                    seen = i;
            if (seen >= 0) {
                diag_error(&s->d, path, 0, 0,
                           "is a link to %s, a folder that holds it: copying it would never "
                           "end; remove the link",
                           up[seen].path);
                ok = false;
            } else if (strncmp(real, up[0].real, strlen(up[0].real)) != 0 ||
                       (real[strlen(up[0].real)] != '/' && real[strlen(up[0].real)] != '\0')) {
                /* outside static/: the copy refuses it, unread */
            } else if (depth + 1 >= 64) {
                diag_error(&s->d, path, 0, 0, "static folders nest deeper than 64 levels");
                ok = false;
            } else {
                memcpy(up[depth].real, real, sizeof real);
                up[depth].path = path;
                ok &= check_static(s, path, up, depth + 1);
            }
        } else if (!S_ISREG(st.st_mode)) {
            diag_read_error(&s->d, path, 0, 0, path, "the static file", FILE_ENOTREG, 0);
            ok = false;
        }
        free(path);
    }
    closedir(dh);
    return ok;
}

bool sources_check(site *s)
{
    const char *dirs[3] = {s->opt.content, s->opt.templates, s->opt.statics};
    static const char *const option[3] = {"--content", "--templates", "--static"};
    static const char *const holds[3] = {"the site's pages, boards and settings",
                                         "the page templates", "the static files"};
    int err[3] = {0, 0, 0};
    bool there[3] = {true, true, true};
    for (int i = 0; i < (s->opt.write ? 3 : 2); i++) /* check copies no static files */
        there[i] = is_folder(dirs[i], &err[i]);
    s->no_content = !there[0];
    if (!there[0] && err[0] == ENOENT && !there[1] && !there[2]) {
        /* nothing of a site here: one error for the one cause */
        diag_error(&s->d, NULL, 0, 0,
                   "no '%s', '%s' or '%s' folder here: run boardpress in a site's folder, or "
                   "give --content, --templates and --static",
                   dirs[0], dirs[1], dirs[2]);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < 3; i++) {
        if (there[i])
            continue;
        ok = false;
        char *near = err[i] == ENOENT ? near_folder(dirs[i]) : NULL;
        if (near) {
            diag_note why;
            diag_note_set(&why, "no such folder (it should hold %s)", holds[i]);
            diag_note_hint(&why, false, "did you mean %s %s?", option[i], near);
            diag_error_note(&s->d, dirs[i], 0, 0, &why);
        } else if (err[i] == ENOENT)
            diag_error(&s->d, dirs[i], 0, 0, "no such folder (it should hold %s; give %s DIR)",
                       holds[i], option[i]);
        else if (err[i] == ENOTDIR)
            diag_error(&s->d, dirs[i], 0, 0, "is not a folder (%s names the folder of %s)",
                       option[i], holds[i]);
        else
            diag_read_error(&s->d, dirs[i], 0, 0, dirs[i], "the folder", err[i], 0);
        free(near);
    }
    if (there[2] && s->opt.write) {
        up_dir *up = xcalloc(64, sizeof *up);
        up[0].path = (char *)dirs[2];
        if (realpath(dirs[2], up[0].real))
            ok &= check_static(s, dirs[2], up, 1);
        free(up);
    }
    return ok;
}
