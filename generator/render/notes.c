/* notes.c — what a page says about its own numbers: "How these numbers
 * were measured" (when, each board's seed and runs and what it changes from
 * the set-up the page's boards share, the model note folded in a
 * <details>), and results.json, every measured result of the page. */
#include "render/render_internal.h"
#include "base/fmt.h"
#include "draw/draw.h"
#include "run/results.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ how the numbers were measured */

/* What a board is set up to do, as clauses of HTML ("40 payments
 * arriving at random (Poisson) over 4 s", "Consumer: no duplicate check"):
 * the block below says the ones every board shares once, and each board's
 * row only the rest. */
typedef struct {
    char **v;   /* the clauses */
    char **key; /* what each is about ("traffic", "sender Users>Service"): one per key */
    size_t n, cap;
} clauses;

/* Add the clause in b (emptied) under key (printf-style). */
static void cl_add(clauses *c, buf *b, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cl_add(clauses *c, buf *b, const char *fmt, ...)
{
    size_t cap = c->cap;
    c->v = xgrow(c->v, sizeof *c->v, &c->cap, c->n + 1);
    c->key = xgrow(c->key, sizeof *c->key, &cap, c->n + 1);
    buf k;
    buf_init(&k);
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&k, fmt, ap);
    va_end(ap);
    c->key[c->n] = buf_detach(&k);
    c->v[c->n++] = buf_detach(b);
    buf_init(b);
}

/* Whether c has a clause with this text. */
static bool cl_has(const clauses *c, const char *text)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->v[i], text) == 0)
            return true;
    return false;
}

/* Whether c has a clause about this key. */
static bool cl_has_key(const clauses *c, const char *key)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->key[i], key) == 0)
            return true;
    return false;
}

static void cl_free(clauses *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i]);
        free(c->key[i]);
    }
    free(c->v);
    free(c->key);
}

