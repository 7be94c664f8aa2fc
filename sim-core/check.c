/* check.c — sim_board_check: everything the model cannot run, each reported
 * as one sentence naming the part or link, and the delivery chain of a good
 * board (MODEL.md "Topology"). Also the default limits. */
#include "rng.h"
#include "sim_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

sim_limits sim_limits_default(void)
{
    sim_limits l = {
        .max_jobs = 10000000,
        .max_events = 200000000,
        .max_board_events = 400000000,
        .max_replications = 1000,
        .max_trace = 20000,
    };
    return l;
}

typedef struct {
    const sim_board *b;
    char *msg;
    size_t n;
    int *link_index;
} checker;

/* Write the sentence; return what sim_board_check returns (part or -2). */
static int fail(checker *c, int part, int link, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(checker *c, int part, int link, const char *fmt, ...)
{
    if (c->msg && c->n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->msg, c->n, fmt, ap);
        va_end(ap);
    }
    if (c->link_index)
        *c->link_index = link;
    return part;
}

#ifdef SIM_TERSE_CHECKS
/* The WebAssembly module (which must stay within 20 KB gzipped) names the
 * check by its line instead of writing the sentence: the boards it runs were
 * checked with the full sentences at build time, so a failure here means a
 * reader's setting the build did not try. The sentences' format strings and
 * arguments are then left out. */
static int fail_line(checker *c, int part, int link, int line)
{
    return fail(c, part, link, "this setting cannot be simulated (sim-core/check.c:%d)", line);
}
/* sizeof: the sentence's arguments are still type-checked (and count as
 * used) but never evaluated or compiled in. */
#define fail(c, part, link, ...)                                                                   \
    fail_line((c), (part), (link), __LINE__ + 0 * (int)sizeof(snprintf(NULL, 0, __VA_ARGS__)))
#endif

/* "part 'broker'" or, without an id, "part 2". */
typedef struct {
    char s[96];
} part_name;

static part_name pname(const sim_board *b, int i)
{
    part_name p;
    const char *id = b->parts[i].id;
    if (id)
        snprintf(p.s, sizeof p.s, "part '%s'", id);
    else
        snprintf(p.s, sizeof p.s, "part %d", i);
    return p;
}

static const char *kind_name(const sim_board *b, int i)
{
    return sim_kind_name(b->parts[i].kind);
}

static bool is_prob(double p)
{
    return p >= 0 && p <= 1; /* false for NaN */
}

static bool is_nonneg(double x)
{
    return x >= 0 && x < 1e300; /* false for NaN and infinities */
}

static bool is_handler(sim_kind k)
{
    return k == SIM_KIND_CONSUMER || k == SIM_KIND_SERVICE;
}

/* A problem with a latency, or NULL. */
static const char *latency_problem(sim_latency l)
{
    if (l.median_us < 0)
        return "median must not be negative";
    if (l.p99_us < l.median_us)
        return "p99 must not be below its median";
    if (l.median_us == 0 && l.p99_us > 0)
        return "median must be positive when its p99 is larger";
    if (l.p99_us > SIM_DURATION_CAP_US)
        return "p99 is too long (at most 31 years)";
    return NULL;
}

static int check_latency(checker *c, int part, const char *what, sim_latency l)
{
    const char *p = latency_problem(l);
    return p ? fail(c, part, -1, "%s %s", what, p) : -1;
}

/* A duration that must be positive (and fit simulated time). */
static int check_positive(checker *c, int part, const char *what, int64_t us)
{
    if (us <= 0)
        return fail(c, part, -1, "%s must be positive", what);
    if (us > SIM_DURATION_CAP_US)
        return fail(c, part, -1, "%s is too long (at most 31 years)", what);
    return -1;
}

static int check_nonneg_duration(checker *c, int part, int link, const char *what, int64_t us)
{
    if (us < 0)
        return fail(c, part, link, "%s must not be negative", what);
    if (us > SIM_DURATION_CAP_US)
        return fail(c, part, link, "%s is too long (at most 31 years)", what);
    return -1;
}

