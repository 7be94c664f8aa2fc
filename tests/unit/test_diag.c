/* test_diag.c — error lines, spelling hints and exit status. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "base/diag.h"
#include "base/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* d's records as the terminal's lines, one per line (a static buffer). */
static const char *lines(const diag *d)
{
    static buf b;
    buf_clear(&b);
    for (size_t i = 0; i < d->n_recs; i++) {
        diag_line(&b, &d->recs[i]);
        buf_putc(&b, '\n');
    }
    return b.len ? b.data : "";
}

static void message_format(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    assert_int_equal(d.errors, 0);
    diag_error(&d, "content/page.md", 7, 12, "unknown measure '%s'", "duplicats");
    assert_string_equal(lines(&d), "content/page.md:7:12: error: unknown measure 'duplicats'\n");
    diag_error(&d, "a.yaml", 3, 0, "line only");
    diag_error(&d, "b.yaml", 0, 0, "no position");
    diag_error(&d, "c.yaml", 0, 5, "a column without a line is left out");
    diag_error(&d, NULL, 4, 4, "no file %d", 1);
    assert_string_equal(lines(&d), "content/page.md:7:12: error: unknown measure 'duplicats'\n"
                                   "a.yaml:3: error: line only\n"
                                   "b.yaml: error: no position\n"
                                   "c.yaml: error: a column without a line is left out\n"
                                   "boardpress: error: no file 1\n");
    assert_int_equal(d.errors, 5);
    assert_string_equal(d.recs[4].message, "no file 1");
    assert_null(d.recs[4].path);
    assert_null(d.recs[0].hint);
    diag_free(&d);
    assert_null(d.recs);
    diag_free(NULL);
}

static void message_to_stream(void **state)
{
    (void)state;
    FILE *f = tmpfile();
    assert_non_null(f);
    diag d;
    diag_init(&d, f);
    diag_error(&d, "p.md", 1, 2, "first");
    diag_error(&d, "p.md", 3, 4, "%s", "second with 100% literal");
    rewind(f);
    char line[128];
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "p.md:1:2: error: first\n");
    assert_non_null(fgets(line, sizeof line, f));
    assert_string_equal(line, "p.md:3:4: error: second with 100% literal\n");
    assert_null(fgets(line, sizeof line, f));
    fclose(f);
    /* the same lines are kept too */
    assert_string_equal(lines(&d),
                        "p.md:1:2: error: first\np.md:3:4: error: second with 100% literal\n");
    diag_free(&d);
}

static void exit_status(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    assert_int_equal(diag_exit_status(&d), 0);
    diag_error(&d, "x", 1, 1, "bad input");
    assert_int_equal(diag_exit_status(&d), 1);
    d.io = true;
    assert_int_equal(diag_exit_status(&d), 3);
    diag_free(&d);
    diag_init(&d, NULL);
    d.io = true; /* an I/O failure wins even when counted separately */
    assert_int_equal(diag_exit_status(&d), 3);
    diag_free(&d);
}

/* A repeated line is shown and counted once, but a mark still sees it: a
 * loader that meets a file's error a second time knows it failed. */
static void repeats_and_marks(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    diag_error(&d, "b.yaml", 1, 1, "the board file is empty");
    size_t mark = diag_mark(&d);
    assert_false(diag_failed_since(&d, mark));
    diag_error(&d, "b.yaml", 1, 1, "the board file is empty");
    assert_true(diag_failed_since(&d, mark));
    assert_int_equal(d.errors, 1);
    assert_string_equal(lines(&d), "b.yaml:1:1: error: the board file is empty\n");
    diag_free(&d);

    /* reading errors: the input's are bad input, the system's are I/O */
    diag_init(&d, NULL);
    diag_read_error(&d, "p.md", 3, 2, "b.yaml", "'b.yaml'", ENOENT, 0);
    assert_int_equal(diag_exit_status(&d), 1);
    diag_read_error(&d, "b.yaml", 0, 0, "b.yaml", "the board", EACCES, 0);
    assert_int_equal(diag_exit_status(&d), 3);
    assert_string_equal(lines(&d), "p.md:3:2: error: cannot read 'b.yaml': no such file\n"
                                   "b.yaml: error: cannot read the board: Permission denied\n");
    diag_free(&d);
}

