/* module.c — sim-core as a WebAssembly module with no imports. The page
 * copies a board's wire bytes (WIRE.md) into the module's memory, runs it,
 * and reads the results encoding back; generator/web/bp-sim.js does this.
 * Unlike sim-core itself, the module keeps state between calls: the last
 * result and the last error, owned here until the next run. */
#include "heap.h"
#include "proof.h"
#include "wire.h"

#include <stdio.h>
#include <stdlib.h>

#define EXPORT(name) __attribute__((export_name(#name)))

enum {
    BP_OK = 0,
    BP_BAD_BYTES = 1, /* not a well-formed board encoding of this version */
    BP_BAD_BOARD = 2, /* sim_board_check refused the board */
    BP_RUN_FAILED = 3 /* a limit was hit, or memory ran out */
};

static uint8_t *result;
static size_t result_len;
static char error[512];
static int error_code;

/* n bytes for the caller (at least one), or 0 when memory runs out. */
EXPORT(bp_alloc) void *bp_alloc(size_t n);
void *bp_alloc(size_t n)
{
    return malloc(n ? n : 1);
}

EXPORT(bp_free) void bp_free(void *p);
void bp_free(void *p)
{
    free(p);
}

static uint8_t *fail(int code)
{
    error_code = code;
    return NULL;
}

/* Run the board encoded in wire[0..len): sampled, or with choices (n_choices
 * of them, one byte each) its random choices taken from that list instead
 * (sim_run_choices): a proof's counterexample again, event for event.
 * Returns the results encoding (bp_result_len bytes; valid until the next
 * bp_run), or 0 with bp_error_code and bp_error set. The caller keeps and
 * frees wire and choices; a caller that passes two arguments samples. */
EXPORT(bp_run) uint8_t *bp_run(const uint8_t *wire, size_t len, const uint8_t *choices,
                               size_t n_choices);
uint8_t *bp_run(const uint8_t *wire, size_t len, const uint8_t *choices, size_t n_choices)
{
    free(result);
    result = NULL;
    result_len = 0;
    error[0] = '\0';
    error_code = BP_OK;
    sim_wire_request req;
    if (sim_wire_decode(wire, len, &req, error, sizeof error) != 0)
        return fail(BP_BAD_BYTES);
    sim_result r;
    int code = BP_OK;
    if (sim_board_check(&req.board, &req.limits, error, sizeof error, NULL) != -1)
        code = BP_BAD_BOARD;
    else if (sim_run_choices(&req.board, &req.limits, req.want_trace, choices, n_choices, &r, error,
                             sizeof error) != 0)
        code = BP_RUN_FAILED;
    sim_wire_request_free(&req);
    if (code != BP_OK)
        return fail(code);
    size_t n = sim_wire_result_encode(&r, NULL, 0);
    result = malloc(n);
    if (result) {
        result_len = sim_wire_result_encode(&r, result, n);
    } else {
        snprintf(error, sizeof error, "not enough memory for the results (%zu bytes)", n);
        code = BP_RUN_FAILED;
    }
    sim_result_free(&r);
    return code == BP_OK ? result : fail(code);
}

EXPORT(bp_result_len) size_t bp_result_len(void);
size_t bp_result_len(void)
{
    return result_len;
}

/* The last failure's sentence, NUL-terminated ("" after a success). */
EXPORT(bp_error) const char *bp_error(void);
const char *bp_error(void)
{
    return error;
}

EXPORT(bp_error_code) int bp_error_code(void);
int bp_error_code(void)
{
    return error_code;
}

EXPORT(bp_wire_version) unsigned bp_wire_version(void);
unsigned bp_wire_version(void)
{
    return (unsigned)sim_wire_version();
}

EXPORT(bp_result_version) int bp_result_version(void);
int bp_result_version(void)
{
    return SIM_WIRE_RESULT_VERSION;
}

/* Bytes the module's allocator has handed out and not had back: the same
 * before and after a run, or something leaks. */
EXPORT(bp_heap_in_use) size_t bp_heap_in_use(void);
size_t bp_heap_in_use(void)
{
    return heap_in_use();
}