#define TRY(call)                                                                                  \
    do {                                                                                           \
        int r_ = (call);                                                                           \
        if (r_ != -1)                                                                              \
            return r_;                                                                             \
    } while (0)

static int check_board_values(checker *c, const sim_limits *lim)
{
    const sim_board *b = c->b;
    const sim_traffic *t = &b->traffic;
    if (b->n_parts == 0 || !b->parts)
        return fail(c, -2, -1, "the board has no parts");
    if (b->n_parts > 100000 || b->n_links > 100000)
        return fail(c, -2, -1, "the board has too many parts or links (at most 100000)");
    if (b->n_links > 0 && !b->links)
        return fail(c, -2, -1, "the board's links are missing");
    if (b->replications < 1)
        return fail(c, -2, -1, "replications must be at least 1");
    if (b->replications > lim->max_replications)
        return fail(c, -2, -1, "replications must be at most %d", lim->max_replications);
    if (t->from < 0 || (size_t)t->from >= b->n_parts)
        return fail(c, -2, -1, "traffic.from does not name a part of the board");
    if (b->parts[t->from].kind != SIM_KIND_USERS)
        return fail(c, -2, -1, "traffic.from must be a users part, not a %s",
                    kind_name(b, t->from) ? kind_name(b, t->from) : "part of unknown kind");
    if (t->jobs < 1)
        return fail(c, -2, -1, "traffic.jobs must be at least 1");
    int64_t max_jobs = lim->max_jobs < SIM_MAX_JOBS ? lim->max_jobs : SIM_MAX_JOBS;
    if (t->jobs > max_jobs)
        return fail(c, -2, -1, "traffic.jobs must be at most %lld", (long long)max_jobs);
    TRY(check_nonneg_duration(c, -2, -1, "traffic.over", t->over_us));
    if ((unsigned)t->op >= SIM_OP_COUNT)
        return fail(c, -2, -1, "traffic.op is not a known operation");
    if ((unsigned)t->arrivals >= SIM_ARRIVALS_COUNT)
        return fail(c, -2, -1, "traffic.arrivals is not a known arrival pattern");
    if (!is_prob(t->repeat_share))
        return fail(c, -2, -1, "traffic.repeat_share must be a probability between 0 and 1");
    if (!is_prob(t->poison))
        return fail(c, -2, -1, "traffic.poison must be a probability between 0 and 1");
    if (!is_nonneg(b->prices.vcpu_usd_month) || !is_nonneg(b->prices.gb_usd_month))
        return fail(c, -2, -1, "prices must be numbers that are not negative");
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const sim_goal *g = &b->goals[m];
        const char *name = sim_measure_name((sim_measure)m);
        if ((g->has_max && !(g->max > -1e300 && g->max < 1e300)) ||
            (g->has_min && !(g->min > -1e300 && g->min < 1e300)))
            return fail(c, -2, -1, "the goal on %s must be a finite number", name);
        if (g->has_max && g->has_min && g->max < g->min)
            return fail(c, -2, -1, "the goal on %s has a max below its min", name);
    }
    if ((unsigned)b->expect > SIM_EXPECT_FAIL)
        return fail(c, -2, -1, "expect must be pass or fail");
    for (size_t i = 0; i < b->n_parts; i++) {
        const sim_part *p = &b->parts[i];
        int pi = (int)i;
        if ((unsigned)p->kind >= SIM_KIND_COUNT)
            return fail(c, pi, -1, "%s has an unknown kind", pname(b, pi).s);
        if (!is_nonneg(p->vcpu) || !is_nonneg(p->gb) || !is_nonneg(p->fixed_usd_month))
            return fail(c, pi, -1, "vcpu, gb and the fixed price must not be negative");
    }
    for (size_t i = 0; i < b->n_links; i++) {
        const sim_link *l = &b->links[i];
        if (l->from < 0 || (size_t)l->from >= b->n_parts || l->to < 0 ||
            (size_t)l->to >= b->n_parts)
            return fail(c, -2, (int)i, "link %zu names a part that does not exist", i + 1);
        int q = b->parts[l->from].kind == SIM_KIND_DLQ ? l->from
                : b->parts[l->to].kind == SIM_KIND_DLQ ? l->to
                                                       : -1;
        if (q >= 0)
            return fail(c, q, (int)i,
                        "%s is a dead-letter-queue: a broker names it with dead_letter, it "
                        "takes no links",
                        pname(b, q).s);
    }
    return -1;
}

