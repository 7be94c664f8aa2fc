/* site.c — `boardpress build` / `check`: load site.yaml, the catalog, every
 * page's front matter and the boards, levels and charts they list; simulate
 * every board variant once (in parallel); then render each page in turn
 * (pages are streamed: only their front matter stays in memory) into a new
 * output tree that replaces the old one only when nothing failed. */
#include "cache.h"
#include "draw.h"
#include "drawcache.h"
#include "fmt.h"
#include "markdown.h"
#include "results.h"
#include "simcore.h"
#include "site_internal.h"
#include "yread.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SITE_MAX_PAGES 100000
/* Jobs times replications over every board, level combination and chart
 * point of a build: a bound on how long simulating can take (minutes). */
#define SITE_MAX_JOB_RUNS 100000000

/* Board and timeline drawings are cached on shared boards and made with
 * cairo. Pages that draw render on one thread (render_all); the lock keeps
 * drawing one at a time should that ever change. */
static pthread_mutex_t draw_lock = PTHREAD_MUTEX_INITIALIZER;

/* ------------------------------------------------------------ site.yaml */

static const char *const site_keys[] = {"title",       "description", "base_url", "language",
                                        "unsafe_html", "nav",         "about"};

/* A file of the content folder that resolves outside it (a symbolic link):
 * reported, as pages, boards and levels are. */
static bool leads_outside(site *s, const char *path)
{
    char real[PATH_MAX], root[PATH_MAX];
    if (!realpath(path, real) || !realpath(s->opt.content, root))
        return false; /* missing: the reader says so */
    size_t n = strlen(root);
    if (strncmp(real, root, n) == 0 && real[n] == '/')
        return false;
    diag_error(&s->d, path, 0, 0,
               "leads outside the content folder (a symbolic link?); copy the file in");
    return true;
}

static void load_config(site *s)
{
    site_config *c = &s->cfg;
    c->language = xstrdup("en");
    c->base_url = xstrdup("");
    char *path = xasprintf("%s/site.yaml", s->opt.content);
    char *text = NULL;
    size_t len;
    diag *d = &s->d;
    if (leads_outside(s, path)) {
        free(path);
        return;
    }
    if (file_read(path, BP_MAX_FILE_BYTES, &text, &len) != 0) {
        if (errno != ENOENT)
            d->io = true;
        diag_error(d, path, 0, 0, "cannot read the site settings: %s",
                   errno == ENOENT ? "no such file (every site needs a site.yaml with a title)"
                                   : strerror(errno));
        free(path);
        return;
    }
    bool empty;
    ynode *root = yaml_parse(path, text, len, 0, d, &empty);
    free(text);
    if (!root) {
        if (empty)
            diag_error(d, path, 1, 1, "site.yaml is empty; it needs at least a title");
        free(path);
        return;
    }
    if (yexpect(path, root, YN_MAP, "site.yaml", d) == 0) {
        ycheck_keys(path, root, "site key", site_keys, sizeof site_keys / sizeof site_keys[0], d);
        const ynode *v;
        if (!(v = ymap_get(root, "title")))
            ymissing(path, root, "title", "site.yaml", d);
        else
            yread_text(path, v, "title", &c->title, d);
        if ((v = ymap_get(root, "description")))
            yread_text(path, v, "description", &c->description, d);
        if ((v = ymap_get(root, "language"))) {
            free(c->language);
            c->language = NULL;
            yread_text(path, v, "language", &c->language, d);
        }
        if ((v = ymap_get(root, "base_url"))) {
            char *u = NULL;
            if (yread_text(path, v, "base_url", &u, d) == 0) {
                if (strncmp(u, "https://", 8) != 0 && strncmp(u, "http://", 7) != 0) {
                    diag_error(d, path, v->line, v->col,
                               "base_url must start with https:// or http://");
                } else {
                    free(c->base_url);
                    size_t n = strlen(u);
                    c->base_url = n && u[n - 1] == '/' ? xstrdup(u) : xasprintf("%s/", u);
                }
            }
            free(u);
        }
        if ((v = ymap_get(root, "unsafe_html")))
            yread_bool(path, v, "unsafe_html", &c->unsafe_html, d);
        if ((v = ymap_get(root, "about")) && yread_id(path, v, "about", &c->about, d) == 0)
            c->about_pos = (bp_pos){v->line, v->col};
        if ((v = ymap_get(root, "nav")) && yexpect(path, v, YN_SEQ, "nav", d) == 0) {
            c->nav = xcalloc(v->n ? v->n : 1, sizeof *c->nav);
            c->nav_pos = xcalloc(v->n ? v->n : 1, sizeof *c->nav_pos);
            for (size_t i = 0; i < v->n; i++)
                if (yread_id(path, v->kids[i], "nav entry", &c->nav[c->n_nav], d) == 0)
                    c->nav_pos[c->n_nav++] = (bp_pos){v->kids[i]->line, v->kids[i]->col};
        }
    }
    ynode_free(root);
    free(path);
}

static void free_config(site_config *c)
{
    free(c->title);
    free(c->description);
    free(c->base_url);
    free(c->language);
    free(c->about);
    for (size_t i = 0; i < c->n_nav; i++)
        free(c->nav[i]);
    free(c->nav);
    free(c->nav_pos);
}

/* ------------------------------------------------------------ files */

/* The file a page refers to, checked to stay inside the content folder.
 * Returns the full path (caller frees) or NULL (reported). */
static char *content_file(site *s, const bp_page *p, const bp_ref *r, const char *folder)
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
            if (near)
                diag_error(&s->d, p->path, r->pos.line, r->pos.col,
                           "no file '%s' in the content folder; did you mean '%s'?", rel, near);
            else
                diag_error(&s->d, p->path, r->pos.line, r->pos.col,
                           "no file '%s' in the content folder", rel);
            for (size_t i = 0; i < n; i++)
                free(owned[i]);
            free(dir_path);
        } else {
            s->d.io = true;
            diag_error(&s->d, p->path, r->pos.line, r->pos.col, "cannot open '%s': %s", rel,
                       strerror(e));
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
    return full;
}

/* Same rule for a board named inside a level or chart file. */
static char *content_file_from(site *s, const char *from_path, bp_pos pos, const char *rel)
{
    bp_page fake;
    memset(&fake, 0, sizeof fake);
    fake.path = (char *)from_path;
    bp_ref r = {(char *)rel, pos};
    return content_file(s, &fake, &r, "boards");
}

/* ------------------------------------------------------------ boards */

static sboard *find_board_file(site *s, const char *file)
{
    for (size_t i = 0; i < s->n_boards; i++)
        if (strcmp(s->boards[i]->file, file) == 0)
            return s->boards[i];
    return NULL;
}

static void want_trace(sboard *b)
{
    b->want_trace = b->board && b->board->sim.traffic.jobs <= TIMELINE_MAX_JOBS &&
                    b->board->sim.replications >= 1;
}

