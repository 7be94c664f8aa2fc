/* range.h — a level choice's `range: {min, max, step}` (a slider, docs/levels.md
 * "Sliders and sandboxes"): read against the setting it changes (a count, a number, a
 * probability, a duration or money, with its unit) and turned into the
 * choice's options, one per value from min to max, each valued as
 * `--set` takes it and labelled as the page shows it. */
#ifndef BP_RANGE_H
#define BP_RANGE_H

#include "base/diag.h"
#include "load/ydoc.h"
#include "model/site.h"

/* Read the range node r of choice ch (whose set path is read already)
 * into ch->options, and `start` (may be NULL: ch->start becomes -1, the
 * board's own value). Returns 0, or -1 after reporting each problem at
 * its position: a setting that takes no number, a bound in another unit,
 * min above max, a step that is not above zero or does not divide max -
 * min, more than LEVEL_MAX_STEPS values, a start that is not one of them. */
int range_read(const char *path, const ynode *r, const ynode *start, bp_choice *ch, diag *d);

#endif
