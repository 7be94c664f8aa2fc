/* output.h — the output folder, written atomically (SPEC §7): a new tree is
 * built beside --out and swapped in only when the whole build succeeded;
 * unchanged files are hard-linked from the previous tree instead of written;
 * boardpress refuses to replace a folder that holds files it did not write. */
#ifndef BP_OUTPUT_H
#define BP_OUTPUT_H

#include "diag.h"

#include <stddef.h>

#define OUTPUT_MANIFEST ".boardpress-manifest"

typedef struct outdir outdir;

/* Check that out may be (re)written — not "/", $HOME, a git work tree's
 * root, a source folder or a folder inside or around one, nor a folder
 * holding files boardpress did not write — remove stale temporary trees of
 * interrupted builds, and start a new tree. Returns NULL after reporting
 * (d->io is set for I/O failures). sources are the content, templates and
 * static folders. keep_dir (the cache folder, or NULL) is where the previous
 * tree is kept for the next build to recycle. */
outdir *outdir_begin(const char *out, const char *const *sources, size_t n_sources,
                     const char *keep_dir, diag *d);

/* Write one file (path relative to the output root, '/'-separated; parent
 * folders are made). Returns 0 or -1 (reported). Safe to call from several
 * threads at once (each through its own outdir_view). */
int outdir_write(outdir *o, const char *rel, const void *data, size_t len, diag *d);

/* A handle on the same new tree for one thread's writes: the manifest lists
 * files by (seq, order of writes through the handle), so a build that
 * renders pages in parallel still writes the manifest of a sequential one.
 * Free it with outdir_view_free before outdir_commit. */
outdir *outdir_view(outdir *o, size_t seq);
void outdir_view_free(outdir *v);
/* The seq of writes through o itself from now on (outdir_begin: 0). */
void outdir_set_seq(outdir *o, size_t seq);

/* Copy every regular file under src into rel_prefix (e.g. "static"),
 * refusing symlinks that lead outside src. */
int outdir_copy_tree(outdir *o, const char *src, const char *rel_prefix, diag *d);

/* Swap the new tree into place. The previous tree is kept in keep_dir, and
 * the next build recycles it as its new tree (deleting folders is slow; see
 * output.c). Returns 0 or -1 (reported; the previous site is then still in
 * place). Frees o. */
int outdir_commit(outdir *o, diag *d);

/* Give up the new tree (kept as the spare when there is a keep_dir and a
 * site, else deleted) and free o; the previous site is untouched. */
void outdir_abort(outdir *o);

/* How many files were written fresh and how many were linked unchanged. */
void outdir_counts(const outdir *o, size_t *written, size_t *unchanged);

#endif