static void describe_board(clauses *cl, const bp_board *b)
{
    const sim_traffic *t = &b->sim.traffic;
    buf out;
    buf_init(&out);
    buf_printf(&out, "%lld %s arriving %s over ", (long long)t->jobs,
               board_noun(b, t->jobs != 1), t->arrivals == SIM_ARRIVALS_POISSON ? "at random (Poisson)" : "evenly");
    fmt_duration_us(&out, t->over_us);
    if (t->repeat_share > 0) {
        buf_puts(&out, ", ");
        fmt_ratio(&out, t->repeat_share);
        buf_puts(&out, " of them legitimate repeats");
    }
    if (t->poison > 0) {
        buf_puts(&out, ", ");
        fmt_ratio(&out, t->poison);
        buf_puts(&out, " of them poison messages that fail on every delivery");
    }
    cl_add(cl, &out, "traffic");
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        const char *from = b->parts[l->from].label, *to = b->parts[l->to].label;
        if (l->lose_request > 0) {
            fmt_ratio(&out, l->lose_request);
            buf_puts(&out, " of sends to ");
            buf_html_s(&out, to);
            buf_puts(&out, " lost");
            cl_add(cl, &out, "lose-request %zu", i);
        }
        const char *replies = draw_link_reply_word(b, i, false);
        if (l->lose_reply > 0) {
            fmt_ratio(&out, l->lose_reply);
            buf_printf(&out, " of %s to ", draw_link_reply_word(b, i, true));
            buf_html_s(&out, from);
            buf_puts(&out, " lost");
            cl_add(cl, &out, "lose-reply %zu", i);
        }
        for (size_t k = 0; k < l->n_lose_reply_of; k++)
            buf_printf(&out, "%s first %s of %s %lld lost", k ? ", and the" : "the", replies,
                       board_noun(b, false), (long long)l->lose_reply_of[k]);
        if (l->n_lose_reply_of > 0)
            cl_add(cl, &out, "lose-reply-of %zu", i);
    }
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        const sim_part *p = &b->sim.parts[i];
        if (p->crash_after_effect > 0) {
            buf_html_s(&out, b->parts[i].label);
            buf_puts(&out, p->crash_after_commit > 0 ? " crashes before the commit: "
                                                     : " crashes after the effect: ");
            fmt_ratio(&out, p->crash_after_effect);
            cl_add(cl, &out, "crash %zu", i);
        }
        if (p->kind == SIM_KIND_PROVIDER && p->fail > 0) {
            fmt_ratio(&out, p->fail);
            buf_puts(&out, " of provider calls fail");
            cl_add(cl, &out, "fail %zu", i);
        } else if (p->kind == SIM_KIND_CONSUMER && p->fail > 0) {
            buf_html_s(&out, b->parts[i].label);
            buf_puts(&out, " fails ");
            fmt_ratio(&out, p->fail);
            buf_puts(&out, " of deliveries before the effect");
            cl_add(cl, &out, "fail %zu", i);
        }
    }
    /* A publisher's retries and message IDs, a broker's de-duplication. */
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        const sim_part *from = &b->sim.parts[l->from], *to = &b->sim.parts[l->to];
        /* only where a publish or its confirm can be lost (else it never retries) */
        if (from->kind != SIM_KIND_USERS || to->kind != SIM_KIND_BROKER ||
            !(l->lose_request > 0 || l->lose_reply > 0 || l->n_lose_reply_of > 0))
            continue;
        buf_html_s(&out, b->parts[l->from].label);
        if (from->tries == 1) {
            buf_puts(&out, ": publishes once");
        } else {
            buf_printf(&out, ": up to %d publishes, again after ", from->tries);
            fmt_duration_us(&out, from->timeout_us);
            buf_puts(&out, " without a confirm");
        }
        if (from->message_id == SIM_MESSAGE_ID_PRODUCER)
            buf_printf(&out, ", one message ID per %s", board_noun(b, false));
        else
            buf_puts(&out, ", a new message ID each time");
        cl_add(cl, &out, "publisher %zu", i);
    }
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        const sim_part *p = &b->sim.parts[i];
        if (p->kind != SIM_KIND_BROKER || p->dedup_window_us <= 0)
            continue;
        buf_html_s(&out, b->parts[i].label);
        fmt_words_before(&out, " drops a repeated message ID within ", p->dedup_window_us);
        fmt_duration_us(&out, p->dedup_window_us);
        cl_add(cl, &out, "dedup %zu", i);
    }
    /* The sender's patience and the handler's duplicate check: what tells
     * boards with the same traffic apart. */
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        const sim_part *from = &b->sim.parts[l->from], *to = &b->sim.parts[l->to];
        if (to->kind != SIM_KIND_CONSUMER && to->kind != SIM_KIND_SERVICE)
            continue;
        if (from->kind == SIM_KIND_BROKER || from->kind == SIM_KIND_USERS) {
            buf_html_s(&out, b->parts[l->from].label);
            if (from->kind == SIM_KIND_BROKER && from->delivery == SIM_DELIVERY_AT_MOST_ONCE) {
                buf_puts(&out, ": each message handed over once (at-most-once)");
            } else if (from->tries == 1) {
                buf_puts(&out, ": sends once, never again");
            } else {
                buf_printf(&out, ": at most %d tries, again after ", from->tries);
                fmt_duration_us(&out, from->kind == SIM_KIND_BROKER ? from->redelivery_after_us
                                                                    : from->timeout_us);
                /* the answer in the board's words: "without an ack" where the
                 * board draws "ack of payment 2 lost" */
                const char *ans = draw_link_reply_word(b, i, false);
                buf_printf(&out, " without %s %s", strchr("aeiou", ans[0]) ? "an" : "a", ans);
            }
            if (l->transactional)
                buf_puts(&out, ", in a transaction with the receiver");
            cl_add(cl, &out, "sender %zu", i);
        }
        buf_html_s(&out, b->parts[l->to].label);
        buf_puts(&out, ": ");
        buf_html_s(&out, draw_policy_words(to->idempotency));
        if (to->idempotency != SIM_IDEM_NONE && to->idempotency != SIM_IDEM_PROVIDER_KEY &&
            to->key_ttl_us != SIM_FOREVER) {
            buf_puts(&out, ", keys kept ");
            fmt_duration_us(&out, to->key_ttl_us);
        }
        if (to->idempotency == SIM_IDEM_KEY_CLAIMED_FIRST) {
            buf_puts(&out, ", a claim held ");
            fmt_duration_us(&out, to->lease_us);
        }
        /* a handler that publishes an event onward: in which order */
        for (size_t k = 0; k < b->sim.n_links; k++) {
            const sim_link *on = &b->sim.links[k];
            if (on->from != l->to || b->sim.parts[on->to].kind != SIM_KIND_BROKER)
                continue;
            if (to->publish == SIM_PUBLISH_AFTER_COMMIT)
                buf_puts(&out, ", publishes its event after the commit");
            else if (to->publish == SIM_PUBLISH_BEFORE_COMMIT)
                buf_puts(&out, ", publishes its event before the commit");
            else {
                buf_puts(&out, ", stores its event in an outbox that a relay sends every ");
                fmt_duration_us(&out, to->relay_every_us);
            }
            break;
        }
        cl_add(cl, &out, "handler %zu", i);
    }
    buf_free(&out);
}

