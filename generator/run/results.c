/* results.c — JSON for measured results; stable key order, locale-free
 * numbers (fmt_json_number), so two builds write identical bytes. */
#include "run/results.h"
#include "base/fmt.h"

#include <string.h>

const char *results_key(sim_measure m)
{
    static const char *const keys[SIM_M_COUNT] = {
        "jobs",
        "deliveries",
        "effects",
        "duplicates",
        "charged_twice",
        "lost_writes",
        "errors",
        "error_rate",
        "completion_time_s",
        "latency_p50_s",
        "latency_p99_s",
        "monthly_cost_usd",
        "events",
        "lost_events",
        "ghost_events",
        "downstream_deliveries",
        "downstream_effects",
        "downstream_duplicates",
        "downstream_lost_writes",
        "downstream_errors",
    };
    return (int)m >= 0 && m < SIM_M_COUNT ? keys[m] : "";
}

static void key(buf *b, const char *k)
{
    buf_putc(b, '"');
    buf_json_str(b, k, strlen(k));
    buf_puts(b, "\":");
}

static void str(buf *b, const char *s)
{
    buf_putc(b, '"');
    buf_json_str(b, s, strlen(s));
    buf_putc(b, '"');
}

void results_json(buf *b, const bp_board *board, const sim_result *r, bool with_trace)
{
    int hops = sim_board_hops(&board->sim);
    buf_putc(b, '{');
    key(b, "board");
    str(b, board->id);
    buf_putc(b, ',');
    key(b, "title");
    str(b, board->title);
    buf_printf(b, ",\"seed\":%llu,\"replications\":%d,", (unsigned long long)board->sim.seed,
               r->replications);
    key(b, "measures");
    buf_putc(b, '{');
    for (int m = 0; m < SIM_M_COUNT; m++) {
        if (sim_measure_hop((sim_measure)m) > hops)
            continue; /* the board has no second hop */
        if (m)
            buf_putc(b, ',');
        key(b, results_key((sim_measure)m));
        fmt_json_number(b, r->m[m].mean);
    }
    buf_putc(b, '}');
    if (r->replications > 1) {
        buf_puts(b, ",\"spread\":{");
        for (int m = 0; m < SIM_M_COUNT; m++) {
            if (sim_measure_hop((sim_measure)m) > hops)
                continue;
            if (m)
                buf_putc(b, ',');
            key(b, results_key((sim_measure)m));
            buf_puts(b, "{\"min\":");
            fmt_json_number(b, r->m[m].min);
            buf_puts(b, ",\"max\":");
            fmt_json_number(b, r->m[m].max);
            buf_puts(b, ",\"ci95\":");
            fmt_json_number(b, r->m[m].ci95);
            buf_putc(b, '}');
        }
        buf_putc(b, '}');
    }
    buf_puts(b, ",\"goals\":{");
    bool first = true;
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const sim_goal *g = &board->sim.goals[m];
        if (!r->goals[m].present)
            continue;
        if (!first)
            buf_putc(b, ',');
        first = false;
        key(b, results_key((sim_measure)m));
        buf_putc(b, '{');
        if (g->has_max) {
            buf_puts(b, "\"max\":");
            fmt_json_number(b, g->max);
            buf_putc(b, ',');
        }
        if (g->has_min) {
            buf_puts(b, "\"min\":");
            fmt_json_number(b, g->min);
            buf_putc(b, ',');
        }
        buf_puts(b, "\"worst\":");
        fmt_json_number(b, r->goals[m].worst);
        buf_printf(b, ",\"pass\":%s}", r->goals[m].pass ? "true" : "false");
    }
    buf_printf(b, "},\"all_goals_pass\":%s", r->all_goals_pass ? "true" : "false");
    if (board->sim.expect != SIM_EXPECT_NONE)
        buf_printf(b, ",\"expect\":\"%s\",\"expect_ok\":%s",
                   board->sim.expect == SIM_EXPECT_PASS ? "pass" : "fail",
                   r->expect_ok ? "true" : "false");
    if (with_trace) {
        buf_puts(b, ",\"trace\":[");
        for (size_t i = 0; i < r->n_trace; i++) {
            const sim_trace_entry *e = &r->trace[i];
            if (i)
                buf_putc(b, ',');
            buf_puts(b, "{\"t_s\":");
            fmt_json_number(b, (double)e->t_us / 1e6);
            buf_puts(b, ",\"kind\":");
            str(b, sim_trace_kind_name(e->kind));
            buf_printf(b, ",\"job\":%lld,\"part\":", (long long)e->job);
            str(b, board->parts[e->part].id);
            if (e->peer >= 0) {
                buf_puts(b, ",\"peer\":");
                str(b, board->parts[e->peer].id);
            }
            buf_printf(b, ",\"detail\":%lld", (long long)e->detail);
            if (e->copy > 0) /* a later copy of the job's message (0-based) */
                buf_printf(b, ",\"copy\":%d", e->copy);
            buf_putc(b, '}');
        }
        buf_printf(b, "],\"trace_truncated\":%s", r->trace_truncated ? "true" : "false");
    }
    buf_putc(b, '}');
}
