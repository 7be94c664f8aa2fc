/* estimate.c — sim_events_estimate: the events one run of a board may take,
 * found before it runs from its chain (MODEL.md "Topology") and the most
 * sends each job can make, so a build can refuse work it has no time for. */
#include "sim_internal.h"

/* ceil for the non-negative values here (sim-core uses no libm). */
static double up(double x)
{
    if (x >= 4e18)
        return 4e18;
    double c = (double)(int64_t)x;
    return c < x ? c + 1 : c;
}

/* Sends of one copy on a hop: the sender's tries (1 when at most once). */
static double hop_tries(const sim_board *b, const sim_hop_topology *h)
{
    const sim_part *s = &b->parts[h->sender];
    if (s->kind == SIM_KIND_BROKER && s->delivery == SIM_DELIVERY_AT_MOST_ONCE)
        return 1;
    return s->tries;
}

int64_t sim_events_estimate(const sim_board *b, double *sends_per_job, bool *bounded)
{
    sim_topology t;
    if (sim_board_check_topology(b, NULL, NULL, 0, NULL, &t) != -1)
        return -1;
    bool exact = true;
    /* The publisher (users -> broker): one hand-over, or when it is
     * simulated (MODEL.md "The publisher") up to `tries` publishes, each an
     * arrival at the broker, a confirm and a timer, each a copy. */
    double pub_events = 0, copies = 1;
    if (t.hop[0].publish_link >= 0) {
        const sim_link *pl = &b->links[t.hop[0].publish_link];
        const sim_part *up = &b->parts[t.users];
        int64_t publish = pl->rtt_us / 2,
                confirm = (int64_t)(pl->reply_round_trips * (double)pl->rtt_us + 0.5);
        bool simulated = pl->lose_request > 0 || pl->lose_reply > 0 || pl->n_lose_reply_of > 0 ||
                         up->timeout_us <= publish + confirm;
        copies = simulated ? up->tries : 1;
        pub_events = simulated ? 3 * copies : 1;
    }
    /* Each send: at most eight events (the handler's receipt, its work or
     * call, the call's arrival, response and timeout, a restart after a
     * crash, the reply and the sender's timer). */
    double sends1 = copies * hop_tries(b, &t.hop[0]);
    double per_send = 8, sends2 = 0;
    if (t.n_hops == 2) {
        const sim_part *h1 = &b->parts[t.hop[0].handler];
        const sim_link *el = &b->links[t.hop[1].publish_link];
        double events = 1; /* after- or before-commit: one publish per send that gets there */
        if (h1->publish == SIM_PUBLISH_OUTBOX) {
            /* The relay publishes a record at every poll until its confirm
             * is back: the polls the round trip spans, and, when the link
             * can lose the publish or the confirm, as many again as a loss
             * makes on average (no bound then: the build's share holds it). */
            double every = (double)h1->relay_every_us;
            double trip = (double)(el->rtt_us / 2) + el->reply_round_trips * (double)el->rtt_us;
            events = up(trip / every) + 1;
            double ok = (1 - el->lose_request) * (1 - el->lose_reply);
            if (ok < 1) {
                exact = false;
                events /= ok > 1e-3 ? ok : 1e-3;
            }
            /* each publish is an arrival and a confirm, each poll one event;
             * a crashed handler's relay still polls through its restart */
            per_send += 2 * events + events;
            if (h1->crash_after_effect > 0 || h1->crash_after_commit > 0)
                per_send += up((double)h1->restart_us / every);
        } else {
            per_send += events;
        }
        sends2 = sends1 * events * hop_tries(b, &t.hop[1]);
    }
    double per_job = 1 + pub_events + sends1 * per_send + sends2 * 8;
    if (sends_per_job)
        *sends_per_job = sends1 + sends2;
    if (bounded)
        *bounded = exact;
    double total = per_job * (double)b->traffic.jobs;
    return total >= 4e18 ? (int64_t)4e18 : (int64_t)up(total);
}
