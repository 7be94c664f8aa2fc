/* yread.h — typed values out of a ydoc tree, each problem reported at the
 * value's real position ("a list where a number belongs", units, ranges). */
#ifndef BP_YREAD_H
#define BP_YREAD_H

#include "base/diag.h"
#include "load/ydoc.h"

#include <stdbool.h>
#include <stdint.h>

/* Every reader returns 0 and stores the value, or -1 after reporting one
 * error to d. `what` names the value in messages ("jobs", "key_ttl"). */
int yread_text(const char *path, const ynode *n, const char *what, char **out, diag *d);
/* True when s is a day the calendar has, written YYYY-MM-DD (from 1900). */
bool yread_valid_day(const char *s);
int yread_id(const char *path, const ynode *n, const char *what, char **out, diag *d);
int yread_int(const char *path, const ynode *n, const char *what, int64_t min, int64_t max,
              int64_t *out, diag *d);
int yread_number(const char *path, const ynode *n, const char *what, double min, double max,
                 double *out, diag *d);
int yread_prob(const char *path, const ynode *n, const char *what, double *out, diag *d);
/* Durations; with positive set, zero is refused too. */
int yread_duration(const char *path, const ynode *n, const char *what, bool positive, int64_t *out,
                   diag *d);
int yread_money(const char *path, const ynode *n, const char *what, double *out, diag *d);
int yread_bool(const char *path, const ynode *n, const char *what, bool *out, diag *d);
int yread_enum(const char *path, const ynode *n, const char *what, const char *const *names,
               size_t count, int *out, diag *d);

/* Report n unless it is a mapping / list ("parts must be a list, found ..."). */
int yexpect(const char *path, const ynode *n, yn_type type, const char *what, diag *d);

/* Report each key of map that is not in allowed (with a spelling hint);
 * returns how many were unknown. */
int ycheck_keys(const char *path, const ynode *map, const char *what, const char *const *allowed,
                size_t n_allowed, diag *d);

/* Report a missing required key at the mapping's position. */
void ymissing(const char *path, const ynode *map, const char *key, const char *in_what, diag *d);

#endif
