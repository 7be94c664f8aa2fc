/* level.c — level and chart files: structure only; load/refs.c builds (and run/ runs)
 * the board variants they describe. */
#include "load/level.h"
#include "load/board.h"
#include "load/range.h"
#include "load/units.h"
#include "base/util.h"
#include "load/yread.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* root when it is a mapping; otherwise reported, freed, NULL. */
static ynode *map_root(const char *path, ynode *root, const char *what, diag *d)
{
    if (root && yexpect(path, root, YN_MAP, what, d) != 0) {
        ynode_free(root);
        return NULL;
    }
    return root;
}

/* The YAML tree of a level or chart file's text; NULL after reporting. */
static ynode *parse_tree(const char *path, const char *text, size_t len, const char *what, diag *d)
{
    return map_root(path, yaml_parse_named(path, text, len, what, d), what, d);
}

/* The same for a level or chart file. */
static ynode *read_tree(const char *path, const char *what, diag *d)
{
    return map_root(path, yaml_load(path, what, d), what, d);
}

/* A list of {label, value} options (or plain values, labelled as written). */
static bp_option *read_options(const char *path, const ynode *v, const char *what, size_t *n,
                               diag *d)
{
    *n = 0;
    if (yexpect(path, v, YN_SEQ, what, d) != 0)
        return NULL;
    if (v->n == 0) {
        diag_error(d, path, v->line, v->col, "%s needs at least one value", what);
        return NULL;
    }
    bp_option *opts = xcalloc(v->n, sizeof *opts);
    for (size_t i = 0; i < v->n; i++) {
        const ynode *o = v->kids[i];
        bp_option *op = &opts[(*n)++];
        op->pos.line = o->line;
        op->pos.col = o->col;
        if (o->type == YN_SCALAR) {
            yread_text(path, o, "an option", &op->value, d);
            op->label = xstrdup(o->s);
            continue;
        }
        if (yexpect(path, o, YN_MAP, "an option", d) != 0)
            continue;
        static const char *const keys[] = {"label", "value"};
        ycheck_keys(path, o, "option key", keys, 2, d);
        const ynode *lab = ymap_get(o, "label"), *val = ymap_get(o, "value");
        if (!val) {
            ymissing(path, o, "value", "an option", d);
        } else {
            yread_text(path, val, "value", &op->value, d);
            op->pos.line = val->line; /* problems with the value point at it */
            op->pos.col = val->col;
        }
        if (!lab)
            ymissing(path, o, "label", "an option", d);
        else
            yread_text(path, lab, "label", &op->label, d);
    }
    for (size_t i = 0; i < *n; i++)
        for (size_t k = 0; k < i; k++)
            if (opts[i].label && opts[k].label && strcmp(opts[i].label, opts[k].label) == 0)
                diag_error(d, path, opts[i].pos.line, opts[i].pos.col,
                           "option label '%s' is used twice", opts[i].label);
    return opts;
}

static void read_common(const char *path, const ynode *root, const char *what, char **id,
                        char **title, char **board, bp_pos *board_pos, diag *d)
{
    const ynode *v;
    if (!(v = ymap_get(root, "id")))
        ymissing(path, root, "id", what, d);
    else
        yread_id(path, v, "id", id, d);
    if (!(v = ymap_get(root, "title")))
        ymissing(path, root, "title", what, d);
    else
        yread_text(path, v, "title", title, d);
    if (!(v = ymap_get(root, "board"))) {
        ymissing(path, root, "board", what, d);
    } else {
        yread_text(path, v, "board", board, d);
        board_pos->line = v->line;
        board_pos->col = v->col;
    }
}

static const char *const level_keys[] = {"id",      "title", "board",  "style",
                                         "choices", "goals", "counts", "timeline"};

static bp_level *level_from_tree(const char *path, ynode *root, diag *d);

bp_level *level_load(const char *path, diag *d)
{
    ynode *root = read_tree(path, "level", d);
    return root ? level_from_tree(path, root, d) : NULL;
}

bp_level *level_parse(const char *path, const char *text, size_t len, diag *d)
{
    ynode *root = parse_tree(path, text, len, "level", d);
    return root ? level_from_tree(path, root, d) : NULL;
}

