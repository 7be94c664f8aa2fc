/* journal.h — boardpress's own record of the folder trees it made: the
 * live site at --out, a build's new tree beside it, the previous site on
 * its way out, and the spare tree kept in the cache folder. One small file
 * per tree in the journal folder beside --out, .boardpress-out-NAME/ (only
 * its owner may write it), each written whole (a temporary file renamed in
 * place), changed only under the journal's lock (flock on its file lock). The output layer
 * (output.c) touches a tree only when a record names its device and inode
 * and, for every tree but the live one, a marker inside holds the record's
 * random token. */
#ifndef BP_JOURNAL_H
#define BP_JOURNAL_H

#include "base/diag.h"
#include "write/outfs.h"

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

typedef enum {
    JR_LIVE,  /* the site at --out (no marker: the site is only content) */
    JR_NEW,   /* a build's tree: only builds wrote into it */
    JR_OLD,   /* the site that was live, swapped out (or about to be) */
    JR_SPARE, /* kept in the cache folder for the next build to recycle */
} jrole;

typedef struct {
    char token[33]; /* 128 random bits in hex */
    jrole role;
    char *out;         /* --out's real path */
    uint64_t dev, ino; /* the tree's root; both 0 while it is being made */
    char *at;          /* real path where it is */
    char *next;        /* where it is about to be moved, or NULL */
    outfs_list files;  /* what it holds (JR_NEW: what it held when claimed) */
    char *name;        /* the record's file name in the journal (the token) */
} jrec;

typedef struct {
    char *dir;   /* the journal folder, beside --out */
    int fd;      /* that folder */
    int lock_fd; /* its file lock, which says who holds it ("pid N, started T") */
    bool locked;
    time_t started; /* when this build opened it, for a build that waits */
} journal;

/* Open (making it, 0700) the journal folder dir. One that is not a folder
 * owned by this user, or that others may write, is refused. Returns 0, or
 * -1 after reporting (d->io set). */
int journal_open(journal *j, const char *dir, diag *d);
void journal_close(journal *j);

/* Take the journal's lock (waiting for another build to let go of it; when
 * that takes longer than a moment, saying on stderr "waiting for the build
 * that holds SHOWN (pid N, started T); Ctrl-C stops"), and remove record
 * files half written by a build that died; and give it up. */
int journal_lock(journal *j, const char *shown);
void journal_unlock(journal *j);

/* The records of trees made for out (a real path); *n gets how many. A
 * record that cannot be read or fails a check is left out (and left
 * alone) and, when it says it is out's and damaged is not NULL, named there
 * (the first one; caller frees). The caller frees the array and each
 * record (jrec_free). */
jrec **journal_load(journal *j, const char *out, size_t *n, char **damaged);

/* Write r whole in place of its previous version. Returns 0 or -1 (errno). */
int journal_save(journal *j, const jrec *r);
/* Remove r's record. */
void journal_forget(journal *j, const jrec *r);

/* A new record with a fresh token, for a tree of out (real path). */
jrec *jrec_new(const char *out, jrole role);
void jrec_free(jrec *r);
/* Set r->at / r->next (copies; NULL clears). */
void jrec_set_at(jrec *r, const char *at);
void jrec_set_next(jrec *r, const char *next);

/* Random bytes from the kernel, as hex into dst (2 n + 1 bytes). */
void journal_random_hex(char *dst, size_t n);

#endif
