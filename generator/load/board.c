/* board.c — board files (content/boards/NAME.yaml) into bp_board (docs/boards.md): parts, links,
 * traffic, goals, expect; catalog defaults filled in; every problem in the
 * file reported with its position (overrides: override.c). */
#include "load/board.h"
#include "load/fields.h"
#include "load/units.h"
#include "base/util.h"
#include "load/yread.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A part id reference (links, traffic): returns the index or -1 (reported). */
static int part_ref(const bp_board *b, const char *path, const ynode *v, const char *what, diag *d)
{
    if (yexpect(path, v, YN_SCALAR, what, d) != 0)
        return -1;
    int i = board_part_index(b, v->s);
    if (i >= 0)
        return i;
    const char *ids[64];
    size_t n = 0;
    for (size_t k = 0; k < b->sim.n_parts && n < 64; k++)
        if (b->parts[k].id)
            ids[n++] = b->parts[k].id;
    diag_unknown(d, YPATH(path, v), v->line, v->col, "part", v->s, ids, n);
    return -1;
}

static void load_part(bp_board *b, size_t i, const char *path, const ynode *pn,
                      const bp_catalog *cat, diag *d)
{
    bp_part_info *info = &b->parts[i];
    info->pos.line = pn->line;
    info->pos.col = pn->col;
    if (yexpect(path, pn, YN_MAP, "a part", d) != 0)
        return;
    const ynode *idn = ymap_get(pn, "id"), *kn = ymap_get(pn, "kind");
    if (!idn)
        ymissing(path, pn, "id", "a part", d);
    else if (yread_id(path, idn, "part id", &info->id, d) == 0) {
        for (size_t k = 0; k < i; k++) {
            if (b->parts[k].id && strcmp(b->parts[k].id, info->id) == 0) {
                diag_error(d, YPATH(path, idn), idn->line, idn->col,
                           "part id '%s' is used twice (first at line %d)", info->id,
                           b->parts[k].pos.line);
                break;
            }
        }
    }
    const char *kinds[SIM_KIND_COUNT];
    for (int k = 0; k < SIM_KIND_COUNT; k++)
        kinds[k] = sim_kind_name((sim_kind)k);
    int kind = -1;
    if (!kn)
        ymissing(path, pn, "kind", "a part", d);
    else
        yread_enum(path, kn, "part kind", kinds, SIM_KIND_COUNT, &kind, d);

    size_t n_fields;
    const field_def *fields = fields_part(&n_fields);
    if (kind < 0) {
        /* Without a kind only the general keys can be checked. */
        b->sim.parts[i].kind = SIM_KIND_USERS;
        return;
    }
    b->sim.parts[i] = cat->kinds[kind];
    b->sim.parts[i].kind = (sim_kind)kind;
    b->sim.parts[i].dead_letter = 0; /* a board's own: load_dead_letter */

    const char *allowed[40];
    size_t n_allowed = 0;
    allowed[n_allowed++] = "id";
    allowed[n_allowed++] = "kind";
    allowed[n_allowed++] = "label";
    allowed[n_allowed++] = "at";
    for (size_t f = 0; f < n_fields; f++)
        if (fields[f].kinds & KIND_BIT(kind))
            allowed[n_allowed++] = fields[f].name;
    if (kind == SIM_KIND_BROKER)
        allowed[n_allowed++] = "dead_letter";
    for (size_t k = 0; k + 1 < pn->n; k += 2) {
        const ynode *key = pn->kids[k];
        bool ok = false;
        for (size_t a = 0; a < n_allowed && !ok; a++)
            ok = strcmp(key->s, allowed[a]) == 0;
        if (ok)
            continue;
        const field_def *f = fields_find(fields, n_fields, key->s);
        if (strcmp(key->s, "dead_letter") == 0)
            diag_error(d, YPATH(path, key), key->line, key->col,
                       "'dead_letter' does not apply to a %s part (it applies to "
                       "message-broker)",
                       kinds[kind]);
        else if (f) {
            buf where;
            buf_init(&where);
            fields_kinds_text(&where, f->kinds);
            diag_error(d, YPATH(path, key), key->line, key->col,
                       "'%s' does not apply to a %s part (it applies to %s)", key->s, kinds[kind],
                       where.data);
            buf_free(&where);
        } else
            diag_unknown(d, YPATH(path, key), key->line, key->col, "part key", key->s, allowed,
                         n_allowed);
    }
    for (size_t f = 0; f < n_fields; f++) {
        if (!(fields[f].kinds & KIND_BIT(kind)))
            continue;
        const ynode *v = ymap_get(pn, fields[f].name);
        if (v && field_read(path, v, &fields[f], &b->sim.parts[i], cat, d) == 0)
            b->part_set[i].bits |= 1ull << f;
    }
    const ynode *lab = ymap_get(pn, "label");
    if (lab)
        yread_text(path, lab, "label", &info->label, d);
    else
        info->label = xstrdup(cat->kind_label[kind] ? cat->kind_label[kind] : kinds[kind]);
    const ynode *at = ymap_get(pn, "at");
    if (at) {
        if (yexpect(path, at, YN_SEQ, "at", d) == 0) {
            int64_t xy[2] = {0, 0};
            if (at->n != 2) {
                diag_error(d, YPATH(path, at), at->line, at->col,
                           "at must be [column, row], found %zu value%s", at->n,
                           at->n == 1 ? "" : "s");
            } else if (yread_int(path, at->kids[0], "at column", 0, 63, &xy[0], d) == 0 &&
                       yread_int(path, at->kids[1], "at row", 0, 63, &xy[1], d) == 0) {
                info->has_at = true;
                info->at_col = (int)xy[0];
                info->at_row = (int)xy[1];
            }
        }
    }
}

