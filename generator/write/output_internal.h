/* output_internal.h — what output.c (the outdir API: writing, commit),
 * outcheck.c (the checks before a build, paths) and outtree.c (the trees
 * the journal proves boardpress owns: identity, recovery, claiming, the
 * swap) share. */
#ifndef BP_OUTPUT_INTERNAL_H
#define BP_OUTPUT_INTERNAL_H

#include "base/diag.h"
#include "write/journal.h"
#include "write/outfs.h"
#include "base/util.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
typedef struct {
    size_t seq, sub;
    char *rel;
    outfs_file f;
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
    bool chmod_needed;     /* the umask takes bits off 0644 */
    bool dir_chmod_needed; /* ... or off 0755 */
    size_t written, linked;
    pthread_mutex_t lock;
} outcore;

/* Paths (outcheck.c): the real path of path, which need not exist yet
 * (its parent must; NULL and errno otherwise, *dangling for a link that
 * leads nowhere; caller frees); a is b or inside it; s holds a control
 * character. */
char *outpath_resolve(const char *path, bool *dangling);
bool outpath_within(const char *a, const char *b);
bool outpath_has_control(const char *s);

/* Paths: the folder of path ("." or "/" at the top; caller frees), its last
 * part, and dir/name (caller frees). */
char *outtree_parent_of(const char *path);
const char *outtree_base_of(const char *path);
char *outtree_join(const char *dir, const char *name);

/* Load the records of --out and put right what builds that died left
 * (journal locked); entries are NULL where a record was forgotten. Free
 * with outtree_free_recs. damaged as journal_load. */
jrec **outtree_load(outcore *c, size_t *n, char **damaged);
void outtree_free_recs(jrec **recs, size_t n);

/* What is in --out now (journal locked): 0 when it is missing (*fd_out -1)
 * or is ours (*live its record, NULL for an empty folder taken over; *fd_out
 * open on it, *st its status), -1 after reporting. level says how closely
 * each entry is checked against the record (outfs_check). */
int outtree_inspect_out(outcore *c, jrec **recs, size_t n, const char *damaged, outfs_level level,
                        jrec **live, int *fd_out, struct stat *st, diag *d);

/* Claim the spare tree as c's new tree, or make a new one beside --out
 * (journal locked). claim: true when claimed; make: 0 or -1 (errno). */
bool outtree_claim_spare(outcore *c, jrec **recs, size_t n);
int outtree_make(outcore *c);

/* Move tree r (at its record's place beside --out) into the cache folder as
 * the spare, when spares are kept and there is none yet (journal locked). */
bool outtree_make_spare(outcore *c, jrec *r, jrec **recs, size_t n);

/* Remove the tree fd of record r — all of it when whole, else only what r
 * lists — and forget r when it is gone. 0; 1 when it holds what r does not
 * list; -1 (errno) when a removal failed (r kept for the next build). *kept
 * (caller frees) names what is left. */
int outtree_remove(outcore *c, jrec *r, int fd, bool whole, char **kept);

/* The new tree's top folder gets st's owner, group and mode (NULL: 0755). */
void outtree_take_attrs(outcore *c, const struct stat *st);

/* Swap the new tree in for the folder at --out (xfd, record x; NULL when
 * there is none), recording each step first (journal locked). *xmarker gets
 * the marker made in x. Returns 0 or -1 (errno; nothing changed). */
int outtree_swap_in(outcore *c, jrec *x, int xfd, int *xmarker);

#endif
