/* board.h — boards and the catalog as the generator sees them: the
 * simulator's structs (simcore.h) plus names, labels and source positions.
 * Loaded from YAML by board.c / catalog.c; drawn by draw.c. */
#ifndef BP_BOARD_H
#define BP_BOARD_H

#include "diag.h"
#include "simcore.h"
#include "ydoc.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A 1-based position in a source file; 0:0 when unknown. */
typedef struct {
    int line, col;
} bp_pos;

typedef struct {
    char *id;    /* [a-z0-9-]+, unique in the board */
    char *label; /* shown in diagrams; defaults to the kind's catalog label */
    bool has_at; /* `at: [col, row]` pins the part in the diagram grid */
    int at_col, at_row;
    bp_pos pos; /* of the part's mapping in the board file */
} bp_part_info;

typedef struct {
    char *label; /* protocol label from the catalog: "AMQP", "HTTP/2" */
    bp_pos pos;
} bp_link_info;

/* Which fields a board set itself (the rest came from the catalog). */
typedef struct {
    uint64_t bits; /* bit i: catalog field index i (catalog_field_index) */
} bp_fieldset;

typedef struct bp_board {
    char *path; /* the file it came from (as given) */
    char *id;
    char *title;
    sim_board sim;          /* ready to run; sim.parts/links owned here */
    bp_part_info *parts;    /* parallel to sim.parts */
    bp_fieldset *part_set;  /* parallel to sim.parts: fields the board gave */
    bp_link_info *links;    /* parallel to sim.links */
    bp_fieldset *link_set;  /* parallel to sim.links */
    int64_t *lose_reply_of; /* storage behind the links' lose_reply_of */
    bp_pos pos;             /* of the document */
    bp_pos goal_pos[SIM_M_COUNT];
    bp_pos expect_pos;
    bp_pos traffic_pos;
    bp_pos until_pos; /* of replications: {until}, when the board has it */
} bp_board;

/* A catalog value by name, for {{ catalog.SECTION.FIELD }} and key-numbers. */
typedef struct {
    char *section; /* "payment-provider", "amqp", "price", "retention" */
    char *field;   /* "call_median" */
    char *text;    /* formatted for a page: "150 ms", "5 tries", "1 RTT" */
    char *label;   /* for the key-numbers table: "Payment provider call, median" */
    double value;  /* the number (seconds for durations, INFINITY for "forever") */
    bp_pos pos;
} bp_catalog_value;

typedef struct bp_catalog {
    char *path;
    sim_part kinds[SIM_KIND_COUNT];      /* defaults per part kind */
    char *kind_label[SIM_KIND_COUNT];    /* "Payment provider" */
    sim_link protocols[SIM_PROTO_COUNT]; /* defaults per protocol (from/to unused) */
    char *protocol_label[SIM_PROTO_COUNT];
    sim_prices prices;
    sim_traffic traffic;      /* defaults for op, arrivals, repeat_share */
    bp_catalog_value *values; /* every value, in file order */
    size_t n_values;
} bp_catalog;

/* Jobs times replications: the work one board may ask the simulator for
 * (about 15 s at 9 million events a second on one core). */
#define BOARD_MAX_JOB_RUNS 20000000

/* ------------------------------------------------------------ loading */

/* Read and check a catalog file. Returns NULL after reporting every problem
 * (missing file: one error). Free with catalog_free. */
bp_catalog *catalog_load(const char *path, diag *d);
bp_catalog *catalog_parse(const char *path, const char *text, size_t len, diag *d);
void catalog_free(bp_catalog *c);
/* A catalog value by section and field, or NULL. */
const bp_catalog_value *catalog_find(const bp_catalog *c, const char *section, const char *field);

/* Build a board from a parsed YAML tree (see ydoc.h) against a catalog;
 * every problem of the file is reported. Returns NULL on error. */
bp_board *board_from_tree(const char *path, const ynode *root, const bp_catalog *cat,
                          const sim_limits *lim, diag *d);
/* Read, parse and build a board file. */
bp_board *board_load(const char *path, const bp_catalog *cat, const sim_limits *lim, diag *d);
void board_free(bp_board *b);
/* The most replications the board may run: with replications: {until}, its
 * max, else its number. */
int board_max_replications(const bp_board *b);
/* Index of the part with this id, or -1. */
int board_part_index(const bp_board *b, const char *id);

/* Read a goals mapping ({measure: {max: V, min: V}}) into goals and pos
 * (arrays of SIM_M_COUNT). */
void board_read_goals(const char *path, const ynode *gn, sim_goal *goals, bp_pos *pos, diag *d);

/* Override one setting in a board's YAML tree before it is built:
 * expr is "parts.ID.FIELD", "links.FROM.TO.FIELD", "traffic.FIELD", "seed"
 * or "replications"; value is YAML text. src/line/col say where the
 * override was written (a level file, or "--set"), for messages. */
int board_override(const char *board_path, ynode *root, const char *expr, const char *value,
                   const char *src, int line, int col, diag *d);
/* The same, with problems of the path (no such part) reported at path_pos
 * and problems of the value (unknown policy) at value_pos. */
int board_override_at(const char *board_path, ynode *root, const char *expr, const char *value,
                      const char *src, bp_pos path_pos, bp_pos value_pos, diag *d);

#endif