/* Prune parts that cannot be on a cycle: repeatedly drop parts with no
 * remaining incoming (forward) or outgoing (backward) link. O(parts * links);
 * boards are small. */
static void prune(const sim_board *b, bool *live, int *deg, int *stack, bool forward)
{
    size_t np = b->n_parts, nl = b->n_links, top = 0;
    for (size_t p = 0; p < np; p++)
        deg[p] = 0;
    for (size_t i = 0; i < nl; i++) {
        int from = b->links[i].from, to = b->links[i].to;
        if (live[from] && live[to])
            deg[forward ? to : from]++;
    }
    for (size_t p = 0; p < np; p++)
        if (live[p] && deg[p] == 0)
            stack[top++] = (int)p;
    while (top > 0) {
        int p = stack[--top];
        live[p] = false;
        for (size_t i = 0; i < nl; i++) {
            int from = b->links[i].from, to = b->links[i].to;
            int near = forward ? from : to, far = forward ? to : from;
            if (near == p && live[far] && --deg[far] == 0)
                stack[top++] = far;
        }
    }
}

/* The lowest-numbered link on some cycle, or -1; desc gets the cycle's
 * parts ("'a' -> 'b' -> 'a'"). */
static int find_cycle(const sim_board *b, bool *oom, char *desc, size_t dn)
{
    size_t np = b->n_parts, nl = b->n_links;
    bool *live = malloc(np * sizeof *live);
    int *deg = malloc(np * sizeof *deg);
    int *stack = malloc(np * sizeof *stack);
    int *seen_at = malloc(np * sizeof *seen_at); /* step a part was reached */
    int *path = malloc((np + 1) * sizeof *path); /* links taken */
    int found = -1;
    if (!live || !deg || !stack || !seen_at || !path) {
        *oom = true;
        goto done;
    }
    for (size_t p = 0; p < np; p++) {
        live[p] = true;
        seen_at[p] = -1;
    }
    prune(b, live, deg, stack, true);
    prune(b, live, deg, stack, false);
    /* every live part now has a live outgoing link: walk until a part repeats */
    int p = -1;
    for (size_t q = 0; q < np && p < 0; q++)
        if (live[q])
            p = (int)q;
    for (int step = 0; p >= 0; step++) {
        if (seen_at[p] >= 0) { /* the links from that step on form the cycle */
            size_t used = 0;
            for (int k = seen_at[p]; k < step; k++) {
                if (found < 0 || path[k] < found)
                    found = path[k];
                int from = b->links[path[k]].from;
                const char *id = b->parts[from].id;
                int w = id ? snprintf(desc + used, dn - used, "'%s' -> ", id)
                           : snprintf(desc + used, dn - used, "part %d -> ", from);
                if (w > 0 && (size_t)w < dn - used)
                    used += (size_t)w;
            }
            const char *id = b->parts[p].id;
            if (id)
                snprintf(desc + used, dn - used, "'%s'", id);
            else
                snprintf(desc + used, dn - used, "part %d", p);
            break;
        }
        seen_at[p] = step;
        int next = -1;
        for (size_t i = 0; i < nl && next < 0; i++)
            if (b->links[i].from == p && live[b->links[i].to]) {
                path[step] = (int)i;
                next = b->links[i].to;
            }
        p = next;
    }
done:
    free(live);
    free(deg);
    free(stack);
    free(seen_at);
    free(path);
    return found;
}

/* Outgoing links of part p: how many, and the first. */
static int out_links(const sim_board *b, int p, int *first)
{
    int count = 0;
    *first = -1;
    for (size_t i = 0; i < b->n_links; i++)
        if (b->links[i].from == p) {
            if (count++ == 0)
                *first = (int)i;
        }
    return count;
}

/* The handler's own links: one payment-provider, one database and, on the
 * first hop only, one message broker (the second hop's). */
