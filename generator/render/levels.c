/* levels.c — {{ level ID }}: a playable level. Every combination's
 * diagram goes into the page folder and its timeline into the page; the
 * starting one is shown with its counts and goals table, so the page
 * reads without the script, and every combination's numbers are embedded
 * for it. */
#include "render/render_internal.h"
#include "base/fmt.h"
#include "draw/figures.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ level */

static void counts_line(buf *out, const bp_variant *b, const bp_level *l, const bp_page *p)
{
    for (size_t i = 0; i < l->n_counts; i++) {
        sim_measure m = l->counts[i];
        double v = b->result.m[m].mean;
        if (i)
            buf_puts(out, " · ");
        bool one = v == 1;
        const char *noun = NULL, *own = page_measure_label(p, m);
        switch (m) {
        case SIM_M_JOBS:
            noun = board_noun(b->board, !one);
            break;
        case SIM_M_DELIVERIES:
            noun = one ? "delivery" : "deliveries";
            break;
        case SIM_M_EFFECTS: /* "charged 7 times", "saved 7 times": the board's verb, since
                             * "7 payments applied" counted charges as if payments */
            if (own == fmt_measure_label(m)) {
                buf_printf(out, "%s ", board_verb(b->board));
                if (one) {
                    buf_puts(out, "once");
                } else {
                    fmt_number(out, v);
                    buf_puts(out, " times");
                }
                continue;
            }
            break;
        case SIM_M_DUPLICATES:
            noun = one ? "duplicate" : "duplicates";
            break;
        /* the second hop's: "4 deliveries downstream", never "Deliveries downstream 4" */
        case SIM_M_DOWNSTREAM_DELIVERIES:
            noun = one ? "delivery downstream" : "deliveries downstream";
            break;
        case SIM_M_DOWNSTREAM_EFFECTS:
            noun = one ? "event applied downstream" : "events applied downstream";
            break;
        case SIM_M_DOWNSTREAM_DUPLICATES:
            noun = one ? "duplicate downstream" : "duplicates downstream";
            break;
        case SIM_M_CHARGED_TWICE:
            noun = "charged more than once";
            break;
        case SIM_M_LOST_WRITES:
            noun = one ? "lost write" : "lost writes";
            break;
        case SIM_M_ERRORS:
            noun = one ? "error" : "errors";
            break;
        default:
            break;
        }
        if (own != fmt_measure_label(m) && sim_measure_unit(m) == SIM_UNIT_COUNT) {
            fmt_number(out, v); /* "3 dead-lettered" */
            buf_putc(out, ' ');
            buf_html_s(out, own);
        } else if (own != fmt_measure_label(m)) {
            buf_html_s(out, own);
            buf_putc(out, ' ');
            fmt_measure(out, m, v);
        } else if (noun) {
            fmt_number(out, v);
            buf_printf(out, " %s", noun);
        } else {
            buf_printf(out, "%s ", fmt_measure_label(m));
            fmt_measure(out, m, v);
        }
    }
}

const char *expand_level_measured(const bp_variant *b)
{
    return b->result.replications > 1 ? "Per run, on average" : "Measured";
}

void expand_level_goal_rows(buf *out, const bp_variant *b, const bp_level *l, const bp_page *p,
                            bool json, bool live)
{
    bool first = true;
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const sim_goal *g = &l->goals[m];
        if (!(g->has_max || g->has_min))
            continue;
        const sim_goal_result *gr = &b->result.goals[m];
        buf val;
        buf_init(&val);
        fmt_measure(&val, (sim_measure)m, b->result.m[m].mean);
        if (json) {
            buf_printf(out, "%s{\"measure\":\"%s\",\"value\":\"", first ? "" : ",",
                       sim_measure_name((sim_measure)m));
            buf_json_str(out, val.data, val.len);
            buf_printf(out, "\",\"pass\":%s}", gr->pass ? "true" : "false");
        } else {
            buf gt;
            buf_init(&gt);
            expand_goal_text(&gt, (sim_measure)m, g);
            /* a live level's numbers carry data-measure themselves */
            const char *name = sim_measure_name((sim_measure)m);
            if (live)
                buf_puts(out, "<tr>");
            else
                buf_printf(out, "<tr data-measure=\"%s\">", name);
            buf_puts(out, "<th scope=\"row\">");
            expand_put_label(out, p, (sim_measure)m);
            buf_puts(out, "</th><td data-label=\"Goal\">");
            buf_html(out, gt.data, gt.len);
            buf_printf(out, "</td><td data-label=\"%s\"><span class=\"bp-num\"",
                       expand_level_measured(b));
            if (live)
                buf_printf(out, " data-measure=\"%s\"", name);
            buf_putc(out, '>');
            buf_html(out, val.data, val.len);
            buf_printf(out, "</span></td><td data-label=\"Result\"><span class=\"bp-%s\"",
                       gr->pass ? "pass" : "fail");
            if (live)
                buf_printf(out, " data-goal=\"%s\"", name);
            buf_printf(out, ">%s</span></td></tr>\n", gr->pass ? "Pass" : "Fail");
            buf_free(&gt);
        }
        buf_free(&val);
        first = false;
    }
}

