/* compare.c — the directives that tabulate boards: {{ compare A B ... }}
 * (the boards' figures behind a switcher, and a Measure / Goal / board...
 * table with Pass and Fail) and {{ key-numbers [SECTION.FIELD ...] }} (the
 * catalog values a page names, or by default the few that decide the
 * page's boards' duplicates, each with its source). */
#define _GNU_SOURCE /* memmem */
#include "render/render_internal.h"
#include "base/fmt.h"
#include "draw/figures.h"
#include "load/fields.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ compare */

/* Rows of a compare table: measures with goals (in the first board's file
 * order), then monthly cost and error rate. */
static size_t compare_rows(bp_variant **bs, size_t n, sim_measure *rows)
{
    size_t nr = 0;
    bool used[SIM_M_COUNT] = {false};
    for (size_t i = 0; i < n; i++) {
        const bp_board *b = bs[i]->board;
        /* goals in the order the file gives them */
        for (;;) {
            int best = -1;
            for (int m = 0; m < SIM_M_COUNT; m++) {
                if (used[m] || !(b->sim.goals[m].has_max || b->sim.goals[m].has_min))
                    continue;
                if (best < 0 || b->goal_pos[m].line < b->goal_pos[best].line)
                    best = m;
            }
            if (best < 0)
                break;
            used[best] = true;
            rows[nr++] = (sim_measure)best;
        }
    }
    static const sim_measure extra[] = {SIM_M_MONTHLY_COST, SIM_M_ERROR_RATE};
    for (size_t i = 0; i < 2; i++)
        if (!used[extra[i]])
            rows[nr++] = extra[i];
    return nr;
}

/* The measures of `rows: [m, m, ...]`, written from word k to the end:
 * the rows a compare shows, in that order. Returns how many, or -1 after
 * an error at the word or name that is wrong. */
static int compare_rows_given(const ph_at *a, const word *w, size_t k, size_t n,
                              sim_measure *rows)
{
    const char *base = w[0].s - w[0].off;
    const char *p = w[k].s + 5, *end = w[n - 1].s + w[n - 1].len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= end || *p != '[' || end[-1] != ']' || end - p < 2)
        return expand_err_word(a, &w[k],
                               "rows takes a list of measures: rows: [deliveries, latency_p99]");
    p++;
    end--;
    const char *names[SIM_M_COUNT];
    for (int i = 0; i < SIM_M_COUNT; i++)
        names[i] = sim_measure_name((sim_measure)i);
    bool seen[SIM_M_COUNT] = {false};
    size_t nr = 0;
    for (;;) {
        const char *q = p;
        while (q < end && *q != ',')
            q++;
        const char *s = p, *e = q;
        while (s < e && (*s == ' ' || *s == '\t'))
            s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        word nw = {s, (size_t)(e - s), (size_t)(s - base)};
        if (e == s)
            return expand_err_word(a, &nw,
                                   nr == 0 && q == end
                                       ? "rows: [] lists no measure; name the rows to show"
                                       : "an empty row in rows: [...]; name a measure between "
                                         "the commas");
        char *name = xstrndup(s, (size_t)(e - s));
        int m = sim_measure_from_name(name);
        diag_note why;
        if (m < 0)
            diag_note_unknown(&why, "measure", name, names, SIM_M_COUNT);
        else if (seen[m])
            diag_note_set(&why, "the row '%s' is listed twice", name);
        free(name);
        if (m < 0 || seen[m])
            return expand_err_note(a, &nw, &why);
        seen[m] = true;
        rows[nr++] = (sim_measure)m;
        if (q >= end)
            break;
        p = q + 1;
    }
    return (int)nr;
}

/* Each row is measured on every board: not a second hop's measure on a
 * board with one hop, nor a dead-letter queue's where no broker names one. */
