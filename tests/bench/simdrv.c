/* simdrv.c — the simulator side of the bench. Loads a board file with the
 * generator's own loader (catalog defaults, --set style overrides), then
 *
 *   simdrv run BOARD CATALOG JOBS OVER [REPLICATIONS]
 *       times sim_run (all replications, one model reused) and prints
 *       events, seconds, events/s and the process's peak RSS;
 *   simdrv pending BOARD CATALOG JOBS OVER
 *       runs the model and reads the pending-event count at 19 points
 *       (5%, 10%, ... 95% of its events), printing their mean: the heap size
 *       a reference loop must hold to be compared fairly;
 *   simdrv time BOARD CATALOG RUNS
 *       times sim_run RUNS times on the board as it is (no overrides) and
 *       prints each run's seconds: the native side of the WebAssembly rows;
 *   simdrv wire RUNS WIRE...
 *       decodes each file of wire bytes (sim-core/WIRE.md, as a live page
 *       puts them together) and times sim_run on it RUNS times: the native
 *       side of the Chromium slider rows. Prints every run's seconds.
 *
 * One JSON line on stdout. Linked with the generator's objects and
 * libsimcore.a (tests/bench/run.py builds it). */
#define _GNU_SOURCE
/* sim-core's headers before the generator's: rng.h's parameter `site`
 * would shadow model/site.h's type of that name the other way round */
#include "model.h"
#include "sim_internal.h"
#include "simcore.h"
#include "wire.h"
#include "load/board.h"
#include "base/diag.h"
#include "base/util.h"
#include "load/ydoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bp_board *load(const char *path, const bp_catalog *cat, const char *jobs, const char *over,
                      const char *reps, diag *d)
{
    char *text;
    size_t len;
    if (file_read(path, BP_MAX_FILE_BYTES, &text, &len) != 0)
        return NULL;
    bool empty;
    ynode *root = yaml_parse(path, text, len, 0, d, &empty);
    free(text);
    if (!root)
        return NULL;
    board_override(path, root, "traffic.jobs", jobs, "simdrv", 0, 0, d);
    board_override(path, root, "traffic.over", over, "simdrv", 0, 0, d);
    if (reps)
        board_override(path, root, "replications", reps, "simdrv", 0, 0, d);
    sim_limits lim = sim_limits_default();
    bp_board *b = d->errors ? NULL : board_from_tree(path, root, cat, &lim, d);
    ynode_free(root);
    return b;
}

/* One timed sim_run, its seconds printed after sep; -1 on a failed run. */
static int time_one(const sim_board *b, const sim_limits *lim, const char *sep)
{
    sim_result r;
    char msg[256];
    double t0 = now_s();
    if (sim_run(b, lim, false, &r, msg, sizeof msg) != 0) {
        fprintf(stderr, "simdrv: %s\n", msg);
        return -1;
    }
    printf("%s%.9f", sep, now_s() - t0);
    sim_result_free(&r);
    return 0;
}

/* simdrv time: sim_run on the unchanged board, RUNS times. */
static int time_runs(const char *path, const char *catalog, int runs)
{
    diag d;
    diag_init(&d, stderr);
    sim_limits lim = sim_limits_default();
    bp_catalog *cat = catalog_load(catalog, &d);
    bp_board *b = cat ? board_load(path, cat, &lim, &d) : NULL;
    int rc = b ? 0 : 1;
    printf("{\"seconds\":[");
    for (int i = 0; b && i < runs && rc == 0; i++)
        rc = time_one(&b->sim, &lim, i ? "," : "") ? 1 : 0;
    printf("]}\n");
    board_free(b);
    catalog_free(cat);
    diag_free(&d);
    return rc;
}

