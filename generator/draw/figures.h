/* figures.h — the drawings a site's pages show, made from the site model on
 * first use and kept on it: a board's diagram with its measured numbers, a
 * small board's timeline, a chart of its points. Each is taken from the
 * drawing cache (drawcache.h) when an earlier build made it from the same
 * inputs, and stored there when it is new. */
#ifndef BP_FIGURES_H
#define BP_FIGURES_H

#include "draw/draw.h"
#include "model/site.h"

/* Draw board b's diagram (b->fig) or its timeline (b->tl), in every look,
 * once; later calls give the first one's outcome. Returns 0, or
 * -1 after reporting at path:line:col (where a page shows it). */
int figure_board(site *s, sboard *b, const char *path, int line, int col);
int figure_timeline(site *s, sboard *b, const char *path, int line, int col);
/* The timeline of the shortest counterexample of b's proof (b->cx). */
int figure_counterexample(site *s, sboard *b, const char *path, int line, int col);
/* The diagram of a live level's variant (draw_board_live): its notes name
 * their measures for the page to rewrite (a sandbox, without goals, notes
 * the measures it counts), live are the settings the reader changes. */
int figure_board_live(site *s, sboard *b, const sim_measure *counted, size_t n_counted,
                      const draw_live *live, size_t n_live, const char *path, int line, int col);

/* A page's share card (draw_card): the site's title, the page's title and
 * description, and board b (NULL: none) with the notes its figure has,
 * appended to png. Returns 0, or -1 with a sentence in err. */
int figure_card(const site *s, const sboard *b, const char *title, const char *desc, buf *png,
                char *err, size_t errn);

/* Draw a chart (sc->fig, every look) from its points' results once. Returns 0,
 * or -1 after reporting at the chart file. */
int figure_chart(site *s, schart *sc);

/* Charts drawn by an earlier build from the same points are put in place
 * before the pages render (figure_from_cache), the new ones stored after
 * (figure_to_cache). Board diagrams and timelines go through the cache as
 * they are drawn. Both do nothing without a cache folder. */
void figure_from_cache(site *s);
void figure_to_cache(site *s);

#endif