static int compare_rows_on(const ph_at *a, const word *w, size_t k, size_t n, bp_variant **bs,
                           size_t nb, const sim_measure *rows, size_t nr)
{
    for (size_t r = 0; r < nr; r++)
        for (size_t i = 0; i < nb; i++) {
            if (sim_measure_on(&bs[i]->board->sim, rows[r]))
                continue;
            const char *name = sim_measure_name(rows[r]);
            word nw = w[k];
            for (size_t j = k; j < n; j++) {
                const char *hit = memmem(w[j].s, w[j].len, name, strlen(name));
                if (hit) {
                    nw = (word){hit, strlen(name), w[j].off + (size_t)(hit - w[j].s)};
                    break;
                }
            }
            char msg[512];
            snprintf(msg, sizeof msg,
                     sim_measure_hop(rows[r]) > 1
                         ? "board '%s' has no %s: it is a measure of the second hop (a handler "
                           "that links to a second message broker)"
                         : "board '%s' has no %s: it is a measure of a dead-letter queue, and no "
                           "broker on the board names one (dead_letter: ID)",
                     bs[i]->board->id, name);
            return expand_err_word(a, &nw, msg);
        }
    return 0;
}

/* A board's name where room is short: its short words, else its title. */
static const char *compare_short(const bp_board *b)
{
    return b->short_name ? b->short_name : b->title;
}

/* A board's title where there is room, its short name on a phone. */
static void compare_name(buf *out, const bp_board *b)
{
    if (!b->short_name) {
        buf_html_s(out, b->title);
        return;
    }
    buf_puts(out, "<span class=\"bp-long\">");
    buf_html_s(out, b->title);
    /* the space inside the short name: shown alone, the long one is never
     * followed by a stray space ("from Every delivery runs the effect ,") */
    buf_puts(out, "</span><span class=\"bp-short\"> ");
    buf_html_s(out, b->short_name);
    buf_puts(out, "</span>");
}

/* One board's value of measure m as a compare cell shows it: the number
 * (a rare count with its exact bound, as '| ci' writes it), a p99's note,
 * Pass or Fail; tagged: the number names its board and measure. */
static void compare_cell(buf *out, const bp_variant *b, sim_measure m, bool tagged)
{
    sim_rate rt;
    bool rare = numbers_preferred_rate(b, m, &rt) == 0;
    buf_puts(out, "<span class=\"bp-num\"");
    if (tagged) { /* the one place a script or a test finds this board's value */
        buf_puts(out, " data-board=\"");
        buf_html_s(out, b->board->id);
        buf_printf(out, "\" data-measure=\"%s\"", sim_measure_name(m));
    }
    buf_puts(out, rare ? " data-filter=\"ci\">" : ">");
    buf v;
    buf_init(&v);
    if (rare)
        numbers_ci(&v, b, m);
    else
        fmt_measure(&v, m, b->result.m[m].mean);
    /* the bound in words, "(at most 0.15 at 95 %)", set lighter on a phone */
    const char *bound = rare && v.len ? memmem(v.data, v.len, " (", 2) : NULL;
    size_t head = bound ? (size_t)(bound - v.data) : v.len;
    buf_html(out, v.data, head);
    if (bound) {
        buf_puts(out, " <span class=\"bp-bound\">");
        buf_html(out, v.data + head + 1, v.len - head - 1);
        buf_puts(out, "</span>");
    }
    buf_free(&v);
    buf_puts(out, "</span>");
    buf_init(&v);
    numbers_p99_note(&v, b, m);
    buf_html(out, v.data, v.len);
    buf_free(&v);
    if (b->result.goals[m].present)
        buf_printf(out, " <span class=\"bp-%s\">%s</span>",
                   b->result.goals[m].pass ? "pass" : "fail",
                   b->result.goals[m].pass ? "Pass" : "Fail");
}

