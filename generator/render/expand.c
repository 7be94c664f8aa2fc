/* expand.c — a page's placeholders and directives into HTML: the entry
 * md_render calls for each {{ ... }}, which splits it into words and hands
 * it on; the value placeholders
 *   {{ BOARD.MEASURE }}, {{ BOARD.MEASURE | ci }} (min, max, worst, goal,
 *   pass, rate), {{ BOARD.MEASURE | diff OTHER }}, {{ catalog.SECTION.FIELD }}
 * and the figures {{ board ID }}, {{ timeline ID }}, {{ chart ID }}
 * ({{ compare }} and {{ key-numbers }}: compare.c; {{ level }}: levels.c;
 * what they all use: directive.c). Author text never reaches here; every
 * value written is escaped. */
#include "render/render_internal.h"
#include "base/fmt.h"
#include "draw/figures.h"
#include "load/fields.h"
#include "run/results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const filters[] = {"ci",   "min",  "max",  "worst", "goal",
                                      "pass", "rate", "diff", "number"};

/* ------------------------------------------------------------ words */

/* Split inner into words (at most max); returns the count. Offsets are kept
 * so errors can point at a word. */
static size_t split_words(const char *inner, size_t len, word *w, size_t max)
{
    size_t n = 0, i = 0;
    while (i < len && n < max) {
        while (i < len && (inner[i] == ' ' || inner[i] == '\t'))
            i++;
        if (i >= len)
            break;
        size_t start = i;
        if (inner[i] == '|') {
            i++;
        } else {
            while (i < len && inner[i] != ' ' && inner[i] != '\t' && inner[i] != '|')
                i++;
        }
        w[n].s = inner + start;
        w[n].len = i - start;
        w[n].off = start;
        n++;
    }
    while (i < len && (inner[i] == ' ' || inner[i] == '\t'))
        i++;
    if (i < len)
        n = max + 1; /* too many words */
    return n;
}

/* The catalog value SECTION.FIELD, or NULL after an error at w naming the
 * nearest section or field. */
const bp_catalog_value *expand_catalog_value(const ph_at *a, const word *w, const char *section,
                                             const char *field)
{
    const bp_catalog *cat = a->pc->s->cat;
    const bp_catalog_value *v = catalog_find(cat, section, field);
    if (v)
        return v;
    const char *cands[512];
    size_t nc = 0;
    bool section_known = false;
    for (size_t i = 0; i < cat->n_values; i++)
        section_known |= strcmp(cat->values[i].section, section) == 0;
    for (size_t i = 0; i < cat->n_values && nc < 512; i++) {
        const bp_catalog_value *cv = &cat->values[i];
        if (section_known && strcmp(cv->section, section) == 0)
            cands[nc++] = cv->field;
        else if (!section_known && (nc == 0 || strcmp(cands[nc - 1], cv->section) != 0))
            cands[nc++] = cv->section;
    }
    expand_err_unknown(a, w, section_known ? "catalog field" : "catalog section",
                       section_known ? field : section, cands, nc);
    return NULL;
}

/* "10.1" of "10.1 s", "5" of "5 tries", "20" of "20%": the number before its
 * unit (| number); text without a leading number stays as it is. */
static void bare_number(buf *v)
{
    size_t i = 0;
    while (i < v->len && (strchr("0123456789.,-", v->data[i]) ||
                          (i + 3 <= v->len && memcmp(v->data + i, "\xe2\x88\x92", 3) == 0)))
        i += (unsigned char)v->data[i] == 0xe2 ? 3 : 1;
    if (i > 0 && i < v->len) {
        v->len = i;
        v->data[i] = '\0';
    }
}

/* A measured value: mean, or with a filter (all but diff, which needs a
 * second board). Returns -1 with a message. */
