/* watch.h — `boardpress watch`: build, then rebuild whenever a file under the
 * content, templates or static folder changes (inotify), one line per
 * rebuild. A failed rebuild leaves the last good site in place. */
#ifndef BP_WATCH_H
#define BP_WATCH_H

#include "model/site.h"

/* Build with build(o), then again on every change, until interrupted (or
 * until max_rebuilds rebuilds, when > 0, for tests). The build comes from
 * the caller (site_build), so the preview knows no stage of it. Returns an
 * exit status. */
int watch_run(const site_options *o, int (*build)(const site_options *o), int max_rebuilds);

#endif
