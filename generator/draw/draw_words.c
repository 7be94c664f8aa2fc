/* draw_words.c — what every figure checks before it draws, and the words it
 * uses for parts, links, policies and a timeline's effects. */
#include "draw/draw.h"
#include "draw/draw_internal.h"

#include <stdio.h>

const char *dpart_label(const bp_board *b, size_t i)
{
    const bp_part_info *p = &b->parts[i];
    return p->label ? p->label : p->id ? p->id : "part";
}

const char *dreply_word(sim_protocol p, bool plural)
{
    if (p == SIM_PROTO_AMQP)
        return plural ? "acks" : "ack";
    if (p == SIM_PROTO_SQL)
        return plural ? "replies" : "reply";
    return plural ? "responses" : "response";
}

const char *draw_link_reply_word(const bp_board *b, size_t i, bool plural)
{
    const sim_link *l = &b->sim.links[i];
    if (b->sim.parts[l->to].kind == SIM_KIND_BROKER)
        return plural ? "confirms" : "confirm";
    return dreply_word(l->protocol, plural);
}

const char *drequest_word(sim_protocol p, bool plural)
{
    if (p == SIM_PROTO_AMQP)
        return plural ? "deliveries" : "delivery";
    if (p == SIM_PROTO_SQL)
        return plural ? "writes" : "write";
    return plural ? "requests" : "request";
}

const char *dpolicy_badge(sim_idempotency i)
{
    switch (i) {
    case SIM_IDEM_NONE:
        return "no ID check";
    case SIM_IDEM_KEY_AFTER_EFFECT:
        return "ID check after effect";
    case SIM_IDEM_KEY_IN_TRANSACTION:
        return "ID check in transaction";
    case SIM_IDEM_PROVIDER_KEY:
        return "provider idempotency key";
    case SIM_IDEM_BUSINESS_KEY:
        return "business-key check";
    case SIM_IDEM_KEY_CLAIMED_FIRST:
        return "ID claimed before effect";
    default:
        return "unknown policy";
    }
}

const char *draw_policy_words(sim_idempotency i)
{
    return dpolicy_badge(i);
}

char *dtl_effect_text(dtl_tries *d, const sim_trace_entry *e, int k, const char *noun,
                      const char *verb)
{
    long long job = (long long)e->job, t = (long long)sim_effect_try(e);
    bool dup = sim_effect_duplicate(e);
    char when[64] = "";
    if (k == 1 || !dup) {
        d->first_try = t;
        d->first_copy = e->copy;
        if (t > 1 || d->received > 1)
            snprintf(when, sizeof when, " on try %lld", t);
        return xasprintf("%s %lld %s%s", noun, job, verb, when);
    }
    bool same = e->copy == d->first_copy;
    if (k == 2 && same)
        snprintf(when, sizeof when, ": on try %lld and again on try %lld", (long long)d->first_try,
                 t);
    else if (same || t > 1)
        snprintf(when, sizeof when, ": again on try %lld", t);
    if (k == 2)
        return xasprintf("%s %lld %s twice%s", noun, job, verb, when);
    return xasprintf("%s %lld %s %d times%s", noun, job, verb, k, when);
}

bool dpart_handles(sim_kind k)
{
    return k == SIM_KIND_CONSUMER || k == SIM_KIND_SERVICE;
}

const char *dlink_label(const bp_board *b, size_t i)
{
    const char *l = b->links ? b->links[i].label : NULL;
    if (l)
        return l;
    switch (b->sim.links[i].protocol) {
    case SIM_PROTO_AMQP:
        return "AMQP";
    case SIM_PROTO_HTTP1:
        return "HTTP/1.1";
    case SIM_PROTO_HTTP2:
        return "HTTP/2";
    case SIM_PROTO_SQL:
        return "SQL";
    default:
        return "link";
    }
}

