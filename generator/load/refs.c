/* refs.c — what the pages list: every board, level and chart file a page
 * names, checked to lie inside the content folder and loaded once however
 * many pages name it, with each level combination and chart point as a
 * board variant of its own (the level's choices or the chart's settings
 * written into a copy of the board's YAML tree before it is built). */
#include "load/refs.h"
#include "base/fmt.h"
#include "load/board.h"
#include "load/fields.h"
#include "load/level.h"
#include "load/live.h"
#include "load/ydoc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A board file's parsed YAML, kept while pages, levels and charts load. */
typedef struct {
    char *real;  /* resolved path: one entry per file, however it is spelt */
    ynode *tree; /* NULL when it did not read or parse (reported once) */
} yfile;

/* The board files read so far. O(n) lookup: n is the site's board files. */
typedef struct {
    site *s;
    yfile *files;
    size_t n, cap;
} tree_cache;

/* ------------------------------------------------------------ files */

static int cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The file a page refers to, checked to stay inside the content folder.
 * Returns the full path (caller frees) or NULL (reported); real, when not
 * NULL, gets the resolved path (PATH_MAX bytes). */
static char *content_file(site *s, const bp_page *p, const bp_ref *r, const char *folder,
                          char *real_out)
{
    const char *rel = r->path;
    if (rel[0] == '/' || strstr(rel, "..") || strchr(rel, '\\')) {
        diag_error(&s->d, p->path, r->pos.line, r->pos.col,
                   "'%s' must be a path inside the content folder, like '%s/name.yaml'", rel,
                   folder);
        return NULL;
    }
    char *full = xasprintf("%s/%s", s->opt.content, rel);
    char real[PATH_MAX], root[PATH_MAX];
    if (!realpath(full, real)) {
        int e = errno;
        if (e == ENOENT) {
            /* A near name in the folder makes a good hint. */
            char *dir_path = xasprintf("%s/%s", s->opt.content, folder);
            DIR *dh = opendir(dir_path);
            const char *cands[256];
            char *owned[256];
            size_t n = 0;
            if (dh) {
                struct dirent *ent;
                while ((ent = readdir(dh)) && n < 256) {
                    if (ent->d_name[0] == '.')
                        continue;
                    owned[n] = xasprintf("%s/%s", folder, ent->d_name);
                    cands[n] = owned[n];
                    n++;
                }
                closedir(dh);
            }
            const char *near = diag_suggest(rel, cands, n);
            diag_error_near(&s->d, p->path, r->pos.line, r->pos.col, near,
                            "no file '%s' in the content folder", rel);
            for (size_t i = 0; i < n; i++)
                free(owned[i]);
            free(dir_path);
        } else {
            char *what = xasprintf("'%s'", rel);
            diag_read_error(&s->d, p->path, r->pos.line, r->pos.col, full, what, e, 0);
            free(what);
        }
        free(full);
        return NULL;
    }
    if (!realpath(s->opt.content, root) || strncmp(real, root, strlen(root)) != 0 ||
        real[strlen(root)] != '/') {
        diag_error(&s->d, p->path, r->pos.line, r->pos.col,
                   "'%s' leads outside the content folder (a symbolic link?); copy the file in",
                   rel);
        free(full);
        return NULL;
    }
    if (real_out)
        memcpy(real_out, real, sizeof real);
    return full;
}

/* Same rule for a board named inside a level or chart file. */
static char *content_file_from(site *s, const char *from_path, bp_pos pos, const char *rel,
                               char *real)
{
    bp_page fake;
    memset(&fake, 0, sizeof fake);
    fake.path = (char *)from_path;
    bp_ref r = {(char *)rel, pos};
    return content_file(s, &fake, &r, "boards", real);
}

/* A board file's YAML tree, read and parsed once per build whoever asks (a
 * page, a level, a chart): every later ask gets the same tree, or the same
 * NULL without a second report. real is the file's resolved path. */
static const ynode *board_tree(tree_cache *tc, const char *path, const char *real)
{
    for (size_t i = 0; i < tc->n; i++)
        if (strcmp(tc->files[i].real, real) == 0)
            return tc->files[i].tree;
    tc->files = xgrow(tc->files, sizeof *tc->files, &tc->cap, tc->n + 1);
    yfile *f = &tc->files[tc->n++];
    f->real = xstrdup(real);
    f->tree = yaml_load(path, "board", &tc->s->d);
    return f->tree;
}

/* ------------------------------------------------------------ boards */