static int value_text(buf *out, const bp_variant *b, sim_measure m, const char *filter,
                      diag_note *err)
{
    const sim_stat *st = &b->result.m[m];
    const sim_goal *g = &b->board->sim.goals[m];
    const sim_goal_result *gr = &b->result.goals[m];
    if (!filter) {
        fmt_measure(out, m, st->mean);
    } else if (strcmp(filter, "ci") == 0) {
        numbers_ci(out, b, m);
    } else if (strcmp(filter, "min") == 0) {
        fmt_measure(out, m, st->min);
    } else if (strcmp(filter, "max") == 0) {
        fmt_measure(out, m, st->max);
    } else if (strcmp(filter, "number") == 0) {
        fmt_measure(out, m, st->mean);
        bare_number(out);
    } else if (strcmp(filter, "rate") == 0) {
        sim_rate rt;
        if (sim_measure_rate_kind(m) == SIM_RATE_NONE) {
            diag_note_set(err,
                          "'| rate' is for counts of faults (duplicates, lost_writes, errors ...); "
                          "'%s' is not one",
                          sim_measure_name(m));
            return -1;
        }
        if (results_rate(&b->result, m, &rt) != 0) {
            diag_note_set(err, "board '%s' kept no per-run counts of '%s'", b->board->id,
                          sim_measure_name(m));
            return -1;
        }
        numbers_rate(out, &rt, board_noun(b->board, true));
    } else if (!gr->present) {
        diag_note_set(err, "'| %s' needs a goal on '%s', and board '%s' sets none", filter,
                      sim_measure_name(m), b->board->id);
        return -1;
    } else if (strcmp(filter, "worst") == 0) {
        fmt_measure(out, m, gr->worst);
    } else if (strcmp(filter, "goal") == 0) {
        expand_goal_text(out, m, g);
    } else if (strcmp(filter, "pass") == 0) {
        buf_puts(out, gr->pass ? "Pass" : "Fail");
    }
    return 0;
}

/* {{ B.MEASURE | diff A }}: B − A run by run. Returns -1 (reported). */
static int diff_text(page_ctx *pc, const ph_at *a, word *w, const bp_variant *b, sim_measure m,
                     buf *out)
{
    char *id = expand_word_str(&w[3]);
    bp_variant *base = expand_page_board(pc, id);
    int rc = -1;
    char why[512];
    sim_stat d[SIM_M_COUNT];
    if (!base) {
        expand_err_unlisted(a, &w[3], id, "board");
    } else if (base == b) {
        expand_err_word(a, &w[3], "a board's difference from itself is 0; name another board");
    } else if (numbers_pair(base, b, d, why, sizeof why) != 0) {
        expand_err_word(a, &w[3], why);
    } else {
        numbers_diff(out, m, &d[m]);
        expand_results_board(pc, base->board->id, base);
        rc = 0;
    }
    free(id);
    return rc;
}

/* ------------------------------------------------------------ inline */

static size_t directive_names(const char **names);
static void directive_list(buf *b, const char *last_sep);

/* A board's own setting, {{ BOARD.parts.ID.KEY }} or {{ BOARD.traffic.KEY }},
 * as key-numbers and diagrams write it ("10 s", "5 tries", "20%"). Returns 0,
 * or -1 with the reason in err. */