static sboard *load_board_ref(site *s, const bp_page *p, const bp_ref *r)
{
    sboard *b = find_board_file(s, r->path);
    if (b)
        return b;
    char *full = content_file(s, p, r, "boards");
    if (!full)
        return NULL;
    b = xcalloc(1, sizeof *b);
    b->file = xstrdup(r->path);
    b->board = board_load(full, s->cat, &s->lim, &s->d);
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

/* Build variant boards from one board file's tree with overrides. */
typedef struct {
    const char *set;
    const char *value;
    const char *src;
    bp_pos pos;     /* of the value */
    bp_pos set_pos; /* of the path */
} override_t;

/* The board file's tree, parsed once for all of a level's or chart's
 * variants (NULL after reporting). */
static ynode *variant_tree(site *s, const char *board_path)
{
    return yaml_load(board_path, "board", &s->d);
}

static bp_board *variant(site *s, const char *board_path, const ynode *tree, const override_t *ov,
                         size_t n, const sim_goal *goals, const bp_pos *goal_pos)
{
    if (!tree)
        return NULL;
    ynode *root = ynode_clone(tree);
    int before = s->d.errors;
    for (size_t i = 0; i < n; i++)
        board_override_at(board_path, root, ov[i].set, ov[i].value, ov[i].src, ov[i].set_pos,
                          ov[i].pos, &s->d);
    bp_board *b =
        s->d.errors == before ? board_from_tree(board_path, root, s->cat, &s->lim, &s->d) : NULL;
    if (b && goals) {
        memcpy(b->sim.goals, goals, sizeof b->sim.goals);
        memcpy(b->goal_pos, goal_pos, sizeof b->goal_pos);
    }
    ynode_free(root);
    return b;
}

static void load_level_ref(site *s, const bp_page *p, const bp_ref *r)
{
    for (size_t i = 0; i < s->n_levels; i++)
        if (strcmp(s->levels[i]->file, r->path) == 0)
            return;
    char *full = content_file(s, p, r, "levels");
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
    char *board_path = content_file_from(s, l->path, l->board_pos, l->board);
    if (!board_path)
        return;
    sl->start = level_start(l);
    sl->combos = xcalloc(l->n_combos, sizeof *sl->combos);
    override_t ov[8];
    int opts[8];
    int before = s->d.errors;
    ynode *tree = variant_tree(s, board_path);
    for (size_t c = 0; c < l->n_combos && s->d.errors == before; c++) {
        level_combo(l, c, opts);
        for (size_t i = 0; i < l->n_choices; i++) {
            const bp_choice *ch = &l->choices[i];
            ov[i].set = ch->set;
            ov[i].value = ch->options[opts[i]].value;
            ov[i].src = l->path;
            ov[i].pos = ch->options[opts[i]].pos;
            ov[i].set_pos = ch->set_pos;
        }
        sboard *b = &sl->combos[c];
        b->file = xstrdup(l->board);
        b->board = variant(s, board_path, tree, ov, l->n_choices, l->has_goals ? l->goals : NULL,
                           l->goal_pos);
        want_trace(b);
    }
    ynode_free(tree);
    free(board_path);
    if (s->d.errors == before) {
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

static void load_chart_ref(site *s, const bp_page *p, const bp_ref *r)
{
    for (size_t i = 0; i < s->n_charts; i++)
        if (strcmp(s->charts[i]->file, r->path) == 0)
            return;
    char *full = content_file(s, p, r, "charts");
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
    char *board_path = content_file_from(s, c->path, c->board_pos, c->board);
    if (!board_path)
        return;
    /* x values of probability fields read as percentages */
    const char *last = strrchr(c->x_set, '.');
    last = last ? last + 1 : c->x_set;
    if (strncmp(last, "lose_", 5) == 0 || strcmp(last, "fail") == 0 ||
        strcmp(last, "crash_after_effect") == 0 || strcmp(last, "crash_after_commit") == 0 ||
        strcmp(last, "repeat_share") == 0)
        c->x_percent = true;
    size_t ns = c->n_series ? c->n_series : 1;
    sc->n_points = ns * c->n_x;
    sc->points = xcalloc(sc->n_points, sizeof *sc->points);
    int before = s->d.errors;
    ynode *tree = variant_tree(s, board_path);
    for (size_t si = 0; si < ns && s->d.errors == before; si++) {
        for (size_t xi = 0; xi < c->n_x && s->d.errors == before; xi++) {
            override_t ov[2];
            size_t n = 0;
            ov[n].set = c->x_set;
            ov[n].value = c->x_values[xi];
            ov[n].src = c->path;
            ov[n].set_pos = c->x_set_pos;
            ov[n++].pos = c->x_value_pos[xi];
            if (c->n_series) {
                ov[n].set = c->series_set;
                ov[n].value = c->series[si].value;
                ov[n].src = c->path;
                ov[n].set_pos = c->series_set_pos;
                ov[n++].pos = c->series[si].pos;
            }
            sboard *b = &sc->points[si * c->n_x + xi];
            b->file = xstrdup(c->board);
            b->board = variant(s, board_path, tree, ov, n, NULL, NULL);
        }
    }
    ynode_free(tree);
    free(board_path);
}

/* ------------------------------------------------------------ simulation */

typedef struct {
    sboard **runs;
    size_t n;
    atomic_size_t next;
    const sim_limits *lim;
} run_queue;

static void *run_worker(void *arg)
{
    run_queue *q = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&q->next, 1);
        if (i >= q->n)
            break;
        sboard *b = q->runs[i];
        if (sim_run(&b->board->sim, q->lim, b->want_trace, &b->result, b->run_error,
                    sizeof b->run_error) != 0)
            b->run_failed = 1;
        b->ran = true;
    }
    return NULL;
}

static void add_run(sboard ***runs, size_t *n, size_t *cap, sboard *b)
{
    if (!b->board || b->ran)
        return;
    for (size_t i = 0; i < *n; i++)
        if ((*runs)[i] == b)
            return;
    *runs = xgrow(*runs, sizeof **runs, cap, *n + 1);
    (*runs)[(*n)++] = b;
}

static int cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)(n > 64 ? 64 : n) : 1;
}

