/* cards.c — every page's share card, SLUG/card.png (card.png for the home
 * page): the picture a link preview shows, drawn once all pages rendered
 * (a page's first board is known by then), on --jobs threads a batch at a
 * time, and written and reported in page order. The og: and twitter: tags
 * that name it are in the templates (card_url), given only with base_url;
 * without one nothing names a card, and none is drawn (about 10 ms of CPU
 * each: 10 s on a site of 1,000 pages). */
#include "base/spans.h"
#include "draw/figures.h"
#include "render/render_internal.h"

#include <stdlib.h>

/* Cards drawn at once, before they are written: what a batch keeps in
 * memory is this many PNGs. */
#define CARDS_AT_ONCE 64

typedef struct {
    const bp_page *p; /* NULL: the default home page */
    const bp_variant *b; /* its first board, or NULL */
    const char *summary;
    buf png;
    int rc;
    char err[256];
} card_job;

typedef struct {
    const site *s;
    card_job *jobs;
} card_batch;

static void card_draw(void *ctx, size_t i)
{
    card_batch *q = ctx;
    card_job *j = &q->jobs[i];
    double t0 = spans_now();
    j->rc = figure_card(q->s, j->b, j->p ? j->p->title : q->s->cfg.title, j->summary, &j->png,
                        j->err, sizeof j->err);
    span_add("card", j->p ? j->p->path : "the default home page", t0);
}

/* Write (or report) a drawn card. */
static void card_write(site *s, card_job *j, const render_sink *sink, void *out)
{
    const bp_page *p = j->p;
    if (j->rc != 0) {
        diag_error(&s->d, p ? p->path : "site.yaml", 0, 0, "cannot draw the page's share card: %s",
                   j->err);
    } else {
        char *rel =
            !p || p->is_home ? xasprintf("%s", CARD_FILE) : xasprintf("%s/%s", p->slug, CARD_FILE);
        sink->write(out, rel, j->png.data, j->png.len, &s->d);
        free(rel);
    }
    buf_free(&j->png);
}

void cards_write(site *s, const page_info *info, const render_sink *sink, void *out)
{
    if (!sink || !s->cfg.base_url[0])
        return;
    bool home = false;
    for (size_t i = 0; i < s->n_pages; i++)
        home |= s->pages[i]->is_home;
    size_t n = s->n_pages + (home ? 0 : 1); /* the default home page, a list of the pages */
    card_job *jobs = xcalloc(CARDS_AT_ONCE, sizeof *jobs);
    card_batch q = {s, jobs};
    for (size_t at = 0; at < n; at += CARDS_AT_ONCE) {
        size_t k = n - at < CARDS_AT_ONCE ? n - at : CARDS_AT_ONCE;
        for (size_t i = 0; i < k; i++) {
            size_t pi = at + i;
            card_job *j = &jobs[i];
            *j = (card_job){0};
            buf_init(&j->png);
            if (pi < s->n_pages) {
                j->p = s->pages[pi];
                j->b = info[pi].first_board;
                j->summary = j->p->summary ? j->p->summary : s->cfg.description;
            } else {
                j->summary = s->cfg.description;
            }
        }
        threads_for_each(s->opt.jobs, k, k, card_draw, NULL, &q);
        for (size_t i = 0; i < k; i++)
            card_write(s, &jobs[i], sink, out);
    }
    free(jobs);
}
