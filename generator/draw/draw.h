/* draw.h — SVG pictures of boards, traces and sweeps: the board diagram, the
 * timeline (sequence diagram) of a small trace, and line charts. Each figure is
 * a complete standalone SVG document with <title>/<desc>, byte-identical for
 * identical input, plus a plain-text alt description for the page. */
#ifndef BP_DRAW_H
#define BP_DRAW_H

#include "base/util.h"
#include "model/site.h"
#include "simcore.h"

#include <stdbool.h>
#include <stddef.h>

typedef enum { DRAW_NEUTRAL, DRAW_PASS, DRAW_FAIL } draw_tone;

/* Every drawing comes in a wide and a narrow layout and a light
 * and a dark rendering. The wide layout is at most DRAW_WIDE_MAX px wide
 * (a board that would be wider wraps its columns onto more rows); the
 * narrow one at most DRAW_NARROW_W, the text column of a 320 px phone,
 * with no text under DRAW_MIN_TEXT px: parts top to bottom, timeline rows
 * that carry their own words, a chart's legend above the plot. The dark
 * rendering paints the same layout in a dark palette. */
typedef enum { DRAW_WIDE, DRAW_NARROW } draw_layout;
typedef enum { DRAW_LIGHT, DRAW_DARK } draw_theme;
typedef struct {
    draw_layout layout;
    draw_theme theme;
} draw_look;
#define DRAW_LOOKS 4 /* look index: layout * 2 + theme */
#define DRAW_WIDE_MAX 912
#define DRAW_NARROW_W 288
/* A page shows a narrow drawing as wide as its column, up to this (a
 * 375 px phone's column and a little more): scaled up from DRAW_NARROW_W,
 * so its smallest text is DRAW_MIN_TEXT on a 320 px phone and larger on
 * any wider one (render/figure.c, static/boardpress.css). */
#define DRAW_NARROW_SHOW_MAX 360
#define DRAW_MIN_TEXT 11.0

/* The look with index i (0 .. DRAW_LOOKS-1), and back. */
draw_look draw_look_at(int i);
int draw_look_index(draw_look l);
/* What a look adds to a drawing's file name: "", "-dark", "-narrow",
 * "-narrow-dark" (static string). */
const char *draw_look_suffix(draw_look l);

/* A measured number to show next to a part ("1 charged twice", "0 lost
 * writes"). Text is pre-formatted by the caller; the drawing adds a ✓ (pass)
 * or ✗ (fail) mark so that colour is not the only signal. On a live board
 * (one the reader's browser re-simulates) measure names the measure whose
 * value opens the text (its first value_len bytes): the value is written
 * as <tspan data-measure="NAME">, and a note with a tone carries
 * data-goal="NAME" with the pass and fail colours (data-fill-pass,
 * data-fill-fail) and its mark in <tspan data-mark>, so the page can
 * rewrite all three. */
typedef struct {
    int part; /* index into the board's parts */
    const char *text;
    draw_tone tone;
    const char *measure; /* a measure name (sim_measure_name), or NULL */
    size_t value_len;
} draw_note;

/* A setting the reader of a live board changes (a slider's): wherever the
 * diagram shows it, its value is written as <tspan data-set="PATH"> with
 * text, the value as the page labels it now ("10%", "5 tries"), and it is
 * shown even where a plain diagram would leave it out (a loss of 0%).
 * Shown so: parts' tries, redelivery_after, timeout, crash_after_effect,
 * fail and key_ttl; links' lose_request and lose_reply. */
typedef struct {
    const char *set;  /* as --set takes it: "links.broker.processor.lose_reply" */
    const char *text; /* "10%" */
} draw_live;

/* A back-off factor as a board writes it: "then ×2 each try", and for 1
 * (a live board's slider at its left end) "the same wait each try". label
 * is the factor as the page labels it ("1.5"). A live board writes the
 * whole phrase in its data-set span, and the level's data gives the page
 * the phrase of every value (render/live.c), so the page swaps it whole. */
void draw_factor_words(char *dst, size_t n, const char *label);
bool draw_factor_setting(const char *set);

/* Board diagram. svg gets (appended) a complete standalone SVG document; alt
 * gets (appended) a one-paragraph plain-text description: parts in order,
 * links with protocols and faults, the policy badge, the notes.
 * Returns 0, or -1 with one sentence in err (size errn): a label that is not
 * valid UTF-8, a number out of range, a cairo error. On -1 svg and alt are
 * left as they were. */
int draw_board(const bp_board *b, const draw_note *notes, size_t n_notes, draw_look look, buf *svg,
               buf *alt, char *err, size_t errn);
