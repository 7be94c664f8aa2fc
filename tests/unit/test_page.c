/* test_page.c — front matter split off the Markdown body (with the body's
 * first file line for error positions) and read into bp_page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "load/page.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int rc;
    size_t fm_start, fm_len, body_offset;
    int body_line;
} split;

static split do_split(const char *text, size_t len)
{
    split s = {0, 99, 99, 99, 99};
    s.rc = page_split(text, len, &s.fm_start, &s.fm_len, &s.body_offset, &s.body_line);
    return s;
}

#define SPLIT(t) do_split(t, sizeof t - 1)

static void splitting(void **state)
{
    (void)state;
    const char t1[] = "---\ntitle: x\n---\nbody\n";
    split s = SPLIT(t1);
    assert_int_equal(s.rc, 0);
    assert_int_equal(s.fm_start, 4);
    assert_int_equal(s.fm_len, 9);
    assert_memory_equal(t1 + s.fm_start, "title: x\n", s.fm_len);
    assert_int_equal(s.body_offset, 17);
    assert_string_equal(t1 + s.body_offset, "body\n");
    assert_int_equal(s.body_line, 4);

    /* Windows line ends */
    const char t2[] = "---\r\ntitle: x\r\nsummary: y\r\n---\r\nbody\r\n";
    s = SPLIT(t2);
    assert_int_equal(s.rc, 0);
    assert_int_equal(s.fm_start, 5);
    assert_memory_equal(t2 + s.fm_start, "title: x\r\nsummary: y\r\n", s.fm_len);
    assert_int_equal(s.fm_len, 22);
    assert_string_equal(t2 + s.body_offset, "body\r\n");
    assert_int_equal(s.body_line, 5);

    /* "..." ends it too */
    const char t3[] = "---\na: 1\nb: 2\nc: 3\n...\n\n# Heading\n";
    s = SPLIT(t3);
    assert_int_equal(s.rc, 0);
    assert_int_equal(s.fm_len, 15);
    assert_string_equal(t3 + s.body_offset, "\n# Heading\n");
    assert_int_equal(s.body_line, 6);

    /* closing line at the very end, without a newline: empty body */
    const char t4[] = "---\na: 1\n---";
    s = SPLIT(t4);
    assert_int_equal(s.rc, 0);
    assert_int_equal(s.body_offset, sizeof t4 - 1);
    assert_int_equal(s.body_line, 4);

    /* empty front matter */
    s = SPLIT("---\n---\nx");
    assert_int_equal(s.rc, 0);
    assert_int_equal(s.fm_len, 0);
    assert_int_equal(s.body_offset, 8);
    assert_int_equal(s.body_line, 3);

    /* lines that only look like the end do not end it */
    const char t5[] = "---\na: ----\n---- \n --- \n--- x\n---\nbody";
    s = SPLIT(t5);
    assert_int_equal(s.rc, 0);
    assert_string_equal(t5 + s.body_offset, "body");
    assert_int_equal(s.body_line, 7);

    /* a UTF-8 byte order mark before the first line is allowed */
    const char t6[] = "\xef\xbb\xbf---\ntitle: x\n---\nbody";
    s = SPLIT(t6);
    assert_int_equal(s.rc, 0);
    assert_int_equal(s.fm_start, 7);
    assert_memory_equal(t6 + s.fm_start, "title: x\n", s.fm_len);
    assert_string_equal(t6 + s.body_offset, "body");
    assert_int_equal(s.body_line, 4);
}

static void no_or_unterminated_front_matter(void **state)
{
    (void)state;
    assert_int_equal(SPLIT("title: x\n").rc, 1);
    assert_int_equal(SPLIT("").rc, 1);
    assert_int_equal(SPLIT("----\n").rc, 1);
    assert_int_equal(SPLIT(" ---\n").rc, 1);
    assert_int_equal(SPLIT("# ---\n---\n").rc, 1);
    assert_int_equal(SPLIT("\n---\ntitle: x\n---\n").rc, 1); /* must be the first line */
    assert_int_equal(SPLIT("---\ntitle: x\n").rc, -1);
    assert_int_equal(SPLIT("---\ntitle: x").rc, -1);
    assert_int_equal(SPLIT("---").rc, -1);
    assert_int_equal(SPLIT("---\n").rc, -1);
    assert_int_equal(do_split("---\na\n---\n", 8).rc, -1); /* only len bytes count */
}

static void slugs(void **state)
{
    (void)state;
    assert_true(page_valid_slug("a"));
    assert_true(page_valid_slug("idempotent-consumer"));
    assert_true(page_valid_slug("2024-retries-9"));
    char s64[66];
    memset(s64, 'a', 64);
    s64[64] = '\0';
    assert_true(page_valid_slug(s64));
    s64[64] = 'a';
    s64[65] = '\0';
    assert_false(page_valid_slug(s64));
    assert_false(page_valid_slug(""));
    assert_false(page_valid_slug("Page"));
    assert_false(page_valid_slug("a_b"));
    assert_false(page_valid_slug("a b"));
    assert_false(page_valid_slug("a/b"));
    assert_false(page_valid_slug(".."));
    assert_false(page_valid_slug("café"));
}

