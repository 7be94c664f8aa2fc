/* results.h — measured results as JSON: the `boardpress sim` output
 * (docs/commands.md "boardpress sim JSON") and the entries of each page's results.json. */
#ifndef BP_RESULTS_H
#define BP_RESULTS_H

#include "base/util.h"
#include "model/site.h"
#include "simcore.h"

/* The JSON key of a measure: its name plus "_s" for seconds and "_usd" for
 * money ("completion_time_s", "monthly_cost_usd"). Static string. */
const char *results_key(sim_measure m);

/* sim_result_rate, with each interval worked out once per process: the
 * same counts come back on many pages and in every rebuild of a preview
 * (the exact intervals are the costliest part of rendering a page).
 * Safe to call from several threads. */
int results_rate(const sim_result *r, sim_measure m, sim_rate *out);

/* A deep copy of src into dst (its trace and values copied too); free
 * both with sim_result_free. */
void results_copy(sim_result *dst, const sim_result *src);

/* Append one board's result object: board, seed, replications, until (a
 * board with replications: {until}), measures, spread (R > 1), rates (each
 * fault count's rate per job with its exact interval), goals, expect,
 * deterministic, latency (how many jobs the percentiles came from) and,
 * with_trace, the trace. The second hop's measures appear only for a
 * board that has one. docs/commands.md "boardpress sim JSON" documents every field. */
void results_json(buf *b, const bp_board *board, const sim_result *r, bool with_trace);

/* Append ,"display":{NAME: TEXT, ...} to an object being written: each
 * measure's mean as the pages show it (fmt_measure), the second hop's only
 * on a board that has one. results.json and `sim --display` carry it. */
void results_display(buf *b, const bp_board *board, const sim_result *r);

/* Append a JSON array of trace entries v[0..n), one object each (t_s,
 * kind, job, part, peer, detail, copy), as `sim --trace` prints them. */
void results_trace_json(buf *b, const bp_board *board, const sim_trace_entry *v, size_t n);

/* A result to pair with: the same seed and replications, another board. */
typedef struct {
    const bp_board *board;
    const sim_result *result;
} results_pair;

/* results_json, with "paired" (this result minus pair's, replication by
 * replication) when pair is not NULL. */
void results_json_with(buf *b, const bp_board *board, const sim_result *r, bool with_trace,
                       const results_pair *pair);

#endif