static int check_handler_links(checker *c, sim_hop_topology *h, bool first, int *next_broker,
                               int *event_link)
{
    const sim_board *b = c->b;
    part_name hn = pname(b, h->handler);
    for (size_t i = 0; i < b->n_links; i++) {
        const sim_link *l = &b->links[i];
        if (l->from != h->handler)
            continue;
        sim_kind k = b->parts[l->to].kind;
        int *slot = k == SIM_KIND_PROVIDER          ? &h->provider
                    : k == SIM_KIND_DATABASE        ? &h->database
                    : k == SIM_KIND_BROKER && first ? next_broker
                                                    : NULL;
        if (!slot && k == SIM_KIND_BROKER)
            return fail(c, h->handler, (int)i,
                        "%s links to %s, a message-broker; a board has at most two hops, so the "
                        "second handler cannot publish on",
                        hn.s, pname(b, l->to).s);
        if (!slot)
            return fail(c, h->handler, (int)i, "%s links to %s, a %s; a %s may link only to one %s",
                        hn.s, pname(b, l->to).s, kind_name(b, l->to), kind_name(b, h->handler),
                        first ? "payment-provider, one database and one message-broker"
                              : "payment-provider and one database");
        if (*slot >= 0)
            return fail(c, h->handler, (int)i, "%s links to more than one %s", hn.s,
                        kind_name(b, l->to));
        *slot = l->to;
        if (k == SIM_KIND_PROVIDER)
            h->call_link = (int)i;
        else if (k == SIM_KIND_DATABASE)
            h->write_link = (int)i;
        else
            *event_link = (int)i;
    }
    int ends[2] = {h->provider, h->database}, first_out;
    for (int e = 0; e < 2; e++) {
        if (ends[e] < 0)
            continue;
        if (out_links(b, ends[e], &first_out) > 0)
            return fail(c, ends[e], first_out, "%s is a %s and cannot send to %s",
                        pname(b, ends[e]).s, kind_name(b, ends[e]),
                        pname(b, b->links[first_out].to).s);
    }
    return -1;
}

/* A broker's one delivery link, to a consumer or service. */
static int check_broker(checker *c, sim_hop_topology *h, int broker)
{
    const sim_board *b = c->b;
    int first;
    part_name bn = pname(b, broker);
    int n = out_links(b, broker, &first);
    if (n == 0)
        return fail(c, broker, -1, "%s has no outgoing link to a consumer or service", bn.s);
    if (n > 1)
        return fail(c, broker, -1,
                    "%s has more than one outgoing link; a broker delivers to one consumer or "
                    "service",
                    bn.s);
    int to = b->links[first].to;
    if (!is_handler(b->parts[to].kind))
        return fail(c, broker, first,
                    "%s links to %s, a %s; a broker delivers to a consumer or service", bn.s,
                    pname(b, to).s, kind_name(b, to));
    h->broker = h->sender = broker;
    h->handler = to;
    h->delivery_link = first;
    return -1;
}

static void hop_init(sim_hop_topology *h)
{
    h->broker = h->sender = h->handler = h->provider = h->database = -1;
    h->publish_link = h->delivery_link = h->call_link = h->write_link = -1;
}

static bool is_chain_link(const sim_topology *t, int li)
{
    for (int i = 0; i < t->n_hops; i++) {
        const sim_hop_topology *h = &t->hop[i];
        if (li == h->publish_link || li == h->delivery_link || li == h->call_link ||
            li == h->write_link)
            return true;
    }
    return false;
}

