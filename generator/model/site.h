/* model/site.h — the site as every stage of a build sees it: the options,
 * site.yaml, the catalog, the pages with their front matter, the boards,
 * levels and charts they list, each board variant's simulated result and
 * its drawings. load/ fills it, run/ adds the results, draw/ the drawings,
 * render/ reads it; the orchestrator (build.c) owns it. Nothing here reads
 * a file: the loaders that make these structs are in load/. */
#ifndef BP_MODEL_SITE_H
#define BP_MODEL_SITE_H

#include "base/diag.h"
#include "base/util.h"
#include "proof.h"
#include "simcore.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* boardpress's own version: --version and the {{ version }} of templates
 * (the simulator's is SIMCORE_VERSION, named as such where it is shown). */
#define BOARDPRESS_VERSION "0.1.0"

/* A 1-based position in a source file; 0:0 when unknown. */
typedef struct {
    int line, col;
} bp_pos;

/* ------------------------------------------------------------ boards and the catalog */

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

/* A board as the generator sees it: the simulator's struct (simcore.h) plus
 * names, labels and source positions (load/board.c makes it). */
/* A board's claim proved over every run of a few jobs (expect: {never:
 * duplicates, jobs: 3, faults: 2}; sim-core/proof.h), rather than measured. */
typedef struct {
    bool present;
    bool sometimes; /* some run has the measure above 0; else never */
    sim_measure measure;
    int jobs, faults;
} bp_claim;

typedef struct bp_board {
    char *path; /* the file it came from (as given) */
    char *id;
    char *title;
    char *short_name;       /* short: a few words for a compare's switcher and phone table;
                               NULL: the title */
    char *noun, *nouns;     /* traffic.noun and its plural: what one unit of traffic is to a
                               reader ("transfer"); NULL: from the operation */
    char *verb;             /* traffic.verb: what a handler's effect does to one unit, past
                               tense ("saved"); NULL: from the operation */
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
    bp_claim claim;   /* expect: {never|sometimes: MEASURE, ...}; sim.expect is then none */
    bp_pos until_pos; /* of replications: {until}, when the board has it */
} bp_board;

/* Where a catalog value comes from (the catalog's `sources:` maps): a
 * product's documentation, a measurement, a value chosen for the example,
 * or, beside one of these, a real system's value to compare it with. */
typedef enum {
    BP_SOURCE_EXAMPLE,
    BP_SOURCE_DOCS,
    BP_SOURCE_MEASURED,
    BP_SOURCE_COMPARE
} bp_source_kind;

/* One source of a catalog value. */
typedef struct {
    bp_source_kind kind;
    char *text;       /* which documentation, measurement or system, or why it was
                         chosen; NULL for a bare "example" */
    char *url;        /* the page's address, or NULL */
    char checked[11]; /* the day someone checked it, YYYY-MM-DD, or "" */
} bp_source;

/* A catalog value by name, for {{ catalog.SECTION.FIELD }} and key-numbers. */
typedef struct {
    char *section;         /* "payment-provider", "amqp", "price", "retention" */
    char *field;           /* "call_median" */
    char *text;            /* formatted for a page: "150 ms", "5 tries", "1 RTT" */
    char *label;           /* for the key-numbers table: "Payment provider call, median" */
    double value;          /* the number (seconds for durations, INFINITY for "forever") */
    bp_source_kind source; /* where the value itself comes from: its first source
                              that is not a comparison (none: an example) */
    bp_source *sources;    /* in the catalog's order */
    size_t n_sources;
    bp_pos pos;
} bp_catalog_value;

/* Every default the simulator uses (load/catalog.c makes it). */
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

void board_free(bp_board *b);
/* Index of the part with this id, or -1. */
int board_part_index(const bp_board *b, const char *id);

/* What one unit of the board's traffic is called on a page: traffic.noun,
 * else "payment" for op: charge and "update" for op: set; plural adds an s
 * ("payments"). Never the simulator's "job". */
const char *board_noun(const bp_board *b, bool plural);
/* What a handler's effect does to one unit of b's traffic, in the past
 * tense: traffic.verb, else "charged" (op: charge) or "written" (op: set). */
const char *board_verb(const bp_board *b);
void catalog_free(bp_catalog *c);
/* A catalog value by section and field, or NULL. */
const bp_catalog_value *catalog_find(const bp_catalog *c, const char *section, const char *field);

/* ------------------------------------------------------------ levels and charts */

/* A level (content/levels/) offers choices, each overriding one board setting;
 * every combination is simulated at build time. A chart sweeps one setting
 * along an x axis, one line per value of another (load/level.c makes both). */
#define LEVEL_MAX_COMBOS 256
#define LEVEL_MAX_COUNTS 6
/* A live level (a range choice, or style: sandbox) re-simulates in the
 * reader's browser. A range offers at most LEVEL_MAX_STEPS values; a live
 * level with goals is checked at build time on every combination of its
 * values, at most LEVEL_MAX_GRID; a live level draws one diagram per
 * combination of its option lists (ranges at their start), at most
 * LEVEL_MAX_DRAWN. */
#define LEVEL_MAX_STEPS 201
#define LEVEL_MAX_GRID 1024
#define LEVEL_MAX_DRAWN 16
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
    int start;  /* option index the level starts with; -1: a range at the board's own value
                   (found by load/live.c) */
    bool range; /* a slider: options are the range's values from min to max, each labelled
                   as the page shows it ("20%", "5 tries") and valued as --set takes it */
    bp_pos pos, set_pos;
    bp_pos range_pos; /* of the range mapping */
    bool has_sweep;    /* sweep: MEASURE — a chart of it over the range, beside the slider */
    sim_measure sweep;
    bp_pos sweep_pos;
} bp_choice;

