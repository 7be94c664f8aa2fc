/* test_search.c — the search index: how a text is cut into terms (words,
 * numbers, a number with its unit), how a rendered page is cut into
 * sections at its headings, and the index read back term by term
 * (render/search.c, render/search_text.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "render/render_internal.h"
#include "gen_testlib.h"

#include <stdlib.h>
#include <string.h>

static void join(void *ctx, const char *t, size_t len)
{
    buf *b = ctx;
    if (b->len)
        buf_putc(b, '|');
    buf_put(b, t, len);
}

static void tokens_eq(const char *text, const char *want)
{
    buf b;
    buf_init(&b);
    search_tokens(text, strlen(text), join, &b);
    if (strcmp(b.data ? b.data : "", want) != 0)
        fail_msg("tokens of \"%s\" gave \"%s\", want \"%s\"", text, b.data ? b.data : "", want);
    buf_free(&b);
}

static void tokens(void **state)
{
    (void)state;
    tokens_eq("The Queue delivered it TWICE", "queue|delivered|twice");
    /* a number, and the number with the word after it */
    tokens_eq("after 5 min, 110 duplicates", "after|5|min|5 min|110|duplicates|110 duplicates");
    /* thousands separators go, the decimal point stays; '%' is a unit */
    tokens_eq("1,000 jobs at 99.9% or 0.005 %", "1000|jobs|1000 jobs|99.9|99.9 %|0.005|0.005 %");
    /* a unit written against its number, a no-break space, a thin space */
    tokens_eq("5min 21.6\xc2\xa0s 40\xe2\x80\xaf"
              "ms",
              "5|min|5 min|21.6|21.6 s|40|ms|40 ms");
    /* a stop word breaks the pair; one letter alone is left out but kept in a pair */
    tokens_eq("2 of the 3 s a", "2|3|3 s");
    /* the minus sign and ± part numbers; letters past ASCII are letters */
    tokens_eq("\xe2\x88\x92"
              "110.3 \xc2\xb1 5.8 Café µs",
              "110.3|5.8|café|5.8 café|µs");
    /* a list with commas is not one number */
    tokens_eq("1,2,3", "1|2|3");
    tokens_eq("1,000,000 and 1,5 or 1.2.3", "1000000|1|5|1.2|3");
    /* Latin-1 capitals lowered as the script does */
    tokens_eq("\xc3\x89T\xc3\x89", "\xc3\xa9t\xc3\xa9");
    /* a bad byte is a separator */
    tokens_eq("ab\xff"
              "cd",
              "ab|cd");
    char longw[SEARCH_MAX_TOKEN + 8];
    memset(longw, 'x', sizeof longw - 1);
    longw[sizeof longw - 1] = '\0';
    tokens_eq(longw, "");
}

static const char page_html[] =
    "<p>In the <em>mini</em> board, <span class=\"bp-num\">7</span>&nbsp;deliveries &amp; "
    "charges.</p>\n"
    "<h2 id=\"see-it\">See it <em>on</em> the board <a class=\"bp-anchor\" href=\"#see-it\" "
    "aria-label=\"Link to this section\">#</a></h2>\n"
    "<figure id=\"board-a\"><img src=\"a.svg\" alt=\"Measured: 110.3 duplicates (goal "
    "missed)\"><figcaption>Board&#32;A</figcaption></figure>\n"
    "<script>var hidden = 'never indexed';</script><style>p{}</style>\n"
    "<svg><text>drawn</text></svg><!-- a comment -->"
    "<table><tr><td>21.6 s</td><td>Pass</td></tr></table>\n"
    "<h3 id=\"two\">Two</h3><p>wo<b>r</b>d</p><h4>no id</h4><p>last</p>\n";

static void sections(void **state)
{
    (void)state;
    page_info pi;
    memset(&pi, 0, sizeof pi);
    search_sections(&pi, page_html, strlen(page_html));
    assert_int_equal(pi.n_sections, 3);
    assert_string_equal(pi.sections[0].id, "");
    assert_string_equal(pi.sections[0].heading, "");
    assert_string_equal(pi.sections[0].text, "In the mini board, 7\xc2\xa0"
                                             "deliveries & charges.");
    assert_string_equal(pi.sections[1].id, "see-it");
    assert_string_equal(pi.sections[1].heading, "See it on the board");
    assert_string_equal(pi.sections[1].text,
                        "Measured: 110.3 duplicates (goal missed) Board A 21.6 s Pass");
    assert_string_equal(pi.sections[2].id, "two");
    assert_string_equal(pi.sections[2].heading, "Two");
    /* a heading without an id is text of its section */
    assert_string_equal(pi.sections[2].text, "word no id last");
    page_info_free(&pi);
}

/* ------------------------------------------------------------ the index read back */

/* The JSON string value of key in the index (no escapes are expected in
 * the tests' terms). */
static char *string_of(const char *js, const char *key)
{
    char pat[32];
    snprintf(pat, sizeof pat, "\"%s\":\"", key);
    const char *p = strstr(js, pat);
    assert_non_null(p);
    p += strlen(pat);
    const char *e = strchr(p, '"');
    assert_non_null(e);
    return xstrndup(p, (size_t)(e - p));
}