int expand_compare(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    /* the board ids, then `rows: [...]` when the page chooses the rows */
    size_t k_rows = n;
    for (size_t i = 1; i < n && k_rows == n; i++)
        if (w[i].len >= 5 && memcmp(w[i].s, "rows:", 5) == 0)
            k_rows = i;
    sim_measure given[SIM_M_COUNT];
    int n_given = 0;
    if (k_rows < n && (n_given = compare_rows_given(a, w, k_rows, n, given)) < 0)
        return -1;
    size_t n_all = n;
    n = k_rows;
    if (n < 3)
        return expand_err_word(a, &w[0], "compare needs two or more board ids: {{ compare A B }}");
    if (n > 17)
        return expand_err_word(a, &w[17], "compare shows at most 16 boards");
    bp_variant *bs[16];
    size_t nb = 0;
    int rc = 0;
    for (size_t i = 1; i < n && nb < 16; i++) {
        char *id = expand_word_str(&w[i]);
        bp_variant *b = expand_page_board(pc, id);
        if (!b) {
            rc = expand_err_unlisted(a, &w[i], id, "board");
        } else {
            for (size_t k = 0; k < nb; k++)
                if (bs[k] == b) {
                    expand_err_word(a, &w[i], "the same board is compared with itself");
                    rc = -1;
                }
            bs[nb++] = b;
        }
        free(id);
    }
    if (rc != 0)
        return -1;
    if (n_given && compare_rows_on(a, w, k_rows, n_all, bs, nb, given, (size_t)n_given) != 0)
        return -1;
    pc->interactive = true;
    /* every board switches to its wide drawing where the widest fits, so a
     * switch never swaps a wide picture for a narrow one */
    int widest = 0;
    for (size_t i = 0; i < nb; i++) {
        if (figure_board(pc->d, bs[i], pc->page->path, a->line, a->col) != 0) {
            rc = -1;
            continue;
        }
        int fw, fh;
        expand_svg_size(bs[i]->fig.svg[draw_look_index((draw_look){DRAW_WIDE, DRAW_LIGHT})], &fw,
                        &fh);
        widest = fw > widest ? fw : widest;
    }
    buf figs;
    buf_init(&figs);
    for (size_t i = 0; i < nb && rc == 0; i++)
        if (expand_board_figure(pc, bs[i], a, bs[i]->board->id, widest, &figs) != 0)
            rc = -1;
    if (rc != 0) {
        buf_free(&figs);
        return -1;
    }
    buf_puts(out, "<section class=\"bp-compare\" id=\"");
    expand_unique_id(pc, out, "compare");
    buf_puts(out, "\">\n<div class=\"bp-switcher\" role=\"group\" aria-label=\"Board to show\" "
                  "hidden><span class=\"bp-switcher-label\">Board to show</span>"
                  "<div class=\"bp-switches\">");
    for (size_t i = 0; i < nb; i++) {
        buf_printf(out,
                   "<button type=\"button\" class=\"bp-switch\" aria-pressed=\"%s\" "
                   "data-board=\"",
                   i == 0 ? "true" : "false");
        buf_html_s(out, bs[i]->board->id);
        buf_puts(out, "\">");
        compare_name(out, bs[i]->board);
        buf_puts(out, "</button>");
    }
    buf_puts(out, "</div></div>\n<div class=\"bp-compare-boards\">\n");
    buf_put(out, figs.data, figs.len);
    buf_free(&figs);
    buf_puts(out,
             "</div>\n<div class=\"bp-table-wrap\"><table class=\"bp-compare-table bp-reflow\">\n");
    int reps = bs[0]->result.replications;
    bool same_reps = true;
    for (size_t i = 1; i < nb; i++)
        same_reps &= bs[i]->result.replications == reps;
    /* each board against the first, run by run, when they share streams */
    sim_stat(*diffs)[SIM_M_COUNT] = xcalloc(nb, sizeof *diffs);
    bool paired = reps > 1;
    char why[512] = "";
    for (size_t i = 1; i < nb && paired; i++)
        paired = numbers_pair(bs[0], bs[i], diffs[i], why, sizeof why) == 0;
    if (same_reps && reps > 1)
        buf_printf(out,
                   "<caption>Measured when this page was built: mean of %d runs per board; "
                   "a goal passes only if every run meets it.",
                   reps);
    else
        buf_puts(out, "<caption>Measured when this page was built.");
    if (paired) {
        buf_puts(out, " Under each value: its difference from ");
        compare_name(out, bs[0]->board);
        buf_puts(out, ", run by run on the same random draws (± 95 %).");
    } else if (reps > 1 && same_reps) {
        buf_puts(out, " No run-by-run differences: ");
        buf_html_s(out, why);
        buf_putc(out, '.');
    }
    buf_puts(out, "</caption>\n");
    buf_puts(out, "<thead><tr><th scope=\"col\">Measure</th><th scope=\"col\">Goal</th>");
    for (size_t i = 0; i < nb; i++) {
        buf_puts(out, "<th scope=\"col\" data-board=\"");
        buf_html_s(out, bs[i]->board->id);
        buf_puts(out, "\">");
        buf_html_s(out, bs[i]->board->title);
        buf_puts(out, "</th>");
    }
    buf_puts(out, "</tr></thead>\n<tbody>\n");
    sim_measure rows[SIM_M_COUNT + 2];
    size_t nr = n_given ? (size_t)n_given : compare_rows(bs, nb, rows);
    if (n_given)
        memcpy(rows, given, sizeof given[0] * (size_t)n_given);
    /* rows that read the same on every board: on a phone they are folded
     * into one line under the table */
    buf same;
    buf_init(&same);
    for (size_t r = 0; r < nr; r++) {
        sim_measure m = rows[r];
        buf cells[16];
        for (size_t i = 0; i < nb; i++) {
            buf_init(&cells[i]);
            compare_cell(&cells[i], bs[i], m, false);
        }
        bool equal = true;
        for (size_t i = 1; i < nb && equal; i++)
            equal = cells[i].len == cells[0].len &&
                    memcmp(cells[i].data, cells[0].data, cells[0].len) == 0 &&
                    (!paired || (diffs[i][m].min == diffs[i][m].max && fabs(diffs[i][m].mean) < 1e-12));
        buf goal;
        buf_init(&goal);
        for (size_t i = 0; i < nb; i++) {
            const sim_goal *g = &bs[i]->board->sim.goals[m];
            if (g->has_max || g->has_min) {
                expand_goal_text(&goal, m, g);
                break;
            }
        }
        buf_printf(out, "<tr data-measure=\"%s\"%s><th scope=\"row\">", sim_measure_name(m),
                   equal ? " class=\"bp-same\"" : "");
        expand_put_label(out, pc->page, m);
        buf_puts(out, "</th><td data-label=\"Goal\">");
        buf_html(out, goal.data, goal.len);
        buf_puts(out, "</td>");
        if (equal) {
            buf_puts(&same, same.len ? "; <span class=\"bp-same-measure\">"
                                     : " <span class=\"bp-same-measure\">");
            expand_put_label(&same, pc->page, m);
            buf_puts(&same, "</span>");
            if (goal.len) {
                buf_puts(&same, " (goal: ");
                buf_html(&same, goal.data, goal.len);
                buf_putc(&same, ')');
            }
            buf_puts(&same, ": ");
            buf_put(&same, cells[0].data, cells[0].len);
        }
        buf_free(&goal);
        for (size_t i = 0; i < nb; i++) {
            const bp_variant *b = bs[i];
            buf_puts(out, "<td data-board=\"");
            buf_html_s(out, b->board->id);
            buf_puts(out, "\" data-label=\"");
            buf_html_s(out, b->board->title);
            buf_puts(out, "\" data-short=\"");
            buf_html_s(out, compare_short(b->board));
            buf_puts(out, "\">");
            compare_cell(out, b, m, true);
            buf_free(&cells[i]);
            if (paired && i > 0) {
                buf_puts(out, "<br><span class=\"bp-diff\" data-board=\"");
                buf_html_s(out, b->board->id);
                buf_puts(out, "\" data-against=\"");
                buf_html_s(out, bs[0]->board->id);
                buf_printf(out, "\" data-measure=\"%s\">", sim_measure_name(m));
                buf v;
                buf_init(&v);
                numbers_diff(&v, m, &diffs[i][m]);
                buf_html(out, v.data, v.len);
                buf_free(&v);
                buf_puts(out, "</span>");
            }
            buf_puts(out, "</td>");
        }
        buf_puts(out, "</tr>\n");
    }
    buf_puts(out, "</tbody></table>\n");
    if (same.len) {
        buf_puts(out, "<p class=\"bp-compare-same\"><span class=\"bp-same-head\">The same on "
                      "every board:</span>");
        buf_put(out, same.data, same.len);
        buf_puts(out, ".</p>\n");
    }
    buf_free(&same);
    buf_puts(out, "</div>\n</section>\n");
    free(diffs);
    return 0;
}

