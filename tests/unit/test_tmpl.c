/* test_tmpl.c — the template language: variables (escaped or HTML),
 * if/else, each with item scopes, partials, comments, and every error with
 * its file:line:col. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gen_testlib.h"
#include "render/tmpl.h"
#include "base/util.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    char *dir; /* templates folder with partials/ */
} fixture;

static int setup(void **state)
{
    fixture *f = xcalloc(1, sizeof *f);
    f->dir = gt_tempdir();
    gt_write(f->dir, "partials/head.html", "<title>{{ title }}</title>");
    gt_write(f->dir, "partials/outer.html", "[{{> inner }}]");
    gt_write(f->dir, "partials/inner.html", "({{ site_title }})");
    gt_write(f->dir, "partials/self.html", "a\n  {{> self }}");
    gt_write(f->dir, "partials/ping.html", "{{> pong }}");
    gt_write(f->dir, "partials/pong.html", "x {{> ping }}");
    gt_write(f->dir, "partials/typo.html", "\n {{ titel }}");
    gt_write(f->dir, "partials/broken.html", "{{#if title }}open");
    gt_write(f->dir, "page.html", "<h1>{{ title }}</h1>{{> head }}\n");
    gt_write(f->dir, "bad-utf8.html", "ab\xff");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    gt_rm_rf(f->dir);
    free(f->dir);
    free(f);
    return 0;
}

/* A page-like scope: title, summary, content, an empty text, and lists. */
static tmpl_scope *page_scope(void)
{
    tmpl_scope *s = tmpl_scope_new(NULL);
    tmpl_set_text(s, "title", "Fish & <Chips>");
    tmpl_set_text(s, "summary", "It's \"good\"");
    tmpl_set_text(s, "site_title", "Site");
    tmpl_set_html(s, "content", "<p>Body &amp; more</p>");
    tmpl_set_text(s, "empty", "");
    static const char *const titles[] = {"One", "Two <2>", "Three"};
    for (int i = 0; i < 3; i++) {
        tmpl_scope *item = tmpl_list_add(s, "nav");
        tmpl_set_text(item, "title", titles[i]);
        tmpl_set_text(item, "current", i == 1 ? "page" : "");
    }
    tmpl_set_text(tmpl_list_add(s, "tags"), "tag", "a");
    tmpl_set_text(tmpl_list_add(s, "tags"), "tag", "b");
    tmpl_set_text(tmpl_list_add(s, "tags"), "tag", "c");
    tmpl_list_declare(s, "none");
    return s;
}

/* Parse and render text; returns the output (caller frees) or NULL when
 * parsing failed; messages land in d. */
static char *render_in(const fixture *f, const char *text, const tmpl_scope *s, diag *d, int *rc)
{
    tmpl *t = tmpl_parse(f->dir, "t.html", text, strlen(text), d);
    if (!t)
        return NULL;
    buf out;
    buf_init(&out);
    *rc = tmpl_render(t, s, &out, d);
    tmpl_free(t);
    return buf_detach(&out);
}

static void renders(const fixture *f, const char *text, const char *want)
{
    diag d;
    diag_init(&d, NULL);
    tmpl_scope *s = page_scope();
    int rc = -1;
    char *out = render_in(f, text, s, &d, &rc);
    if (diag_text(&d))
        fail_msg("unexpected: %s", diag_text(&d));
    assert_int_equal(rc, 0);
    assert_string_equal(out, want);
    free(out);
    tmpl_scope_free(s);
    diag_free(&d);
}

/* Parsing or rendering fails with exactly these messages. */
static void fails(const fixture *f, const char *text, const char *want)
{
    diag d;
    diag_init(&d, NULL);
    tmpl_scope *s = page_scope();
    int rc = 0;
    char *out = render_in(f, text, s, &d, &rc);
    assert_true(out == NULL || rc == -1);
    assert_string_equal(diag_text(&d) ? diag_text(&d) : "", want);
    free(out);
    tmpl_scope_free(s);
    diag_free(&d);
}

static void variables(void **state)
{
    fixture *f = *state;
    renders(f, "plain text, no tags\n", "plain text, no tags\n");
    renders(f, "", "");
    renders(f, "<h1>{{ title }}</h1>", "<h1>Fish &amp; &lt;Chips&gt;</h1>");
    renders(f, "{{title}}|{{  title  }}", "Fish &amp; &lt;Chips&gt;|Fish &amp; &lt;Chips&gt;");
    renders(f, "<meta content=\"{{ summary }}\">", "<meta content=\"It&#39;s &quot;good&quot;\">");
    renders(f, "{{ content }}", "<p>Body &amp; more</p>");
    renders(f, "[{{ empty }}]", "[]");
    renders(f, "a { b } {c} }} d", "a { b } {c} }} d");
}