/* Takes root (freed here). */
static bp_level *level_from_tree(const char *path, ynode *root, diag *d)
{
    size_t mark = diag_mark(d);
    bp_level *l = xcalloc(1, sizeof *l);
    l->path = xstrdup(path);
    l->pos.line = root->line;
    l->pos.col = root->col;
    ycheck_keys(path, root, "level key", level_keys, sizeof level_keys / sizeof level_keys[0], d);
    read_common(path, root, "a level", &l->id, &l->title, &l->board, &l->board_pos, d);
    const ynode *v;
    if ((v = ymap_get(root, "style"))) {
        static const char *const styles[] = {"level", "toggle", "sandbox"};
        int s;
        if (yread_enum(path, v, "level style", styles, 3, &s, d) == 0) {
            l->toggle = s == 1;
            l->sandbox = l->live = s == 2;
        }
    }
    if ((v = ymap_get(root, "timeline")))
        yread_bool(path, v, "timeline", &l->timeline, d);
    if ((v = ymap_get(root, "goals"))) {
        if (l->sandbox)
            diag_error(d, path, v->line, v->col,
                       "a sandbox has no goals: it is free play (style: level plays for goals)");
        l->has_goals = true;
        board_read_goals(path, v, l->goals, l->goal_pos, d);
    }
    if ((v = ymap_get(root, "counts")) && yexpect(path, v, YN_SEQ, "counts", d) == 0) {
        const char *names[SIM_M_COUNT];
        for (int m = 0; m < SIM_M_COUNT; m++)
            names[m] = sim_measure_name((sim_measure)m);
        if (v->n > LEVEL_MAX_COUNTS)
            diag_error(d, path, v->line, v->col, "counts takes at most %d measures",
                       LEVEL_MAX_COUNTS);
        for (size_t i = 0; i < v->n && i < LEVEL_MAX_COUNTS; i++) {
            int m;
            if (yread_enum(path, v->kids[i], "measure", names, SIM_M_COUNT, &m, d) == 0) {
                l->count_pos[l->n_counts] = (bp_pos){v->kids[i]->line, v->kids[i]->col};
                l->counts[l->n_counts++] = (sim_measure)m;
            }
        }
    }
    v = ymap_get(root, "choices");
    if (!v) {
        ymissing(path, root, "choices", "a level", d);
    } else if (yexpect(path, v, YN_SEQ, "choices", d) == 0) {
        if (v->n == 0 || v->n > 8)
            diag_error(d, path, v->line, v->col, "a level needs 1 to 8 choices, found %zu", v->n);
        l->choices = xcalloc(v->n ? v->n : 1, sizeof *l->choices);
        l->n_combos = 1;
        size_t n_drawn = 1; /* combinations of the option lists: a live level's diagrams */
        for (size_t i = 0; i < v->n && i < 8; i++) {
            const ynode *c = v->kids[i];
            bp_choice *ch = &l->choices[l->n_choices++];
            ch->pos.line = c->line;
            ch->pos.col = c->col;
            if (yexpect(path, c, YN_MAP, "a choice", d) != 0)
                continue;
            static const char *const keys[] = {"label", "set",   "options",
                                               "range", "start", "sweep"};
            ycheck_keys(path, c, "choice key", keys, 6, d);
            const ynode *x;
            if (!(x = ymap_get(c, "label")))
                ymissing(path, c, "label", "a choice", d);
            else
                yread_text(path, x, "label", &ch->label, d);
            if (!(x = ymap_get(c, "set"))) {
                ymissing(path, c, "set", "a choice", d);
            } else {
                yread_text(path, x, "set", &ch->set, d);
                ch->set_pos.line = x->line;
                ch->set_pos.col = x->col;
            }
            const ynode *range = ymap_get(c, "range");
            if ((x = ymap_get(c, "options")) && range)
                diag_error(d, path, range->line, range->col,
                           "a choice takes options or a range, not both");
            else if (range)
                l->live |= range_read(path, range, ymap_get(c, "start"), ch, d) == 0;
            else if (!x)
                ymissing(path, c, "options", "a choice (or a range)", d);
            else
                ch->options = read_options(path, x, "options", &ch->n_options, d);
            if (ch->n_options > 0) {
                if (l->n_combos > LEVEL_MAX_GRID)
                    ; /* already over: keep the product from overflowing */
                else
                    l->n_combos *= ch->n_options;
                if (!ch->range)
                    n_drawn = n_drawn > LEVEL_MAX_DRAWN ? n_drawn : n_drawn * ch->n_options;
            }
            /* sweep: MEASURE: a small chart of it over the slider's range */
            if ((x = ymap_get(c, "sweep"))) {
                const char *names[SIM_M_COUNT];
                for (int m = 0; m < SIM_M_COUNT; m++)
                    names[m] = sim_measure_name((sim_measure)m);
                int m;
                if (!range)
                    diag_error(d, path, x->line, x->col,
                               "sweep draws a measure over a slider's whole range: give it to a "
                               "choice with a range, not options");
                else if (yread_enum(path, x, "measure", names, SIM_M_COUNT, &m, d) == 0) {
                    ch->has_sweep = true;
                    ch->sweep = (sim_measure)m;
                    ch->sweep_pos.line = x->line;
                    ch->sweep_pos.col = x->col;
                }
            }
            if (!range && (x = ymap_get(c, "start"))) {
                bool found = false;
                for (size_t k = 0; k < ch->n_options && !found; k++) {
                    if (x->type == YN_SCALAR && ch->options[k].label &&
                        strcmp(ch->options[k].label, x->s) == 0) {
                        ch->start = (int)k;
                        found = true;
                    }
                }
                if (!found) {
                    const char *labels[64];
                    size_t nl = 0;
                    for (size_t k = 0; k < ch->n_options && nl < 64; k++)
                        if (ch->options[k].label)
                            labels[nl++] = ch->options[k].label;
                    diag_unknown(d, path, x->line, x->col, "start option",
                                 x->type == YN_SCALAR ? x->s : "?", labels, nl);
                }
            }
        }
        for (size_t i = 0; i < l->n_choices; i++)
            for (size_t k = 0; k < i; k++)
                if (l->choices[i].set && l->choices[k].set &&
                    strcmp(l->choices[i].set, l->choices[k].set) == 0)
                    diag_error(d, path, l->choices[i].set_pos.line, l->choices[i].set_pos.col,
                               "choices '%s' and '%s' both set %s; give each setting one choice",
                               l->choices[k].label ? l->choices[k].label : "?",
                               l->choices[i].label ? l->choices[i].label : "?", l->choices[i].set);
        if (l->sandbox)
            l->n_combos = 0; /* free play: no combination is checked */
        else if (l->live && l->n_combos > LEVEL_MAX_GRID)
            diag_error(d, path, v->line, v->col,
                       "the choices make more than %d combinations; a level with a range is "
                       "checked on every one at build time, so take bigger steps or offer "
                       "fewer options",
                       LEVEL_MAX_GRID);
        else if (!l->live && l->n_combos > LEVEL_MAX_COMBOS)
            diag_error(d, path, v->line, v->col,
                       "the choices make more than %d combinations; every one is simulated, "
                       "so offer fewer options",
                       LEVEL_MAX_COMBOS);
        if (l->live && n_drawn > LEVEL_MAX_DRAWN)
            diag_error(d, path, v->line, v->col,
                       "the option lists make more than %d combinations; a live level draws "
                       "the board for each, so offer fewer options",
                       LEVEL_MAX_DRAWN);
    }
    bool ranged = false;
    for (size_t i = 0; i < l->n_choices; i++)
        ranged |= l->choices[i].range;
    if (l->toggle && ranged)
        diag_error(d, path, l->pos.line, l->pos.col,
                   "style 'toggle' is an on/off switch: it takes options, not a range");
    else if (l->toggle && (l->n_choices != 1 || l->choices[0].n_options != 2))
        diag_error(d, path, l->pos.line, l->pos.col,
                   "style 'toggle' needs exactly one choice with two options (off, on)");
    if (l->live && l->timeline)
        diag_error(d, path, l->pos.line, l->pos.col,
                   "timeline: true does not go with a range or a sandbox: the reader's browser "
                   "re-simulates the board, and it does not redraw timelines");
    if (l->sandbox && l->n_counts == 0)
        diag_error(d, path, l->pos.line, l->pos.col,
                   "a sandbox needs counts: the measures it shows the reader");
    ynode_free(root);
    if (diag_failed_since(d, mark)) {
        level_free(l);
        return NULL;
    }
    return l;
}