/* ------------------------------------------------------------ key numbers */

typedef struct {
    const bp_catalog_value *v;
} kn_row;

static bool kn_skip(const bp_board *b, size_t part, const field_def *f)
{
    const sim_part *p = &b->sim.parts[part];
    const char *val = (const char *)p + f->offset;
    if (f->type == FT_PROB && *(const double *)val == 0)
        return true;
    if (f->type == FT_BOOL && !*(const bool *)val)
        return true;
    if (f->type == FT_MONEY && *(const double *)val == 0)
        return true;
    if (strcmp(f->name, "external") == 0)
        return true;
    if (f->type == FT_WINDOW && *(const int64_t *)val == 0)
        return true;
    if (strcmp(f->name, "restart") == 0 && p->crash_after_effect == 0 && p->crash_after_commit == 0)
        return true;
    if (strcmp(f->name, "lease") == 0)
        return p->idempotency != SIM_IDEM_KEY_CLAIMED_FIRST;
    if (strcmp(f->name, "publish") == 0 || strcmp(f->name, "relay_every") == 0) {
        /* only for a handler that publishes to a second broker */
        if (strcmp(f->name, "relay_every") == 0 && p->publish != SIM_PUBLISH_OUTBOX)
            return true;
        for (size_t l = 0; l < b->sim.n_links; l++)
            if (b->sim.links[l].from == (int)part &&
                b->sim.parts[b->sim.links[l].to].kind == SIM_KIND_BROKER)
                return false;
        return true;
    }
    if (strcmp(f->name, "key_ttl") == 0) {
        if (p->kind == SIM_KIND_PROVIDER) {
            /* only when some handler passes its key on */
            for (size_t i = 0; i < b->sim.n_parts; i++)
                if (b->sim.parts[i].idempotency == SIM_IDEM_PROVIDER_KEY &&
                    (b->sim.parts[i].kind == SIM_KIND_CONSUMER ||
                     b->sim.parts[i].kind == SIM_KIND_SERVICE))
                    return false;
            return true;
        }
        return p->idempotency == SIM_IDEM_NONE || p->idempotency == SIM_IDEM_PROVIDER_KEY;
    }
    if (strcmp(f->name, "timeout") == 0 && p->kind != SIM_KIND_USERS) {
        /* a handler's timeout only matters for calls to a provider */
        for (size_t l = 0; l < b->sim.n_links; l++)
            if (b->sim.links[l].from == (int)part &&
                b->sim.parts[b->sim.links[l].to].kind == SIM_KIND_PROVIDER)
                return false;
        return true;
    }
    if (p->kind == SIM_KIND_USERS) {
        /* users only send with retries when they call a handler directly,
         * or publish to a broker over a link that loses publishes or
         * confirms (message IDs matter only then) */
        for (size_t l = 0; l < b->sim.n_links; l++) {
            const sim_link *lk = &b->sim.links[l];
            if (lk->from != (int)part)
                continue;
            if (b->sim.parts[lk->to].kind != SIM_KIND_BROKER)
                return strcmp(f->name, "message_id") == 0;
            if (lk->lose_request > 0 || lk->lose_reply > 0 || lk->n_lose_reply_of > 0)
                return false;
        }
        return true;
    }
    return false;
}

