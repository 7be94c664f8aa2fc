/* live.c — {{ level ID }} for a live level: one the reader's browser
 * re-simulates with the same sim-core (a range choice, or a sandbox).
 *
 * Without JavaScript or WebAssembly the section reads as any level does:
 * the starting state, its diagram and numbers measured at build time, and
 * a line saying so. For the page script (generator/web/bp-live.js) every
 * slider is <input type="range" data-set="PATH" data-value="VALUE"> (PATH
 * and VALUE as `boardpress sim --set PATH=VALUE` takes them), every number
 * the section shows is an element with data-measure="NAME" whose text is
 * the value formatted as the page formats it, every verdict data-goal, and
 * the diagrams are inline (figure.c's inline form: all four renderings)
 * so their numbers can be rewritten too. The data
 * block holds the board's wire bytes cut per choice (load/live.c). */
#include "render/render_internal.h"
#include "base/fmt.h"
#include "draw/figures.h"
#include "load/board.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ helpers */

static void put_base64(buf *out, const uint8_t *p, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        buf_putc(out, abc[(v >> 18) & 63]);
        buf_putc(out, abc[(v >> 12) & 63]);
        buf_putc(out, i + 1 < n ? abc[(v >> 6) & 63] : '=');
        buf_putc(out, i + 2 < n ? abc[v & 63] : '=');
    }
}

static void put_json_text(buf *out, const char *s)
{
    buf_putc(out, '"');
    buf_json_str(out, s, strlen(s));
    buf_putc(out, '"');
}

/* The widest wide rendering of the level's diagrams: every one switches
 * to its wide rendering at the same width. */
static int widest_drawn(const slevel *sl)
{
    int most = 0;
    for (size_t d = 0; d < sl->live->n_drawn; d++) {
        const sfigure *f = &sl->combos[sl->live->drawn[d]].fig;
        int w, h;
        expand_svg_size(f->svg[draw_look_index((draw_look){DRAW_WIDE, DRAW_LIGHT})], &w, &h);
        most = w > most ? w : most;
    }
    return most;
}

/* The positions of the option lists (not the ranges) of variant c, as the
 * script names a diagram: "1.0"; "" with none. */
static void drawn_key(buf *out, const slevel *sl, size_t c)
{
    const bp_level *l = sl->level;
    bool first = true;
    for (size_t i = 0; i < l->n_choices; i++) {
        if (l->choices[i].range)
            continue;
        buf_printf(out, "%s%d", first ? "" : ".", sl->opts[c * l->n_choices + i]);
        first = false;
    }
}

/* ------------------------------------------------------------ the section */

static void controls(buf *out, const slevel *sl, const int *start)
{
    const bp_level *l = sl->level;
    buf_puts(out, "<form class=\"bp-choices bp-live-choices\" hidden>\n");
    for (size_t i = 0; i < l->n_choices; i++) {
        const bp_choice *ch = &l->choices[i];
        const bp_option *o = &ch->options[start[i]];
        if (ch->range) {
            buf_printf(out, "<div class=\"bp-slider\"><label for=\"level-%s-%zu\">", l->id, i);
            buf_html_s(out, ch->label);
            buf_printf(out,
                       "</label><input type=\"range\" id=\"level-%s-%zu\" name=\"%s-%zu\" "
                       "min=\"0\" max=\"%zu\" step=\"1\" value=\"%d\" data-set=\"",
                       l->id, i, l->id, i, ch->n_options - 1, start[i]);
            buf_html_s(out, ch->set);
            buf_puts(out, "\" data-value=\"");
            buf_html_s(out, o->value);
            buf_puts(out, "\" aria-valuetext=\"");
            buf_html_s(out, o->label);
            buf_printf(out, "\"><output for=\"level-%s-%zu\" class=\"bp-slider-value\">", l->id, i);
            buf_html_s(out, o->label);
            buf_puts(out, "</output></div>\n");
            continue;
        }
        buf_puts(out, "<fieldset data-set=\"");
        buf_html_s(out, ch->set);
        buf_puts(out, "\"><legend>");
        buf_html_s(out, ch->label);
        buf_puts(out, "</legend>");
        for (size_t k = 0; k < ch->n_options; k++) {
            buf_printf(out, "<label><input type=\"radio\" name=\"%s-%zu\" value=\"%zu\"", l->id, i,
                       k);
            buf_puts(out, " data-value=\"");
            buf_html_s(out, ch->options[k].value);
            buf_printf(out, "\"%s> ", (int)k == start[i] ? " checked" : "");
            buf_html_s(out, ch->options[k].label);
            buf_puts(out, "</label>");
        }
        buf_puts(out, "</fieldset>\n");
    }
    buf_puts(out, "</form>\n");
    expand_level_start(out, l, start);
}