static const char *const measures[] = {
    "jobs",        "deliveries",   "effects",    "duplicates",      "charged_twice",
    "lost_writes", "errors",       "error_rate", "completion_time", "latency_p50",
    "latency_p99", "monthly_cost", "events",
};
#define N_MEASURES (sizeof measures / sizeof measures[0])

/* assert_string_equal with NULL allowed (no hint). */
static void same(const char *got, const char *want)
{
    if (!got || strcmp(got, want) != 0)
        fail_msg("got %s%s%s, want '%s'", got ? "'" : "", got ? got : "no hint", got ? "'" : "",
                 want);
}

static const char *suggest(const char *word)
{
    return diag_suggest(word, measures, N_MEASURES);
}

static void suggestions(void **state)
{
    (void)state;
    same(suggest("duplicats"), "duplicates");   /* deletion */
    same(suggest("duplicatess"), "duplicates"); /* insertion */
    same(suggest("duplicatez"), "duplicates");  /* substitution */
    same(suggest("dupilcates"), "duplicates");  /* transposition */
    same(suggest("DUPLICATES"), "duplicates");  /* case */
    same(suggest("Charged_Twice"), "charged_twice");
    same(suggest("jbos"), "jobs"); /* transposition, short */
    same(suggest("jos"), "jobs");
    same(suggest("latency_p5"), "latency_p50");  /* nearest of two */
    same(suggest("latency_p90"), "latency_p50"); /* tie: first wins */
    assert_null(suggest("throughput"));
    assert_null(suggest(""));
    assert_null(suggest("xyz"));

    /* A transposition counts once, whatever the case of the letters. */
    static const char *const two[] = {"ba"};
    same(diag_suggest("ab", two, 1), "ba");
    same(diag_suggest("Ab", two, 1), "ba");
    same(diag_suggest("aB", two, 1), "ba");
    static const char *const jobs[] = {"jobs"};
    same(diag_suggest("JBOS", jobs, 1), "jobs");

    /* Limits: 1 edit up to 2 letters, 2 up to 8, then a third of the length. */
    static const char *const short_words[] = {"ms", "abc"};
    same(diag_suggest("m", short_words, 2), "ms");
    assert_null(diag_suggest("xy", short_words, 2));
    same(diag_suggest("axx", short_words, 2), "abc"); /* 2 edits, 3 letters */
    static const char *const ct[] = {"charged_twice"};
    same(diag_suggest("chrgd_twce", ct, 1), "charged_twice"); /* 3 edits, 10 */
    assert_null(diag_suggest("chrgd_twc", ct, 1));            /* 4 edits, 9 */
    assert_null(diag_suggest("chrgd_tw", ct, 1));

    /* Very long words are not compared (the table is 65 x 65). */
    char longw[80];
    memset(longw, 'a', 79);
    longw[79] = '\0';
    const char *cands[] = {longw};
    assert_null(diag_suggest(longw, cands, 1));
    assert_null(diag_suggest("a", NULL, 0));
}

