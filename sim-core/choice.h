/* choice.h — the run's random choices as a list: a proof drives the model
 * with a recorded list of choices instead of its random numbers, and reads
 * back every choice point the run met (MODEL.md "Proofs"). Internal to
 * sim-core; sampling leaves it out (sim_model.drive NULL). */
#ifndef SIM_CHOICE_H
#define SIM_CHOICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a choice point is: a fault that happens or not (counted against the
 * proof's bound), a duration taken short or long, or the traffic's own
 * chance (a legitimate repeat, and of which job). */
typedef enum { CH_FAULT, CH_TIMING, CH_TRAFFIC } sim_choice_kind;

struct sim_model;

typedef struct {
    const uint8_t *want; /* the choices to follow; past them, option 0 */
    size_t n_want;
    uint8_t *pick, *opts, *kind; /* this run's choice points, in order */
    size_t n, cap;
    int faults; /* fault options taken (option 1 of a CH_FAULT point) */
    bool oom;
#ifndef SIM_REPLAY_ONLY
    /* Called before each event of a driven run (NULL: not called), with
     * the model between events and the event it is about to handle: true
     * ends the run there (the proof knows the rest of it, proof.c). */
    bool (*at_event)(void *ctx, struct sim_model *m, const void *next);
    void *ctx;
#endif
} sim_choices;

/* The next choice of a driven run: option want[n] (0 past the list, or
 * when the list names an option the point does not have), recorded with
 * its kind and its number of options (2..255). */
uint32_t choice_take(sim_choices *c, sim_choice_kind kind, uint32_t n_options);

/* Start a run that follows want[0..n_want). */
void choice_begin(sim_choices *c, const uint8_t *want, size_t n_want);
void choice_free(sim_choices *c);

#endif
