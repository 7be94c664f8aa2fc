/* draw_wrap.c — a drawing's words onto lines: at spaces, a number kept
 * with its unit, the lines of even length (no box ends on one short word). */
#include "draw/draw_internal.h"
#include "base/fmt.h"

#include <stdlib.h>
#include <string.h>

/* Greedy: as many words on each line as fit in max_w. */
static size_t S_wrap_greedy(dcanvas *c, const char *s, double size, bool bold, double max_w,
                            char ***lines)
{
    char **out = NULL;
    size_t n = 0, cap = 0;
    buf line;
    buf_init(&line);
    const char *p = s;
    while (*p == ' ')
        p++;
    while (*p) {
        const char *e = strchr(p, ' ');
        size_t wl = e ? (size_t)(e - p) : strlen(p);
        /* a number keeps its unit on its line: "every 2 s", never "every 2" / "s" */
        while (e && wl > 0 && p[wl - 1] >= '0' && p[wl - 1] <= '9' && e[1] && e[1] != ' ') {
            const char *u = e + 1, *ue = strchr(u, ' ');
            size_t ul = ue ? (size_t)(ue - u) : strlen(u);
            if (!fmt_unit_word(u, ul))
                break;
            wl = (size_t)(u - p) + ul;
            e = ue;
        }
        size_t keep = line.len;
        if (line.len)
            buf_putc(&line, ' ');
        buf_put(&line, p, wl);
        double w = dc_text_width(c, line.data, size, bold);
        if (w > max_w && keep > 0) { /* the word goes on a new line */
            line.len = keep;
            line.data[keep] = '\0';
            out = xgrow(out, sizeof *out, &cap, n + 1);
            out[n++] = xstrdup(line.data);
            buf_clear(&line);
            buf_put(&line, p, wl);
        }
        p += wl;
        while (*p == ' ')
            p++;
    }
    if (line.len || n == 0) {
        out = xgrow(out, sizeof *out, &cap, n + 1);
        out[n++] = xstrdup(line.data ? line.data : "");
    }
    buf_free(&line);
    *lines = out;
    return n;
}

size_t dwrap(dcanvas *c, const char *s, double size, bool bold, double max_w, char ***lines,
             double *widest)
{
    char **out;
    size_t n = S_wrap_greedy(c, s, size, bold, max_w, &out);
    /* Lines of even length: the narrowest width (to 1 px) that still takes
     * no more lines, so a box never ends on one short word ("publishes after
     * the" / "commit" reads "publishes after" / "the commit"). Greedy wrapping
     * takes no fewer lines at a wider width, so the search halves. */
    if (n >= 2) {
        double lo = 0, hi = max_w;
        while (hi - lo > 1) {
            double mid = (lo + hi) / 2;
            char **try;
            size_t k = S_wrap_greedy(c, s, size, bold, mid, &try);
            dlines_free(try, k);
            if (k <= n)
                hi = mid;
            else
                lo = mid;
        }
        if (hi < max_w) {
            char **even;
            size_t k = S_wrap_greedy(c, s, size, bold, hi, &even);
            if (k == n) {
                dlines_free(out, n);
                out = even;
            } else {
                dlines_free(even, k);
            }
        }
    }
    double best = 0;
    for (size_t i = 0; i < n; i++) {
        double w = dc_text_width(c, out[i], size, bold);
        if (w > best)
            best = w;
    }
    *lines = out;
    if (widest)
        *widest = best;
    return n;
}

void dlines_free(char **lines, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}
