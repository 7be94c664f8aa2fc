/* render_internal.h — what the files of the page renderer share: the state
 * of one page while its placeholders expand (pages.c makes it), the
 * placeholder's words and position, and what the files give each other:
 * pages.c -> expand.c (the placeholder entry) -> compare.c, levels.c (the
 * larger directives) -> directive.c (what every directive uses), notes.c
 * (the page's model note, measured line and results.json). */
#ifndef BP_RENDER_INTERNAL_H
#define BP_RENDER_INTERNAL_H

#include "draw/draw.h"
#include "model/site.h"
#include "render/render.h"

#include <stdbool.h>
#include <stddef.h>

/* The site's Atom feed, at its top (feed.c). */
#define FEED_FILE "feed.xml"
/* The search index the site writes at its top (search.c). */
#define SEARCH_INDEX_FILE "search-index.js"

/* A link of a page's Markdown, where it is written. */
typedef struct {
    char *url;
    int line, col;
} page_link;

/* A part of a page for search: the text under one heading (id "" and no
 * heading: the text before the first). The index keeps the id and the
 * heading; the text only lives until search_page_terms has read it. */
typedef struct {
    char *id, *heading, *text;
} page_section;

/* What a rendered page leaves for the site's own files once every page is
 * done (link checks, search, feed, share cards); one per page, written
 * only by the thread rendering that page. */
typedef struct {
    bool rendered;    /* without errors */
    strset ids;       /* every element id on the page */
    strset files;     /* the files it wrote into its folder (names in it) */
    page_link *links; /* of its Markdown, in order */
    size_t n_links, cap_links;
    page_section *sections;
    size_t n_sections;
    char *terms; /* its terms and their postings, packed (search_page_terms) */
    size_t terms_len;
    bp_variant *first_board; /* the first board it draws (the site's), or NULL */
} page_info;

/* ------------------------------------------------------------ links.c */

/* The md_link_fn of pages: ctx is the page's page_info. */
void links_record(void *ctx, const char *url, int line, int col);
/* Check the links of every page (info: every page's), reporting to s->d. */
void links_check(site *s, const page_info *info);
void page_info_free(page_info *pi);

/* ------------------------------------------------------------ search.c, search_text.c */

/* Tokens longer than this (bytes) are left out of the index. */
#define SEARCH_MAX_TOKEN 40

/* Cut a page's rendered body (html, len bytes) into pi->sections: the text
 * before its first heading with an id (id ""), then one per heading h2-h6
 * with the heading's text; text as a reader sees it (scripts, styles and
 * inline SVG left out, images by their alt text, references decoded,
 * white space folded). Freed by page_info_free. */
void search_sections(page_info *pi, const char *html, size_t len);

/* Tokenise the page's sections (cut by search_sections; the title weighs
 * on the first) into pi->terms, what the index needs of them, and free
 * their text: a page's job does it, so that the index's merge of every
 * page (search_index_js) only appends. */
void search_page_terms(page_info *pi, const char *title);

/* Called with each term of a text: a word (lower case, two or more
 * characters, not a stop word), a number ("1,000.5" gives "1000.5"), and a
 * number with the word or '%' after it ("5 min", "99.9 %"). */
typedef void (*search_token_fn)(void *ctx, const char *term, size_t len);
void search_tokens(const char *text, size_t len, search_token_fn fn, void *ctx);
/* Whether code point cp is part of a word; whether w is a stop word. */
bool search_is_word_cp(unsigned cp);
bool search_is_stopword(const char *w, size_t len);

/* One page for the index: its address from the site's top ("slug/", "" for
 * the home page), title, and its sections and terms (search_page_terms). */
typedef struct {
    const char *url, *title;
    page_info *info;
} search_page;

/* Append the index of pages (search.c's header has the format); each
 * page's terms are freed once they are in (its sections stay). */
void search_index_js(buf *out, const search_page *pages, size_t n_pages);
/* Write SEARCH_INDEX_FILE of every page rendered, in the site's order. */
void search_write(site *s, page_info *info, const render_sink *sink, void *out);

/* ------------------------------------------------------------ cards.c */

/* The share card's file in a page's folder. */
#define CARD_FILE "card.png"
/* Write every page's share card (after all pages rendered), reporting a
 * drawing error at the page; none without base_url, where no page names
 * its card. */