static void kn_add(const site *s, bool *used, const char *section, const char *field)
{
    for (size_t i = 0; i < s->cat->n_values; i++)
        if (strcmp(s->cat->values[i].section, section) == 0 &&
            strcmp(s->cat->values[i].field, field) == 0)
            used[i] = true;
}

static void kn_board(const site *s, const bp_board *b, bool *used)
{
    size_t nf;
    const field_def *pf = fields_part(&nf);
    for (size_t i = 0; i < b->sim.n_parts; i++) {
        const sim_part *p = &b->sim.parts[i];
        for (size_t f = 0; f < nf; f++) {
            if (!(pf[f].kinds & KIND_BIT(p->kind)) || (b->part_set[i].bits & (1ull << f)))
                continue;
            if (kn_skip(b, i, &pf[f]))
                continue;
            kn_add(s, used, sim_kind_name(p->kind), pf[f].name);
        }
        if ((p->vcpu > 0 || p->gb > 0) && !p->external) {
            kn_add(s, used, "price", "vcpu");
            kn_add(s, used, "price", "gb");
        }
    }
    const field_def *lf = fields_link(&nf);
    for (size_t l = 0; l < b->sim.n_links; l++) {
        const sim_link *k = &b->sim.links[l];
        for (size_t f = 0; f < nf; f++) {
            if (b->link_set[l].bits & (1ull << f))
                continue;
            const char *val = (const char *)k + lf[f].offset;
            if ((lf[f].type == FT_PROB && *(const double *)val == 0) ||
                (lf[f].type == FT_BOOL && !*(const bool *)val))
                continue;
            kn_add(s, used, sim_protocol_name(k->protocol), lf[f].name);
        }
    }
}