typedef struct {
    char *path; /* file as opened */
    char *id;
    char *title;
    char *board;   /* content-relative board file */
    bool toggle;   /* style: toggle — one two-way choice shown as an on/off switch */
    bool live;     /* re-simulated in the reader's browser (a range choice, or a sandbox) */
    bool sandbox;  /* style: sandbox — free play: no goals (not even the board's), no claim */
    bool timeline; /* draw a timeline for every combination */
    sim_measure counts[LEVEL_MAX_COUNTS]; /* the counts line */
    bp_pos count_pos[LEVEL_MAX_COUNTS];
    size_t n_counts;
    bool has_goals; /* goals given here replace the board's */
    sim_goal goals[SIM_M_COUNT];
    bp_pos goal_pos[SIM_M_COUNT];
    bp_choice *choices;
    size_t n_choices;
    size_t n_combos; /* every combination of the choices' options; 0 for a sandbox, whose
                        combinations are not simulated at build time */
    bp_pos pos, board_pos;
} bp_level;

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
    char *y_label;            /* the showing pages' word for the measure (labels:), or NULL */
    const char *y_label_from; /* the first page that shows the chart (its path) */
} bp_chart;

void level_free(bp_level *l);
/* Option index of each choice in combination c (first choice varies slowest). */
void level_combo(const bp_level *l, size_t c, int *options);
/* The combination the level starts with (not for a sandbox). */
size_t level_start(const bp_level *l);
void chart_free(bp_chart *c);

/* ------------------------------------------------------------ pages */

typedef struct {
    char *path; /* content-relative path, as listed: "boards/mini.yaml" */
    bp_pos pos; /* where the page lists it */
} bp_ref;

/* A page's own word for a measure (`labels: {errors: dead-lettered}`). */
typedef struct {
    sim_measure measure;
    char *text;
    bp_pos pos; /* of the label */
} bp_label;

/* A content page: its front matter (load/page.c reads it) and its
 * Markdown body as the loader read it, which the draw stage's scan and the
 * renderer both read (the file is opened once a build, so the two cannot
 * see different text); the renderer drops the body once the page is
 * rendered. */
typedef struct {
    char *path;      /* file path as opened */
    char *slug;      /* output folder name; "" for the home page (index.md) */
    bp_pos slug_pos; /* of the `slug:` value; 0:0 when the slug is the file name */
    char *title;
    char *summary;    /* may be NULL */
    int order;        /* sort key for the index and prev/next; ties by slug */
    char date[11];    /* front matter `date`, YYYY-MM-DD, or "" */
    char updated[11]; /* front matter `updated`, YYYY-MM-DD, or "" */
    char *template_name;
    bp_pos template_pos; /* of the `template:` value; 0:0 for the default */
    bp_ref *boards;
    size_t n_boards;
    bp_ref *levels;
    size_t n_levels;
    bp_ref *charts;
    size_t n_charts;
    bp_label *labels; /* front matter `labels:`, the page's own words for measures */
    size_t n_labels;
    size_t body_offset; /* byte offset of the body in the file */
    int body_line;      /* 1-based file line where the body starts */
    char *body;         /* the body's bytes (NUL-terminated), NULL once rendered */
    size_t body_len;
    bool is_home;
    size_t nav_pos; /* index in the site's navigation order (site.order) */
} bp_page;