static int check_topology(checker *c, sim_topology *t)
{
    const sim_board *b = c->b;
    for (size_t i = 0; i < b->n_links; i++)
        for (size_t j = 0; j < i; j++)
            if (b->links[i].from == b->links[j].from && b->links[i].to == b->links[j].to)
                return fail(c, b->links[i].from, (int)i, "the link from %s to %s is given twice",
                            pname(b, b->links[i].from).s, pname(b, b->links[i].to).s);
    bool oom = false;
    char cycle[256] = "";
    int cyc = find_cycle(b, &oom, cycle, sizeof cycle);
    if (oom)
        return fail(c, -2, -1, "not enough memory to check the board");
    if (cyc >= 0)
        return fail(c, -2, cyc, "links form a cycle: %s", cycle);

    int first;
    t->users = b->traffic.from;
    t->n_hops = 1;
    for (int i = 0; i < SIM_MAX_HOPS; i++)
        hop_init(&t->hop[i]);
    sim_hop_topology *h0 = &t->hop[0];
    part_name users = pname(b, t->users);
    int n = out_links(b, t->users, &first);
    if (n == 0)
        return fail(c, t->users, -1,
                    "%s has no outgoing link to a message broker, consumer or service", users.s);
    if (n > 1)
        return fail(c, t->users, -1,
                    "%s has more than one outgoing link; the users send to one message broker, "
                    "consumer or service",
                    users.s);
    int next = b->links[first].to;
    sim_kind nk = b->parts[next].kind;
    if (nk == SIM_KIND_BROKER) {
        h0->publish_link = first;
        TRY(check_broker(c, h0, next));
    } else if (is_handler(nk)) {
        h0->sender = t->users;
        h0->handler = next;
        h0->delivery_link = first;
    } else {
        return fail(c, t->users, first,
                    "%s links to %s, a %s; the users send to a message broker, consumer or "
                    "service",
                    users.s, pname(b, next).s, kind_name(b, next));
    }
    int broker2 = -1, event_link = -1;
    TRY(check_handler_links(c, h0, true, &broker2, &event_link));
    if (broker2 >= 0) {
        sim_hop_topology *h1 = &t->hop[1];
        t->n_hops = 2;
        h1->publish_link = event_link;
        TRY(check_broker(c, h1, broker2));
        TRY(check_handler_links(c, h1, false, NULL, NULL));
        if (h1->provider >= 0 && h1->provider == h0->provider)
            return fail(c, h1->provider, h1->call_link,
                        "%s takes calls from both handlers; give each handler its own "
                        "payment-provider",
                        pname(b, h1->provider).s);
    }
    for (size_t i = 0; i < b->n_links; i++) {
        if (is_chain_link(t, (int)i))
            continue;
        int from = b->links[i].from;
        return fail(c, from, (int)i, "%s has links but the traffic from %s never reaches it",
                    pname(b, from).s, users.s);
    }
    return -1;
}

static int check_link(checker *c, const sim_topology *t, int li)
{
    const sim_board *b = c->b;
    const sim_link *l = &b->links[li];
    int from = l->from;
    if ((unsigned)l->protocol >= SIM_PROTO_COUNT)
        return fail(c, from, li, "the link's protocol is not known");
    TRY(check_nonneg_duration(c, from, li, "rtt", l->rtt_us));
    if (!is_nonneg(l->reply_round_trips) || l->reply_round_trips > 1000)
        return fail(c, from, li, "reply_round_trips must be a number from 0 to 1000");
    if (!is_prob(l->lose_request))
        return fail(c, from, li, "lose_request must be a probability between 0 and 1");
    if (!is_prob(l->lose_reply))
        return fail(c, from, li, "lose_reply must be a probability between 0 and 1");
    if (l->n_lose_reply_of > 0 && !l->lose_reply_of)
        return fail(c, from, li, "lose_reply_of is missing its job numbers");
    for (size_t k = 0; k < l->n_lose_reply_of; k++) {
        int64_t j = l->lose_reply_of[k];
        if (j < 1 || j > b->traffic.jobs)
            return fail(c, from, li, "lose_reply_of names job %lld; job numbers run from 1 to %lld",
                        (long long)j, (long long)b->traffic.jobs);
    }
    bool faulty = l->lose_request > 0 || l->lose_reply > 0 || l->n_lose_reply_of > 0;
    bool write = false, delivery_from_broker = false;
    for (int i = 0; i < t->n_hops; i++) {
        write = write || li == t->hop[i].write_link;
        delivery_from_broker =
            delivery_from_broker || (li == t->hop[i].delivery_link && t->hop[i].broker >= 0);
    }
    if (faulty && write)
        return fail(c, from, li,
                    "faults are not modelled on a handler's link to its database (its writes "
                    "are part of the effect)");
    if (t->n_hops == 2 && li == t->hop[1].publish_link) {
        const sim_part *h = &b->parts[t->hop[0].handler];
        if ((l->lose_reply > 0 || l->n_lose_reply_of > 0) && h->publish != SIM_PUBLISH_OUTBOX)
            return fail(c, from, li,
                        "lose_reply on a handler's link to a broker needs publish: outbox (only "
                        "the outbox relay waits for the broker's confirm)");
        if (h->publish == SIM_PUBLISH_OUTBOX && (l->lose_request >= 1 || l->lose_reply >= 1))
            return fail(c, from, li,
                        "with publish: outbox the relay sends until the broker confirms; "
                        "lose_request and lose_reply must be below 1");
    }
    if (l->transactional && !delivery_from_broker)
        return fail(c, from, li, "transactional applies only to a link from a message broker");
    return -1;
}

