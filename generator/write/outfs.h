/* outfs.h — file operations inside one folder tree for the output layer:
 * each is relative to a directory file descriptor and none follows a link or
 * enters another file system, so no name in a tree, or in a record of one,
 * can lead outside it. */
#ifndef BP_OUTFS_H
#define BP_OUTFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The file at the top of every tree boardpress is building or keeping (not
 * of the live site): "boardpress tree TOKEN\n". Its flock is held while a
 * build uses the tree. */
#define OUTFS_MARKER ".boardpress-tree"

/* True when rel is a relative, normalised path: no leading, trailing or
 * double '/', no "." or ".." part, no control character, under PATH_MAX. */
bool outfs_rel_ok(const char *rel);

/* What boardpress knows of a file it wrote: enough to tell that it is
 * still exactly that file (the same inode, size, bytes and time of the
 * last change). */
typedef struct {
    uint64_t ino;
    uint64_t size;    /* bytes */
    uint64_t sum;     /* hash64_words of its bytes */
    int64_t mtime_ns; /* its modification time, ns since the epoch */
} outfs_file;

/* Files a tree holds: relative path to what is known of it, in the order
 * added. */
typedef struct {
    char **rel;
    outfs_file *file;
    size_t n, cap;
    size_t *slots; /* open addressing: index + 1 into rel, 0 = free */
    size_t n_slots;
} outfs_list;

/* A file's modification time as outfs_file keeps it. */
int64_t outfs_mtime_ns(const struct stat *st);

/* Add (or, for a path already there, update) a file. */
void outfs_list_add(outfs_list *l, const char *rel, const outfs_file *f);
/* What is known of rel, or NULL when it is not listed. */
const outfs_file *outfs_list_get(const outfs_list *l, const char *rel);
void outfs_list_free(outfs_list *l);

typedef enum {
    OUTFS_OPEN,       /* open only */
    OUTFS_MAKE,       /* make missing parts (0755 less the umask) */
    OUTFS_MAKE_CHMOD, /* make them 0755 whatever the umask: the caller tells, as the
                         umask cannot be read without setting it (threads) */
} outfs_make;

/* Open the folder rel[0..n) below root (n 0: root itself, reopened), one
 * part at a time without following links, making missing parts as make
 * says. Returns a descriptor or -1 (errno). */
int outfs_open_dir(int root, const char *rel, size_t n, outfs_make make);

/* How closely outfs_check compares a tree with its list. */
typedef enum {
    OUTFS_INODES, /* each file the listed inode; folders any mode, empty ones fine (a
                     tree of builds only, in the cache folder) */
    OUTFS_STATUS, /* and each file's size, mode 0644 and modification time; every
                     folder 0755 and on the way to a listed file (a site) */
    OUTFS_BYTES,  /* and each file's bytes against its checksum */
} outfs_level;

/* Walk the tree below root. Returns 0 when it holds only what list says
 * (as closely as level asks; the marker at the top when marker_ok), 1 with
 * *found (the caller frees) naming the first entry that is not and *why
 * saying how ("was not written by boardpress", ...), -1 (errno) when it
 * cannot be read. With fix_modes, folders whose mode is not 0755 are set
 * to it (a tree about to be recycled), and one that cannot be counts as
 * found. */
int outfs_check(int root, const outfs_list *list, outfs_level level, bool marker_ok, bool fix_modes,
                char **found, const char **why);

/* Remove every folder below root that is not on the way to a listed file
 * and holds no file (deepest first). Returns 0, or -1 (errno) with *kept
 * naming what could not be removed (the caller frees). */
int outfs_prune(int root, const outfs_list *list, char **kept);

/* Remove what is below root: everything when list is NULL (a tree only a
 * build wrote into), else only the listed files with their inode and the
 * folders that end up empty; the marker goes last, and only when nothing
 * else is left. Returns 0 when root is empty now, 1 when something was
 * kept (*kept names the first), -1 (errno) when a removal failed (*kept
 * names what could not be removed). The caller frees *kept. */
int outfs_empty(int root, const outfs_list *list, char **kept);

/* unlinkat of rel (a path below root: flags 0 for a file, AT_REMOVEDIR for
 * an empty folder) through its folder's descriptor. Returns 0 or -1. */
int outfs_unlink(int root, const char *rel, int flags);

/* Remove the folder name in parent when it is still the (empty) folder of
 * that device and inode. Returns 0 or -1 (errno). */
int outfs_rmdir(int parent, const char *name, dev_t dev, ino_t ino);

#endif
