/* expand.c — placeholders and directives of SPEC §5 into HTML:
 *   inline  {{ BOARD.MEASURE }}, {{ BOARD.MEASURE | ci }} (min, max, worst,
 *           goal, pass), {{ catalog.SECTION.FIELD }}
 *   block   {{ board ID }}, {{ compare ID ID ... }}, {{ key-numbers }},
 *           {{ timeline ID }}, {{ level ID }}, {{ chart ID }}
 * Author text never reaches here; every value written is escaped. */
#include "draw/draw.h"
#include "load/fields.h"
#include "base/fmt.h"
#include "run/results.h"
#include "model/site.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const directives[] = {"board",    "compare", "key-numbers",
                                         "timeline", "level",   "chart"};
static const char *const filters[] = {"ci", "min", "max", "worst", "goal", "pass"};

const char *expand_measure_label(sim_measure m)
{
    static const char *const labels[SIM_M_COUNT] = {
        "Jobs",
        "Deliveries",
        "Effects",
        "Duplicates",
        "Charged twice",
        "Lost writes",
        "Errors",
        "Error rate",
        "Completion time",
        "Latency, median",
        "Latency, 99th percentile",
        "Monthly cost",
        "Events",
        "Lost events",
        "Ghost events",
        "Deliveries downstream",
        "Effects downstream",
        "Duplicates downstream",
        "Lost writes downstream",
        "Errors downstream",
    };
    return (int)m >= 0 && m < SIM_M_COUNT ? labels[m] : "";
}

void expand_goal_text(buf *b, sim_measure m, const sim_goal *g)
{
    sim_unit u = sim_measure_unit(m);
    if (g->has_max && g->has_min) {
        buf_puts(b, "between ");
        fmt_measure(b, m, g->min);
        buf_puts(b, " and ");
        fmt_measure(b, m, g->max);
    } else if (g->has_max) {
        if (g->max == 0 && u == SIM_UNIT_COUNT) {
            buf_puts(b, "none");
            return;
        }
        buf_puts(b, u == SIM_UNIT_SECONDS ? "under " : "at most ");
        fmt_measure(b, m, g->max);
    } else if (g->has_min) {
        buf_puts(b, "at least ");
        fmt_measure(b, m, g->min);
    }
}

/* ------------------------------------------------------------ helpers */

/* Split inner into words (at most max); returns the count. Offsets are kept
 * so errors can point at a word. */
typedef struct {
    const char *s;
    size_t len;
    size_t off; /* from the start of inner */
} word;

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

static char *word_str(const word *w)
{
    return xstrndup(w->s, w->len);
}

typedef struct {
    page_ctx *pc;
    int line, col; /* of "{{" */
} at;

static int err_word(const at *a, const word *w, const char *msg)
{
    diag_error(&a->pc->s->d, a->pc->page->path, a->line, a->col + 2 + (int)w->off, "%s", msg);
    return -1;
}

static int err_unknown(const at *a, const word *w, const char *what, const char *name,
                       const char *const *cands, size_t n)
{
    char msg[1024];
    diag_unknown_text(msg, sizeof msg, what, name, cands, n);
    return err_word(a, w, msg);
}

/* The ids of the boards, levels or charts (what[0]: 'b', 'l', 'c') the
 * page lists and that loaded; at most max. */
static size_t listed_ids(const page_ctx *pc, const char *what, const char **ids, size_t max)
{
    const site *s = pc->s;
    const bp_page *p = pc->page;
    size_t n = 0;
    if (what[0] == 'b') {
        for (size_t i = 0; i < p->n_boards; i++)
            for (size_t k = 0; k < s->n_boards && n < max; k++)
                if (s->boards[k]->board && strcmp(s->boards[k]->file, p->boards[i].path) == 0)
                    ids[n++] = s->boards[k]->board->id;
    } else if (what[0] == 'l') {
        for (size_t i = 0; i < p->n_levels; i++)
            for (size_t k = 0; k < s->n_levels && n < max; k++)
                if (s->levels[k]->loaded && strcmp(s->levels[k]->file, p->levels[i].path) == 0)
                    ids[n++] = s->levels[k]->level->id;
    } else {
        for (size_t i = 0; i < p->n_charts; i++)
            for (size_t k = 0; k < s->n_charts && n < max; k++)
                if (s->charts[k]->chart && strcmp(s->charts[k]->file, p->charts[i].path) == 0)
                    ids[n++] = s->charts[k]->chart->id;
    }
    return n;
}