void expand_level_goals_head(buf *out, const bp_variant *b)
{
    buf_printf(out,
               "<div class=\"bp-table-wrap\"><table class=\"bp-goals bp-reflow\">\n<thead><tr>"
               "<th scope=\"col\">Measure</th><th scope=\"col\">Goal</th>"
               "<th scope=\"col\">%s</th><th scope=\"col\">Result</th></tr></thead>\n<tbody>\n",
               expand_level_measured(b));
}

void expand_level_status(buf *out, const bp_variant *b)
{
    int missed = 0, total = 0;
    for (int m = 0; m < SIM_M_COUNT; m++) {
        if (!b->result.goals[m].present)
            continue;
        total++;
        missed += !b->result.goals[m].pass;
    }
    if (missed == 0)
        buf_puts(out, "Level complete: every goal is met.");
    else
        buf_printf(out, "Not yet: %d of %d goal%s missed.", missed, total, total == 1 ? "" : "s");
}

/* The widest wide rendering of the level's diagrams (or timelines). */
static int widest(const slevel *sl, bool timeline)
{
    int most = 0;
    for (size_t c = 0; c < sl->level->n_combos; c++) {
        const sfigure *f = timeline ? &sl->combos[c].tl : &sl->combos[c].fig;
        int w, h;
        expand_svg_size(f->svg[draw_look_index((draw_look){DRAW_WIDE, DRAW_LIGHT})], &w, &h);
        most = w > most ? w : most;
    }
    return most;
}

/* A combination's diagram for the script: "svg" (the <img>'s file), "w",
 * "h" (its size), "sources" and "sizes" (the <source>s', in order) and
 * "alt". The order is figure.c's. */
static void picture_json(buf *out, const char *stem, const sfigure *fig)
{
    static const draw_look order[] = {{DRAW_WIDE, DRAW_DARK},
                                      {DRAW_WIDE, DRAW_LIGHT},
                                      {DRAW_NARROW, DRAW_DARK},
                                      {DRAW_NARROW, DRAW_LIGHT}};
    int w, h;
    char *img = figure_file(stem, order[3]);
    figure_size(fig->svg[draw_look_index(order[3])], order[3], &w, &h);
    buf_puts(out, "\"svg\":\"");
    buf_json_str(out, img, strlen(img));
    buf_printf(out, "\",\"w\":%d,\"h\":%d,\"sources\":[", w, h);
    free(img);
    for (int k = 0; k < 3; k++) {
        char *file = figure_file(stem, order[k]);
        buf_printf(out, "%s\"", k ? "," : "");
        buf_json_str(out, file, strlen(file));
        buf_putc(out, '"');
        free(file);
    }
    buf_puts(out, "],\"sizes\":[");
    for (int k = 0; k < 3; k++) {
        figure_size(fig->svg[draw_look_index(order[k])], order[k], &w, &h);
        buf_printf(out, "%s[%d,%d]", k ? "," : "", w, h);
    }
    buf_puts(out, "],\"alt\":\"");
    buf_json_str(out, fig->alt, strlen(fig->alt));
    buf_putc(out, '"');
}

/* Combination c's timeline as a figure to step through (figure.c's
 * inline form, its rows for the stepper), named level-ID-timeline-C;
 * each switches to its wide rendering where the widest combination's
 * fits. */
