/* notes.c — what a page says about its own numbers: the generated note of
 * what the model includes and leaves out, the line saying when the numbers
 * were measured, and results.json, every measured result of the page. */
#include "render/render_internal.h"
#include "base/fmt.h"
#include "draw/draw.h"
#include "run/results.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the model note */

static void describe_board(buf *out, const bp_board *b)
{
    const sim_traffic *t = &b->sim.traffic;
    buf_html_s(out, b->title);
    buf_puts(out, ": ");
    buf_printf(out, "%lld ", (long long)t->jobs);
    buf_puts(out, t->op == SIM_OP_CHARGE ? "charge" : "set");
    buf_printf(out, " job%s arriving %s over ", t->jobs == 1 ? "" : "s",
               t->arrivals == SIM_ARRIVALS_POISSON ? "at random (Poisson)" : "evenly");
    fmt_duration_us(out, t->over_us);
    if (t->repeat_share > 0) {
        buf_puts(out, ", ");
        fmt_ratio(out, t->repeat_share);
        buf_puts(out, " of them legitimate repeats");
    }
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        const char *from = b->parts[l->from].label, *to = b->parts[l->to].label;
        if (l->lose_request > 0) {
            buf_puts(out, "; ");
            fmt_ratio(out, l->lose_request);
            buf_puts(out, " of sends from ");
            buf_html_s(out, from);
            buf_puts(out, " to ");
            buf_html_s(out, to);
            buf_puts(out, " lost");
        }
        const char *replies = l->protocol == SIM_PROTO_AMQP ? "acknowledgment" : "response";
        if (l->lose_reply > 0) {
            buf_puts(out, "; ");
            fmt_ratio(out, l->lose_reply);
            buf_printf(out, " of %ss from ", replies);
            buf_html_s(out, to);
            buf_puts(out, " to ");
            buf_html_s(out, from);
            buf_puts(out, " lost");
        }
        for (size_t k = 0; k < l->n_lose_reply_of; k++)
            buf_printf(out, "%s%s first %s of job %lld lost", k ? "" : "; ",
                       k ? ", and the" : "the", replies, (long long)l->lose_reply_of[k]);
    }
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        const sim_part *p = &b->sim.parts[i];
        if (p->crash_after_effect > 0) {
            buf_puts(out, "; ");
            buf_html_s(out, b->parts[i].label);
            buf_puts(out, " crashes after ");
            fmt_ratio(out, p->crash_after_effect);
            buf_puts(out, " of effects");
        }
        if (p->kind == SIM_KIND_PROVIDER && p->fail > 0) {
            buf_puts(out, "; ");
            fmt_ratio(out, p->fail);
            buf_puts(out, " of provider calls fail");
        }
    }
    /* The sender's patience and the handler's duplicate check: what tells
     * boards with the same traffic apart. */
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        const sim_part *from = &b->sim.parts[l->from], *to = &b->sim.parts[l->to];
        if (to->kind != SIM_KIND_CONSUMER && to->kind != SIM_KIND_SERVICE)
            continue;
        if (from->kind == SIM_KIND_BROKER || from->kind == SIM_KIND_USERS) {
            buf_puts(out, "; ");
            buf_html_s(out, b->parts[l->from].label);
            if (from->kind == SIM_KIND_BROKER && from->delivery == SIM_DELIVERY_AT_MOST_ONCE) {
                buf_puts(out, " hands each message over once (at-most-once)");
            } else if (from->tries == 1) {
                buf_puts(out, " sends once and never again");
            } else {
                buf_printf(out, " sends at most %d times, again after ", from->tries);
                fmt_duration_us(out, from->kind == SIM_KIND_BROKER ? from->redelivery_after_us
                                                                   : from->timeout_us);
                buf_puts(out, " without a reply");
            }
            if (l->transactional)
                buf_puts(out, ", in a transaction with the receiver");
        }
        buf_puts(out, "; ");
        buf_html_s(out, b->parts[l->to].label);
        buf_puts(out, ": ");
        buf_html_s(out, draw_policy_words(to->idempotency));
        if (to->idempotency != SIM_IDEM_NONE && to->idempotency != SIM_IDEM_PROVIDER_KEY &&
            to->key_ttl_us != SIM_FOREVER) {
            buf_puts(out, ", keys kept ");
            fmt_duration_us(out, to->key_ttl_us);
        }
    }
    buf_printf(out, "; seed %llu, %d run%s.", (unsigned long long)b->sim.seed, b->sim.replications,
               b->sim.replications == 1 ? "" : "s");
}