int dcheck_board(const bp_board *b, char *err, size_t errn)
{
    char what[96];
    if (!b)
        return dfail(err, errn, "no board to draw");
    const sim_board *s = &b->sim;
    if (s->n_parts == 0 || s->n_parts > DRAW_MAX_PARTS)
        return dfail(err, errn, "a board to draw needs 1 to %d parts, not %zu", DRAW_MAX_PARTS,
                     s->n_parts);
    if (s->n_links > DRAW_MAX_LINKS)
        return dfail(err, errn, "a board to draw has at most %d links, not %zu", DRAW_MAX_LINKS,
                     s->n_links);
    if (!s->parts || !b->parts || (s->n_links && !s->links))
        return dfail(err, errn, "the board has no part or link list to draw");
    if (b->title && dcheck_text("the board title", b->title, err, errn))
        return -1;
    if (b->id && dcheck_text("the board id", b->id, err, errn))
        return -1;
    for (size_t i = 0; i < s->n_parts; i++) {
        const sim_part *p = &s->parts[i];
        snprintf(what, sizeof what, "the label of part %zu", i + 1);
        if (dcheck_text(what, dpart_label(b, i), err, errn))
            return -1;
        if ((unsigned)p->kind >= SIM_KIND_COUNT)
            return dfail(err, errn, "part %zu has an unknown kind", i + 1);
        if ((unsigned)p->idempotency >= SIM_IDEM_COUNT)
            return dfail(err, errn, "part %zu has an unknown idempotency policy", i + 1);
        snprintf(what, sizeof what, "the vcpu of part %zu", i + 1);
        if (dcheck_number(what, p->vcpu, 0, 1e6, err, errn))
            return -1;
        snprintf(what, sizeof what, "the gb of part %zu", i + 1);
        if (dcheck_number(what, p->gb, 0, 1e6, err, errn))
            return -1;
        snprintf(what, sizeof what, "crash_after_effect of part %zu", i + 1);
        if (dcheck_number(what, p->crash_after_effect, 0, 1, err, errn))
            return -1;
        snprintf(what, sizeof what, "fail of part %zu", i + 1);
        if (dcheck_number(what, p->fail, 0, 1, err, errn))
            return -1;
        if (p->key_ttl_us < 0)
            return dfail(err, errn, "key_ttl of part %zu is negative", i + 1);
        const bp_part_info *pi = &b->parts[i];
        if (pi->has_at && (pi->at_col < 0 || pi->at_col > DRAW_MAX_GRID || pi->at_row < 0 ||
                           pi->at_row > DRAW_MAX_GRID))
            return dfail(err, errn,
                         "part %zu is pinned at [%d, %d]; columns and rows go from 0 to %d", i + 1,
                         pi->at_col, pi->at_row, DRAW_MAX_GRID);
    }
    for (size_t i = 0; i < s->n_links; i++) {
        const sim_link *l = &s->links[i];
        if (l->from < 0 || (size_t)l->from >= s->n_parts || l->to < 0 ||
            (size_t)l->to >= s->n_parts)
            return dfail(err, errn, "link %zu names a part the board does not have", i + 1);
        if (l->from == l->to)
            return dfail(err, errn, "link %zu connects part %d to itself", i + 1, l->from + 1);
        if ((unsigned)l->protocol >= SIM_PROTO_COUNT)
            return dfail(err, errn, "link %zu has an unknown protocol", i + 1);
        snprintf(what, sizeof what, "the protocol label of link %zu", i + 1);
        if (dcheck_text(what, dlink_label(b, i), err, errn))
            return -1;
        snprintf(what, sizeof what, "lose_request of link %zu", i + 1);
        if (dcheck_number(what, l->lose_request, 0, 1, err, errn))
            return -1;
        snprintf(what, sizeof what, "lose_reply of link %zu", i + 1);
        if (dcheck_number(what, l->lose_reply, 0, 1, err, errn))
            return -1;
        if (l->n_lose_reply_of > 1000 || (l->n_lose_reply_of && !l->lose_reply_of))
            return dfail(err, errn, "lose_reply_of of link %zu is not a short list", i + 1);
    }
    return 0;
}