static int setting_text(buf *out, const bp_board *bb, const char *path, diag_note *err)
{
    char *copy = xstrdup(path);
    char *segs[5];
    size_t n = fields_split_path(copy, segs);
    int rc = -1;
    const sim_traffic *t = &bb->sim.traffic;
    if (n == 2 && strcmp(segs[0], "traffic") == 0) {
        rc = 0;
        if (strcmp(segs[1], "jobs") == 0)
            buf_printf(out, "%lld %s", (long long)t->jobs, board_noun(bb, t->jobs != 1));
        else if (strcmp(segs[1], "over") == 0)
            fmt_duration_us(out, t->over_us);
        else if (strcmp(segs[1], "op") == 0)
            buf_puts(out, sim_op_name(t->op));
        else if (strcmp(segs[1], "arrivals") == 0)
            buf_puts(out, sim_arrivals_name(t->arrivals));
        else if (strcmp(segs[1], "repeat_share") == 0)
            fmt_ratio(out, t->repeat_share);
        else if (strcmp(segs[1], "poison") == 0)
            fmt_ratio(out, t->poison);
        else if (strcmp(segs[1], "from") == 0 && t->from >= 0)
            buf_puts(out, bb->parts[t->from].id);
        else {
            diag_note_set(err,
                          "traffic has no setting '%s' to quote (it has from, jobs, over, op, "
                          "arrivals, repeat_share and poison)",
                          segs[1]);
            rc = -1;
        }
    } else if (n == 3 && strcmp(segs[0], "parts") == 0) {
        int i = board_part_index(bb, segs[1]);
        size_t nf;
        const field_def *f = fields_part(&nf);
        const field_def *fd = fields_find(f, nf, segs[2]);
        if (i < 0) {
            const char *ids[64];
            size_t n_ids = 0;
            for (size_t k = 0; k < bb->sim.n_parts && n_ids < 64; k++)
                ids[n_ids++] = bb->parts[k].id;
            char what[160];
            snprintf(what, sizeof what, "part|on board '%s'", bb->id);
            diag_note_unknown(err, what, segs[1], ids, n_ids);
        } else if (!fd || !(fd->kinds & KIND_BIT(bb->sim.parts[i].kind))) {
            buf kinds;
            buf_init(&kinds);
            if (fd)
                fields_kinds_text(&kinds, fd->kinds);
            diag_note_set(err,
                          fd ? "'%s' is not a setting of a %s part (it is of %s)"
                             : "'%s' is not a setting of a %s part%s",
                          segs[2], sim_kind_name(bb->sim.parts[i].kind), fd ? kinds.data : "");
            buf_free(&kinds);
        } else {
            field_format(out, fd, &bb->sim.parts[i]);
            rc = 0;
        }
    } else if (n == 4 && strcmp(segs[0], "links") == 0) {
        size_t nf;
        const field_def *f = fields_link(&nf);
        const field_def *fd = fields_find(f, nf, segs[3]);
        int from = board_part_index(bb, segs[1]), to = board_part_index(bb, segs[2]);
        const sim_link *l = NULL;
        for (size_t i = 0; i < bb->sim.n_links && !l; i++)
            if (bb->sim.links[i].from == from && bb->sim.links[i].to == to)
                l = &bb->sim.links[i];
        if (!l)
            diag_note_set(err, "board '%s' has no link from '%s' to '%s'", bb->id, segs[1],
                          segs[2]);
        else if (!fd)
            diag_note_set(err, "'%s' is not a setting of a link", segs[3]);
        else {
            field_format(out, fd, l);
            rc = 0;
        }
    } else {
        diag_note_set(err, "a board's setting is {{ BOARD.parts.ID.KEY }}, "
                           "{{ BOARD.links.FROM.TO.KEY }} or {{ BOARD.traffic.KEY }}");
    }
    free(copy);
    return rc;
}