void expand_model_note(page_ctx *pc, buf *out)
{
    site *s = pc->s;
    size_t shown = 0;
    buf items;
    buf_init(&items);
    const bp_page *p = pc->page;
    for (size_t i = 0; i < p->n_boards; i++) {
        const sboard *b = site_board_file(s, p->boards[i].path);
        if (!b || !b->board)
            continue;
        buf_puts(&items, "<li>");
        describe_board(&items, b->board);
        buf_puts(&items, "</li>\n");
        shown++;
    }
    for (size_t i = 0; i < p->n_levels; i++) {
        const slevel *sl = site_level_file(s, p->levels[i].path);
        if (!sl || !sl->loaded)
            continue;
        buf_puts(&items, "<li>Level “");
        buf_html_s(&items, sl->level->title);
        buf_puts(&items, "”, as it starts: ");
        describe_board(&items, sl->combos[sl->start].board);
        buf_puts(&items, "</li>\n");
        shown++;
    }
    for (size_t i = 0; i < p->n_charts; i++) {
        const schart *sc = site_chart_file(s, p->charts[i].path);
        if (!sc || !sc->chart || !sc->points)
            continue;
        buf_puts(&items, "<li>Chart “");
        buf_html_s(&items, sc->chart->title);
        buf_printf(&items, "”: %zu variants of ", sc->n_points);
        describe_board(&items, sc->points[0].board);
        buf_puts(&items, "</li>\n");
        shown++;
    }
    if (shown == 0) {
        buf_free(&items);
        return;
    }
    buf_puts(out, "<aside class=\"bp-model-note\" aria-labelledby=\"model-note-title\">\n"
                  "<h2 id=\"model-note-title\">What the model includes and leaves out</h2>\n");
    buf_puts(out, "<p>Each number on this page comes from a discrete-event simulation of the "
                  "boards below, run when the page was built. It models arrivals, network round "
                  "trips, handler and provider time (log-normal, from a median and a 99th "
                  "percentile), acknowledgments, redelivery after a timeout, the listed faults, "
                  "crashes and restarts, and each duplicate check as written.</p>\n");
    if (shown) {
        buf_puts(out, "<ul>\n");
        buf_put(out, items.data, items.len);
        buf_puts(out, "</ul>\n");
    }
    buf_puts(out, "<p>It leaves out network partitions, broker crashes and message loss inside "
                  "the broker, clock skew, backpressure on the users, a provider's own retries, "
                  "partial writes and limits on the size of the key record. Defaults come from "
                  "the catalog");
    if (s->cfg.about) {
        buf_puts(out, "; <a href=\"");
        buf_puts(out, p->is_home ? "" : "../");
        buf_html_s(out, s->cfg.about);
        buf_puts(out, "/\">about the simulator</a> explains the model");
    }
    buf_puts(out, ".</p>\n</aside>\n");
    buf_free(&items);
}

/* ------------------------------------------------------------ the measured line */

void expand_measured_stamp(page_ctx *pc, buf *out)
{
    site *s = pc->s;
    const bp_page *p = pc->page;
    if (p->n_boards == 0 && p->n_levels == 0 && p->n_charts == 0)
        return;
    buf_printf(out,
               "<p class=\"bp-stamp\">Every number on this page was measured by the "
               "boardpress simulator (version %s) when the page was built on "
               "<time datetime=\"%s\">%s</time>",
               SIMCORE_VERSION, s->date, s->date);
    size_t shown = 0;
    for (size_t i = 0; i < p->n_boards; i++) {
        const sboard *b = site_board_file(s, p->boards[i].path);
        if (!b || !b->board)
            continue;
        buf_puts(out, shown ? "; " : ": ");
        buf_html_s(out, b->board->title);
        buf_printf(out, ", seed %llu, %d run%s", (unsigned long long)b->board->sim.seed,
                   b->board->sim.replications, b->board->sim.replications == 1 ? "" : "s");
        shown++;
    }
    for (size_t i = 0; i < p->n_levels; i++) {
        const slevel *sl = site_level_file(s, p->levels[i].path);
        if (!sl || !sl->loaded)
            continue;
        const bp_board *b0 = sl->combos[0].board;
        buf_puts(out, shown ? "; " : ": ");
        buf_puts(out, "level ");
        buf_html_s(out, sl->level->title);
        if (sl->level->sandbox)
            buf_puts(out, " (free play: its starting state here, the rest in your browser)");
        else if (sl->level->live)
            buf_printf(out, ", %zu combinations checked here, measured again in your browser",
                       sl->level->n_combos);
        else
            buf_printf(out, ", %zu combinations", sl->level->n_combos);
        buf_printf(out, ", seed %llu, %d run%s each", (unsigned long long)b0->sim.seed,
                   b0->sim.replications, b0->sim.replications == 1 ? "" : "s");
        shown++;
    }
    buf_puts(out, ".");
    for (size_t i = 0; i < p->n_levels; i++) {
        const slevel *sl = site_level_file(s, p->levels[i].path);
        if (sl && sl->loaded && sl->level->live) {
            buf_puts(out, " When you change a setting of a level with sliders, your browser "
                          "measures its numbers again with the same simulator, compiled to "
                          "WebAssembly; the level says which numbers it shows.");
            break;
        }
    }
    buf_puts(out, "</p>\n");
}

/* ------------------------------------------------------------ results.json */

void expand_results_board(page_ctx *pc, const char *key, const sboard *b)
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
    int rc = pc->sink->write(pc->out, rel, js.data, js.len, &pc->s->d);
    free(rel);
    buf_free(&js);
    return rc;
}
