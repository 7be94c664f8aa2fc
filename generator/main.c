/* main.c — the boardpress command line (docs/commands.md): option parsing and the
 * `sim` command; `build` and `check` are build.c, `watch` preview/watch.c,
 * `serve` preview/serve.c, `help` help.c, `new` new.c. */
#include "load/board.h"
#include "load/level.h"
#include "draw/draw.h"
#include "render/markdown.h"
#include "run/results.h"
#include "build.h"
#include "help.h"
#include "new.h"
#include "prove.h"
#include "preview/serve.h"
#include "preview/watch.h"
#include "simcore.h"
#include "base/util.h"
#include "wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every command: how it is called and what it does. `boardpress --help`
 * prints them all, `boardpress CMD --help` its own. */
static const struct {
    const char *name, *usage, *what;
} commands[] = {
    {"build",
     "build [--content DIR] [--templates DIR] [--static DIR] [--out DIR]\n"
     "                        [--jobs N] [--cache DIR | --no-cache] [-q]",
     "simulate every board the pages use, draw them and write the site\n"
     "          (default folders: content, templates, static; output: public;\n"
     "          results cache: .boardpress-cache, keyed by everything that\n"
     "          determines a result, only a speed-up, outside --out and the sources;\n"
     "          the record of what boardpress wrote lives beside --out, in\n"
     "          .boardpress-out-NAME)"},
    {"check", "check [--content DIR]", "load, simulate and expand everything; write nothing"},
    {"sim",
     "sim BOARD.yaml|LEVEL.yaml [--catalog FILE] [--seed N] [--replications R]\n"
     "                      [--set PATH=VALUE ...] [--trace] [--against BOARD.yaml] [--display]",
     "run one board and print its results as JSON on stdout; a level file\n"
     "          runs its board as the level starts (its choices and goals; a sandbox\n"
     "          none), the board file named relative to the level's folder's parent\n"
     "          --set parts.ID.FIELD=VALUE, links.FROM.TO.FIELD=VALUE, traffic.FIELD=VALUE\n"
     "          (after a level's choices, so they can change one)\n"
     "          --display: add each measure as the pages show it (\"display\")\n"
     "          --against OTHER.yaml: also run OTHER (without the --set changes) on the\n"
     "          same seed and replications, and add \"paired\": this board minus OTHER,\n"
     "          replication by replication, with 95% intervals\n"
     "          --wire: write the board as the WebAssembly simulator reads it (binary;\n"
     "          sim-core/WIRE.md) instead of running it; --wire-result: run it and\n"
     "          write the results in the module's binary form instead of JSON"},
    {"prove",
     "prove BOARD.yaml [--jobs N] [--faults K] [--never MEASURE | --sometimes MEASURE]\n"
     "                        [--catalog FILE]",
     "prove a board's claim over every way N of its jobs (default 3) can\n"
     "          meet up to K faults (default 2): each fault the board can have\n"
     "          happens or not, each duration is short or long; prints JSON with\n"
     "          the shortest counterexample when the claim does not hold. The claim:\n"
     "          --never MEASURE, --sometimes MEASURE, else the board's expect:\n"
     "          claim with its bounds, else its first goal of at most 0 on a\n"
     "          fault count"},
    {"watch", "watch [build options]",
     "build, then rebuild whenever content, templates or static change"},
    {"serve", "serve [build options] [--port N] [--bind ADDR]",
     "watch, and serve the output on http://127.0.0.1:8000/ (--port N,\n"
     "          0 for any free port; --bind ADDR to listen elsewhere): pages\n"
     "          reload after each rebuild, a failed one shows its errors on them"},
    {"help", "help [board | part KIND | measure NAME | directive NAME] [--catalog FILE]",
     "the reference for authors (docs/boards.md): every board key with its\n"
     "          unit, default and range, every part kind, measure and directive;\n"
     "          defaults from --catalog (content/catalog.yaml when it exists)"},
    {"new", "new page SLUG | new board ID [--content DIR]",
     "write a starting page (content/SLUG.md) or board\n"
     "          (content/boards/ID.yaml) that builds, with comments that point\n"
     "          into the reference; never overwrites a file"},
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void print_usage(FILE *to, int only)
{
    bool first = true;
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (only >= 0 && (size_t)only != i)
            continue;
        fprintf(to, "%s boardpress %s\n", first ? "usage:" : "      ", commands[i].usage);
        first = false;
    }
    if (only < 0)
        fputs("       boardpress --version | --help | COMMAND --help\n", to);
}