/* One row of the block: a board, a level or a chart. */
typedef struct {
    const char *what; /* "" for a board, "Level", "Chart" */
    const char *title;
    const bp_variant *runs; /* the boards it ran: one, a level's combinations, a chart's points */
    size_t n_runs;
    const bp_board *shown; /* the one its set-up is described from */
    clauses cl;
    bool live; /* a live level: the browser measures its other states */
} mrow;

/* A measured block with more boards than this folds their table away. */
#define MEASURED_OPEN_ROWS 6

/* "3", or "3–12" when `until` ran the boards to different counts: what the
 * simulator ran (the result's replications), not what the board asked for,
 * for the boards that ran. */
static void runs_text(buf *out, const mrow *r)
{
    int lo = 0, hi = 0;
    for (size_t i = 0; i < r->n_runs; i++) {
        const bp_variant *b = &r->runs[i];
        if (!b->board)
            continue;
        int n = b->ran && b->result.replications > 0 ? b->result.replications
                                                     : b->board->sim.replications;
        if (lo == 0 || n < lo)
            lo = n;
        if (n > hi)
            hi = n;
    }
    if (lo == hi)
        buf_printf(out, "%d", lo);
    else
        buf_printf(out, "%d–%d", lo, hi);
    if (r->n_runs > 1)
        buf_printf(out, " each of %zu %s", r->n_runs,
                   strcmp(r->what, "Level") == 0 ? "combinations" : "boards");
    /* replications: {until}: whether the precision was reached */
    const bp_board *first = NULL;
    size_t asked = 0, short_of = 0;
    for (size_t i = 0; i < r->n_runs; i++) {
        const bp_variant *b = &r->runs[i];
        if (!b->board || !b->ran || b->board->sim.until <= 0)
            continue;
        first = first ? first : b->board;
        asked++;
        short_of += !b->result.until_met;
    }
    if (asked == 0)
        return;
    buf_puts(out, short_of ? ", stopped at the most allowed before reaching ±"
                           : ", as many as it took to reach ±");
    fmt_ratio(out, first->sim.until);
    if (short_of && asked > 1)
        buf_printf(out, " (%zu of %zu)", short_of, asked);
}

