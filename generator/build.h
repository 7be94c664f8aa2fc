/* build.h — `boardpress build` and `boardpress check`: content/ to a site
 * (SPEC §5, §7), one stage after another (build.c). */
#ifndef BP_BUILD_H
#define BP_BUILD_H

#include "model/site.h"

/* Build (or check) the site. Returns the exit status: 0, 1 bad input, 3 I/O. */
int site_build(const site_options *o);

#endif