static void simulate_all(site *s)
{
    sboard **runs = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < s->n_boards; i++)
        add_run(&runs, &n, &cap, s->boards[i]);
    for (size_t i = 0; i < s->n_levels; i++)
        if (s->levels[i]->loaded)
            for (size_t c = 0; c < s->levels[i]->level->n_combos; c++)
                add_run(&runs, &n, &cap, &s->levels[i]->combos[c]);
    for (size_t i = 0; i < s->n_charts; i++)
        for (size_t k = 0; k < s->charts[i]->n_points; k++)
            add_run(&runs, &n, &cap, &s->charts[i]->points[k]);
    int64_t job_runs = 0;
    for (size_t i = 0; i < n; i++)
        job_runs += runs[i]->board->sim.traffic.jobs * board_max_replications(runs[i]->board);
    if (job_runs > SITE_MAX_JOB_RUNS) {
        diag_error(&s->d, NULL, 0, 0,
                   "the site asks for %lld simulated jobs (jobs times replications over every "
                   "board, level combination and chart point); the limit is %d per build",
                   (long long)job_runs, SITE_MAX_JOB_RUNS);
        free(runs);
        return;
    }
    /* Cached results first (in this thread), then the misses in parallel;
     * a variant identical to an earlier one (same key: a level combination
     * that is also a board of its own) runs once and shares the result. */
    sboard **todo = xcalloc(n ? n : 1, sizeof *todo);
    sboard **same = xcalloc(n ? n : 1, sizeof *same);      /* repeats, with ... */
    size_t *same_as = xcalloc(n ? n : 1, sizeof *same_as); /* ... the todo they repeat */
    buf *keys = xcalloc(n ? n : 1, sizeof *keys);
    uint64_t *hashes = xcalloc(n ? n : 1, sizeof *hashes);
    size_t n_todo = 0, n_same = 0;
    for (size_t i = 0; i < n; i++) {
        sboard *b = runs[i];
        cache_key(&keys[n_todo], &b->board->sim, &s->lim, b->want_trace);
        if (s->opt.cache && cache_get(s->opt.cache, &keys[n_todo], &b->result)) {
            b->ran = true;
            s->cached++;
            buf_clear(&keys[n_todo]);
            continue;
        }
        uint64_t h = hash64(keys[n_todo].data, keys[n_todo].len, 0);
        size_t k = 0;
        while (k < n_todo && !(hashes[k] == h && keys[k].len == keys[n_todo].len &&
                               memcmp(keys[k].data, keys[n_todo].data, keys[k].len) == 0))
            k++;
        if (k < n_todo) {
            same[n_same] = b;
            same_as[n_same++] = k;
            buf_clear(&keys[n_todo]);
            continue;
        }
        hashes[n_todo] = h;
        todo[n_todo++] = b;
    }
    run_queue q = {todo, n_todo, 0, &s->lim};
    int threads = s->opt.jobs > 0 ? s->opt.jobs : cores();
    if ((size_t)threads > n_todo)
        threads = (int)(n_todo ? n_todo : 1);
    pthread_t tids[64];
    int started = 0;
    for (int t = 1; t < threads && t < 64; t++)
        if (pthread_create(&tids[started], NULL, run_worker, &q) == 0)
            started++;
    run_worker(&q);
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    s->runs += n_todo;
    s->shared += n_same;
    for (size_t i = 0; i < n_same; i++) {
        const sboard *from = todo[same_as[i]];
        sboard *b = same[i];
        b->ran = true;
        b->run_failed = from->run_failed;
        memcpy(b->run_error, from->run_error, sizeof b->run_error);
        if (!from->run_failed)
            results_copy(&b->result, &from->result);
    }
    /* Report and store in a fixed order, whatever the threads did. */
    for (size_t i = 0, k = 0; i < n; i++) {
        sboard *b = runs[i];
        if (k < n_todo && todo[k] == b) {
            if (b->run_failed)
                diag_error(&s->d, b->board->path, b->board->traffic_pos.line,
                           b->board->traffic_pos.col, "%s", b->run_error);
            else if (s->opt.cache)
                cache_put(s->opt.cache, &keys[k], &b->result);
            k++;
        } else if (b->run_failed) { /* a repeat of a failed run fails the same way */
            diag_error(&s->d, b->board->path, b->board->traffic_pos.line, b->board->traffic_pos.col,
                       "%s", b->run_error);
        }
    }
    for (size_t i = 0; i < n; i++)
        buf_free(&keys[i]);
    free(keys);
    free(hashes);
    free(same);
    free(same_as);
    free(todo);
    free(runs);
}

/* expect: claims that disagree with the measurement; unwinnable levels. */
static void check_claims(site *s)
{
    for (size_t i = 0; i < s->n_boards; i++) {
        const sboard *b = s->boards[i];
        if (!b->board || !b->ran || b->run_failed || b->result.expect_ok)
            continue;
        const bp_board *bb = b->board;
        buf why;
        buf_init(&why);
        for (int m = 0; m < SIM_M_COUNT; m++) {
            if (!b->result.goals[m].present)
                continue;
            if (why.len)
                buf_puts(&why, ", ");
            buf_printf(&why, "%s ", sim_measure_name((sim_measure)m));
            fmt_measure(&why, (sim_measure)m, b->result.goals[m].worst);
            buf_printf(&why, " (%s)", b->result.goals[m].pass ? "pass" : "fail");
        }
        diag_error(&s->d, bb->path, bb->expect_pos.line, bb->expect_pos.col,
                   "the board claims 'expect: %s' but the simulator measured that it %s: %s",
                   bb->sim.expect == SIM_EXPECT_PASS ? "pass" : "fail",
                   b->result.all_goals_pass ? "meets every goal" : "misses a goal",
                   why.data ? why.data : "no goals");
        buf_free(&why);
    }
    for (size_t i = 0; i < s->n_levels; i++) {
        const slevel *sl = s->levels[i];
        if (!sl->loaded)
            continue;
        bool any = false, failed = false;
        for (size_t c = 0; c < sl->level->n_combos; c++) {
            failed |= sl->combos[c].run_failed != 0 || !sl->combos[c].ran;
            any |= sl->combos[c].result.all_goals_pass;
        }
        if (failed)
            continue;
        const bp_level *l = sl->level;
        if (!any)
            diag_error(&s->d, l->path, l->pos.line, l->pos.col,
                       "level '%s' cannot be won: none of its %zu combinations meets every goal",
                       l->id, l->n_combos);
        else if (sl->combos[sl->start].result.all_goals_pass)
            diag_error(&s->d, l->path, l->pos.line, l->pos.col,
                       "level '%s' is already won at the start: its starting choices meet every "
                       "goal",
                       l->id);
    }
}

/* ------------------------------------------------------------ drawing */

static void board_notes(const sboard *b, draw_note *notes, char texts[][64], size_t *n)
{
    *n = 0;
    const bp_board *bb = b->board;
    int handler = -1;
    for (size_t i = 0; i < bb->sim.n_parts; i++)
        if (bb->sim.parts[i].kind == SIM_KIND_CONSUMER || bb->sim.parts[i].kind == SIM_KIND_SERVICE)
            handler = (int)i;
    if (handler < 0)
        return;
    static const sim_measure shown[] = {SIM_M_DUPLICATES, SIM_M_CHARGED_TWICE, SIM_M_LOST_WRITES,
                                        SIM_M_ERRORS};
    static const char *const words[] = {"duplicates", "charged twice", "lost writes", "errors"};
    for (size_t k = 0; k < sizeof shown / sizeof shown[0]; k++) {
        sim_measure m = shown[k];
        if (!b->result.goals[m].present)
            continue;
        buf t;
        buf_init(&t);
        fmt_number(&t, b->result.m[m].mean);
        buf_printf(&t, " %s", words[k]);
        snprintf(texts[*n], 64, "%s", t.data);
        buf_free(&t);
        notes[*n].part = handler;
        notes[*n].text = texts[*n];
        notes[*n].tone = b->result.goals[m].pass ? DRAW_PASS : DRAW_FAIL;
        (*n)++;
    }
}