/* A broker's dead_letter: the id of a dead-letter-queue part on the board
 * (read once every part is known). */
static void load_dead_letter(bp_board *b, size_t i, const char *path, const ynode *pn, diag *d)
{
    const ynode *v = pn->type == YN_MAP ? ymap_get(pn, "dead_letter") : NULL;
    if (!v || b->sim.parts[i].kind != SIM_KIND_BROKER)
        return;
    int q = part_ref(b, path, v, "dead_letter", d);
    if (q < 0)
        return;
    if (b->sim.parts[q].kind != SIM_KIND_DLQ) {
        const char *ids[64];
        size_t n = 0;
        for (size_t k = 0; k < b->sim.n_parts; k++)
            if (b->sim.parts[k].kind == SIM_KIND_DLQ && b->parts[k].id)
                ids[n++] = b->parts[k].id;
        /* what to do is the hint: name one, or add one */
        diag_note why;
        diag_note_set(&why, "dead_letter names '%s', a %s", v->s,
                      sim_kind_name(b->sim.parts[q].kind));
        if (n > 0)
            diag_note_hint(&why, false, "it must name a dead-letter-queue part: did you mean '%s'?",
                           ids[0]);
        else
            diag_note_hint(&why, false,
                           "it must name a dead-letter-queue part (add one: {id: dlq, kind: "
                           "dead-letter-queue})");
        diag_error_note(d, YPATH(path, v), v->line, v->col, &why);
        return;
    }
    if (b->sim.parts[i].delivery != SIM_DELIVERY_AT_LEAST_ONCE) {
        diag_error(d, YPATH(path, v), v->line, v->col,
                   "dead_letter needs delivery: at-least-once; at-most-once never redelivers, "
                   "so no message runs out of tries");
        return;
    }
    b->sim.parts[i].dead_letter = q + 1;
}

