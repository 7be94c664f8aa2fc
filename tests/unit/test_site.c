/* test_site.c — a tiny site built end to end in a temporary folder: the
 * pages show exactly the numbers results.json holds, a prose edit rewrites
 * only what changed, a failed build leaves the previous site byte for byte
 * and says where, two builds are identical, and --out is refused where
 * boardpress must not write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "draw/draw.h"
#include "base/fmt.h"
#include "gen_testlib.h"
#include "run/results.h"
#include "build.h"
#include "run/simulate.h"
#include "base/util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char page_md[] =
    "---\n"
    "title: Retries\n"
    "summary: Lost replies make the users send again.\n"
    "boards: [boards/alpha.yaml, boards/beta.yaml]\n"
    "order: 1\n"
    "---\n"
    "Of {{ alpha.jobs }} jobs, {{ alpha.duplicates }} ran twice; they took\n"
    "{{ alpha.completion_time | ci }} (error rate {{ alpha.error_rate }}, cost\n"
    "{{ alpha.monthly_cost }}). A provider call takes {{ catalog.payment-provider.call_median }}.\n"
    "\n"
    "{{ board alpha }}\n"
    "\n"
    "{{ compare alpha beta }}\n"
    "\n"
    "{{ key-numbers }}\n"
    "\n"
    "## Compare\n"
    "\n"
    "Code keeps `{{ alpha.jobs }}` as written.\n";

static const char alpha_yaml[] = "id: alpha\n"
                                 "title: Alpha board\n"
                                 "seed: 5\n"
                                 "replications: 3\n"
                                 "parts:\n"
                                 "  - {id: users, kind: users, timeout: 1 s}\n"
                                 "  - {id: svc, kind: service, concurrency: 4}\n"
                                 "links:\n"
                                 "  - {from: users, to: svc, protocol: http2, lose_reply: 30%}\n"
                                 "traffic: {from: users, jobs: 40, over: 4 s}\n"
                                 "goals:\n"
                                 "  duplicates: {max: 0}\n"
                                 "expect: fail\n";

static const char beta_yaml[] = "id: beta\n"
                                "title: Beta board\n"
                                "seed: 5\n"
                                "replications: 3\n"
                                "parts:\n"
                                "  - {id: users, kind: users, timeout: 1 s}\n"
                                "  - {id: svc, kind: service, concurrency: 4}\n"
                                "links:\n"
                                "  - {from: users, to: svc, protocol: http2}\n"
                                "traffic: {from: users, jobs: 40, over: 4 s}\n"
                                "goals:\n"
                                "  duplicates: {max: 0}\n"
                                "expect: pass\n";

typedef struct {
    char *root;      /* the temporary folder */
    char *content;   /* root/content */
    char *templates; /* root/templates */
    char *statics;   /* root/static */
    char *out;       /* root/public */
    char *cache;     /* root/cache */
} site_dir;

static int setup(void **state)
{
    site_dir *s = xcalloc(1, sizeof *s);
    s->root = gt_tempdir();
    s->content = xasprintf("%s/content", s->root);
    s->templates = xasprintf("%s/templates", s->root);
    s->statics = xasprintf("%s/static", s->root);
    s->out = xasprintf("%s/public", s->root);
    s->cache = xasprintf("%s/cache", s->root);
    gt_write(s->root, "content/site.yaml",
             "title: Test site\ndescription: Pages for a test.\nbase_url: https://example.org/x\n");
    gt_copy("content/catalog.yaml", s->root, "content/catalog.yaml");
    gt_write(s->root, "content/retries.md", page_md);
    gt_write(s->root, "content/boards/alpha.yaml", alpha_yaml);
    gt_write(s->root, "content/boards/beta.yaml", beta_yaml);
    gt_write(s->root, "templates/page.html",
             "<!doctype html><title>{{ title }} · {{ site_title }}</title>\n"
             "<main>{{ content }}</main>\n{{ measured }}\n"
             "{{#each nav }}<a href=\"{{ url }}\">{{ title }}</a>{{/each }}\n");
    gt_write(s->root, "templates/index.html",
             "<!doctype html><title>{{ site_title }}</title>\n"
             "{{#each pages }}<a href=\"{{ url }}\">{{ title }}</a> {{ summary }}\n{{/each }}");
    gt_write(s->root, "static/style.css", "body { color: black }\n");
    setenv("SOURCE_DATE_EPOCH", "1700000000", 1); /* 2023-11-14 */
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    site_dir *s = *state;
    gt_rm_rf(s->root);
    free(s->root);
    free(s->content);
    free(s->templates);
    free(s->statics);
    free(s->out);
    free(s->cache);
    free(s);
    unsetenv("SOURCE_DATE_EPOCH");
    return 0;
}

