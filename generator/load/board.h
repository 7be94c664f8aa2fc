/* board.h — boards and the catalog loaded from YAML (board.c, catalog.c)
 * into the site model's bp_board and bp_catalog (model/site.h), with --set
 * style overrides for levels, charts and `boardpress sim`. */
#ifndef BP_BOARD_H
#define BP_BOARD_H

#include "base/diag.h"
#include "load/fields.h"
#include "load/ydoc.h"
#include "model/site.h"
#include "proof.h"
#include "simcore.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Jobs times replications: the work one board may ask the simulator for
 * (about 15 s at 9 million events a second on one core). */
#define BOARD_MAX_JOB_RUNS 20000000
/* The longest short name (bytes): four of them side by side fit a phone. */
#define BOARD_SHORT_MAX 24

/* ------------------------------------------------------------ loading */

/* Read and check a catalog file. Returns NULL after reporting every problem
 * (missing file: one error). Free with catalog_free. */
bp_catalog *catalog_load(const char *path, diag *d);
bp_catalog *catalog_parse(const char *path, const char *text, size_t len, diag *d);
/* Field f's default from its schema.h row (f->def, f->def_source) as the
 * catalog value of section (a part kind or protocol): read into target,
 * added to c's values with its source and returned; NULL with the error in
 * d (at sim-core/schema.h) when the row's text does not read. catalog_parse
 * calls it for every setting a section leaves out that has a default. */
const bp_catalog_value *catalog_row_default(bp_catalog *c, const char *section, const field_def *f,
                                            void *target, diag *d);

/* Build a board from a parsed YAML tree (see ydoc.h) against a catalog;
 * every problem of the file is reported. Returns NULL on error. */
bp_board *board_from_tree(const char *path, const ynode *root, const bp_catalog *cat,
                          const sim_limits *lim, diag *d);
/* Read, parse and build a board file. */
bp_board *board_load(const char *path, const bp_catalog *cat, const sim_limits *lim, diag *d);
/* The most replications the board may run: with replications: {until}, its
 * max, else its number. */
int board_max_replications(const bp_board *b);

/* Read a board's expect: `pass` or `fail` into b->sim.expect, or a claim
 * to prove, {never: MEASURE, jobs: N, faults: K} (or sometimes:), into
 * b->claim (claim.c); problems are reported to d. */
void board_read_expect(bp_board *b, const char *path, const ynode *v, diag *d);
/* The prover's options for a board's claim: its measure, never or
 * sometimes, and its jobs and faults. */
sim_prove_opts board_claim_opts(const bp_claim *c);

/* The keys a board file and its traffic take, in the loader's order (for
 * the reference, boardpress help). Static; never freed. */
const char *const *board_top_keys(size_t *n);
const char *const *board_traffic_keys(size_t *n);

/* Read a goals mapping ({measure: {max: V, min: V}}) into goals and pos
 * (arrays of SIM_M_COUNT). */
void board_read_goals(const char *path, const ynode *gn, sim_goal *goals, bp_pos *pos, diag *d);

/* Override one setting in a board's YAML tree before it is built:
 * expr is "parts.ID.FIELD", "links.FROM.TO.FIELD", "traffic.FIELD", "seed"
 * or "replications"; value is YAML text. src/line/col say where the
 * override was written (a level file, or "--set"), for messages. */
int board_override(const char *board_path, ynode *root, const char *expr, const char *value,
                   const char *src, int line, int col, diag *d);
/* The same, with problems of the path (no such part) reported at path_pos
 * and problems of the value (unknown policy) at value_pos. */
int board_override_at(const char *board_path, ynode *root, const char *expr, const char *value,
                      const char *src, bp_pos path_pos, bp_pos value_pos, diag *d);

/* One setting written into a board before it is built: expr and value as
 * for board_override_at, src where it was written (a level or chart file,
 * or "--set"), set_pos and pos the positions of the path and the value. */
typedef struct {
    const char *set;
    const char *value;
    const char *src;
    bp_pos set_pos, pos;
} board_setting;

/* A copy of a board file's tree (not changed) with the n settings written
 * in, built. Returns NULL after reporting. */
bp_board *board_variant(const char *board_path, const ynode *tree, const board_setting *set,
                        size_t n, const bp_catalog *cat, const sim_limits *lim, diag *d);

#endif
