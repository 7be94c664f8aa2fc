/* level.h — level and chart files (content/levels/) read into the site model's
 * bp_level and bp_chart (model/site.h): structure only; load/refs.c makes
 * their board variants. Free with level_free and chart_free. */
#ifndef BP_LEVEL_H
#define BP_LEVEL_H

#include "base/diag.h"
#include "load/board.h"
#include "load/ydoc.h"
#include "model/site.h"

#include <stddef.h>

/* Read a level file. Returns NULL after reporting every problem. */
bp_level *level_load(const char *path, diag *d);
/* The same from text (len bytes) already read; path is for messages. */
bp_level *level_parse(const char *path, const char *text, size_t len, diag *d);

/* One state of level l: a copy of its board's YAML tree (board_path; the
 * tree itself is not changed) with each choice's option opts[i] written in
 * (a negative opts[i]: the board's own value), then the n_extra settings
 * (`boardpress sim --set`), built, with the level's goals: its own when the
 * level file gives them, none and no `expect` claim for a sandbox, else
 * the board's. NULL after reporting. */
bp_board *level_variant(const bp_level *l, const int *opts, const char *board_path,
                        const ynode *tree, const board_setting *extra, size_t n_extra,
                        const bp_catalog *cat, const sim_limits *lim, diag *d);

/* The board file a level file names (board, content-relative), for the
 * level file at level_path: beside the level's folder, as in content/
 * (content/levels/x.yaml names content/boards/...). Caller frees. */
char *level_board_file(const char *level_path, const char *board);

bp_chart *chart_load(const char *path, diag *d);
bp_chart *chart_parse(const char *path, const char *text, size_t len, diag *d);

#endif
