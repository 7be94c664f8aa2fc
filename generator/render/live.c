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

void put_base64(buf *out, const uint8_t *p, size_t n)
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

/* ------------------------------------------------------------ the sweep */

/* A sweep's chart: its plot area in the viewBox (bp-live.js draws in the
 * same one, reading it from the svg's data-plot). */
#define SWEEP_W 320
#define SWEEP_H 96
#define SWEEP_LEFT 8
#define SWEEP_RIGHT 312
#define SWEEP_TOP 16
#define SWEEP_BOTTOM 72

static double sweep_x(size_t k, size_t n)
{
    return n > 1 ? SWEEP_LEFT + (double)k * (SWEEP_RIGHT - SWEEP_LEFT) / (double)(n - 1)
                 : (SWEEP_LEFT + SWEEP_RIGHT) / 2.0;
}

static double sweep_y(double v, double top)
{
    return SWEEP_BOTTOM - (top > 0 ? v / top : 0) * (SWEEP_BOTTOM - SWEEP_TOP);
}

/* The chart of choice i's sweep measure over its whole range, the other
 * choices at their start, measured at build time: one point per value
 * (data-x the value, data-y the measure as the page writes it), the
 * slider's own marked data-current. bp-live.js redraws it in a worker
 * when the reader changes the other choices. */
static void sweep_chart(buf *out, const slevel *sl, size_t i, const bp_page *p)
{
    const bp_level *l = sl->level;
    const bp_choice *ch = &l->choices[i];
    const size_t *at = sl->live->choices[i].sweep;
    size_t n = ch->n_options;
    sim_measure m = ch->sweep;
    double top = 0;
    for (size_t k = 0; k < n; k++) {
        double v = sl->combos[at[k]].result.m[m].mean;
        top = v > top ? v : top;
    }
    buf_puts(out, "<figure class=\"bp-sweep\" data-sweep=\"");
    buf_html_s(out, ch->set);
    buf_printf(out,
               "\" data-pass=\"build\"><svg class=\"bp-sweep-chart\" viewBox=\"0 0 %d %d\" "
               "data-plot=\"%d %d %d %d\" role=\"img\" aria-label=\"",
               SWEEP_W, SWEEP_H, SWEEP_LEFT, SWEEP_TOP, SWEEP_RIGHT, SWEEP_BOTTOM);
    expand_put_label(out, p, m);
    buf_puts(out, " at every value of ");
    buf_html_s(out, ch->label);
    buf_puts(out, " (");
    buf_html_s(out, ch->options[0].label);
    buf_puts(out, " to ");
    buf_html_s(out, ch->options[n - 1].label);
    buf_puts(out, ")\">");
    buf_printf(out, "<line class=\"bp-sweep-axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
               SWEEP_LEFT, SWEEP_BOTTOM, SWEEP_RIGHT, SWEEP_BOTTOM);
    buf v;
    buf_init(&v);
    fmt_measure(&v, m, top);
    buf_printf(out, "<text class=\"bp-sweep-top\" x=\"%d\" y=\"%d\">", SWEEP_LEFT,
               SWEEP_TOP - 5);
    /* what the chart draws, and its top ("Lost charges: highest 25.2");
     * bp-live.js writes the same when it redraws */
    expand_put_label(out, p, m);
    if (top > 0) {
        buf_puts(out, ": highest ");
        buf_html(out, v.data, v.len);
    } else {
        buf_puts(out, ": 0 at every value");
    }
    buf_printf(out, "</text><text class=\"bp-sweep-end\" x=\"%d\" y=\"%d\">", SWEEP_LEFT,
               SWEEP_BOTTOM + 16);
    buf_html_s(out, ch->options[0].label);
    buf_printf(out, "</text><text class=\"bp-sweep-end\" x=\"%d\" y=\"%d\" text-anchor=\"end\">",
               SWEEP_RIGHT, SWEEP_BOTTOM + 16);
    buf_html_s(out, ch->options[n - 1].label);
    buf_puts(out, "</text><polyline class=\"bp-sweep-line\" points=\"");
    for (size_t k = 0; k < n; k++)
        buf_printf(out, "%s%.1f,%.1f", k ? " " : "", sweep_x(k, n),
                   sweep_y(sl->combos[at[k]].result.m[m].mean, top));
    buf_puts(out, "\"/>");
    for (size_t k = 0; k < n; k++) {
        double y = sl->combos[at[k]].result.m[m].mean;
        bool cur = (int)k == sl->opts[sl->start * l->n_choices + i];
        buf_printf(out,
                   "<circle class=\"bp-sweep-point\" cx=\"%.1f\" cy=\"%.1f\" r=\"%s\" data-x=\"",
                   sweep_x(k, n), sweep_y(y, top), cur ? "4.5" : "2");
        buf_html_s(out, ch->options[k].label);
        buf_puts(out, "\" data-y=\"");
        buf_clear(&v);
        fmt_measure(&v, m, y);
        buf_html(out, v.data, v.len);
        buf_printf(out, "\"%s/>", cur ? " data-current=\"\"" : "");
    }
    buf_puts(out, "</svg><figcaption><span class=\"bp-sweep-what\">");
    expand_put_label(out, p, m);
    /* each point a mean of the level's runs: bp-live.js says the same
     * when it draws the build's points again */
    int reps = sl->combos[sl->start].result.replications;
    buf_puts(out, "</span> at every value of this slider, the other settings as they are; the "
                  "large dot is the slider's. <span class=\"bp-sweep-where\">Measured when the "
                  "page was built, ");
    if (reps > 1)
        buf_printf(out, "the mean of %d runs a point", reps);
    else
        buf_puts(out, "one run a point");
    buf_puts(out, ".</span></figcaption></figure>");
    buf_free(&v);
}

