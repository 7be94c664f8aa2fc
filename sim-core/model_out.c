/* model_out.c — the outcomes of MODEL.md "A job's outcome": a copy acked,
 * given up or lost at its hop, and the job's final outcome once nothing of
 * it is under way. */
#include "model.h"

#include <stdlib.h>

static void outcome_time(sim_model *m)
{
    if (m->now > m->k.last_outcome_us)
        m->k.last_outcome_us = m->now;
}

static void job_final(sim_model *m, uint32_t job, uint16_t flag)
{
    m->hop[0].jf[job] |= (uint16_t)(F_DONE | flag);
    outcome_time(m);
}

static void job_success(sim_model *m, uint32_t job)
{
    if (m->hop[0].jf[job] & F_DONE)
        return; /* another copy got there first, or the publisher gave up */
    job_final(m, job, F_SUCCESS);
    m->at_us[job] = m->now - m->at_us[job];
    m->k.successes++;
}

void model_job_error(sim_model *m, uint32_t job)
{
    if (m->hop[0].jf[job] & F_DONE)
        return;
    job_final(m, job, F_ERROR);
    m->k.errors++;
}

void model_job_settle(sim_model *m, uint32_t job)
{
    const sim_hop *h = &m->hop[0];
    if (h->jf[job] & F_DONE)
        return;
    if (h->live && h->live[job] > 0)
        return; /* a copy is still under way */
    if (m->pub_model && !(m->pub_flags[job] & P_DONE))
        return; /* the publisher may still send one */
    if (h->jf[job] & F_GAVE_UP) {
        model_job_error(m, job);
    } else {
        job_final(m, job, F_DROPPED);
        m->k.dropped++;
    }
}

/* Copy c is done with at its hop: acked, given up or lost. */
static void copy_final(sim_hop *h, uint32_t c)
{
    if (h->live)
        h->live[job_of(h, c)]--;
}

void model_copy_succeeded(sim_model *m, sim_hop *h, uint32_t c)
{
    copy_final(h, c);
    if (h->index == 0) {
        job_success(m, job_of(h, c));
    } else {
        h->jf[job_of(h, c)] |= F_SUCCESS;
        outcome_time(m);
    }
}

/* The broker moves copy c, out of tries, to its dead-letter queue. */
static void dead_letter(sim_model *m, sim_hop *h, uint32_t c)
{
    trc(m, h, SIM_TR_DEAD_LETTER, c, h->dlq_part, h->t.broker, h->cur_try[c]);
    m->k.dead_lettered++;
    if (m->dl_n == m->dl_cap && !sim_grow(&m->dl_us, &m->dl_cap, sizeof *m->dl_us, 64)) {
        m->oom = true;
        return;
    }
    m->dl_us[m->dl_n++] = m->now - h->first_us[c];
}

void model_copy_gave_up(sim_model *m, sim_hop *h, uint32_t c)
{
    if (h->dlq_part >= 0)
        dead_letter(m, h, c);
    else
        trc(m, h, SIM_TR_GIVE_UP, c, h->t.sender, h->t.handler, h->cur_try[c]);
    h->jf[job_of(h, c)] |= F_GAVE_UP;
    copy_final(h, c);
    if (h->index == 0)
        model_job_settle(m, job_of(h, c));
    else
        outcome_time(m);
}

void model_copy_dropped(sim_model *m, sim_hop *h, uint32_t c, int part)
{
    trc(m, h, SIM_TR_DROPPED, c, part, -1, 0);
    copy_final(h, c);
    if (h->index == 0)
        model_job_settle(m, job_of(h, c));
    else
        outcome_time(m);
}