static void want_trace(bp_variant *b)
{
    b->want_trace = b->board && b->board->sim.traffic.jobs <= TIMELINE_MAX_JOBS &&
                    b->board->sim.replications >= 1;
}

static bp_variant *load_board_ref(site *s, tree_cache *tc, const bp_page *p, const bp_ref *r)
{
    bp_variant *b = site_board_file(s, r->path);
    if (b)
        return b;
    char real[PATH_MAX];
    char *full = content_file(s, p, r, "boards", real);
    if (!full)
        return NULL;
    b = xcalloc(1, sizeof *b);
    b->file = xstrdup(r->path);
    const ynode *tree = board_tree(tc, full, real);
    b->board = tree ? board_from_tree(full, tree, s->cat, &s->lim, &s->d) : NULL;
    free(full);
    want_trace(b);
    s->boards = xrealloc(s->boards, (s->n_boards + 1) * sizeof *s->boards);
    s->boards[s->n_boards++] = b;
    if (b->board) {
        for (size_t i = 0; i + 1 < s->n_boards; i++) {
            const bp_board *o = s->boards[i]->board;
            if (o && strcmp(o->id, b->board->id) == 0)
                diag_error(&s->d, b->board->path, b->board->pos.line, b->board->pos.col,
                           "board id '%s' is also used by %s", b->board->id, o->path);
        }
    }
    return b;
}

static void load_level_ref(site *s, tree_cache *tc, const bp_page *p, const bp_ref *r)
{
    if (site_level_file(s, r->path))
        return;
    char *full = content_file(s, p, r, "levels", NULL);
    if (!full)
        return;
    slevel *sl = xcalloc(1, sizeof *sl);
    sl->file = xstrdup(r->path);
    s->levels = xrealloc(s->levels, (s->n_levels + 1) * sizeof *s->levels);
    s->levels[s->n_levels++] = sl;
    sl->level = level_load(full, &s->d);
    free(full);
    if (!sl->level)
        return;
    bp_level *l = sl->level;
    for (size_t i = 0; i + 1 < s->n_levels; i++)
        if (s->levels[i]->level && strcmp(s->levels[i]->level->id, l->id) == 0)
            diag_error(&s->d, l->path, l->pos.line, l->pos.col, "level id '%s' is also used by %s",
                       l->id, s->levels[i]->level->path);
    char real[PATH_MAX];
    char *board_path = content_file_from(s, l->path, l->board_pos, l->board, real);
    if (!board_path)
        return;
    const ynode *tree = board_tree(tc, board_path, real);
    if (!tree) { /* reported where the file was first read */
        free(board_path);
        return;
    }
    bool ok;
    if (l->live) {
        ok = live_level_load(s, sl, board_path, tree) == 0;
    } else {
        sl->start = level_start(l);
        sl->n_variants = l->n_combos;
        sl->combos = xcalloc(l->n_combos, sizeof *sl->combos);
        sl->opts = xcalloc(l->n_combos * l->n_choices, sizeof *sl->opts);
        ok = true;
        for (size_t c = 0; c < l->n_combos && ok; c++) {
            int *opts = &sl->opts[c * l->n_choices];
            level_combo(l, c, opts);
            bp_variant *b = &sl->combos[c];
            b->file = xstrdup(l->board);
            b->board = level_variant(l, opts, board_path, tree, NULL, 0, s->cat, &s->lim, &s->d);
            ok = b->board != NULL;
            want_trace(b);
        }
    }
    free(board_path);
    if (ok && l->sandbox) {
        sl->loaded = true;
    } else if (ok) {
        bool any_goal = false;
        const bp_board *b0 = sl->combos[0].board;
        for (int m = 0; m < SIM_M_COUNT; m++)
            any_goal |= b0->sim.goals[m].has_max || b0->sim.goals[m].has_min;
        if (!any_goal)
            diag_error(&s->d, l->path, l->pos.line, l->pos.col,
                       "a level needs goals (in the level file or on its board)");
        /* A level's goals are what the reader plays against: keep them on the
         * level for the goals table even when they came from the board. */
        if (!l->has_goals) {
            memcpy(l->goals, b0->sim.goals, sizeof l->goals);
            l->has_goals = true;
        }
        sl->loaded = any_goal;
    }
}

/* A chart's y axis says what the pages that show it call its measure
 * (labels:); one drawing serves them all, so they must call it the same. */
