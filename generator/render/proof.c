/* proof.c — {{ proof ID }}: what a board's claim proved, in the reader's
 * words, with the numbers of the proof (runs, jobs, faults) and one
 * sentence of what it covers and what not (sim-core/MODEL.md "Proofs"). */
#include "render/render_internal.h"


#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "no payment is charged twice": the claim's measure at 0, said of one
 * unit of the board's traffic. */
static void never_words(buf *out, const bp_board *b, sim_measure m)
{
    const char *noun = board_noun(b, false);
    const char *verb = b->sim.traffic.op == SIM_OP_SET ? "written" : "charged";
    switch (m) {
    case SIM_M_DUPLICATES:
    case SIM_M_CHARGED_TWICE:
        buf_printf(out, "no %s is %s twice", noun, verb);
        break;
    case SIM_M_LOST_WRITES:
        buf_printf(out, "no %s is lost: every one takes effect", noun);
        break;
    case SIM_M_ERRORS:
        buf_printf(out, "no %s ends in an error", noun);
        break;
    case SIM_M_LOST_EVENTS:
        buf_printf(out, "no %s that takes effect fails to send its event on", noun);
        break;
    case SIM_M_GHOST_EVENTS:
        buf_printf(out, "no event reaches the next service for a %s whose change was undone",
                   noun);
        break;
    case SIM_M_DOWNSTREAM_DUPLICATES:
        buf_puts(out, "no event is applied twice by the next service");
        break;
    case SIM_M_DOWNSTREAM_LOST_WRITES:
        buf_puts(out, "every event that reaches the next service takes effect there");
        break;
    case SIM_M_DOWNSTREAM_ERRORS:
        buf_puts(out, "the next service never gives up on an event");
        break;
    case SIM_M_DEAD_LETTERED:
        buf_printf(out, "no %s ends in the dead-letter queue", noun);
        break;
    default:
        buf_printf(out, "%s stays at 0", sim_measure_name(m));
        break;
    }
}

/* A count with its thousands grouped: "697,472". */
static void count_words(buf *out, int64_t v)
{
    char d[32];
    int n = snprintf(d, sizeof d, "%lld", (long long)v);
    for (int i = 0; i < n; i++) {
        if (i > 0 && d[i - 1] != '-' && (n - i) % 3 == 0)
            buf_putc(out, ',');
        buf_putc(out, d[i]);
    }
}

static bool chance(double p)
{
    return p > 0 && p < 1;
}

/* The kinds of fault the board can meet, as the proof chooses them:
 * "lost messages, crashes or failed calls" (empty: none). */
void proof_fault_kinds(buf *out, const bp_board *b)
{
    bool lost = false, crash = false, failed = false;
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        lost |= chance(l->lose_request) || chance(l->lose_reply);
    }
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        const sim_part *p = &b->sim.parts[i];
        crash |= chance(p->crash_after_effect) || chance(p->crash_after_commit);
        failed |= chance(p->fail);
    }
    const char *kinds[3];
    size_t n = 0;
    if (lost)
        kinds[n++] = "lost messages";
    if (crash)
        kinds[n++] = "crashes";
    if (failed)
        kinds[n++] = "failures";
    for (size_t i = 0; i < n; i++)
        buf_printf(out, "%s%s", i == 0 ? "" : i + 1 == n ? " or " : ", ", kinds[i]);
}

/* The one sentence of what a proof of jobs and faults covers and not. */
void proof_scope(buf *out, const bp_board *b, int jobs, int faults)
{
    buf_printf(out,
               "The proof tries every wait, work and network time at two values, its typical "
               "one and its slow one (the median and the 99th percentile), in every order "
               "they give; other times, more than %d %s and more than %d fault%s are covered "
               "only by the measured numbers.",
               jobs, board_noun(b, jobs != 1), faults, faults == 1 ? "" : "s");
}

/* The board of {{ DIRECTIVE ID }} with a claim, proved; else NULL after
 * reporting. */
sboard *proof_board(page_ctx *pc, const ph_at *a, word *w, size_t n, const char *directive)
{
    char msg[512];
    if (n != 2) {
        snprintf(msg, sizeof msg, "%s takes one board id: {{ %s ID }}", directive, directive);
        expand_err_word(a, &w[0], msg);
        return NULL;
    }
    char *id = expand_word_str(&w[1]);
    sboard *b = expand_page_board(pc, id);
    if (!b) {
        expand_err_unlisted(a, &w[1], id, "board");
        free(id);
        return NULL;
    }
    free(id);
    bool want_sometimes = strcmp(directive, "counterexample") == 0;
    const bp_claim *c = &b->board->claim;
    if (!c->present || c->sometimes != want_sometimes) {
        snprintf(msg, sizeof msg,
                 "{{ %s %s }} needs a board that claims expect: {%s: duplicates, jobs: 3, "
                 "faults: 2} (or another count)%s",
                 directive, b->board->id, want_sometimes ? "sometimes" : "never",
                 !c->present ? ""
                 : want_sometimes
                     ? "; this board's claim is 'never': show it with {{ proof ID }}"
                     : "; this board's claim is 'sometimes': draw it with {{ counterexample ID }}");
        expand_err_word(a, &w[1], msg);
        return NULL;
    }
    if (!b->proved) { /* its proof failed: the build has said why */
        return NULL;
    }
    return b;
}

int expand_proof(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    sboard *b = proof_board(pc, a, w, n, "proof");
    if (!b)
        return -1;
    const bp_board *bb = b->board;
    const sim_proof *p = &b->proof;
    buf t;
    buf_init(&t);
    buf_puts(&t, "Proved: in every one of the ");
    count_words(&t, p->runs);
    buf_printf(&t, " ways %d %s can meet ", p->jobs, board_noun(bb, p->jobs != 1));
    if (p->faults == 0) {
        buf_puts(&t, "no fault");
    } else {
        buf_printf(&t, "up to %d fault%s", p->faults, p->faults == 1 ? "" : "s");
        buf k;
        buf_init(&k);
        proof_fault_kinds(&k, bb);
        if (k.len)
            buf_printf(&t, " (%s)", k.data);
        buf_free(&k);
    }
    buf_puts(&t, ", ");
    never_words(&t, bb, bb->claim.measure);
    buf_puts(&t, ". ");
    proof_scope(&t, bb, p->jobs, p->faults);
    buf_puts(out, "<p class=\"bp-proof\" data-board=\"");
    buf_html_s(out, bb->id);
    buf_printf(out, "\" data-runs=\"%lld\">", (long long)p->runs);
    buf_html(out, t.data, t.len);
    buf_puts(out, "</p>\n");
    buf_free(&t);
    return 0;
}
