/* test_markdown.c — Markdown rendering with placeholders: where each one is
 * found (real file line and character column), where none is looked for
 * (code), which stand alone, what replaces them, heading ids, raw HTML and
 * link safety, and the limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "render/markdown.h"
#include "base/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SEEN 32

typedef struct {
    char inner[64];
    int line, col;
    bool alone;
} seen;

/* The recording expand callback's context. Blocks are given for alone
 * " board ... " placeholders; " bad " is refused with an error. */
typedef struct {
    diag *d;
    seen s[MAX_SEEN];
    size_t n;
} recorder;

static int record(void *ctx, const char *inner, size_t len, int line, int col, bool alone, buf *out,
                  bool *block)
{
    recorder *r = ctx;
    assert_true(r->n < MAX_SEEN);
    seen *s = &r->s[r->n++];
    snprintf(s->inner, sizeof s->inner, "%.*s", (int)len, inner);
    s->line = line;
    s->col = col;
    s->alone = alone;
    if (strcmp(s->inner, " bad ") == 0) {
        diag_error(r->d, "p.md", line, col, "bad placeholder");
        return -1;
    }
    if (alone && strncmp(s->inner, " board ", 7) == 0) {
        buf_puts(out, "<figure>B</figure>\n");
        *block = true;
        return 0;
    }
    buf_puts(out, "<span>V</span>");
    return 0;
}

typedef struct {
    diag d;
    recorder r;
    buf html;
    int rc;
} run;

/* Render text as the body of p.md starting on file line 4 (three lines of
 * front matter before it). */
static void render(run *x, const char *text, bool unsafe_html)
{
    memset(x, 0, sizeof *x);
    diag_init(&x->d, NULL);
    x->r.d = &x->d;
    buf_init(&x->html);
    md_options o = {"p.md", 3, unsafe_html, record, &x->r, NULL, NULL, NULL};
    x->rc = md_render(text, strlen(text), &o, &x->html, &x->d);
}

static void done(run *x)
{
    buf_free(&x->html);
    diag_free(&x->d);
}

static const char *html(const run *x)
{
    return x->html.data ? x->html.data : "";
}

static void found(const run *x, size_t i, const char *inner, int line, int col, bool alone)
{
    assert_true(i < x->r.n);
    const seen *s = &x->r.s[i];
    if (strcmp(s->inner, inner) != 0 || s->line != line || s->col != col || s->alone != alone)
        fail_msg("placeholder %zu: '%s' at %d:%d alone=%d; want '%s' at %d:%d alone=%d", i,
                 s->inner, s->line, s->col, s->alone, inner, line, col, alone);
}

static void positions(void **state)
{
    (void)state;
    run x;
    render(&x,
           "Of {{ b.jobs }} and {{ b.duplicates }}.\n" /* body line 1 = file line 4 */
           "second line é {{ u.x }}\n"
           "\n"
           "| a | b |\n"
           "|---|---|\n"
           "| {{ t.x \\| ci }} | y |\n" /* 9 */
           "\n"
           "- item {{ li.x }}\n" /* 11 */
           "\n"
           "# Head {{ h.x }}\n" /* 13 */
           "\n"
           "→ ünï {{ w.x }}\n" /* 15: six characters, ten bytes before it */
           "\n"
           "> quoted\n"
           "> {{ q.x }}\n" /* 18 */
           "\n"
           "*em* {{ e.x }}\n", /* 20 */
           false);
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.d.errors, 0);
    assert_int_equal(x.r.n, 9);
    found(&x, 0, " b.jobs ", 4, 4, false);
    found(&x, 1, " b.duplicates ", 4, 21, false);
    found(&x, 2, " u.x ", 5, 15, false);
    found(&x, 3, " t.x | ci ", 9, 3, false);
    found(&x, 4, " li.x ", 11, 8, false);
    found(&x, 5, " h.x ", 13, 8, false);
    found(&x, 6, " w.x ", 15, 7, false);
    found(&x, 7, " q.x ", 18, 3, false);
    found(&x, 8, " e.x ", 20, 6, false);
    done(&x);
}