static void level_timeline(page_ctx *pc, buf *out, const slevel *sl, size_t c)
{
    const bp_variant *b = &sl->combos[c];
    buf fid;
    buf_init(&fid);
    char *base = xasprintf("level-%s-timeline-%zu", sl->level->id, c);
    expand_unique_id(pc, &fid, base);
    free(base);
    fig_spec t = {&b->tl, NULL, "bp-diagram bp-level-timeline", FIG_LEVEL_INSET, widest(sl, true),
                  true, fid.data};
    buf_puts(out, "<figure class=\"bp-figure bp-timeline\" id=\"");
    buf_put(out, fid.data, fid.len);
    buf_printf(out, "\" data-combo=\"%zu\"", c);
    figure_timeline_rows(out, b->board, b->result.trace, b->result.n_trace);
    buf_putc(out, '>');
    figure_markup(out, &t);
    buf_puts(out, "</figure>");
    buf_free(&fid);
}

void expand_level_open(page_ctx *pc, buf *out, const bp_level *l, const char *classes)
{
    buf_printf(out, "<section class=\"bp-level%s\" id=\"", classes);
    char *base = xasprintf("level-%s", l->id);
    expand_unique_id(pc, out, base);
    free(base);
    buf_puts(out, "\" data-level=\"");
    buf_html_s(out, l->id);
    buf_puts(out, "\">\n<p class=\"bp-level-title\">");
    buf_html_s(out, l->title);
    buf_puts(out, "</p>\n");
}

void expand_level_start(buf *out, const bp_level *l, const int *opts)
{
    buf_puts(out, "<p class=\"bp-level-start\">The board as it starts: ");
    for (size_t i = 0; i < l->n_choices; i++) {
        if (i)
            buf_puts(out, "; ");
        buf_html_s(out, l->choices[i].label);
        buf_puts(out, ": ");
        buf_html_s(out, l->choices[i].options[opts[i]].label);
    }
    buf_puts(out, ".</p>\n");
}

