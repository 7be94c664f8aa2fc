/* proof.h — proofs over every way a small board can go wrong: every run in
 * which each fault opportunity happens or not (at most `faults` of them)
 * and each random duration is short or long, explored by number of faults
 * and then events, so the first counterexample is the shortest (MODEL.md
 * "Proofs"). */
#ifndef SIM_PROOF_H
#define SIM_PROOF_H

#include "simcore.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_PROVE_MAX_JOBS 8
#define SIM_PROVE_MAX_FAULTS 6

typedef struct {
    sim_measure measure; /* a fault count (sim_measure_rate_kind not NONE) */
    bool sometimes;      /* the claim: some run has measure > 0; else never (every run 0) */
    int jobs;            /* the board's traffic with this many jobs (1..8), at its rate */
    int faults;          /* at most this many faults in a run (0..6) */
    int64_t max_runs;    /* refuse a proof that needs more runs; 0: no bound */
    /* brute force, for the bench: every fault combination is run, whatever
     * the bound and whatever was found; runs and the counterexample still
     * count only the runs within the bound */
    bool brute;
    /* every run replayed to its end, no state met before counted from
     * its summary (MODEL.md "Proofs"): the plain enumeration, which the
     * tests compare the proof with; brute implies it */
    bool plain;
} sim_prove_opts;

typedef struct {
    bool holds;         /* the claim is true of every run within the bounds */
    bool found;         /* a run with measure > 0: counterexample (never), witness (sometimes) */
    int jobs, faults;   /* the bounds used */
    int64_t runs;       /* distinct runs within the bounds explored */
    int64_t executions; /* runs of the model, brute force's beyond the bounds included */
    int64_t events;     /* events over all executions */
    int64_t estimate;   /* the runs predicted before the proof (sim_prove_estimate) */
    /* the shortest run found (fewest faults, then fewest events) */
    int cx_faults;
    int64_t cx_events;
    double cx_value;  /* its measure */
    uint8_t *choices; /* its choices: replayed by sim_replay */
    size_t n_choices;
    sim_trace_entry *trace; /* its events, as sim_run's trace */
    size_t n_trace;
    bool trace_truncated;
} sim_proof;

/* The board as a proof runs it: traffic.jobs set to jobs and traffic.over
 * scaled to keep the arrival rate. b's arrays are shared, not copied. */
sim_board sim_prove_board(const sim_board *b, int jobs);

/* Prove the claim o on board b (its traffic changed by sim_prove_board).
 * Returns 0 (out filled; free with sim_proof_free), or -1 with a sentence
 * in msg: a board the model cannot run, a measure that is not a fault
 * count, bounds out of range, or a proof bigger than o->max_runs (refused
 * before it starts when the estimate is over, or when the runs pass it). */
int sim_prove(const sim_board *b, const sim_limits *lim, const sim_prove_opts *o, sim_proof *out,
              char *msg, size_t n);
void sim_proof_free(sim_proof *p);

/* What proving o on b would take, before the proof starts: *runs the
 * size of its tree of runs by Knuth's estimator (32 walks from the
 * fault-free run, MODEL.md "Proofs"; as sim_proof.estimate), *events the
 * events of those runs. Returns 0, or -1 with a sentence in msg (as
 * sim_prove). */
int sim_prove_estimate(const sim_board *b, const sim_limits *lim, const sim_prove_opts *o,
                       int64_t *runs, int64_t *events, char *msg, size_t n);

/* sim_run, with the board's random choices taken from choices[0..n_choices)
 * (each replication the same list) instead of random numbers: a proof's
 * run again, event for event; with choices NULL, sim_run itself. Returns
 * a sim_status as sim_run does. The WebAssembly module replays a
 * counterexample with it (bp_run). */
sim_status sim_run_choices(const sim_board *b, const sim_limits *lim, bool want_trace,
                           const uint8_t *choices, size_t n_choices, sim_result *out, char *msg,
                           size_t n);

/* Run board b (as sim_prove_board made it) once, with its random choices
 * taken from choices[0..n_choices) instead of random numbers: a proof's
 * counterexample, event for event (sim_run_choices). trace (NULL: none)
 * gets its events, *measures (NULL: none) each measure's value. Returns 0,
 * or -1 with a sentence in msg. */
int sim_replay(const sim_board *b, const sim_limits *lim, const uint8_t *choices, size_t n_choices,
               sim_trace_entry **trace, size_t *n_trace, double *measures, char *msg, size_t n);

#endif