static void unknown_texts(void **state)
{
    (void)state;
    diag_note n;
    char msg[1024];
    diag_note_unknown(&n, "measure", "duplicats", measures, N_MEASURES);
    diag_note_text(&n, msg, sizeof msg);
    assert_string_equal(msg, "unknown measure 'duplicats'; did you mean 'duplicates'?");
    /* the hint is kept apart from the message */
    assert_string_equal(n.msg, "unknown measure 'duplicats'");
    assert_string_equal(n.hint, "did you mean 'duplicates'?");
    assert_false(n.paren);
    /* No near spelling: every name. */
    diag_note_unknown(&n, "measure", "throughput", measures, N_MEASURES);
    diag_note_text(&n, msg, sizeof msg);
    assert_string_equal(msg, "unknown measure 'throughput' (expected 'jobs', 'deliveries', "
                             "'effects', 'duplicates', 'charged_twice', 'lost_writes', 'errors', "
                             "'error_rate', 'completion_time', 'latency_p50', 'latency_p99', "
                             "'monthly_cost' or 'events')");
    /* a name the word is one part of, when only one has it */
    static const char *const sections[] = {"message-broker", "payment-provider", "consumer"};
    diag_note_unknown(&n, "catalog section", "broker", sections, 3);
    diag_note_text(&n, msg, sizeof msg);
    assert_string_equal(msg, "unknown catalog section 'broker'; did you mean 'message-broker'?");
    diag_note_unknown(&n, "measure", "p99", measures, N_MEASURES);
    diag_note_text(&n, msg, sizeof msg);
    assert_string_equal(msg, "unknown measure 'p99'; did you mean 'latency_p99'?");

    static const char *const abc[] = {"pass", "fail", "skip"};
    diag_note_unknown(&n, "expect", "maybe", abc, 3);
    diag_note_text(&n, msg, sizeof msg);
    assert_string_equal(msg, "unknown expect 'maybe' (expected 'pass', 'fail' or 'skip')");
    diag_note_unknown(&n, "expect", "maybe", abc, 2);
    diag_note_text(&n, msg, sizeof msg);
    assert_string_equal(msg, "unknown expect 'maybe' (expected 'pass' or 'fail')");
    assert_string_equal(n.msg, "unknown expect 'maybe'");
    assert_string_equal(n.hint, "expected 'pass' or 'fail'");
    assert_true(n.paren);
    diag_note_unknown(&n, "currency", "EUR", abc, 1);
    diag_note_text(&n, msg, sizeof msg);
    assert_string_equal(msg, "unknown currency 'EUR' (expected 'pass')");
    diag_note_unknown(&n, "part", "x", NULL, 0);
    diag_note_text(&n, msg, sizeof msg);
    assert_string_equal(msg, "unknown part 'x'");
    assert_string_equal(n.hint, "");

    /* Twelve are listed, thirteen are not. */
    diag_note_unknown(&n, "m", "zzzzzzzzzz", measures, 12);
    diag_note_text(&n, msg, sizeof msg);
    assert_string_equal(msg, "unknown m 'zzzzzzzzzz' (expected 'jobs', 'deliveries', 'effects', "
                             "'duplicates', 'charged_twice', 'lost_writes', 'errors', "
                             "'error_rate', 'completion_time', 'latency_p50', 'latency_p99' or "
                             "'monthly_cost')");

    /* A small buffer is cut, never overrun. */
    char tiny[12];
    diag_note_unknown(&n, "expect", "maybe", abc, 3);
    diag_note_text(&n, tiny, sizeof tiny);
    assert_string_equal(tiny, "unknown exp");

    diag d;
    diag_init(&d, NULL);
    diag_unknown(&d, "b.yaml", 4, 9, "expect", "fial", abc, 3);
    diag_unknown(&d, "b.yaml", 5, 9, "expect", "maybe", abc, 3);
    assert_string_equal(lines(&d),
                        "b.yaml:4:9: error: unknown expect 'fial'; did you mean 'fail'?\n"
                        "b.yaml:5:9: error: unknown expect 'maybe' (expected 'pass', "
                        "'fail' or 'skip')\n");
    assert_int_equal(d.errors, 2);
    diag_free(&d);
}

