/* build.h — `boardpress build` and `boardpress check`: content/ to a site
 * (pages and their output tree), one stage after another (build.c). */
#ifndef BP_BUILD_H
#define BP_BUILD_H

#include "model/site.h"

/* Build (or check) the site. Returns the exit status: 0, 1 bad input, 3 I/O. */
int site_build(const site_options *o);
/* The same, and, when r is not NULL, what it did into *r (model/site.h;
 * the caller frees it with build_report_free). */
int site_build_report(const site_options *o, build_report *r);

#endif