static void conditions_and_lists(void **state)
{
    fixture *f = *state;
    renders(f, "{{#if title }}yes{{/if }}", "yes");
    renders(f, "{{#if empty }}yes{{/if }}", "");
    renders(f, "{{#if empty }}yes{{ else }}no{{/if }}", "no");
    renders(f, "{{#if title}}yes{{else}}no{{/if}}", "yes");
    renders(f, "{{#if nav }}has nav{{/if }}", "has nav");
    renders(f, "{{#if none }}has{{ else }}none{{/if }}", "none");
    renders(f, "{{#each none }}x{{/each }}", "");
    renders(f, "<ul>{{#each nav }}<li>{{ title }}</li>{{/each }}</ul>",
            "<ul><li>One</li><li>Two &lt;2&gt;</li><li>Three</li></ul>");
    /* inside an item its variables come first, then the page's */
    renders(f, "{{#each nav }}{{ title }}@{{ site_title }}{{#if current }}*{{/if }};{{/each }}",
            "One@Site;Two &lt;2&gt;@Site*;Three@Site;");
    /* nested: an if inside each inside if, with else branches */
    renders(f,
            "{{#if nav }}{{#each nav }}{{#if current }}[{{ title }}]{{ else }}{{ title }}{{/if }} "
            "{{/each }}{{ else }}no nav{{/if }}",
            "One [Two &lt;2&gt;] Three ");
    /* an item without the variable falls back to the page's */
    renders(f, "{{#each tags }}{{ tag }}:{{ title }};{{/each }}",
            "a:Fish &amp; &lt;Chips&gt;;b:Fish &amp; &lt;Chips&gt;;c:Fish &amp; &lt;Chips&gt;;");
    /* an each inside another sees the outer item too, and the inner item
     * shadows it */
    renders(f,
            "{{#each tags }}{{#each nav }}{{#if current }}{{ tag }}{{ title }}{{/if }}{{/each }}"
            "{{/each }}",
            "aTwo &lt;2&gt;bTwo &lt;2&gt;cTwo &lt;2&gt;");
}

static void partials_and_comments(void **state)
{
    fixture *f = *state;
    renders(f, "{{> head }}", "<title>Fish &amp; &lt;Chips&gt;</title>");
    renders(f, "{{>head}}", "<title>Fish &amp; &lt;Chips&gt;</title>");
    renders(f, "{{> outer }}", "[(Site)]");
    renders(f, "{{#each nav }}{{> head }}{{/each }}",
            "<title>One</title><title>Two &lt;2&gt;</title><title>Three</title>");
    renders(f, "a{{! a comment }}b", "ab");
    renders(f, "a{{!no space, {{ title }} is not read}}b", "a is not read}}b");
    renders(f, "a{{! {{#if x}} }}b", "a }}b"); /* the first "}}" ends it */

    diag d;
    diag_init(&d, NULL);
    tmpl *t = tmpl_load(f->dir, "page", &d);
    assert_non_null(t);
    tmpl_scope *s = page_scope();
    buf out;
    buf_init(&out);
    assert_int_equal(tmpl_render(t, s, &out, &d), 0);
    assert_string_equal(
        out.data, "<h1>Fish &amp; &lt;Chips&gt;</h1><title>Fish &amp; &lt;Chips&gt;</title>\n");
    buf_free(&out);
    tmpl_scope_free(s);
    tmpl_free(t);
    assert_null(diag_text(&d));
    diag_free(&d);
}

