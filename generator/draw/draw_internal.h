/* draw_internal.h — what the drawing files share: a small canvas over cairo
 * (draw.c is the only file that includes cairo), the palette, input checks,
 * number formatting, text wrapping, and the layouts that tests inspect. */
#ifndef BP_DRAW_INTERNAL_H
#define BP_DRAW_INTERNAL_H

#include "draw/draw.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------------ palette
 * Colours are roles, not RGB: each drawing is painted once per theme
 * (draw_theme), and the canvas looks the role up in that theme's palette
 * (draw.c: dpalette_rgb). Everything is drawn on a card with a subtle
 * border; text roles keep at least 4.5:1 against every fill they are drawn
 * on, and lines and marks 3:1 against the card, in both themes
 * (dpalette_pairs; test_draw_palette measures them). */
typedef enum {
    DC_NONE = 0, /* no fill / no stroke */
    DC_CARD,
    DC_CARD_EDGE,
    DC_INK,      /* main text */
    DC_MUTED,    /* secondary text */
    DC_LINE,     /* links, arrows */
    DC_BOX,      /* part fill */
    DC_BOX_EDGE, /* part border */
    DC_EXTERNAL, /* external part fill */
    DC_BADGE,    /* policy badge fill */
    DC_BADGE_INK,
    DC_PROTO, /* protocol labels */
    DC_FAIL,  /* faults, duplicates, goal missed */
    DC_FAIL_BG,
    DC_PASS,       /* goal met */
    DC_SKIP,       /* ID check hit */
    DC_GRID,       /* chart grid */
    DC_LIFELINE,   /* timeline lifelines */
    DC_GLYPH_BACK, /* the users glyph's second figure (decoration) */
    DC_SERIES0,    /* chart lines: DC_SERIES0 + k, k < DC_N_SERIES */
    DC_COUNT = DC_SERIES0 + 6,
} dcolor;
#define DC_N_SERIES 6

/* The RGB of a role in a theme (0xRRGGBB). */
uint32_t dpalette_rgb(draw_theme t, dcolor c);

/* A colour pair the palette promises: fg on bg with at least min_ratio of
 * WCAG 2 contrast (4.5 for text, 3 for lines and marks). */
typedef struct {
    dcolor fg, bg;
    double min_ratio;
} dcolor_pair;
extern const dcolor_pair dpalette_pairs[];
extern const size_t dpalette_n_pairs;

/* ------------------------------------------------------------------ sizes (CSS px) */
#define DF_LABEL 14.0 /* part labels */
#define DF_SMALL 12.0 /* size lines, link labels, faults, notes */
#define DF_BADGE 11.0
#define DL_LABEL 18.0 /* line heights */
#define DL_SMALL 16.0

/* ------------------------------------------------------------------ canvas */
typedef struct dcanvas dcanvas;
typedef enum { DT_START, DT_MIDDLE, DT_END } dtext_anchor;

/* How text reaches the SVG: as <text> elements (the default; see the decision
 * at the top of draw.c) or as cairo's glyph outlines. */
typedef enum { DTEXT_ELEMENTS, DTEXT_GLYPHS } dtext_mode;

typedef struct {
    dtext_mode text;
    const char *png_path;  /* also render a PNG (2x) here, for looking at it */
    draw_look look;        /* layout and theme */
    const draw_live *live; /* a live board's settings (draw_board_live) */
    size_t n_live;
} draw_opts;

/* What a live board's page rewrites in one text: up to two runs of it as
 * <tspan ATTR="VALUE"> (bytes [off, off + len)), and on the <text> itself
 * data-goal="goal" with the pass and fail colours. Strings are borrowed. */
typedef struct {
    const char *attr, *value;
    size_t off, len;
} dspan;

typedef struct {
    dspan span[2];
    size_t n;
    const char *goal; /* NULL: none */
} dmarks;

/* A canvas that only measures text (no output). */
dcanvas *dcanvas_new_measure(void);
/* An SVG canvas of w x h CSS pixels, painting in theme t's palette. */
dcanvas *dcanvas_new_svg(int w, int h, dtext_mode mode, draw_theme t);
/* A PNG canvas of w x h CSS pixels drawn at scale (2 = 2 device px per px). */
dcanvas *dcanvas_new_png(int w, int h, double scale, draw_theme t);
void dcanvas_free(dcanvas *c);