static void load_link(bp_board *b, size_t i, const char *path, const ynode *ln,
                      const bp_catalog *cat, diag *d, size_t *lro_cap, size_t *lro_n)
{
    bp_link_info *info = &b->links[i];
    sim_link *l = &b->sim.links[i];
    info->pos.line = ln->line;
    info->pos.col = ln->col;
    l->from = l->to = -1;
    if (yexpect(path, ln, YN_MAP, "a link", d) != 0)
        return;
    size_t n_fields;
    const field_def *fields = fields_link(&n_fields);
    const char *allowed[16];
    size_t n_allowed = 0;
    allowed[n_allowed++] = "from";
    allowed[n_allowed++] = "to";
    allowed[n_allowed++] = "protocol";
    allowed[n_allowed++] = "lose_reply_of";
    for (size_t f = 0; f < n_fields; f++)
        allowed[n_allowed++] = fields[f].name;
    ycheck_keys(path, ln, "link key", allowed, n_allowed, d);

    const ynode *fn = ymap_get(ln, "from"), *tn = ymap_get(ln, "to"),
                *pn = ymap_get(ln, "protocol");
    int from = -1, to = -1, proto = -1;
    if (!fn)
        ymissing(path, ln, "from", "a link", d);
    else
        from = part_ref(b, path, fn, "from", d);
    if (!tn)
        ymissing(path, ln, "to", "a link", d);
    else
        to = part_ref(b, path, tn, "to", d);
    const char *protos[SIM_PROTO_COUNT];
    for (int p = 0; p < SIM_PROTO_COUNT; p++)
        protos[p] = sim_protocol_name((sim_protocol)p);
    if (!pn)
        ymissing(path, ln, "protocol", "a link", d);
    else
        yread_enum(path, pn, "protocol", protos, SIM_PROTO_COUNT, &proto, d);
    if (proto >= 0) {
        *l = cat->protocols[proto];
        l->protocol = (sim_protocol)proto;
        info->label =
            xstrdup(cat->protocol_label[proto] ? cat->protocol_label[proto] : protos[proto]);
    }
    l->from = from;
    l->to = to;
    if (from >= 0 && from == to)
        diag_error(d, YPATH(path, tn), tn->line, tn->col, "a link cannot go from '%s' to itself",
                   tn->s);
    for (size_t k = 0; k < i && from >= 0 && to >= 0; k++) {
        if (b->sim.links[k].from == from && b->sim.links[k].to == to) {
            diag_error(d, YPATH(path, ln), ln->line, ln->col,
                       "link from '%s' to '%s' is given twice (first at line %d)", fn->s, tn->s,
                       b->links[k].pos.line);
            break;
        }
    }
    for (size_t f = 0; f < n_fields; f++) {
        const ynode *v = ymap_get(ln, fields[f].name);
        if (v && field_read(path, v, &fields[f], l, cat, d) == 0)
            b->link_set[i].bits |= 1ull << f;
    }
    l->lose_reply_of = NULL;
    l->n_lose_reply_of = 0;
    const ynode *lro = ymap_get(ln, "lose_reply_of");
    if (lro && yexpect(path, lro, YN_SEQ, "lose_reply_of", d) == 0) {
        size_t start = *lro_n;
        for (size_t k = 0; k < lro->n; k++) {
            int64_t job;
            if (yread_int(path, lro->kids[k], "job number", 1, INT64_MAX, &job, d) != 0)
                continue;
            b->lose_reply_of =
                xgrow(b->lose_reply_of, sizeof *b->lose_reply_of, lro_cap, *lro_n + 1);
            b->lose_reply_of[(*lro_n)++] = job;
        }
        /* Offsets for now; turned into pointers once the array stops moving.
         * An empty list stays NULL (there is no array to point into). */
        if (*lro_n > start) {
            l->lose_reply_of = (const int64_t *)(uintptr_t)(start + 1);
            l->n_lose_reply_of = *lro_n - start;
        }
    }
}

/* replications: N, or {until: P, max: N, min: N}: the first min (10)
 * replications, then more until every goal measure's 95% half-width is
 * within P of its mean, or max have run (MODEL.md "Replications"). */