int site_draw_board(site *s, sboard *b, const char *path, int line, int col)
{
    pthread_mutex_lock(&draw_lock);
    if (!b->drawn) {
        b->drawn = true;
        draw_note notes[8];
        char texts[8][64];
        size_t n = 0;
        if (b->ran && !b->run_failed)
            board_notes(b, notes, texts, &n);
        buf svg, alt, key;
        buf_init(&svg);
        buf_init(&alt);
        buf_init(&key);
        char err[256];
        if (s->opt.cache)
            drawcache_key_board(&key, b->board, notes, n);
        if (s->opt.cache && drawcache_get(s->opt.cache, &key, &b->svg, &b->alt)) {
            /* drawn by an earlier build, from exactly these inputs */
        } else if (draw_board(b->board, notes, n, &svg, &alt, err, sizeof err) != 0) {
            diag_error(&s->d, path, line, col, "cannot draw board '%s': %s", b->board->id, err);
            b->draw_failed = true;
            buf_free(&svg);
            buf_free(&alt);
        } else {
            b->svg = buf_detach(&svg);
            b->alt = buf_detach(&alt);
            if (s->opt.cache)
                drawcache_put(s->opt.cache, &key, b->svg, b->alt);
        }
        buf_free(&key);
    }
    int rc = b->draw_failed ? -1 : 0;
    pthread_mutex_unlock(&draw_lock);
    return rc;
}

int site_draw_timeline(site *s, sboard *b, const char *path, int line, int col)
{
    pthread_mutex_lock(&draw_lock);
    if (!b->tl_drawn) {
        b->tl_drawn = true;
        buf svg, alt, key;
        buf_init(&svg);
        buf_init(&alt);
        buf_init(&key);
        char err[256];
        bool cached = false;
        if (s->opt.cache && !b->result.trace_truncated) {
            drawcache_key_timeline(&key, b->board, b->result.trace, b->result.n_trace);
            cached = drawcache_get(s->opt.cache, &key, &b->tl_svg, &b->tl_alt);
        }
        if (b->result.trace_truncated) {
            snprintf(err, sizeof err, "its trace is longer than the timeline can show");
            b->tl_failed = true;
        } else if (cached) {
            /* drawn by an earlier build, from exactly these inputs */
        } else if (draw_timeline(b->board, b->result.trace, b->result.n_trace, &svg, &alt, err,
                                 sizeof err) != 0) {
            b->tl_failed = true;
        }
        if (b->tl_failed) {
            diag_error(&s->d, path, line, col, "cannot draw the timeline of '%s': %s", b->board->id,
                       err);
            buf_free(&svg);
            buf_free(&alt);
        } else if (!cached) {
            b->tl_svg = buf_detach(&svg);
            b->tl_alt = buf_detach(&alt);
            if (s->opt.cache)
                drawcache_put(s->opt.cache, &key, b->tl_svg, b->tl_alt);
        }
        buf_free(&key);
    }
    int rc = b->tl_failed ? -1 : 0;
    pthread_mutex_unlock(&draw_lock);
    return rc;
}

/* Charts are drawn by expand.c when a page first shows one; a chart drawn by
 * an earlier build from the same points is put in place before, and the new
 * ones are stored after. Returns which came from the cache. */
static const sim_result **chart_points(const schart *sc)
{
    const sim_result **r = xcalloc(sc->n_points + 1, sizeof *r);
    for (size_t k = 0; k < sc->n_points; k++) {
        if (!sc->points[k].ran || sc->points[k].run_failed) {
            free(r);
            return NULL;
        }
        r[k] = &sc->points[k].result;
    }
    return r;
}

static bool *charts_from_cache(site *s)
{
    bool *cached = xcalloc(s->n_charts + 1, sizeof *cached);
    for (size_t i = 0; s->opt.cache && i < s->n_charts; i++) {
        schart *sc = s->charts[i];
        const sim_result **r = sc->chart && sc->points ? chart_points(sc) : NULL;
        if (!r)
            continue;
        buf key;
        buf_init(&key);
        drawcache_key_chart(&key, sc->chart, r, sc->n_points);
        if (drawcache_get(s->opt.cache, &key, &sc->svg, &sc->alt))
            cached[i] = sc->drawn = true;
        buf_free(&key);
        free(r);
    }
    return cached;
}

static void charts_to_cache(site *s, bool *cached)
{
    for (size_t i = 0; s->opt.cache && i < s->n_charts; i++) {
        schart *sc = s->charts[i];
        if (cached[i] || !sc->drawn || sc->draw_failed || !sc->svg || !sc->alt)
            continue;
        const sim_result **r = chart_points(sc);
        if (!r)
            continue;
        buf key;
        buf_init(&key);
        drawcache_key_chart(&key, sc->chart, r, sc->n_points);
        drawcache_put(s->opt.cache, &key, sc->svg, sc->alt);
        buf_free(&key);
        free(r);
    }
    free(cached);
}

/* ------------------------------------------------------------ page lookups */

sboard *site_page_board(const page_ctx *pc, const char *id)
{
    for (size_t i = 0; i < pc->page->n_boards; i++) {
        sboard *b = find_board_file(pc->s, pc->page->boards[i].path);
        if (b && b->board && strcmp(b->board->id, id) == 0)
            return b;
    }
    return NULL;
}

slevel *site_page_level(const page_ctx *pc, const char *id)
{
    for (size_t i = 0; i < pc->page->n_levels; i++)
        for (size_t k = 0; k < pc->s->n_levels; k++) {
            slevel *sl = pc->s->levels[k];
            if (sl->loaded && strcmp(sl->file, pc->page->levels[i].path) == 0 &&
                strcmp(sl->level->id, id) == 0)
                return sl;
        }
    return NULL;
}

schart *site_page_chart(const page_ctx *pc, const char *id)
{
    for (size_t i = 0; i < pc->page->n_charts; i++)
        for (size_t k = 0; k < pc->s->n_charts; k++) {
            schart *sc = pc->s->charts[k];
            if (sc->chart && sc->points && strcmp(sc->file, pc->page->charts[i].path) == 0 &&
                strcmp(sc->chart->id, id) == 0)
                return sc;
        }
    return NULL;
}

int site_page_file(page_ctx *pc, const char *name, const char *data)
{
    if (!strset_add(&pc->files, name))
        return 0;
    if (!pc->out)
        return 0;
    char *rel = pc->page->is_home ? xstrdup(name) : xasprintf("%s/%s", pc->page->slug, name);
    int rc = outdir_write(pc->out, rel, data, strlen(data), &pc->s->d);
    free(rel);
    return rc;
}

/* ------------------------------------------------------------ pages */

static int page_cmp(const void *a, const void *b)
{
    const bp_page *x = *(bp_page *const *)a, *y = *(bp_page *const *)b;
    if (x->is_home != y->is_home)
        return x->is_home ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return strcmp(x->slug, y->slug);
}

