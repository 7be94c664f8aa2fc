/* live.h — the board variants of a live level (a range, or a sandbox) and
 * its wire bytes cut for the page (slive, model/site.h): load/refs.c calls
 * it for each live level it loads. */
#ifndef BP_LIVE_H
#define BP_LIVE_H

#include "load/ydoc.h"
#include "model/site.h"

/* Make sl's variants from its board's tree (board_path for messages): a
 * range without a start starts at the board's own value; a level with
 * goals gets every combination (each simulated later), a sandbox only its
 * diagrams' states. Then cut the start's wire encoding into slots, one per
 * choice, and prove on every variant built (a sandbox: its diagrams' and
 * its corners' states) that putting the chosen options' bytes together
 * gives sim_wire_encode's. Returns 0, or -1 after reporting. */
int live_level_load(site *s, slevel *sl, const char *board_path, const ynode *tree);

#endif
