/* names.c — the fixed names of kinds, protocols, policies and measures
 * boards and pages use, shared by YAML, placeholders and JSON. */
#include "simcore.h"

#include <string.h>

static const char *const kind_names[SIM_KIND_COUNT] = {
    "users", "message-broker", "consumer", "service", "payment-provider", "database", "dead-letter-queue",
};
static const char *const protocol_names[SIM_PROTO_COUNT] = {"amqp", "http1", "http2", "sql"};
static const char *const idempotency_names[SIM_IDEM_COUNT] = {
    "none",         "key-after-effect", "key-in-transaction",
    "provider-key", "business-key",     "key-claimed-first",
};
static const char *const delivery_names[SIM_DELIVERY_COUNT] = {"at-least-once", "at-most-once"};
static const char *const arrivals_names[SIM_ARRIVALS_COUNT] = {"poisson", "even"};
static const char *const op_names[SIM_OP_COUNT] = {"charge", "set"};
static const char *const publish_names[SIM_PUBLISH_COUNT] = {"after-commit", "before-commit",
                                                             "outbox"};
static const char *const message_id_names[SIM_MESSAGE_ID_COUNT] = {"producer", "per-publish"};
static const char *const measure_names[SIM_M_COUNT] = {
    "jobs",
    "deliveries",
    "effects",
    "duplicates",
    "charged_twice",
    "lost_writes",
    "errors",
    "error_rate",
    "completion_time",
    "latency_p50",
    "latency_p99",
    "monthly_cost",
    "events",
    "lost_events",
    "ghost_events",
    "downstream_deliveries",
    "downstream_effects",
    "downstream_duplicates",
    "downstream_lost_writes",
    "downstream_errors",
    "dead_lettered",
    "dead_letter_time",
};
static const sim_unit measure_units[SIM_M_COUNT] = {
    SIM_UNIT_COUNT,   SIM_UNIT_COUNT,     SIM_UNIT_COUNT, SIM_UNIT_COUNT,   SIM_UNIT_COUNT,
    SIM_UNIT_COUNT,   SIM_UNIT_COUNT,     SIM_UNIT_RATIO, SIM_UNIT_SECONDS, SIM_UNIT_SECONDS,
    SIM_UNIT_SECONDS, SIM_UNIT_USD_MONTH, SIM_UNIT_COUNT, SIM_UNIT_COUNT,   SIM_UNIT_COUNT,
    SIM_UNIT_COUNT,   SIM_UNIT_COUNT,     SIM_UNIT_COUNT, SIM_UNIT_COUNT,   SIM_UNIT_COUNT,
    SIM_UNIT_COUNT,   SIM_UNIT_SECONDS,
};
static const char *const trace_names[SIM_TR_COUNT] = {
    "arrive",      "send",       "lost-request",  "receive",  "skip",    "call",    "call-lost",
    "call-failed", "effect",     "provider-skip", "rollback", "crash",   "restart", "record-key",
    "reply",       "lost-reply", "acked",         "timeout",  "give-up", "dropped", "publish",
    "accept",      "dedup",      "confirm",       "claim",    "held",    "outbox",  "failed",
    "dead-letter",
};

static const char *name_at(const char *const *names, int n, int i)
{
    return i >= 0 && i < n ? names[i] : NULL;
}

static int find(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0)
            return i;
    return -1;
}

const char *sim_kind_name(sim_kind k)
{
    return name_at(kind_names, SIM_KIND_COUNT, (int)k);
}
const char *sim_protocol_name(sim_protocol p)
{
    return name_at(protocol_names, SIM_PROTO_COUNT, (int)p);
}
const char *sim_idempotency_name(sim_idempotency i)
{
    return name_at(idempotency_names, SIM_IDEM_COUNT, (int)i);
}
const char *sim_delivery_name(sim_delivery d)
{
    return name_at(delivery_names, SIM_DELIVERY_COUNT, (int)d);
}
const char *sim_arrivals_name(sim_arrivals a)
{
    return name_at(arrivals_names, SIM_ARRIVALS_COUNT, (int)a);
}
const char *sim_op_name(sim_op o)
{
    return name_at(op_names, SIM_OP_COUNT, (int)o);
}
const char *sim_publish_name(sim_publish p)
{
    return name_at(publish_names, SIM_PUBLISH_COUNT, (int)p);
}
const char *sim_message_id_name(sim_message_id i)
{
    return name_at(message_id_names, SIM_MESSAGE_ID_COUNT, (int)i);
}
const char *sim_measure_name(sim_measure m)
{
    return name_at(measure_names, SIM_M_COUNT, (int)m);
}
const char *sim_trace_kind_name(sim_trace_kind k)
{
    return name_at(trace_names, SIM_TR_COUNT, (int)k);
}
int sim_measure_hop(sim_measure m)
{
    return m >= SIM_M_LOST_EVENTS && m <= SIM_M_DOWNSTREAM_ERRORS ? 2 : 1;
}
bool sim_measure_on(const sim_board *b, sim_measure m)
{
    if (sim_measure_hop(m) > sim_board_hops(b))
        return false;
    if (m != SIM_M_DEAD_LETTERED && m != SIM_M_DEAD_LETTER_TIME)
        return true;
    for (size_t i = 0; i < b->n_parts; i++)
        if (b->parts[i].kind == SIM_KIND_BROKER && b->parts[i].dead_letter > 0)
            return true;
    return false;
}
sim_unit sim_measure_unit(sim_measure m)
{
    return (int)m >= 0 && m < SIM_M_COUNT ? measure_units[m] : SIM_UNIT_COUNT;
}

int sim_kind_from_name(const char *s)
{
    return find(kind_names, SIM_KIND_COUNT, s);
}
int sim_protocol_from_name(const char *s)
{
    return find(protocol_names, SIM_PROTO_COUNT, s);
}
int sim_idempotency_from_name(const char *s)
{
    return find(idempotency_names, SIM_IDEM_COUNT, s);
}
int sim_delivery_from_name(const char *s)
{
    return find(delivery_names, SIM_DELIVERY_COUNT, s);
}
int sim_arrivals_from_name(const char *s)
{
    return find(arrivals_names, SIM_ARRIVALS_COUNT, s);
}
int sim_op_from_name(const char *s)
{
    return find(op_names, SIM_OP_COUNT, s);
}
int sim_publish_from_name(const char *s)
{
    return find(publish_names, SIM_PUBLISH_COUNT, s);
}
int sim_message_id_from_name(const char *s)
{
    return find(message_id_names, SIM_MESSAGE_ID_COUNT, s);
}
int sim_measure_from_name(const char *s)
{
    return find(measure_names, SIM_M_COUNT, s);
}
