/* level.h — level and chart files (SPEC §6) read into the site model's
 * bp_level and bp_chart (model/site.h): structure only; load/refs.c makes
 * their board variants. Free with level_free and chart_free. */
#ifndef BP_LEVEL_H
#define BP_LEVEL_H

#include "base/diag.h"
#include "model/site.h"

#include <stddef.h>

/* Read a level file. Returns NULL after reporting every problem. */
bp_level *level_load(const char *path, diag *d);
/* The same from text (len bytes) already read; path is for messages. */
bp_level *level_parse(const char *path, const char *text, size_t len, diag *d);

bp_chart *chart_load(const char *path, diag *d);
bp_chart *chart_parse(const char *path, const char *text, size_t len, diag *d);

#endif
