/* prove.c — `boardpress prove BOARD.yaml [--jobs N] [--faults K]`: load
 * the board, prove its claim (sim-core/proof.h) and print what was proved,
 * with the shortest counterexample's events when it does not hold. */
#include "prove.h"

#include "load/board.h"
#include "run/results.h"
#include "base/diag.h"
#include "base/fmt.h"
#include "base/util.h"
#include "proof.h"
#include "wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int usage(const char *msg, const char *arg)
{
    fprintf(stderr,
            "boardpress: error: %s%s%s\n"
            "usage: boardpress prove BOARD.yaml [--jobs N] [--faults K] [--never MEASURE | "
            "--sometimes MEASURE] [--catalog FILE]\n",
            msg, arg ? " " : "", arg ? arg : "");
    return 2;
}

static int number(const char *v, int lo, int hi)
{
    char *end;
    long n = strtol(v, &end, 10);
    return *v && *end == '\0' && n >= lo && n <= hi ? (int)n : -1;
}

/* The claim a board makes without one on the command line: its first goal
 * of at most 0 on a fault count ("never"). */
static int claim_of_goals(const bp_board *b)
{
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const sim_goal *g = &b->sim.goals[m];
        if (g->has_max && g->max == 0 && sim_measure_rate_kind((sim_measure)m) != SIM_RATE_NONE &&
            sim_measure_on(&b->sim, (sim_measure)m))
            return m;
    }
    return -1;
}

static void proof_json(buf *out, const bp_board *b, const sim_prove_opts *o, const sim_proof *p,
                       double seconds)
{
    buf_puts(out, "{\"board\":\"");
    buf_json_str(out, b->id, strlen(b->id));
    buf_putc(out, '"');
    buf_printf(out, ",\"holds\":%s,\"claim\":\"%s\",\"measure\":\"%s\"",
               p->holds ? "true" : "false", o->sometimes ? "sometimes" : "never",
               sim_measure_name(o->measure));
    buf_printf(out,
               ",\"jobs\":%d,\"faults\":%d,\"runs\":%lld,\"events\":%lld,\"seconds\":", p->jobs,
               p->faults, (long long)p->runs, (long long)p->events);
    fmt_json_number(out, seconds);
    /* what the budget predicted before the proof ran (sim_prove_estimate) */
    buf_printf(out, ",\"estimate\":%lld", (long long)p->estimate);
    if (o->brute) /* every run made, beyond the fault bound too */
        buf_printf(out, ",\"executions\":%lld", (long long)p->executions);
    if (p->found) {
        buf_puts(out, o->sometimes ? ",\"witness\":" : ",\"counterexample\":");
        buf_printf(out, "{\"faults\":%d,\"value\":", p->cx_faults);
        fmt_json_number(out, p->cx_value);
        buf_puts(out, ",\"choices\":\"");
        for (size_t i = 0; i < p->n_choices; i++)
            buf_putc(out, (char)('0' + p->choices[i]));
        buf_puts(out, "\",\"events\":");
        results_trace_json(out, b, p->trace, p->n_trace);
        buf_putc(out, '}');
    }
    buf_puts(out, "}\n");
}

/* The bytes of board b (with a trace; NULL: of result r) as the WebAssembly
 * module reads (returns) them, sim-core/WIRE.md. */
static void write_wire(const sim_board *b, const sim_limits *lim, const sim_result *r)
{
    size_t n = b ? sim_wire_encode(b, lim, true, NULL, 0) : sim_wire_result_encode(r, NULL, 0);
    uint8_t *bytes = xmalloc(n);
    if (b)
        sim_wire_encode(b, lim, true, bytes, n);
    else
        sim_wire_result_encode(r, bytes, n);
    fwrite(bytes, 1, n, stdout);
    free(bytes);
}

