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
 * static folders. */
outdir *outdir_begin(const char *out, const char *const *sources, size_t n_sources, diag *d);

/* Write one file (path relative to the output root, '/'-separated; parent
 * folders are made). Returns 0 or -1 (reported). */
int outdir_write(outdir *o, const char *rel, const void *data, size_t len, diag *d);

/* Copy every regular file under src into rel_prefix (e.g. "static"),
 * refusing symlinks that lead outside src. */
int outdir_copy_tree(outdir *o, const char *src, const char *rel_prefix, diag *d);

/* Swap the new tree into place and delete the previous one. Returns 0 or
 * -1 (reported; the previous site is then still in place). Frees o. */
int outdir_commit(outdir *o, diag *d);

/* Delete the new tree and free o; the previous site is untouched. */
void outdir_abort(outdir *o);

/* How many files were written fresh and how many were linked unchanged. */
void outdir_counts(const outdir *o, size_t *written, size_t *unchanged);

#endif