static void load_replications(bp_board *b, const char *path, const ynode *v, const sim_limits *lim,
                              diag *d)
{
    int64_t x;
    if (v->type != YN_MAP) {
        if (yread_int(path, v, "replications", 1, lim->max_replications, &x, d) == 0)
            b->sim.replications = (int)x;
        return;
    }
    static const char *const keys[] = {"until", "max", "min"};
    ycheck_keys(path, v, "replications key", keys, 3, d);
    const ynode *until = ymap_get(v, "until"), *max = ymap_get(v, "max"), *min = ymap_get(v, "min");
    double p;
    if (!until) {
        ymissing(path, v, "until", "replications", d);
    } else if (yread_prob(path, until, "until", &p, d) == 0) {
        b->until_pos = (bp_pos){until->line, until->col};
        if (p > 0)
            b->sim.until = p;
        else
            diag_error(d, YPATH(path, until), until->line, until->col,
                       "until must be above 0%%: it is the 95%% half-width to reach, as a share "
                       "of the mean (2%%)");
    }
    if (!max)
        ymissing(path, v, "max", "replications", d);
    else if (yread_int(path, max, "max", 2, lim->max_replications, &x, d) == 0)
        b->sim.until_max = (int)x;
    int64_t first = 10; /* a t interval from fewer is too rough to stop on */
    if (min && yread_int(path, min, "min", 2, lim->max_replications, &first, d) != 0)
        return;
    if (b->sim.until_max > 0 && first > b->sim.until_max) {
        if (min)
            diag_error(d, YPATH(path, min), min->line, min->col,
                       "min (%lld) is more than max (%d): the first replications cannot outnumber "
                       "all of them",
                       (long long)first, b->sim.until_max);
        first = b->sim.until_max;
    }
    b->sim.replications = (int)first;
}

static void load_traffic(bp_board *b, const char *path, const ynode *tn, const bp_catalog *cat,
                         const sim_limits *lim, diag *d)
{
    b->traffic_pos.line = tn->line;
    b->traffic_pos.col = tn->col;
    sim_traffic *t = &b->sim.traffic;
    *t = cat->traffic;
    t->from = -1;
    if (yexpect(path, tn, YN_MAP, "traffic", d) != 0)
        return;
    size_t n_keys;
    const char *const *keys = board_traffic_keys(&n_keys);
    ycheck_keys(path, tn, "traffic key", keys, n_keys, d);
    const ynode *v;
    if (!(v = ymap_get(tn, "from"))) {
        ymissing(path, tn, "from", "traffic", d);
    } else if ((t->from = part_ref(b, path, v, "traffic from", d)) >= 0 && b->parts[t->from].id &&
               b->sim.parts[t->from].kind != SIM_KIND_USERS) {
        diag_error(d, YPATH(path, v), v->line, v->col,
                   "traffic comes from a users part; '%s' is a %s", v->s,
                   sim_kind_name(b->sim.parts[t->from].kind));
    }
    if (!(v = ymap_get(tn, "jobs")))
        ymissing(path, tn, "jobs", "traffic", d);
    else
        yread_int(path, v, "jobs", 1, lim->max_jobs, &t->jobs, d);
    if (!(v = ymap_get(tn, "over")))
        ymissing(path, tn, "over", "traffic", d);
    else
        yread_duration(path, v, "over", true, &t->over_us, d);
    int x;
    if ((v = ymap_get(tn, "op"))) {
        const char *names[] = {sim_op_name(SIM_OP_CHARGE), sim_op_name(SIM_OP_SET)};
        if (yread_enum(path, v, "operation", names, SIM_OP_COUNT, &x, d) == 0)
            t->op = (sim_op)x;
    }
    if ((v = ymap_get(tn, "noun")) && yread_text(path, v, "noun", &b->noun, d) == 0) {
        /* one word the pages say for a unit of traffic: "transfer", "order" */
        if (!b->noun[0] || strpbrk(b->noun, " \t") || strcasecmp(b->noun, "job") == 0)
            diag_error(d, YPATH(path, v), v->line, v->col,
                       "traffic noun '%s' is one word for what a reader calls one unit of "
                       "traffic, such as 'transfer' or 'reading' (the plural adds an s)",
                       b->noun);
        b->nouns = xasprintf("%ss", b->noun);
    }
    if ((v = ymap_get(tn, "verb")) && yread_text(path, v, "verb", &b->verb, d) == 0 &&
        (strpbrk(b->verb, " \t") || strlen(b->verb) > 24))
        diag_error(d, YPATH(path, v), v->line, v->col,
                   "traffic verb '%s' is one word in the past tense for what a handler does to "
                   "one unit of traffic, such as 'saved' or 'applied'",
                   b->verb);
    if ((v = ymap_get(tn, "arrivals"))) {
        const char *names[] = {sim_arrivals_name(SIM_ARRIVALS_POISSON),
                               sim_arrivals_name(SIM_ARRIVALS_EVEN)};
        if (yread_enum(path, v, "arrivals", names, SIM_ARRIVALS_COUNT, &x, d) == 0)
            t->arrivals = (sim_arrivals)x;
    }
    if ((v = ymap_get(tn, "repeat_share")))
        yread_prob(path, v, "repeat_share", &t->repeat_share, d);
    if ((v = ymap_get(tn, "poison")))
        yread_prob(path, v, "poison", &t->poison, d);
}

