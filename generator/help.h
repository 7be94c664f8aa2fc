/* help.h — the author's reference (boardpress help, docs/boards.md): every
 * board key, part kind, protocol, measure and directive, read from the
 * tables the loader, the simulator and the renderer use. */
#ifndef BP_HELP_H
#define BP_HELP_H

#include "base/util.h"
#include "model/site.h"

#include <stddef.h>

/* The whole board reference as Markdown (docs/boards.md). cat gives each
 * key's default and the source of that default; NULL leaves them out. */
void help_reference(buf *out, const bp_catalog *cat);

/* The names that have no line of explanation in the reference ("part key
 * 'fail'", "measure 'dead_lettered'"), one per line into out. Returns how
 * many: 0 when the reference covers every row of every table. */
size_t help_missing(buf *out);

/* boardpress help [board | part KIND | measure NAME | directive NAME]
 * [--markdown] [--catalog FILE]: prints the reference (or one entry of it)
 * on stdout. Returns the exit status. */
int help_main(int argc, char **argv);

#endif