/* Build (quietly unless want_stderr) into out; returns the exit status and
 * what went to stderr in *err (caller frees). */
static int build(const site_dir *s, const char *out, int jobs, char **err)
{
    site_options o = {s->content, s->templates, s->statics, out, s->cache, jobs, false, true, NULL};
    gt_stderr_begin();
    int status = site_build(&o);
    char *text = gt_stderr_end();
    if (err)
        *err = text;
    else
        free(text);
    return status;
}

static char *read_out(const char *out, const char *rel)
{
    char *path = xasprintf("%s/%s", out, rel);
    char *text = gt_read(path, NULL);
    if (!text)
        fail_msg("%s was not written", path);
    free(path);
    return text;
}

/* The number after "key": inside the object that starts at obj. */
static double json_number(const char *obj, const char *key)
{
    char *pat = xasprintf("\"%s\":", key);
    const char *at = strstr(obj, pat);
    if (!at)
        fail_msg("no %s in results.json", pat);
    char *end;
    double v = strtod(at + strlen(pat), &end);
    assert_true(end > at + strlen(pat));
    free(pat);
    return v;
}

/* The text of the element carrying data-board="board" data-measure="m" (the
 * first without a filter, or with data-filter="filter"). */
static char *shown(const char *html, const char *board, const char *m, const char *filter)
{
    char *pat = xasprintf("data-board=\"%s\" data-measure=\"%s\"", board, m);
    for (const char *at = strstr(html, pat); at; at = strstr(at + 1, pat)) {
        const char *gt = strchr(at, '>');
        assert_non_null(gt);
        const char *fa = strstr(at, "data-filter=\"");
        bool has_filter = fa && fa < gt;
        if (filter ? !has_filter || strncmp(fa + 13, filter, strlen(filter)) != 0 : has_filter)
            continue;
        const char *lt = strchr(gt, '<');
        free(pat);
        return xstrndup(gt + 1, (size_t)(lt - gt - 1));
    }
    fail_msg("no %s on the page", pat);
    return NULL;
}

static void numbers_match(const char *html, const char *json, const char *board, sim_measure m)
{
    char *pat = xasprintf("\"board\":\"%s\"", board);
    const char *obj = strstr(json, pat);
    assert_non_null(obj);
    const char *measures = strstr(obj, "\"measures\":{");
    assert_non_null(measures);
    double v = json_number(measures, results_key(m));
    buf want;
    buf_init(&want);
    fmt_measure(&want, m, v);
    char *got = shown(html, board, sim_measure_name(m), NULL);
    if (strcmp(got, want.data) != 0)
        fail_msg("%s.%s: the page shows '%s', results.json says %g ('%s')", board,
                 sim_measure_name(m), got, v, want.data);
    free(got);
    buf_free(&want);
    free(pat);
}

/* Every file of dir (not below it) one after the other. */
static char *read_dir_text(const char *dir)
{
    DIR *dh = opendir(dir);
    assert_non_null(dh);
    buf all;
    buf_init(&all);
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (e->d_name[0] == '.')
            continue;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        char *text = gt_read(path, NULL);
        if (text)
            buf_puts(&all, text);
        free(text);
        free(path);
    }
    closedir(dh);
    return buf_detach(&all);
}