/* A file of lines for the entries to quote; its path (static). */
static const char *source_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/bp-test-diag-%d.md", (int)getpid());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void entries_taken_apart(void **state)
{
    (void)state;
    const char *file = source_file("first line\n"
                                   "\tOf {{ shop.duplicats }} charges\r\n"
                                   "caf\xc3\xa9 {{ x }} and \xff bad\n");
    diag d;
    diag_init(&d, NULL);
    diag_error_near(&d, file, 2, 13, "duplicates", "unknown measure 'duplicats'");
    diag_note why;
    diag_note_set(&why, "unknown board 'x'");
    diag_note_hint(&why, true, "expected 'a' or 'b'");
    diag_error_note(&d, file, 3, 7, &why);
    diag_error(&d, file, 9, 1, "past the end of the file");
    diag_error(&d, "content/missing.md", 1, 1, "a file that is not there");
    diag_error(&d, file, 1, 0, "a line and no column");
    diag_error(&d, NULL, 0, 0, "no file");
    diag_error(&d, "dir/with:colon.md", 0, 0, "no position");
    size_t n;
    diag_entry *e = diag_entries(d.recs, d.n_recs, &n);
    assert_int_equal(n, 7);
    /* each text is the line as printed, exactly */
    const char *p = lines(&d);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(e[i].text);
        assert_memory_equal(p, e[i].text, len);
        assert_int_equal(p[len], '\n');
        p += len + 1;
    }
    assert_string_equal(e[0].path, file);
    assert_int_equal(e[0].line, 2);
    assert_int_equal(e[0].col, 13);
    assert_string_equal(e[0].message, "unknown measure 'duplicats'; did you mean 'duplicates'?");
    assert_string_equal(e[0].hint, "did you mean 'duplicates'?");
    assert_string_equal(e[0].source, "\tOf {{ shop.duplicats }} charges"); /* no \r */
    assert_string_equal(e[0].caret, "\t           ^");                     /* the tab kept */
    /* columns count characters; a bad byte is U+FFFD */
    assert_string_equal(e[1].hint, "expected 'a' or 'b'");
    assert_string_equal(e[1].source, "caf\xc3\xa9 {{ x }} and \xef\xbf\xbd bad");
    assert_string_equal(e[1].caret, "      ^");
    assert_int_equal(e[2].line, 9);
    assert_null(e[2].source); /* the file has fewer lines */
    assert_null(e[2].caret);
    assert_string_equal(e[3].path, "content/missing.md");
    assert_null(e[3].source);
    assert_int_equal(e[4].line, 1);
    assert_int_equal(e[4].col, 0);
    assert_string_equal(e[4].source, "first line");
    assert_null(e[4].caret);
    assert_null(e[5].path);
    assert_string_equal(e[5].message, "no file");
    assert_string_equal(e[6].path, "dir/with:colon.md");
    assert_int_equal(e[6].line, 0);
    assert_null(e[6].hint);
    /* a hint is a record's own field: a message is never searched for one */
    diag_error(&d, file, 4, 1, "unknown part 'y'; did you mean 'z'?");
    assert_null(d.recs[d.n_recs - 1].hint);
    diag_entries_free(e, n);
    diag_free(&d);
    unlink(file);

    e = diag_entries(NULL, 0, &n);
    assert_int_equal(n, 0);
    diag_entries_free(e, n);
}

static void entries_long_lines(void **state)
{
    (void)state;
    /* a line of 1,000 characters: cut to a window that keeps the column */
    char line[1100];
    memset(line, 'a', 1000);
    memcpy(line + 700, "XY", 2);
    strcpy(line + 1000, "\n");
    const char *file = source_file(line);
    diag d;
    diag_init(&d, NULL);
    diag_error(&d, file, 1, 701, "here");
    size_t n;
    diag_entry *e = diag_entries(d.recs, d.n_recs, &n);
    assert_int_equal(n, 1);
    const char *x = strstr(e[0].source, "XY");
    assert_non_null(x);
    assert_memory_equal(e[0].source, "\xE2\x80\xA6", 3); /* cut at the start */
    assert_memory_equal(e[0].source + strlen(e[0].source) - 3, "\xE2\x80\xA6", 3); /* and the end */
    /* the caret stands under X: as many columns before it as characters */
    size_t chars_before = (size_t)(x - e[0].source) - 2; /* "…" is 3 bytes, one column */
    assert_int_equal(strlen(e[0].caret), chars_before + 1);
    assert_int_equal(e[0].caret[chars_before], '^');
    diag_entries_free(e, n);
    diag_free(&d);
    unlink(file);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(message_format),      cmocka_unit_test(message_to_stream),
        cmocka_unit_test(exit_status),         cmocka_unit_test(suggestions),
        cmocka_unit_test(unknown_texts),       cmocka_unit_test(repeats_and_marks),
        cmocka_unit_test(entries_taken_apart), cmocka_unit_test(entries_long_lines),
    };
    return cmocka_run_group_tests_name("diag", tests, NULL, NULL);
}
