/* discover.h — the pages of the content folder and their order
 * (discover.c). */
#ifndef BP_DISCOVER_H
#define BP_DISCOVER_H

#include "model/site.h"

/* Every page file of the content folder into s->pages, its front matter
 * read on --jobs threads, sorted by order and slug; messages in file name
 * order, duplicate slugs and the slug 'static' reported. */
void discover_pages(site *s);

/* The pages in navigation order into s->order (site.yaml's nav first, then
 * the rest by order and slug; each page's nav_pos), and how many of them
 * the nav lists (s->n_nav_items). */
void discover_nav_order(site *s);

#endif
