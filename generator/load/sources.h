/* sources.h — the source folders, checked before a build reads any of
 * them (sources.c). */
#ifndef BP_SOURCES_H
#define BP_SOURCES_H

#include "model/site.h"

#include <stdbool.h>

/* Check s->opt's content, templates and (when writing) static folders:
 * each is a folder, and static/ holds only files and folders without a
 * link that loops. Returns false after reporting; s->no_content says
 * whether the content folder is there to read at all. */
bool sources_check(site *s);

#endif