/* A measure the level names (in counts:, its own goals or a sweep) that
 * the state b does not measure (a dead-letter queue's on a board with
 * none, a second hop's on one hop): an error at the name, with the
 * measures b has. Returns how many. A state of a level names the same
 * measures, and a line said once is not said again. */
static int unmeasured(const bp_level *l, const bp_board *b, sim_measure m, bp_pos at,
                      const char *where, diag *d)
{
    if (sim_measure_on(&b->sim, m))
        return 0;
    buf hint;
    buf_init(&hint);
    buf_puts(&hint, "the board measures ");
    const char *sep = "";
    for (int k = 0; k < SIM_M_COUNT; k++)
        if (sim_measure_on(&b->sim, (sim_measure)k)) {
            buf_printf(&hint, "%s%s", sep, sim_measure_name((sim_measure)k));
            sep = ", ";
        }
    buf_puts(&hint, sim_measure_hop(m) > 1
                        ? "; the downstream measures need a handler that links to a second "
                          "message broker"
                        : "; dead_lettered and dead_letter_time need a broker that names a "
                          "dead-letter queue (dead_letter: ID)");
    diag_error_hint(d, l->path, at.line, at.col, hint.data, "%s: %s is not measured on board '%s'",
                    where, sim_measure_name(m), b->id ? b->id : "?");
    buf_free(&hint);
    return 1;
}