/* The rank of a catalog value for the default list (field_def.rank; 0:
 * never listed unless a page names it). */
static int kn_rank(const bp_catalog_value *v)
{
    size_t np, nl;
    const field_def *pf = fields_part(&np), *lf = fields_link(&nl);
    const field_def *f = fields_find(pf, np, v->field);
    if (!f)
        f = fields_find(lf, nl, v->field);
    return f && strcmp(v->section, "price") != 0 && strcmp(v->section, "traffic") != 0 &&
                   strcmp(v->section, "retention") != 0
               ? f->rank
               : 0;
}

/* The default list: the values the page's boards use and do not set, of
 * rank > 0, lowest rank first (file order among equals), at most this many. */
#define KN_DEFAULT_ROWS 4

static size_t kn_default(page_ctx *pc, const bp_catalog_value **rows)
{
    site *s = pc->s;
    bool *used = xcalloc(s->cat->n_values + 1, sizeof *used);
    for (size_t i = 0; i < pc->page->n_boards; i++)
        for (size_t k = 0; k < s->n_boards; k++)
            if (s->boards[k]->board && strcmp(s->boards[k]->file, pc->page->boards[i].path) == 0) {
                kn_board(s, s->boards[k]->board, used);
                pc->shows_board[i] = true; /* its numbers are in the table */
            }
    for (size_t i = 0; i < pc->page->n_levels; i++)
        for (size_t k = 0; k < s->n_levels; k++)
            if (s->levels[k]->level && strcmp(s->levels[k]->file, pc->page->levels[i].path) == 0 &&
                s->levels[k]->combos && s->levels[k]->combos[s->levels[k]->start].board)
                kn_board(s, s->levels[k]->combos[s->levels[k]->start].board, used);
    size_t n = 0;
    for (int rank = 1; n < KN_DEFAULT_ROWS; rank++) {
        bool any = false;
        for (size_t i = 0; i < s->cat->n_values && n < KN_DEFAULT_ROWS; i++) {
            int r = kn_rank(&s->cat->values[i]);
            any |= r >= rank;
            if (used[i] && r == rank)
                rows[n++] = &s->cat->values[i];
        }
        if (!any)
            break;
    }
    free(used);
    return n;
}

/* "checked 2 December 2026" from a source's YYYY-MM-DD (the loader checked it). */
static void kn_checked(buf *out, const char *day)
{
    static const char *const months[12] = {"January",   "February", "March",    "April",
                                           "May",       "June",     "July",     "August",
                                           "September", "October",  "November", "December"};
    if (!day[0])
        return;
    buf_printf(out, " (checked %d %s %.4s)", atoi(day + 8), months[atoi(day + 5) - 1], day);
}

/* A source's text, linked to its page when it has one. */
static void kn_linked(buf *out, const bp_source *src)
{
    if (src->url) {
        buf_puts(out, "<a href=\"");
        buf_html_s(out, src->url);
        buf_puts(out, "\">");
    }
    buf_html_s(out, src->text ? src->text : "");
    if (src->url)
        buf_puts(out, "</a>");
}