/* An id (name) that is none of the page's boards, levels or charts (what):
 * "unknown board 'x'; did you mean 'y'?" for a near one, else the ones the
 * page has and where a page lists them. The same words for directives and
 * value placeholders. */
static int err_unlisted(const at *a, const word *w, const char *name, const char *what)
{
    const char *ids[256];
    size_t n = listed_ids(a->pc, what, ids, 256);
    char msg[1024];
    diag_unknown_text(msg, sizeof msg, what, name, ids, n);
    if (!diag_suggest(name, ids, n))
        snprintf(msg + strlen(msg), sizeof msg - strlen(msg),
                 "; a page can use the %ss its front matter lists under '%ss:'", what, what);
    return err_word(a, w, msg);
}

static void unique_id(page_ctx *pc, buf *out, const char *base)
{
    char *id = xstrdup(base);
    for (int k = 2; !strset_add(&pc->ids, id); k++) {
        free(id);
        id = xasprintf("%s-%d", base, k);
    }
    buf_puts(out, id);
    free(id);
}

/* Width and height from an SVG's root element, for <img> sizes. */
static void svg_size(const char *svg, int *w, int *h)
{
    *w = *h = 0;
    const char *tag = strstr(svg, "<svg");
    if (!tag)
        return;
    const char *ws = strstr(tag, " width=\""), *hs = strstr(tag, " height=\"");
    if (ws)
        *w = (int)ceil(strtod(ws + 8, NULL));
    if (hs)
        *h = (int)ceil(strtod(hs + 9, NULL));
}

static void img(buf *out, const char *file, const char *svg, const char *alt, const char *cls)
{
    int w, h;
    svg_size(svg, &w, &h);
    buf_printf(out, "<img class=\"%s\" src=\"", cls);
    buf_html_s(out, file);
    buf_puts(out, "\"");
    if (w > 0 && h > 0)
        buf_printf(out, " width=\"%d\" height=\"%d\"", w, h);
    buf_puts(out, " alt=\"");
    buf_html_s(out, alt);
    buf_puts(out, "\">");
}

static bool has_goals(const bp_board *b)
{
    for (int m = 0; m < SIM_M_COUNT; m++)
        if (b->sim.goals[m].has_max || b->sim.goals[m].has_min)
            return true;
    return false;
}

static void verdict(buf *out, const sboard *b)
{
    if (!has_goals(b->board))
        return;
    int missed = 0;
    for (int m = 0; m < SIM_M_COUNT; m++)
        if (b->result.goals[m].present && !b->result.goals[m].pass)
            missed++;
    if (missed == 0)
        buf_puts(out, ": <span class=\"bp-verdict bp-pass\">meets the goals</span>");
    else if (missed == 1)
        buf_puts(out, ": <span class=\"bp-verdict bp-fail\">misses a goal</span>");
    else
        buf_printf(out, ": <span class=\"bp-verdict bp-fail\">misses %d goals</span>", missed);
}

/* The board's figure, its SVG written into the page folder. */
static int board_figure(page_ctx *pc, sboard *b, const at *a, const char *file_stem, buf *out)
{
    if (site_draw_board(pc->s, b, pc->page->path, a->line, a->col) != 0)
        return -1;
    char *file = xasprintf("%s.svg", file_stem);
    if (site_page_file(pc, file, b->svg) != 0) {
        free(file);
        return -1;
    }
    buf_puts(out, "<figure class=\"bp-figure bp-board\" id=\"");
    char *base = xasprintf("board-%s", b->board->id);
    unique_id(pc, out, base);
    free(base);
    buf_puts(out, "\" data-board=\"");
    buf_html_s(out, b->board->id);
    buf_puts(out, "\">");
    img(out, file, b->svg, b->alt, "bp-diagram");
    buf_puts(out, "<figcaption><span class=\"bp-board-title\">");
    buf_html_s(out, b->board->title);
    buf_puts(out, "</span>");
    verdict(out, b);
    buf_puts(out, "</figcaption></figure>\n");
    free(file);
    expand_results_board(pc, b->board->id, b);
    return 0;
}