/* A goal bound in the measure's own unit. */
static int goal_value(const char *path, const ynode *v, sim_measure m, double *out, diag *d)
{
    const char *what = sim_measure_name(m);
    switch (sim_measure_unit(m)) {
    case SIM_UNIT_SECONDS: {
        int64_t us;
        if (yread_duration(path, v, what, false, &us, d) != 0)
            return -1;
        *out = (double)us / 1e6;
        return 0;
    }
    case SIM_UNIT_RATIO:
        return yread_prob(path, v, what, out, d);
    case SIM_UNIT_USD_MONTH:
        return yread_money(path, v, what, out, d);
    case SIM_UNIT_COUNT:
        return yread_number(path, v, what, 0, 1e15, out, d);
    }
    return -1;
}

void board_read_goals(const char *path, const ynode *gn, sim_goal *goals, bp_pos *pos, diag *d)
{
    if (yexpect(path, gn, YN_MAP, "goals", d) != 0)
        return;
    const char *names[SIM_M_COUNT];
    for (int m = 0; m < SIM_M_COUNT; m++)
        names[m] = sim_measure_name((sim_measure)m);
    for (size_t i = 0; i + 1 < gn->n; i += 2) {
        const ynode *k = gn->kids[i], *v = gn->kids[i + 1];
        int m = sim_measure_from_name(k->s);
        if (m < 0) {
            diag_unknown(d, YPATH(path, k), k->line, k->col, "measure", k->s, names, SIM_M_COUNT);
            continue;
        }
        pos[m].line = k->line;
        pos[m].col = k->col;
        if (yexpect(path, v, YN_MAP, "a goal", d) != 0)
            continue;
        static const char *const keys[] = {"max", "min"};
        ycheck_keys(path, v, "goal key", keys, 2, d);
        sim_goal *g = &goals[m];
        const ynode *mx = ymap_get(v, "max"), *mn = ymap_get(v, "min");
        if (!mx && !mn)
            diag_error(d, YPATH(path, v), v->line, v->col, "goal '%s' needs 'max' or 'min'", k->s);
        if (mx && goal_value(path, mx, (sim_measure)m, &g->max, d) == 0)
            g->has_max = true;
        if (mn && goal_value(path, mn, (sim_measure)m, &g->min, d) == 0)
            g->has_min = true;
        if (g->has_max && g->has_min && g->min > g->max)
            diag_error(d, YPATH(path, v), v->line, v->col,
                       "goal '%s' has min above max: nothing can meet it", k->s);
    }
}

/* The events a board may take, checked before it runs: one run within
 * max_events, all its runs within max_board_events. Reported at what makes
 * it big: a level's or --set's tries, else replications, else jobs. */
