/* drawcache.h — board diagrams, timelines and charts, in all four
 * renderings (wide and narrow, light and dark), kept beside the results cache,
 * so a rebuild after a prose edit neither simulates nor draws. A drawing is
 * stored under a key made of everything that can change it: the program
 * itself (its GNU build ID: any change to the drawing code, or to how
 * boards load, is a new key), the cairo version, the DejaVu font files, the
 * board as loaded (every field but source positions), the result notes on
 * it, the trace of a timeline, or a chart's points. Without a build ID
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

/* Look a drawing up in dir: true and its four SVGs and alt text in fig
 * (the caller frees them: sfigure_free) when a stored drawing has exactly
 * this key. Always false when the program has no build ID. */
bool drawcache_get(const char *dir, const buf *key, sfigure *fig);
/* Store a drawing's four renderings (temporary file, then rename).
 * Failures are silent; a figure missing a rendering is not stored. */
void drawcache_put(const char *dir, const buf *key, const sfigure *fig);

#endif
