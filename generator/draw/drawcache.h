/* drawcache.h — board diagrams, timelines and charts, in all four
 * renderings (wide and narrow, light and dark), kept beside the results cache,
 * so a rebuild after a prose edit neither simulates nor draws. A drawing is
 * stored under a key made of everything that can change it: the program
 * itself (its GNU build ID: any change to the drawing code, or to how
 * boards load, is a new key), the cairo version, the DejaVu font files, the
 * board as loaded (every field but source positions), the result notes on
 * it, the trace of a timeline, or a chart's points. Share cards (PNGs) are
 * kept the same way, under their words and board. Without a build ID
 * nothing is cached. */
#ifndef BP_DRAWCACHE_H
#define BP_DRAWCACHE_H

#include "base/util.h"
#include "draw/draw.h"
#include "model/site.h"

#include <stdbool.h>

/* The key of a board diagram with these notes (and a live board's
 * settings; none: n_live 0). */
void drawcache_key_board(buf *key, const bp_board *b, const draw_note *notes, size_t n_notes,
                         const draw_live *live, size_t n_live);
/* The key of a timeline of this trace. */
void drawcache_key_timeline(buf *key, const bp_board *b, const sim_trace_entry *tr, size_t n);

/* The key of a chart drawn from its points' results (in its point order). */
void drawcache_key_chart(buf *key, const bp_chart *c, const sim_result *const *points, size_t n);

/* The key of a share card: the site's title, the page's title and
 * description, and its board (NULL: none) with the notes it shows. */
void drawcache_key_card(buf *key, const char *site_title, const char *title, const char *desc,
                        const bp_board *b, const draw_note *notes, size_t n_notes);
/* Look a card's PNG up in dir: true and its bytes appended to png when a
 * stored card has exactly this key (always false without a build ID). */
bool drawcache_get_card(const char *dir, const buf *key, buf *png);
/* Store a card's PNG (temporary file, then rename); failures are silent. */
void drawcache_put_card(const char *dir, const buf *key, const void *png, size_t len);

/* Look a drawing up in dir: true and its four SVGs and alt text in fig
 * (the caller frees them: sfigure_free) when a stored drawing has exactly
 * this key. Always false when the program has no build ID. */
bool drawcache_get(const char *dir, const buf *key, sfigure *fig);
/* Store a drawing's four renderings (temporary file, then rename).
 * Failures are silent; a figure missing a rendering is not stored. */
void drawcache_put(const char *dir, const buf *key, const sfigure *fig);

#endif