static void builds_a_site(void **state)
{
    site_dir *s = *state;
    char *err = NULL;
    int status = build(s, s->out, 2, &err);
    if (status != 0)
        fail_msg("build failed (%d):\n%s", status, err);
    assert_non_null(strstr(err, "boardpress: built 1 page, 2 boards, 0 levels, 2 runs "
                                "(2 simulated, 0 from the cache)"));
    free(err);

    char *home = read_out(s->out, "index.html");
    assert_non_null(strstr(home, "<a href=\"retries/\">Retries</a> Lost replies make the users "
                                 "send again."));
    free(home);
    char *html = read_out(s->out, "retries/index.html");
    char *json = read_out(s->out, "retries/results.json");
    assert_non_null(strstr(html, "<title>Retries · Test site</title>"));
    assert_non_null(strstr(json, "{\"page\":\"retries\",\"measured\":\"2023-11-14\","));
    assert_non_null(strstr(html, "2023-11-14"));
    /* what the page shows is what results.json holds, formatted */
    numbers_match(html, json, "alpha", SIM_M_JOBS);
    numbers_match(html, json, "alpha", SIM_M_DUPLICATES);
    numbers_match(html, json, "alpha", SIM_M_ERROR_RATE);
    numbers_match(html, json, "alpha", SIM_M_MONTHLY_COST);
    assert_true(json_number(strstr(json, "\"board\":\"alpha\""), "duplicates") > 0);
    assert_true(json_number(strstr(json, "\"board\":\"beta\""), "duplicates") == 0);
    /* the mean ± half-width, both from results.json */
    const char *alpha = strstr(json, "\"board\":\"alpha\"");
    const char *spread = strstr(alpha, "\"completion_time_s\":{");
    assert_non_null(spread);
    buf want;
    buf_init(&want);
    fmt_seconds(&want, json_number(strstr(alpha, "\"measures\":{"), "completion_time_s"));
    buf_puts(&want, " ± ");
    fmt_seconds(&want, json_number(spread, "ci95"));
    char *ci = shown(html, "alpha", "completion_time", "ci");
    assert_string_equal(ci, want.data);
    free(ci);
    buf_free(&want);
    /* catalog values, code, directives */
    assert_non_null(strstr(html, ">150 ms<"));
    assert_non_null(strstr(html, "<code>{{ alpha.jobs }}</code>"));
    assert_null(strstr(html, "{{ board"));
    assert_null(strstr(html, "{{ compare"));
    assert_null(strstr(html, "{{ key-numbers"));
    assert_non_null(strstr(html, "alpha.svg"));
    /* every element id once: headings keep clear of the figures' ids */
    strset ids = {0};
    for (const char *at = strstr(html, " id=\""); at; at = strstr(at + 1, " id=\"")) {
        const char *end = strchr(at + 5, '"');
        char *id = xstrndup(at + 5, (size_t)(end - at - 5));
        if (!strset_add(&ids, id))
            fail_msg("id '%s' is used twice", id);
        free(id);
    }
    assert_true(strset_has(&ids, "compare"));
    assert_true(strset_has(&ids, "compare-2"));
    strset_free(&ids);
    free(html);
    free(json);

    char *svg = read_out(s->out, "retries/alpha.svg");
    assert_non_null(strstr(svg, "<svg"));
    free(svg);
    char *css = read_out(s->out, "static/style.css");
    assert_string_equal(css, "body { color: black }\n");
    free(css);
    char *sitemap = read_out(s->out, "sitemap.xml");
    assert_non_null(strstr(sitemap, "<loc>https://example.org/x/retries/</loc>"));
    free(sitemap);
    /* the site holds only itself; the journal beside it lists it */
    char *mark = xasprintf("%s/.boardpress-tree", s->out);
    assert_int_equal(access(mark, F_OK), -1);
    free(mark);
    char *journal = xasprintf("%s/.boardpress-out-public", s->root);
    char *listed = read_dir_text(journal);
    assert_non_null(strstr(listed, " retries/index.html\n"));
    assert_non_null(strstr(listed, " static/style.css\n"));
    free(listed);
    free(journal);
}

static ino_t inode(const char *out, const char *rel)
{
    char *path = xasprintf("%s/%s", out, rel);
    struct stat st;
    if (stat(path, &st) != 0)
        fail_msg("%s is missing", path);
    free(path);
    return st.st_ino;
}

/* Parse "N files written, M unchanged" from a build's summary. */
static void counts(const char *err, int *written, int *unchanged)
{
    const char *at = strstr(err, " files written, ");
    assert_non_null(at);
    while (at > err && at[-1] >= '0' && at[-1] <= '9')
        at--;
    assert_int_equal(sscanf(at, "%d files written, %d unchanged", written, unchanged), 2);
}

