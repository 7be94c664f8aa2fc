/* test_util.c — buffers, HTML and JSON escaping, UTF-8 checking, string
 * sets, hashing and size-limited file reading. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gen_testlib.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

static void html_eq(const char *in, size_t n, const char *want)
{
    buf b;
    buf_init(&b);
    buf_html(&b, in, n);
    /* nothing escaped leaves an empty buffer empty: no data at all */
    assert_string_equal(b.data ? b.data : "", want);
    buf_free(&b);
}

static void json_eq(const char *in, size_t n, const char *want)
{
    buf b;
    buf_init(&b);
    buf_json_str(&b, in, n);
    assert_string_equal(b.data ? b.data : "", want);
    buf_free(&b);
}

#define HTML(s, want) html_eq(s, sizeof s - 1, want)
#define JSON(s, want) json_eq(s, sizeof s - 1, want)

static void buffers(void **state)
{
    (void)state;
    buf b;
    buf_init(&b);
    buf_puts(&b, "ab");
    buf_putc(&b, 'c');
    buf_printf(&b, "%d-%s", 42, "x");
    buf_put(&b, "yz!", 2);
    assert_string_equal(b.data, "abc42-xyz");
    assert_int_equal(b.len, 9);
    buf_clear(&b);
    assert_string_equal(b.data, "");
    assert_int_equal(b.len, 0);
    for (int i = 0; i < 1000; i++)
        buf_printf(&b, "%03d", i);
    assert_int_equal(b.len, 3000);
    assert_memory_equal(b.data + 2997, "999", 4); /* with its NUL */
    char *p = buf_detach(&b);
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    free(p);
    p = buf_detach(&b); /* an empty buffer still gives a string */
    assert_string_equal(p, "");
    free(p);
    char *s = xasprintf("%s:%d", "a", 7);
    assert_string_equal(s, "a:7");
    free(s);
    s = xstrndup("abcdef", 3);
    assert_string_equal(s, "abc");
    free(s);
}