/* One page file of the content folder, read and its front matter parsed on
 * a worker thread; messages are kept per page and shown in name order. */
typedef struct {
    char *name;    /* file name */
    bool plain;    /* readdir says: a regular file, not a link */
    bp_page *page; /* NULL when it failed */
    char *text;    /* messages */
    int errors;
    bool io;
} page_file;

typedef struct {
    site *s;
    page_file *files;
    size_t n;
    const char *root; /* realpath of the content folder, or NULL */
    atomic_size_t next;
} discover_queue;

static void discover_one(const discover_queue *q, page_file *f)
{
    diag d;
    diag_init(&d, NULL);
    char *path = xasprintf("%s/%s", q->s->opt.content, f->name);
    char real[PATH_MAX];
    char *text = NULL;
    size_t len;
    /* A regular file listed in the folder is inside it; a link (or a file
     * system that does not say) is resolved and checked. */
    bool inside = q->root && (f->plain || (realpath(path, real) &&
                                           strncmp(real, q->root, strlen(q->root)) == 0 &&
                                           real[strlen(q->root)] == '/'));
    if (!inside) {
        diag_error(&d, path, 0, 0,
                   "leads outside the content folder (a symbolic link?); copy the file in");
    } else if (file_read(path, MD_MAX_BYTES + 64 * 1024, &text, &len) != 0) {
        d.io = errno != EFBIG;
        diag_error(&d, path, 0, 0, "cannot read the page: %s",
                   errno == EFBIG ? "larger than 320 KiB (a page body may be at most 256 KiB)"
                                  : strerror(errno));
    } else {
        f->name[strlen(f->name) - 3] = '\0';
        f->page = page_parse(path, text, len, f->name, &d);
    }
    free(text);
    free(path);
    f->errors = d.errors;
    f->io = d.io;
    f->text = diag_take(&d);
}

static void *discover_worker(void *arg)
{
    discover_queue *q = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&q->next, 1);
        if (i >= q->n)
            break;
        discover_one(q, &q->files[i]);
    }
    return NULL;
}

static int page_file_cmp(const void *a, const void *b)
{
    return strcmp(((const page_file *)a)->name, ((const page_file *)b)->name);
}

/* Run fn on --jobs threads (the caller's among them) over a queue. */
static void run_threads(site *s, size_t n_items, void *(*fn)(void *), void *q)
{
    int threads = s->opt.jobs > 0 ? s->opt.jobs : cores();
    if ((size_t)threads > n_items / 4 + 1) /* a few items are not worth a thread */
        threads = (int)(n_items / 4 + 1);
    pthread_t tids[64];
    int started = 0;
    for (int t = 1; t < threads && t < 64; t++)
        if (pthread_create(&tids[started], NULL, fn, q) == 0)
            started++;
    fn(q);
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
}

static void discover_pages(site *s)
{
    DIR *dh = opendir(s->opt.content);
    if (!dh) {
        s->d.io = errno != ENOENT;
        diag_error(&s->d, s->opt.content, 0, 0, "cannot open the content folder: %s",
                   strerror(errno));
        return;
    }
    page_file *files = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(dh))) {
        size_t l = strlen(e->d_name);
        if (e->d_name[0] == '.' || l < 4 || strcmp(e->d_name + l - 3, ".md") != 0)
            continue;
        files = xgrow(files, sizeof *files, &cap, n + 1);
        memset(&files[n], 0, sizeof files[n]);
        files[n].name = xstrdup(e->d_name);
        files[n].plain = e->d_type == DT_REG;
        n++;
    }
    closedir(dh);
    if (n)
        qsort(files, n, sizeof *files, page_file_cmp);
    if (n > SITE_MAX_PAGES)
        diag_error(&s->d, s->opt.content, 0, 0, "%zu pages; the limit is %d", n, SITE_MAX_PAGES);
    s->pages = xcalloc(n ? n : 1, sizeof *s->pages);
    char root[PATH_MAX];
    discover_queue q = {s, files, n < SITE_MAX_PAGES ? n : SITE_MAX_PAGES,
                        realpath(s->opt.content, root) ? root : NULL, 0};
    run_threads(s, q.n, discover_worker, &q);
    for (size_t i = 0; i < q.n; i++) {
        diag_add_text(&s->d, files[i].text, files[i].io);
        free(files[i].text);
        if (files[i].page)
            s->pages[s->n_pages++] = files[i].page;
    }
    for (size_t i = 0; i < n; i++)
        free(files[i].name);
    free(files);
    qsort(s->pages, s->n_pages, sizeof *s->pages, page_cmp);
    for (size_t i = 1; i < s->n_pages; i++) {
        if (strcmp(s->pages[i]->slug, s->pages[i - 1]->slug) != 0)
            continue;
        /* Point at a `slug:` line when one of the two set it. */
        const bp_page *p = s->pages[i], *o = s->pages[i - 1];
        if (!p->slug_pos.line && o->slug_pos.line) {
            p = s->pages[i - 1];
            o = s->pages[i];
        }
        diag_error(&s->d, p->path, p->slug_pos.line, p->slug_pos.col,
                   "slug '%s' is also used by %s", p->slug, o->path);
    }
}

/* The pages in navigation order (site.yaml nav first, then the rest). */
static size_t nav_order(site *s, bp_page **out)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n_pages; i++)
        s->pages[i]->nav_pos = SIZE_MAX;
    for (size_t k = 0; k < s->cfg.n_nav; k++)
        for (size_t i = 0; i < s->n_pages; i++) {
            bp_page *p = s->pages[i];
            if (!p->is_home && p->nav_pos == SIZE_MAX && strcmp(p->slug, s->cfg.nav[k]) == 0) {
                p->nav_pos = n;
                out[n++] = p;
            }
        }
    for (size_t i = 0; i < s->n_pages; i++) {
        bp_page *p = s->pages[i];
        if (!p->is_home && p->nav_pos == SIZE_MAX) {
            p->nav_pos = n;
            out[n++] = p;
        }
    }
    return n;
}

/* A slug site.yaml names (nav, about) must be a page's; else an error with
 * the nearest slug as a hint. */
static void check_slug_ref(site *s, const char *path, const char *what, const char *slug,
                           bp_pos pos)
{
    const char **slugs = xcalloc(s->n_pages + 1, sizeof *slugs);
    size_t n = 0;
    bool found = false;
    for (size_t i = 0; i < s->n_pages && !found; i++) {
        found = strcmp(s->pages[i]->slug, slug) == 0;
        if (s->pages[i]->slug[0])
            slugs[n++] = s->pages[i]->slug;
    }
    if (!found) {
        const char *near = diag_suggest(slug, slugs, n);
        if (near)
            diag_error(&s->d, path, pos.line, pos.col,
                       "%s names '%s', but no page has that slug; did you mean '%s'?", what, slug,
                       near);
        else
            diag_error(&s->d, path, pos.line, pos.col, "%s names '%s', but no page has that slug",
                       what, slug);
    }
    free(slugs);
}