static void check_events_bound(const bp_board *b, const char *path, const ynode *root,
                               const ynode *traffic, const sim_limits *lim, diag *d)
{
    double sends;
    int64_t run = sim_events_estimate(&b->sim, &sends, NULL);
    int64_t all = run * board_max_replications(b);
    bool per_run = run > lim->max_events;
    if (!per_run && all <= lim->max_board_events)
        return;
    const ynode *at = ymap_get(traffic, "jobs");
    const ynode *rn = ymap_get(root, "replications");
    if (!per_run && rn)
        at = rn;
    const ynode *parts = ymap_get(root, "parts");
    for (size_t i = 0; parts && i < parts->n && i < b->sim.n_parts; i++) {
        const ynode *tn = ymap_get(parts->kids[i], "tries"); /* set by an override */
        if (tn && tn->file)
            at = tn;
    }
    /* a level's or --set's value: "with this value, one run of the board" */
    const char *subject =
        at->file ? "with this value, one run of the board" : "one run of this board";
    const char *subjects =
        at->file ? "with this value, the runs of the board" : "the runs of this board";
    char jobs_words[128];
    snprintf(jobs_words, sizeof jobs_words, "%lld jobs, up to %.0f sends each",
             (long long)b->sim.traffic.jobs, sends);
    if (per_run)
        diag_error(d, YPATH(path, at), at->line, at->col,
                   "%s may take up to %lld events (%s); the limit is %lld per run: lower jobs "
                   "or tries",
                   subject, (long long)run, jobs_words, (long long)lim->max_events);
    else
        diag_error(d, YPATH(path, at), at->line, at->col,
                   "%s may take up to %lld events (%d replications × %s); the limit is %lld "
                   "per board: lower jobs, tries or replications",
                   subjects, (long long)all, board_max_replications(b), jobs_words,
                   (long long)lim->max_board_events);
}

/* The key node for key in a mapping (for positions), or NULL. */
static const ynode *map_key(const ynode *map, const char *key)
{
    if (!map || map->type != YN_MAP)
        return NULL;
    for (size_t i = 0; i + 1 < map->n; i += 2)
        if (strcmp(map->kids[i]->s, key) == 0)
            return map->kids[i];
    return NULL;
}

static bool links_to_broker(const bp_board *b, size_t part)
{
    for (size_t l = 0; l < b->sim.n_links; l++)
        if (b->sim.links[l].from == (int)part &&
            b->sim.parts[b->sim.links[l].to].kind == SIM_KIND_BROKER)
            return true;
    return false;
}

/* Settings a board gave where the model has no use for them: the second
 * release's keys that only mean something in one place, and goals on the
 * second hop's measures of a board that has one hop. */
static void check_settings_apply(const bp_board *b, const char *path, const ynode *parts, diag *d)
{
    for (size_t i = 0; i < b->sim.n_parts && i < parts->n; i++) {
        const ynode *pn = parts->kids[i];
        const sim_part *p = &b->sim.parts[i];
        bool broker = links_to_broker(b, i);
        const ynode *k;
        if ((k = map_key(pn, "publish")) && !broker)
            diag_error(d, YPATH(path, k), k->line, k->col,
                       "'publish' applies only to a handler that links to a message broker");
        if ((k = map_key(pn, "relay_every")) && !(broker && p->publish == SIM_PUBLISH_OUTBOX))
            diag_error(d, YPATH(path, k), k->line, k->col,
                       "'relay_every' applies only with publish: outbox and a link to a message "
                       "broker");
        if ((k = map_key(pn, "lease")) && p->idempotency != SIM_IDEM_KEY_CLAIMED_FIRST)
            diag_error(d, YPATH(path, k), k->line, k->col,
                       "'lease' applies only with idempotency: key-claimed-first");
        if ((k = map_key(pn, "message_id")) && !broker)
            diag_error(d, YPATH(path, k), k->line, k->col,
                       "'message_id' applies only to users that publish to a message broker");
    }
    for (int m = SIM_M_DEAD_LETTERED; m <= SIM_M_DEAD_LETTER_TIME; m++)
        if ((b->sim.goals[m].has_max || b->sim.goals[m].has_min) &&
            sim_board_hops(&b->sim) > 0 && !sim_measure_on(&b->sim, (sim_measure)m))
            diag_error(d, path, b->goal_pos[m].line, b->goal_pos[m].col,
                       "%s is a measure of a dead-letter queue; no broker on this board names "
                       "one (dead_letter: ID)",
                       sim_measure_name((sim_measure)m));
    if (sim_board_hops(&b->sim) >= 2)
        return;
    for (int m = 0; m < SIM_M_COUNT; m++)
        if ((b->sim.goals[m].has_max || b->sim.goals[m].has_min) &&
            sim_measure_hop((sim_measure)m) > 1)
            diag_error(d, path, b->goal_pos[m].line, b->goal_pos[m].col,
                       "%s is a measure of the second hop; this board has one (a handler links "
                       "to a second message broker for two)",
                       sim_measure_name((sim_measure)m));
}