/* What the last move changed ("duplicates 110.3 -> 147.2", written by the
 * script) and, on a level with goals, its verdict: kept in view while any
 * of the level is (static/boardpress.css), so a reader sees the effect of
 * a move wherever the control they moved sits. */
static void now_line(buf *out, const slevel *sl, const sboard *start)
{
    buf_puts(out, "<div class=\"bp-level-now\"><p class=\"bp-live-changed\" aria-live=\"polite\" "
                  "hidden></p>");
    if (!sl->level->sandbox) {
        buf_puts(out, "<p class=\"bp-level-status\" role=\"status\">");
        expand_level_status(out, start);
        buf_puts(out, "</p>");
    }
    buf_puts(out, "</div>\n");
}

/* The counts: a table of measures with their means, as data-measure. */
static void counts_table(buf *out, const sboard *b, const bp_level *l, const bp_page *p)
{
    buf_puts(out, "<div class=\"bp-table-wrap\"><table class=\"bp-live-counts\">\n<thead><tr>"
                  "<th scope=\"col\">Measure</th><th scope=\"col\">Measured</th></tr></thead>\n"
                  "<tbody>\n");
    for (size_t i = 0; i < l->n_counts; i++) {
        sim_measure m = l->counts[i];
        buf v;
        buf_init(&v);
        fmt_measure(&v, m, b->result.m[m].mean);
        buf_printf(out,
                   "<tr><th scope=\"row\">");
        expand_put_label(out, p, m);
        buf_printf(out, "</th><td><span class=\"bp-num\" data-measure=\"%s\">", sim_measure_name(m));
        buf_html(out, v.data, v.len);
        buf_puts(out, "</span></td></tr>\n");
        buf_free(&v);
    }
    buf_puts(out, "</tbody></table></div>\n");
}

/* The numbers' provenance: measured at build time until the script says
 * otherwise (it rewrites .bp-live-where). */
static void provenance(buf *out, const sboard *b)
{
    const bp_board *bb = b->board;
    int reps = b->result.replications;
    buf_printf(out,
               "<p class=\"bp-live-note\"><span class=\"bp-live-where\" aria-live=\"polite\">"
               "These numbers were measured when the page was built</span> (seed %llu, "
               "<span class=\"bp-live-runs\">%d run%s</span>). <span class=\"bp-live-how\">With "
               "JavaScript and WebAssembly your browser "
               "runs the same simulator again on every change.</span></p>\n",
               (unsigned long long)bb->sim.seed, reps, reps == 1 ? "" : "s");
}

/* The data block: the choices with each value's label, --set text and
 * slot bytes, the start's bytes and the slots in order, the work of each
 * value (jobs, most replications), the goals and counts shown. */