/* The words before a source's text. */
static const char *kn_prefix(const bp_source *src)
{
    switch (src->kind) {
    case BP_SOURCE_DOCS:
        return "Documentation: ";
    case BP_SOURCE_MEASURED:
        return "Measured: ";
    case BP_SOURCE_EXAMPLE:
        return src->text ? "Chosen for the example: " : "Chosen for the example";
    case BP_SOURCE_COMPARE:
        return "Compare: ";
    }
    return "";
}

/* Where a value comes from, in the table's last column: each source on a
 * line, and "Chosen for the example" first when the value has only
 * comparisons. */
/* A catalog value as HTML, each number held to its unit by a no-break
 * space: a narrow Value column wraps "150" / "ms" otherwise. */
static void kn_value(buf *out, const char *s)
{
    const char *p = s;
    for (const char *sp; (sp = strchr(p, ' ')); p = sp + 1) {
        buf_html(out, p, (size_t)(sp - p));
        const char *u = sp + 1, *ue = strchr(u, ' ');
        size_t ul = ue ? (size_t)(ue - u) : strlen(u);
        bool unit = sp > s && sp[-1] >= '0' && sp[-1] <= '9' && fmt_unit_word(u, ul);
        buf_puts(out, unit ? "\xc2\xa0" : " ");
    }
    buf_html_s(out, p);
}

static void kn_source(buf *out, const bp_catalog_value *v)
{
    bool origin = false;
    for (size_t i = 0; i < v->n_sources; i++)
        origin |= v->sources[i].kind != BP_SOURCE_COMPARE;
    if (!origin)
        buf_puts(out, "Chosen for the example");
    for (size_t i = 0; i < v->n_sources; i++) {
        if (i > 0 || !origin)
            buf_puts(out, "<br>");
        buf_puts(out, kn_prefix(&v->sources[i]));
        kn_linked(out, &v->sources[i]);
        kn_checked(out, v->sources[i].checked);
    }
}

/* Where the page's boards set value v themselves to something else than
 * the catalog: "On this page: 10 s (Title, Title)", one line per value
 * they set, after the catalog's. Returns whether any does. */
static bool kn_overrides(buf *out, page_ctx *pc, const bp_catalog_value *v)
{
    const bp_catalog *cat = pc->s->cat;
    int kind = sim_kind_from_name(v->section), proto = sim_protocol_from_name(v->section);
    size_t nf;
    const field_def *fs = kind >= 0 ? fields_part(&nf) : fields_link(&nf);
    const field_def *fd = fields_find(fs, nf, v->field);
    if ((kind < 0 && proto < 0) || !fd)
        return false;
    size_t bit = (size_t)(fd - fs);
    buf cat_text;
    buf_init(&cat_text);
    field_format(&cat_text, fd, kind >= 0 ? (const void *)&cat->kinds[kind]
                                          : (const void *)&cat->protocols[proto]);
    /* the distinct values the boards set, each with the boards that set it */
    buf vals[8], who[8];
    size_t nv = 0, last[8];
    bool tied[8]; /* the row's label lost its "for" before "forever": this value takes it back */
    const char *tie = isinf(v->value) ? fmt_closing_tie(fd->label) : NULL;
    for (size_t i = 0; i < pc->page->n_boards; i++) {
        const bp_variant *sb = site_board_file(pc->s, pc->page->boards[i].path);
        const bp_board *b = sb ? sb->board : NULL;
        size_t n_items = !b ? 0 : kind >= 0 ? b->sim.n_parts : b->sim.n_links;
        for (size_t k = 0; k < n_items; k++) {
            const void *target;
            if (kind >= 0) {
                if (b->sim.parts[k].kind != (sim_kind)kind || !(b->part_set[k].bits & (1ull << bit)))
                    continue;
                target = &b->sim.parts[k];
            } else {
                if (b->sim.links[k].protocol != (sim_protocol)proto ||
                    !(b->link_set[k].bits & (1ull << bit)))
                    continue;
                target = &b->sim.links[k];
            }
            buf t;
            buf_init(&t);
            field_format(&t, fd, target);
            buf_putc(&t, '\0');
            t.len--; /* t.data is a string */
            size_t j = 0;
            while (j < nv && strcmp(vals[j].data, t.data) != 0)
                j++;
            if (strcmp(t.data, cat_text.data ? cat_text.data : "") == 0 || (j == nv && nv == 8)) {
                buf_free(&t);
                continue;
            }
            if (j == nv) {
                vals[nv] = t;
                last[nv] = (size_t)-1;
                tied[nv] = tie && *(const int64_t *)((const char *)target + fd->offset) != SIM_FOREVER;
                buf_init(&who[nv++]);
            } else {
                buf_free(&t);
            }
            if (last[j] != i) { /* each board once per value */
                if (who[j].len)
                    buf_puts(&who[j], ", ");
                buf_puts(&who[j], b->title);
                last[j] = i;
            }
        }
    }
    for (size_t j = 0; j < nv; j++) {
        buf_puts(out, "<br><span class=\"bp-override\">On this page: ");
        if (tied[j])
            buf_printf(out, "%s ", tie);
        buf_html(out, vals[j].data, vals[j].len);
        buf_puts(out, " (");
        buf_html(out, who[j].data, who[j].len);
        buf_puts(out, ")</span>");
        buf_free(&vals[j]);
        buf_free(&who[j]);
    }
    buf_free(&cat_text);
    return nv > 0;
}