/* A measured value: mean, or with a filter. Returns -1 with a message. */
static int value_text(buf *out, const sboard *b, sim_measure m, const char *filter, char *err,
                      size_t errn)
{
    const sim_stat *st = &b->result.m[m];
    const sim_goal *g = &b->board->sim.goals[m];
    const sim_goal_result *gr = &b->result.goals[m];
    if (!filter) {
        fmt_measure(out, m, st->mean);
    } else if (strcmp(filter, "ci") == 0) {
        fmt_measure(out, m, st->mean);
        if (b->result.replications > 1) {
            buf_puts(out, " ± ");
            fmt_measure(out, m, st->ci95);
        }
    } else if (strcmp(filter, "min") == 0) {
        fmt_measure(out, m, st->min);
    } else if (strcmp(filter, "max") == 0) {
        fmt_measure(out, m, st->max);
    } else if (!gr->present) {
        snprintf(err, errn, "'| %s' needs a goal on '%s', and board '%s' sets none", filter,
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

/* ------------------------------------------------------------ inline */

static int expand_inline(page_ctx *pc, const at *a, word *w, size_t n, buf *out)
{
    site *s = pc->s;
    if (n != 1 && !(n == 3 && w[1].len == 1 && w[1].s[0] == '|'))
        return err_word(a, &w[0],
                        "a value placeholder is {{ BOARD.MEASURE }}, {{ BOARD.MEASURE | FILTER }} "
                        "or {{ catalog.SECTION.FIELD }}");
    char *expr = word_str(&w[0]);
    char *filter = n == 3 ? word_str(&w[2]) : NULL;
    int rc = -1;
    char *dot = strchr(expr, '.');
    if (filter) {
        bool ok = false;
        for (size_t i = 0; i < sizeof filters / sizeof filters[0] && !ok; i++)
            ok = strcmp(filter, filters[i]) == 0;
        if (!ok) {
            err_unknown(a, &w[2], "filter", filter, filters, sizeof filters / sizeof filters[0]);
            goto out;
        }
    }
    if (strncmp(expr, "catalog.", 8) == 0) {
        char *section = expr + 8, *field = strchr(section, '.');
        if (!field || filter) {
            err_word(a, &w[0], "a catalog value is {{ catalog.SECTION.FIELD }}, without a filter");
            goto out;
        }
        *field++ = '\0';
        const bp_catalog_value *v = catalog_find(s->cat, section, field);
        if (!v) {
            const char *cands[512];
            size_t nc = 0;
            bool section_known = false;
            for (size_t i = 0; i < s->cat->n_values; i++)
                section_known |= strcmp(s->cat->values[i].section, section) == 0;
            for (size_t i = 0; i < s->cat->n_values && nc < 512; i++) {
                const bp_catalog_value *cv = &s->cat->values[i];
                if (section_known && strcmp(cv->section, section) == 0)
                    cands[nc++] = cv->field;
                else if (!section_known && (nc == 0 || strcmp(cands[nc - 1], cv->section) != 0))
                    cands[nc++] = cv->section;
            }
            err_unknown(a, &w[0], section_known ? "catalog field" : "catalog section",
                        section_known ? field : section, cands, nc);
            goto out;
        }
        buf_puts(out, "<span class=\"bp-num\">");
        buf_html_s(out, v->text);
        buf_puts(out, "</span>");
        rc = 0;
        goto out;
    }
    if (!dot) {
        const char *cands[8];
        for (size_t i = 0; i < 6; i++)
            cands[i] = directives[i];
        const char *near = diag_suggest(expr, cands, 6);
        char msg[512];
        if (near)
            snprintf(msg, sizeof msg, "unknown directive '%s'; did you mean '%s'?", expr, near);
        else
            snprintf(msg, sizeof msg,
                     "'%s' is not a placeholder: write {{ BOARD.MEASURE }}, "
                     "{{ catalog.SECTION.FIELD }} or a directive (board, compare, key-numbers, "
                     "timeline, level, chart)",
                     expr);
        err_word(a, &w[0], msg);
        goto out;
    }
    *dot = '\0';
    const char *measure = dot + 1;
    sboard *b = site_page_board(pc, expr);
    if (!b) {
        err_unlisted(a, &w[0], expr, "board");
        goto out;
    }
    int m = sim_measure_from_name(measure);
    if (m < 0) {
        const char *names[SIM_M_COUNT];
        for (int i = 0; i < SIM_M_COUNT; i++)
            names[i] = sim_measure_name((sim_measure)i);
        word mw = w[0];
        mw.off += (size_t)(dot - expr) + 1;
        err_unknown(a, &mw, "measure", measure, names, SIM_M_COUNT);
        goto out;
    }
    if (b->board && sim_measure_hop((sim_measure)m) > sim_board_hops(&b->board->sim)) {
        char msg[256];
        snprintf(msg, sizeof msg,
                 "%s is a measure of the second hop; board '%s' has one (a handler links to a "
                 "second message broker for two)",
                 measure, b->board->id);
        word mw = w[0];
        mw.off += (size_t)(dot - expr) + 1;
        err_word(a, &mw, msg);
        goto out;
    }
    buf v;
    buf_init(&v);
    char err[512];
    if (value_text(&v, b, (sim_measure)m, filter, err, sizeof err) != 0) {
        err_word(a, &w[2], err);
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
    buf_puts(out, "\">");
    buf_html(out, v.data, v.len);
    buf_puts(out, "</span>");
    buf_free(&v);
    expand_results_board(pc, b->board->id, b);
    rc = 0;
out:
    free(expr);
    free(filter);
    return rc;
}

/* ------------------------------------------------------------ compare */

/* Rows of a compare table: measures with goals (in the first board's file
 * order), then monthly cost and error rate. */
static size_t compare_rows(sboard **bs, size_t n, sim_measure *rows)
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

static int expand_compare(page_ctx *pc, const at *a, word *w, size_t n, buf *out)
{
    if (n < 3)
        return err_word(a, &w[0], "compare needs two or more board ids: {{ compare A B }}");
    if (n > 17)
        return err_word(a, &w[17], "compare shows at most 16 boards");
    sboard *bs[16];
    size_t nb = 0;
    int rc = 0;
    for (size_t i = 1; i < n && nb < 16; i++) {
        char *id = word_str(&w[i]);
        sboard *b = site_page_board(pc, id);
        if (!b) {
            rc = err_unlisted(a, &w[i], id, "board");
        } else {
            for (size_t k = 0; k < nb; k++)
                if (bs[k] == b) {
                    err_word(a, &w[i], "the same board is compared with itself");
                    rc = -1;
                }
            bs[nb++] = b;
        }
        free(id);
    }
    if (rc != 0)
        return -1;
    pc->interactive = true;
    buf figs;
    buf_init(&figs);
    for (size_t i = 0; i < nb; i++)
        if (board_figure(pc, bs[i], a, bs[i]->board->id, &figs) != 0)
            rc = -1;
    if (rc != 0) {
        buf_free(&figs);
        return -1;
    }
    buf_puts(out, "<section class=\"bp-compare\" id=\"");
    unique_id(pc, out, "compare");
    buf_puts(out, "\">\n<div class=\"bp-switcher\" role=\"group\" aria-label=\"Board to show\" "
                  "hidden><span class=\"bp-switcher-label\">Board to show</span>");
    for (size_t i = 0; i < nb; i++) {
        buf_printf(out,
                   "<button type=\"button\" class=\"bp-switch\" aria-pressed=\"%s\" "
                   "data-board=\"",
                   i == 0 ? "true" : "false");
        buf_html_s(out, bs[i]->board->id);
        buf_puts(out, "\">");
        buf_html_s(out, bs[i]->board->title);
        buf_puts(out, "</button>");
    }
    buf_puts(out, "</div>\n<div class=\"bp-compare-boards\">\n");
    buf_put(out, figs.data, figs.len);
    buf_free(&figs);
    buf_puts(out, "</div>\n<div class=\"bp-table-wrap\"><table class=\"bp-compare-table\">\n");
    int reps = bs[0]->result.replications;
    bool same_reps = true;
    for (size_t i = 1; i < nb; i++)
        same_reps &= bs[i]->result.replications == reps;
    if (same_reps && reps > 1)
        buf_printf(out,
                   "<caption>Measured when this page was built: mean of %d runs per board; "
                   "a goal passes only if every run meets it.</caption>\n",
                   reps);
    else
        buf_puts(out, "<caption>Measured when this page was built.</caption>\n");
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
    size_t nr = compare_rows(bs, nb, rows);
    for (size_t r = 0; r < nr; r++) {
        sim_measure m = rows[r];
        buf_printf(out, "<tr data-measure=\"%s\"><th scope=\"row\">%s</th><td>",
                   sim_measure_name(m), expand_measure_label(m));
        for (size_t i = 0; i < nb; i++) {
            const sim_goal *g = &bs[i]->board->sim.goals[m];
            if (g->has_max || g->has_min) {
                buf g_text;
                buf_init(&g_text);
                expand_goal_text(&g_text, m, g);
                buf_html(out, g_text.data, g_text.len);
                buf_free(&g_text);
                break;
            }
        }
        buf_puts(out, "</td>");
        for (size_t i = 0; i < nb; i++) {
            const sboard *b = bs[i];
            buf_puts(out, "<td data-board=\"");
            buf_html_s(out, b->board->id);
            buf_printf(out, "\"><span class=\"bp-num\" data-board=\"");
            buf_html_s(out, b->board->id);
            buf_printf(out, "\" data-measure=\"%s\">", sim_measure_name(m));
            buf v;
            buf_init(&v);
            fmt_measure(&v, m, b->result.m[m].mean);
            buf_html(out, v.data, v.len);
            buf_free(&v);
            buf_puts(out, "</span>");
            if (b->result.goals[m].present)
                buf_printf(out, " <span class=\"bp-%s\">%s</span>",
                           b->result.goals[m].pass ? "pass" : "fail",
                           b->result.goals[m].pass ? "Pass" : "Fail");
            buf_puts(out, "</td>");
        }
        buf_puts(out, "</tr>\n");
    }
    buf_puts(out, "</tbody></table></div>\n</section>\n");
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

static int expand_key_numbers(page_ctx *pc, const at *a, word *w, size_t n, buf *out)
{
    if (n != 1)
        return err_word(a, &w[1], "key-numbers takes no arguments");
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
    buf_puts(out, "<div class=\"bp-table-wrap\"><table class=\"bp-key-numbers\">\n"
                  "<caption>Defaults from the catalog that the boards on this page use "
                  "(a board may override any of them).</caption>\n"
                  "<thead><tr><th scope=\"col\">Number</th><th scope=\"col\">Value</th></tr>"
                  "</thead>\n<tbody>\n");
    size_t rows = 0;
    for (size_t i = 0; i < s->cat->n_values; i++) {
        if (!used[i])
            continue;
        const bp_catalog_value *v = &s->cat->values[i];
        buf_printf(out, "<tr data-key=\"");
        buf_html_s(out, v->section);
        buf_putc(out, '.');
        buf_html_s(out, v->field);
        buf_puts(out, "\"><th scope=\"row\">");
        buf_html_s(out, v->label);
        buf_puts(out, "</th><td>");
        buf_html_s(out, v->text);
        buf_puts(out, "</td></tr>\n");
        rows++;
    }
    if (rows == 0)
        buf_puts(out, "<tr><td colspan=\"2\">The boards on this page set every value "
                      "themselves.</td></tr>\n");
    buf_puts(out, "</tbody></table></div>\n");
    free(used);
    return 0;
}

/* ------------------------------------------------------------ timeline */

static int expand_timeline(page_ctx *pc, const at *a, word *w, size_t n, buf *out)
{
    if (n != 2)
        return err_word(a, &w[0], "timeline takes one board id: {{ timeline ID }}");
    char *id = word_str(&w[1]);
    sboard *b = site_page_board(pc, id);
    int rc = -1;
    if (!b) {
        err_unlisted(a, &w[1], id, "board");
        goto out;
    }
    if (!b->want_trace) {
        char msg[512];
        snprintf(msg, sizeof msg, "a timeline needs a small board (at most %d jobs); '%s' has %lld",
                 TIMELINE_MAX_JOBS, id, (long long)b->board->sim.traffic.jobs);
        err_word(a, &w[1], msg);
        goto out;
    }
    if (site_draw_timeline(pc->s, b, pc->page->path, a->line, a->col) != 0)
        goto out;
    char *file = xasprintf("%s-timeline.svg", id);
    if (site_page_file(pc, file, b->tl_svg) == 0) {
        buf_puts(out, "<figure class=\"bp-figure bp-timeline\" id=\"");
        char *base = xasprintf("timeline-%s", id);
        unique_id(pc, out, base);
        free(base);
        buf_puts(out, "\">");
        img(out, file, b->tl_svg, b->tl_alt, "bp-diagram");
        buf_puts(out, "<figcaption>");
        buf_html_s(out, b->board->title);
        buf_puts(out, ": every delivery, call and acknowledgment of the first run, in order"
                      "</figcaption></figure>\n");
        expand_results_board(pc, b->board->id, b);
        rc = 0;
    }
    free(file);
out:
    free(id);
    return rc;
}

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
            buf_printf(out, "%s ", expand_measure_label(m));
            fmt_measure(out, m, v);
        }
    }
}

static void level_goal_rows(buf *out, const sboard *b, const bp_level *l, bool json)
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
            buf_printf(out, "<tr data-measure=\"%s\"><th scope=\"row\">%s</th><td>",
                       sim_measure_name((sim_measure)m), expand_measure_label((sim_measure)m));
            buf_html(out, gt.data, gt.len);
            buf_puts(out, "</td><td><span class=\"bp-num\">");
            buf_html(out, val.data, val.len);
            buf_printf(out, "</span></td><td><span class=\"bp-%s\">%s</span></td></tr>\n",
                       gr->pass ? "pass" : "fail", gr->pass ? "Pass" : "Fail");
            buf_free(&gt);
        }
        buf_free(&val);
        first = false;
    }
}