double dc_text_width(dcanvas *c, const char *s, double size, bool bold);
/* Font ascent and descent at size (DejaVu Sans: about 0.93 and 0.24 em). */
void dc_font_extents(dcanvas *c, double size, double *ascent, double *descent);

/* Shapes. Coordinates are CSS px; 1 px lines are crisp when the caller passes
 * half-pixel coordinates (dc_half). */
void dc_rect(dcanvas *c, double x, double y, double w, double h, double radius, dcolor fill,
             dcolor stroke, bool dashed);
void dc_line(dcanvas *c, double x0, double y0, double x1, double y1, dcolor color, double width,
             bool dashed);
void dc_polyline(dcanvas *c, const double *xy, size_t n_pts, dcolor color, double width,
                 bool dashed);
void dc_polygon(dcanvas *c, const double *xy, size_t n_pts, dcolor fill, dcolor stroke);
void dc_circle(dcanvas *c, double cx, double cy, double r, dcolor fill, dcolor stroke);
/* A filled arrowhead with its tip at (x, y) pointing in direction (dx, dy). */
void dc_arrowhead(dcanvas *c, double x, double y, double dx, double dy, dcolor color);
/* A cross (✗ mark) of half-size r centred at (x, y). */
void dc_cross(dcanvas *c, double x, double y, double r, dcolor color, double width);
/* One line of text; y is the baseline; rotate_ccw turns it 90° anticlockwise
 * about (x, y) (for a y-axis label). */
void dc_text(dcanvas *c, double x, double y, dtext_anchor a, double size, bool bold, dcolor color,
             const char *s, bool rotate_ccw);
/* The same with a live board's marks (NULL: none; drawn only into <text>). */
/* An empty element of the SVG's text layer (none on a PNG or glyph
 * canvas): <NAME ATTRS/>, ATTRS written as they are (escaped by the
 * caller), for the page script to find. */
void dc_element(dcanvas *c, const char *name, const char *attrs);
/* <rect x y width height fill="none" ATTRS/> there: a box the page
 * script or its stylesheet can paint (a timeline's current row). */
void dc_band(dcanvas *c, double x, double y, double w, double h, const char *attrs);
void dc_text_marked(dcanvas *c, double x, double y, dtext_anchor a, double size, bool bold,
                    dcolor color, const char *s, const dmarks *marks);

/* Finish: the standalone document with <title> (title) and <desc> (desc)
 * appended to out, ids renumbered per document. 0, or -1 with a sentence. */
int dcanvas_finish_svg(dcanvas *c, const char *title, const char *desc, buf *out, char *err,
                       size_t errn);
int dcanvas_finish_png(dcanvas *c, const char *path, char *err, size_t errn);
/* The PNG appended to out instead of written to a file. */
int dcanvas_finish_png_buf(dcanvas *c, buf *out, char *err, size_t errn);
/* What is drawn until dc_pop_place lands moved by (x, y) and scaled by
 * scale (a drawing placed inside another). */
void dc_push_place(dcanvas *c, double x, double y, double scale);
void dc_pop_place(dcanvas *c);

static inline double dc_half(double v)
{
    return (double)(long)v + 0.5;
}

