/* render_internal.h — what the files of the page renderer share: the state
 * of one page while its placeholders expand (pages.c makes it), the
 * placeholder's words and position, and what the files give each other:
 * pages.c -> expand.c (the placeholder entry) -> compare.c, levels.c (the
 * larger directives) -> directive.c (what every directive uses), notes.c
 * (the page's model note, measured line and results.json). */
#ifndef BP_RENDER_INTERNAL_H
#define BP_RENDER_INTERNAL_H

#include "model/site.h"
#include "render/render.h"

#include <stdbool.h>
#include <stddef.h>

/* Per-page state while expanding placeholders. */
typedef struct {
    site *s; /* the site, with the page's own diag (pages.c: render_one) */
    const bp_page *page;
    const render_sink *sink; /* NULL when checking */
    void *out;               /* the sink's handle for this page's files */
    strset files;            /* page files written so far */
    strset ids;              /* element ids used so far */
    bool interactive;        /* the page needs the script */
    bool live;               /* it shows a live level: it needs the simulator too */
    buf results;             /* results.json body parts */
    strset in_results;       /* what results.json already holds */
    /* which of the page's listed boards, levels and charts it shows */
    bool *shows_board, *shows_level, *shows_chart;
} page_ctx;

/* One word of a placeholder, and where the placeholder is. */
typedef struct {
    const char *s;
    size_t len;
    size_t off; /* from the start of the text inside the braces */
} word;

typedef struct {
    page_ctx *pc;
    int line, col; /* of "{{" */
} ph_at;

/* ------------------------------------------------------------ expand.c */

/* The md_expand_fn for pages: one {{ ... }} into HTML. */
int expand_placeholder(void *ctx, const char *inner, size_t len, int line, int col, bool alone,
                       buf *out, bool *block);

/* ------------------------------------------------------------ directive.c */

/* The word as a string (caller frees). */
char *expand_word_str(const word *w);
/* Report msg at the word; returns -1. */
int expand_err_word(const ph_at *a, const word *w, const char *msg);
/* Report an id (name) that is none of the page's boards, levels or charts
 * (what: "board", "level", "chart"), with the nearest as a hint; returns -1. */
int expand_err_unlisted(const ph_at *a, const word *w, const char *name, const char *what);
/* Append base, or base-2, base-3... whichever id the page has not used. */
void expand_unique_id(page_ctx *pc, buf *out, const char *base);
/* Width and height from an SVG's root element, for <img> sizes. */
void expand_svg_size(const char *svg, int *w, int *h);
/* An <img> of a drawing written into the page folder as file. */
void expand_img(buf *out, const char *file, const char *svg, const char *alt, const char *cls);
/* The board's figure, its SVG written into the page folder as
 * file_stem.svg. Returns 0 or -1 (reported). */
int expand_board_figure(page_ctx *pc, sboard *b, const ph_at *a, const char *file_stem, buf *out);
/* The goal as words: "none", "under 40 s", "at least 99%". */
void expand_goal_text(buf *b, sim_measure m, const sim_goal *g);

/* The board, level or chart with this id among the page's (NULL when not
 * listed); what is found counts as shown on the page. */
sboard *expand_page_board(page_ctx *pc, const char *id);
slevel *expand_page_level(page_ctx *pc, const char *id);
schart *expand_page_chart(page_ctx *pc, const char *id);
/* Write a file into the page's folder, once per page. Returns 0 or -1. */
int expand_page_file(page_ctx *pc, const char *name, const char *data);

/* ------------------------------------------------------------ the other directives */

/* {{ compare A B ... }}, {{ key-numbers }} (compare.c) and {{ level ID }}
 * (levels.c): w[0..n) are the placeholder's words. Return 0, or -1 after
 * reporting. */
int expand_compare(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);
int expand_key_numbers(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);
int expand_level(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);
/* A level's goals table rows (json: the entries of its page data
 * instead), each goal's measured mean and verdict; live marks them for the
 * page script (data-measure, data-goal). And its status line, "Level
 * complete" or how many goals it misses (levels.c). */
void expand_level_goal_rows(buf *out, const sboard *b, const bp_level *l, bool json, bool live);
void expand_level_status(buf *out, const sboard *b);
/* {{ level ID }} for a live level (live.c): sliders, the diagrams inline
 * for the script to rewrite, the wire bytes. */
int expand_live_level(page_ctx *pc, const ph_at *a, slevel *sl, buf *out);

/* ------------------------------------------------------------ numbers.c */

/* A fault count as a rate with its exact interval: "0 in 10,000 jobs (at
 * most 3 per 10,000 at 95 %)". */
void numbers_rate(buf *out, const sim_rate *rt);
/* 0 with the board's rate of m in *rt when that rate is what to quote
 * (sim_rate.preferred), else -1. */
int numbers_preferred_rate(const sboard *b, sim_measure m, sim_rate *rt);
/* The mean with its 95% interval in the mean's unit: "243.1 ± 9.1", or for
 * a rare count the exact interval "0 (at most 0.15 at 95 %)". */
void numbers_ci(buf *out, const sboard *b, sim_measure m);
/* A paired difference: "+104.7 ± 4.4", "−1 in every run". */
void numbers_diff(buf *out, sim_measure m, const sim_stat *d);
/* The paired differences b − a over the same runs. Returns 0, or -1 with a
 * sentence in why when the two did not run on the same streams. */
int numbers_pair(const sboard *a, const sboard *b, sim_stat diff[SIM_M_COUNT], char *why,
                 size_t n);
/* " (the slowest of 20 jobs)" after a p99 taken from fewer than 100 jobs. */
void numbers_p99_note(buf *out, const sboard *b, sim_measure m);

/* ------------------------------------------------------------ notes.c */

/* The generated "what this model includes and leaves out" note (HTML). */
void expand_model_note(page_ctx *pc, buf *out);
/* The line saying when the page's numbers were measured, with each board's
 * seed and runs (HTML; nothing for a page without boards). */
void expand_measured_stamp(page_ctx *pc, buf *out);
/* Append a board's results object to the page's results.json (once). */
void expand_results_board(page_ctx *pc, const char *key, const sboard *b);
/* Write the page's results.json, when it has results. Returns 0 or -1. */
int expand_results_file(page_ctx *pc);

#endif