static void check_nav(site *s)
{
    char *path = xasprintf("%s/site.yaml", s->opt.content);
    for (size_t k = 0; k < s->cfg.n_nav; k++)
        check_slug_ref(s, path, "nav", s->cfg.nav[k], s->cfg.nav_pos[k]);
    if (s->cfg.about)
        check_slug_ref(s, path, "about", s->cfg.about, s->cfg.about_pos);
    free(path);
}

static void common_vars(site *s, tmpl_scope *sc, const char *root)
{
    tmpl_set_text(sc, "site_title", s->cfg.title);
    tmpl_set_text(sc, "site_description", s->cfg.description ? s->cfg.description : "");
    tmpl_set_text(sc, "lang", s->cfg.language);
    tmpl_set_text(sc, "root", root);
    char *st = xasprintf("%sstatic/", root);
    tmpl_set_text(sc, "static", st);
    free(st);
    tmpl_set_text(sc, "home_url", root[0] ? root : "./");
    tmpl_set_text(sc, "build_date", s->date);
    tmpl_set_text(sc, "version", SIMCORE_VERSION);
}

static void measured_stamp(page_ctx *pc, buf *out)
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
        const sboard *b = find_board_file(s, p->boards[i].path);
        if (!b || !b->board)
            continue;
        buf_puts(out, shown ? "; " : ": ");
        buf_html_s(out, b->board->title);
        buf_printf(out, ", seed %llu, %d run%s", (unsigned long long)b->board->sim.seed,
                   b->board->sim.replications, b->board->sim.replications == 1 ? "" : "s");
        shown++;
    }
    for (size_t i = 0; i < p->n_levels; i++)
        for (size_t k = 0; k < s->n_levels; k++) {
            const slevel *sl = s->levels[k];
            if (!sl->loaded || strcmp(sl->file, p->levels[i].path) != 0)
                continue;
            const bp_board *b0 = sl->combos[0].board;
            buf_puts(out, shown ? "; " : ": ");
            buf_puts(out, "level ");
            buf_html_s(out, sl->level->title);
            buf_printf(out, ", %zu combinations, seed %llu, %d run%s each", sl->level->n_combos,
                       (unsigned long long)b0->sim.seed, b0->sim.replications,
                       b0->sim.replications == 1 ? "" : "s");
            shown++;
        }
    buf_puts(out, ".</p>\n");
}

static tmpl *template_for(site *s, tmpl ***cache, char ***names, size_t *n, const char *name,
                          const bp_page *p)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*names)[i], name) == 0)
            return (*cache)[i];
    char *file = xasprintf("%s/%s.html", s->opt.templates, name);
    tmpl *t = NULL;
    if (access(file, F_OK) != 0 && p) {
        diag_error(&s->d, p->path, p->template_pos.line, p->template_pos.col,
                   "template '%s' does not exist (%s)", name, file);
    } else {
        t = tmpl_load(s->opt.templates, name, &s->d);
    }
    free(file);
    *cache = xrealloc(*cache, (*n + 1) * sizeof **cache);
    *names = xrealloc(*names, (*n + 1) * sizeof **names);
    (*cache)[*n] = t;
    (*names)[*n] = xstrdup(name);
    (*n)++;
    return t;
}

/* The nav and pages lists of a page, made item by item while its template
 * renders (tmpl_list_lazy): a list of every page costs one item at a time. */
typedef struct {
    bp_page **order;
    size_t n_order;
    const bp_page *current;
    const char *root;
} page_lists;

static void fill_nav(void *ctx, size_t i, tmpl_scope *item)
{
    const page_lists *l = ctx;
    char *url = xasprintf("%s%s/", l->root, l->order[i]->slug);
    tmpl_set_text(item, "title", l->order[i]->title);
    tmpl_set_text(item, "url", url);
    tmpl_set_text(item, "current", l->order[i] == l->current ? "page" : "");
    free(url);
}

static void fill_pages(void *ctx, size_t i, tmpl_scope *item)
{
    const page_lists *l = ctx;
    char *url = xasprintf("%s/", l->order[i]->slug);
    tmpl_set_text(item, "title", l->order[i]->title);
    tmpl_set_text(item, "summary", l->order[i]->summary ? l->order[i]->summary : "");
    tmpl_set_text(item, "url", url);
    free(url);
}

/* nav, prev/next, and the pages list (only where with_pages: home pages);
 * l must outlive the rendering. */
static void nav_vars(tmpl_scope *sc, page_lists *l, bp_page **order, size_t n_order,
                     const bp_page *current, const char *root, bool with_pages)
{
    *l = (page_lists){order, n_order, current, root};
    tmpl_list_lazy(sc, "nav", n_order, fill_nav, l);
    tmpl_list_lazy(sc, "pages", with_pages ? n_order : 0, fill_pages, l);
    size_t at = current && current->nav_pos < n_order && order[current->nav_pos] == current
                    ? current->nav_pos
                    : n_order;
    const bp_page *prev = at < n_order && at > 0 ? order[at - 1] : NULL;
    const bp_page *next = at + 1 < n_order ? order[at + 1] : NULL;
    char *u;
    tmpl_set_text(sc, "prev_title", prev ? prev->title : "");
    u = prev ? xasprintf("%s%s/", root, prev->slug) : xstrdup("");
    tmpl_set_text(sc, "prev_url", u);
    free(u);
    tmpl_set_text(sc, "next_title", next ? next->title : "");
    u = next ? xasprintf("%s%s/", root, next->slug) : xstrdup("");
    tmpl_set_text(sc, "next_url", u);
    free(u);
}

