/* site.h — `boardpress build` and `boardpress check`: content/ to a site
 * (SPEC §5, §7). */
#ifndef BP_SITE_H
#define BP_SITE_H

#include <stdbool.h>

/* boardpress's own version: --version and the {{ version }} of templates
 * (the simulator's is SIMCORE_VERSION, named as such where it is shown). */
#define BOARDPRESS_VERSION "0.1.0"

typedef struct {
    const char *content;   /* default "content" */
    const char *templates; /* default "templates" */
    const char *statics;   /* default "static" */
    const char *out;       /* default "public" */
    const char *cache;     /* results cache folder, NULL for none */
    int jobs;              /* simulation threads; <= 0: number of cores */
    bool quiet;            /* no progress or summary on stderr */
    bool write;            /* false for `check`: everything but writing */
    const char *journal;   /* folder of the journal of what boardpress wrote (the cache
                              folder, kept also under --no-cache); NULL: cache */
} site_options;

/* Build (or check) the site. Returns the exit status: 0, 1 bad input, 3 I/O. */
int site_build(const site_options *o);

#endif
