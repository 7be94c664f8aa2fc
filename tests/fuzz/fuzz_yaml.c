/* fuzz_yaml.c — YAML files into structs. The first byte picks the loader:
 *   0 the catalog (catalog_parse)
 *   1 a board (yaml_parse, board_override for each leading "#set PATH=VALUE"
 *     comment line, board_from_tree against a fixed catalog), then a short
 *     simulation (small limits), its results JSON and its diagram
 *   2 a level (level_parse)      3 a chart (chart_parse)
 *   else the bare tree (yaml_parse), whose shape is checked. */
#include "load/board.h"
#include "draw/draw.h"
#include "fuzz_common.h"
#include "load/level.h"
#include "run/results.h"

static bp_catalog *catalog;

static void board(const char *text, size_t len, diag *d);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char *path = fuzz_site_path("content/catalog.yaml");
    diag d;
    diag_init(&d, stderr);
    catalog = catalog_load(path, &d);
    if (!catalog)
        abort();
    diag_free(&d);
    free(path);
    /* Draw once first: fontconfig and cairo make their caches on the first
     * drawing, which the leak check would otherwise blame on an input. */
    char *mini = fuzz_site_path("content/boards/mini.yaml");
    char *text;
    size_t len;
    if (file_read(mini, BP_MAX_FILE_BYTES, &text, &len) != 0)
        abort();
    diag_init(&d, stderr);
    board(text, len, &d);
    if (d.errors)
        abort();
    diag_free(&d);
    free(text);
    free(mini);
    atexit(draw_shutdown);
    return 0;
}

/* Every mapping has key/value pairs with text keys. */
static void check_tree(const ynode *n, int depth)
{
    FUZZ_ASSERT(depth <= YAML_MAX_DEPTH + 1);
    FUZZ_ASSERT(n->line >= 1 && n->col >= 1);
    if (n->type == YN_SCALAR) {
        FUZZ_ASSERT(n->s && strlen(n->s) == n->len);
        return;
    }
    if (n->type == YN_MAP)
        FUZZ_ASSERT(n->n % 2 == 0);
    for (size_t i = 0; i < n->n; i++) {
        if (n->type == YN_MAP && i % 2 == 0)
            FUZZ_ASSERT(n->kids[i]->type == YN_SCALAR);
        check_tree(n->kids[i], depth + 1);
    }
}

static void board(const char *text, size_t len, diag *d)
{
    ynode *root = yaml_parse("boards/fuzz.yaml", text, len, 0, d, NULL);
    if (!root)
        return;
    /* Leading comment lines "#set PATH=VALUE" are overrides, as levels make. */
    for (const char *p = text; strncmp(p, "#set ", 5) == 0;) {
        const char *nl = strchr(p, '\n'), *end = nl ? nl : p + strlen(p);
        char *line = xstrndup(p + 5, (size_t)(end - p - 5));
        char *eq = strchr(line, '=');
        if (eq) {
            *eq = '\0';
            board_override("boards/fuzz.yaml", root, line, eq + 1, "levels/fuzz.yaml", 3, 5, d);
        }
        free(line);
        if (!nl)
            break;
        p = nl + 1;
    }
    sim_limits lim = sim_limits_default();
    lim.max_jobs = 50;
    lim.max_replications = 3;
    lim.max_events = 20000;
    lim.max_trace = 500;
    bp_board *b = d->errors ? NULL : board_from_tree("boards/fuzz.yaml", root, catalog, &lim, d);
    FUZZ_ASSERT(b ? d->errors == 0 : d->errors > 0);
    if (b) {
        sim_result r;
        char msg[256];
        if (sim_run(&b->sim, &lim, true, &r, msg, sizeof msg) == 0) {
            buf json;
            buf_init(&json);
            results_json(&json, b, &r, true);
            buf_free(&json);
            sim_result_free(&r);
        }
        buf svg, alt;
        buf_init(&svg);
        buf_init(&alt);
        char err[256];
        draw_board(b, NULL, 0, (draw_look){DRAW_WIDE, DRAW_LIGHT}, &svg, &alt, err, sizeof err);
        buf_free(&svg);
        buf_free(&alt);
    }
    board_free(b);
    ynode_free(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char *text = fuzz_text(data + 1, size - 1);
    size_t len = size - 1;
    diag d;
    diag_init(&d, NULL);
    switch (data[0]) {
    case 0: {
        bp_catalog *c = catalog_parse("catalog.yaml", text, len, &d);
        FUZZ_ASSERT(c ? d.errors == 0 : d.errors > 0);
        catalog_free(c);
        break;
    }
    case 1:
        board(text, len, &d);
        break;
    case 2: {
        bp_level *l = level_parse("levels/fuzz.yaml", text, len, &d);
        FUZZ_ASSERT(l ? d.errors == 0 &&
                            (l->sandbox
                                 ? l->n_combos == 0
                                 : l->n_combos >= 1 &&
                                       l->n_combos <= (l->live ? LEVEL_MAX_GRID : LEVEL_MAX_COMBOS))
                      : d.errors > 0);
        bool starts = l && !l->sandbox;
        for (size_t i = 0; starts && i < l->n_choices; i++)
            starts = l->choices[i].start >= 0; /* a range may start at the board's value */
        if (starts) {
            int opts[8];
            level_combo(l, level_start(l), opts);
            for (size_t i = 0; i < l->n_choices; i++)
                FUZZ_ASSERT(opts[i] == l->choices[i].start);
        }
        level_free(l);
        break;
    }
    case 3: {
        bp_chart *c = chart_parse("charts/fuzz.yaml", text, len, &d);
        FUZZ_ASSERT(c ? d.errors == 0 : d.errors > 0);
        chart_free(c);
        break;
    }
    default: {
        bool empty = false;
        ynode *root = yaml_parse("fuzz.yaml", text, len, 0, &d, &empty);
        FUZZ_ASSERT(root ? d.errors == 0 : d.errors > 0 || empty);
        if (root)
            check_tree(root, 0);
        ynode_free(root);
        break;
    }
    }
    diag_free(&d);
    free(text);
    return 0;
}
