/* fuzz_wire.c — the board encoding the WebAssembly module decodes from a
 * page (sim-core/wire.c), fed hostile bytes the way bp_run receives them.
 * Bytes that decode encode back to themselves (one encoding per value);
 * bytes that do not get a sentence. A decoded board that passes
 * sim_board_check within small limits runs, and its results encode. */
#include "fuzz_common.h"
#include "simcore.h"
#include "wire.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_wire_request req;
    char msg[512];
    if (sim_wire_decode(data, size, &req, msg, sizeof msg) != 0) {
        FUZZ_ASSERT(msg[0] != '\0');
        return 0;
    }
    const sim_board *b = &req.board;
    size_t n = sim_wire_encode(b, &req.limits, req.want_trace, NULL, 0);
    FUZZ_ASSERT(n == size);
    uint8_t *again = xmalloc(n);
    FUZZ_ASSERT(sim_wire_encode(b, &req.limits, req.want_trace, again, n) == n);
    FUZZ_ASSERT(memcmp(again, data, n) == 0);
    free(again);

    /* Run what the limits allow, tightened so one input stays quick. */
    sim_limits lim = req.limits;
    if (lim.max_jobs < 0 || lim.max_jobs > 200)
        lim.max_jobs = 200;
    if (lim.max_events < 0 || lim.max_events > 20000)
        lim.max_events = 20000;
    if (lim.max_board_events < 0 || lim.max_board_events > 40000)
        lim.max_board_events = 40000;
    if (lim.max_replications > 3)
        lim.max_replications = 3;
    if (lim.max_trace > 500)
        lim.max_trace = 500;
    int link = 0;
    if (sim_board_check(b, &lim, msg, sizeof msg, &link) == -1) {
        FUZZ_ASSERT(link == -1);
        sim_result r;
        if (sim_run(b, &lim, req.want_trace, &r, msg, sizeof msg) == 0) {
            FUZZ_ASSERT(r.n_trace <= lim.max_trace);
            size_t rn = sim_wire_result_encode(&r, NULL, 0);
            uint8_t *out = xmalloc(rn);
            FUZZ_ASSERT(sim_wire_result_encode(&r, out, rn) == rn);
            free(out);
            sim_result_free(&r);
        } else {
            FUZZ_ASSERT(msg[0] != '\0');
        }
    } else {
        FUZZ_ASSERT(msg[0] != '\0');
    }
    sim_wire_request_free(&req);
    return 0;
}
