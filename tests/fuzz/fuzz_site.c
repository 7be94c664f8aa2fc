/* fuzz_site.c — a page body through the real pipeline: `boardpress check`
 * (site_build without writing) on a small site whose page.md holds the
 * input after a fixed front matter listing two boards and a level, so the
 * real placeholder expander, directives, drawings and templates run.
 * Simulation results come from a results cache after the first run. */
#include "fuzz_common.h"
#include "draw/draw.h"
#include "build.h"

#include <stdio.h>
#include <unistd.h>

static char *root;    /* the site: content/, templates/ */
static char *page_md; /* root/content/page.md */
static site_options opt;

static const char front[] = "---\n"
                            "title: Fuzz\n"
                            "boards: [boards/mini.yaml, boards/other.yaml]\n"
                            "levels: [levels/fix.yaml]\n"
                            "---\n";

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0)
        abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    char tmpl[] = "/tmp/bp-fuzz-site.XXXXXX";
    if (!mkdtemp(tmpl))
        abort();
    root = xstrdup(tmpl);
    char *base = fuzz_site_path("");
    char *cmd = xasprintf("cp -a '%s'content '%s'templates '%s'/ && mkdir -p '%s'/content/levels",
                          base, base, root, root);
    free(base);
    if (system(cmd) != 0)
        abort();
    free(cmd);
    char *p = xasprintf("%s/content/boards/other.yaml", root);
    write_file(p, "id: other\n"
                  "title: Key checked\n"
                  "parts:\n"
                  "  - {id: users, kind: users}\n"
                  "  - {id: shop, kind: service, idempotency: key-in-transaction}\n"
                  "  - {id: pay, kind: payment-provider}\n"
                  "links:\n"
                  "  - {from: users, to: shop, protocol: http2, lose_reply: 10%}\n"
                  "  - {from: shop, to: pay, protocol: http2}\n"
                  "traffic: {from: users, jobs: 12, over: 2 s}\n"
                  "goals: {duplicates: {max: 0}}\n");
    free(p);
    p = xasprintf("%s/content/levels/fix.yaml", root);
    write_file(p, "id: fix\n"
                  "title: Check the key\n"
                  "board: boards/mini.yaml\n"
                  "style: toggle\n"
                  "timeline: true\n"
                  "counts: [deliveries, effects, duplicates]\n"
                  "choices:\n"
                  "  - label: ID check\n"
                  "    set: parts.worker.idempotency\n"
                  "    options:\n"
                  "      - {label: \"Off\", value: none}\n"
                  "      - {label: \"On\", value: key-in-transaction}\n");
    free(p);
    page_md = xasprintf("%s/content/page.md", root);
    opt.content = xasprintf("%s/content", root);
    opt.templates = xasprintf("%s/templates", root);
    opt.statics = xasprintf("%s/static", root);
    opt.out = xasprintf("%s/public", root);
    opt.cache = xasprintf("%s/cache", root);
    opt.jobs = 1;
    opt.quiet = true;
    opt.write = false;
    /* One build first: fontconfig and cairo make their caches on the first
     * drawing, which the leak check would otherwise blame on an input. */
    write_file(page_md, "---\ntitle: Warm up\nboards: [boards/mini.yaml]\n---\n{{ board mini }}\n");
    site_build(&opt);
    atexit(draw_shutdown);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *f = fopen(page_md, "w");
    if (!f)
        abort();
    fputs(front, f);
    fwrite(data, 1, size, f);
    if (fclose(f) != 0)
        abort();
    int rc = site_build(&opt);
    FUZZ_ASSERT(rc == 0 || rc == 1);
    return 0;
}
