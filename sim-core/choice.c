/* choice.c — the recorded list of a driven run's choices (choice.h). */
#include "choice.h"
#include "sim_internal.h"

#include <stdlib.h>

uint32_t choice_take(sim_choices *c, sim_choice_kind kind, uint32_t n_options)
{
    uint32_t pick = c->n < c->n_want ? c->want[c->n] : 0;
    if (pick >= n_options)
        pick = 0;
#ifdef SIM_REPLAY_ONLY /* the WebAssembly module replays, never proves: nothing to record */
    (void)kind;
    c->n++;
    return pick;
#endif
    if (n_options > 255)
        n_options = 255;
    if (c->n == c->cap) {
        size_t cap = sim_grown_cap(c->cap, 64);
        if (!sim_resize(&c->pick, cap, 1) || !sim_resize(&c->opts, cap, 1) ||
            !sim_resize(&c->kind, cap, 1)) {
            c->oom = true;
            return pick;
        }
        c->cap = cap;
    }
    c->pick[c->n] = (uint8_t)pick;
    c->opts[c->n] = (uint8_t)n_options;
    c->kind[c->n] = (uint8_t)kind;
    c->n++;
    if (kind == CH_FAULT && pick)
        c->faults++;
    return pick;
}

void choice_begin(sim_choices *c, const uint8_t *want, size_t n_want)
{
    c->want = want;
    c->n_want = n_want;
    c->n = 0;
    c->faults = 0;
    c->oom = false;
}

void choice_free(sim_choices *c)
{
    free(c->pick);
    free(c->opts);
    free(c->kind);
    c->pick = c->opts = c->kind = NULL;
    c->n = c->cap = 0;
}
