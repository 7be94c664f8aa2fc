/* cache.h — the results cache: a simulation result stored under a key made
 * of everything that determines it (the resolved board with every catalog
 * default filled in, seed, replications, limits, whether a trace was kept,
 * and the simulator version), so a cached result can never be stale. A
 * rebuild after a prose edit re-simulates nothing. */
#ifndef BP_CACHE_H
#define BP_CACHE_H

#include "proof.h"
#include "simcore.h"
#include "base/diag.h"
#include "base/util.h"

#include <stdbool.h>

/* The canonical key bytes of a run (appended to key). */
void cache_key(buf *key, const sim_board *b, const sim_limits *lim, bool want_trace);

/* Whether the cache folder dir can be used (made when missing): a folder
 * this user owns, that no one else may write, and that this user can
 * write. Otherwise one warning says why (a cache another user can write
 * could publish results they planted: "not using the cache in DIR: others
 * can write it") and false: the build runs without it, as with --no-cache. */
bool cache_dir_usable(const char *dir, diag *d);

/* Read the cache file path into *data (the caller frees) when it is a
 * regular file of this user that no one else may write (another's entry
 * is a miss). Returns 0 or -1. */
int cache_read(const char *path, size_t max, char **data, size_t *len);

/* Look the run up in dir. Returns true and fills out (free with
 * sim_result_free) when a stored result has exactly this key. */
bool cache_get(const char *dir, const buf *key, sim_result *out);

/* Append a checksum of b's bytes to b (the last 8 bytes of every cache
 * file). cache_unseal checks the one at the end of data[0..*len) and takes
 * it off *len: false when it does not match (a damaged or edited file,
 * which is then a miss: never used, never blamed on the content). */
void cache_seal(buf *b);
bool cache_unseal(const char *data, size_t *len);

/* Store a result (written to a temporary file and renamed, so readers never
 * see half a file). Failures are silent: the cache is only a speed-up. */
void cache_put(const char *dir, const buf *key, const sim_result *r);

/* Proofs (proof.h): the key of proving o on board b (as sim_prove_board
 * made it) under lim; a stored proof without its trace (sim_replay of its
 * choices gives it back), read into out (free with sim_proof_free) or
 * stored as cache_get and cache_put do. */
void cache_proof_key(buf *key, const sim_board *b, const sim_limits *lim, const sim_prove_opts *o);
bool cache_get_proof(const char *dir, const buf *key, sim_proof *out);
void cache_put_proof(const char *dir, const buf *key, const sim_proof *p);

#endif