static int level_measures_on(const bp_level *l, const bp_board *b, diag *d)
{
    int bad = 0;
    for (size_t i = 0; i < l->n_counts; i++)
        bad += unmeasured(l, b, l->counts[i], l->count_pos[i], "counts", d);
    for (int m = 0; l->has_goals && m < SIM_M_COUNT; m++)
        if (l->goals[m].has_max || l->goals[m].has_min)
            bad += unmeasured(l, b, (sim_measure)m, l->goal_pos[m], "goals", d);
    for (size_t i = 0; i < l->n_choices; i++)
        if (l->choices[i].has_sweep)
            bad += unmeasured(l, b, l->choices[i].sweep, l->choices[i].sweep_pos, "sweep", d);
    return bad;
}

bp_board *level_variant(const bp_level *l, const int *opts, const char *board_path,
                        const ynode *tree, const board_setting *extra, size_t n_extra,
                        const bp_catalog *cat, const sim_limits *lim, diag *d)
{
    board_setting *set = xcalloc(l->n_choices + n_extra + 1, sizeof *set);
    size_t n = 0;
    for (size_t i = 0; i < l->n_choices; i++) {
        const bp_choice *ch = &l->choices[i];
        if (opts[i] < 0)
            continue;
        set[n++] = (board_setting){ch->set, ch->options[opts[i]].value, l->path, ch->set_pos,
                                   ch->options[opts[i]].pos};
    }
    for (size_t i = 0; i < n_extra; i++)
        set[n++] = extra[i];
    bp_board *b = board_variant(board_path, tree, set, n, cat, lim, d);
    free(set);
    if (b && level_measures_on(l, b, d)) {
        board_free(b);
        return NULL;
    }
    if (b && l->sandbox) {
        memset(b->sim.goals, 0, sizeof b->sim.goals);
        b->sim.expect = SIM_EXPECT_NONE;
    } else if (b && l->has_goals) {
        memcpy(b->sim.goals, l->goals, sizeof b->sim.goals);
        memcpy(b->goal_pos, l->goal_pos, sizeof b->goal_pos);
    }
    return b;
}

char *level_board_file(const char *level_path, const char *board)
{
    /* the level's folder, then its parent: "content/levels/x.yaml" -> "content" */
    const char *slash = strrchr(level_path, '/');
    if (!slash)
        return xasprintf("../%s", board);
    const char *up = slash;
    while (up > level_path && up[-1] != '/')
        up--;
    if (up == level_path)
        return xstrdup(board);
    return xasprintf("%.*s%s", (int)(up - level_path), level_path, board);
}

/* ------------------------------------------------------------ charts */

static const char *const chart_keys[] = {"id", "title", "board", "measure", "x", "series"};

/* x value as a number: a probability ("0.2", "20%") reads as a fraction,
 * a duration as seconds, anything else as a plain number. */
static int x_number(const char *s, double *x, bool *percent, bool *seconds)
{
    diag_note err;
    size_t off;
    int64_t us;
    if (strchr(s, '%') && units_probability(s, x, &err, &off) == 0) {
        *percent = true;
        return 0;
    }
    if (units_number(s, x, &err, &off) == 0)
        return 0;
    if (units_duration(s, &us, &err, &off) == 0) {
        *x = (double)us / 1e6;
        *seconds = true;
        return 0;
    }
    return -1;
}

static bp_chart *chart_from_tree(const char *path, ynode *root, diag *d);

bp_chart *chart_load(const char *path, diag *d)
{
    ynode *root = read_tree(path, "chart", d);
    return root ? chart_from_tree(path, root, d) : NULL;
}

bp_chart *chart_parse(const char *path, const char *text, size_t len, diag *d)
{
    ynode *root = parse_tree(path, text, len, "chart", d);
    return root ? chart_from_tree(path, root, d) : NULL;
}

