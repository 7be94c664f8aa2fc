/* results.h — measured results as JSON: the `boardpress sim` output
 * (SPEC §2) and the entries of each page's results.json. */
#ifndef BP_RESULTS_H
#define BP_RESULTS_H

#include "base/util.h"
#include "model/site.h"
#include "simcore.h"

/* The JSON key of a measure: its name plus "_s" for seconds and "_usd" for
 * money ("completion_time_s", "monthly_cost_usd"). Static string. */
const char *results_key(sim_measure m);

/* Append one board's result object: board, seed, replications, measures,
 * spread (R > 1), goals, expect and, with_trace, the trace. The second
 * hop's measures appear only for a board that has one. */
void results_json(buf *b, const bp_board *board, const sim_result *r, bool with_trace);

#endif