/* The same for a live board: live[0..n_live) are the settings the reader
 * changes; the description says it is of the starting state. */
int draw_board_live(const bp_board *b, const draw_note *notes, size_t n_notes,
                    const draw_live *live, size_t n_live, draw_look look, buf *svg, buf *alt,
                    char *err, size_t errn);

/* Both themes of a live (or, with n_live 0, plain) board in one layout,
 * laid out once: svg[DRAW_LIGHT] and svg[DRAW_DARK] get the documents draw_board_live
 * would write for those looks, alt the description. Same contract. */
#define DRAW_THEMES 2
int draw_board_themes(const bp_board *b, const draw_note *notes, size_t n_notes,
                      const draw_live *live, size_t n_live, draw_layout layout,
                      buf svg[DRAW_THEMES], buf *alt, char *err, size_t errn);

/* Sequence diagram of a (small, at most DRAW_TIMELINE_MAX entries) trace of
 * board b: one lane per part that appears, time downwards in event order
 * (not to scale), one arrow per delivery, call and ack; lost messages end in a
 * cross, ID-check skips and duplicate effects are marked. Same contract as
 * draw_board. */
#define DRAW_TIMELINE_MAX 600
int draw_timeline(const bp_board *b, const sim_trace_entry *tr, size_t n, draw_look look, buf *svg,
                  buf *alt, char *err, size_t errn);
/* The rows of that timeline for a page's stepper: each row's time and
 * words ("20 ms: payment 1 charged"), joined by '|' (a '|' in them
 * written '/'), into words; per trace entry the row that shows it (-1:
 * none, like a receive, shown by the arrow that brought it), joined by
 * spaces, into rows. The drawing's rows carry the same numbers
 * (data-row). 0, or -1 with err. */
int draw_timeline_rows(const bp_board *b, const sim_trace_entry *tr, size_t n, buf *words,
                       buf *rows, char *err, size_t errn);

/* Line chart: x/y series with axes, ticks, labels and a legend. With
 * x_percent / y_percent the values are fractions (0.2) shown as "20%"; with
 * x_seconds / y_seconds they are durations, ticked at round durations.
 * Strings are borrowed. Same contract as draw_board. */
typedef struct {
    const char *name; /* legend entry */
    size_t n;         /* points, >= 1 */
    const double *x;
    const double *y;
} draw_series;

typedef struct {
    const char *title; /* may be NULL */
    const char *x_label;
    const char *y_label;
    bool x_percent;
    bool y_percent;
    bool x_seconds; /* values are durations in seconds: duration ticks ("10 min") */
    bool y_seconds;
    const draw_series *series;
    size_t n_series; /* 1 .. DRAW_CHART_MAX_SERIES */
} draw_chart;

#define DRAW_CHART_MAX_SERIES 12
int draw_chart_svg(const draw_chart *c, draw_look look, buf *svg, buf *alt, char *err, size_t errn);

/* A page's share card: a DRAW_CARD_W x DRAW_CARD_H PNG (light theme) with
 * the site's name, the page's title (at most three lines) and one line of
 * its description (cut with "…" when longer), and board b's wide diagram
 * with notes below them (b NULL: none), appended to png. The same inputs
 * give the same bytes. Returns 0, or -1 with a sentence in err. */
#define DRAW_CARD_W 1200
#define DRAW_CARD_H 630
int draw_card(const char *site_title, const char *title, const char *desc, const bp_board *b,
              const draw_note *notes, size_t n_notes, buf *png, char *err, size_t errn);

/* The advance width in CSS pixels of s in the drawing font (DejaVu Sans) at
 * size_px, as the layout measures it. For tests and callers that size HTML
 * around a figure. */
double draw_text_width(const char *s, double size_px, bool bold);

/* The words a diagram's badge uses for a duplicate-check policy ("ID check
 * in transaction"), for text that must agree with the pictures. */
const char *draw_policy_words(sim_idempotency i);
/* What the answers on link i of board b are called: a broker's answer to a
 * publish is a confirm, else by protocol (ack, reply, response); the same
 * word on the board, its timeline and the settings notes. */
const char *draw_link_reply_word(const bp_board *b, size_t i, bool plural);

/* The version of the library that draws (cairo's, "1.16.0"), for cache
 * keys: another version may draw other bytes. Static string. */
const char *draw_engine_version(void);

/* Release cairo/fontconfig static data (cairo_debug_reset_static_data,
 * FcFini) so valgrind and LeakSanitizer report zero; call once at exit, after
 * the last drawing. */
void draw_shutdown(void);

#endif