static void chart_page_label(site *s, const bp_page *p, const bp_ref *r, bp_chart *c)
{
    const bp_label *own = NULL;
    for (size_t i = 0; i < p->n_labels && !own; i++)
        if (p->labels[i].measure == c->measure)
            own = &p->labels[i];
    if (!c->y_label_from) {
        c->y_label_from = p->path;
        c->y_label = own ? xstrdup(own->text) : NULL;
        if (c->y_label && c->y_label[0] >= 'a' && c->y_label[0] <= 'z')
            c->y_label[0] = (char)(c->y_label[0] - 'a' + 'A'); /* an axis's title */
        return;
    }
    const char *have = c->y_label ? c->y_label : fmt_measure_label(c->measure);
    const char *want = own ? own->text : fmt_measure_label(c->measure);
    if (strcasecmp(have, want) != 0)
        diag_error(&s->d, p->path, own ? own->pos.line : r->pos.line,
                   own ? own->pos.col : r->pos.col,
                   "chart '%s' is drawn with %s called '%s' for %s; a chart has one drawing, so "
                   "every page that shows it gives its measure the same label",
                   c->id, sim_measure_name(c->measure), have, c->y_label_from);
}

static void load_chart_ref(site *s, tree_cache *tc, const bp_page *p, const bp_ref *r)
{
    schart *had = site_chart_file(s, r->path);
    if (had) {
        if (had->chart)
            chart_page_label(s, p, r, had->chart);
        return;
    }
    char *full = content_file(s, p, r, "charts", NULL);
    if (!full)
        return;
    schart *sc = xcalloc(1, sizeof *sc);
    sc->file = xstrdup(r->path);
    s->charts = xrealloc(s->charts, (s->n_charts + 1) * sizeof *s->charts);
    s->charts[s->n_charts++] = sc;
    sc->chart = chart_load(full, &s->d);
    free(full);
    if (!sc->chart)
        return;
    bp_chart *c = sc->chart;
    chart_page_label(s, p, r, c);
    char real[PATH_MAX];
    char *board_path = content_file_from(s, c->path, c->board_pos, c->board, real);
    if (!board_path)
        return;
    const ynode *tree = board_tree(tc, board_path, real);
    if (!tree) {
        free(board_path);
        return;
    }
    /* x values of probability fields read as percentages */
    const field_def *xf = fields_of_path(c->x_set);
    if (xf && xf->type == FT_PROB)
        c->x_percent = true;
    size_t ns = c->n_series ? c->n_series : 1;
    sc->n_points = ns * c->n_x;
    sc->points = xcalloc(sc->n_points, sizeof *sc->points);
    bool ok = true;
    for (size_t si = 0; si < ns && ok; si++) {
        for (size_t xi = 0; xi < c->n_x && ok; xi++) {
            board_setting ov[2];
            size_t n = 0;
            ov[n++] = (board_setting){c->x_set, c->x_values[xi], c->path, c->x_set_pos,
                                      c->x_value_pos[xi]};
            if (c->n_series)
                ov[n++] = (board_setting){c->series_set, c->series[si].value, c->path,
                                          c->series_set_pos, c->series[si].pos};
            bp_variant *b = &sc->points[si * c->n_x + xi];
            b->file = xstrdup(c->board);
            b->board = board_variant(board_path, tree, ov, n, s->cat, &s->lim, &s->d);
            ok = b->board != NULL;
        }
    }
    free(board_path);
}

/* ------------------------------------------------------------ after them all */

/* A level is named by its id on a page as a board is ({{ level x }},
 * {{ x.duplicates }}, the #board- and #level- anchors): one id, one thing. */
static void level_ids_not_boards(site *s)
{
    for (size_t i = 0; i < s->n_levels; i++) {
        const bp_level *l = s->levels[i]->level;
        for (size_t k = 0; l && k < s->n_boards; k++) {
            const bp_board *b = s->boards[k]->board;
            if (b && strcmp(b->id, l->id) == 0)
                diag_error(&s->d, l->path, l->pos.line, l->pos.col,
                           "level id '%s' is also the id of the board in %s; a page names "
                           "boards and levels by id, so give the level another (such as "
                           "'%s-level')",
                           l->id, b->path, l->id);
        }
    }
}

/* Is the file at real (resolved) one of those a page uses: a listed board,
 * level or chart, or a board a level or chart names (read into tc)? */