/* ------------------------------------------------------------------ checks and words */
/* Writes one sentence into err; returns -1. */
int dfail(char *err, size_t errn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A string fit to draw: not NULL, valid UTF-8, no control characters or
 * non-characters (invalid in XML), at most 400 bytes. what names it in the
 * message ("the label of part 2"). */
int dcheck_text(const char *what, const char *s, char *err, size_t errn);
/* A finite number in [lo, hi]. */
int dcheck_number(const char *what, double v, double lo, double hi, char *err, size_t errn);

/* Wrap s at spaces into lines no wider than max_w (a single longer word keeps
 * its own line and is never cut). Returns the number of lines; *lines gets a
 * heap array of heap strings (dlines_free). *widest gets the widest line. */
size_t dwrap(dcanvas *c, const char *s, double size, bool bold, double max_w, char ***lines,
             double *widest);
void dlines_free(char **lines, size_t n);

/* ------------------------------------------------------------------ facts (draw_facts.c) */
/* A live board's settings (draw_board_live); {NULL, 0} for a plain board. */
typedef struct {
    const draw_live *v;
    size_t n;
} dlives;

/* The lines under part i's label: its size and the settings it shows, in
 * words, their colours and (a live board) marks; *n gets how many (at most
 * 8). */
void dpart_facts(const bp_board *b, size_t i, char facts[][128], dcolor *colors, dmarks *marks,
                 const dlives *lv, size_t *n);
/* The fault lines of link i in words: "20% of acks lost", "ack of job 3 lost",
 * "transactional", with their marks. Returns how many (at most 4). */
size_t dlink_faults(const bp_board *b, size_t i, char out[][160], dmarks *marks, const dlives *lv);

/* ------------------------------------------------------------------ board layout */
#define DRAW_MAX_PARTS 64
#define DRAW_MAX_LINKS 256
#define DRAW_MAX_GRID 63 /* largest `at:` column or row */

typedef struct {
    double x, y, w, h;
} drect;

bool drect_overlap(drect a, drect b); /* interiors intersect */
drect drect_grow(drect r, double by);

typedef enum {
    DL_PART_TEXT, /* inside a part's box: label lines, size line, badge text */
    DL_LINK_TEXT, /* a link's protocol label */
    DL_FAULT,     /* a link's fault or transactional line */
    DL_NOTE,      /* a measured note next to a part */
} dlabel_kind;

typedef struct {
    dlabel_kind kind;
    int part, link; /* owner, or -1 */
    char *text;     /* owned */
    double x, y;    /* anchor point, y the baseline */
    dtext_anchor anchor;
    double size;
    bool bold;
    dcolor color;
    drect r;      /* the line box the text occupies (measured advance x line height) */
    dmarks marks; /* a live board's: what the page rewrites */
} dlabel;

typedef struct {
    drect box;       /* the rounded box */
    drect footprint; /* box and the notes under it */
    int col, row;
    bool users, external;
    bool has_badge;
    drect badge;
    double text_w; /* widest measured line inside the box */
} dpart_geom;

typedef struct {
    double *xy; /* polyline, from the sender's box edge to the receiver's */
    size_t n_pts;
    bool lost_mark; /* a cross on the line where the faults are written */
    bool dashed;    /* a broker's line to its dead-letter queue (draw_board.c) */
    double mark_x, mark_y;
} dlink_geom;

typedef struct {
    int width, height;
    draw_layout layout; /* the layout made (narrow falls back to wide: dboard_layout_make) */
    dpart_geom *parts;
    size_t n_parts;
    dlink_geom *links;
    size_t n_links;
    dlabel *labels;
    size_t n_labels, cap_labels;
} dboard_layout;

/* ------------------------------------------------------------------ link routing (draw_route.c) */
#define DR_CELL 4     /* router grid, px */
#define DR_ZONE 2     /* cells kept free around a box */
#define DR_GAP_TEXT 5 /* px between a line and its label */

/* The states the router queued at one distance. */
typedef struct {
    int32_t *v;
    size_t n, cap;
} drbucket;

/* A grid of DR_CELL px cells over the figure for routing links. */
typedef struct {
    int gw, gh;
    int16_t *owner; /* 0 free, part+1 the zone around a box, -1 text */
    uint8_t *occ;   /* a line runs here (with one cell of clearance) */
    uint8_t *near;  /* close to a box: lines may pass, at a cost */
    int32_t *dist, *prev; /* per state (cell * 4 + direction): INT32_MAX and -1 between routes */
    int32_t *touched;     /* the states a route set, reset before the next (n_touched) */
    size_t n_touched;
    /* the queue: states by distance, in a ring of buckets (ring[d % n_ring]
     * holds the states pushed at distance d; every step costs at least
     * one, so the bucket being taken gets no more while it is) */
    drbucket *ring;
    size_t n_ring;   /* a power of two, above any push's distance from the least */
    int32_t at_dist; /* the bucket being taken */
    size_t at;       /* ... and how far */
    size_t queued;   /* entries left in the ring, stale ones too */
} drouter;

/* Where a link may leave or enter a box. */
typedef struct {
    bool ok;
    int side;   /* 0 east, 1 south, 2 west, 3 north */
    int px, py; /* on the box edge, cells */
    int sx, sy; /* end of the straight stub out of the box, cells */
    int cost;
} dport;

void droute_init(drouter *r, int w_px, int h_px);
void droute_free(drouter *r);
/* Mark the cells under px rectangle rr (grown by `by` px) with owner o;
 * box zones stay as they are. */
void droute_block(drouter *r, drect rr, double by, int16_t o);
/* The next free slot (centre first, then 3 cells either way) on a side of
 * box, given `used` slots taken; .ok false when it has no room. */
dport droute_port(const drouter *r, drect box, int side, int used, int part);
/* Cheapest orthogonal route from one of the 4 src ports to one of the 4
 * dst ports (bends and crossings cost extra); *xy gets the polyline (px,
 * heap). False when there is none. */
bool droute_find(drouter *r, const dport *src, const dport *dst, int *src_side, int *dst_side,
                 double **xy, size_t *n_pts);
/* Reserve a routed polyline so later links keep clear of it. */
void droute_mark_line(drouter *r, const double *xy, size_t n);

/* Everything a link's text must not touch. */
typedef struct {
    drect *rects; /* boxes, notes, placed texts */
    size_t n, cap;
    drect *segs; /* routed segments, 1 px wide */
    size_t n_segs, cap_segs;
    int w, h;
} dobstacles;

void dobst_add(dobstacles *o, drect r);
void dobst_line(dobstacles *o, const double *xy, size_t n);

typedef struct {
    const char *text;
    double w;
    dcolor color;
    bool bold;
    dlabel_kind kind;
    dmarks marks;
} dltext;

typedef struct {
    drect r[8];
    double x[8], y[8];
    dtext_anchor a[8];
    double mark_x, mark_y;
} dlplace;

/* Place a link's texts (t[0] the protocol, then up to 4 fault lines) along
 * its polyline where they touch no obstacle. False when nothing fits. */
bool dplace_texts(const dobstacles *o, const double *xy, size_t n, const dltext *t, size_t nt,
                  double asc_small, dlplace *out);

/* ------------------------------------------------------------------ board contents (draw_board.c)
 */
#define DB_PAD_X 12 /* inside a box */
#define DB_PAD_Y 9
#define DB_BOX_MIN_W 96
#define DB_BOX_MIN_H 48
#define DB_GLYPH_W 28 /* the users glyph's column */
#define DB_BADGE_H 18
#define DB_COL_GAP 64
#define DB_ROW_GAP 32

/* One line of text in or under a box. */
typedef struct {
    char *text;
    double size;
    bool bold;
    dcolor color;
    double w;
    dmarks marks; /* a live board's (not wrapped: the runs stay on one line) */
} dbline;

/* What a part's box holds, measured: its label and facts wrapped at the
 * layout's text width, the policy badge, the notes under it. */
typedef struct {
    dbline *lines;
    size_t n, cap;
    size_t n_label; /* the first n_label lines are the part's label */
    char *badge;
    double badge_w; /* pill width */
    dbline *notes;
    size_t n_notes, cap_notes;
    double w, h; /* box */
    double notes_w, notes_h;
    bool users, external;
} dpart_content;

/* Every part's contents, labels and facts wrapped at text_w px, notes at
 * note_w, under the box or (notes_inside) in it, below the label and badge
 * (caller frees with dboard_contents_free); lv: a live board's settings
 * (NULL for a plain board), marked for the page. */
dpart_content *dboard_contents(dcanvas *m, const bp_board *b, const draw_note *notes,
                               size_t n_notes, double text_w, double note_w, bool notes_inside,
                               const dlives *lv);
void dboard_contents_free(dpart_content *pc, size_t n);
/* v rounded up to a multiple of step. */
double dceil_to(double v, double step);

/* Lay a board out (no drawing) in the wide or the narrow layout
 * (draw_board_layout.c). 0, or -1 with a sentence (bad input, or no room
 * found for a label). dboard_layout_free releases it. */
int dboard_layout_make(dcanvas *m, const bp_board *b, const draw_note *notes, size_t n_notes,
                       draw_layout layout, const dlives *lv, dboard_layout *out, char *err,
                       size_t errn);
void dboard_layout_free(dboard_layout *l);

/* The public functions with output options. */
/* The board's wide diagram painted on c, scaled to fit the box (x, y, w,
 * h; never enlarged beyond twice its size) and centred in it. */
int dboard_paint_fit(dcanvas *c, const bp_board *b, const draw_note *notes, size_t n_notes,
                     double x, double y, double w, double h, char *err, size_t errn);
int draw_board_opts(const bp_board *b, const draw_note *notes, size_t n_notes, buf *svg, buf *alt,
                    const draw_opts *o, char *err, size_t errn);
int draw_timeline_opts(const bp_board *b, const sim_trace_entry *tr, size_t n, buf *svg, buf *alt,
                       const draw_opts *o, char *err, size_t errn);
int draw_chart_opts(const draw_chart *c, buf *svg, buf *alt, const draw_opts *o, char *err,
                    size_t errn);

/* ------------------------------------------------------------------ timeline layout (for tests) */
typedef enum {
    DTL_ARROW,     /* a message that arrived */
    DTL_LOST,      /* a message that ended in a cross */
    DTL_SKIP,      /* ID check hit: effect skipped */
    DTL_EFFECT,    /* an effect */
    DTL_DUPLICATE, /* an effect beyond the first for its job */
    DTL_PROV_SKIP, /* provider saw the key: no new charge */
    DTL_CRASH,
    DTL_RESTART,
    DTL_OTHER_MARK,  /* record key, rollback, timeout, give up, failed call */
    DTL_DEAD_LETTER, /* a message moved to the dead-letter queue: a dashed arrow */
} dtl_kind;

typedef struct {
    dtl_kind kind;
    int from_lane, to_lane; /* to_lane = from_lane for marks */
    double y;
    char *text; /* owned */
    dcolor color;
    int64_t t_us, job;
    int lines; /* narrow: the lines its words wrap onto (0 before placing) */
    int fold;  /* 0, or 1 + the fold (dtimeline_layout.folds) that hides it */
    bool left; /* wide, a mark: its words to the left of its lane (tight layout) */
} dtl_item;

/* Rows folded into one line: a run of blocks of rows alike but for their
 * numbers ("payment 3", "payment 4"; "try 4", "try 5") shows its first
 * block, and the rest, items [first, end), fold into "... 7 more
 * deliveries like this" (dtimeline_folds). */
typedef struct {
    size_t first, end;
    char *words; /* owned */
} dtl_fold;

typedef struct {
    int width, height; /* wide: of the rows; narrow: of the whole figure */
    draw_layout layout;
    int *lane_part; /* part index per lane */
    double *lane_x;
    size_t n_lanes;
    dtl_item *items; /* y: wide, the row's top from MARGIN; narrow, its text's baseline */
    size_t n_items, cap_items;
    /* narrow: the lane headers (two staggered rows when one has no room);
     * head_wrap, both: the width their words wrap to */
    int head_rows;
    double head_top[2], head_h, head_wrap;
    double time_w;     /* the time before each row's words */
    double legend_top; /* the first legend row's centre */
    dtl_fold *folds;   /* in row order, not overlapping */
    size_t n_folds;
    long *row_of; /* per trace entry: the item (row) that shows it, or -1 */
    size_t n_entries;
} dtimeline_layout;

/* The events of a trace as rows, in the wide layout (lanes spaced for
 * their labels, time in a column at the left) or the narrow one
 * (draw_timeline_narrow.c: lanes spread across DRAW_NARROW_W, each row a
 * line of words above its arrow or mark). */
/* What a timeline knows of one message's tries at one handler: the last
 * try it received, and the try and copy of its first standing effect. */
typedef struct {
    int64_t received;
    int64_t first_try;
    int first_copy;
} dtl_tries;
/* An effect row's words (draw_words.c; free the string): "payment 1
 * charged", "... twice", "... 3 times" (k: the standing effects of the
 * message at the handler with this one), and on which try (delivery) it
 * happened, from the effect entry's own try (sim_effect_try: with
 * concurrent deliveries the order of the entries does not tell): nothing
 * while the message was delivered once, " on try 2" for a first effect
 * after more than one try, ": on try 1 and again on try 2" for the second,
 * ": again on try 3" for later ones. Another copy of the message (the
 * broker queued it twice) counts its tries from 1, so of it only a later
 * try is named. d: the message's tries at the handler, updated. */
char *dtl_effect_text(dtl_tries *d, const sim_trace_entry *e, int k, const char *noun,
                      const char *verb);
int dtimeline_layout_make(dcanvas *m, const bp_board *b, const sim_trace_entry *tr, size_t n,
                          draw_layout layout, dtimeline_layout *out, char *err, size_t errn);
void dtimeline_layout_free(dtimeline_layout *l);

/* draw_timeline.c, for both layouts: duplicates and skips are the point of
 * the picture (their words are bold); the mark of an item; the legend of
 * the marks that appear, from (x0, y) in rows no wider than max_x (c NULL:
 * measure only; *rows gets how many; returns the right end). */
#define DTL_LEGEND_ROW 20.0
/* The colour of an arrow's words: a lost or dead-lettered message's in red. */
dcolor dtl_arrow_ink(const dtl_item *it);
bool dtl_bold(dtl_kind k);
/* A lane's header box centred at x from top, h tall: the part's label at
 * size (14: 18 px lines, else 15), wrapped at wrap, the box pad wider. */
void dtl_head(dcanvas *c, dcanvas *m, const bp_board *b, int lane, int part, double x, double top,
              double h, double size, double wrap, double pad, double radius);
/* A message from x0 towards x1 at height y: an arrow, or a dashed line
 * ending in a cross 60% of the way when lost. Returns where it ends. */
double dtl_message(dcanvas *c, const dtl_item *it, double x0, double x1, double y);
/* The restart after crash item crash on its lane, or -1. */
long dtl_restart_of(const dtimeline_layout *l, size_t crash);
void dtl_mark(dcanvas *c, dtl_kind k, double x, double y, dcolor color);
double dtl_legend(dcanvas *c, dcanvas *m, const dtimeline_layout *l, double x0, double ly,
                  double max_x, int *rows);
/* draw_timeline_fold.c: find the layout's folds (after its items are
 * made, before they are placed). */
void dtimeline_folds(const bp_board *b, dtimeline_layout *l);
/* The row of item i for a page's stepper, an empty element over
 * [y0, y1) that the page script highlights (data-row, data-lanes), and
 * each fold's rows (data-fold="Y0 Y1", data-words) where render/figure.c
 * cuts the drawing; nothing on a PNG. */
void dtl_row_band(dcanvas *c, const dtimeline_layout *l, size_t i, double x, double w, double y0,
                  double y1);
void dtl_fold_marks(dcanvas *c, const dtimeline_layout *l, const double *row_top, double bottom);
/* True when row i starts or ends a fold: its time is written even when
 * the row before had the same (that row may be folded away). */
bool dtl_time_edge(const dtimeline_layout *l, size_t i);
/* draw_timeline_wide.c: the wide layout's lanes (lane_x, width,
 * head_wrap, each mark's side); tight, for a drawing that would be wider
 * than DRAW_WIDE_MAX spaced the usual way. */
#define DTL_MARGIN 16
void dtimeline_place_wide(dcanvas *m, const bp_board *b, dtimeline_layout *l, bool tight);
/* draw_timeline_narrow.c */
void dtimeline_place_narrow(dcanvas *m, const bp_board *b, dtimeline_layout *l);
void dtimeline_paint_narrow(dcanvas *c, dcanvas *m, const bp_board *b, const dtimeline_layout *l);

/* Shared by the board and timeline checks. */
int dcheck_board(const bp_board *b, char *err, size_t errn);
/* The label of part i (its id when the label is missing). */
const char *dpart_label(const bp_board *b, size_t i);
/* "ack"/"response" words for a link's protocol. */
const char *dreply_word(sim_protocol p, bool plural);
const char *drequest_word(sim_protocol p, bool plural);
/* The protocol label of link i ("AMQP"), from the catalog or the protocol. */
const char *dlink_label(const bp_board *b, size_t i);
/* Consumers and services: the parts that run the effect. */
bool dpart_handles(sim_kind k);
/* Badge text for a handler policy. */
const char *dpolicy_badge(sim_idempotency i);

#endif