static int expand_inline(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    bool piped = (n == 3 || n == 4) && w[1].len == 1 && w[1].s[0] == '|';
    if (n != 1 && !piped)
        return expand_err_word(
            a, &w[0],
            "a value placeholder is {{ BOARD.MEASURE }}, {{ BOARD.MEASURE | FILTER }}, "
            "{{ BOARD.MEASURE | diff OTHER }} or {{ catalog.SECTION.FIELD }}");
    char *expr = expand_word_str(&w[0]);
    char *filter = piped ? expand_word_str(&w[2]) : NULL;
    int rc = -1;
    char *dot = strchr(expr, '.');
    if (filter) {
        bool ok = false;
        for (size_t i = 0; i < sizeof filters / sizeof filters[0] && !ok; i++)
            ok = strcmp(filter, filters[i]) == 0;
        if (!ok) {
            expand_err_unknown(a, &w[2], "filter", filter, filters,
                               sizeof filters / sizeof filters[0]);
            goto out;
        }
        bool is_diff = strcmp(filter, "diff") == 0;
        if (is_diff != (n == 4)) {
            expand_err_word(a, &w[n == 4 ? 3 : 2],
                            is_diff ? "'| diff' names the board to subtract: "
                                      "{{ BOARD.MEASURE | diff OTHER }}"
                                    : "only '| diff' takes a board after it");
            goto out;
        }
    }
    if (strncmp(expr, "catalog.", 8) == 0) {
        char *section = expr + 8, *field = strchr(section, '.');
        if (!field || (filter && strcmp(filter, "number") != 0)) {
            expand_err_word(a, &w[0],
                            "a catalog value is {{ catalog.SECTION.FIELD }}, with no filter but "
                            "'| number'");
            goto out;
        }
        *field++ = '\0';
        const bp_catalog_value *v = expand_catalog_value(a, &w[0], section, field);
        if (!v)
            goto out;
        buf t;
        buf_init(&t);
        buf_puts(&t, v->text);
        if (filter) /* '| number': "5" of "5 tries" */
            bare_number(&t);
        buf_puts(out, "<span class=\"bp-num\">");
        buf_html(out, t.data, t.len);
        buf_puts(out, "</span>");
        buf_free(&t);
        rc = 0;
        goto out;
    }
    if (!dot) {
        const char *cands[16];
        const char *near = diag_suggest(expr, cands, directive_names(cands));
        buf list;
        buf_init(&list);
        directive_list(&list, ", ");
        diag_note why;
        if (near) {
            diag_note_set(&why, "unknown directive '%s'", expr);
            diag_note_hint(&why, false, "did you mean '%s'?", near);
        } else {
            diag_note_set(&why,
                          "'%s' is not a placeholder: write {{ BOARD.MEASURE }}, "
                          "{{ catalog.SECTION.FIELD }} or a directive (%s)",
                          expr, list.data);
        }
        buf_free(&list);
        expand_err_note(a, &w[0], &why);
        goto out;
    }
    *dot = '\0';
    const char *measure = dot + 1;
    bp_variant *b = expand_page_board(pc, expr);
    if (!b) {
        expand_err_unlisted(a, &w[0], expr, "board");
        goto out;
    }
    if (b->board && (strncmp(measure, "parts.", 6) == 0 || strncmp(measure, "traffic.", 8) == 0 ||
                     strncmp(measure, "links.", 6) == 0)) {
        diag_note err;
        buf v;
        buf_init(&v);
        word mw = w[0];
        mw.off += (size_t)(dot - expr) + 1;
        if (filter && strcmp(filter, "number") != 0) {
            expand_err_word(a, &w[2], "a board's setting takes no filter but '| number'");
        } else if (setting_text(&v, b->board, measure, &err) != 0) {
            expand_err_note(a, &mw, &err);
        } else {
            if (filter)
                bare_number(&v);
            /* a setting in words ("5 s, then ×2 each try up to 1 min") is a
             * phrase that may wrap on a phone, not one number */
            buf_puts(out, v.len && memchr(v.data, ',', v.len) ? "<span class=\"bp-num bp-phrase\">"
                                                              : "<span class=\"bp-num\">");
            buf_html(out, v.data, v.len);
            buf_puts(out, "</span>");
            rc = 0;
        }
        buf_free(&v);
        goto out;
    }
    int m = sim_measure_from_name(measure);
    if (m < 0) {
        const char *names[SIM_M_COUNT];
        for (int i = 0; i < SIM_M_COUNT; i++)
            names[i] = sim_measure_name((sim_measure)i);
        word mw = w[0];
        mw.off += (size_t)(dot - expr) + 1;
        expand_err_unknown(a, &mw, "measure", measure, names, SIM_M_COUNT);
        goto out;
    }
    if (b->board && !sim_measure_on(&b->board->sim, (sim_measure)m)) {
        char msg[256];
        if (sim_measure_hop((sim_measure)m) > 1)
            snprintf(msg, sizeof msg,
                     "%s is a measure of the second hop; board '%s' has one (a handler links to "
                     "a second message broker for two)",
                     measure, b->board->id);
        else
            snprintf(msg, sizeof msg,
                     "%s is a measure of a dead-letter queue; no broker on board '%s' names one "
                     "(dead_letter: ID)",
                     measure, b->board->id);
        word mw = w[0];
        mw.off += (size_t)(dot - expr) + 1;
        expand_err_word(a, &mw, msg);
        goto out;
    }
    buf v;
    buf_init(&v);
    diag_note err;
    if (n == 4) {
        if (diff_text(pc, a, w, b, (sim_measure)m, &v) != 0) {
            buf_free(&v);
            goto out;
        }
    } else if (value_text(&v, b, (sim_measure)m, filter, &err) != 0) {
        expand_err_note(a, &w[2], &err);
        buf_free(&v);
        goto out;
    }
    buf_puts(out, "<span class=\"bp-num\" data-board=\"");
    buf_html_s(out, b->board->id);
    buf_puts(out, "\" data-measure=\"");
    buf_html_s(out, sim_measure_name((sim_measure)m));
    if (filter) {
        buf_puts(out, "\" data-filter=\"");
        buf_html_s(out, filter);
    }
    if (n == 4) {
        buf_puts(out, "\" data-against=\"");
        buf_html(out, w[3].s, w[3].len);
    }
    buf_puts(out, "\">");
    buf_html(out, v.data, v.len);
    buf_puts(out, "</span>");
    buf_free(&v);
    if (!filter || strcmp(filter, "ci") == 0) { /* outside the number a page script may rewrite */
        buf_init(&v);
        numbers_p99_note(&v, b, (sim_measure)m);
        buf_html(out, v.data, v.len);
        buf_free(&v);
    }
    expand_results_board(pc, b->board->id, b);
    rc = 0;
out:
    free(expr);
    free(filter);
    return rc;
}

