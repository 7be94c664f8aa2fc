/* site_internal.h — what site.c (loading, simulating, writing) shares with
 * expand.c (placeholders and directives into HTML). */
#ifndef BP_SITE_INTERNAL_H
#define BP_SITE_INTERNAL_H

#include "load/board.h"
#include "base/diag.h"
#include "load/level.h"
#include "write/output.h"
#include "load/page.h"
#include "build.h"
#include "render/tmpl.h"
#include "base/util.h"

#define TIMELINE_MAX_JOBS 30 /* boards with more jobs get no trace or timeline */

typedef struct {
    char *title;
    char *description;
    char *base_url; /* "" when not set; ends with '/' */
    char *language;
    char *about; /* slug of the page the model notes link to, or NULL */
    bool unsafe_html;
    char **nav; /* slugs in navigation order (NULL: by order, slug) */
    size_t n_nav;
    bp_pos *nav_pos; /* where site.yaml lists each nav slug */
    bp_pos about_pos;
} site_config;

/* One board variant to simulate and draw: a board file as it is, one
 * combination of a level, or one point of a chart. */
typedef struct {
    char *file;      /* content-relative file ("boards/mini.yaml") */
    bp_board *board; /* NULL when it did not load */
    bool want_trace;
    bool ran;
    int run_failed;
    char run_error[256];
    sim_result result;
    /* drawings, made on first use */
    bool drawn, draw_failed;
    char *svg, *alt;
    bool tl_drawn, tl_failed;
    char *tl_svg, *tl_alt;
} sboard;

typedef struct {
    char *file; /* content-relative */
    bp_level *level;
    sboard *combos; /* n_combos */
    size_t start;
    bool loaded;
} slevel;

typedef struct {
    char *file; /* content-relative */
    bp_chart *chart;
    sboard *points; /* series-major: [s * n_x + x] */
    size_t n_points;
    bool drawn, draw_failed;
    char *svg, *alt;
} schart;

/* A board file's parsed YAML, kept while pages, levels and charts load. */
typedef struct {
    char *real;  /* resolved path: one entry per file, however it is spelt */
    ynode *tree; /* NULL when it did not read or parse (reported once) */
} yfile;

typedef struct {
    site_options opt;
    diag d;
    site_config cfg;
    bp_catalog *cat;
    sim_limits lim;
    bp_page **pages; /* sorted by order, then slug */
    size_t n_pages;
    size_t failed_pages; /* page files that did not load (reported) */
    bool no_content;     /* the content folder is missing (reported) */
    size_t n_nav_items;  /* pages the nav lists: the first of the nav order */
    sboard **boards;     /* board files, in first-use order */
    size_t n_boards;
    slevel **levels;
    size_t n_levels;
    schart **charts;
    size_t n_charts;
    yfile *yfiles;
    size_t n_yfiles, cap_yfiles;
    char date[32]; /* build date, YYYY-MM-DD */
    size_t runs;   /* simulations done */
    size_t cached; /* results taken from the cache */
    size_t shared; /* variants identical to another, simulated once */
} site;

/* Per-page state while expanding placeholders. */
typedef struct {
    site *s;
    const bp_page *page;
    outdir *out;       /* NULL when checking */
    strset files;      /* page files written so far */
    strset ids;        /* element ids used so far */
    bool interactive;  /* the page needs the script */
    buf results;       /* results.json body parts */
    strset in_results; /* what results.json already holds */
    /* which of the page's listed boards, levels and charts it shows */
    bool *shows_board, *shows_level, *shows_chart;
} page_ctx;

/* Check the source folders before anything is read (sources.c): each is a
 * folder, and static/ holds only files and folders without a link that
 * loops. Returns false after reporting; s->no_content says whether the
 * content folder is there to read at all. */
bool site_check_sources(site *s);

/* Simulate every board variant of the site once (simulate.c): the work is
 * bounded before anything runs and while it runs; failures are reported. */
void site_simulate(site *s);
/* A variant's share of a build's budget of events: budget × bound ÷ total
 * (total: the sum of every variant's bound), at most max_each. The shares
 * of all variants sum to at most budget, and when total fits the budget no
 * share is below its bound. */
int64_t site_event_share(int64_t bound, int64_t total, int64_t budget, int64_t max_each);
/* Run fn(q) on --jobs threads (the caller's among them), at most
 * max_threads of them, and wait for all. */
void site_run_threads(const site *s, size_t max_threads, void *(*fn)(void *), void *q);

/* Lookups by id among what the page lists (NULL when not listed); what is
 * found counts as shown on the page. */
sboard *site_page_board(page_ctx *pc, const char *id);
slevel *site_page_level(page_ctx *pc, const char *id);
schart *site_page_chart(page_ctx *pc, const char *id);

/* Draw a board (or its timeline) once; returns 0 or -1 (reported at
 * path:line:col). */
int site_draw_board(site *s, sboard *b, const char *path, int line, int col);
int site_draw_timeline(site *s, sboard *b, const char *path, int line, int col);

/* Write a file into the page's folder once per page. */
int site_page_file(page_ctx *pc, const char *name, const char *data);

/* The md_expand_fn for pages (expand.c). */
int expand_placeholder(void *ctx, const char *inner, size_t len, int line, int col, bool alone,
                       buf *out, bool *block);

/* Human words for a measure: "Duplicates", "Completion time". */
const char *expand_measure_label(sim_measure m);
/* The goal as words: "none", "under 40 s", "at least 99%". */
void expand_goal_text(buf *b, sim_measure m, const sim_goal *g);
/* The generated "what this model includes and leaves out" note (HTML). */
void expand_model_note(page_ctx *pc, buf *out);
/* Append a board's results object to the page's results.json (once). */
void expand_results_board(page_ctx *pc, const char *key, const sboard *b);

#endif