void page_free(bp_page *p);
/* What page p calls measure m in its tables, levels and charts: its
 * `labels:` word, else the measure's own label ("Errors"). */
const char *page_measure_label(const bp_page *p, sim_measure m);

/* ------------------------------------------------------------ the site */

/* What `build`, `check` and `watch` are asked to do (main.c parses it). */
typedef struct {
    const char *content;      /* default "content" */
    const char *templates;    /* default "templates" */
    const char *statics;      /* default "static" */
    const char *out;          /* default "public" */
    const char *cache;        /* results cache folder, NULL for none */
    int jobs;                 /* simulation threads; <= 0: number of cores */
    bool quiet;               /* no progress or summary on stderr */
    bool write;               /* false for `check`: everything but writing */
    const atomic_int *cancel; /* when set (non-zero) during a build (serve's Ctrl-C, from a
                                 signal handler), it stops at the next stage or simulation
                                 and writes nothing; NULL: never */
} site_options;

/* What a build tells the command that ran it, besides its exit status
 * (the preview server shows it): its messages and which output files the
 * swap changed. site_build_report fills it; build_report_free frees it. */
typedef struct {
    diag_record *diags; /* every error as a record (diag.h), in stderr's order */
    size_t n_diags;
    bool interrupted; /* site_options.cancel stopped it; nothing was written */
    char **changed;   /* output files ('/'-separated, relative to --out) whose bytes the swap
                         changed: written anew, added or removed; sorted. Empty unless the
                         build wrote the site */
    size_t n_changed;
    size_t simulated;  /* board variants simulated (the rest came from the cache) */
    size_t from_cache; /* ... and taken from the results cache */
} build_report;

void build_report_free(build_report *r);

#define TIMELINE_MAX_JOBS 30 /* boards with more jobs get no trace or timeline */

/* site.yaml. */
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

/* A drawing in its four renderings (wide and narrow, light and
 * dark; draw/draw.h's look index: layout * 2 + theme), each a complete SVG
 * document, and the one alt text they share. */
#define FIGURE_LOOKS 4
typedef struct {
    char *svg[FIGURE_LOOKS];
    char *alt;
} sfigure;

/* Free what a figure holds (not f itself). */
void sfigure_free(sfigure *f);

/* What the draw stage (draw/figures.h) made of one drawing: the figure
 * beside it holds its renderings, or msg says why it could not be drawn
 * (a page that shows it says so, at its placeholder). */
typedef struct {
    bool wanted;   /* a page can show it: the draw stage drew it (or tried) */
    bool failed;   /* it could not be drawn: msg is why */
    bool reported; /* the first page that shows it has said so */
    char *msg;     /* "cannot draw board 'x': ...", without its place */
} sdrawn;

/* One board variant: one thing the site simulates and draws, a board file
 * as it is, one combination of a level, or one point of a chart. Its
 * bp_board is the board as loaded (a file's, or one with a level's or a
 * chart's settings applied). */
typedef struct {
    char *file;      /* content-relative file ("boards/mini.yaml") */
    bp_board *board; /* NULL when it did not load */
    bool want_trace; /* small enough for a timeline (TIMELINE_MAX_JOBS) */
    /* run/: the result */
    bool ran;
    int run_failed;
    char run_error[256];
    sim_result result;
    /* render/: a page's directive shows its diagram or its timeline (a
     * board file's; render_scan), so the draw stage draws it */
    bool shows_diagram, shows_timeline;
    /* draw/: the drawings, made by the draw stage */
    sdrawn fig_st;
    sfigure fig; /* the diagram */
    sdrawn tl_st;
    sfigure tl; /* the timeline */
    /* run/: the board's claim proved (board->claim), when it has one */
    bool proved;
    sim_proof proof;
    int64_t proof_events; /* its estimate (sim_prove_estimate), in the build's budget */
    /* proved on a thread beside the runs, within all of the build's budget
     * (run/simulate.c): kept if it fits what the runs left, else made again */
    bool proof_early;
    sdrawn cx_st;
    sfigure cx; /* the shortest counterexample's timeline */
    /* load/refs.c: the page whose words (labels:) the diagram's notes use,
     * when every page that shows it calls its measures alike; else NULL */
    const bp_page *words;
    bool words_differ;
} bp_variant;

