/* assets.h — the files boardpress writes into static/ of a site that has
 * live boards (docs/levels.md "Live levels"): the simulator compiled to
 * WebAssembly (build/wasm/simcore.wasm) and the scripts of generator/web/.
 * The Makefile compiles them into the program (generator/web/embed.sh), so
 * a build needs nothing beside the binary, wherever it is installed, and
 * the module always reads the wire format this program writes. */
#ifndef BP_ASSETS_H
#define BP_ASSETS_H

#include <stddef.h>

typedef struct {
    const char *name; /* the file's name in static/: "simcore.wasm", "bp-sim.js" */
    const unsigned char *data;
    size_t len;
} bp_asset;

extern const bp_asset bp_live_assets[];
extern const size_t bp_live_assets_n;

#endif