static void render_page(site *s, outdir *out, bp_page *p, bp_page **order, size_t n_order, tmpl *t)
{
    page_ctx pc;
    memset(&pc, 0, sizeof pc);
    pc.s = s;
    pc.page = p;
    pc.out = out;
    buf_init(&pc.results);
    /* ids the template itself uses */
    strset_add(&pc.ids, "main");
    strset_add(&pc.ids, "model-note-title");

    char *text = NULL;
    size_t len = 0;
    if (file_read(p->path, MD_MAX_BYTES + 64 * 1024, &text, &len) != 0) {
        s->d.io = true;
        diag_error(&s->d, p->path, 0, 0, "cannot read the page again: %s", strerror(errno));
        goto out;
    }
    md_options mo = {p->path, p->body_line - 1, s->cfg.unsafe_html, expand_placeholder,
                     &pc,     &pc.ids};
    buf body;
    buf_init(&body);
    int before = s->d.errors;
    md_render(text + p->body_offset, len - p->body_offset, &mo, &body, &s->d);
    /* Pages without a placeholder for a listed board still publish its
     * results: results.json holds every measured result of the page. */
    for (size_t i = 0; i < p->n_boards; i++) {
        sboard *b = find_board_file(s, p->boards[i].path);
        if (b && b->board && b->ran && !b->run_failed)
            expand_results_board(&pc, b->board->id, b);
    }
    if (s->d.errors == before && t) {
        const char *root = p->is_home ? "" : "../";
        tmpl_scope *sc = tmpl_scope_new(NULL);
        common_vars(s, sc, root);
        tmpl_set_text(sc, "title", p->title);
        tmpl_set_text(sc, "summary", p->summary ? p->summary : "");
        tmpl_set_text(sc, "slug", p->slug);
        char *canonical = s->cfg.base_url[0]
                              ? xasprintf("%s%s%s", s->cfg.base_url, p->slug, p->is_home ? "" : "/")
                              : xstrdup("");
        tmpl_set_text(sc, "canonical", canonical);
        free(canonical);
        tmpl_set_html(sc, "content", body.data ? body.data : "");
        buf note;
        buf_init(&note);
        expand_model_note(&pc, &note);
        tmpl_set_html(sc, "model_note", note.data ? note.data : "");
        buf_clear(&note);
        measured_stamp(&pc, &note);
        tmpl_set_html(sc, "measured", note.data ? note.data : "");
        buf_free(&note);
        tmpl_set_text(sc, "interactive", pc.interactive ? "yes" : "");
        tmpl_set_text(sc, "results_url", pc.results.len ? "results.json" : "");
        page_lists lists;
        nav_vars(sc, &lists, order, n_order, p, root, p->is_home);
        buf html;
        buf_init(&html);
        if (tmpl_render(t, sc, &html, &s->d) == 0 && out) {
            char *rel = p->is_home ? xstrdup("index.html") : xasprintf("%s/index.html", p->slug);
            outdir_write(out, rel, html.data, html.len, &s->d);
            free(rel);
            if (pc.results.len) {
                buf js;
                buf_init(&js);
                buf_puts(&js, "{\"page\":\"");
                buf_json_str(&js, p->slug, strlen(p->slug));
                buf_printf(&js, "\",\"measured\":\"%s\",\"simulator\":\"%s\",\"results\":{\n",
                           s->date, SIMCORE_VERSION);
                buf_put(&js, pc.results.data, pc.results.len);
                buf_puts(&js, "\n}}\n");
                rel = p->is_home ? xstrdup("results.json") : xasprintf("%s/results.json", p->slug);
                outdir_write(out, rel, js.data, js.len, &s->d);
                free(rel);
                buf_free(&js);
            }
        }
        buf_free(&html);
        tmpl_scope_free(sc);
    }
    buf_free(&body);
out:
    free(text);
    buf_free(&pc.results);
    strset_free(&pc.files);
    strset_free(&pc.ids);
    strset_free(&pc.in_results);
}

/* ------------------------------------------------------------ parallel pages */

/* What rendering one page reported, shown in page order afterwards. */
typedef struct {
    char *text; /* its error messages (owned), or NULL */
    int errors;
    bool io;
} page_out;

typedef struct {
    site *s;
    outdir *out;
    bp_page **order;
    size_t n_order;
    tmpl **page_t;
    page_out *res;
    size_t *todo; /* page indices, in page order */
    size_t n_todo;
    atomic_size_t next;
} render_queue;

/* Render page i with its own error buffer and its own handle on the output
 * (the manifest lists its files at the page's place, whatever thread wrote
 * them first). */
static void render_one(render_queue *q, size_t i)
{
    site ws = *q->s; /* shared tables; only the diag is the page's own */
    diag_init(&ws.d, NULL);
    page_out *r = &q->res[i];
    if (r->text) { /* the template's messages come first */
        diag_add_text(&ws.d, r->text, r->io);
        free(r->text);
    }
    outdir *v = q->out ? outdir_view(q->out, i) : NULL;
    render_page(&ws, v, q->s->pages[i], q->order, q->n_order, q->page_t[i]);
    outdir_view_free(v);
    r->errors = ws.d.errors;
    r->io = ws.d.io;
    r->text = diag_take(&ws.d);
}

static void *render_worker(void *arg)
{
    render_queue *q = arg;
    for (;;) {
        size_t k = atomic_fetch_add(&q->next, 1);
        if (k >= q->n_todo)
            break;
        render_one(q, q->todo[k]);
    }
    md_release();
    return NULL;
}

/* Render every page: pages that show simulated boards first, one at a time
 * in page order (their drawings are cached on shared boards, and a drawing
 * error is reported by the first page that meets it), then the pages
 * without on --jobs threads. Memory stays per page in flight: bodies are
 * read, rendered and written one page at a time. */
static void render_all(site *s, outdir *out, bp_page **order, size_t n_order, tmpl **page_t,
                       page_out *res)
{
    md_init();
    render_queue q = {s, out, order, n_order, page_t, res, NULL, 0, 0};
    q.todo = xcalloc(s->n_pages + 1, sizeof *q.todo);
    for (size_t i = 0; i < s->n_pages; i++) {
        const bp_page *p = s->pages[i];
        if (p->n_boards || p->n_levels || p->n_charts)
            render_one(&q, i);
        else
            q.todo[q.n_todo++] = i;
    }
    run_threads(s, q.n_todo, render_worker, &q);
    free(q.todo);
}

/* The home page: index.md when there is one, else a list of pages. */
static void render_default_index(site *s, outdir *out, bp_page **order, size_t n_order, tmpl *t)
{
    tmpl_scope *sc = tmpl_scope_new(NULL);
    common_vars(s, sc, "");
    tmpl_set_text(sc, "title", s->cfg.title);
    tmpl_set_text(sc, "summary", s->cfg.description ? s->cfg.description : "");
    tmpl_set_text(sc, "slug", "");
    tmpl_set_text(sc, "canonical", s->cfg.base_url);
    tmpl_set_html(sc, "content", "");
    tmpl_set_html(sc, "model_note", "");
    tmpl_set_html(sc, "measured", "");
    tmpl_set_text(sc, "interactive", "");
    tmpl_set_text(sc, "results_url", "");
    page_lists lists;
    nav_vars(sc, &lists, order, n_order, NULL, "", true);
    buf html;
    buf_init(&html);
    if (tmpl_render(t, sc, &html, &s->d) == 0 && out)
        outdir_write(out, "index.html", html.data, html.len, &s->d);
    buf_free(&html);
    tmpl_scope_free(sc);
}