void expand_measured(page_ctx *pc, buf *out)
{
    site *s = pc->s;
    const bp_page *p = pc->page;
    size_t cap = p->n_boards + p->n_levels + p->n_charts;
    if (cap == 0)
        return;
    mrow *rows = xcalloc(cap, sizeof *rows);
    size_t n = 0;
    bool live = false; /* a level the reader's browser measures again */
    for (size_t i = 0; i < p->n_boards; i++) {
        const bp_variant *b = site_board_file(s, p->boards[i].path);
        if (b && b->board)
            rows[n++] = (mrow){"", b->board->title, b, 1, b->board, {0}, false};
    }
    for (size_t i = 0; i < p->n_levels; i++) {
        const slevel *sl = site_level_file(s, p->levels[i].path);
        if (sl && sl->loaded) {
            rows[n++] = (mrow){
                "Level", sl->level->title, sl->combos, sl->n_variants, sl->combos[sl->start].board,
                {0},     sl->level->live};
            live |= sl->level->live;
        }
    }
    for (size_t i = 0; i < p->n_charts; i++) {
        const schart *sc = site_chart_file(s, p->charts[i].path);
        if (sc && sc->chart && sc->points && sc->points[0].board)
            rows[n++] = (mrow){"Chart",      sc->chart->title,    sc->points,
                               sc->n_points, sc->points[0].board, {0},
                               false};
    }
    if (n == 0) {
        free(rows);
        return;
    }
    for (size_t i = 0; i < n; i++)
        describe_board(&rows[i].cl, rows[i].shown);
    /* the shared set-up: each clause more than half of the rows have (so
     * at most one per key), in the order the rows give them */
    clauses shared = {0};
    buf t;
    buf_init(&t);
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < rows[i].cl.n; k++) {
            const char *c = rows[i].cl.v[k];
            size_t have = 0;
            for (size_t j = 0; j < n; j++)
                have += cl_has(&rows[j].cl, c);
            if (2 * have > n && !cl_has(&shared, c)) {
                buf_puts(&t, c);
                cl_add(&shared, &t, "%s", rows[i].cl.key[k]);
            }
        }
    buf id;
    buf_init(&id);
    expand_unique_id(pc, &id, "measured-title");
    buf_printf(out,
               "<section class=\"bp-measured\" aria-labelledby=\"%s\">\n"
               "<h2 id=\"%s\">How these numbers were measured</h2>\n",
               id.data, id.data);
    buf_free(&id);
    buf_printf(out,
               "<p>By the boardpress simulator, version %s (numbered apart from boardpress "
               "itself: it goes up only when the same board would give other numbers), when "
               "the page was built on <time datetime=\"%s\">%s</time>. ",
               SIMCORE_VERSION, s->date, s->date);
    if (shared.n) {
        buf_puts(out, n > 1 ? "Every board shares this set-up unless its row says otherwise: "
                            : "The set-up: ");
        for (size_t k = 0; k < shared.n; k++) {
            buf_puts(out, k ? "; " : "");
            buf_puts(out, shared.v[k]);
        }
        buf_puts(out, ".");
    }
    buf_puts(out, "</p>\n");
    /* a long table folds away with the model note, so the block stays about
     * a screen tall until a reader opens it */
    bool fold = n > MEASURED_OPEN_ROWS;
    if (fold)
        buf_printf(out,
                   "<details class=\"bp-measured-boards\">\n<summary>The %zu simulations: seed, "
                   "runs and what each changes</summary>\n",
                   n);
    buf_puts(out,
             "<div class=\"bp-table-wrap\"><table class=\"bp-measured-table bp-reflow\">\n"
             "<thead><tr><th scope=\"col\">Board</th><th scope=\"col\">Seed</th>"
             "<th scope=\"col\">Runs</th><th scope=\"col\">What it changes</th></tr>"
             "</thead>\n<tbody>\n");
    for (size_t i = 0; i < n; i++) {
        const mrow *r = &rows[i];
        buf_puts(out, "<tr><th scope=\"row\">");
        if (r->what[0]) {
            buf_printf(out, "%s “", r->what);
            buf_html_s(out, r->title);
            buf_puts(out, "”");
        } else {
            buf_html_s(out, r->title);
        }
        buf_printf(out, "</th><td data-label=\"Seed\">%llu</td><td data-label=\"Runs\">",
                   (unsigned long long)r->shown->sim.seed);
        runs_text(out, r);
        buf_puts(out, "</td><td data-label=\"What it changes\">");
        if (strcmp(r->what, "Level") == 0)
            buf_puts(out, "as it starts, ");
        if (r->live)
            buf_puts(out, "(every other setting measured in your browser) ");
        size_t own = 0;
        for (size_t k = 0; k < r->cl.n; k++) {
            if (cl_has(&shared, r->cl.v[k]))
                continue;
            buf_puts(out, own++ ? "; " : "");
            buf_puts(out, r->cl.v[k]);
        }
        /* what the shared set-up has and this row has nothing instead of */
        for (size_t k = 0; k < shared.n; k++) {
            if (cl_has_key(&r->cl, shared.key[k]))
                continue;
            buf_puts(out, own++ ? "; without “" : "without “");
            buf_puts(out, shared.v[k]);
            buf_puts(out, "”");
        }
        if (own == 0) /* "Changes: nothing" read as if the board did nothing */
            buf_puts(out, shared.n ? "the set-up above, nothing else" : "nothing");
        buf_puts(out, "</td></tr>\n");
    }
    buf_puts(out, "</tbody></table></div>\n");
    if (fold)
        buf_puts(out, "</details>\n");
    if (live)
        buf_puts(out, "<p>When you change a setting of a level with sliders, your browser "
                      "measures its numbers again with the same simulator, compiled to "
                      "WebAssembly; the level says which numbers it shows.</p>\n");
    buf_puts(out, "<details class=\"bp-model-note\">\n<summary>What the model includes and "
                  "leaves out</summary>\n");
    buf_puts(out, "<p>Each number on this page comes from a discrete-event simulation of the "
                  "boards above, run when the page was built. It models arrivals, network round "
                  "trips, handler and provider time (log-normal, from a median and a 99th "
                  "percentile), acknowledgments, redelivery after a timeout, the listed faults, "
                  "crashes and restarts, and each duplicate check as written.</p>\n");
    buf_puts(out, "<p>It leaves out network partitions, broker crashes and message loss inside "
                  "the broker, clock skew, backpressure on the users, a provider's own retries, "
                  "partial writes and limits on the size of the key record. What a board "
                  "does not set takes the usual values listed under Key numbers");
    if (s->cfg.about) {
        buf_puts(out, "; <a href=\"");
        buf_puts(out, p->is_home ? "" : "../");
        buf_html_s(out, s->cfg.about);
        buf_puts(out, "/\">about the simulator</a> explains the model");
    }
    buf_puts(out, ".</p>\n</details>\n</section>\n");
    buf_free(&t);
    cl_free(&shared);
    for (size_t i = 0; i < n; i++)
        cl_free(&rows[i].cl);
    free(rows);
}

