/* wire.h — the simulator's two binary exchange formats (sim-core/WIRE.md):
 * a resolved board as sim_run receives it (with its limits and whether to
 * keep a trace) in compact bytes, and a run's results in a fixed
 * little-endian layout. Doubles travel as their IEEE-754 bits, so a board
 * encoded by the generator and run in the WebAssembly module gives the same
 * bits as the native build. No I/O, no globals, no allocation but the
 * decoder's. */
#ifndef SIM_WIRE_H
#define SIM_WIRE_H

#include "simcore.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_WIRE_RESULT_VERSION 4 /* the results encoding; bump on any change */

/* The board encoding's version, derived from schema.h's lists (their wire
 * types, order and enums' numbers of values): 6 for the fields as they were
 * when versions were numbered by hand, else a hash with its top bit set.
 * The build and the module compute the same from the same rows. */
uint64_t sim_wire_version(void);

/* What one run needs: the board, its limits and whether to keep a trace. */
typedef struct {
    sim_board board;
    sim_limits limits;
    bool want_trace;
} sim_wire_request;

/* Encode a board, its limits (NULL: sim_limits_default()) and want_trace.
 * Writes at most cap bytes into out (out may be NULL when cap is 0) and
 * returns the length of the whole encoding, like snprintf: call it with
 * cap 0 to size the buffer. The board's arrays must be valid for their
 * counts (as sim_run expects); any values are encoded as they are. */
size_t sim_wire_encode(const sim_board *b, const sim_limits *lim, bool want_trace, uint8_t *out,
                       size_t cap);

/* sim_wire_encode's bytes with every id (the board's, each part's) written
 * as absent: all that decides a run's result, and nothing that does not
 * (the results cache's key, generator/run/cache.c). */
size_t sim_wire_encode_blank(const sim_board *b, const sim_limits *lim, bool want_trace,
                             uint8_t *out, size_t cap);

/* Decode len bytes into req. Returns 0, and req owns the board's arrays and
 * strings (free with sim_wire_request_free); or -1 with a sentence in msg
 * (size n) when the bytes are not a well-formed encoding of this version,
 * and req holds nothing to free. Checks the form only (lengths, ranges of
 * enums, ints and counts, exact length, one encoding per value); whether
 * the board can run is sim_board_check's job. Never reads outside the bytes
 * and allocates at most a small multiple of len. */
int sim_wire_decode(const uint8_t *in, size_t len, sim_wire_request *req, char *msg, size_t n);

/* Free what sim_wire_decode allocated; NULL and an emptied request are no-ops. */
void sim_wire_request_free(sim_wire_request *req);

/* Encode a result (measures, goals, flags and the trace, if any) in the
 * fixed layout of WIRE.md. Writes at most cap bytes into out (out may be
 * NULL when cap is 0) and returns the whole length, like snprintf. */
size_t sim_wire_result_encode(const sim_result *r, uint8_t *out, size_t cap);

#endif
