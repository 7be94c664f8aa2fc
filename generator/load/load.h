/* load.h — the load stage of a build: content/ into the site model
 * (model/site.h). */
#ifndef BP_LOAD_H
#define BP_LOAD_H

#include "model/site.h"

/* Load the site s->opt names into s, reporting every problem to s->d: the
 * source folders are checked first (sources.h), then the catalog, site.yaml
 * and every page's front matter are read (discover.h, pages on --jobs
 * threads), then the boards, levels and charts the pages list, with every
 * level combination and chart point as a board variant of its own
 * (refs.h); site.yaml's nav and about must name pages, and the pages are
 * put in navigation order (s->order). Nothing of a content folder that is
 * missing is read, and nothing references a file outside it. */
void load_site(site *s);

#endif