void cards_write(site *s, const page_info *info, const render_sink *sink, void *out);

/* ------------------------------------------------------------ feed.c */

/* Write feed.xml through out (nothing without a sink). */
void feed_write(site *s, const render_sink *sink, void *out);

/* Per-page state while expanding placeholders. */
typedef struct {
    site *s; /* the site's tables, shared by the threads (not its diag: d) */
    diag *d; /* the page's own messages, joined to the site's in page order */
    const bp_page *page;
    page_info *info;         /* what the page leaves for the site's files */
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
    bp_pos *quotes_level; /* per listed level: its first {{ scrub }} or {{ live }} (line 0:
                             none), which needs the level shown */
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

/* What render_scan reads a page with. */
typedef struct {
    const site *s;
    const bp_page *page;
} scan_ctx;
/* The md_expand_fn of render_scan (ctx: a scan_ctx): marks the drawings
 * of the page's boards that the placeholder's directive shows, by the
 * directive table; writes nothing and reports nothing. */
int expand_scan_placeholder(void *ctx, const char *inner, size_t len, int line, int col, bool alone,
                            buf *out, bool *block);

/* The catalog value SECTION.FIELD, or NULL after an error at w that names
 * the nearest section or field ({{ catalog.S.F }}, {{ key-numbers S.F }}). */
const bp_catalog_value *expand_catalog_value(const ph_at *a, const word *w, const char *section,
                                             const char *field);

/* ------------------------------------------------------------ embed.c */

/* After directive's element was appended to out from start: write its
 * embed page, SLUG/embed/ID/index.html (js, live: the element needs the
 * page script, the simulator), and append its "Share" note with the
 * <iframe> snippet. Only boards, compares, levels, timelines and charts. */
void embed_directive(page_ctx *pc, const char *directive, buf *out, size_t start, bool js,
                     bool live);

/* ------------------------------------------------------------ directive.c */

/* The word as a string (caller frees). */
char *expand_word_str(const word *w);
/* Report msg at the word; returns -1. */
int expand_err_word(const ph_at *a, const word *w, const char *msg);
/* Report the message and hint of n at the word; returns -1. */
int expand_err_note(const ph_at *a, const word *w, const diag_note *n);
/* Report "unknown WHAT 'NAME'" with its hint (diag_unknown) at the word;
 * returns -1. */
int expand_err_unknown(const ph_at *a, const word *w, const char *what, const char *name,
                       const char *const *cands, size_t n);
/* Report an id (name) that is none of the page's boards, levels or charts
 * (what: "board", "level", "chart"), with the nearest as a hint; returns -1. */
int expand_err_unlisted(const ph_at *a, const word *w, const char *name, const char *what);
/* Append base, or base-2, base-3... whichever id the page has not used. */
void expand_unique_id(page_ctx *pc, buf *out, const char *base);
/* p[0..n) in base64 (render/live.c), as the page scripts' atob reads it. */
void put_base64(buf *out, const uint8_t *p, size_t n);
/* Width and height from an SVG's root element, for <img> sizes. */
void expand_svg_size(const char *svg, int *w, int *h);
/* The board's figure, its four SVGs written into the page folder as
 * file_stem.svg, file_stem-dark.svg, ... (figure.c), its wide rendering
 * shown from where one wide_w px wide fits (0: its own width). Returns 0
 * or -1 (reported). */
int expand_board_figure(page_ctx *pc, bp_variant *b, const ph_at *a, const char *file_stem,
                        int wide_w, buf *out);
/* The goal as words: "none allowed", "under 40 s", "at least 99%". */
void expand_goal_text(buf *b, sim_measure m, const sim_goal *g);

/* The board, level or chart with this id among the page's (NULL when not
 * listed); what is found counts as shown on the page. */
bp_variant *expand_page_board(page_ctx *pc, const char *id);
slevel *expand_page_level(page_ctx *pc, const char *id);
schart *expand_page_chart(page_ctx *pc, const char *id);
/* Write a file into the page's folder, once per page. Returns 0 or -1. */
int expand_page_file(page_ctx *pc, const char *name, const char *data);

/* ------------------------------------------------------------ figure.c */

/* What the page takes from the viewport's width around a figure: the
 * figure column is the viewport less FIG_PAGE_INSET (static/boardpress.css
 * --wide, 100vw - 3rem); a level's padding and border take FIG_LEVEL_INSET
 * more (.bp-level). The stylesheet's numbers and these must agree (the
 * browser test measures every drawing's text on the real pages). */
#define FIG_PAGE_INSET 48
#define FIG_LEVEL_INSET 42
/* The inline form's steps (the bp-fit-N classes boardpress.css knows: 320,
 * 336, ... 1280; a wider drawing's class matches no rule and stays narrow). */
#define FIG_FIT_MIN 320
#define FIG_FIT_STEP 16
#define FIG_FIT_MAX 1280

/* A drawing to put on the page. */
typedef struct {
    const sfigure *fig;    /* its four renderings and alt text */
    const char *stem;      /* its files: stem + draw_look_suffix + ".svg" */
    const char *cls;       /* class of the <img> (inline: of each rendering's box) */
    int inset;             /* px its box takes beyond the page's (FIG_LEVEL_INSET in a level) */
    int wide_w;            /* width the wide rendering is shown from (0: its own; a level: its
                              widest, so every combination switches at the same width) */
    bool inline_svg;       /* the SVGs in the page, for a script to change (else <picture>) */
    const char *id_prefix; /* inline: what the SVGs' ids start with, unique on the page */
} fig_spec;

/* The viewport width from which a wide drawing wide_w px wide is shown. */
int figure_breakpoint(int wide_w, int inset);
/* The file of one rendering: stem + draw_look_suffix + ".svg" (caller frees). */
char *figure_file(const char *stem, draw_look look);
/* A rendering's size on the page (its <img> or <source> width and height):
 * its own for a wide one; a narrow one scaled up to DRAW_NARROW_SHOW_MAX,
 * which the stylesheet narrows to the column (max-width: 100%), so it
 * fills the column of any phone. */
void figure_size(const char *svg, draw_look look, int *w, int *h);
/* Append the figure's markup: a <picture> of its four files, or (inline)
 * the four SVGs in boxes the stylesheet switches. */
void figure_markup(buf *out, const fig_spec *f);
/* Write a figure's four files into the page folder. Returns 0 or -1. */
int expand_figure_files(page_ctx *pc, const char *stem, const sfigure *fig);
/* A timeline figure's attributes for the page's stepper (static/
 * boardpress.js): data-rows, each row's time and words, '|' between;
 * data-events, per trace entry the row that shows it (-1: none). The
 * same numbers as the drawing's data-row. Nothing when it cannot say. */
void figure_timeline_rows(buf *out, const bp_board *b, const sim_trace_entry *tr, size_t n);
/* Both: the files (unless inline), then the markup. Returns 0 or -1. */
int expand_figure(page_ctx *pc, const fig_spec *f, buf *out);

/* ------------------------------------------------------------ the other directives */

/* {{ compare A B ... }}, {{ key-numbers }} (compare.c) and {{ level ID }}
 * (levels.c): w[0..n) are the placeholder's words. Return 0, or -1 after
 * reporting. */
int expand_compare(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);
int expand_key_numbers(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);
int expand_level(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);
/* {{ proof ID }} (proof.c): what the board's `never` claim proved. */
int expand_proof(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);
/* {{ counterexample ID }} (proof.c): the shortest run of a sometimes-claim. */
int expand_counterexample(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);
/* The board of {{ DIRECTIVE ID }} (proof, counterexample: the claim it
 * needs is never, sometimes), proved; else NULL after reporting. */
bp_variant *proof_board(page_ctx *pc, const ph_at *a, word *w, size_t n, const char *directive);
/* The faults a proof of board b chooses: "lost messages, crashes or
 * failures" (nothing when none); the sentence of what a proof of jobs and
 * faults covers and what not. */
void proof_fault_kinds(buf *out, const bp_board *b);
void proof_scope(buf *out, const bp_board *b, int jobs, int faults);
/* "The board as it starts: CHOICE: OPTION; ..." for a level whose choices
 * start at opts (levels.c; live.c writes the same under its controls). */
void expand_level_start(buf *out, const bp_level *l, const int *opts);
/* A level's <section> with its unique id, data-level and title; classes
 * (" bp-toggle", " bp-live-level ...") follow "bp-level". */
void expand_level_open(page_ctx *pc, buf *out, const bp_level *l, const char *classes);
/* A level's goals table rows (json: the entries of its page data
 * instead), each goal's measured mean and verdict; live marks them for the
 * page script (data-measure, data-goal). And its status line, "Level
 * complete" or how many goals it misses (levels.c). */
/* What page p calls measure m (page_measure_label), as a table's row
 * heading: HTML-escaped, its first letter a capital ("Dead-lettered"). */
void expand_put_label(buf *out, const bp_page *p, sim_measure m);
void expand_level_goal_rows(buf *out, const bp_variant *b, const bp_level *l, const bp_page *p,
                            bool json, bool live);
void expand_level_status(buf *out, const bp_variant *b);
/* What a level's measured numbers are, as their column's head: "Per run,
 * on average" when b ran more than once (a count of 99.1 is a mean),
 * else "Measured". And the goals table's opening up to its body, with
 * that head. */
const char *expand_level_measured(const bp_variant *b);
void expand_level_goals_head(buf *out, const bp_variant *b);
/* {{ level ID }} for a live level (live.c): sliders, the diagrams inline
 * for the script to rewrite, the wire bytes. */
int expand_live_level(page_ctx *pc, const ph_at *a, slevel *sl, buf *out);
/* {{ scrub LEVEL.SETTING }} and {{ live LEVEL.MEASURE }}: a live level's
 * slider and a number it shows, inside a sentence (live.c). */
int expand_scrub(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);
int expand_live_value(page_ctx *pc, const ph_at *a, word *w, size_t n, buf *out);

/* ------------------------------------------------------------ numbers.c */

/* A fault count as a rate with its exact interval: "0 in 10,000 jobs (at
 * most 3 per 10,000 at 95 %)". */
void numbers_rate(buf *out, const sim_rate *rt, const char *nouns);
/* After the block that holds the page body's first number in a notation
 * ("0 (at most 0.15 at 95 %)", "112 ± 6.8", a run-by-run difference), a
 * note that explains the forms the page uses (notation.c); about_url: the
 * About page, or NULL. */
void notation_note(buf *body, const char *about_url);
/* 0 with the board's rate of m in *rt when that rate is what to quote
 * (sim_rate.preferred), else -1. */
int numbers_preferred_rate(const bp_variant *b, sim_measure m, sim_rate *rt);
/* The mean with its 95% interval in the mean's unit: "243.1 ± 9.1", or for
 * a rare count the exact interval "0 (at most 0.15 at 95 %)". */
void numbers_ci(buf *out, const bp_variant *b, sim_measure m);
/* How an interval ends, "at 95 %", its "95 %" joined by a no-break space
 * (U+00A0) so that a narrow cell never wraps the 95 away from its %. */
#define NUMBERS_AT95 "at 95\xc2\xa0%"
/* A paired difference: "+104.7 ± 4.4", "−1 in every run". */
void numbers_diff(buf *out, sim_measure m, const sim_stat *d);
/* The paired differences b − a over the same runs. Returns 0, or -1 with a
 * sentence in why when the two did not run on the same streams. */
int numbers_pair(const bp_variant *a, const bp_variant *b, sim_stat diff[SIM_M_COUNT], char *why,
                 size_t n);
/* " (the slowest of 20 jobs)" after a p99 taken from fewer than 100 jobs. */
void numbers_p99_note(buf *out, const bp_variant *b, sim_measure m);

/* ------------------------------------------------------------ notes.c */

/* "How these numbers were measured" (HTML; nothing for a page without
 * boards, levels or charts): the date and simulator version, the set-up
 * the page's boards share said once, a table of each board's seed, the
 * runs the simulator made and what it changes from that set-up, and the
 * model note in a <details>. */
void expand_measured(page_ctx *pc, buf *out);
/* Append a board's results object to the page's results.json (once). */
void expand_results_board(page_ctx *pc, const char *key, const bp_variant *b);
/* Write the page's results.json, when it has results. Returns 0 or -1. */
int expand_results_file(page_ctx *pc);

#endif