/* ------------------------------------------------------------ timeline */

static int expand_timeline(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    if (n != 2)
        return expand_err_word(a, &w[0], "timeline takes one board id: {{ timeline ID }}");
    char *id = expand_word_str(&w[1]);
    bp_variant *b = expand_page_board(pc, id);
    int rc = -1;
    if (!b) {
        expand_err_unlisted(a, &w[1], id, "board");
        goto out;
    }
    if (!b->want_trace) {
        char msg[512];
        snprintf(msg, sizeof msg, "a timeline needs a small board (at most %d jobs); '%s' has %lld",
                 TIMELINE_MAX_JOBS, id, (long long)b->board->sim.traffic.jobs);
        expand_err_word(a, &w[1], msg);
        goto out;
    }
    if (figure_timeline(pc->d, b, pc->page->path, a->line, a->col) != 0)
        goto out;
    char *stem = xasprintf("%s-timeline", id);
    buf pic;
    buf_init(&pic);
    /* in the page, so the page script can step through its rows */
    buf fid;
    buf_init(&fid);
    char *base = xasprintf("timeline-%s", id);
    expand_unique_id(pc, &fid, base);
    free(base);
    fig_spec f = {&b->tl, stem, "bp-diagram", 0, 0, true, fid.data};
    if (expand_figure(pc, &f, &pic) == 0) {
        pc->interactive = true;
        buf_puts(out, "<figure class=\"bp-figure bp-timeline\" id=\"");
        buf_put(out, fid.data, fid.len);
        buf_putc(out, '"');
        figure_timeline_rows(out, b->board, b->result.trace, b->result.n_trace);
        buf_puts(out, ">");
        buf_put(out, pic.data, pic.len);
        buf_puts(out, "<figcaption>");
        buf_html_s(out, b->board->title);
        buf_puts(out, ": every delivery, call and acknowledgment of the first run, in order"
                      "</figcaption></figure>\n");
        expand_results_board(pc, b->board->id, b);
        rc = 0;
    }
    buf_free(&pic);
    buf_free(&fid);
    free(stem);
out:
    free(id);
    return rc;
}

/* ------------------------------------------------------------ chart */

static int expand_chart(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    if (n != 2)
        return expand_err_word(a, &w[0], "chart takes one chart id: {{ chart ID }}");
    char *id = expand_word_str(&w[1]);
    schart *sc = expand_page_chart(pc, id);
    if (!sc) {
        int rc = expand_err_unlisted(a, &w[1], id, "chart");
        free(id);
        return rc;
    }
    free(id);
    const bp_chart *c = sc->chart;
    if (figure_chart(pc->d, sc) != 0)
        return -1;
    char *stem = xasprintf("chart-%s", c->id);
    buf pic;
    buf_init(&pic);
    fig_spec f = {&sc->fig, stem, "bp-diagram", 0, 0, false, NULL};
    int rc = expand_figure(pc, &f, &pic);
    if (rc == 0) {
        buf_puts(out, "<figure class=\"bp-figure bp-chart\" id=\"");
        char *base = xasprintf("chart-%s", c->id);
        expand_unique_id(pc, out, base);
        free(base);
        buf_puts(out, "\">");
        buf_put(out, pic.data, pic.len);
        buf_puts(out, "<figcaption>");
        buf_html_s(out, c->title);
        buf_printf(out,
                   ": %zu simulated boards, measured when this page was built</figcaption>"
                   "</figure>\n",
                   sc->n_points);
        for (size_t i = 0; i < sc->n_points; i++) {
            char *key = xasprintf("chart:%s:%zu", c->id, i);
            expand_results_board(pc, key, &sc->points[i]);
            free(key);
        }
    }
    buf_free(&pic);
    free(stem);
    return rc;
}

/* {{ board ID }}: the board's diagram. */
static int expand_board(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out)
{
    if (n != 2)
        return expand_err_word(a, &w[0], "board takes one board id: {{ board ID }}");
    char *id = expand_word_str(&w[1]);
    bp_variant *b = expand_page_board(pc, id);
    int rc =
        b ? expand_board_figure(pc, b, a, id, 0, out) : expand_err_unlisted(a, &w[1], id, "board");
    free(id);
    return rc;
}