static void parse_errors(void **state)
{
    fixture *f = *state;
    char *want;
    want = xasprintf("t.html:2:3: error: cannot read template '%s/partials/nope.html': no such "
                     "file\n",
                     f->dir);
    fails(f, "x\n  {{> nope }}", want);
    free(want);
    want = xasprintf("%s/partials/self.html:2:3: error: partial 'self' includes itself\n", f->dir);
    fails(f, "{{> self }}", want);
    free(want);
    want = xasprintf("%s/partials/pong.html:1:3: error: partial 'ping' includes itself\n", f->dir);
    fails(f, "{{> ping }}", want);
    free(want);
    want = xasprintf("%s/partials/broken.html:1:1: error: '{{#if title}}' is not closed with "
                     "'{{/if}}'\n",
                     f->dir);
    fails(f, "{{> broken }}", want);
    free(want);

    fails(f, "a\n{{#if title }}x",
          "t.html:2:1: error: '{{#if title}}' is not closed with '{{/if}}'\n");
    fails(f, "{{#each nav }}x{{/if }}",
          "t.html:1:1: error: '{{#each nav}}' is not closed with '{{/each}}'\n");
    fails(f, "{{#if title }}{{#each nav }}{{/if }}",
          "t.html:1:15: error: '{{#each nav}}' is not closed with '{{/each}}'\n"
          "t.html:1:1: error: '{{#if title}}' is not closed with '{{/if}}'\n");
    fails(f, "{{#each nav }}{{ else }}{{/each }}",
          "t.html:1:15: error: '{{else}}' belongs to an '{{#if}}', not to '{{#each nav}}'\n");
    fails(f, "{{#if title }}a{{ else }}b\n{{else}}c{{/if}} d {{ title }}",
          "t.html:2:1: error: '{{#if title}}' has a second '{{else}}'\n");
    fails(f, "x {{/if }} y", "t.html:1:3: error: '{{/if}}' without an opening block\n");
    fails(f, "é\n  {{ else }}", "t.html:2:3: error: '{{else}}' without an opening block\n");
    fails(f, "{{/foo }}", "t.html:1:1: error: unknown closing tag '/foo'\n");
    fails(f, "{{#unless title }}x{{/unless }}",
          "t.html:1:1: error: unknown block '{{#unless title}}' (expected '{{#if NAME}}' or "
          "'{{#each NAME}}')\n"
          "t.html:1:20: error: unknown closing tag '/unless'\n");
    fails(f, "ab {{ a.b }}", "t.html:1:4: error: '{{ a.b }}' is not a template variable name\n");
    fails(f, "{{ }}", "t.html:1:1: error: '{{  }}' is not a template variable name\n");
    fails(f, "ok\n{{ title", "t.html:2:1: error: unterminated '{{' in template\n");

    diag d;
    diag_init(&d, NULL);
    assert_null(tmpl_load(f->dir, "nope", &d));
    want = xasprintf("%s/nope.html: error: cannot read the template: no such file\n", f->dir);
    assert_string_equal(diag_text(&d), want);
    free(want);
    diag_free(&d);
    diag_init(&d, NULL);
    assert_null(tmpl_load(f->dir, "bad-utf8", &d));
    want = xasprintf("%s/bad-utf8.html:1:3: error: template is not valid UTF-8 text\n", f->dir);
    assert_string_equal(diag_text(&d), want);
    free(want);
    diag_free(&d);
}

static void unknown_variables(void **state)
{
    fixture *f = *state;
    fails(f, "<h1>\n  é {{ titel }}</h1>",
          "t.html:2:5: error: unknown template variable 'titel'; did you mean 'title'?\n");
    fails(f, "{{#if sumary }}x{{/if }}",
          "t.html:1:1: error: unknown template variable 'sumary'; did you mean 'summary'?\n");
    fails(f, "{{#each nva }}x{{/each }}",
          "t.html:1:1: error: unknown template list 'nva'; did you mean 'nav'?\n");
    fails(f, "{{ nav }}", "t.html:1:1: error: 'nav' is a list: use {{#each nav}} ... {{/each}}\n");
    fails(f, "{{#each title }}x{{/each }}", "t.html:1:1: error: 'title' is not a list\n");
    /* no near name: the candidates are listed when few */
    diag d;
    diag_init(&d, NULL);
    tmpl *t = tmpl_parse(f->dir, "t.html", "{{ zzzzzz }}", 12, &d);
    tmpl_scope *s = tmpl_scope_new(NULL);
    tmpl_set_text(s, "title", "x");
    tmpl_set_text(s, "lang", "en");
    buf out;
    buf_init(&out);
    assert_int_equal(tmpl_render(t, s, &out, &d), -1);
    assert_string_equal(diag_text(&d),
                        "t.html:1:1: error: unknown template variable 'zzzzzz' (expected "
                        "'title' or 'lang')\n");
    tmpl_free(t);
    tmpl_scope_free(s);
    buf_free(&out);
    diag_free(&d);

    /* in a partial: the partial's own file and position */
    char *want = xasprintf(
        "%s/partials/typo.html:2:2: error: unknown template variable 'titel'; did you mean "
        "'title'?\n",
        f->dir);
    fails(f, "{{> typo }}", want);
    free(want);
}

