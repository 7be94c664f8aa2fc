/* gen_testlib.h — helpers for the generator's unit tests: temporary folders
 * with small sites written into them, file reading, stderr capture, and
 * YAML parsed with messages collected in a diag. */
#ifndef GEN_TESTLIB_H
#define GEN_TESTLIB_H

#include "base/diag.h"
#include "load/ydoc.h"

#include <stddef.h>

/* A new empty folder under $TMPDIR (or /tmp); the caller frees the path
 * and removes the folder with gt_rm_rf. Fails the test on error. */
char *gt_tempdir(void);

/* Write text to dir/rel, making parent folders. Fails the test on error. */
void gt_write(const char *dir, const char *rel, const char *text);

/* Copy the file src to dir/rel. Fails the test on error. */
void gt_copy(const char *src, const char *dir, const char *rel);

/* The whole file (caller frees), or NULL when it cannot be read. */
char *gt_read(const char *path, size_t *len);

/* Remove a folder tree (no-op when it does not exist). */
void gt_rm_rf(const char *dir);

/* Regular files under dir, recursively (hidden files included). */
size_t gt_count_files(const char *dir);

/* Send stderr into a file until gt_stderr_end, which returns what was
 * written (caller frees). Not nestable. */
void gt_stderr_begin(void);
char *gt_stderr_end(void);

/* Parse YAML text as "t.yaml" with messages collected in d (which the
 * caller set up with diag_init(d, NULL)). */
ynode *gt_yaml(const char *text, diag *d);

/* Number of times needle occurs in hay. */
size_t gt_count(const char *hay, const char *needle);

#endif