static void positions_after_escapes(void **state)
{
    (void)state;
    /* Entities and backslash escapes are shorter once decoded; positions
     * are still those of the source. */
    run x;
    render(&x,
           "&amp; {{ a.x }} \\* {{ b.x }}\n"
           "\n"
           "&lt;&gt; &#x263A; {{ c.x }}\n"
           "\n"
           "| a \\| b {{ t.x }} | é {{ t.y }} |\n"
           "|--|--|\n",
           false);
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.r.n, 5);
    found(&x, 0, " a.x ", 4, 7, false);
    found(&x, 1, " b.x ", 4, 20, false);
    found(&x, 2, " c.x ", 6, 19, false);
    found(&x, 3, " t.x ", 8, 10, false);
    found(&x, 4, " t.y ", 8, 24, false);
    done(&x);

    render(&x, "&amp; &amp; {{ broken\n", false);
    assert_int_equal(x.rc, -1);
    assert_string_equal(diag_text(&x.d),
                        "p.md:4:13: error: unterminated placeholder: '{{' without '}}' "
                        "on the same line\n");
    done(&x);
}

static void table_cells(void **state)
{
    (void)state;
    /* docs/pages.md's own example: a filter bar written as \| in a cell. */
    run x;
    render(&x,
           "| measure | value |\n"
           "|---|---|\n"
           "| pre {{ t.x \\| ci }} post | {{ t.y }} |\n"
           "| **{{ t.z }}** | `{{ t.c }}` |\n",
           false);
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.r.n, 3);
    found(&x, 0, " t.x | ci ", 6, 7, false);
    found(&x, 1, " t.y ", 6, 30, false);
    found(&x, 2, " t.z ", 7, 5, false);
    assert_string_equal(html(&x), "<table>\n<thead>\n<tr>\n<th>measure</th>\n<th>value</th>\n"
                                  "</tr>\n</thead>\n<tbody>\n<tr>\n"
                                  "<td>pre <span>V</span> post</td>\n<td><span>V</span></td>\n"
                                  "</tr>\n<tr>\n<td><strong><span>V</span></strong></td>\n"
                                  "<td><code>{{ t.c }}</code></td>\n</tr>\n</tbody>\n</table>\n");
    done(&x);
}

static void code_is_left_alone(void **state)
{
    (void)state;
    run x;
    render(&x,
           "Use `{{ c.d }}` like this.\n"
           "\n"
           "```\n"
           "{{ f.g }}\n"
           "```\n"
           "\n"
           "    {{ i.j }}\n"
           "\n"
           "~~~yaml\n"
           "x: {{ k.l\n"
           "~~~\n",
           false);
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.r.n, 0);
    assert_string_equal(html(&x), "<p>Use <code>{{ c.d }}</code> like this.</p>\n"
                                  "<pre><code>{{ f.g }}\n</code></pre>\n"
                                  "<pre><code>{{ i.j }}\n</code></pre>\n"
                                  "<pre><code class=\"language-yaml\">x: {{ k.l\n</code></pre>\n");
    done(&x);
}

/* "\{{" shows the braces; "\\{{" is a backslash and then a placeholder. */
static void escaped_braces(void **state)
{
    (void)state;
    run x;
    render(&x, "Write \\{{ a.b }} to show it, then {{ c.d }}.\n\nAn unclosed \\{{ stays.\n", false);
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.r.n, 1);
    found(&x, 0, " c.d ", 4, 35, false);
    assert_non_null(strstr(html(&x), "<p>Write {{ a.b }} to show it, then "));
    assert_non_null(strstr(html(&x), "<p>An unclosed {{ stays.</p>"));
    done(&x);
}

/* In image alt text a value becomes plain text (a custom node would vanish). */
static void alt_text_values(void **state)
{
    (void)state;
    run x;
    render(&x, "![Cost {{ a.b }} here](pic.svg)\n", false);
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.r.n, 1);
    assert_non_null(strstr(html(&x), "alt=\"Cost V here\""));
    done(&x);
}