static void html_escaping(void **state)
{
    (void)state;
    HTML("", "");
    HTML("plain text", "plain text");
    HTML("&<>\"'", "&amp;&lt;&gt;&quot;&#39;");
    HTML("a & b < c > d \"e\" 'f'", "a &amp; b &lt; c &gt; d &quot;e&quot; &#39;f&#39;");
    HTML("<script>alert('x')</script>", "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    HTML("&amp;", "&amp;amp;");
    HTML("é → ü", "é → ü");
    html_eq("a<b", 2, "a&lt;"); /* only n bytes */
    buf b;
    buf_init(&b);
    buf_puts(&b, "x=");
    buf_html_s(&b, "\"1\"");
    assert_string_equal(b.data, "x=&quot;1&quot;");
    buf_free(&b);
}

static void json_escaping(void **state)
{
    (void)state;
    JSON("", "");
    JSON("plain", "plain");
    JSON("say \"hi\"", "say \\\"hi\\\"");
    JSON("back\\slash", "back\\\\slash");
    JSON("a\nb\rc\td", "a\\nb\\rc\\td");
    JSON("\x01\x1f\x08\x0c", "\\u0001\\u001f\\u0008\\u000c");
    JSON("\x7f", "\x7f");
    JSON("</script>", "\\u003c/script\\u003e");
    JSON("a&b", "a\\u0026b");
    JSON("\xe2\x80\xa8|\xe2\x80\xa9", "\\u2028|\\u2029"); /* U+2028, U+2029 */
    JSON("\xe2\x80\xa7", "\xe2\x80\xa7");                 /* U+2027 is fine as it is */
    JSON("é€😀", "é€😀");
    json_eq("a\0b", 3, "a\\u0000b");
    JSON("\xe2\x80", "\xe2\x80"); /* a cut-off sequence is copied, not read past */
}

static void utf8_ok(const char *s, size_t n)
{
    size_t bad = 12345;
    if (!utf8_valid(s, n, &bad))
        fail_msg("'%s' was refused at %zu", s, bad);
    assert_int_equal(bad, 12345);
}

static void utf8_bad(const char *s, size_t n, size_t want_at)
{
    size_t bad = 12345;
    assert_false(utf8_valid(s, n, &bad));
    assert_int_equal(bad, want_at);
}

#define OK(s) utf8_ok(s, sizeof s - 1)
#define BAD(s, at) utf8_bad(s, sizeof s - 1, at)

static void utf8(void **state)
{
    (void)state;
    OK("");
    OK("ascii only");
    OK("é");                /* U+00E9 */
    OK("\xc2\x80");         /* U+0080, smallest two-byte */
    OK("\xe0\xa0\x80");     /* U+0800, smallest three-byte */
    OK("\xef\xbf\xbf");     /* U+FFFF */
    OK("\xed\x9f\xbf");     /* U+D7FF, just below the surrogates */
    OK("\xee\x80\x80");     /* U+E000, just above them */
    OK("\xf0\x90\x80\x80"); /* U+10000 */
    OK("\xf4\x8f\xbf\xbf"); /* U+10FFFF, the largest */
    OK("a€b😀c");

    BAD("\xc0\x80", 0);         /* overlong NUL */
    BAD("ab\xc1\xbf", 2);       /* overlong '\x7f' */
    BAD("\xe0\x80\x80", 0);     /* overlong three-byte */
    BAD("x\xe0\x9f\xbf", 1);    /* overlong U+07FF */
    BAD("\xf0\x80\x80\x80", 0); /* overlong four-byte */
    BAD("\xf0\x8f\xbf\xbf", 0); /* overlong U+FFFF */
    BAD("ok\xed\xa0\x80", 2);   /* U+D800 */
    BAD("\xed\xbf\xbf", 0);     /* U+DFFF */
    BAD("\xf4\x90\x80\x80", 0); /* U+110000 */
    BAD("\xf5\x80\x80\x80", 0); /* lead byte past U+10FFFF */
    BAD("\xff", 0);             /* never in UTF-8 */
    BAD("abc\x80", 3);          /* stray continuation byte */
    BAD("ab\xe2\x82", 2);       /* truncated at the end */
    BAD("ab\xe2\x82z", 2);      /* truncated in the middle */
    BAD("\xf0\x9f\x98", 0);     /* three of four bytes */
    BAD("\xc3", 0);             /* one of two bytes */
    BAD("é\xc3(", 2);           /* bad continuation; offset in bytes */
    BAD("ab\0cd", 2);           /* NUL */
    BAD("\0", 0);
    utf8_bad("ab\xe2\x82\xac", 4, 2);          /* n cuts the sequence */
    assert_false(utf8_valid("\xc3", 1, NULL)); /* bad_at may be NULL */
}

static void string_sets(void **state)
{
    (void)state;
    strset set = {0};
    assert_false(strset_has(&set, "x")); /* empty: no table yet */
    char key[32];
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "key-%d", i);
        assert_true(strset_add(&set, key));
    }
    assert_int_equal(set.n, 1000);
    assert_true(set.cap >= 2000); /* at most half full */
    for (int i = 0; i < 1000; i++) {
        snprintf(key, sizeof key, "key-%d", i);
        assert_true(strset_has(&set, key));
        assert_false(strset_add(&set, key));
    }
    assert_int_equal(set.n, 1000);
    assert_false(strset_has(&set, "key-1000"));
    assert_false(strset_has(&set, "key-"));
    assert_false(strset_has(&set, ""));
    assert_true(strset_add(&set, ""));
    assert_true(strset_has(&set, ""));
    /* It copies what it stores. */
    char mine[8] = "copy";
    assert_true(strset_add(&set, mine));
    mine[0] = 'X';
    assert_true(strset_has(&set, "copy"));
    assert_false(strset_has(&set, "Xopy"));
    strset_free(&set);
    assert_int_equal(set.n, 0);
    assert_false(strset_has(&set, "copy"));
    strset_free(&set); /* twice is fine */
}

static void hashing(void **state)
{
    (void)state;
    /* FNV-1a 64 reference values: cache file names depend on them. */
    assert_true(hash64("", 0, 0) == 0xcbf29ce484222325ULL);
    assert_true(hash64("a", 1, 0) == 0xaf63dc4c8601ec8cULL);
    assert_true(hash64("foobar", 6, 0) == 0x85944171f73967e8ULL);
    assert_true(hash64("a", 1, 1) != hash64("a", 1, 0));
    assert_true(hash64("ab", 2, 0) != hash64("ba", 2, 0));
    assert_true(hash64("a\0b", 3, 0) != hash64("a", 1, 0)); /* bytes, not a C string */
}

static void file_reading(void **state)
{
    (void)state;
    char *dir = gt_tempdir();
    char *big = xmalloc(200001);
    for (size_t i = 0; i < 200000; i++)
        big[i] = (char)('a' + i % 26);
    big[200000] = '\0';
    gt_write(dir, "big.txt", big);
    gt_write(dir, "empty.txt", "");
    char *path = xasprintf("%s/big.txt", dir);

    char *text = NULL;
    size_t len = 0;
    assert_int_equal(file_read(path, 200000, &text, &len), 0);
    assert_int_equal(len, 200000);
    assert_memory_equal(text, big, 200000);
    assert_int_equal(text[200000], '\0');
    free(text);

    text = NULL;
    errno = 0;
    assert_int_equal(file_read(path, 199999, &text, &len), -1);
    assert_int_equal(errno, EFBIG);
    assert_null(text);
    errno = 0;
    assert_int_equal(file_read(path, 100, &text, &len), -1); /* inside the first chunk */
    assert_int_equal(errno, EFBIG);
    free(path);

    path = xasprintf("%s/empty.txt", dir);
    assert_int_equal(file_read(path, 0, &text, &len), 0);
    assert_int_equal(len, 0);
    assert_string_equal(text, "");
    free(text);
    free(path);

    path = xasprintf("%s/missing.txt", dir);
    errno = 0;
    assert_int_equal(file_read(path, 100, &text, &len), -1);
    assert_int_equal(errno, ENOENT);
    free(path);

    free(big);
    gt_rm_rf(dir);
    free(dir);
}