static void prose_edit_rewrites_little(void **state)
{
    site_dir *s = *state;
    char *err = NULL;
    assert_int_equal(build(s, s->out, 1, &err), 0);
    int w1, u1;
    counts(err, &w1, &u1);
    free(err);
    size_t files = gt_count_files(s->out);
    ino_t svg = inode(s->out, "retries/alpha.svg"), css = inode(s->out, "static/style.css"),
          page = inode(s->out, "retries/index.html"), json = inode(s->out, "retries/results.json"),
          index = inode(s->out, "search-index.js");

    /* one word of prose */
    char *path = xasprintf("%s/retries.md", s->content);
    char *text = gt_read(path, NULL);
    char *at = strstr(text, "Code keeps");
    assert_non_null(at);
    memcpy(at, "Code holds", 10);
    gt_write(s->content, "retries.md", text);
    free(text);
    free(path);

    assert_int_equal(build(s, s->out, 1, &err), 0);
    int w2, u2;
    counts(err, &w2, &u2);
    assert_non_null(strstr(err, "(0 simulated, 2 from the cache)"));
    free(err);
    /* the page and the search index, which holds its words; everything else
     * is linked from the last build */
    assert_int_equal(w2, 2);
    assert_int_equal(w2 + u2, w1 + u1);
    assert_int_equal(gt_count_files(s->out), files);
    assert_true(inode(s->out, "retries/alpha.svg") == svg);
    assert_true(inode(s->out, "static/style.css") == css);
    assert_true(inode(s->out, "retries/results.json") == json);
    assert_true(inode(s->out, "retries/index.html") != page);
    assert_true(inode(s->out, "search-index.js") != index);
    char *html = read_out(s->out, "retries/index.html");
    assert_non_null(strstr(html, "Code holds"));
    free(html);
    char *found = read_out(s->out, "search-index.js");
    assert_non_null(strstr(found, "holds"));
    free(found);
}

typedef struct {
    char **rel;
    char **data;
    size_t *len;
    size_t n;
} snapshot;

static void snap_dir(snapshot *sn, const char *root, const char *rel)
{
    char *dir = rel[0] ? xasprintf("%s/%s", root, rel) : xstrdup(root);
    DIR *dh = opendir(dir);
    assert_non_null(dh);
    struct dirent *e;
    while ((e = readdir(dh))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *r = rel[0] ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
        char *p = xasprintf("%s/%s", root, r);
        struct stat st;
        assert_int_equal(lstat(p, &st), 0);
        if (S_ISDIR(st.st_mode)) {
            snap_dir(sn, root, r);
            free(r);
        } else {
            sn->rel = xrealloc(sn->rel, (sn->n + 1) * sizeof *sn->rel);
            sn->data = xrealloc(sn->data, (sn->n + 1) * sizeof *sn->data);
            sn->len = xrealloc(sn->len, (sn->n + 1) * sizeof *sn->len);
            sn->rel[sn->n] = r;
            sn->data[sn->n] = gt_read(p, &sn->len[sn->n]);
            assert_non_null(sn->data[sn->n]);
            sn->n++;
        }
        free(p);
    }
    closedir(dh);
    free(dir);
}

static int by_rel(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every file under root, sorted by path. */
static snapshot snap(const char *root)
{
    snapshot sn = {0};
    snap_dir(&sn, root, "");
    /* sort the three arrays together by path (n is small) */
    for (size_t i = 1; i < sn.n; i++)
        for (size_t j = i; j > 0 && by_rel(&sn.rel[j - 1], &sn.rel[j]) > 0; j--) {
            char *r = sn.rel[j], *d = sn.data[j];
            size_t l = sn.len[j];
            sn.rel[j] = sn.rel[j - 1];
            sn.data[j] = sn.data[j - 1];
            sn.len[j] = sn.len[j - 1];
            sn.rel[j - 1] = r;
            sn.data[j - 1] = d;
            sn.len[j - 1] = l;
        }
    return sn;
}

static void same_tree(const snapshot *a, const snapshot *b)
{
    assert_int_equal(a->n, b->n);
    for (size_t i = 0; i < a->n; i++) {
        assert_string_equal(a->rel[i], b->rel[i]);
        if (a->len[i] != b->len[i] || memcmp(a->data[i], b->data[i], a->len[i]) != 0)
            fail_msg("%s differs", a->rel[i]);
    }
}

static void snap_free(snapshot *sn)
{
    for (size_t i = 0; i < sn->n; i++) {
        free(sn->rel[i]);
        free(sn->data[i]);
    }
    free(sn->rel);
    free(sn->data);
    free(sn->len);
}

static void failed_build_changes_nothing(void **state)
{
    site_dir *s = *state;
    assert_int_equal(build(s, s->out, 0, NULL), 0);
    snapshot before = snap(s->out);

    /* a typo in a placeholder on body line 2 (file line 8) */
    char *path = xasprintf("%s/retries.md", s->content);
    char *good = gt_read(path, NULL);
    const char *at = strstr(good, "{{ alpha.completion_time | ci }}");
    assert_non_null(at);
    char *bad = xasprintf("%.*s{{ alpha.completion_tme | ci }}%s", (int)(at - good), good,
                          at + strlen("{{ alpha.completion_time | ci }}"));
    gt_write(s->content, "retries.md", bad);
    char *err = NULL;
    assert_int_equal(build(s, s->out, 0, &err), 1);
    char *want = xasprintf("%s:8:10: error: unknown measure 'completion_tme'; did you mean "
                           "'completion_time'?\n",
                           path);
    if (strncmp(err, want, strlen(want)) != 0)
        fail_msg("stderr:\n%s\nwant first:\n%s", err, want);
    assert_non_null(strstr(err, "boardpress: 1 error; nothing written, the previous site is "
                                "unchanged"));
    free(want);
    free(err);

    snapshot after = snap(s->out);
    same_tree(&before, &after);
    snap_free(&after);
    /* and nothing is left beside it */
    DIR *dh = opendir(s->root);
    struct dirent *e;
    while ((e = readdir(dh)))
        if (strncmp(e->d_name, "public.", 7) == 0)
            fail_msg("left behind: %s", e->d_name);
    closedir(dh);

    gt_write(s->content, "retries.md", good);
    free(good);
    free(bad);
    free(path);
    snap_free(&before);
}

static void two_builds_are_identical(void **state)
{
    site_dir *s = *state;
    char *out2 = xasprintf("%s/public2", s->root);
    assert_int_equal(build(s, s->out, 1, NULL), 0);
    /* simulate again rather than read the cache: its results and drawings
     * go (the journal is beside s->out, not in the cache) */
    DIR *dh = opendir(s->cache);
    assert_non_null(dh);
    struct dirent *e;
    while ((e = readdir(dh))) {
        size_t n = strlen(e->d_name);
        char *path = xasprintf("%s/%s", s->cache, e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".bin") == 0)
            assert_int_equal(unlink(path), 0);
        free(path);
    }
    closedir(dh);
    assert_int_equal(build(s, out2, 4, NULL), 0);
    snapshot a = snap(s->out), b = snap(out2);
    same_tree(&a, &b);
    assert_true(a.n >= 7);
    snap_free(&a);
    snap_free(&b);
    gt_rm_rf(out2);
    free(out2);
}

