/* simulate.h — the run stage of a build: every board variant of the site
 * model simulated once, within a budget of work; then the claims the
 * content makes about the results checked against them. */
#ifndef BP_SIMULATE_H
#define BP_SIMULATE_H

#include "model/site.h"

#include <stdint.h>

/* Simulate every board variant of the site once (a board file, each level
 * combination and chart point): the work is bounded before anything runs
 * and while it runs; cached results are used; failures are reported.
 * Each variant's result goes into its bp_variant. */
void simulate_site(site *s);

/* A variant's share of a build's budget of events: budget × bound ÷ total
 * (total: the sum of every variant's bound), at most max_each. The shares
 * of all variants sum to at most budget, and when total fits the budget no
 * share is below its bound. */
int64_t simulate_event_share(int64_t bound, int64_t total, int64_t budget, int64_t max_each);

/* After simulate_site: report every board whose `expect:` the measurement
 * contradicts, and every level that cannot be won or is won at the start. */
void simulate_check_claims(site *s);

/* The faults of a proof's counterexample, in the order they happen, for
 * the author ("a crash at processor (job 1, 0.512 s), a lost reply
 * processor -> broker (job 2, ...)") or the reader ("a crash of the Payment
 * processor (payment 1, 0.512 s)"), or "no fault at all". */
void simulate_fault_words(buf *w, const bp_board *bb, const sim_proof *p, bool reader);

#endif