static void level_status(buf *out, const sboard *b)
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

static int expand_level(page_ctx *pc, const at *a, word *w, size_t n, buf *out)
{
    if (n != 2)
        return err_word(a, &w[0], "level takes one level id: {{ level ID }}");
    char *id = word_str(&w[1]);
    slevel *sl = site_page_level(pc, id);
    if (!sl) {
        int rc = err_unlisted(a, &w[1], id, "level");
        free(id);
        return rc;
    }
    free(id);
    const bp_level *l = sl->level;
    int rc = 0;
    /* Every combination's pictures go into the page folder. */
    for (size_t c = 0; c < l->n_combos; c++) {
        sboard *b = &sl->combos[c];
        if (site_draw_board(pc->s, b, pc->page->path, a->line, a->col) != 0) {
            rc = -1;
            continue;
        }
        char *file = xasprintf("level-%s-%zu.svg", l->id, c);
        if (site_page_file(pc, file, b->svg) != 0)
            rc = -1;
        free(file);
        if (l->timeline) {
            if (!b->want_trace) {
                diag_error(&pc->s->d, l->path, l->pos.line, l->pos.col,
                           "timeline: true needs a small board (at most %d jobs)",
                           TIMELINE_MAX_JOBS);
                return -1;
            }
            if (site_draw_timeline(pc->s, b, pc->page->path, a->line, a->col) != 0) {
                rc = -1;
                continue;
            }
            file = xasprintf("level-%s-%zu-timeline.svg", l->id, c);
            if (site_page_file(pc, file, b->tl_svg) != 0)
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
    unique_id(pc, out, base);
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
    img(out, file, start->svg, start->alt, "bp-diagram bp-level-diagram");
    free(file);
    buf_puts(out, "</figure>\n");
    if (l->timeline) {
        file = xasprintf("level-%s-%zu-timeline.svg", l->id, sl->start);
        buf_puts(out, "<figure class=\"bp-figure bp-timeline\">");
        img(out, file, start->tl_svg, start->tl_alt, "bp-diagram bp-level-timeline");
        free(file);
        buf_puts(out, "</figure>\n");
    }
    if (!l->toggle) {
        buf_puts(out, "<div class=\"bp-table-wrap\"><table class=\"bp-goals\">\n<thead><tr>"
                      "<th scope=\"col\">Measure</th><th scope=\"col\">Goal</th>"
                      "<th scope=\"col\">Measured</th><th scope=\"col\">Result</th></tr></thead>"
                      "\n<tbody>\n");
        level_goal_rows(out, start, l, false);
        buf_puts(out, "</tbody></table></div>\n<p class=\"bp-level-status\" role=\"status\">");
        level_status(out, start);
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
        svg_size(b->svg, &pw, &ph);
        buf_printf(out, "%s{\"svg\":\"level-%s-%zu.svg\",\"w\":%d,\"h\":%d,\"alt\":\"",
                   c ? "," : "", l->id, c, pw, ph);
        buf_json_str(out, b->alt, strlen(b->alt));
        buf_putc(out, '"');
        if (l->timeline) {
            svg_size(b->tl_svg, &pw, &ph);
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
        level_goal_rows(out, b, l, true);
        buf st;
        buf_init(&st);
        level_status(&st, b);
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

/* ------------------------------------------------------------ chart */

static int expand_chart(page_ctx *pc, const at *a, word *w, size_t n, buf *out)
{
    if (n != 2)
        return err_word(a, &w[0], "chart takes one chart id: {{ chart ID }}");
    char *id = word_str(&w[1]);
    schart *sc = site_page_chart(pc, id);
    if (!sc) {
        int rc = err_unlisted(a, &w[1], id, "chart");
        free(id);
        return rc;
    }
    free(id);
    const bp_chart *c = sc->chart;
    if (!sc->drawn) {
        sc->drawn = true;
        size_t ns = c->n_series ? c->n_series : 1;
        double *ys = xcalloc(ns * c->n_x, sizeof *ys);
        draw_series *series = xcalloc(ns, sizeof *series);
        for (size_t s = 0; s < ns; s++) {
            for (size_t x = 0; x < c->n_x; x++)
                ys[s * c->n_x + x] = sc->points[s * c->n_x + x].result.m[c->measure].mean;
            series[s].name = c->n_series ? c->series[s].label : c->title;
            series[s].n = c->n_x;
            series[s].x = c->x;
            series[s].y = ys + s * c->n_x;
        }
        draw_chart dc = {c->title,
                         c->x_label,
                         expand_measure_label(c->measure),
                         c->x_percent,
                         sim_measure_unit(c->measure) == SIM_UNIT_RATIO,
                         c->x_seconds,
                         sim_measure_unit(c->measure) == SIM_UNIT_SECONDS,
                         series,
                         ns};
        buf svg, alt;
        buf_init(&svg);
        buf_init(&alt);
        char err[256];
        if (draw_chart_svg(&dc, &svg, &alt, err, sizeof err) != 0) {
            diag_error(&pc->s->d, c->path, c->pos.line, c->pos.col, "cannot draw the chart: %s",
                       err);
            sc->draw_failed = true;
            buf_free(&svg);
            buf_free(&alt);
        } else {
            sc->svg = buf_detach(&svg);
            sc->alt = buf_detach(&alt);
        }
        free(ys);
        free(series);
    }
    if (sc->draw_failed)
        return -1;
    char *file = xasprintf("chart-%s.svg", c->id);
    int rc = site_page_file(pc, file, sc->svg);
    if (rc == 0) {
        buf_puts(out, "<figure class=\"bp-figure bp-chart\" id=\"");
        char *base = xasprintf("chart-%s", c->id);
        unique_id(pc, out, base);
        free(base);
        buf_puts(out, "\">");
        img(out, file, sc->svg, sc->alt, "bp-diagram");
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
    free(file);
    return rc;
}

/* ------------------------------------------------------------ entry */

int expand_placeholder(void *ctx, const char *inner, size_t len, int line, int col, bool alone,
                       buf *out, bool *block)
{
    page_ctx *pc = ctx;
    at a = {pc, line, col};
    word w[20];
    size_t n = split_words(inner, len, w, 18);
    *block = false;
    if (n == 0) {
        diag_error(&pc->s->d, pc->page->path, line, col, "empty placeholder '{{ }}'");
        return -1;
    }
    if (n > 18) {
        diag_error(&pc->s->d, pc->page->path, line, col, "placeholder has too many words");
        return -1;
    }
    for (size_t i = 0; i < sizeof directives / sizeof directives[0]; i++) {
        if (w[0].len != strlen(directives[i]) || memcmp(w[0].s, directives[i], w[0].len) != 0)
            continue;
        if (!alone) {
            char msg[256];
            snprintf(msg, sizeof msg,
                     "'{{ %s ... }}' must stand alone in its own paragraph (blank lines around "
                     "it)",
                     directives[i]);
            return err_word(&a, &w[0], msg);
        }
        *block = true;
        switch (i) {
        case 0:
            if (n != 2)
                return err_word(&a, &w[0], "board takes one board id: {{ board ID }}");
            {
                char *id = word_str(&w[1]);
                sboard *b = site_page_board(pc, id);
                int rc;
                if (!b) {
                    rc = err_unlisted(&a, &w[1], id, "board");
                } else {
                    rc = board_figure(pc, b, &a, id, out);
                }
                free(id);
                return rc;
            }
        case 1:
            return expand_compare(pc, &a, w, n, out);
        case 2:
            return expand_key_numbers(pc, &a, w, n, out);
        case 3:
            return expand_timeline(pc, &a, w, n, out);
        case 4:
            return expand_level(pc, &a, w, n, out);
        default:
            return expand_chart(pc, &a, w, n, out);
        }
    }
    if (n >= 2 && !(w[1].len == 1 && w[1].s[0] == '|')) {
        /* Several words but no directive: most likely a misspelt one. */
        char *first = word_str(&w[0]);
        const char *near =
            diag_suggest(first, directives, sizeof directives / sizeof directives[0]);
        char msg[256];
        if (near)
            snprintf(msg, sizeof msg, "unknown directive '%s'; did you mean '%s'?", first, near);
        else
            snprintf(msg, sizeof msg,
                     "unknown directive '%s' (expected board, compare, key-numbers, timeline, "
                     "level or chart)",
                     first);
        free(first);
        return err_word(&a, &w[0], msg);
    }
    return expand_inline(pc, &a, w, n, out);
}

/* ------------------------------------------------------------ notes */

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
    for (size_t i = 0; i < pc->page->n_boards; i++)
        for (size_t k = 0; k < s->n_boards; k++)
            if (s->boards[k]->board && strcmp(s->boards[k]->file, pc->page->boards[i].path) == 0) {
                buf_puts(&items, "<li>");
                describe_board(&items, s->boards[k]->board);
                buf_puts(&items, "</li>\n");
                shown++;
            }
    for (size_t i = 0; i < pc->page->n_levels; i++)
        for (size_t k = 0; k < s->n_levels; k++) {
            const slevel *sl = s->levels[k];
            if (!sl->loaded || strcmp(sl->file, pc->page->levels[i].path) != 0)
                continue;
            buf_puts(&items, "<li>Level “");
            buf_html_s(&items, sl->level->title);
            buf_puts(&items, "”, as it starts: ");
            describe_board(&items, sl->combos[sl->start].board);
            buf_puts(&items, "</li>\n");
            shown++;
        }
    for (size_t i = 0; i < pc->page->n_charts; i++)
        for (size_t k = 0; k < s->n_charts; k++) {
            const schart *sc = s->charts[k];
            if (!sc->chart || !sc->points || strcmp(sc->file, pc->page->charts[i].path) != 0)
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
        buf_puts(out, pc->page->is_home ? "" : "../");
        buf_html_s(out, s->cfg.about);
        buf_puts(out, "/\">about the simulator</a> explains the model");
    }
    buf_puts(out, ".</p>\n</aside>\n");
    buf_free(&items);
}

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
    buf_puts(&obj, ",\"display\":{");
    int hops = sim_board_hops(&b->board->sim);
    for (int m = 0; m < SIM_M_COUNT; m++) {
        if (sim_measure_hop((sim_measure)m) > hops)
            continue;
        buf v;
        buf_init(&v);
        fmt_measure(&v, (sim_measure)m, b->result.m[m].mean);
        buf_printf(&obj, "%s\"%s\":\"", m ? "," : "", sim_measure_name((sim_measure)m));
        buf_json_str(&obj, v.data, v.len);
        buf_putc(&obj, '"');
        buf_free(&v);
    }
    buf_puts(&obj, "}}");
    buf_put(&pc->results, obj.data, obj.len);
    buf_free(&obj);
}