/* page_parse with messages collected; returns the page or NULL. */
static bp_page *parse(const char *text, const char *slug_default, diag *d)
{
    diag_init(d, NULL);
    return page_parse("content/p.md", text, strlen(text), slug_default, d);
}

static void rejected(const char *text, const char *slug_default, const char *want)
{
    diag d;
    bp_page *p = parse(text, slug_default, &d);
    assert_null(p);
    assert_string_equal(diag_text(&d), want);
    diag_free(&d);
}

static void reading(void **state)
{
    (void)state;
    diag d;
    const char *text = "---\n"
                       "title: Retries over HTTP\n"
                       "summary: A lost response makes the client send again.\n"
                       "boards: [boards/http-retry.yaml, boards/b.yaml]\n"
                       "levels:\n"
                       "  - levels/mini.yaml\n"
                       "order: -3\n"
                       "template: wide\n"
                       "date: 2024-02-29\n"
                       "updated: 2026-12-02\n"
                       "---\n"
                       "Of {{ http-retry.jobs }} charges.\n";
    bp_page *p = parse(text, "http-retries", &d);
    assert_non_null(p);
    assert_int_equal(d.errors, 0);
    assert_string_equal(p->path, "content/p.md");
    assert_string_equal(p->title, "Retries over HTTP");
    assert_string_equal(p->summary, "A lost response makes the client send again.");
    assert_string_equal(p->slug, "http-retries");
    assert_false(p->is_home);
    assert_int_equal(p->order, -3);
    assert_string_equal(p->template_name, "wide");
    assert_string_equal(p->date, "2024-02-29");
    assert_string_equal(p->updated, "2026-12-02");
    assert_int_equal(p->n_boards, 2);
    assert_string_equal(p->boards[0].path, "boards/http-retry.yaml");
    assert_int_equal(p->boards[0].pos.line, 4);
    assert_int_equal(p->boards[0].pos.col, 10);
    assert_string_equal(p->boards[1].path, "boards/b.yaml");
    assert_int_equal(p->boards[1].pos.col, 34);
    assert_int_equal(p->n_levels, 1);
    assert_string_equal(p->levels[0].path, "levels/mini.yaml");
    assert_int_equal(p->levels[0].pos.line, 6);
    assert_int_equal(p->levels[0].pos.col, 5);
    assert_int_equal(p->n_charts, 0);
    assert_int_equal(p->body_line, 12);
    assert_string_equal(text + p->body_offset, "Of {{ http-retry.jobs }} charges.\n");
    /* the body is kept as read: the scan and the renderer read this copy */
    assert_int_equal(p->body_len, strlen("Of {{ http-retry.jobs }} charges.\n"));
    assert_string_equal(p->body, "Of {{ http-retry.jobs }} charges.\n");
    page_free(p);
    diag_free(&d);

    /* defaults; slug from the front matter wins over the file name */
    p = parse("---\ntitle: T\nslug: other-name\n---\n", "file-name", &d);
    assert_non_null(p);
    assert_string_equal(p->slug, "other-name");
    assert_null(p->summary);
    assert_string_equal(p->template_name, "page");
    assert_int_equal(p->order, 0);
    page_free(p);
    diag_free(&d);

    /* index.md is the home page, with the empty slug */
    p = parse("---\ntitle: Home\n---\n", "index", &d);
    assert_non_null(p);
    assert_true(p->is_home);
    assert_string_equal(p->slug, "");
    page_free(p);
    diag_free(&d);
    page_free(NULL);
}