/* The sender's tries and patience. */
static int check_sender(checker *c, const sim_hop_topology *h)
{
    const sim_part *s = &c->b->parts[h->sender];
    int si = h->sender;
    if (s->tries < 1)
        return fail(c, si, -1, "tries must be at least 1");
    if (s->tries > SIM_MAX_TRIES)
        return fail(c, si, -1, "tries must be at most %d", SIM_MAX_TRIES);
    if (h->broker >= 0) {
        if ((unsigned)s->delivery >= SIM_DELIVERY_COUNT)
            return fail(c, si, -1, "delivery must be at-least-once or at-most-once");
        if (s->delivery == SIM_DELIVERY_AT_LEAST_ONCE)
            TRY(check_positive(c, si, "redelivery_after", s->redelivery_after_us));
        if (!(s->backoff_factor == 0 || (s->backoff_factor >= 1 && s->backoff_factor <= 1000)))
            return fail(c, si, -1, "redelivery_after's factor must be between 1 and 1000");
        if (s->backoff_max_us != 0 && s->backoff_max_us < s->redelivery_after_us)
            return fail(c, si, -1, "redelivery_after's max must not be shorter than its first wait");
        TRY(check_nonneg_duration(c, si, -1, "redelivery_after's max", s->backoff_max_us));
        if (s->dedup_window_us < 0)
            return fail(c, si, -1, "dedup_window must not be negative");
        if (s->dead_letter < 0 || (size_t)s->dead_letter > c->b->n_parts)
            return fail(c, si, -1, "dead_letter names a part that does not exist");
        if (s->dead_letter > 0 && c->b->parts[s->dead_letter - 1].kind != SIM_KIND_DLQ)
            return fail(c, si, -1, "dead_letter names %s, a %s; it must name a dead-letter-queue",
                        pname(c->b, s->dead_letter - 1).s, kind_name(c->b, s->dead_letter - 1));
        if (s->dead_letter > 0 && s->delivery != SIM_DELIVERY_AT_LEAST_ONCE)
            return fail(c, si, -1,
                        "dead_letter needs delivery: at-least-once (at-most-once never "
                        "redelivers, so no message runs out of tries)");
    } else {
        TRY(check_positive(c, si, "timeout", s->timeout_us));
    }
    return -1;
}