static void print_help(int only)
{
    print_usage(stdout, only);
    fputs("\n", stdout);
    if (only < 0)
        fputs("Builds explainer pages whose numbers are measured by a simulator at build "
              "time.\n\ncommands:\n",
              stdout);
    for (size_t i = 0; i < N_COMMANDS; i++)
        if (only < 0 || (size_t)only == i)
            printf("  %-7s %s\n", commands[i].name, commands[i].what);
    fputs("\nexit status: 0 ok, 1 bad input, 2 bad usage, 3 I/O or resource failure\n", stdout);
}

static int usage(const char *msg, const char *arg)
{
    fprintf(stderr, "boardpress: error: %s%s%s\n", msg, arg ? " " : "", arg ? arg : "");
    print_usage(stderr, -1);
    return 2;
}

typedef struct {
    const char *expr;
    const char *value;
} override;

/* --wire and --wire-result: the bytes the WebAssembly module reads and
 * returns (sim-core/WIRE.md), so the native build can be compared with it
 * bit for bit. Write errors show at the final fflush (exit 3). */
typedef enum { WIRE_NONE, WIRE_BOARD, WIRE_RESULT } wire_out;

static void wire_write(wire_out what, const sim_board *b, const sim_limits *lim, bool trace,
                       const sim_result *r)
{
    size_t n = what == WIRE_BOARD ? sim_wire_encode(b, lim, trace, NULL, 0)
                                  : sim_wire_result_encode(r, NULL, 0);
    uint8_t *bytes = xmalloc(n);
    if (what == WIRE_BOARD)
        sim_wire_encode(b, lim, trace, bytes, n);
    else
        sim_wire_result_encode(r, bytes, n);
    fwrite(bytes, 1, n, stdout);
    free(bytes);
}

/* --against: the other board, built from its file with this seed and
 * number of replications (so both run on the same streams), and run.
 * Returns 0, or -1 after reporting to d. */
static int run_against(const char *path, const bp_catalog *cat, const sim_limits *lim,
                       uint64_t seed, int reps, bp_board **board, sim_result *r, diag *d)
{
    ynode *root = yaml_load(path, "board", d);
    if (!root)
        return -1;
    char *seed_s = xasprintf("%llu", (unsigned long long)seed), *reps_s = xasprintf("%d", reps);
    board_override(path, root, "seed", seed_s, "--against", 0, 0, d);
    board_override(path, root, "replications", reps_s, "--against", 0, 0, d);
    free(seed_s);
    free(reps_s);
    int rc = -1;
    if (!d->errors && (*board = board_from_tree(path, root, cat, lim, d))) {
        char msg[512];
        if (sim_run(&(*board)->sim, lim, false, r, msg, sizeof msg) == 0)
            rc = 0;
        else
            diag_error(d, path, (*board)->traffic_pos.line, (*board)->traffic_pos.col, "%s", msg);
    }
    ynode_free(root);
    return rc;
}