static void alone_and_replacement(void **state)
{
    (void)state;
    run x;
    render(&x,
           "Before.\n"
           "\n"
           "{{ board a }}\n" /* 6 */
           "\n"
           "  {{ board b }}\n" /* 8: indented a little, still a paragraph */
           "\n"
           "{{ board c }} and text\n" /* 10 */
           "\n"
           "{{ x.y }}{{ board d }}\n" /* 12 */
           "\n"
           "- {{ board e }}\n" /* 14 */
           "\n"
           "> {{ board f }}\n" /* 16 */
           "\n"
           "After {{ m.n }}.\n",
           false);
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.r.n, 8);
    found(&x, 0, " board a ", 6, 1, true);
    found(&x, 1, " board b ", 8, 3, true);
    found(&x, 2, " board c ", 10, 1, false);
    found(&x, 3, " x.y ", 12, 1, false);
    found(&x, 4, " board d ", 12, 10, false);
    found(&x, 5, " board e ", 14, 3, false);
    found(&x, 6, " board f ", 16, 3, false);
    found(&x, 7, " m.n ", 18, 7, false);
    assert_string_equal(html(&x), "<p>Before.</p>\n"
                                  "<figure>B</figure>\n"
                                  "<figure>B</figure>\n"
                                  "<p><span>V</span> and text</p>\n"
                                  "<p><span>V</span><span>V</span></p>\n"
                                  "<ul>\n<li><span>V</span></li>\n</ul>\n"
                                  "<blockquote>\n<p><span>V</span></p>\n</blockquote>\n"
                                  "<p>After <span>V</span>.</p>\n");
    done(&x);
}

static void placeholder_errors(void **state)
{
    (void)state;
    run x;
    render(&x, "Text {{ b.x\nand more.\n", false);
    assert_int_equal(x.rc, -1);
    assert_string_equal(diag_text(&x.d),
                        "p.md:4:6: error: unterminated placeholder: '{{' without '}}' "
                        "on the same line\n");
    assert_int_equal(x.r.n, 0);
    assert_string_equal(html(&x), "");
    done(&x);

    /* "}}" on the next line does not close it */
    render(&x, "one\nün {{ b.x\n}}\n", false);
    assert_string_equal(diag_text(&x.d),
                        "p.md:5:4: error: unterminated placeholder: '{{' without '}}' "
                        "on the same line\n");
    done(&x);

    /* a refused placeholder stops nothing: every error is reported */
    render(&x, "{{ bad }} and {{ ok.x }}\n\nlater {{ bad }} {{ also\n", false);
    assert_int_equal(x.rc, -1);
    assert_int_equal(x.r.n, 3);
    found(&x, 1, " ok.x ", 4, 15, false);
    assert_string_equal(diag_text(&x.d),
                        "p.md:4:1: error: bad placeholder\n"
                        "p.md:6:7: error: bad placeholder\n"
                        "p.md:6:17: error: unterminated placeholder: '{{' without '}}' "
                        "on the same line\n");
    assert_string_equal(html(&x), "");
    done(&x);
}

static void heading_ids(void **state)
{
    (void)state;
    run x;
    render(&x,
           "# How it works\n"
           "\n"
           "## How it *works*\n"
           "\n"
           "### How it works\n"
           "\n"
           "# {{ b.x }}\n"
           "\n"
           "Setext & more\n"
           "-------------\n"
           "\n"
           "# Section\n",
           false);
    assert_int_equal(x.rc, 0);
    const char *want =
        "<h1 id=\"how-it-works\">How it works <a class=\"bp-anchor\" href=\"#how-it-works\" "
        "aria-label=\"Link to this section\">#</a></h1>\n"
        "<h2 id=\"how-it-works-2\">How it <em>works</em> <a class=\"bp-anchor\" "
        "href=\"#how-it-works-2\" aria-label=\"Link to this section\">#</a></h2>\n"
        "<h3 id=\"how-it-works-3\">How it works <a class=\"bp-anchor\" href=\"#how-it-works-3\" "
        "aria-label=\"Link to this section\">#</a></h3>\n"
        "<h1 id=\"section\"><span>V</span> <a class=\"bp-anchor\" href=\"#section\" "
        "aria-label=\"Link to this section\">#</a></h1>\n"
        "<h2 id=\"setext-more\">Setext &amp; more <a class=\"bp-anchor\" href=\"#setext-more\" "
        "aria-label=\"Link to this section\">#</a></h2>\n"
        "<h1 id=\"section-2\">Section <a class=\"bp-anchor\" href=\"#section-2\" "
        "aria-label=\"Link to this section\">#</a></h1>\n";
    assert_string_equal(html(&x), want);
    done(&x);
}

