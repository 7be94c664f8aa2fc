/* level.h — levels (SPEC §6) and charts: variants of one board. A level
 * offers choices, each overriding one board setting; every combination is
 * simulated at build time. A chart sweeps one setting along an x axis, one
 * line per value of another. */
#ifndef BP_LEVEL_H
#define BP_LEVEL_H

#include "load/board.h"
#include "base/diag.h"

#include <stdbool.h>
#include <stddef.h>

#define LEVEL_MAX_COMBOS 256
#define LEVEL_MAX_COUNTS 6
#define CHART_MAX_POINTS 256

typedef struct {
    char *label; /* shown to the reader: "On" */
    char *value; /* YAML text written into the board: "key-in-transaction" */
    bp_pos pos;
} bp_option;

typedef struct {
    char *label; /* "ID check" */
    char *set;   /* board path: "parts.processor.idempotency" */
    bp_option *options;
    size_t n_options;
    int start; /* option index the level starts with */
    bp_pos pos, set_pos;
} bp_choice;

typedef struct {
    char *path; /* file as opened */
    char *id;
    char *title;
    char *board;   /* content-relative board file */
    bool toggle;   /* style: toggle — one two-way choice shown as an on/off switch */
    bool timeline; /* draw a timeline for every combination */
    sim_measure counts[LEVEL_MAX_COUNTS]; /* the counts line */
    size_t n_counts;
    bool has_goals; /* goals given here replace the board's */
    sim_goal goals[SIM_M_COUNT];
    bp_pos goal_pos[SIM_M_COUNT];
    bp_choice *choices;
    size_t n_choices;
    size_t n_combos;
    bp_pos pos, board_pos;
} bp_level;

/* Read a level file. Returns NULL after reporting every problem. */
bp_level *level_load(const char *path, diag *d);
/* The same from text (len bytes) already read; path is for messages. */
bp_level *level_parse(const char *path, const char *text, size_t len, diag *d);
void level_free(bp_level *l);
/* Option index of each choice in combination c (first choice varies slowest). */
void level_combo(const bp_level *l, size_t c, int *options);
/* The combination the level starts with. */
size_t level_start(const bp_level *l);

typedef struct {
    char *path;
    char *id;
    char *title;
    char *board;
    sim_measure measure; /* y axis */
    char *x_label;
    char *x_set;
    char **x_values;     /* YAML text per point */
    double *x;           /* numeric x per point */
    bp_pos *x_value_pos; /* where each x value is written */
    bool x_percent;
    bool x_seconds; /* x values are durations */
    size_t n_x;
    char *series_set; /* NULL: one line, the board as it is */
    bp_option *series;
    size_t n_series;
    bp_pos pos, board_pos, x_pos, series_pos;
    bp_pos x_set_pos, series_set_pos; /* of the `set:` paths */
} bp_chart;

bp_chart *chart_load(const char *path, diag *d);
bp_chart *chart_parse(const char *path, const char *text, size_t len, diag *d);
void chart_free(bp_chart *c);

#endif
