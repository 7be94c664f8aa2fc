/* notation.c — a page's numbers in the forms the About page explains,
 * "0 (at most 0.15 at 95 %)", "112 ± 6.8", a run-by-run difference
 * "−214 ms ± 52 ms" or a p99 "(the slowest of 20 payments)", explained
 * where the first of them stands: a small note the reader can open (a
 * <details>, no script needed) after the paragraph, list item or table
 * that holds it, covering only the forms the page uses, each with the
 * page's own first example, and linking to About for more. */
#include "render/render_internal.h"

#include <stdlib.h>
#include <string.h>

enum { F_BOUND, F_CI, F_DIFF, F_P99, F_COUNT };

typedef struct {
    size_t at;      /* where the number's span starts */
    const char *ex; /* its text (HTML, escaped), len bytes */
    size_t len;
} form_seen;

/* The form a number's text (between its span's tags) is written in, or -1. */
static int form_of(const char *text, size_t len, bool diff)
{
    char *t = xstrndup(text, len);
    int f = -1;
    if (diff)
        f = F_DIFF;
    else if (strstr(t, NUMBERS_AT95))
        f = F_BOUND;
    else if (strstr(t, "the slowest of"))
        f = F_P99;
    else if (strstr(t, "±"))
        f = F_CI;
    free(t);
    return f;
}

/* The end of the block that holds body[at]: after its </p>, </li> or
 * </table> (and a compare's folded rows and the </div> that wraps a table),
 * whichever comes first. */
static size_t block_end(const buf *body, size_t at)
{
    static const char *const ends[] = {"</p>", "</li>", "</table>"};
    const char *from = body->data + at, *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        const char *e = strstr(from, ends[i]);
        if (e && (!best || e < best)) {
            best = e;
            best_len = strlen(ends[i]);
        }
    }
    if (!best)
        return body->len;
    size_t end = (size_t)(best - body->data) + best_len;
    static const char same[] = "\n<p class=\"bp-compare-same\">";
    if (best_len == strlen("</table>") &&
        strncmp(body->data + end, same, strlen(same)) == 0) { /* a compare's folded rows */
        const char *e = strstr(body->data + end, "</p>");
        end = e ? (size_t)(e - body->data) + 4 : end;
        if (body->data[end] == '\n')
            end++;
    }
    if (strncmp(body->data + end, "</div>", 6) == 0 && best_len == strlen("</table>"))
        end += 6;
    if (body->data[end] == '\n')
        end++;
    return end;
}

/* The </span> that closes the span whose start tag ends at gt, past the
 * spans inside it (a compare cell's bound), or NULL. */
static const char *span_close(const char *gt)
{
    int depth = 0;
    for (const char *p = gt; (p = strstr(p, "<")) != NULL; p++) {
        if (strncmp(p, "<span", 5) == 0)
            depth++;
        else if (strncmp(p, "</span>", 7) == 0 && depth-- == 0)
            return p;
    }
    return NULL;
}

static void put_example(buf *out, const form_seen *s)
{
    buf_puts(out, "<span class=\"bp-notation-ex\">");
    buf_put(out, s->ex, s->len);
    buf_puts(out, "</span>");
}

void notation_note(buf *body, const char *about_url)
{
    if (!body->data)
        return;
    form_seen seen[F_COUNT] = {{0}};
    bool any = false;
    size_t first = 0;
    static const char *const opens[] = {"<span class=\"bp-num\"", "<span class=\"bp-diff\""};
    for (size_t k = 0; k < 2; k++) {
        for (const char *p = strstr(body->data, opens[k]); p; p = strstr(p + 1, opens[k])) {
            const char *gt = strchr(p, '>'), *close = gt ? span_close(gt) : NULL;
            if (!close)
                break;
            char *attrs = xstrndup(p, (size_t)(gt - p));
            bool diff = k == 1 || strstr(attrs, "data-filter=\"diff\"");
            free(attrs);
            int f = form_of(gt + 1, (size_t)(close - gt - 1), diff);
            size_t at = (size_t)(p - body->data);
            if (f < 0 || (seen[f].ex && seen[f].at < at))
                continue;
            seen[f] = (form_seen){at, gt + 1, (size_t)(close - gt - 1)};
            if (!any || at < first)
                first = at;
            any = true;
        }
    }
    if (!any)
        return;
    buf note;
    buf_init(&note);
    buf_puts(&note, "<details class=\"bp-notation\"><summary>How to read these numbers"
                    "</summary>\n");
    /* in the order a reader meets them: a mean, a bound, a difference */
    static const int order[] = {F_CI, F_BOUND, F_DIFF, F_P99};
    static const char *const says[F_COUNT] = {
        [F_CI] = ": the mean over the runs, and after ± the half-width of its 95 % "
                 "confidence interval, how far that mean could move with other random draws "
                 "(not how much single runs differ).",
        [F_BOUND] = ": a fault that was rare or never seen. The runs cannot prove it never "
                    "happens; the bound is as high as it could be and still fit what they saw, "
                    "with 95 % confidence.",
        [F_DIFF] = ", under a value in a table: its difference from the first board, worked "
                   "out run by run on the same random draws, with the 95 % interval of that "
                   "difference; \"in every run\" when every run differs by the same amount.",
        [F_P99] = ": a 99th percentile of fewer than 100 is the slowest of them, and usually "
                  "lower than a longer run would show.",
    };
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (!seen[order[i]].ex)
            continue;
        buf_puts(&note, "<p>");
        put_example(&note, &seen[order[i]]);
        buf_printf(&note, "%s</p>\n", says[order[i]]);
    }
    if (about_url) {
        buf_puts(&note, "<p><a href=\"");
        buf_html_s(&note, about_url);
        buf_puts(&note, "\">About the simulator</a> says more.</p>\n");
    }
    buf_puts(&note, "</details>\n");
    size_t end = block_end(body, first);
    buf out;
    buf_init(&out);
    buf_put(&out, body->data, end);
    buf_put(&out, note.data, note.len);
    buf_put(&out, body->data + end, body->len - end);
    buf_free(&note);
    buf_free(body);
    *body = out;
}