static bool file_used(const site *s, const tree_cache *tc, const char *real)
{
    for (size_t i = 0; i < tc->n; i++)
        if (tc->files[i].real && strcmp(tc->files[i].real, real) == 0)
            return true;
    char r[PATH_MAX];
    for (size_t i = 0; i < s->n_levels; i++) {
        char *full = xasprintf("%s/%s", s->opt.content, s->levels[i]->file);
        bool same = realpath(full, r) && strcmp(r, real) == 0;
        free(full);
        if (same)
            return true;
    }
    for (size_t i = 0; i < s->n_charts; i++) {
        char *full = xasprintf("%s/%s", s->opt.content, s->charts[i]->file);
        bool same = realpath(full, r) && strcmp(r, real) == 0;
        free(full);
        if (same)
            return true;
    }
    return false;
}

/* A board, level or chart file in its folder that no page uses is most
 * likely one a page forgot to list: say so (once the build succeeds, so
 * a failed build's errors stand alone), without failing the build. */
static void unused_files(site *s, const tree_cache *tc)
{
    static const char *const folders[] = {"boards", "levels", "charts"};
    static const char *const how[] = {
        "list it in a page's boards: (or name it as a level's or chart's board:)",
        "list it in a page's levels: and show it with {{ level ID }}",
        "list it in a page's charts: and show it with {{ chart ID }}"};
    for (size_t f = 0; f < 3; f++) {
        char *dir = xasprintf("%s/%s", s->opt.content, folders[f]);
        DIR *dh = opendir(dir);
        char **names = NULL;
        size_t n = 0;
        for (struct dirent *e; dh && (e = readdir(dh));) {
            size_t len = strlen(e->d_name);
            if (e->d_name[0] == '.' || !((len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0) ||
                                         (len > 4 && strcmp(e->d_name + len - 4, ".yml") == 0)))
                continue;
            names = xrealloc(names, (n + 1) * sizeof *names);
            names[n++] = xstrdup(e->d_name);
        }
        if (dh)
            closedir(dh);
        if (n > 1) /* readdir's order is the disk's */
            qsort(names, n, sizeof *names, cmp_names);
        for (size_t i = 0; i < n; i++) {
            char *full = xasprintf("%s/%s", dir, names[i]);
            char real[PATH_MAX];
            if (realpath(full, real) && !file_used(s, tc, real))
                buf_printf(&s->warnings,
                           "%s: warning: no page uses this %.*s file; %s, or delete it\n", full,
                           (int)strlen(folders[f]) - 1, folders[f], how[f]);
            free(full);
            free(names[i]);
        }
        free(names);
        free(dir);
    }
}

/* ------------------------------------------------------------ every page's */

/* A diagram's notes say its measures as the page says them ("25.2 lost
 * charges" where the page labels lost_writes so); one drawing serves every
 * page that shows it, so only when they all say them alike. */
static void variant_shown_by(bp_variant *v, const bp_page *p)
{
    if (v->words_differ || v->words == p)
        return;
    if (!v->words) {
        v->words = p;
        return;
    }
    for (int m = 0; m < SIM_M_COUNT; m++)
        if (strcmp(page_measure_label(v->words, (sim_measure)m),
                   page_measure_label(p, (sim_measure)m)) != 0) {
            v->words = NULL;
            v->words_differ = true;
            return;
        }
}

static void words_of_pages(site *s)
{
    for (size_t i = 0; i < s->n_pages; i++) {
        const bp_page *p = s->pages[i];
        for (size_t k = 0; k < p->n_boards; k++) {
            bp_variant *b = site_board_file(s, p->boards[k].path);
            if (b)
                variant_shown_by(b, p);
        }
        for (size_t k = 0; k < p->n_levels; k++) {
            slevel *sl = site_level_file(s, p->levels[k].path);
            for (size_t c = 0; sl && sl->combos && c < sl->n_variants; c++)
                variant_shown_by(&sl->combos[c], p);
        }
    }
}

void refs_load(site *s)
{
    tree_cache tc = {s, NULL, 0, 0};
    for (size_t i = 0; i < s->n_pages; i++) {
        bp_page *p = s->pages[i];
        for (size_t k = 0; k < p->n_boards; k++)
            load_board_ref(s, &tc, p, &p->boards[k]);
        for (size_t k = 0; k < p->n_levels; k++)
            load_level_ref(s, &tc, p, &p->levels[k]);
        for (size_t k = 0; k < p->n_charts; k++)
            load_chart_ref(s, &tc, p, &p->charts[k]);
    }
    level_ids_not_boards(s);
    words_of_pages(s);
    unused_files(s, &tc);
    /* the trees are needed while pages, levels and charts load, not after */
    for (size_t i = 0; i < tc.n; i++) {
        free(tc.files[i].real);
        ynode_free(tc.files[i].tree);
    }
    free(tc.files);
}
