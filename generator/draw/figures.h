/* figures.h — the draw stage: every drawing the site's pages can show,
 * made from the site model after the simulations and before the pages
 * render, on --jobs threads, and kept on the model: a board's diagram with
 * its measured numbers (a live level's variants with their settings
 * marked), a small board's timeline, the timeline of a proof's shortest
 * counterexample, a chart of its points. Each is taken from the drawing
 * cache (drawcache.h) when an earlier build made it from the same inputs,
 * and stored there when it is new. The renderer only reads them. */
#ifndef BP_FIGURES_H
#define BP_FIGURES_H

#include "draw/draw.h"
#include "model/site.h"

/* Draw everything the pages list (their boards, levels and charts) can
 * show, a board's diagram and timeline only when a page's directive shows
 * them (render_scan marks them first), each in all four looks, into the sfigure beside its sdrawn
 * (site.h). A drawing that fails reports nothing here: the page that shows
 * it does (figure_board and the rest), so one never shown costs no error.
 * Counts the failures into s->draw_failures. */
void draw_site(site *s);

/* What a page calls before it shows board b's diagram (b->fig), its
 * timeline (b->tl), the counterexample of its proof (b->cx), a live
 * level's variant (figure_board_live) or a chart (sc->fig): 0 when the
 * draw stage made it, else -1, and the first page (in page order) to ask
 * reports why to d (the page's messages) at path:line:col (a chart: at
 * its own file). */
int figure_board(diag *d, bp_variant *b, const char *path, int line, int col);
int figure_board_live(diag *d, bp_variant *b, const char *path, int line, int col);
int figure_timeline(diag *d, bp_variant *b, const char *path, int line, int col);
int figure_counterexample(diag *d, bp_variant *b, const char *path, int line, int col);
int figure_chart(diag *d, schart *sc);

/* A page's share card (draw_card): the site's title, the page's title and
 * description, and board b (NULL: none) with the notes its figure has,
 * appended to png: from the drawing cache when an earlier build drew it
 * from the same inputs, else drawn and stored there. Returns 0, or -1 with
 * a sentence in err. Cards show a page's first board, known once the page
 * rendered: render/cards.c draws them then, on --jobs threads. */
int figure_card(const site *s, const bp_variant *b, const char *title, const char *desc, buf *png,
                char *err, size_t errn);

#endif