#define KN_MAX_NAMES 17

int expand_key_numbers(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    if (n > KN_MAX_NAMES)
        return expand_err_word(a, &w[KN_MAX_NAMES], "key-numbers shows at most 16 values");
    const bp_catalog_value *rows[KN_MAX_NAMES];
    size_t nr = 0;
    int rc = 0;
    for (size_t i = 1; i < n; i++) {
        char *name = expand_word_str(&w[i]);
        char *dot = strchr(name, '.');
        if (!dot) {
            rc = expand_err_word(a, &w[i],
                                 "key-numbers takes catalog values as SECTION.FIELD: "
                                 "{{ key-numbers message-broker.tries consumer.key_ttl }}");
        } else {
            *dot = '\0';
            const bp_catalog_value *v = expand_catalog_value(a, &w[i], name, dot + 1);
            if (!v)
                rc = -1;
            for (size_t k = 0; v && k < nr; k++)
                if (rows[k] == v) {
                    rc = expand_err_word(a, &w[i], "this value is already in the list");
                    v = NULL;
                }
            if (v)
                rows[nr++] = v;
        }
        free(name);
    }
    if (rc != 0)
        return rc;
    if (n == 1)
        nr = kn_default(pc, rows);
    buf body;
    buf_init(&body);
    bool overridden = false;
    for (size_t i = 0; i < nr; i++) {
        const bp_catalog_value *v = rows[i];
        buf_printf(&body, "<tr data-key=\"");
        buf_html_s(&body, v->section);
        buf_putc(&body, '.');
        buf_html_s(&body, v->field);
        buf_puts(&body, "\"><th scope=\"row\">");
        buf_html_s(&body, v->label);
        buf_puts(&body, "</th><td data-label=\"Value\">");
        kn_value(&body, v->text);
        overridden |= kn_overrides(&body, pc, v);
        buf_puts(&body, "</td><td data-label=\"Source\">");
        kn_source(&body, v);
        buf_puts(&body, "</td></tr>\n");
    }
    if (nr == 0)
        buf_puts(&body, "<tr><td colspan=\"3\">The boards on this page set every value that "
                      "decides their duplicates themselves.</td></tr>\n");
    buf_puts(out, "<div class=\"bp-table-wrap\"><table class=\"bp-key-numbers bp-reflow\">\n"
                  "<caption>The values this page's boards start from, unless a board sets "
                  "its own, and where each comes from.");
    if (overridden)
        buf_puts(out, " Where a board on this page sets its own value, the row gives it "
                      "under the usual one.");
    buf_puts(out, "</caption>\n"
                  "<thead><tr><th scope=\"col\">Number</th><th scope=\"col\">Value</th>"
                  "<th scope=\"col\">Source</th></tr></thead>\n<tbody>\n");
    buf_put(out, body.data, body.len);
    buf_free(&body);
    buf_puts(out, "</tbody></table></div>\n");
    return 0;
}
