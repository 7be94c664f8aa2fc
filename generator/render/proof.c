/* proof.c — {{ proof ID }}: what a board's claim proved, in the reader's
 * words, with the numbers of the proof (runs, jobs, faults) and one
 * sentence of what it covers and what not (sim-core/MODEL.md "Proofs"). */
#include "render/render_internal.h"
#include "draw/figures.h"
#include "run/simulate.h"
#include "wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The claim's measure said of one unit of the board's traffic: at 0 for
 * never ("no payment is charged twice"), above 0 for sometimes ("a payment
 * is charged twice"). */
static void claim_words(buf *out, const bp_board *b, sim_measure m, bool some)
{
    const char *noun = board_noun(b, false);
    const char *verb = board_verb(b);
    const char *a = !some ? "no" : strchr("aeiou", noun[0]) ? "an" : "a";
    const char *an = some ? "an" : "no";
    switch (m) {
    case SIM_M_DUPLICATES:
    case SIM_M_CHARGED_TWICE:
        buf_printf(out, "%s %s is %s twice", a, noun, verb);
        break;
    case SIM_M_LOST_WRITES:
        buf_printf(out, "%s %s is lost%s", a, noun, some ? "" : ": every one takes effect");
        break;
    case SIM_M_ERRORS:
        buf_printf(out, "%s %s ends in an error", a, noun);
        break;
    case SIM_M_LOST_EVENTS:
        if (some)
            buf_printf(out, "%s %s is recorded but its event never reaches the next service", a,
                       noun);
        else
            buf_printf(out, "no %s is recorded without its event reaching the next service",
                       noun);
        break;
    case SIM_M_GHOST_EVENTS:
        buf_printf(out, "%s event reaches the next service for a %s whose change was undone", an,
                   noun);
        break;
    case SIM_M_DOWNSTREAM_DUPLICATES:
        buf_printf(out, "%s event is applied twice by the next service", an);
        break;
    case SIM_M_DOWNSTREAM_LOST_WRITES:
        buf_puts(out, some ? "an event that reaches the next service takes no effect there"
                           : "every event that reaches the next service takes effect there");
        break;
    case SIM_M_DOWNSTREAM_ERRORS:
        buf_printf(out, "the next service %s up on an event", some ? "gives" : "never gives");
        break;
    case SIM_M_DEAD_LETTERED:
        buf_printf(out, "%s %s ends in the dead-letter queue", a, noun);
        break;
    default:
        buf_printf(out, "%s %s 0", sim_measure_name(m), some ? "is above" : "stays at");
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
    buf k;
    buf_init(&k);
    proof_fault_kinds(&k, b);
    buf_printf(out,
               "The proof tries every wait, work and network time at two values, its typical "
               "one and its slow one (the median and the 99th percentile), in every order "
               "they give; other times, more than %d %s",
               jobs, board_noun(b, jobs != 1));
    if (faults == 0 || k.len == 0)
        buf_puts(out, " and any lost message or crash");
    else
        buf_printf(out, " and more than %d fault%s", faults, faults == 1 ? "" : "s");
    buf_puts(out, " are covered only by the measured numbers.");
    buf_free(&k);
}

/* "3 payments can meet up to 2 faults (lost messages or crashes)", or
 * without a fault to meet "the times of 3 payments can fall, with nothing
 * lost and no crash": what a proof of jobs and faults on b runs through. */
static void meet_words(buf *t, const bp_board *b, int jobs, int faults)
{
    buf k;
    buf_init(&k);
    proof_fault_kinds(&k, b);
    if (faults == 0 || k.len == 0)
        buf_printf(t, "the times of %d %s can fall, with nothing lost and no crash", jobs,
                   board_noun(b, jobs != 1));
    else
        buf_printf(t, "%d %s can meet up to %d fault%s (%s)", jobs, board_noun(b, jobs != 1),
                   faults, faults == 1 ? "" : "s", k.data);
    buf_free(&k);
}

/* "697,472 ways 3 payments can meet ...": the runs of proof p on board b. */
static void ways_words(buf *t, const bp_board *b, const sim_proof *p)
{
    count_words(t, p->runs);
    buf_printf(t, " way%s ", p->runs == 1 ? "" : "s");
    meet_words(t, b, p->jobs, p->faults);
}

/* The board of {{ DIRECTIVE ID }} with a claim, proved; else NULL after
 * reporting. */
bp_variant *proof_board(page_ctx *pc, const ph_at *a, word *w, size_t n, const char *directive)
{
    char msg[512];
    if (n != 2) {
        snprintf(msg, sizeof msg, "%s takes one board id: {{ %s ID }}", directive, directive);
        expand_err_word(a, &w[0], msg);
        return NULL;
    }
    char *id = expand_word_str(&w[1]);
    bp_variant *b = expand_page_board(pc, id);
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

/* The proof of {{ DIRECTIVE ID }}'s board, and the board in *bb; NULL
 * after reporting (proof_board). */
static const sim_proof *proof_of(page_ctx *pc, const ph_at *a, word *w, size_t n,
                                 const char *directive, bp_variant **sb, const bp_board **bb)
{
    *sb = proof_board(pc, a, w, n, directive);
    if (!*sb)
        return NULL;
    *bb = (*sb)->board;
    return &(*sb)->proof;
}

int expand_proof(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    bp_variant *b;
    const bp_board *bb;
    const sim_proof *p = proof_of(pc, a, w, n, "proof", &b, &bb);
    if (!p)
        return -1;
    buf t;
    buf_init(&t);
    buf_puts(&t, "Proved: in every one of the ");
    ways_words(&t, bb, p);
    buf_puts(&t, ", ");
    claim_words(&t, bb, bb->claim.measure, false);
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

/* What the page's replay of the counterexample needs (bp-replay.js): the
 * proof's board as the module reads it, with a trace (data-wire, base64)
 * and the run's choices (data-choices, a digit each); the words of its
 * events are the timeline's rows (figure_timeline_rows). */
static void replay_data(buf *out, const page_ctx *pc, const bp_variant *b, const sim_proof *p)
{
    const bp_board *bb = b->board;
    sim_board pb = sim_prove_board(&bb->sim, p->jobs);
    size_t len = sim_wire_encode(&pb, &pc->s->lim, true, NULL, 0);
    uint8_t *bytes = xmalloc(len);
    sim_wire_encode(&pb, &pc->s->lim, true, bytes, len);
    buf_puts(out, " data-wire=\"");
    put_base64(out, bytes, len);
    free(bytes);
    buf_puts(out, "\" data-choices=\"");
    for (size_t i = 0; i < p->n_choices; i++)
        buf_putc(out, (char)('0' + p->choices[i]));
    buf_putc(out, '"');
}

/* {{ counterexample ID }}: the shortest run of a sometimes-claim's proof
 * drawn as a timeline, with what happens in it and why it is the
 * shortest. */
int expand_counterexample(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    bp_variant *b;
    const bp_board *bb;
    const sim_proof *p = proof_of(pc, a, w, n, "counterexample", &b, &bb);
    if (!p)
        return -1;
    if (figure_counterexample(pc->d, b, pc->page->path, a->line, a->col) != 0)
        return -1;
    char *stem = xasprintf("%s-counterexample", bb->id);
    buf pic, fid;
    buf_init(&pic);
    buf_init(&fid);
    char *base = xasprintf("counterexample-%s", bb->id);
    expand_unique_id(pc, &fid, base);
    free(base);
    /* in the page, so the page script can step through its rows */
    fig_spec f = {&b->cx, stem, "bp-diagram", 0, 0, true, fid.data};
    int rc = expand_figure(pc, &f, &pic);
    if (rc == 0) {
        buf t;
        buf_init(&t);
        buf_puts(&t, "of every way ");
        meet_words(&t, bb, p->jobs, p->faults);
        buf_puts(&t, ", the shortest in which ");
        claim_words(&t, bb, bb->claim.measure, true);
        if (p->cx_faults == 0) {
            buf_puts(&t, " needs no fault at all: the times alone do it. ");
        } else {
            buf_printf(&t, " has %d fault%s, and no run with fewer has one: ", p->cx_faults,
                       p->cx_faults == 1 ? "" : "s");
            simulate_fault_words(&t, bb, p, true);
            buf_puts(&t, ". ");
        }
        proof_scope(&t, bb, p->jobs, p->faults);
        pc->interactive = true;
        buf_puts(out, "<figure class=\"bp-figure bp-timeline bp-counterexample\" id=\"");
        buf_put(out, fid.data, fid.len);
        buf_printf(out, "\" data-board=\"");
        buf_html_s(out, bb->id);
        buf_printf(out, "\" data-faults=\"%d\"", p->cx_faults);
        replay_data(out, pc, b, p);
        figure_timeline_rows(out, bb, p->trace, p->n_trace);
        buf_putc(out, '>');
        buf_put(out, pic.data, pic.len);
        buf_puts(out, "<figcaption>");
        buf_html_s(out, bb->title);
        buf_puts(out, ": ");
        buf_html(out, t.data, t.len);
        buf_puts(out, "</figcaption></figure>\n");
        /* the replay under the figure (generator/web/bp-replay.js) */
        buf_printf(out, "<script src=\"%sstatic/bp-replay.js\" defer></script>\n",
                   pc->page->is_home ? "" : "../");
        buf_free(&t);
    }
    buf_free(&pic);
    buf_free(&fid);
    free(stem);
    return rc;
}