/* A live level's board as wire bytes (sim-core/WIRE.md), cut so the page
 * can put any of its states together: the start's encoding, and per choice
 * the slot its setting takes in it and what each option puts there. The
 * page copies the start's bytes and, for each choice in the order of the
 * slots, the chosen option's bytes in place of the slot; load/live.c proves
 * that this gives sim_wire_encode's bytes on every state it builds. */
typedef struct {
    size_t at, end;  /* the slot: bytes [at, end) of the start's encoding */
    uint8_t **bytes; /* per option: the bytes that take the slot's place */
    size_t *len;
    int64_t *jobs; /* per option: the board's jobs and most replications with it */
    int *reps;
    size_t *sweep; /* a choice with sweep: per option the variant of that value, the other
                      choices at their start (its point measured at build time); else NULL */
} slive_choice;

typedef struct {
    uint8_t *start; /* the starting state, encoded with the site's limits, no trace */
    size_t start_len;
    slive_choice *choices; /* per choice */
    size_t *drawn;         /* variants with a diagram: each combination of the option
                              lists, the ranges at their start; the start's first */
    size_t n_drawn;
    size_t checked; /* states whose bytes were put together and compared */
    /* a level with a sweep: the slot that makes a state one replication (its first
       pass), [one_at, one_end) of the start's bytes, and what goes there */
    size_t one_at, one_end;
    uint8_t *one;
    size_t one_len;
} slive;

typedef struct {
    char *file; /* content-relative */
    bp_level *level;
    bp_variant *combos; /* n_variants; every combination, in combination order (a sandbox:
                       those drawn, then a sweep's points not among them) */
    size_t n_variants; /* n_combos (a sandbox: n_drawn) */
    int *opts;         /* n_variants × n_choices: each variant's option per choice */
    size_t start;      /* index into combos of the starting state */
    bool loaded;       /* every variant loaded, and the level has goals (or is a sandbox) */
    slive *live;       /* a live level that loaded: its wire bytes */
} slevel;

/* Free a live level's bytes (l: its level, for the counts); NULL is a no-op. */
void slive_free(slive *lv, const bp_level *l);

typedef struct {
    char *file; /* content-relative */
    bp_chart *chart;
    bp_variant *points; /* series-major: [s * n_x + x] */
    size_t n_points;
    sdrawn fig_st;
    sfigure fig;
} schart;

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
    bp_page **order;     /* the pages but the home page in navigation order: site.yaml's
                            nav first, then the rest (previous/next, the home page's list) */
    size_t n_order;
    size_t n_nav_items; /* pages the nav lists: the first of the nav order */
    bp_variant **boards; /* board files, in first-use order; one per file */
    size_t n_boards;
    slevel **levels; /* one per level file */
    size_t n_levels;
    schart **charts; /* one per chart file */
    size_t n_charts;
    char date[32];     /* build date, YYYY-MM-DD */
    char built_at[32]; /* the same moment to the second, YYYY-MM-DDTHH:MM:SSZ */
    size_t runs;       /* simulations done */
    size_t cached;     /* results taken from the cache */
    size_t shared;     /* variants identical to another, simulated once */
    size_t draw_failures; /* drawings the draw stage could not make (pages showing them say why) */
    int64_t events_run; /* events the distinct variants took (cached ones too): the
                         * build's budget left for proofs is what they did not */
    buf warnings;      /* "PATH: warning: ..." lines said only when the build succeeds */
} site;

/* An empty site for these options (messages to stderr); free with site_free. */
void site_init(site *s, const site_options *o);
/* Free everything the site holds (not s itself). */
void site_free(site *s);

/* True when a level that loaded re-simulates in the reader's browser (a
 * slider or a sandbox), or a board claims 'sometimes' (its counterexample
 * replays there): the site then gets the simulator module and its scripts
 * in static/ (assets.h). */
bool site_live(const site *s);

/* The board, level or chart of a content-relative file, whether or not it
 * loaded, or NULL when no page lists the file. */
bp_variant *site_board_file(const site *s, const char *file);
slevel *site_level_file(const site *s, const char *file);
schart *site_chart_file(const site *s, const char *file);

/* The board, level or chart with this id among those page p lists and that
 * loaded, or NULL; *listed gets its index in the page's list. */
bp_variant *site_page_board(const site *s, const bp_page *p, const char *id, size_t *listed);
slevel *site_page_level(const site *s, const bp_page *p, const char *id, size_t *listed);
schart *site_page_chart(const site *s, const bp_page *p, const char *id, size_t *listed);

#endif