static int check_handler(checker *c, const sim_hop_topology *t, bool publishes)
{
    const sim_board *b = c->b;
    const sim_part *h = &b->parts[t->handler];
    int hi = t->handler;
    if (h->concurrency < 1)
        return fail(c, hi, -1, "concurrency must be at least 1");
    if (h->concurrency > SIM_MAX_CONCURRENCY)
        return fail(c, hi, -1, "concurrency must be at most %d", SIM_MAX_CONCURRENCY);
    TRY(check_latency(c, hi, "work", h->work));
    if ((unsigned)h->idempotency >= SIM_IDEM_COUNT)
        return fail(c, hi, -1, "idempotency is not a known policy");
    if (h->idempotency == SIM_IDEM_PROVIDER_KEY && t->provider < 0)
        return fail(c, hi, -1, "idempotency provider-key needs a link to a payment-provider");
    if (h->key_ttl_us < 0)
        return fail(c, hi, -1, "key_ttl must not be negative");
    if (h->idempotency == SIM_IDEM_KEY_CLAIMED_FIRST)
        TRY(check_positive(c, hi, "lease", h->lease_us));
    if (!is_prob(h->crash_after_effect))
        return fail(c, hi, -1, "crash_after_effect must be a probability between 0 and 1");
    if (!is_prob(h->crash_after_commit))
        return fail(c, hi, -1, "crash_after_commit must be a probability between 0 and 1");
    if (!is_prob(h->fail))
        return fail(c, hi, -1, "fail must be a probability between 0 and 1");
    TRY(check_nonneg_duration(c, hi, -1, "restart", h->restart_us));
    if ((unsigned)h->publish >= SIM_PUBLISH_COUNT)
        return fail(c, hi, -1, "publish must be after-commit, before-commit or outbox");
    /* after-commit is the default and means nothing without a second broker */
    if (h->publish != SIM_PUBLISH_AFTER_COMMIT && !publishes)
        return fail(c, hi, -1, "publish %s needs a link from %s to a message broker",
                    sim_publish_name(h->publish), pname(b, hi).s);
    if (publishes && h->publish == SIM_PUBLISH_OUTBOX)
        TRY(check_positive(c, hi, "relay_every", h->relay_every_us));
    if (t->provider >= 0) {
        TRY(check_positive(c, hi, "timeout", h->timeout_us));
        const sim_part *p = &b->parts[t->provider];
        TRY(check_latency(c, t->provider, "call", p->call));
        if (!is_prob(p->fail))
            return fail(c, t->provider, -1, "fail must be a probability between 0 and 1");
        if (h->idempotency == SIM_IDEM_PROVIDER_KEY && p->key_ttl_us < 0)
            return fail(c, t->provider, -1, "key_ttl must not be negative");
    }
    if (t->database >= 0)
        TRY(check_latency(c, t->database, "write", b->parts[t->database].write));
    return -1;
}

static int check_roles(checker *c, const sim_topology *t)
{
    for (int i = 0; i < t->n_hops; i++) {
        TRY(check_sender(c, &t->hop[i]));
        TRY(check_handler(c, &t->hop[i], i + 1 < t->n_hops));
    }
    const sim_hop_topology *h0 = &t->hop[0];
    if (h0->publish_link >= 0) { /* the users publish to a broker */
        const sim_part *u = &c->b->parts[t->users];
        if ((unsigned)u->message_id >= SIM_MESSAGE_ID_COUNT)
            return fail(c, t->users, -1, "message_id must be producer or per-publish");
        if (u->tries < 1)
            return fail(c, t->users, -1, "tries must be at least 1");
        if (u->tries > SIM_MAX_TRIES)
            return fail(c, t->users, -1, "tries must be at most %d", SIM_MAX_TRIES);
        TRY(check_positive(c, t->users, "timeout", u->timeout_us));
    }
    return -1;
}

int sim_board_check_topology(const sim_board *b, const sim_limits *lim, char *msg, size_t n,
                             int *link_index, sim_topology *topo)
{
    checker c = {b, msg, n, link_index};
    if (link_index)
        *link_index = -1;
    if (msg && n)
        msg[0] = '\0';
    sim_limits def = sim_limits_default();
    if (!lim)
        lim = &def;
    if (!b)
        return fail(&c, -2, -1, "there is no board");
    sim_topology t;
    TRY(check_board_values(&c, lim));
    TRY(check_topology(&c, &t));
    TRY(check_roles(&c, &t));
    for (size_t i = 0; i < b->n_links; i++)
        TRY(check_link(&c, &t, (int)i));
    if (topo)
        *topo = t;
    return -1;
}

int sim_board_check(const sim_board *b, const sim_limits *lim, char *msg, size_t n, int *link_index)
{
    return sim_board_check_topology(b, lim, msg, n, link_index, NULL);
}

int sim_board_hops(const sim_board *b)
{
    sim_topology t;
    if (sim_board_check_topology(b, NULL, NULL, 0, NULL, &t) != -1)
        return 0;
    return t.n_hops;
}