static void refused_outputs(void **state)
{
    site_dir *s = *state;
    /* a folder with a file boardpress did not write */
    char *mine = xasprintf("%s/mine", s->root);
    gt_write(mine, "notes.txt", "keep me\n");
    gt_write(mine, "sub/deeper.txt", "me too\n");
    char *err = NULL;
    assert_int_equal(build(s, mine, 0, &err), 1);
    char *want = xasprintf("%s: error: refusing to replace this folder: boardpress has no record "
                           "of writing it (its record would be in %s/.boardpress-out-mine: ",
                           mine, s->root);
    assert_non_null(strstr(err, want));
    free(want);
    free(err);
    char *kept = read_out(mine, "notes.txt");
    assert_string_equal(kept, "keep me\n");
    free(kept);
    assert_int_equal(gt_count_files(mine), 2);

    /* a foreign file added to a site boardpress wrote */
    assert_int_equal(build(s, s->out, 0, NULL), 0);
    gt_write(s->out, "retries/extra.html", "hand-made\n");
    assert_int_equal(build(s, s->out, 0, &err), 1);
    want = xasprintf("%s: error: refusing to replace this folder: 'retries/extra.html' in it was "
                     "not written by boardpress; nothing was changed (move it out of --out, or "
                     "delete it if you do not need it, then build again)\n",
                     s->out);
    assert_non_null(strstr(err, want));
    free(want);
    free(err);
    kept = read_out(s->out, "retries/extra.html");
    free(kept);
    char *extra = xasprintf("%s/retries/extra.html", s->out);
    assert_int_equal(remove(extra), 0);
    free(extra);

    /* inside a source folder */
    char *inside = xasprintf("%s/public", s->content);
    assert_int_equal(build(s, inside, 0, &err), 1);
    want = xasprintf("%s: error: refusing to write the site here: it is, holds, or lies inside a "
                     "source folder\n",
                     inside);
    assert_non_null(strstr(err, want));
    free(want);
    free(err);
    free(inside);
    /* a folder that holds one */
    assert_int_equal(build(s, s->root, 0, &err), 1);
    assert_non_null(strstr(err, "refusing to write the site here: it is, holds, or lies inside a "
                                "source folder"));
    free(err);
    free(mine);
}

/* How many times needle occurs in the file out/rel. */
static size_t count_in(const char *out, const char *rel, const char *needle)
{
    char *text = read_out(out, rel);
    size_t n = gt_count(text, needle);
    free(text);
    return n;
}