/* simdrv wire: sim_run on each file's decoded wire bytes, RUNS times. */
static int time_wires(int runs, char **files, int n_files)
{
    int rc = 0;
    bool first = true;
    printf("{\"seconds\":[");
    for (int f = 0; f < n_files && rc == 0; f++) {
        char *bytes;
        size_t len;
        char msg[256];
        sim_wire_request req;
        if (file_read(files[f], 64u << 20, &bytes, &len) != 0) {
            fprintf(stderr, "simdrv: cannot read %s\n", files[f]);
            return 1;
        }
        if (sim_wire_decode((const uint8_t *)bytes, len, &req, msg, sizeof msg) != 0) {
            fprintf(stderr, "simdrv: %s: %s\n", files[f], msg);
            free(bytes);
            return 1;
        }
        for (int i = 0; i < runs && rc == 0; i++, first = false)
            rc = time_one(&req.board, &req.limits, first ? "" : ",");
        sim_wire_request_free(&req);
        free(bytes);
    }
    printf("]}\n");
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 5 && strcmp(argv[1], "time") == 0)
        return time_runs(argv[2], argv[3], atoi(argv[4]));
    if (argc >= 4 && strcmp(argv[1], "wire") == 0)
        return time_wires(atoi(argv[2]), argv + 3, argc - 3);
    if (argc != 6 && argc != 7) {
        fprintf(stderr, "usage: simdrv run|pending BOARD CATALOG JOBS OVER [REPLICATIONS]\n"
                        "       simdrv time BOARD CATALOG RUNS\n"
                        "       simdrv wire RUNS WIRE...\n");
        return 2;
    }
    diag d;
    diag_init(&d, stderr);
    bp_catalog *cat = catalog_load(argv[3], &d);
    bp_board *b = cat ? load(argv[2], cat, argv[4], argv[5], argc == 7 ? argv[6] : NULL, &d) : NULL;
    if (!b)
        return 1;
    sim_limits lim = sim_limits_default();
    char msg[256];
    int rc = 0;
    if (strcmp(argv[1], "run") == 0) {
        sim_result r;
        double t0 = now_s();
        if (sim_run(&b->sim, &lim, false, &r, msg, sizeof msg) != 0) {
            fprintf(stderr, "simdrv: %s\n", msg);
            return 1;
        }
        double s = now_s() - t0;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        double events = r.m[SIM_M_EVENTS].mean * r.replications;
        printf("{\"jobs\":%lld,\"events\":%.0f,\"seconds\":%.6f,\"events_per_s\":%.0f,"
               "\"deliveries\":%.0f,\"duplicates\":%.0f,\"errors\":%.0f,\"maxrss_kb\":%ld}\n",
               (long long)b->sim.traffic.jobs, events, s, events / s, r.m[SIM_M_DELIVERIES].mean,
               r.m[SIM_M_DUPLICATES].mean, r.m[SIM_M_ERRORS].mean, ru.ru_maxrss);
        sim_result_free(&r);
    } else if (strcmp(argv[1], "pending") == 0) {
        sim_topology t;
        int link;
        if (sim_board_check_topology(&b->sim, &lim, msg, sizeof msg, &link, &t) != -1) {
            fprintf(stderr, "simdrv: %s\n", msg);
            return 1;
        }
        sim_model *m = sim_model_new(&b->sim, &t);
        sim_counts c;
        if (!m ||
            sim_model_run(m, &lim, rng_stream_key(b->sim.seed, 0), NULL, &c, msg, sizeof msg) != 0)
            return 1;
        int64_t total = c.events;
        double sum = 0;
        size_t most = 0;
        int points = 0;
        for (int k = 1; k < 20; k++) {
            sim_limits at = lim;
            at.max_events = total * k / 20;
            /* stops with "needs more than N events" right after event N */
            sim_model_run(m, &at, rng_stream_key(b->sim.seed, 0), NULL, &c, msg, sizeof msg);
            size_t q = queue_size(&m->q);
            sum += (double)q;
            most = q > most ? q : most;
            points++;
        }
        printf("{\"events\":%lld,\"pending_mean\":%.0f,\"pending_max\":%zu}\n", (long long)total,
               sum / points, most);
        sim_model_free(m);
    } else {
        rc = 2;
    }
    board_free(b);
    catalog_free(cat);
    diag_free(&d);
    return rc;
}