static void data_block(buf *out, page_ctx *pc, const slevel *sl, const int *start)
{
    const bp_level *l = sl->level;
    const slive *lv = sl->live;
    const sboard *b0 = &sl->combos[sl->start];
    buf_puts(out, "<script type=\"application/json\" class=\"bp-data\">{\"id\":");
    put_json_text(out, l->id);
    buf_puts(out, ",\"file\":"); /* content-relative: boardpress sim content/FILE --set ... */
    put_json_text(out, sl->file);
    buf_printf(out, ",\"live\":true,\"sandbox\":%s,\"static\":\"%sstatic/\",\"seed\":%llu,",
               l->sandbox ? "true" : "false", pc->page->is_home ? "" : "../",
               (unsigned long long)b0->board->sim.seed);
    buf_printf(out, "\"jobs\":%lld,\"replications\":%d,\"start\":[",
               (long long)b0->board->sim.traffic.jobs, board_max_replications(b0->board));
    for (size_t i = 0; i < l->n_choices; i++)
        buf_printf(out, "%s%d", i ? "," : "", start[i]);
    buf_puts(out, "],\"choices\":[");
    for (size_t i = 0; i < l->n_choices; i++) {
        const bp_choice *ch = &l->choices[i];
        const slive_choice *sc = &lv->choices[i];
        buf_puts(out, i ? ",{\"label\":" : "{\"label\":");
        put_json_text(out, ch->label);
        buf_puts(out, ",\"set\":");
        put_json_text(out, ch->set);
        buf_printf(out, ",\"range\":%s,\"values\":[", ch->range ? "true" : "false");
        for (size_t k = 0; k < ch->n_options; k++) {
            buf_puts(out, k ? ",{\"label\":" : "{\"label\":");
            put_json_text(out, ch->options[k].label);
            buf_puts(out, ",\"value\":");
            put_json_text(out, ch->options[k].value);
            buf_puts(out, ",\"wire\":\"");
            put_base64(out, sc->bytes[k], sc->len[k]);
            buf_putc(out, '"');
            /* the work of a run, where this value changes it (the cap) */
            if (sc->jobs[k] != b0->board->sim.traffic.jobs)
                buf_printf(out, ",\"jobs\":%lld", (long long)sc->jobs[k]);
            if (sc->reps[k] != board_max_replications(b0->board))
                buf_printf(out, ",\"replications\":%d", sc->reps[k]);
            buf_putc(out, '}');
        }
        buf_puts(out, "]}");
    }
    buf_puts(out, "],\"wire\":{\"start\":\"");
    put_base64(out, lv->start, lv->start_len);
    buf_puts(out, "\",\"slots\":[");
    /* the slots in the order they lie; choices that change no byte have none */
    size_t at = 0, shown = 0;
    for (;;) {
        size_t next = SIZE_MAX;
        for (size_t i = 0; i < l->n_choices; i++)
            if (lv->choices[i].end > lv->choices[i].at && lv->choices[i].at >= at &&
                (next == SIZE_MAX || lv->choices[i].at < lv->choices[next].at))
                next = i;
        if (next == SIZE_MAX)
            break;
        buf_printf(out, "%s{\"choice\":%zu,\"at\":%zu,\"end\":%zu}", shown++ ? "," : "", next,
                   lv->choices[next].at, lv->choices[next].end);
        at = lv->choices[next].end;
    }
    buf_puts(out, "]},\"goals\":[");
    bool first = true;
    for (int m = 0; !l->sandbox && m < SIM_M_COUNT; m++) {
        if (!(l->goals[m].has_max || l->goals[m].has_min))
            continue;
        buf_printf(out, "%s\"%s\"", first ? "" : ",", sim_measure_name((sim_measure)m));
        first = false;
    }
    buf_puts(out, "],\"counts\":[");
    for (size_t i = 0; i < l->n_counts; i++)
        buf_printf(out, "%s\"%s\"", i ? "," : "", sim_measure_name(l->counts[i]));
    /* the words for each measure the section shows, for the line of what
     * a move changed */
    buf_puts(out, "],\"labels\":{");
    first = true;
    for (int m = 0; m < SIM_M_COUNT; m++) {
        bool on_page = !l->sandbox && (l->goals[m].has_max || l->goals[m].has_min);
        for (size_t i = 0; i < l->n_counts; i++)
            on_page = on_page || l->counts[i] == (sim_measure)m;
        if (!on_page)
            continue;
        buf_printf(out, "%s\"%s\":", first ? "" : ",", sim_measure_name((sim_measure)m));
        put_json_text(out, page_measure_label(pc->page, (sim_measure)m));
        first = false;
    }
    buf_puts(out, "}}</script>\n");
}

