/* levels.c — {{ level ID }}: a playable level. Every combination's
 * diagram (and timeline) goes into the page folder; the starting one is
 * shown with its counts and goals table, so the page reads without the
 * script, and every combination's numbers are embedded for it. */
#include "render/render_internal.h"
#include "base/fmt.h"
#include "draw/figures.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ level */

static void counts_line(buf *out, const sboard *b, const bp_level *l)
{
    for (size_t i = 0; i < l->n_counts; i++) {
        sim_measure m = l->counts[i];
        double v = b->result.m[m].mean;
        if (i)
            buf_puts(out, " · ");
        bool one = v == 1;
        const char *noun = NULL;
        switch (m) {
        case SIM_M_JOBS:
            noun = one ? "job" : "jobs";
            break;
        case SIM_M_DELIVERIES:
            noun = one ? "delivery" : "deliveries";
            break;
        case SIM_M_EFFECTS:
            noun = b->board->sim.traffic.op == SIM_OP_CHARGE
                       ? (one ? "payment applied" : "payments applied")
                       : (one ? "write applied" : "writes applied");
            break;
        case SIM_M_DUPLICATES:
            noun = one ? "duplicate" : "duplicates";
            break;
        case SIM_M_CHARGED_TWICE:
            noun = "charged twice";
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
        if (noun) {
            fmt_number(out, v);
            buf_printf(out, " %s", noun);
        } else {
            buf_printf(out, "%s ", fmt_measure_label(m));
            fmt_measure(out, m, v);
        }
    }
}

void expand_level_goal_rows(buf *out, const sboard *b, const bp_level *l, bool json, bool live)
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
            if (live)
                buf_puts(out, "<tr>");
            else
                buf_printf(out, "<tr data-measure=\"%s\">", sim_measure_name((sim_measure)m));
            buf_printf(out, "<th scope=\"row\">%s</th><td>", fmt_measure_label((sim_measure)m));
            buf_html(out, gt.data, gt.len);
            const char *name = sim_measure_name((sim_measure)m);
            if (live)
                buf_printf(out, "</td><td><span class=\"bp-num\" data-measure=\"%s\">", name);
            else
                buf_puts(out, "</td><td><span class=\"bp-num\">");
            buf_html(out, val.data, val.len);
            buf_printf(out, "</span></td><td><span class=\"bp-%s\"", gr->pass ? "pass" : "fail");
            if (live)
                buf_printf(out, " data-goal=\"%s\"", name);
            buf_printf(out, ">%s</span></td></tr>\n", gr->pass ? "Pass" : "Fail");
            buf_free(&gt);
        }
        buf_free(&val);
        first = false;
    }
}

void expand_level_status(buf *out, const sboard *b)
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
        sboard *b = &sl->combos[c];
        if (figure_board(pc->s, b, pc->page->path, a->line, a->col) != 0) {
            rc = -1;
            continue;
        }
        char *file = xasprintf("level-%s-%zu.svg", l->id, c);
        if (expand_page_file(pc, file, b->svg) != 0)
            rc = -1;
        free(file);
        if (l->timeline) {
            if (!b->want_trace) {
                diag_error(&pc->s->d, l->path, l->pos.line, l->pos.col,
                           "timeline: true needs a small board (at most %d jobs)",
                           TIMELINE_MAX_JOBS);
                return -1;
            }
            if (figure_timeline(pc->s, b, pc->page->path, a->line, a->col) != 0) {
                rc = -1;
                continue;
            }
            file = xasprintf("level-%s-%zu-timeline.svg", l->id, c);
            if (expand_page_file(pc, file, b->tl_svg) != 0)
                rc = -1;
            free(file);
        }
    }
    if (rc != 0)
        return -1;
    pc->interactive = true;
    const sboard *start = &sl->combos[sl->start];
    int opts[8];
    level_combo(l, sl->start, opts);

    buf_puts(out, "<section class=\"bp-level");
    if (l->toggle)
        buf_puts(out, " bp-toggle");
    buf_puts(out, "\" id=\"");
    char *base = xasprintf("level-%s", l->id);
    expand_unique_id(pc, out, base);
    free(base);
    buf_puts(out, "\" data-level=\"");
    buf_html_s(out, l->id);
    buf_puts(out, "\">\n<p class=\"bp-level-title\">");
    buf_html_s(out, l->title);
    buf_puts(out, "</p>\n");
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
        buf_puts(out, "</form>\n<p class=\"bp-level-start\">The board as it starts: ");
        for (size_t i = 0; i < l->n_choices; i++) {
            if (i)
                buf_puts(out, "; ");
            buf_html_s(out, l->choices[i].label);
            buf_puts(out, ": ");
            buf_html_s(out, l->choices[i].options[opts[i]].label);
        }
        buf_puts(out, ".</p>\n");
    }
    if (l->n_counts) {
        buf_puts(out, "<p class=\"bp-counts\" aria-live=\"polite\">");
        counts_line(out, start, l);
        buf_puts(out, "</p>\n");
    }
    char *file = xasprintf("level-%s-%zu.svg", l->id, sl->start);
    buf_puts(out, "<figure class=\"bp-figure bp-level-board\">");
    expand_img(out, file, start->svg, start->alt, "bp-diagram bp-level-diagram");
    free(file);
    buf_puts(out, "</figure>\n");
    if (l->timeline) {
        file = xasprintf("level-%s-%zu-timeline.svg", l->id, sl->start);
        buf_puts(out, "<figure class=\"bp-figure bp-timeline\">");
        expand_img(out, file, start->tl_svg, start->tl_alt, "bp-diagram bp-level-timeline");
        free(file);
        buf_puts(out, "</figure>\n");
    }
    if (!l->toggle) {
        buf_puts(out, "<div class=\"bp-table-wrap\"><table class=\"bp-goals\">\n<thead><tr>"
                      "<th scope=\"col\">Measure</th><th scope=\"col\">Goal</th>"
                      "<th scope=\"col\">Measured</th><th scope=\"col\">Result</th></tr></thead>"
                      "\n<tbody>\n");
        expand_level_goal_rows(out, start, l, false, false);
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
        const sboard *b = &sl->combos[c];
        /* w, h: each picture's size, so the script can reserve the largest
         * and swapping pictures never moves the text below */
        int pw, ph;
        expand_svg_size(b->svg, &pw, &ph);
        buf_printf(out, "%s{\"svg\":\"level-%s-%zu.svg\",\"w\":%d,\"h\":%d,\"alt\":\"",
                   c ? "," : "", l->id, c, pw, ph);
        buf_json_str(out, b->alt, strlen(b->alt));
        buf_putc(out, '"');
        if (l->timeline) {
            expand_svg_size(b->tl_svg, &pw, &ph);
            buf_printf(out,
                       ",\"timeline\":\"level-%s-%zu-timeline.svg\",\"tw\":%d,\"th\":%d,"
                       "\"timeline_alt\":\"",
                       l->id, c, pw, ph);
            buf_json_str(out, b->tl_alt, strlen(b->tl_alt));
            buf_putc(out, '"');
        }
        if (l->n_counts) {
            buf cl;
            buf_init(&cl);
            counts_line(&cl, b, l);
            buf_puts(out, ",\"counts\":\"");
            buf_json_str(out, cl.data, cl.len);
            buf_putc(out, '"');
            buf_free(&cl);
        }
        buf_puts(out, ",\"goals\":[");
        expand_level_goal_rows(out, b, l, true, false);
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
