/* claim.c — a board's `expect:`: what the page claims the simulator
 * measures (pass or fail), or a claim proved over every run of a few of its
 * jobs ({never: duplicates, jobs: 3, faults: 2}; sim-core/proof.h). */
#include "load/board.h"
#include "load/yread.h"
#include "proof.h"

#include <string.h>

static const char *const claim_keys[] = {"never", "sometimes", "jobs", "faults"};

void board_read_expect(bp_board *b, const char *path, const ynode *v, diag *d)
{
    b->expect_pos.line = v->line;
    b->expect_pos.col = v->col;
    if (v->type != YN_MAP) {
        static const char *const names[] = {"pass", "fail"};
        int e;
        if (yread_enum(path, v, "expect", names, 2, &e, d) == 0)
            b->sim.expect = e == 0 ? SIM_EXPECT_PASS : SIM_EXPECT_FAIL;
        return;
    }
    ycheck_keys(path, v, "a claim", claim_keys, 4, d);
    const ynode *never = ymap_get(v, "never"), *some = ymap_get(v, "sometimes");
    if (never && some) {
        diag_error(d, path, some->line, some->col,
                   "a claim is never or sometimes, not both; make it two boards");
        return;
    }
    const ynode *mn = never ? never : some;
    if (!mn) {
        diag_error(d, path, v->line, v->col,
                   "a claim names its measure: {never: duplicates, jobs: 3, faults: 2} or "
                   "{sometimes: duplicates, ...}");
        return;
    }
    /* the fault counts a proof can check, in the measures' order */
    const char *names[SIM_M_COUNT];
    int measures[SIM_M_COUNT];
    size_t n = 0;
    for (int m = 0; m < SIM_M_COUNT; m++)
        if (sim_measure_rate_kind((sim_measure)m) != SIM_RATE_NONE) {
            measures[n] = m;
            names[n++] = sim_measure_name((sim_measure)m);
        }
    int at;
    if (yread_enum(path, mn, "measure", names, n, &at, d) != 0)
        return;
    int64_t jobs = 3, faults = 2;
    const ynode *jn = ymap_get(v, "jobs"), *fn = ymap_get(v, "faults");
    if (jn && yread_int(path, jn, "jobs", 1, SIM_PROVE_MAX_JOBS, &jobs, d) != 0)
        return;
    if (fn && yread_int(path, fn, "faults", 0, SIM_PROVE_MAX_FAULTS, &faults, d) != 0)
        return;
    if (!sim_measure_on(&b->sim, (sim_measure)measures[at]) && sim_board_hops(&b->sim) > 0) {
        diag_error(d, path, mn->line, mn->col, "%s needs a board with %s", names[at],
                   sim_measure_hop((sim_measure)measures[at]) > 1 ? "two hops"
                                                                  : "a dead-letter queue");
        return;
    }
    b->claim = (bp_claim){true, some != NULL, (sim_measure)measures[at], (int)jobs, (int)faults};
}

sim_prove_opts board_claim_opts(const bp_claim *c)
{
    return (sim_prove_opts){c->measure, c->sometimes, c->jobs, c->faults, 0, false, false};
}
