/* fmt_dump.c — the page's number formatting (generator/base/fmt.c) for
 * tests/live/fmt.js, which compares it with generator/web/bp-fmt.js. Reads
 * lines "KIND BITS": KIND a measure name (fmt_measure with its unit)
 * or number, seconds, ratio, usd_month (the functions themselves); BITS a
 * double's 64 bits as 16 hex digits. Writes one formatted value a line. */
#include "base/fmt.h"
#include "simcore.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    char kind[64];
    uint64_t u;
    buf b;
    buf_init(&b);
    while (scanf("%63s %" SCNx64, kind, &u) == 2) {
        double x;
        memcpy(&x, &u, sizeof x);
        buf_clear(&b);
        if (strcmp(kind, "number") == 0) {
            fmt_number(&b, x);
        } else if (strcmp(kind, "seconds") == 0) {
            fmt_seconds(&b, x);
        } else if (strcmp(kind, "ratio") == 0) {
            fmt_ratio(&b, x);
        } else if (strcmp(kind, "usd_month") == 0) {
            fmt_usd_month(&b, x);
        } else {
            int m = sim_measure_from_name(kind);
            if (m < 0) {
                fprintf(stderr, "fmt_dump: unknown kind '%s'\n", kind);
                return 2;
            }
            fmt_measure(&b, (sim_measure)m, x);
        }
        printf("%s\n", b.data ? b.data : "");
    }
    buf_free(&b);
    return 0;
}
