/* board.h — boards and the catalog as the generator sees them: the
 * simulator's structs (simcore.h) plus names, labels and source positions.
 * Loaded from YAML by board.c / catalog.c; drawn by draw.c. */
#ifndef BP_BOARD_H
#define BP_BOARD_H

#include "diag.h"
#include "simcore.h"

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
    bp_pos pos;  /* of the part's mapping in the board file */
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
    char *path;  /* the file it came from (as given) */
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
} bp_board;

/* A catalog value by name, for {{ catalog.SECTION.FIELD }} and key-numbers. */
typedef struct {
    char *section; /* "payment-provider", "amqp", "price", "retention" */
    char *field;   /* "call_median" */
    char *text;    /* formatted for a page: "150 ms", "5 tries", "1 RTT" */
    char *label;   /* for the key-numbers table: "Payment provider call, median" */
    bp_pos pos;
} bp_catalog_value;

typedef struct bp_catalog {
    char *path;
    sim_part kinds[SIM_KIND_COUNT];      /* defaults per part kind */
    char *kind_label[SIM_KIND_COUNT];    /* "Payment provider" */
    sim_link protocols[SIM_PROTO_COUNT]; /* defaults per protocol (from/to unused) */
    char *protocol_label[SIM_PROTO_COUNT];
    sim_prices prices;
    bp_catalog_value *values; /* every value, in file order */
    size_t n_values;
} bp_catalog;

#endif