static void heading_ids_avoid_page_ids(void **state)
{
    (void)state;
    /* ids the template and the figures already use are not reused */
    strset ids = {0};
    strset_add(&ids, "main");
    strset_add(&ids, "compare");
    diag d;
    diag_init(&d, NULL);
    recorder r = {.d = &d};
    md_options o = {"p.md", 0, false, record, &r, &ids, NULL, NULL};
    buf out;
    buf_init(&out);
    const char *text = "# Main\n\n## Compare\n\n## Compare\n";
    assert_int_equal(md_render(text, strlen(text), &o, &out, &d), 0);
    assert_non_null(strstr(out.data, "<h1 id=\"main-2\">"));
    assert_non_null(strstr(out.data, "<h2 id=\"compare-2\">"));
    assert_non_null(strstr(out.data, "<h2 id=\"compare-3\">"));
    assert_true(strset_has(&ids, "main-2"));
    assert_true(strset_has(&ids, "compare-3"));
    assert_int_equal(ids.n, 5);
    buf_free(&out);
    strset_free(&ids);
    diag_free(&d);
}

/* Every link and image is told with its place in the file (front matter
 * lines counted, columns in characters), also inside headings and tables. */
static void note_link(void *ctx, const char *url, int line, int col)
{
    buf *b = ctx;
    buf_printf(b, "%d:%d %s\n", line, col, url);
}

static void links_are_reported(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    recorder r = {.d = &d};
    buf got;
    buf_init(&got);
    md_options o = {"p.md", 2, false, record, &r, NULL, note_link, &got};
    buf out;
    buf_init(&out);
    const char *text = "# To [the top](../#a)\n\n"
                       "\u00e9t\u00e9 [b](x/) and ![c](d.svg)\n\n"
                       "| a | b |\n|---|---|\n| [e](mailto:e@x.org) | f |\n";
    assert_int_equal(md_render(text, strlen(text), &o, &out, &d), 0);
    assert_string_equal(got.data, "3:16 ../#a\n5:9 x/\n5:22 d.svg\n9:7 mailto:e@x.org\n");
    buf_free(&got);
    buf_free(&out);
    diag_free(&d);
}

static void slugify_eq(const char *text, const char *want)
{
    buf b;
    buf_init(&b);
    buf_puts(&b, "x:");
    md_slugify(&b, text, strlen(text));
    assert_string_equal(b.data + 2, want);
    buf_free(&b);
}

static void slugify(void **state)
{
    (void)state;
    slugify_eq("How it works", "how-it-works");
    slugify_eq("  Leading & trailing!  ", "leading-trailing");
    slugify_eq("HTTP/2 vs. AMQP", "http-2-vs-amqp");
    slugify_eq("100% sure", "100-sure");
    slugify_eq("a--b__c", "a-b-c");
    slugify_eq("Café au lait", "caf-au-lait"); /* ASCII only: other letters separate */
    slugify_eq("", "section");
    slugify_eq("!!!", "section");
    slugify_eq("日本", "section");
}