/* ------------------------------------------------------------ results.json */

void expand_results_board(page_ctx *pc, const char *key, const bp_variant *b)
{
    if (!b->board || !strset_add(&pc->in_results, key))
        return;
    if (pc->results.len)
        buf_puts(&pc->results, ",\n");
    buf_putc(&pc->results, '"');
    buf_json_str(&pc->results, key, strlen(key));
    buf_puts(&pc->results, "\":");
    /* results_json's object, with the page's display strings added */
    buf obj;
    buf_init(&obj);
    results_json(&obj, b->board, &b->result, false);
    obj.len--; /* drop the closing brace */
    results_display(&obj, b->board, &b->result);
    buf_putc(&obj, '}');
    buf_put(&pc->results, obj.data, obj.len);
    buf_free(&obj);
}

int expand_results_file(page_ctx *pc)
{
    if (!pc->results.len || !pc->sink)
        return 0;
    const bp_page *p = pc->page;
    buf js;
    buf_init(&js);
    buf_puts(&js, "{\"page\":\"");
    buf_json_str(&js, p->slug, strlen(p->slug));
    buf_printf(&js, "\",\"measured\":\"%s\",\"simulator\":\"%s\",\"results\":{\n", pc->s->date,
               SIMCORE_VERSION);
    buf_put(&js, pc->results.data, pc->results.len);
    buf_puts(&js, "\n}}\n");
    char *rel = p->is_home ? xstrdup("results.json") : xasprintf("%s/results.json", p->slug);
    int rc = pc->sink->write(pc->out, rel, js.data, js.len, pc->d);
    free(rel);
    buf_free(&js);
    return rc;
}
