/* test_serve.c — the preview server's files (preview/files.c): request
 * paths checked and decoded, files opened beneath --out without following
 * a link, types, ETags, the script put into pages; and the events the
 * pages get (preview/reload.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "preview/serve_internal.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void paths_refused(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "",          "x",         "*",       "http://h/", "/..",    "/../x", "/a/../b",
        "/%2e%2e/x", "/%2E%2e",   "/.%2e/x", "/a/%2e",    "/.",     "/a/.",  "/a/./b",
        "//x",       "/a//b",     "/%2f",    "/a%2fb",    "/%2F..", "/%5c",  "/a\\b",
        "/%00",      "/a%00.png", "/%0a",    "/%1f",      "/%7f",   "/%",    "/%2",
        "/%zz",      "/%g0",      "/a#b",    "/\x01",     "/a\tb",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        serve_path p;
        if (serve_path_parse(bad[i], &p) == 0)
            fail_msg("'%s' was taken as '%s'", bad[i], p.path);
    }
    char long_path[1100] = "/";
    memset(long_path + 1, 'a', 1050);
    long_path[1051] = '\0';
    serve_path p;
    assert_int_equal(serve_path_parse(long_path, &p), -1);
    char long_part[300] = "/";
    memset(long_part + 1, 'a', 256);
    long_part[257] = '\0';
    assert_int_equal(serve_path_parse(long_part, &p), -1);
}

static void paths_taken(void **state)
{
    (void)state;
    serve_path p;
    assert_int_equal(serve_path_parse("/", &p), 0);
    assert_string_equal(p.path, "");
    assert_true(p.dir);
    assert_null(p.query);
    serve_path_free(&p);
    assert_int_equal(serve_path_parse("/slug/?a=1&b", &p), 0);
    assert_string_equal(p.path, "slug/");
    assert_string_equal(p.raw, "/slug/");
    assert_string_equal(p.query, "a=1&b");
    assert_true(p.dir);
    serve_path_free(&p);
    assert_int_equal(serve_path_parse("/static/a%20b%C3%A9.css", &p), 0);
    assert_string_equal(p.path, "static/a b\xc3\xa9.css");
    assert_false(p.dir);
    assert_false(p.hidden);
    serve_path_free(&p);
    /* dots inside a name are a name; a leading one hides it */
    assert_int_equal(serve_path_parse("/a..b/...", &p), 0);
    assert_string_equal(p.path, "a..b/...");
    assert_true(p.hidden);
    serve_path_free(&p);
    assert_int_equal(serve_path_parse("/.boardpress-tree", &p), 0);
    assert_true(p.hidden);
    serve_path_free(&p);
}

static void types_and_etags(void **state)
{
    (void)state;
    assert_string_equal(serve_type("a/index.html"), "text/html; charset=utf-8");
    assert_string_equal(serve_type("static/boardpress.CSS"), "text/css; charset=utf-8");
    assert_string_equal(serve_type("static/simcore.wasm"), "application/wasm");
    assert_string_equal(serve_type("f.woff2"), "font/woff2");
    assert_string_equal(serve_type("results.json"), "application/json");
    assert_string_equal(serve_type("sitemap.xml"), "application/xml");
    assert_string_equal(serve_type("board.svg"), "image/svg+xml");
    assert_string_equal(serve_type("favicon.ico"), "image/vnd.microsoft.icon");
    assert_string_equal(serve_type("a.dir/noext"), "application/octet-stream");
    assert_string_equal(serve_type("README"), "application/octet-stream");

    const char *tag = "\"0123abcd\"";
    assert_true(serve_etag_match("\"0123abcd\"", tag));
    assert_true(serve_etag_match("W/\"0123abcd\"", tag));
    assert_true(serve_etag_match("\"x\", \"0123abcd\"", tag));
    assert_true(serve_etag_match("*", tag));
    assert_false(serve_etag_match("\"0123abc\"", tag));
    assert_false(serve_etag_match("\"0123abcde\"", tag));
    assert_false(serve_etag_match("", tag));
}

static void script_put_in(void **state)
{
    (void)state;
    size_t n;
    const char *html = "<html><body><p>a</p></BODY></html>";
    char *page = serve_inject(html, strlen(html), "\"ab\"", &n);
    assert_string_equal(page, "<html><body><p>a</p><script src=\"/__boardpress/reload.js\" "
                              "data-etag=\"ab\"></script>\n</BODY></html>");
    assert_int_equal(n, strlen(page));
    free(page);
    /* the last </body>: one quoted in the text comes before it */
    const char *two = "<body><code>&lt;/body></code></body>";
    page = serve_inject(two, strlen(two), "\"c\"", &n);
    assert_non_null(strstr(page, "</code><script"));
    free(page);
    /* none: at the end */
    page = serve_inject("text", 4, "\"d\"", &n);
    assert_int_equal(strncmp(page, "text<script", 11), 0);
    free(page);
    page = serve_not_found("a<b>", false, &n);
    assert_non_null(strstr(page, "/a&lt;b&gt;"));
    assert_non_null(strstr(page, "/__boardpress/reload.js"));
    free(page);
}