static int cmd_sim(int argc, char **argv)
{
    const char *board_path = NULL, *catalog_path = "content/catalog.yaml", *against = NULL;
    const char *seed = NULL, *reps = NULL;
    bool trace = false, display = false;
    wire_out wire = WIRE_NONE;
    override *ovs = xcalloc((size_t)argc, sizeof *ovs);
    size_t n_ovs = 0;
    int rc = 2;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--trace") == 0) {
            trace = true;
        } else if (strcmp(a, "--display") == 0) {
            display = true;
        } else if (strcmp(a, "--wire") == 0 || strcmp(a, "--wire-result") == 0) {
            wire = strcmp(a, "--wire") == 0 ? WIRE_BOARD : WIRE_RESULT;
        } else if (strcmp(a, "--catalog") == 0 || strcmp(a, "--seed") == 0 ||
                   strcmp(a, "--replications") == 0 || strcmp(a, "--set") == 0 ||
                   strcmp(a, "--against") == 0) {
            if (i + 1 >= argc) {
                rc = usage("missing value after", a);
                goto out;
            }
            const char *v = argv[++i];
            if (strcmp(a, "--catalog") == 0)
                catalog_path = v;
            else if (strcmp(a, "--against") == 0)
                against = v;
            else if (strcmp(a, "--replications") == 0)
                reps = v;
            else if (strcmp(a, "--seed") == 0)
                seed = v;
            else {
                const char *eq = strchr(v, '=');
                if (!eq || eq == v) {
                    rc = usage("--set takes PATH=VALUE, found", v);
                    goto out;
                }
                ovs[n_ovs].expr = v;
                ovs[n_ovs++].value = eq + 1;
            }
        } else if (a[0] == '-') {
            rc = usage("unknown option", a);
            goto out;
        } else if (!board_path) {
            board_path = a;
        } else {
            rc = usage("sim takes one board file, found another:", a);
            goto out;
        }
    }
    if (!board_path) {
        rc = usage("sim needs a board file", NULL);
        goto out;
    }
    if (against && wire != WIRE_NONE) {
        rc = usage("--against adds to the JSON results; it does not go with", "--wire");
        goto out;
    }

    diag d;
    diag_init(&d, stderr);
    sim_limits lim = sim_limits_default();
    bp_catalog *cat = catalog_load(catalog_path, &d);
    bp_board *b = NULL, *other = NULL;
    ynode *root = NULL;
    bp_level *level = NULL;
    char *level_board = NULL;
    board_setting *set = xcalloc(n_ovs + 2, sizeof *set);
    size_t n_set = 0;
    if (!cat)
        goto done;
    root = yaml_load(board_path, "board", &d);
    if (!root)
        goto done;
    if (root->type == YN_MAP && ymap_get(root, "choices") && ymap_get(root, "board")) {
        /* a level: its board as the level starts, the --set changes after */
        if (!(level = level_load(board_path, &d)))
            goto done;
        level_board = level_board_file(board_path, level->board);
        ynode_free(root);
        if (!(root = yaml_load(level_board, "board", &d)))
            goto done;
    }
    for (size_t i = 0; i < n_ovs; i++)
        set[n_set++] =
            (board_setting){xstrndup(ovs[i].expr, (size_t)(ovs[i].value - 1 - ovs[i].expr)),
                            ovs[i].value,
                            "--set",
                            {0, 0},
                            {0, 0}};
    if (seed)
        set[n_set++] = (board_setting){xstrdup("seed"), seed, "--seed", {0, 0}, {0, 0}};
    if (reps)
        set[n_set++] =
            (board_setting){xstrdup("replications"), reps, "--replications", {0, 0}, {0, 0}};
    if (level) {
        int opts[8];
        for (size_t i = 0; i < level->n_choices; i++)
            opts[i] = level->choices[i].start; /* a range's -1: the board's own value */
        b = level_variant(level, opts, level_board, root, set, n_set, cat, &lim, &d);
    } else {
        b = board_variant(board_path, root, set, n_set, cat, &lim, &d);
    }
    if (!b)
        goto done;
    if (wire == WIRE_BOARD) {
        wire_write(wire, &b->sim, &lim, trace, NULL);
        goto done;
    }
    sim_result r;
    char msg[512];
    if (sim_run(&b->sim, &lim, trace, &r, msg, sizeof msg) != 0) {
        /* a run that hits a limit is too much traffic: point at it */
        diag_error(&d, board_path, b->traffic_pos.line, b->traffic_pos.col, "%s", msg);
        goto done;
    }
    sim_result ro = {0};
    if (against &&
        run_against(against, cat, &lim, b->sim.seed, r.replications, &other, &ro, &d) != 0) {
        sim_result_free(&r);
        goto done;
    }
    if (wire == WIRE_RESULT) {
        wire_write(wire, NULL, NULL, false, &r);
    } else {
        buf out;
        buf_init(&out);
        results_pair pair = {other, &ro};
        results_json_with(&out, b, &r, trace, other ? &pair : NULL);
        if (display) {
            out.len--; /* into the object */
            results_display(&out, b, &r);
            buf_putc(&out, '}');
        }
        buf_putc(&out, '\n');
        fwrite(out.data, 1, out.len, stdout);
        buf_free(&out);
    }
    sim_result_free(&ro);
    sim_result_free(&r);
done:
    rc = diag_exit_status(&d);
    if (fflush(stdout) != 0 && rc == 0) {
        fprintf(stderr, "boardpress: error: cannot write the results: %s\n", strerror(errno));
        rc = 3;
    }
    board_free(b);
    board_free(other);
    ynode_free(root);
    level_free(level);
    free(level_board);
    for (size_t i = 0; i < n_set; i++)
        free((char *)set[i].set);
    free(set);
    catalog_free(cat);
    diag_free(&d);
out:
    free(ovs);
    return rc;
}

/* Options shared by build, check, watch and serve (with so, also --port and
 * --bind). Returns 0, or 2 after usage. */
