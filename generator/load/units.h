/* units.h — quantities with units as written in boards and the catalog:
 * durations "150 ms", "10 s", "5 min", "24 h", "7 d", "forever"; money
 * "12 USD"; probabilities "0.2" or "20%"; plain counts and numbers.
 * Parsing never depends on the locale. */
#ifndef BP_UNITS_H
#define BP_UNITS_H

#include "base/diag.h"

#include <stddef.h>
#include <stdint.h>

/* Each parser returns 0 and the value, or -1 with one sentence in err (and
 * its hint, apart) and *col_off set to the offset in s where the problem
 * starts. */
int units_duration(const char *s, int64_t *us, diag_note *err, size_t *col_off);
/* Like units_duration, and also accepts "forever" (INT64_MAX). */
int units_duration_or_forever(const char *s, int64_t *us, diag_note *err, size_t *col_off);
int units_money(const char *s, double *usd, diag_note *err, size_t *col_off);
int units_probability(const char *s, double *p, diag_note *err, size_t *col_off);
int units_count(const char *s, int64_t *v, diag_note *err, size_t *col_off);
int units_number(const char *s, double *v, diag_note *err, size_t *col_off);

/* The number at the start of s: digits with an optional '-' and '.'; at most
 * 15 significant digits. Returns characters used, 0 when there is no number. */
size_t units_scan_number(const char *s, double *v);

#endif