/* ------------------------------------------------------------ the section */

static void controls(buf *out, const slevel *sl, const int *start, const bp_page *p)
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
    /* outside the form, which is hidden until the simulator loads: the
     * build's sweep reads without it */
    for (size_t i = 0; i < l->n_choices; i++)
        if (l->choices[i].has_sweep)
            sweep_chart(out, sl, i, p);
    expand_level_start(out, l, start);
}

/* What the last move changed ("duplicates 110.3 -> 147.2", written by the
 * script) and, on a level with goals, its verdict: kept in view while any
 * of the level is (static/boardpress.css), so a reader sees the effect of
 * a move wherever the control they moved sits. */
static void now_line(buf *out, const slevel *sl, const bp_variant *start)
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

/* The counts: a table of measures with their means, as data-measure,
 * under a head that says they are means when they are. */
static void counts_table(buf *out, const bp_variant *b, const bp_level *l, const bp_page *p)
{
    buf_printf(out, "<div class=\"bp-table-wrap\"><table class=\"bp-live-counts\">\n<thead><tr>"
                    "<th scope=\"col\">Measure</th><th scope=\"col\">%s</th></tr></thead>\n"
                    "<tbody>\n",
               expand_level_measured(b));
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
static void provenance(buf *out, const bp_variant *b)
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
    const bp_variant *b0 = &sl->combos[sl->start];
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
            if (draw_factor_setting(ch->set)) { /* its whole phrase on a diagram */
                char words[64];
                draw_factor_words(words, sizeof words, ch->options[k].label);
                buf_puts(out, ",\"drawn\":");
                put_json_text(out, words);
            }
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
        buf_putc(out, ']');
        if (ch->has_sweep) { /* the build's points, exact (%.17g reads back the same) */
            buf_printf(out, ",\"sweep\":{\"measure\":\"%s\",\"y\":[",
                       sim_measure_name(ch->sweep));
            for (size_t k = 0; k < ch->n_options; k++)
                buf_printf(out, "%s%.17g", k ? "," : "",
                           sl->combos[sc->sweep[k]].result.m[ch->sweep].mean);
            buf_puts(out, "]}");
        }
        buf_putc(out, '}');
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
    buf_putc(out, ']');
    if (lv->one) { /* a sweep's first pass: each point once */
        buf_printf(out, ",\"one\":{\"at\":%zu,\"end\":%zu,\"wire\":\"", lv->one_at, lv->one_end);
        put_base64(out, lv->one, lv->one_len);
        buf_puts(out, "\"}");
    }
    buf_puts(out, "},\"goals\":[");
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
        if (figure_board_live(pc->d, &sl->combos[lv->drawn[d]], pc->page->path, a->line, a->col) !=
            0)
            rc = -1;
    if (rc != 0)
        return -1;
    pc->interactive = pc->live = true;
    const bp_variant *start = &sl->combos[sl->start];
    const int *opts = &sl->opts[sl->start * nc];

    expand_level_open(pc, out, l, l->sandbox ? " bp-live-level bp-sandbox" : " bp-live-level");
    /* from 1024 px the controls and the numbers they change sit side by
     * side above the diagram; below that the boxes fall away (display:
     * contents) and the parts stack in this order */
    buf_puts(out, "<div class=\"bp-live-top\"><div class=\"bp-live-controls\">\n");
    controls(out, sl, opts, pc->page);
    now_line(out, sl, start);
    buf_puts(out, "<button type=\"button\" class=\"bp-reset\" hidden>Reset</button>\n"
                  "</div>\n<div class=\"bp-live-numbers\">\n");
    if (!l->sandbox) {
        expand_level_goals_head(out, start);
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

/* ------------------------------------------------------------ numbers in prose */

/* What {{ scrub }} and {{ live }} name, for their errors. */
typedef struct {
    const char *directive; /* "scrub" */
    const char *takes;     /* "one slider": what a use takes of its level */
    const char *names;     /* "one of its sliders": what the name after the dot is */
    const char *form;      /* "LEVEL.SETTING" */
    const char *tail;      /* what the form's name is, said after it */
} quoted;

/* The opening {{ scrub }} and {{ live }} share: the level and the name of
 * "LEVEL.NAME" (w[1], of the n words), the level one the page lists and a
 * live one; NULL after an error. The level must also be shown
 * ({{ level ID }}: pages.c checks it at the end), since its section runs
 * the simulator for the numbers in prose. */
static slevel *quoted_level(page_ctx *pc, const ph_at *a, const word *w, size_t n, const quoted *q,
                            char **name)
{
    char msg[512];
    if (n != 2) {
        snprintf(msg, sizeof msg, "%s takes %s of a live level: {{ %s %s }}", q->directive,
                 q->takes, q->directive, q->form);
        expand_err_word(a, &w[0], msg);
        return NULL;
    }
    char *expr = expand_word_str(&w[1]);
    char *dot = strchr(expr, '.');
    if (!dot || !dot[1] || dot == expr) {
        snprintf(msg, sizeof msg, "{{ %s }} names a live level and %s: {{ %s %s }}, %s",
                 q->directive, q->names, q->directive, q->form, q->tail);
        expand_err_word(a, &w[1], msg);
        free(expr);
        return NULL;
    }
    *dot = '\0';
    size_t listed;
    slevel *sl = site_page_level(pc->s, pc->page, expr, &listed);
    word lw = w[1];
    lw.len = (size_t)(dot - expr);
    if (!sl) {
        expand_err_unlisted(a, &lw, expr, "level");
    } else if (!sl->level->live || !sl->live) {
        snprintf(msg, sizeof msg,
                 "level '%s' is not live (no slider, not a sandbox): {{ %s }} moves a level the "
                 "reader's browser runs again",
                 expr, q->directive);
        expand_err_word(a, &lw, msg);
        sl = NULL;
    } else if (!pc->quotes_level[listed].line) {
        pc->quotes_level[listed].line = a->line;
        pc->quotes_level[listed].col = a->col;
    }
    *name = sl ? xstrdup(dot + 1) : NULL;
    free(expr);
    return sl;
}

/* The number {{ scrub }} and {{ live }} put in a sentence:
 * <span class="CLS" data-level="ID" data-ATTR="VALUE">TEXT</span>, on a
 * page that then loads the live levels' script. */
static void quoted_span(buf *out, page_ctx *pc, const char *cls, const slevel *sl, const char *attr,
                        const char *value, const char *text)
{
    buf_printf(out, "<span class=\"%s\" data-level=\"", cls);
    buf_html_s(out, sl->level->id);
    buf_printf(out, "\" data-%s=\"", attr);
    buf_html_s(out, value);
    buf_puts(out, "\">");
    buf_html_s(out, text);
    buf_puts(out, "</span>");
    pc->interactive = pc->live = true;
}

/* Where the name after the dot starts, as a word for errors. */
static word after_dot(const word *w)
{
    word n = *w;
    const char *dot = memchr(w->s, '.', w->len);
    size_t skip = dot ? (size_t)(dot - w->s) + 1 : 0;
    n.s += skip;
    n.len -= skip;
    n.off += skip;
    return n;
}

/* The last segment of a choice's setting ("lose_reply" of
 * links.broker.processor.lose_reply): how prose names a slider. */
static const char *setting_name(const bp_choice *ch)
{
    const char *dot = strrchr(ch->set, '.');
    return dot ? dot + 1 : ch->set;
}

/* {{ scrub LEVEL.SETTING }}: a slider's value in a sentence, a number the
 * reader drags (bp-live.js makes it a slider once the simulator is
 * loaded: role, tabindex, aria-value*, arrow keys, Home/End, a sideways
 * drag). Its text is the start's value as the slider labels it. */
int expand_scrub(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    static const quoted q = {"scrub", "one slider", "one of its sliders", "LEVEL.SETTING",
                             "SETTING the last word of the slider's set: (lose_reply of "
                             "links.A.B.lose_reply)"};
    char *name = NULL;
    slevel *sl = quoted_level(pc, a, w, n, &q, &name);
    if (!sl)
        return -1;
    const bp_level *l = sl->level;
    const bp_choice *ch = NULL;
    const char *names[8];
    size_t nn = 0;
    for (size_t i = 0; i < l->n_choices; i++) {
        const bp_choice *c = &l->choices[i];
        if (strcmp(name, setting_name(c)) == 0 || strcmp(name, c->set) == 0)
            ch = c;
        if (c->range)
            names[nn++] = setting_name(c);
    }
    int rc = -1;
    word nw = after_dot(&w[1]);
    if (ch && !ch->range) {
        char msg[512];
        snprintf(msg, sizeof msg,
                 "'%s' of level '%s' is a list of options, not a slider: scrub drags a number "
                 "(a choice with a range)",
                 name, l->id);
        expand_err_word(a, &nw, msg);
    } else if (!ch) {
        char what[160];
        snprintf(what, sizeof what, "slider|of level '%s'", l->id);
        expand_err_unknown(a, &nw, what, name, names, nn);
    } else {
        size_t i = (size_t)(ch - l->choices);
        int k = sl->opts[sl->start * l->n_choices + i];
        quoted_span(out, pc, "bp-scrub", sl, "scrub", ch->set, ch->options[k].label);
        rc = 0;
    }
    free(name);
    return rc;
}

/* {{ live LEVEL.MEASURE }}: a number the level shows, in a sentence; the
 * page rewrites it with every run of the level. Its text is the start's,
 * measured at build time. */
int expand_live_value(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    static const quoted q = {"live", "one measure", "a number it shows", "LEVEL.MEASURE",
                             "MEASURE one of the level's counts or goals"};
    char *name = NULL;
    slevel *sl = quoted_level(pc, a, w, n, &q, &name);
    if (!sl)
        return -1;
    const bp_level *l = sl->level;
    /* the measures the level shows: a move anywhere then shows the number
     * in view (the line of what changed under its controls names it) */
    const char *names[SIM_M_COUNT];
    size_t nn = 0;
    int m = -1;
    for (int k = 0; k < SIM_M_COUNT; k++) {
        bool shown = !l->sandbox && (l->goals[k].has_max || l->goals[k].has_min);
        for (size_t i = 0; i < l->n_counts; i++)
            shown |= l->counts[i] == (sim_measure)k;
        if (!shown)
            continue;
        names[nn++] = sim_measure_name((sim_measure)k);
        if (strcmp(name, sim_measure_name((sim_measure)k)) == 0)
            m = k;
    }
    int rc = -1;
    if (m < 0) {
        char what[200];
        snprintf(what, sizeof what, "measure|among the counts and goals of level '%s'", l->id);
        word nw = after_dot(&w[1]);
        expand_err_unknown(a, &nw, what, name, names, nn);
    } else {
        buf v;
        buf_init(&v);
        fmt_measure(&v, (sim_measure)m, sl->combos[sl->start].result.m[m].mean);
        quoted_span(out, pc, "bp-num bp-live-num", sl, "measure", sim_measure_name((sim_measure)m),
                    v.data ? v.data : "");
        buf_free(&v);
        rc = 0;
    }
    free(name);
    return rc;
}