static void reported_once_per_position(void **state)
{
    fixture *f = *state;
    diag d;
    diag_init(&d, NULL);
    const char *text = "{{ titel }} {{#each nav }}{{ titel }}{{ qqqqqqqq }}{{/each }}";
    tmpl *t = tmpl_parse(f->dir, "t.html", text, strlen(text), &d);
    assert_non_null(t);
    tmpl_scope *s = page_scope();
    buf out;
    buf_init(&out);
    for (int i = 0; i < 3; i++) { /* three pages with the same template */
        buf_clear(&out);
        assert_int_equal(tmpl_render(t, s, &out, &d), -1);
    }
    assert_string_equal(diag_text(&d),
                        "t.html:1:1: error: unknown template variable 'titel'; did you mean "
                        "'title'?\n"
                        "t.html:1:27: error: unknown template variable 'titel'; did you mean "
                        "'title'?\n"
                        "t.html:1:38: error: unknown template variable 'qqqqqqqq' (expected "
                        "'title', 'current', 'summary', 'site_title', 'content', 'empty', 'nav', "
                        "'tags' or 'none')\n");
    assert_int_equal(d.errors, 3);
    buf_free(&out);
    tmpl_scope_free(s);
    tmpl_free(t);
    diag_free(&d);
}

static void scopes(void **state)
{
    (void)state;
    tmpl_scope *s = tmpl_scope_new(NULL);
    tmpl_set_text(s, "a", "1");
    tmpl_set_text(s, "a", "2");  /* replaces */
    tmpl_set_html(s, "h", NULL); /* NULL is "" */
    tmpl_scope *child = tmpl_scope_new(s);
    tmpl_set_text(child, "b", "<b>");
    diag d;
    diag_init(&d, NULL);
    tmpl *t = tmpl_parse(".", "t.html", "{{ a }}{{ b }}[{{ h }}]", 23, &d);
    buf out;
    buf_init(&out);
    assert_int_equal(tmpl_render(t, child, &out, &d), 0);
    assert_string_equal(out.data, "2&lt;b&gt;[]");
    buf_free(&out);
    tmpl_free(t);
    tmpl_scope_free(child);
    tmpl_scope_free(s);
    tmpl_scope_free(NULL);
    tmpl_free(NULL);
    diag_free(&d);
}

/* Every file is parsed once per library: a broken partial that three
 * templates include, one of them twice, is one error, said once (not a
 * repeated line held back), and asking for a template again reports
 * nothing new. */
static void parsed_once(void **state)
{
    fixture *f = *state;
    gt_write(f->dir, "two.html", "{{> broken }}{{> broken }}");
    gt_write(f->dir, "three.html", "{{> head }}{{> broken }}");
    diag d;
    diag_init(&d, NULL);
    tmpl_lib *lib = tmpl_lib_new(f->dir);
    assert_null(tmpl_lib_load(lib, "two", &d));
    assert_null(tmpl_lib_load(lib, "three", &d));
    assert_null(tmpl_lib_load(lib, "two", &d));
    assert_non_null(tmpl_lib_load(lib, "page", &d)); /* head.html is fine */
    assert_int_equal(d.reports, 1);
    assert_int_equal(d.errors, 1);
    char *want = xasprintf("%s/partials/broken.html:1:1: error: '{{#if title}}' is not closed "
                           "with '{{/if}}'\n",
                           f->dir);
    assert_string_equal(diag_text(&d), want);
    free(want);
    tmpl_lib_free(lib);
    diag_free(&d);
}

/* Partials that each include the next four times: parsed once each, and the
 * product of their includes is refused where it crosses the limit, without
 * rendering anything (before, 11 such files took 11 s and 1.2 GB). */
