/* cards.c — every page's share card, SLUG/card.png (card.png for the home
 * page): the picture a link preview shows, drawn once all pages rendered
 * (a page's first board is known by then). The og: and twitter: tags that
 * name it are in the templates (card_url), given only with base_url. */
#include "draw/figures.h"
#include "render/render_internal.h"

#include <stdlib.h>

static void card_one(site *s, const bp_page *p, const sboard *b, const char *summary,
                     const render_sink *sink, void *out)
{
    buf png;
    buf_init(&png);
    char err[256];
    const char *title = p ? p->title : s->cfg.title;
    const char *path = p ? p->path : "site.yaml";
    if (figure_card(s, b, title, summary, &png, err, sizeof err) != 0) {
        diag_error(&s->d, path, 0, 0, "cannot draw the page's share card: %s", err);
    } else if (sink) {
        char *rel =
            !p || p->is_home ? xasprintf("%s", CARD_FILE) : xasprintf("%s/%s", p->slug, CARD_FILE);
        sink->write(out, rel, png.data, png.len, &s->d);
        free(rel);
    }
    buf_free(&png);
}

void cards_write(site *s, const page_info *info, const render_sink *sink, void *out)
{
    if (!sink)
        return;
    bool home = false;
    for (size_t i = 0; i < s->n_pages; i++) {
        const bp_page *p = s->pages[i];
        home |= p->is_home;
        card_one(s, p, info[i].first_board, p->summary ? p->summary : s->cfg.description, sink,
                 out);
    }
    if (!home) /* the default home page, a list of the pages */
        card_one(s, NULL, NULL, s->cfg.description, sink, out);
}
