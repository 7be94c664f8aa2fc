/* fuzz_units.c — the quantity parsers (durations, money, probabilities,
 * counts, numbers) and the formatting of what they return, plus the
 * spelling hints. A value that parses is in range and formats; a value
 * that does not gets a message and a position inside the text. */
#include "base/diag.h"
#include "base/fmt.h"
#include "fuzz_common.h"
#include "load/units.h"

#include <math.h>

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_text(data, size);
    diag_note err;
    size_t off;
    int64_t i64;
    double x;
    buf b;
    buf_init(&b);
    if (units_duration(s, &i64, &err, &off) == 0) {
        FUZZ_ASSERT(i64 >= 0);
        fmt_duration_us(&b, i64);
    } else {
        FUZZ_ASSERT(off <= size && err.msg[0]);
    }
    buf_clear(&b);
    if (units_duration_or_forever(s, &i64, &err, &off) == 0)
        fmt_duration_us(&b, i64);
    buf_clear(&b);
    if (units_money(s, &x, &err, &off) == 0) {
        FUZZ_ASSERT(x >= 0 && isfinite(x));
        fmt_usd_month(&b, x);
        fmt_usd(&b, x);
    }
    buf_clear(&b);
    if (units_probability(s, &x, &err, &off) == 0) {
        FUZZ_ASSERT(x >= 0 && x <= 1);
        fmt_ratio(&b, x);
    }
    buf_clear(&b);
    if (units_count(s, &i64, &err, &off) == 0)
        buf_printf(&b, "%lld", (long long)i64);
    if (units_number(s, &x, &err, &off) == 0) {
        FUZZ_ASSERT(isfinite(x));
        fmt_number(&b, x);
        fmt_seconds(&b, x);
        fmt_json_number(&b, x);
        for (int m = 0; m < SIM_M_COUNT; m++)
            fmt_measure(&b, (sim_measure)m, x);
    }
    units_scan_number(s, &x);
    static const char *const words[] = {"duplicates", "charged_twice", "completion_time", "a", ""};
    diag_suggest(s, words, 5);
    diag_note_unknown(&err, "measure", s, words, 5);
    buf_free(&b);
    free(s);
    return 0;
}