int expand_level(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    if (n != 2)
        return expand_err_word(a, &w[0], "level takes one level id: {{ level ID }}");
    char *id = expand_word_str(&w[1]);
    slevel *sl = expand_page_level(pc, id);
    if (!sl) {
        int rc = expand_err_unlisted(a, &w[1], id, "level");
        free(id);
        return rc;
    }
    free(id);
    const bp_level *l = sl->level;
    if (l->live)
        return expand_live_level(pc, a, sl, out);
    int rc = 0;
    /* Every combination's pictures go into the page folder. */
    for (size_t c = 0; c < l->n_combos; c++) {
        bp_variant *b = &sl->combos[c];
        if (figure_board(pc->d, b, pc->page->path, a->line, a->col) != 0) {
            rc = -1;
            continue;
        }
        char *stem = xasprintf("level-%s-%zu", l->id, c);
        if (expand_figure_files(pc, stem, &b->fig) != 0)
            rc = -1;
        free(stem);
        if (l->timeline) {
            if (!b->want_trace) {
                diag_error(pc->d, l->path, l->pos.line, l->pos.col,
                           "timeline: true needs a small board (at most %d jobs)",
                           TIMELINE_MAX_JOBS);
                return -1;
            }
            if (figure_timeline(pc->d, b, pc->page->path, a->line, a->col) != 0)
                rc = -1;
        }
    }
    if (rc != 0)
        return -1;
    pc->interactive = true;
    const bp_variant *start = &sl->combos[sl->start];
    int opts[8];
    level_combo(l, sl->start, opts);

    expand_level_open(pc, out, l, l->toggle ? " bp-toggle" : "");
    if (l->toggle) {
        buf_printf(out,
                   "<button type=\"button\" class=\"bp-toggle-btn\" aria-pressed=\"%s\" hidden>",
                   opts[0] == 1 ? "true" : "false");
        buf_html_s(out, l->choices[0].label);
        buf_puts(out, "</button>\n<p class=\"bp-toggle-state\">");
        buf_html_s(out, l->choices[0].label);
        buf_puts(out, ": <span class=\"bp-toggle-value\">");
        buf_html_s(out, l->choices[0].options[opts[0]].label);
        buf_puts(out, "</span></p>\n");
    } else {
        buf_puts(out, "<form class=\"bp-choices\" hidden>\n");
        for (size_t i = 0; i < l->n_choices; i++) {
            const bp_choice *ch = &l->choices[i];
            buf_puts(out, "<fieldset><legend>");
            buf_html_s(out, ch->label);
            buf_puts(out, "</legend>");
            for (size_t k = 0; k < ch->n_options; k++) {
                buf_printf(out, "<label><input type=\"radio\" name=\"%s-%zu\" value=\"%zu\"%s> ",
                           l->id, i, k, (int)k == opts[i] ? " checked" : "");
                buf_html_s(out, ch->options[k].label);
                buf_puts(out, "</label>");
            }
            buf_puts(out, "</fieldset>\n");
        }
        buf_puts(out, "</form>\n");
        expand_level_start(out, l, opts);
    }
    if (l->n_counts) {
        buf_puts(out, "<p class=\"bp-counts\" aria-live=\"polite\">");
        counts_line(out, start, l, pc->page);
        buf_puts(out, "</p>\n");
    }
    /* the starting combination's pictures; each switches to its wide
     * rendering where the widest combination's fits, so they all switch
     * together */
    char *stem = xasprintf("level-%s-%zu", l->id, sl->start);
    fig_spec f = {
        &start->fig, stem, "bp-diagram bp-level-diagram", FIG_LEVEL_INSET, widest(sl, false),
        false,       NULL};
    buf_puts(out, "<figure class=\"bp-figure bp-level-board\">");
    figure_markup(out, &f);
    free(stem);
    buf_puts(out, "</figure>\n");
    if (l->timeline) {
        /* every combination's timeline in the page, to step through: the
         * starting one shown, the others in a <template> each, which the
         * script puts beside it (static/boardpress.js) */
        buf_puts(out, "<div class=\"bp-level-timelines\">");
        for (size_t c = 0; c < l->n_combos; c++) {
            if (c != sl->start)
                buf_printf(out, "<template data-combo=\"%zu\">", c);
            level_timeline(pc, out, sl, c);
            if (c != sl->start)
                buf_puts(out, "</template>");
        }
        buf_puts(out, "</div>\n");
    }
    if (!l->toggle) {
        expand_level_goals_head(out, start);
        expand_level_goal_rows(out, start, l, pc->page, false, false);
        buf_puts(out, "</tbody></table></div>\n<p class=\"bp-level-status\" role=\"status\">");
        expand_level_status(out, start);
        buf_puts(out, "</p>\n<button type=\"button\" class=\"bp-reset\" hidden>Reset</button>\n");
    }
    /* Every combination, for the script. */
    buf_puts(out, "<script type=\"application/json\" class=\"bp-data\">");
    buf_puts(out, "{\"id\":\"");
    buf_json_str(out, l->id, strlen(l->id));
    buf_printf(out, "\",\"toggle\":%s,\"start\":%zu,\"choices\":[", l->toggle ? "true" : "false",
               sl->start);
    for (size_t i = 0; i < l->n_choices; i++) {
        const bp_choice *ch = &l->choices[i];
        buf_printf(out, "%s{\"label\":\"", i ? "," : "");
        buf_json_str(out, ch->label, strlen(ch->label));
        buf_puts(out, "\",\"options\":[");
        for (size_t k = 0; k < ch->n_options; k++) {
            buf_printf(out, "%s\"", k ? "," : "");
            buf_json_str(out, ch->options[k].label, strlen(ch->options[k].label));
            buf_putc(out, '"');
        }
        buf_printf(out, "],\"start\":%d}", ch->start);
    }
    buf_puts(out, "],\"combos\":[");
    for (size_t c = 0; c < l->n_combos; c++) {
        const bp_variant *b = &sl->combos[c];
        /* each picture's files and sizes in the order of its <picture>'s
         * sources and <img>, so the script can swap them and reserve the
         * largest: swapping pictures never moves the text below */
        char *cstem = xasprintf("level-%s-%zu", l->id, c);
        buf_puts(out, c ? ",{" : "{");
        picture_json(out, cstem, &b->fig);
        free(cstem);
        if (l->n_counts) {
            buf cl;
            buf_init(&cl);
            counts_line(&cl, b, l, pc->page);
            buf_puts(out, ",\"counts\":\"");
            buf_json_str(out, cl.data, cl.len);
            buf_putc(out, '"');
            buf_free(&cl);
        }
        buf_puts(out, ",\"goals\":[");
        expand_level_goal_rows(out, b, l, pc->page, true, false);
        buf st;
        buf_init(&st);
        expand_level_status(&st, b);
        buf_puts(out, "],\"status\":\"");
        buf_json_str(out, st.data, st.len);
        buf_printf(out, "\",\"win\":%s}", b->result.all_goals_pass ? "true" : "false");
        buf_free(&st);
    }
    buf_puts(out, "]}</script>\n</section>\n");

    /* results.json: every combination */
    for (size_t c = 0; c < l->n_combos; c++) {
        char *key = xasprintf("level:%s:%zu", l->id, c);
        expand_results_board(pc, key, &sl->combos[c]);
        free(key);
    }
    return 0;
}