/* The postings of term as "SECTION:WEIGHT ..." decoded, or NULL. */
static char *postings_of(const char *js, const char *term)
{
    char *terms = string_of(js, "terms"), *posts = string_of(js, "postings");
    char *result = NULL;
    size_t k = 0;
    char *tp = terms, *pp = posts;
    const char *prev = "";
    for (;;) {
        char *te = strchr(tp, '|'), *pe = strchr(pp, '|');
        if (te)
            *te = '\0';
        if (pe)
            *pe = '\0';
        /* sorted, each once */
        if (k && strcmp(prev, tp) >= 0)
            fail_msg("terms out of order: '%s' before '%s'", prev, tp);
        if (!strcmp(tp, term)) {
            buf b;
            buf_init(&b);
            long sec = -1;
            for (char *it = strtok(pp, ","); it; it = strtok(NULL, ",")) {
                char *colon = strchr(it, ':');
                sec += strtol(it, NULL, 36);
                long w = colon ? strtol(colon + 1, NULL, 36) : 1;
                buf_printf(&b, "%s%ld:%ld", b.len ? " " : "", sec, w);
            }
            result = buf_detach(&b);
        }
        prev = tp;
        k++;
        if (!te || !pe) {
            assert_true(!te && !pe); /* as many postings as terms */
            break;
        }
        tp = te + 1;
        pp = pe + 1;
    }
    free(terms);
    free(posts);
    return result;
}

static void posting_eq(const char *js, const char *term, const char *want)
{
    char *got = postings_of(js, term);
    if (!want) {
        if (got)
            fail_msg("term '%s' should not be in the index, has %s", term, got);
        return;
    }
    if (!got || strcmp(got, want) != 0)
        fail_msg("postings of '%s': %s, want %s", term, got ? got : "(none)", want);
    free(got);
}

static void index_file(void **state)
{
    (void)state;
    page_info a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    search_sections(&a, page_html, strlen(page_html));
    static const char other[] = "<p>Retries after 5 min.</p><h2 id=\"dup\">Duplicates</h2>"
                                "<p>Five min, then 110 duplicates and duplicates again.</p>";
    search_sections(&b, other, strlen(other));
    search_page pages[2] = {
        {"", "Board \"home\"", &a},
        {"retries/", "Retries", &b},
    };
    search_page_terms(&a, pages[0].title);
    search_page_terms(&b, pages[1].title);
    buf js;
    buf_init(&js);
    search_index_js(&js, pages, 2);
    assert_non_null(strstr(js.data, "window.bpSearchIndex={\"v\":1,"));
    assert_non_null(strstr(js.data, "\"pages\":[\"\",\"Board \\\"home\\\"\",\"retries/\","
                                    "\"Retries\"]"));
    assert_non_null(strstr(js.data, "\"sections\":[0,\"\",\"\",0,\"see-it\",\"See it on the "
                                    "board\",0,\"two\",\"Two\",1,\"\",\"\",1,\"dup\","
                                    "\"Duplicates\"]"));
    /* sections 0-2 are the first page's, 3-4 the second's; the title
     * weighs 8 on a page's first section, a heading 4, the text 1 each time */
    posting_eq(js.data, "board", "0:9 1:5");
    posting_eq(js.data, "retries", "3:9");
    posting_eq(js.data, "duplicates", "1:1 4:6");
    posting_eq(js.data, "110 duplicates", "4:1"); /* the script reads 110 as 110.3 too */
    posting_eq(js.data, "110.3 duplicates", "1:1");
    posting_eq(js.data, "5 min", "3:1");
    posting_eq(js.data, "21.6 s", "1:1");
    posting_eq(js.data, "never", NULL);
    posting_eq(js.data, "drawn", NULL);
    posting_eq(js.data, "the", NULL);
    /* the same input, the same bytes (the index took the pages' terms) */
    assert_null(a.terms);
    page_info_free(&a);
    page_info_free(&b);
    search_sections(&a, page_html, strlen(page_html));
    search_sections(&b, other, strlen(other));
    search_page_terms(&a, pages[0].title);
    search_page_terms(&b, pages[1].title);
    buf again;
    buf_init(&again);
    search_index_js(&again, pages, 2);
    assert_int_equal(again.len, js.len);
    assert_memory_equal(again.data, js.data, js.len);
    buf_free(&again);
    buf_free(&js);
    page_info_free(&a);
    page_info_free(&b);
}

/* A section's 36th and 1,296th: the differences take two and three digits. */
static void many_sections(void **state)
{
    (void)state;
    buf html;
    buf_init(&html);
    for (int i = 1; i <= 1300; i++)
        buf_printf(&html, "<h2 id=\"s%d\">S</h2><p>%s</p>", i,
                   i == 36 || i == 1296 ? "rare" : "common");
    page_info pi;
    memset(&pi, 0, sizeof pi);
    search_sections(&pi, html.data, html.len);
    assert_int_equal(pi.n_sections, 1301);
    search_page p = {"p/", "P", &pi};
    search_page_terms(&pi, p.title);
    buf js;
    buf_init(&js);
    search_index_js(&js, &p, 1);
    posting_eq(js.data, "rare", "36:1 1296:1");
    char *c = postings_of(js.data, "common");
    assert_non_null(c);
    assert_non_null(strstr(c, "1:1 2:1 "));
    assert_non_null(strstr(c, " 1300:1"));
    assert_null(strstr(c, "36:1 37"));
    free(c);
    buf_free(&js);
    buf_free(&html);
    page_info_free(&pi);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tokens),
        cmocka_unit_test(sections),
        cmocka_unit_test(index_file),
        cmocka_unit_test(many_sections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