static void raw_html_and_links(void **state)
{
    (void)state;
    const char *text = "<div onclick=\"x()\">raw</div>\n"
                       "\n"
                       "text <b>bold</b> <script>alert(1)</script>\n"
                       "\n"
                       "[a](javascript:alert(1)) [b](https://example.com/?q=1&r=2) "
                       "[c](data:text/html,x) [d](vbscript:x)\n";
    run x;
    render(&x, text, false);
    assert_int_equal(x.rc, 0);
    assert_string_equal(html(&x),
                        "<!-- raw HTML omitted -->\n"
                        "<p>text <!-- raw HTML omitted -->bold<!-- raw HTML omitted --> "
                        "<!-- raw HTML omitted -->alert(1)<!-- raw HTML omitted --></p>\n"
                        "<p><a href=\"\">a</a> <a href=\"https://example.com/?q=1&amp;r=2\">"
                        "b</a> <a href=\"\">c</a> <a href=\"\">d</a></p>\n");
    done(&x);

    /* unsafe_html keeps raw HTML, but the tag filter still defuses <script> */
    render(&x, text, true);
    assert_int_equal(x.rc, 0);
    assert_non_null(strstr(html(&x), "<div onclick=\"x()\">raw</div>\n"));
    assert_non_null(strstr(html(&x), "text <b>bold</b> &lt;script>alert(1)&lt;/script>"));
    done(&x);

    /* a placeholder inside raw HTML is not text: it stays as written */
    render(&x, "<p title=\"{{ a.b }}\">x</p>\n", true);
    assert_int_equal(x.r.n, 0);
    assert_string_equal(html(&x), "<p title=\"{{ a.b }}\">x</p>\n");
    done(&x);
}

static void table(buf *b, int cols)
{
    buf_puts(b, "Intro {{ x.y }}.\n\n|");
    for (int i = 0; i < cols; i++)
        buf_puts(b, " h |");
    buf_puts(b, "\n|");
    for (int i = 0; i < cols; i++)
        buf_puts(b, "---|");
    buf_puts(b, "\n|");
    for (int i = 0; i < cols; i++)
        buf_puts(b, " c |");
    buf_putc(b, '\n');
}

static void limits(void **state)
{
    (void)state;
    buf b;
    buf_init(&b);
    table(&b, MD_MAX_TABLE_COLUMNS);
    run x;
    render(&x, b.data, false);
    assert_int_equal(x.rc, 0);
    assert_int_equal(x.r.n, 1);
    done(&x);
    buf_clear(&b);
    table(&b, MD_MAX_TABLE_COLUMNS + 1);
    render(&x, b.data, false);
    assert_int_equal(x.rc, -1);
    assert_string_equal(diag_text(&x.d),
                        "p.md:6:1: error: table has 65 columns; the limit is 64\n");
    assert_int_equal(x.r.n, 0); /* nothing is expanded once the page failed */
    assert_string_equal(html(&x), "");
    done(&x);

    /* the body size limit, reported at the body's first line */
    buf_clear(&b);
    for (size_t i = 0; i <= MD_MAX_BYTES; i++)
        buf_putc(&b, i % 80 == 79 ? '\n' : 'a');
    render(&x, b.data, false);
    assert_int_equal(x.rc, -1);
    assert_string_equal(diag_text(&x.d),
                        "p.md:4:1: error: page body is 257 KiB; the limit is 256 KiB\n");
    done(&x);
    buf_clear(&b);
    for (size_t i = 0; i < MD_MAX_BYTES; i++) /* paragraphs of 50 lines */
        buf_putc(&b, i % 80 == 79 || (i % 4000 == 3998) ? '\n' : 'a');
    render(&x, b.data, false);
    assert_int_equal(x.rc, 0);
    done(&x);
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(positions),
        cmocka_unit_test(positions_after_escapes),
        cmocka_unit_test(table_cells),
        cmocka_unit_test(code_is_left_alone),
        cmocka_unit_test(escaped_braces),
        cmocka_unit_test(alt_text_values),
        cmocka_unit_test(alone_and_replacement),
        cmocka_unit_test(placeholder_errors),
        cmocka_unit_test(heading_ids),
        cmocka_unit_test(heading_ids_avoid_page_ids),
        cmocka_unit_test(slugify),
        cmocka_unit_test(links_are_reported),
        cmocka_unit_test(raw_html_and_links),
        cmocka_unit_test(limits),
    };
    return cmocka_run_group_tests_name("markdown", tests, NULL, NULL);
}