/* Only regular files are read: a folder, a named pipe (which would block a
 * reader until a writer comes) and a device are refused without a read,
 * each with its own words. */
static void not_regular_files(void **state)
{
    (void)state;
    char *dir = gt_tempdir();
    char *sub = xasprintf("%s/sub.md", dir);
    char *fifo = xasprintf("%s/pipe.md", dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    assert_int_equal(mkfifo(fifo, 0644), 0);
    char *text = NULL, why[160];
    size_t len;
    errno = 0;
    assert_int_equal(file_read(sub, 100, &text, &len), -1);
    assert_int_equal(errno, EISDIR);
    assert_string_equal(file_error_text(sub, errno, 100, why, sizeof why),
                        "it is a folder, not a file");
    errno = 0;
    assert_int_equal(file_read(fifo, 100, &text, &len), -1); /* returns: no writer needed */
    assert_int_equal(errno, FILE_ENOTREG);
    assert_string_equal(file_error_text(fifo, errno, 100, why, sizeof why),
                        "it is a named pipe, not a regular file");
    errno = 0;
    assert_int_equal(file_read("/dev/null", 100, &text, &len), -1);
    assert_int_equal(errno, FILE_ENOTREG);
    assert_string_equal(file_error_text("/dev/null", errno, 100, why, sizeof why),
                        "it is a device, not a regular file");
    assert_null(text);
    assert_string_equal(file_error_text(sub, ENOENT, 0, why, sizeof why), "no such file");
    assert_string_equal(file_error_text(sub, EFBIG, (size_t)1 << 20, why, sizeof why),
                        "larger than 1 MiB");
    assert_string_equal(file_error_text(sub, EFBIG, 320 * 1024, why, sizeof why),
                        "larger than 320 KiB");
    assert_string_equal(file_error_text(sub, EACCES, 0, why, sizeof why), "Permission denied");
    /* what the input got wrong is bad input; what the system refused is I/O */
    assert_false(file_error_is_io(ENOENT));
    assert_false(file_error_is_io(EISDIR));
    assert_false(file_error_is_io(FILE_ENOTREG));
    assert_false(file_error_is_io(EFBIG));
    assert_true(file_error_is_io(EACCES));
    assert_true(file_error_is_io(EIO));
    rmdir(sub);
    unlink(fifo);
    free(sub);
    free(fifo);
    gt_rm_rf(dir);
    free(dir);
}

/* Control characters text may not hold: C0 but tab, LF and CR; DEL; C1. */
static void control_characters(void **state)
{
    (void)state;
    unsigned cp = 0;
    assert_int_equal(text_control_at("a\tb\r\nc é", 9, &cp), 9);
    assert_int_equal(text_control_at("ab\x01", 3, &cp), 2);
    assert_int_equal(cp, 1);
    assert_int_equal(text_control_at("\x1b[31m", 5, &cp), 0);
    assert_int_equal(cp, 0x1b);
    assert_int_equal(text_control_at("x\x7f", 2, &cp), 1);
    assert_int_equal(cp, 0x7f);
    assert_int_equal(text_control_at("x\xc2\x85", 3, &cp), 1); /* U+0085, next line */
    assert_int_equal(cp, 0x85);
    assert_int_equal(text_control_at("\xc2\xa0", 2, &cp), 2); /* U+00A0 is a space */
    int line, col;
    text_pos("ab\né\nxyz", 8, &line, &col); /* the z: é is two bytes, one column */
    assert_int_equal(line, 3);
    assert_int_equal(col, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(buffers),
        cmocka_unit_test(html_escaping),
        cmocka_unit_test(json_escaping),
        cmocka_unit_test(utf8),
        cmocka_unit_test(string_sets),
        cmocka_unit_test(hashing),
        cmocka_unit_test(file_reading),
        cmocka_unit_test(not_regular_files),
        cmocka_unit_test(control_characters),
    };
    return cmocka_run_group_tests_name("util", tests, NULL, NULL);
}