/* Takes root (freed here). */
static bp_chart *chart_from_tree(const char *path, ynode *root, diag *d)
{
    size_t mark = diag_mark(d);
    bp_chart *c = xcalloc(1, sizeof *c);
    c->path = xstrdup(path);
    c->pos.line = root->line;
    c->pos.col = root->col;
    ycheck_keys(path, root, "chart key", chart_keys, sizeof chart_keys / sizeof chart_keys[0], d);
    read_common(path, root, "a chart", &c->id, &c->title, &c->board, &c->board_pos, d);
    const ynode *v;
    const char *names[SIM_M_COUNT];
    for (int m = 0; m < SIM_M_COUNT; m++)
        names[m] = sim_measure_name((sim_measure)m);
    int m = 0;
    if (!(v = ymap_get(root, "measure")))
        ymissing(path, root, "measure", "a chart", d);
    else if (yread_enum(path, v, "measure", names, SIM_M_COUNT, &m, d) == 0)
        c->measure = (sim_measure)m;
    if (!(v = ymap_get(root, "x"))) {
        ymissing(path, root, "x", "a chart", d);
    } else if (yexpect(path, v, YN_MAP, "x", d) == 0) {
        c->x_pos.line = v->line;
        c->x_pos.col = v->col;
        static const char *const keys[] = {"label", "set", "values"};
        ycheck_keys(path, v, "x key", keys, 3, d);
        const ynode *x;
        if (!(x = ymap_get(v, "label")))
            ymissing(path, v, "label", "x", d);
        else
            yread_text(path, x, "label", &c->x_label, d);
        if (!(x = ymap_get(v, "set"))) {
            ymissing(path, v, "set", "x", d);
        } else if (yread_text(path, x, "set", &c->x_set, d) == 0) {
            c->x_set_pos.line = x->line;
            c->x_set_pos.col = x->col;
        }
        if (!(x = ymap_get(v, "values"))) {
            ymissing(path, v, "values", "x", d);
        } else if (yexpect(path, x, YN_SEQ, "values", d) == 0) {
            if (x->n < 2 || x->n > 64)
                diag_error(d, path, x->line, x->col, "x needs 2 to 64 values, found %zu", x->n);
            c->x_values = xcalloc(x->n ? x->n : 1, sizeof *c->x_values);
            c->x = xcalloc(x->n ? x->n : 1, sizeof *c->x);
            c->x_value_pos = xcalloc(x->n ? x->n : 1, sizeof *c->x_value_pos);
            for (size_t i = 0; i < x->n; i++) {
                const ynode *xv = x->kids[i];
                if (yread_text(path, xv, "an x value", &c->x_values[c->n_x], d) != 0)
                    continue;
                if (x_number(xv->s, &c->x[c->n_x], &c->x_percent, &c->x_seconds) != 0) {
                    diag_error(d, path, xv->line, xv->col,
                               "x value '%s' is not a number, probability or duration", xv->s);
                    free(c->x_values[c->n_x]);
                    continue;
                }
                if (c->n_x > 0 && c->x[c->n_x] <= c->x[c->n_x - 1])
                    diag_error(d, path, xv->line, xv->col, "x values must increase");
                c->x_value_pos[c->n_x].line = xv->line;
                c->x_value_pos[c->n_x].col = xv->col;
                c->n_x++;
            }
        }
    }
    if ((v = ymap_get(root, "series")) && yexpect(path, v, YN_MAP, "series", d) == 0) {
        c->series_pos.line = v->line;
        c->series_pos.col = v->col;
        static const char *const keys[] = {"set", "values"};
        ycheck_keys(path, v, "series key", keys, 2, d);
        const ynode *x;
        if (!(x = ymap_get(v, "set"))) {
            ymissing(path, v, "set", "series", d);
        } else if (yread_text(path, x, "set", &c->series_set, d) == 0) {
            c->series_set_pos.line = x->line;
            c->series_set_pos.col = x->col;
        }
        if (!(x = ymap_get(v, "values")))
            ymissing(path, v, "values", "series", d);
        else
            c->series = read_options(path, x, "series values", &c->n_series, d);
        if (c->n_series > 8)
            diag_error(d, path, v->line, v->col, "a chart takes at most 8 series");
    }
    if ((c->n_series ? c->n_series : 1) * c->n_x > CHART_MAX_POINTS)
        diag_error(d, path, c->x_pos.line, c->x_pos.col,
                   "%zu x values times %zu series make %zu points; a chart takes at most %d",
                   c->n_x, c->n_series ? c->n_series : 1, (c->n_series ? c->n_series : 1) * c->n_x,
                   CHART_MAX_POINTS);
    ynode_free(root);
    if (diag_failed_since(d, mark)) {
        chart_free(c);
        return NULL;
    }
    return c;
}