/* Every page shows the nav, so it lists what site.yaml names, or without a
 * nav the first eight pages in order; the home page lists every page and
 * previous/next walk all of them. */
static void nav_lists_what_site_yaml_names(void **state)
{
    (void)state;
    char *root = gt_tempdir();
    gt_write(root, "content/site.yaml", "title: Many pages\n");
    gt_copy("content/catalog.yaml", root, "content/catalog.yaml");
    for (int i = 1; i <= 12; i++) {
        char *rel = xasprintf("content/p%02d.md", i);
        char *text = xasprintf("---\ntitle: Page %d\norder: %d\n---\nText.\n", i, i);
        gt_write(root, rel, text);
        free(rel);
        free(text);
    }
    gt_write(root, "templates/page.html",
             "{{#each nav }}[{{ title }}]{{/each }} prev:{{ prev_title }} next:{{ next_title }}\n");
    gt_write(root, "templates/index.html",
             "{{#each nav }}[{{ title }}]{{/each }}"
             "{{#each pages }}<{{ title }}>{{/each }}\n");
    char *content = xasprintf("%s/content", root), *templates = xasprintf("%s/templates", root);
    char *out = xasprintf("%s/public", root), *statics = xasprintf("%s/static", root);
    site_options o = {content, templates, statics, out, NULL, 1, true, true, NULL};
    gt_write(root, "static/s.css", "\n");
    assert_int_equal(site_build(&o), 0);
    assert_int_equal(count_in(out, "p05/index.html", "["), 8);
    assert_int_equal(count_in(out, "p05/index.html", "[Page 8]"), 1);
    assert_int_equal(count_in(out, "p05/index.html", "[Page 9]"), 0);
    assert_int_equal(count_in(out, "index.html", "<"), 12);
    assert_int_equal(count_in(out, "p12/index.html", "prev:Page 11 next:\n"), 1);

    gt_write(root, "content/site.yaml", "title: Many pages\nnav: [p12, p03]\n");
    assert_int_equal(site_build(&o), 0);
    char *page = read_out(out, "p05/index.html");
    assert_string_equal(page, "[Page 12][Page 3] prev:Page 4 next:Page 6\n");
    free(page);
    assert_int_equal(count_in(out, "index.html", "<"), 12);
    /* nav: [] is no nav at all */
    gt_write(root, "content/site.yaml", "title: Many pages\nnav: []\n");
    assert_int_equal(site_build(&o), 0);
    assert_int_equal(count_in(out, "p05/index.html", "["), 0);
    gt_rm_rf(root);
    free(root);
    free(content);
    free(templates);
    free(out);
    free(statics);
}

/* The build's event budget is split in proportion to each variant's bound
 * (its limit while it runs): the shares never sum past the budget, and
 * when the bounds fit, each variant may take at least its bound. */
static void event_shares(void **state)
{
    (void)state;
    assert_int_equal(simulate_event_share(10, 400, 1000, 500), 25);
    assert_int_equal(simulate_event_share(300, 400, 1000, 500), 500); /* the per-board limit */
    assert_int_equal(simulate_event_share(0, 400, 1000, 500), 0);     /* a repeat runs nothing */
    assert_int_equal(simulate_event_share(90, 400, 1000, 500), 225);
    assert_int_equal(simulate_event_share(7, 7, 7, 500), 7);
    uint64_t x = 12345;
    for (int round = 0; round < 2000; round++) {
        int64_t bounds[16], total = 0, budget = 800000000, sum = 0;
        size_t n = 1 + (size_t)round % 16;
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            bounds[i] = (int64_t)(x >> 33) % (budget / (int64_t)n + 1);
            total += bounds[i];
        }
        for (size_t i = 0; i < n; i++) {
            int64_t share = simulate_event_share(bounds[i], total, budget, INT64_MAX);
            assert_true(share >= bounds[i]);
            sum += share;
        }
        assert_true(sum <= budget);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builds_a_site),
        cmocka_unit_test(prose_edit_rewrites_little),
        cmocka_unit_test(failed_build_changes_nothing),
        cmocka_unit_test(two_builds_are_identical),
        cmocka_unit_test(refused_outputs),
        cmocka_unit_test(nav_lists_what_site_yaml_names),
        cmocka_unit_test(event_shares),
    };
    int failed = cmocka_run_group_tests_name("site", tests, setup, teardown);
    draw_shutdown(); /* cairo's and fontconfig's static data, for LeakSanitizer */
    return failed;
}