static void errors(void **state)
{
    (void)state;
    rejected("", "p",
             "content/p.md:1:1: error: the page is empty; it needs front matter with a title\n");
    rejected("# Hello\n", "p",
             "content/p.md:1:1: error: the page needs front matter: start it with a line '---', "
             "then 'title: ...', then '---'\n");
    rejected("---\ntitle: x\n", "p",
             "content/p.md:1:1: error: front matter starts with '---' but has no closing '---' "
             "line\n");
    rejected("---\n---\nbody\n", "p",
             "content/p.md:2:1: error: front matter is empty; it needs at least a title\n");
    rejected("---\n# nothing\n---\n", "p",
             "content/p.md:2:1: error: front matter is empty; it needs at least a title\n");
    rejected("---\n- a\n---\n", "p",
             "content/p.md:2:1: error: front matter must be a mapping, found a list\n");
    rejected("---\ntitle\n---\n", "p",
             "content/p.md:2:1: error: front matter must be a mapping, found 'title'\n");
    rejected("---\ntitle: x\nsumary: y\n---\n", "p",
             "content/p.md:3:1: error: unknown front matter key 'sumary'; did you mean "
             "'summary'?\n");
    rejected("---\ntitle: x\ncolour: red\n---\n", "p",
             "content/p.md:3:1: error: unknown front matter key 'colour' (expected 'title', "
             "'summary', 'boards', 'levels', 'charts', 'slug', 'order', 'template', 'date', "
             "'updated' or 'labels')\n");
    rejected("---\ntitle: x\ndate: 2025-02-29\n---\n", "p",
             "content/p.md:3:7: error: date '2025-02-29' is not a day: write it as YYYY-MM-DD, "
             "such as 2026-12-02\n");
    rejected("---\nsummary: y\n---\n", "p",
             "content/p.md:2:1: error: front matter needs a title\n");
    rejected("---\ntitle:\n---\n", "p", "content/p.md:2:7: error: title is empty\n");
    rejected("---\ntitle: x\nslug: Hello World\n---\n", "p",
             "content/p.md:3:7: error: slug 'Hello World' may only use a-z, 0-9 and '-' (1 to 64 "
             "characters), so it stays inside the output folder\n");
    rejected("---\ntitle: x\nslug: ../up\n---\n", "p",
             "content/p.md:3:7: error: slug '../up' may only use a-z, 0-9 and '-' (1 to 64 "
             "characters), so it stays inside the output folder\n");
    rejected("---\ntitle: x\nslug: [a]\n---\n", "p",
             "content/p.md:3:7: error: slug must be text, found a list\n");
    rejected("---\ntitle: Home\nslug: home\n---\n", "index",
             "content/p.md:3:7: error: the home page (index.md) cannot have a slug\n");
    rejected("---\ntitle: x\n---\n", "My Page",
             "content/p.md: error: file name 'My Page.md' does not make a valid slug (a-z, 0-9, "
             "'-'); rename it or set 'slug:'\n");
    rejected("---\ntitle: x\nboards: [boards/a.yaml, boards/b.yaml, boards/a.yaml]\n---\n", "p",
             "content/p.md:3:40: error: 'boards/a.yaml' is listed twice in boards\n");
    rejected("---\ntitle: x\ncharts:\n  - charts/c.yaml\n  - charts/c.yaml\n---\n", "p",
             "content/p.md:5:5: error: 'charts/c.yaml' is listed twice in charts\n");
    rejected("---\ntitle: x\nboards: boards/a.yaml\n---\n", "p",
             "content/p.md:3:9: error: boards must be a list, found 'boards/a.yaml'\n");
    rejected("---\ntitle: x\norder: first\n---\n", "p",
             "content/p.md:3:8: error: order: expected a whole number, found 'first'\n");
    rejected("---\ntitle: x\norder: 2000000\n---\n", "p",
             "content/p.md:3:8: error: order must be between -1000000 and 1000000, found "
             "2000000\n");
    rejected("---\ntitle: x\ntemplate: My Page\n---\n", "p",
             "content/p.md:3:11: error: template 'My Page' may only use a-z, 0-9 and '-'\n");
    /* YAML problems keep their real file line (front matter starts on line 2) */
    rejected("---\ntitle: x\ntitle: y\n---\n", "p",
             "content/p.md:3:1: error: duplicate key 'title' (first given at line 2)\n");
    /* every problem of the front matter is reported, in one go */
    rejected("---\ntitle: [x]\nsumary: 1\nslug: A\n---\n", "p",
             "content/p.md:3:1: error: unknown front matter key 'sumary'; did you mean "
             "'summary'?\n"
             "content/p.md:2:8: error: title must be text, found a list\n"
             "content/p.md:4:7: error: slug 'A' may only use a-z, 0-9 and '-' (1 to 64 "
             "characters), so it stays inside the output folder\n");
}

static void bad_bytes(void **state)
{
    (void)state;
    rejected("---\ntitle: x\n---\nbody \xff\n", "p",
             "content/p.md:4:6: error: invalid UTF-8 (pages must be UTF-8 encoded)\n");
    rejected("---\ntitle: é\xc3\n---\n", "p",
             "content/p.md:2:9: error: invalid UTF-8 (pages must be UTF-8 encoded)\n");
    diag d;
    diag_init(&d, NULL);
    const char text[] = "---\ntitle: x\n---\nab\0c\n";
    assert_null(page_parse("content/p.md", text, sizeof text - 1, "p", &d));
    assert_string_equal(diag_text(&d),
                        "content/p.md:4:3: error: NUL byte in the page (is it a text file?)\n");
    diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(splitting), cmocka_unit_test(no_or_unterminated_front_matter),
        cmocka_unit_test(slugs),     cmocka_unit_test(reading),
        cmocka_unit_test(errors),    cmocka_unit_test(bad_bytes),
    };
    return cmocka_run_group_tests_name("page", tests, NULL, NULL);
}