/* A site folder with a page, a folder without one, a link out, a pipe. */
static void files_beneath_out(void **state)
{
    (void)state;
    char dir[] = "/tmp/bp-test-serve-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char *out = xasprintf("%s/public", dir);
    char *cmd = xasprintf("mkdir -p %s/slug %s/empty %s/static && echo page >%s/slug/index.html && "
                          "echo top >%s/index.html && echo secret >%s/secret && "
                          "ln -s ../secret %s/leak && ln -s %s %s/leakdir && "
                          "mkfifo %s/static/pipe && echo css >%s/static/a.css",
                          out, out, out, out, out, dir, out, dir, out, out, out);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    static const struct {
        const char *target;
        serve_found want;
    } cases[] = {
        {"/", SERVE_FOUND},
        {"/slug/", SERVE_FOUND},
        {"/slug", SERVE_REDIRECT},
        {"/slug/index.html", SERVE_FOUND},
        {"/empty/", SERVE_MISSING},
        {"/empty", SERVE_REDIRECT},
        {"/leak", SERVE_MISSING},
        {"/leakdir/", SERVE_MISSING},
        {"/leakdir/secret", SERVE_MISSING},
        {"/static/pipe", SERVE_MISSING},
        {"/static/a.css", SERVE_FOUND},
        {"/static/a.css/", SERVE_MISSING},
        {"/nothing", SERVE_MISSING},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        serve_path p;
        assert_int_equal(serve_path_parse(cases[i].target, &p), 0);
        serve_file f;
        serve_found got = serve_open(out, &p, &f);
        if (got != cases[i].want)
            fail_msg("%s: got %d, want %d", cases[i].target, got, cases[i].want);
        if (got == SERVE_FOUND) {
            char b[16] = "";
            assert_true(read(f.fd, b, sizeof b - 1) > 0);
            assert_null(strstr(b, "secret"));
            assert_int_equal(f.etag[0], '"');
            close(f.fd);
        }
        serve_path_free(&p);
    }
    /* the same file, the same tag; the page is a page */
    serve_path p;
    serve_file f1, f2;
    serve_path_parse("/slug/", &p);
    serve_open(out, &p, &f1);
    serve_open(out, &p, &f2);
    assert_string_equal(f1.etag, f2.etag);
    assert_true(f1.html);
    close(f1.fd);
    close(f2.fd);
    serve_path_free(&p);
    char *gone = xasprintf("%s/none", dir);
    serve_path_parse("/", &p);
    assert_int_equal(serve_open(gone, &p, &f1), SERVE_NO_SITE);
    serve_path_free(&p);
    free(gone);
    cmd = xasprintf("rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    free(cmd);
    free(out);
}

static void events(void **state)
{
    (void)state;
    reload_state l;
    reload_init(&l);
    buf b;
    buf_init(&b);
    reload_event(&l, true, &b);
    assert_string_equal(b.data, "event: hello\ndata: {\"gen\":0,\"ok\":true,\"errors\":[]}\n\n");
    char *changed[] = {"a/index.html", "static/\xff.css"};
    build_report r = {0};
    diag d;
    diag_init(&d, NULL);
    diag_error_hint(&d, "p.md", 2, 3, "did you mean 'y'?", "unknown 'x</script>'");
    r.diags = d.recs;
    r.n_diags = d.n_recs;
    r.changed = changed;
    r.n_changed = 2;
    reload_update(&l, 0, &r);
    buf_clear(&b);
    reload_event(&l, false, &b);
    assert_string_equal(
        b.data, "event: build\ndata: {\"gen\":1,\"ok\":true,\"errors\":[{\"text\":\"p.md:2:3: "
                "error: unknown 'x\\u003c/script\\u003e'; did you mean 'y'?\",\"path\":"
                "\"p.md\",\"line\":2,\"col\":3,\"message\":\"unknown "
                "'x\\u003c/script\\u003e'; did you mean 'y'?\",\"hint\":\"did you mean "
                "'y'?\",\"source\":null,\"caret\":null}],\"changed\":[\"/a/index.html\","
                "\"/static/\\ufffd.css\"]}\n\n");
    size_t n;
    const char *js = reload_script(&n);
    assert_true(n > 1000 && strlen(js) == n);
    assert_non_null(strstr(js, "/__boardpress/events"));
    buf_free(&b);
    diag_free(&d);
    reload_free(&l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(paths_refused),     cmocka_unit_test(paths_taken),
        cmocka_unit_test(types_and_etags),   cmocka_unit_test(script_put_in),
        cmocka_unit_test(files_beneath_out), cmocka_unit_test(events),
    };
    return cmocka_run_group_tests_name("serve", tests, NULL, NULL);
}