int prove_main(int argc, char **argv)
{
    const char *path = NULL, *catalog_path = "content/catalog.yaml", *claim = NULL;
    sim_prove_opts o = {0, false, 3, 2, 0, false, false};
    bool jobs_given = false, faults_given = false;
    int wire = 0; /* 1: --wire, 2: --wire-result */
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-') {
            if (path)
                return usage("prove takes one board file, found another:", a);
            path = a;
            continue;
        }
        if (strcmp(a, "--brute-force") == 0) { /* make bench: the enumeration without pruning */
            o.brute = true;
            continue;
        }
        /* tests/run-prove.sh: every run replayed to its end, to compare */
        if (strcmp(a, "--every-run") == 0) {
            o.plain = true;
            continue;
        }
        /* tests/run-wasm.sh: the proof's board as the WebAssembly module
         * reads it, and the counterexample's run as it returns it */
        if (strcmp(a, "--wire") == 0 || strcmp(a, "--wire-result") == 0) {
            wire = a[6] ? 2 : 1;
            continue;
        }
        if (strcmp(a, "--jobs") && strcmp(a, "--faults") && strcmp(a, "--never") &&
            strcmp(a, "--sometimes") && strcmp(a, "--catalog"))
            return usage("unknown option", a);
        if (i + 1 >= argc)
            return usage("missing value after", a);
        const char *v = argv[++i];
        jobs_given |= strcmp(a, "--jobs") == 0;
        faults_given |= strcmp(a, "--faults") == 0;
        if (strcmp(a, "--jobs") == 0 && (o.jobs = number(v, 1, SIM_PROVE_MAX_JOBS)) < 0)
            return usage("--jobs takes a number from 1 to 8, found", v);
        if (strcmp(a, "--faults") == 0 && (o.faults = number(v, 0, SIM_PROVE_MAX_FAULTS)) < 0)
            return usage("--faults takes a number from 0 to 6, found", v);
        if (strcmp(a, "--catalog") == 0)
            catalog_path = v;
        if (a[2] == 'n' || a[2] == 's') {
            claim = v;
            o.sometimes = a[2] == 's';
        }
    }
    if (!path)
        return usage("prove needs a board file", NULL);
    if (claim && sim_measure_from_name(claim) < 0)
        return usage("unknown measure", claim);

    diag d;
    diag_init(&d, stderr);
    sim_limits lim = sim_limits_default();
    bp_catalog *cat = catalog_load(catalog_path, &d);
    ynode *root = cat ? yaml_load(path, "board", &d) : NULL;
    bp_board *b = root ? board_from_tree(path, root, cat, &lim, &d) : NULL;
    if (b) {
        /* without --never/--sometimes, the board's own claim (expect:
         * {never: ...}) with its bounds, unless --jobs/--faults say others;
         * else a goal of at most 0 */
        int m = claim ? sim_measure_from_name(claim) : claim_of_goals(b);
        if (!claim && b->claim.present) {
            m = (int)b->claim.measure;
            o.sometimes = b->claim.sometimes;
            if (!jobs_given)
                o.jobs = b->claim.jobs;
            if (!faults_given)
                o.faults = b->claim.faults;
        }
        if (m < 0) {
            diag_error(&d, path, b->pos.line, b->pos.col,
                       "the board has no claim (expect: {never: MEASURE}) and no goal of at "
                       "most 0 on a fault count to prove; give --never MEASURE or "
                       "--sometimes MEASURE");
            goto done;
        }
        o.measure = (sim_measure)m;
        sim_board pb = sim_prove_board(&b->sim, o.jobs);
        if (wire == 1) {
            write_wire(&pb, &lim, NULL);
            goto done;
        }
        sim_proof p;
        char msg[512];
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (sim_prove(&pb, &lim, &o, &p, msg, sizeof msg) != 0) {
            diag_error(&d, path, b->traffic_pos.line, b->traffic_pos.col, "%s", msg);
            goto done;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (wire == 2) {
            sim_result r;
            if (!p.found)
                diag_error(&d, path, b->traffic_pos.line, b->traffic_pos.col,
                           "the proof found no run to write (--wire-result replays a "
                           "counterexample or witness)");
            else if (sim_run_choices(&pb, &lim, true, p.choices, p.n_choices, &r, msg,
                                     sizeof msg) != 0)
                diag_error(&d, path, b->traffic_pos.line, b->traffic_pos.col, "%s", msg);
            else
                write_wire(NULL, NULL, &r);
            if (p.found)
                sim_result_free(&r);
            sim_proof_free(&p);
            goto done;
        }
        double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
        buf out;
        buf_init(&out);
        proof_json(&out, b, &o, &p, s);
        fwrite(out.data, 1, out.len, stdout);
        buf_free(&out);
        sim_proof_free(&p);
    }
done:;
    int rc = diag_exit_status(&d);
    if (fflush(stdout) != 0 && rc == 0) {
        fprintf(stderr, "boardpress: error: cannot write the proof: %s\n", strerror(errno));
        rc = 3;
    }
    board_free(b);
    ynode_free(root);
    catalog_free(cat);
    diag_free(&d);
    return rc;
}