int board_max_replications(const bp_board *b)
{
    return b->sim.until > 0 ? b->sim.until_max : b->sim.replications;
}

bp_board *board_from_tree(const char *path, const ynode *root, const bp_catalog *cat,
                          const sim_limits *lim, diag *d)
{
    size_t mark = diag_mark(d);
    bp_board *b = xcalloc(1, sizeof *b);
    b->path = xstrdup(path);
    b->pos.line = root->line;
    b->pos.col = root->col;
    b->sim.seed = 1;
    b->sim.replications = 1;
    b->sim.prices = cat->prices;
    if (yexpect(path, root, YN_MAP, "a board", d) != 0)
        goto out;
    const ynode *names_board = ymap_get(root, "board");
    if (names_board && !ymap_get(root, "parts")) {
        /* a level or chart file where a board belongs: one error, not one
         * per key it has and a board lacks */
        const char *kind = ymap_get(root, "choices") ? "a level" : "a level or chart";
        if (ymap_get(root, "measure") || ymap_get(root, "x"))
            kind = "a chart";
        if (names_board->type == YN_SCALAR)
            diag_error(d, path, root->line, root->col,
                       "this is %s file, not a board; its board is '%s'", kind, names_board->s);
        else
            diag_error(d, path, root->line, root->col, "this is %s file, not a board", kind);
        goto out;
    }
    size_t n_keys;
    const char *const *keys = board_top_keys(&n_keys);
    ycheck_keys(path, root, "board key", keys, n_keys, d);

    const ynode *v;
    if (!(v = ymap_get(root, "id")))
        ymissing(path, root, "id", "a board", d);
    else
        yread_id(path, v, "board id", &b->id, d);
    if (!(v = ymap_get(root, "title")))
        ymissing(path, root, "title", "a board", d);
    else
        yread_text(path, v, "title", &b->title, d);
    if ((v = ymap_get(root, "short")) && yread_text(path, v, "short", &b->short_name, d) == 0 &&
        strlen(b->short_name) > BOARD_SHORT_MAX)
        diag_error(d, YPATH(path, v), v->line, v->col,
                   "short is %zu characters, at most %d fit beside the others in a phone's "
                   "compare table; a few words that tell this board from those it is compared "
                   "with will do (the title says the rest)",
                   strlen(b->short_name), BOARD_SHORT_MAX);
    int64_t x;
    if ((v = ymap_get(root, "seed")) && yread_int(path, v, "seed", 0, INT64_MAX, &x, d) == 0)
        b->sim.seed = (uint64_t)x;
    if ((v = ymap_get(root, "replications")))
        load_replications(b, path, v, lim, d);

    const ynode *parts = ymap_get(root, "parts");
    if (!parts) {
        ymissing(path, root, "parts", "a board", d);
    } else if (yexpect(path, parts, YN_SEQ, "parts", d) == 0) {
        if (parts->n == 0 || parts->n > 64) {
            diag_error(d, YPATH(path, parts), parts->line, parts->col,
                       "a board needs 1 to 64 parts, found %zu", parts->n);
        } else {
            b->sim.n_parts = parts->n;
            b->sim.parts = xcalloc(parts->n, sizeof *b->sim.parts);
            b->parts = xcalloc(parts->n, sizeof *b->parts);
            b->part_set = xcalloc(parts->n, sizeof *b->part_set);
            for (size_t i = 0; i < parts->n; i++) {
                load_part(b, i, path, parts->kids[i], cat, d);
                /* so sim_board_check says "part 'broker'", not "part 1" */
                b->sim.parts[i].id = b->parts[i].id;
            }
            for (size_t i = 0; i < parts->n; i++)
                load_dead_letter(b, i, path, parts->kids[i], d);
        }
    }
    const ynode *links = ymap_get(root, "links");
    size_t lro_cap = 0, lro_n = 0;
    if (links && yexpect(path, links, YN_SEQ, "links", d) == 0 && b->sim.n_parts > 0) {
        if (links->n > 256) {
            diag_error(d, YPATH(path, links), links->line, links->col,
                       "a board takes at most 256 links, found %zu", links->n);
        } else {
            b->sim.n_links = links->n;
            b->sim.links = xcalloc(links->n, sizeof *b->sim.links);
            b->links = xcalloc(links->n, sizeof *b->links);
            b->link_set = xcalloc(links->n, sizeof *b->link_set);
            for (size_t i = 0; i < links->n; i++)
                load_link(b, i, path, links->kids[i], cat, d, &lro_cap, &lro_n);
            for (size_t i = 0; i < links->n; i++)
                if (b->sim.links[i].lose_reply_of)
                    b->sim.links[i].lose_reply_of =
                        b->lose_reply_of + ((uintptr_t)b->sim.links[i].lose_reply_of - 1);
        }
    }
    const ynode *traffic = ymap_get(root, "traffic");
    if (!traffic)
        ymissing(path, root, "traffic", "a board", d);
    else if (b->sim.n_parts > 0)
        load_traffic(b, path, traffic, cat, lim, d);
    if ((v = ymap_get(root, "goals")))
        board_read_goals(path, v, b->sim.goals, b->goal_pos, d);
    bool goals = false;
    for (int m = 0; m < SIM_M_COUNT; m++)
        goals = goals || b->sim.goals[m].has_max || b->sim.goals[m].has_min;
    if (b->sim.until > 0 && !goals)
        diag_error(d, path, b->until_pos.line, b->until_pos.col,
                   "until sets how precise the goal measures must be, and this board has no "
                   "goals; give it goals or a number of replications");
    if ((v = ymap_get(root, "expect")))
        board_read_expect(b, path, v, d);
    b->sim.id = b->id;
    for (size_t i = 0; i < b->sim.n_parts; i++)
        b->sim.parts[i].id = b->parts[i].id;
    int most = board_max_replications(b);
    if (!diag_failed_since(d, mark) && b->sim.traffic.jobs > BOARD_MAX_JOB_RUNS / most) {
        const ynode *rn = ymap_get(root, "replications");
        const ynode *at = rn ? rn : ymap_get(traffic, "jobs");
        diag_error(d, YPATH(path, at), at->line, at->col,
                   "%lld jobs times %d replications is %lld simulated jobs; the limit is %d per "
                   "board: lower jobs or replications",
                   (long long)b->sim.traffic.jobs, most, (long long)b->sim.traffic.jobs * most,
                   BOARD_MAX_JOB_RUNS);
    }

    if (!diag_failed_since(d, mark)) {
        char msg[512];
        int link = -1;
        int part = sim_board_check(&b->sim, lim, msg, sizeof msg, &link);
        if (part != -1) {
            bp_pos at = b->pos;
            if (link >= 0 && (size_t)link < b->sim.n_links)
                at = b->links[link].pos;
            else if (part >= 0 && (size_t)part < b->sim.n_parts)
                at = b->parts[part].pos;
            diag_error(d, path, at.line, at.col, "%s", msg);
        } else {
            check_settings_apply(b, path, parts, d);
        }
    }
    if (!diag_failed_since(d, mark))
        check_events_bound(b, path, root, traffic, lim, d);
out:
    if (diag_failed_since(d, mark)) {
        board_free(b);
        return NULL;
    }
    return b;
}

bp_board *board_load(const char *path, const bp_catalog *cat, const sim_limits *lim, diag *d)
{
    ynode *root = yaml_load(path, "board", d);
    if (!root)
        return NULL;
    bp_board *b = board_from_tree(path, root, cat, lim, d);
    ynode_free(root);
    return b;
}
