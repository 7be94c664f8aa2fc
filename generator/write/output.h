/* output.h — the output folder, written atomically: a new tree is built
 * beside --out and swapped in only when the whole build succeeded, so a
 * reader never sees half a site; unchanged files are hard-linked from the
 * previous tree instead of written. boardpress touches only trees its
 * journal (journal.h) proves it made, and refuses to replace a folder
 * holding anything it did not write.
 *
 * Speed (docs/architecture.md "Performance"): deleting a folder is the slowest thing a
 * build can ask of the file system (ext4 mounted with `discard` frees each
 * folder's block synchronously), so the previous tree is not deleted after
 * the swap but kept in the cache folder (spare-NAME-TOKEN) and recycled as
 * the next build's new tree: its folders stay, unchanged files are hard
 * links shared with the live tree, and a rebuild only replaces what
 * changed. Writes may come from several threads; the journal lists files in
 * the deterministic order of the (seq, sub) of each write. */
#ifndef BP_OUTPUT_H
#define BP_OUTPUT_H

#include "base/diag.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct outdir outdir;

typedef struct {
    const char *out;            /* --out as given */
    const char *const *sources; /* the content, templates and static folders */
    size_t n_sources;
    const char *cache; /* the results cache, also where the spare tree is kept; NULL: none */
} outdir_options;

/* The journal of what boardpress wrote into --out is the folder
 * PARENT/.boardpress-out-NAME beside it (journal.h): the proof belongs to
 * --out, and the cache is only a cache. */
#define OUTDIR_JOURNAL_PREFIX ".boardpress-out-"

/* The checks that need no build, made before anything else is done: the
 * cache folder is not a source folder or inside one, and, when write, not
 * --out, inside it or around it; --out is not "/", $HOME, a git work tree's
 * root, a source folder or a folder inside or around one, a mount point,
 * read-only, or something other than a folder. Returns 0, or -1 after
 * reporting (d->io set for I/O failures). */
int outdir_check(const outdir_options *o, bool write, diag *d);

/* Start a new tree for --out: first put right what builds that died left
 * (their trees, a swap cut off half way), then check that --out, when it
 * exists, is the site the journal records (or an empty folder) and holds
 * nothing else, then recycle the spare tree or make a new one. Returns NULL
 * after reporting (d->io is set for I/O failures). */
outdir *outdir_begin(const outdir_options *o, diag *d);

/* Write one file (path relative to the output root, '/'-separated; parent
 * folders are made). Returns 0 or -1 (reported). Safe to call from several
 * threads at once (each through its own outdir_view). */
int outdir_write(outdir *o, const char *rel, const void *data, size_t len, diag *d);

/* A handle on the same new tree for one thread's writes: the journal lists
 * files by (seq, order of writes through the handle), so a build that
 * renders pages in parallel still records what a sequential one does.
 * Free it with outdir_view_free before outdir_commit. */
outdir *outdir_view(outdir *o, size_t seq);
void outdir_view_free(outdir *v);
/* The seq of writes through o itself from now on (outdir_begin: 0). */
void outdir_set_seq(outdir *o, size_t seq);

/* Copy every regular file under src into rel_prefix (e.g. "static"),
 * refusing symlinks that lead outside src and names with control
 * characters. */
int outdir_copy_tree(outdir *o, const char *src, const char *rel_prefix, diag *d);

/* Delete what the recycled tree held that this build did not write, then
 * swap the new tree into place. The previous tree is kept in the cache
 * folder for the next build to recycle (deleting folders is slow; see
 * output.c), or deleted. Returns 0 or -1 (reported; the previous site is
 * then still in place). Frees o. */
int outdir_commit(outdir *o, diag *d);

/* Give up the new tree (kept as the spare when there is a cache folder,
 * else deleted) and free o; the previous site is untouched. */
void outdir_abort(outdir *o);

/* Call each(ctx, rel) for every file whose bytes the swap will change:
 * written anew (different bytes, or a file the live site lacks) and files
 * of the live site this build did not write (they go). Unchanged files
 * are the live site's own (the same inode): they are left out. Before
 * outdir_commit, after the last write; in no particular order. */
void outdir_changes(const outdir *o, void (*each)(void *ctx, const char *rel), void *ctx);

/* How many files were written fresh and how many were linked unchanged. */
void outdir_counts(const outdir *o, size_t *written, size_t *unchanged);

#endif