/* ------------------------------------------------------------ the directives */

typedef int (*directive_fn)(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);

/* ------------------------------------------------------------ what a page shows */

/* The board file a page lists under this id (w), or NULL. */
static bp_variant *scan_board(const scan_ctx *c, const word *w)
{
    for (size_t i = 0; i < c->page->n_boards; i++) {
        bp_variant *b = site_board_file(c->s, c->page->boards[i].path);
        if (b && b->board && strlen(b->board->id) == w->len &&
            memcmp(b->board->id, w->s, w->len) == 0)
            return b;
    }
    return NULL;
}

/* {{ board ID }} and {{ compare ID ID ... }}: the diagrams of the boards
 * named (any word that is a listed board's id: what else the placeholder
 * holds is the handler's to check). */
static void shows_diagrams(const scan_ctx *c, const word *w, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        bp_variant *b = scan_board(c, &w[i]);
        if (b)
            b->shows_diagram = true;
    }
}

/* {{ timeline ID }}: that board's timeline. */
static void shows_timeline(const scan_ctx *c, const word *w, size_t n)
{
    bp_variant *b = n == 2 ? scan_board(c, &w[1]) : NULL;
    if (b)
        b->shows_timeline = true;
}

/* Every directive, in the reference's order: a new one is a row here and
 * its handler; the error lists and `boardpress help` come from this table. */
static const struct {
    render_directive doc;
    directive_fn expand;
    /* the drawings of the page's boards it shows (render_scan), or NULL:
     * the draw stage draws a listed board's diagram and timeline only when
     * a directive shows them (levels, charts and counterexamples always) */
    void (*shows)(const scan_ctx *c, const word *w, size_t n);
} directives[] = {
    {{"board", "{{ board ID }}", "The board's diagram as a figure, with alt text.", false}, expand_board,
     shows_diagrams},
    {{"compare", "{{ compare ID ID ... [rows: [MEASURE, ...]] }}",
      "A table of measure, goal and each board's value with pass or fail, and a switch over the "
      "boards' diagrams. The rows are the measures with goals, then cost and error rate; "
      "`rows: [deliveries, latency_p99]` chooses them, in that order. On a phone each row "
      "puts its values side by side under the boards' `short:` names, and the rows that are "
      "the same on every board fold into one line under the table.", false},
     expand_compare, shows_diagrams},
    {{"key-numbers", "{{ key-numbers [SECTION.FIELD ...] }}",
      "A table of catalog values, each with where it comes from. With no names, up to four "
      "that decide the page's boards' duplicates and that the boards leave to the catalog; "
      "names (`message-broker.tries consumer.key_ttl`) pick the rows, in their order.", false},
     expand_key_numbers, NULL},
    {{"timeline", "{{ timeline ID }}",
      "A sequence diagram of a small board's run, event by event.", false},
     expand_timeline, shows_timeline},
    {{"proof", "{{ proof ID }}",
      "What a board's claim `expect: {never: MEASURE, jobs: N, faults: K}` proved, in the "
      "reader's words: how many ways N jobs can meet up to K faults, that none has the "
      "measure, and what the proof does not cover.", false},
     expand_proof, NULL},
    {{"counterexample", "{{ counterexample ID }}",
      "The shortest run of a board's claim `expect: {sometimes: MEASURE, jobs: N, faults: K}` "
      "(fewest faults, then fewest events), drawn as a timeline, with its faults in the "
      "reader's words; with JavaScript the reader can replay it in the browser, event by "
      "event.", false},
     expand_counterexample, NULL},
    {{"level", "{{ level ID }}",
      "A playable level: the reader picks options and sees each goal "
      "pass or fail (see docs/levels.md).", false},
     expand_level, NULL},
    {{"chart", "{{ chart ID }}",
      "A chart of a measure against a setting, from a chart file the "
      "page lists under `charts:`.", false},
     expand_chart, NULL},
    {{"scrub", "{{ scrub LEVEL.SETTING }}",
      "In a sentence: a live level's slider as a number the reader drags (arrow keys, Home, "
      "End, a sideways drag); SETTING is the slider's `set:` after its last dot "
      "(`lose_reply` for `links.broker.processor.lose_reply`). Without JavaScript, the level's starting value.",
      true},
     expand_scrub, NULL},
    {{"live", "{{ live LEVEL.MEASURE }}",
      "In a sentence: a number the live level shows (one of its counts or goals), measured "
      "again with every move of the level, its scrubs included. Without JavaScript, the "
      "start's, measured at build time.",
      true},
     expand_live_value, NULL},
};
#define N_DIRECTIVES (sizeof directives / sizeof directives[0])