static void write_sitemap(site *s, outdir *out, bp_page **order, size_t n_order)
{
    if (!out || !s->cfg.base_url[0])
        return;
    buf x;
    buf_init(&x);
    buf_puts(&x, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>");
    buf_html_s(&x, s->cfg.base_url);
    buf_printf(&x, "</loc><lastmod>%s</lastmod></url>\n", s->date);
    for (size_t i = 0; i < n_order; i++) {
        buf_puts(&x, "<url><loc>");
        buf_html_s(&x, s->cfg.base_url);
        buf_html_s(&x, order[i]->slug);
        buf_printf(&x, "/</loc><lastmod>%s</lastmod></url>\n", s->date);
    }
    buf_puts(&x, "</urlset>\n");
    outdir_write(out, "sitemap.xml", x.data, x.len, &s->d);
    buf_free(&x);
}

static void build_date(site *s)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t t = time(NULL);
    if (sde && *sde) {
        char *end;
        long long v = strtoll(sde, &end, 10);
        if (*end == '\0' && v >= 0)
            t = (time_t)v;
        else
            diag_error(&s->d, NULL, 0, 0,
                       "SOURCE_DATE_EPOCH must be a number of seconds, found '%s'", sde);
    }
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(s->date, sizeof s->date, "%Y-%m-%d", &tm);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void free_sboard(sboard *b)
{
    free(b->file);
    board_free(b->board);
    if (b->ran)
        sim_result_free(&b->result);
    free(b->svg);
    free(b->alt);
    free(b->tl_svg);
    free(b->tl_alt);
}

static void free_site(site *s)
{
    for (size_t i = 0; i < s->n_pages; i++)
        page_free(s->pages[i]);
    free(s->pages);
    for (size_t i = 0; i < s->n_boards; i++) {
        free_sboard(s->boards[i]);
        free(s->boards[i]);
    }
    free(s->boards);
    for (size_t i = 0; i < s->n_levels; i++) {
        slevel *sl = s->levels[i];
        for (size_t c = 0; sl->combos && c < sl->level->n_combos; c++)
            free_sboard(&sl->combos[c]);
        free(sl->combos);
        level_free(sl->level);
        free(sl->file);
        free(sl);
    }
    free(s->levels);
    for (size_t i = 0; i < s->n_charts; i++) {
        schart *sc = s->charts[i];
        for (size_t k = 0; k < sc->n_points; k++)
            free_sboard(&sc->points[k]);
        free(sc->points);
        chart_free(sc->chart);
        free(sc->svg);
        free(sc->alt);
        free(sc->file);
        free(sc);
    }
    free(s->charts);
    catalog_free(s->cat);
    free_config(&s->cfg);
    diag_free(&s->d);
}

int site_build(const site_options *o)
{
    double t0 = now_s();
    site s;
    memset(&s, 0, sizeof s);
    s.opt = *o;
    diag_init(&s.d, stderr);
    s.lim = sim_limits_default();
    build_date(&s);
    /* before anything is read or cached: the folders must not overlap */
    const char *sources[3] = {o->content, o->templates, o->statics};
    outdir_options oo = {o->out, sources, 3, o->cache, o->journal ? o->journal : o->cache};
    outdir_check(&oo, o->write, &s.d);

    load_config(&s);
    char *cat_path = xasprintf("%s/catalog.yaml", o->content);
    s.cat = leads_outside(&s, cat_path) ? NULL : catalog_load(cat_path, &s.d);
    free(cat_path);
    discover_pages(&s);
    if (s.cat) {
        for (size_t i = 0; i < s.n_pages; i++) {
            bp_page *p = s.pages[i];
            for (size_t k = 0; k < p->n_boards; k++)
                load_board_ref(&s, p, &p->boards[k]);
            for (size_t k = 0; k < p->n_levels; k++)
                load_level_ref(&s, p, &p->levels[k]);
            for (size_t k = 0; k < p->n_charts; k++)
                load_chart_ref(&s, p, &p->charts[k]);
        }
    }
    check_nav(&s);
    if (s.d.errors == 0)
        simulate_all(&s);
    if (s.d.errors == 0)
        check_claims(&s);

    outdir *out = NULL;
    tmpl **tcache = NULL;
    char **tnames = NULL;
    size_t n_t = 0;
    bp_page **order = xcalloc(s.n_pages + 1, sizeof *order);
    size_t n_order = nav_order(&s, order);
    if (s.d.errors == 0 && o->write)
        out = outdir_begin(&oo, &s.d);
    if (s.d.errors == 0) {
        bool have_home = false;
        tmpl **page_t = xcalloc(s.n_pages + 1, sizeof *page_t);
        page_out *res = xcalloc(s.n_pages + 1, sizeof *res);
        for (size_t i = 0; i < s.n_pages; i++) {
            /* Templates load here, in page order; their errors are shown
             * where the sequential build showed them (before the page's). */
            bp_page *p = s.pages[i];
            have_home |= p->is_home;
            site ws = s;
            diag_init(&ws.d, NULL);
            page_t[i] = template_for(&ws, &tcache, &tnames, &n_t,
                                     p->is_home ? "index" : p->template_name, p);
            res[i].errors = ws.d.errors;
            res[i].io = ws.d.io;
            res[i].text = diag_take(&ws.d);
        }
        bool *chart_cached = charts_from_cache(&s);
        render_all(&s, out, order, n_order, page_t, res);
        charts_to_cache(&s, chart_cached);
        for (size_t i = 0; i < s.n_pages; i++) {
            diag_add_text(&s.d, res[i].text, res[i].io);
            free(res[i].text);
        }
        free(res);
        free(page_t);
        if (out)
            outdir_set_seq(out, s.n_pages);
        if (!have_home) {
            tmpl *t = template_for(&s, &tcache, &tnames, &n_t, "index", NULL);
            if (t)
                render_default_index(&s, out, order, n_order, t);
        }
        write_sitemap(&s, out, order, n_order);
        if (out)
            outdir_copy_tree(out, o->statics, "static", &s.d);
    }
    size_t written = 0, unchanged = 0;
    if (out) {
        outdir_counts(out, &written, &unchanged);
        if (s.d.errors == 0)
            outdir_commit(out, &s.d);
        else
            outdir_abort(out);
    }
    for (size_t i = 0; i < n_t; i++) {
        tmpl_free(tcache[i]);
        free(tnames[i]);
    }
    free(tcache);
    free(tnames);
    free(order);

    int status = diag_exit_status(&s.d);
    if (!o->quiet) {
        size_t n_boards = s.n_boards;
        double dt = now_s() - t0;
        if (status == 0) {
            fprintf(stderr,
                    "boardpress: %s %zu page%s, %zu board%s, %zu level%s, %zu run%s "
                    "(%zu simulated, %zu from the cache",
                    o->write ? "built" : "checked", s.n_pages, s.n_pages == 1 ? "" : "s", n_boards,
                    n_boards == 1 ? "" : "s", s.n_levels, s.n_levels == 1 ? "" : "s",
                    s.runs + s.cached + s.shared, s.runs + s.cached + s.shared == 1 ? "" : "s",
                    s.runs, s.cached);
            if (s.shared)
                fprintf(stderr, ", %zu the same as another", s.shared);
            fputc(')', stderr);
        } else
            fprintf(stderr, "boardpress: %d error%s; %s", s.d.errors, s.d.errors == 1 ? "" : "s",
                    o->write ? "nothing written, the previous site is unchanged" : "check failed");
        if (status == 0 && o->write)
            fprintf(stderr, ", %zu files written, %zu unchanged", written, unchanged);
        fprintf(stderr, ", %.2f s\n", dt);
    }
    free_site(&s);
    return status;
}