static void includes_multiply(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < 12; i++) {
        char *rel = xasprintf("partials/m%d.html", i);
        char *text = i == 11 ? xstrdup("leaf ")
                             : xasprintf("{{> m%d }}{{> m%d }}{{> m%d }}{{> m%d }}", i + 1, i + 1,
                                         i + 1, i + 1);
        gt_write(f->dir, rel, text);
        free(rel);
        free(text);
    }
    diag d;
    diag_init(&d, NULL);
    tmpl *t = tmpl_parse(f->dir, "t.html", "{{> m0 }}", 9, &d);
    assert_null(t);
    /* m7 shows 4 + 16 + 64 + 256 = 340 partials, so m6's includes of it make
     * 341, 682, then 1023: the third crosses */
    char *want = xasprintf("%s/partials/m6.html:1:19: error: with '{{> m7 }}' (itself 340 "
                           "partials), this template shows more than 1000 partials: partials "
                           "that include each other several times multiply; include fewer\n",
                           f->dir);
    assert_string_equal(diag_text(&d), want);
    free(want);
    assert_int_equal(d.reports, 1);
    diag_free(&d);

    /* within the limit it renders, each file parsed once: m8 shows 84 */
    diag_init(&d, NULL);
    t = tmpl_parse(f->dir, "t.html", "{{> m8 }}", 9, &d);
    assert_non_null(t);
    tmpl_scope *s = tmpl_scope_new(NULL);
    buf out;
    buf_init(&out);
    assert_int_equal(tmpl_render(t, s, &out, &d), 0);
    assert_int_equal(out.len, 64 * strlen("leaf "));
    buf_free(&out);
    tmpl_scope_free(s);
    tmpl_free(t);
    diag_free(&d);
}

/* A partial parsed at a shallow place and included again deeper still
 * counts its own nesting. */
static void nesting_of_a_parsed_partial(void **state)
{
    fixture *f = *state;
    for (int i = 0; i < 17; i++) {
        char *rel = xasprintf("partials/n%d.html", i);
        char *text = i == 16 ? xstrdup("end") : xasprintf("{{> n%d }}", i + 1);
        gt_write(f->dir, rel, text);
        free(rel);
        free(text);
    }
    diag d;
    diag_init(&d, NULL);
    /* n1 to n16 nest 16 deep: fine alone, parsed */
    tmpl_lib *lib = tmpl_lib_new(f->dir);
    gt_write(f->dir, "shallow.html", "{{> n1 }}");
    gt_write(f->dir, "deep.html", "{{> n0 }}");
    assert_non_null(tmpl_lib_load(lib, "shallow", &d));
    assert_null(diag_text(&d));
    /* n0 adds one more level on top of the parsed n1 */
    assert_null(tmpl_lib_load(lib, "deep", &d));
    char *want =
        xasprintf("%s/partials/n0.html:1:1: error: partials nest deeper than 16 levels\n", f->dir);
    assert_string_equal(diag_text(&d), want);
    free(want);
    tmpl_lib_free(lib);
    diag_free(&d);
}

/* Output past 64 MiB stops the rendering, is reported once at the
 * template, and later renderings fail at once. */
static void output_limit(void **state)
{
    fixture *f = *state;
    char *kb = xcalloc(1, 1025);
    memset(kb, 'x', 1024);
    gt_write(f->dir, "partials/kb.html", kb);
    free(kb);
    diag d;
    diag_init(&d, NULL);
    const char *text = "{{#each items }}{{> kb }}{{/each }}";
    tmpl *t = tmpl_parse(f->dir, "big.html", text, strlen(text), &d);
    assert_non_null(t);
    tmpl_scope *s = tmpl_scope_new(NULL);
    for (int i = 0; i < 70000; i++) /* 70,000 KiB */
        tmpl_list_add(s, "items");
    buf out;
    buf_init(&out);
    assert_int_equal(tmpl_render(t, s, &out, &d), -1);
    assert_true(out.len <= ((size_t)64 << 20) + 1024);
    buf_clear(&out);
    assert_int_equal(tmpl_render(t, s, &out, &d), -1);
    assert_int_equal(out.len, 0);
    assert_string_equal(diag_text(&d),
                        "big.html: error: renders more than 64 MiB of HTML for one page; "
                        "its lists or partials repeat too much\n");
    assert_int_equal(d.reports, 1);
    buf_free(&out);
    tmpl_scope_free(s);
    tmpl_free(t);
    diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(variables),
        cmocka_unit_test(conditions_and_lists),
        cmocka_unit_test(partials_and_comments),
        cmocka_unit_test(parse_errors),
        cmocka_unit_test(unknown_variables),
        cmocka_unit_test(reported_once_per_position),
        cmocka_unit_test(scopes),
        cmocka_unit_test(parsed_once),
        cmocka_unit_test(includes_multiply),
        cmocka_unit_test(nesting_of_a_parsed_partial),
        cmocka_unit_test(output_limit),
    };
    return cmocka_run_group_tests_name("tmpl", tests, setup, teardown);
}