size_t render_directive_count(void)
{
    return N_DIRECTIVES;
}

const render_directive *render_directive_at(size_t i)
{
    return i < N_DIRECTIVES ? &directives[i].doc : NULL;
}

/* The names into names (room for 16); returns how many. */
static size_t directive_names(const char **names)
{
    size_t i = 0;
    for (; i < N_DIRECTIVES && i < 16; i++)
        names[i] = directives[i].doc.name;
    return i;
}

/* "board, compare, ... level" then last_sep and the last name. */
static void directive_list(buf *b, const char *last_sep)
{
    for (size_t i = 0; i < N_DIRECTIVES; i++) {
        if (i)
            buf_puts(b, i + 1 == N_DIRECTIVES ? last_sep : ", ");
        buf_puts(b, directives[i].doc.name);
    }
}

/* ------------------------------------------------------------ entry */

int expand_placeholder(void *ctx, const char *inner, size_t len, int line, int col, bool alone,
                       buf *out, bool *block)
{
    page_ctx *pc = ctx;
    ph_at a = {pc, line, col};
    word w[20];
    size_t n = split_words(inner, len, w, 18);
    *block = false;
    if (n == 0) {
        diag_error(pc->d, pc->page->path, line, col, "empty placeholder '{{ }}'");
        return -1;
    }
    if (n > 18) {
        diag_error(pc->d, pc->page->path, line, col, "placeholder has too many words");
        return -1;
    }
    for (size_t i = 0; i < N_DIRECTIVES; i++) {
        const char *name = directives[i].doc.name;
        if (w[0].len != strlen(name) || memcmp(w[0].s, name, w[0].len) != 0)
            continue;
        if (directives[i].doc.in_text)
            return directives[i].expand(pc, &a, w, n, out);
        if (!alone) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "'{{ %s ... }}' must stand alone in its own paragraph (blank lines around "
                     "it)",
                     name);
            return expand_err_word(&a, &w[0], msg);
        }
        *block = true;
        /* whether this element needs the page script or the simulator: its
         * embed page loads only what it needs */
        size_t start = out->len;
        bool page_js = pc->interactive, page_live = pc->live;
        pc->interactive = pc->live = false;
        int rc = directives[i].expand(pc, &a, w, n, out);
        bool js = pc->interactive, live = pc->live;
        pc->interactive |= page_js;
        pc->live |= page_live;
        if (rc == 0)
            embed_directive(pc, name, out, start, js, live);
        return rc;
    }
    if (n >= 2 && !(w[1].len == 1 && w[1].s[0] == '|')) {
        /* Several words but no directive: most likely a misspelt one. */
        char *first = expand_word_str(&w[0]);
        const char *cands[16];
        const char *near = diag_suggest(first, cands, directive_names(cands));
        buf list;
        buf_init(&list);
        directive_list(&list, " or ");
        diag_note why;
        diag_note_set(&why, "unknown directive '%s'", first);
        if (near)
            diag_note_hint(&why, false, "did you mean '%s'?", near);
        else
            diag_note_hint(&why, true, "expected %s", list.data);
        buf_free(&list);
        free(first);
        return expand_err_note(&a, &w[0], &why);
    }
    return expand_inline(pc, &a, w, n, out);
}

int expand_scan_placeholder(void *ctx, const char *inner, size_t len, int line, int col, bool alone,
                            buf *out, bool *block)
{
    (void)line, (void)col, (void)alone, (void)out;
    word w[20];
    size_t n = split_words(inner, len, w, 18);
    *block = false;
    for (size_t i = 0; n >= 1 && n <= 18 && i < N_DIRECTIVES; i++)
        if (directives[i].shows && w[0].len == strlen(directives[i].doc.name) &&
            memcmp(w[0].s, directives[i].doc.name, w[0].len) == 0)
            directives[i].shows(ctx, w, n);
    return 0;
}