int expand_live_level(page_ctx *pc, const ph_at *a, slevel *sl, buf *out)
{
    const bp_level *l = sl->level;
    const slive *lv = sl->live;
    size_t nc = l->n_choices;
    /* each diagram with its ranges' values as the page labels them */
    int rc = 0;
    for (size_t d = 0; d < lv->n_drawn; d++)
        if (figure_board_live(pc->s, &sl->combos[lv->drawn[d]], pc->page->path, a->line, a->col) !=
            0)
            rc = -1;
    if (rc != 0)
        return -1;
    pc->interactive = pc->live = true;
    const sboard *start = &sl->combos[sl->start];
    const int *opts = &sl->opts[sl->start * nc];

    expand_level_open(pc, out, l, l->sandbox ? " bp-live-level bp-sandbox" : " bp-live-level");
    /* from 1024 px the controls and the numbers they change sit side by
     * side above the diagram; below that the boxes fall away (display:
     * contents) and the parts stack in this order */
    buf_puts(out, "<div class=\"bp-live-top\"><div class=\"bp-live-controls\">\n");
    controls(out, sl, opts);
    now_line(out, sl, start);
    buf_puts(out, "<button type=\"button\" class=\"bp-reset\" hidden>Reset</button>\n"
                  "</div>\n<div class=\"bp-live-numbers\">\n");
    if (!l->sandbox) {
        buf_puts(out,
                 "<div class=\"bp-table-wrap\"><table class=\"bp-goals bp-reflow\">\n<thead><tr>"
                 "<th scope=\"col\">Measure</th><th scope=\"col\">Goal</th>"
                 "<th scope=\"col\">Measured</th><th scope=\"col\">Result</th></tr></thead>"
                 "\n<tbody>\n");
        expand_level_goal_rows(out, start, l, pc->page, false, true);
        buf_puts(out, "</tbody></table></div>\n");
    }
    if (l->n_counts)
        counts_table(out, start, l, pc->page);
    buf_puts(out, "</div></div>\n");
    int wide_w = widest_drawn(sl);
    buf_puts(out, "<figure class=\"bp-figure bp-level-board bp-live-board\">");
    for (size_t d = 0; d < lv->n_drawn; d++) {
        size_t c = lv->drawn[d];
        buf_puts(out, "<div class=\"bp-live-drawing\" data-options=\"");
        drawn_key(out, sl, c);
        buf_printf(out, "\"%s>", c == sl->start ? "" : " hidden");
        /* inline, all four renderings: the page rewrites their numbers */
        char *prefix = xasprintf("level-%s-d%zu", l->id, d);
        fig_spec f = {&sl->combos[c].fig,
                      NULL,
                      "bp-diagram bp-level-diagram",
                      FIG_LEVEL_INSET,
                      wide_w,
                      true,
                      prefix};
        figure_markup(out, &f);
        free(prefix);
        buf_puts(out, "</div>");
    }
    buf_puts(out, "</figure>\n");
    provenance(out, start);
    data_block(out, pc, sl, opts);
    buf_puts(out, "</section>\n");

    /* results.json: the states drawn, each measured at build time */
    for (size_t d = 0; d < lv->n_drawn; d++) {
        char *key = xasprintf("level:%s:%zu", l->id, lv->drawn[d]);
        expand_results_board(pc, key, &sl->combos[lv->drawn[d]]);
        free(key);
    }
    return 0;
}