static int parse_build(int argc, char **argv, site_options *o, serve_options *so)
{
    o->content = "content";
    o->templates = "templates";
    o->statics = "static";
    o->out = "public";
    o->cache = ".boardpress-cache";
    o->jobs = 0;
    o->quiet = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0) {
            o->quiet = true;
            continue;
        }
        if (strcmp(a, "--no-cache") == 0) {
            o->cache = NULL;
            continue;
        }
        if (so && (strcmp(a, "--port") == 0 || strcmp(a, "--bind") == 0)) {
            if (i + 1 >= argc || argv[i + 1][0] == '\0')
                return usage("missing value after", a);
            const char *v = argv[++i];
            if (a[2] == 'b')
                so->bind = v;
            else if ((so->port = serve_parse_port(v)) < 0)
                return usage("--port takes a number from 0 to 65535, found", v);
            continue;
        }
        const char **dst = strcmp(a, "--content") == 0     ? &o->content
                           : strcmp(a, "--templates") == 0 ? &o->templates
                           : strcmp(a, "--static") == 0    ? &o->statics
                           : strcmp(a, "--out") == 0       ? &o->out
                           : strcmp(a, "--cache") == 0     ? &o->cache
                                                           : NULL;
        if (!dst && strcmp(a, "--jobs") != 0)
            return usage("unknown option", a);
        if (i + 1 >= argc || argv[i + 1][0] == '\0')
            return usage("missing value after", a);
        const char *v = argv[++i];
        if (dst) {
            *dst = v;
        } else {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end != '\0' || n < 1 || n > 64)
                return usage("--jobs takes a number from 1 to 64, found", v);
            o->jobs = (int)n;
        }
    }
    return 0;
}

#ifdef __SANITIZE_ADDRESS__
/* The sanitizer build (make test): glibc's newlocale, called with LOCPATH
 * set, keeps the locale path list it builds (__argz_add_sep) for good;
 * libp11-kit calls it from its constructor, before main (it comes with
 * GnuTLS, which Debian's libmicrohttpd links). Not ours to free: LeakSanitizer
 * is told to leave that one allocation alone, without a word on stderr. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_options(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:__argz_add_sep\n";
}
const char *__lsan_default_options(void)
{
    return "print_suppressions=0";
}
#endif

int main(int argc, char **argv)
{
    if (argc < 2)
        return usage("no command given", NULL);
    const char *cmd = argv[1];
    if (strcmp(cmd, "--version") == 0) {
        printf("boardpress %s (simulator %s)\n", BOARDPRESS_VERSION, SIMCORE_VERSION);
        return 0;
    }
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        print_help(-1);
        return 0;
    }
    /* COMMAND --help (or -h) anywhere after the command: that command's help */
    for (size_t c = 0; c < N_COMMANDS; c++) {
        if (strcmp(cmd, commands[c].name) != 0)
            continue;
        for (int i = 2; i < argc; i++)
            if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
                print_help((int)c);
                return 0;
            }
    }
    int rc;
    if (strcmp(cmd, "help") == 0) {
        rc = help_main(argc, argv);
    } else if (strcmp(cmd, "new") == 0) {
        rc = new_main(argc, argv);
    } else if (strcmp(cmd, "sim") == 0) {
        rc = cmd_sim(argc, argv);
    } else if (strcmp(cmd, "prove") == 0) {
        rc = prove_main(argc, argv);
    } else if (strcmp(cmd, "build") == 0 || strcmp(cmd, "check") == 0 ||
               strcmp(cmd, "watch") == 0 || strcmp(cmd, "serve") == 0) {
        site_options o;
        memset(&o, 0, sizeof o);
        const char *max = getenv("BOARDPRESS_WATCH_MAX");
        serve_options so = {"127.0.0.1", 8000, max ? atoi(max) : 0};
        rc = parse_build(argc, argv, &o, cmd[1] == 'e' ? &so : NULL);
        if (rc == 0) {
            o.write = cmd[0] != 'c';
            if (cmd[0] == 'w') {
                rc = watch_run(&o, site_build_report, so.max_rebuilds);
            } else if (cmd[1] == 'e') {
                rc = serve_run(&o, &so, site_build_report);
            } else {
                rc = site_build(&o);
            }
        }
    } else {
        const char *names[N_COMMANDS];
        for (size_t c = 0; c < N_COMMANDS; c++)
            names[c] = commands[c].name;
        const char *near = diag_suggest(cmd, names, N_COMMANDS);
        if (!near)
            return usage("unknown command", cmd);
        char *msg = xasprintf("unknown command '%s'; did you mean '%s'?", cmd, near);
        rc = usage(msg, NULL);
        free(msg);
        return rc;
    }
    draw_shutdown();
    md_shutdown();
    return rc;
}
