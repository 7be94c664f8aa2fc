/* help.c — the author's reference: the rows come from the loader's field
 * tables and key lists, the simulator's names and the renderer's directive
 * table; a setting's line is its row's (sim-core/schema.h), a directive's
 * is in the renderer's table, the line that explains every other row is
 * kept here, by name, and help_missing (run by a test) names every row
 * that has none. */
#include "help.h"
#include "load/board.h"
#include "load/fields.h"
#include "render/render.h"
#include "simcore.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *name;
    const char *line;
} doc_line;

#define N_OF(a) (sizeof(a) / sizeof(a)[0])

static const doc_line board_key_docs[] = {
    {"id", "The board's name in placeholders (`{{ ID.duplicates }}`): lower-case letters, digits "
           "and `-`, unique in the site, and different from every level's id."},
    {"title", "What the diagram's caption and a compare's column say."},
    {"short", "A few words (at most 24 characters) that tell the board from the others it is "
              "compared with: a compare's switcher buttons and its phone table say them "
              "(default: the title)."},
    {"seed", "The random stream the runs use (a whole number, default 1): the same board and "
             "seed always give the same numbers."},
    {"replications", "How many independent runs are averaged (default 1); a goal passes only if "
                     "the worst run meets it. `{until: 5%, max: 200}` runs until every goal "
                     "measure is that precise."},
    {"parts", "The boxes of the diagram, left to right: a list of parts (see *Part kinds*)."},
    {"links", "Who sends to whom: a list of links (see *Links*)."},
    {"traffic", "The jobs that arrive and where (see *Traffic*)."},
    {"goals", "What the board must show, per measure: `duplicates: {max: 0}`, "
              "`completion_time: {max: 40 s}` (see *Goals*)."},
    {"expect", "`pass` or `fail`: what the page claims the board shows. When the measurement "
               "disagrees the build fails. Or a claim proved over every run of a few jobs: "
               "`{never: duplicates, jobs: 3, faults: 2}` (or `sometimes:`); the build fails "
               "with the shortest counterexample's faults when it does not hold."},
};

static const doc_line part_key_docs[] = {
    /* the keys every part takes (board.c) */
    {"id", "The part's name in links, traffic and paths (`parts.ID.KEY`)."},
    {"kind", "One of the part kinds below."},
    {"label", "The words in the diagram's box (default: the kind's label in the catalog)."},
    {"at", "`[column, row]`: the box's place in the diagram's grid, when the automatic layout is "
           "not what the page wants."},
    /* the field table (load/fields.c) */
    {"dead_letter", "The id of a `dead-letter-queue` part: a message whose tries ran out goes "
                    "there instead of being dropped (at-least-once delivery only)."},
};

static const doc_line link_key_docs[] = {
    {"from", "The sending part's id."},
    {"to", "The receiving part's id."},
    {"protocol", "One of the protocols below; what the link leaves out comes from its section "
                 "of the catalog."},
    {"lose_reply_of", "`[k, ...]`: the first reply of job number k is lost (for small teaching "
                      "boards, where a share would be a matter of luck)."},
};

static const doc_line traffic_key_docs[] = {
    {"from", "The users part the jobs start at."},
    {"op", "`charge` (adds: running it twice is a duplicate) or `set` (overwrites: naturally "
           "idempotent)."},
    {"arrivals", "`poisson` (independent users, random gaps) or `even` (equal gaps)."},
    {"noun", "What the pages call one unit of this traffic, in one word (`transfer`, `order`, "
             "`reading`; the plural adds an s): timelines, drawings and numbers say \"transfer "
             "2\", \"0 in 20,000 transfers\"."},
    {"verb", "What a handler's effect does to one unit, one word in the past tense "
             "(`saved`, `applied`): timelines say \"order 2 saved\", \"order 2 saved "
             "twice\"."},
};

static const doc_line kind_docs[] = {
    {"users", "Where jobs start (the traffic's `from`). It publishes to a broker, or calls a "
              "service over HTTP and sends again when no response comes within `timeout`."},
    {"message-broker", "Holds each message and delivers it to one consumer; with no ack within "
                       "`redelivery_after` it delivers again, `tries` deliveries in all, then "
                       "gives up: the job counts in `errors`."},
    {"consumer", "Takes deliveries from a broker and runs the job's effect: a call to a "
                 "payment-provider it links to, otherwise a write in its own database."},
    {"service", "A handler like a consumer, called straight over HTTP by users (who retry)."},
    {"payment-provider", "Someone else's API: a call is an external effect (a charge) and cannot "
                         "join the handler's transaction."},
    {"database", "The handler's own database: drawn, and its write times used for local "
                 "effects."},
    {"dead-letter-queue", "Where a broker that names it (`dead_letter: ID`) moves a message "
                          "whose tries ran out, instead of dropping it; it takes no links and no "
                          "settings. The job still counts in `errors`: someone has to look at "
                          "it or redrive it."},
};

static const doc_line protocol_docs[] = {
    {"amqp", "A broker's protocol: publishes to it and deliveries from it, each acked."},
    {"http1", "HTTP/1.1 request and response."},
    {"http2", "HTTP/2 request and response."},
    {"sql", "A handler's link to its database."},
};

static const doc_line idem_docs[] = {
    {"none", "Every delivery runs the effect."},
    {"key-after-effect", "Check the message ID, run the effect, then record the ID in a separate "
                         "step: a crash in between repeats the effect."},
    {"key-in-transaction", "Check and record the ID in the same transaction as a local effect; a "
                           "call to a provider cannot join it."},
    {"provider-key", "Pass the message ID to the payment-provider as its idempotency key: it "
                     "charges once per key (while it keeps the key, `key_ttl`)."},
    {"business-key", "De-duplicate on the business key: safe for true duplicates, but it drops "
                     "legitimate repeats."},
    {"key-claimed-first", "Insert the key (unique) before the effect: a racing copy finds it "
                          "claimed and skips; a crash leaves it claimed until `lease` ends."},
};

static const doc_line measure_docs[] = {
    {"jobs", "Jobs that arrived."},
    {"deliveries", "Times the handler ran a job (every copy counts)."},
    {"effects", "State changes that stand at the end (a repeated `set` changes nothing and is "
                "not one)."},
    {"duplicates", "Effects beyond the first per job, summed."},
    {"charged_twice", "Jobs with two effects or more."},
    {"lost_writes", "Jobs that should have taken effect and have none."},
    {"errors", "Jobs given up: the sender ran out of tries (dead-lettered, or failed to the "
               "user)."},
    {"error_rate", "`errors` divided by `jobs`."},
    {"completion_time", "From the first arrival to the last job's final outcome."},
    {"latency_p50", "Median time from a job's arrival to its success."},
    {"latency_p99", "99th percentile of the time from arrival to success."},
    {"monthly_cost", "vCPU and GB prices (and fixed prices) over the parts that are not "
                     "external."},
    {"events", "Simulation events processed: how much work the run was."},
    {"lost_events", "Two hops: jobs whose first effect stands and whose event never reached the "
                    "second handler."},
    {"ghost_events", "Two hops: events the second handler received for an effect that was "
                     "rolled back or never committed."},
    {"downstream_deliveries", "Two hops: runs of the second handler."},
    {"downstream_effects", "Two hops: effects at the second handler."},
    {"downstream_duplicates", "Two hops: second-handler effects beyond the first per job."},
    {"downstream_lost_writes", "Two hops: jobs whose event arrived and took no effect at the "
                               "second handler."},
    {"downstream_errors", "Two hops: jobs whose event the second broker gave up on."},
    {"dead_lettered", "With a dead-letter queue: messages the broker moved there when their "
                      "tries ran out."},
    {"dead_letter_time", "With a dead-letter queue: the median time from a dead-lettered "
                         "message's first delivery to the queue."},
};

static const doc_line *doc_find(const doc_line *t, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(t[i].name, name) == 0)
            return &t[i];
    return NULL;
}

static const char *doc_of(const doc_line *t, size_t n, const char *name)
{
    const doc_line *d = doc_find(t, n, name);
    return d ? d->line : "";
}

/* ------------------------------------------------------------ completeness */

static size_t missing_in(buf *out, const char *what, const char *const *names, size_t n,
                         const doc_line *t, size_t nt)
{
    size_t miss = 0;
    for (size_t i = 0; i < n; i++)
        if (!doc_find(t, nt, names[i])) {
            buf_printf(out, "%s '%s'\n", what, names[i]);
            miss++;
        }
    return miss;
}

/* The settings of a field table whose row (schema.h) has no help. */
static size_t missing_help(buf *out, const char *what, const field_def *f, size_t n)
{
    size_t miss = 0;
    for (size_t i = 0; i < n; i++)
        if (!f[i].help || !*f[i].help) {
            buf_printf(out, "%s '%s' (its row in sim-core/schema.h)\n", what, f[i].name);
            miss++;
        }
    return miss;
}

/* A traffic key's line: its row's help, or the table's for the keys the
 * loader reads by its own code. */
static const field_def *traffic_field(const char *key)
{
    size_t n;
    const field_def *t = fields_traffic(&n);
    return fields_find(t, n, key);
}

static const char *traffic_doc(const char *key)
{
    const field_def *f = traffic_field(key);
    return f ? f->help : doc_of(traffic_key_docs, N_OF(traffic_key_docs), key);
}

size_t help_missing(buf *out)
{
    size_t miss = 0, n;
    const char *names[64];
    const char *const *keys = board_top_keys(&n);
    miss += missing_in(out, "board key", keys, n, board_key_docs, N_OF(board_key_docs));
    keys = board_traffic_keys(&n);
    size_t n_own = 0;
    for (size_t i = 0; i < n && n_own < 64; i++)
        if (!traffic_field(keys[i]))
            names[n_own++] = keys[i];
    miss += missing_in(out, "traffic key", names, n_own, traffic_key_docs, N_OF(traffic_key_docs));
    const field_def *f = fields_traffic(&n);
    miss += missing_help(out, "traffic key", f, n);
    f = fields_part(&n);
    miss += missing_help(out, "part key", f, n);
    f = fields_link(&n);
    miss += missing_help(out, "link key", f, n);
    static const char *const part_own[] = {"id", "kind", "label", "at", "dead_letter"};
    miss +=
        missing_in(out, "part key", part_own, N_OF(part_own), part_key_docs, N_OF(part_key_docs));
    static const char *const link_own[] = {"from", "to", "protocol", "lose_reply_of"};
    miss +=
        missing_in(out, "link key", link_own, N_OF(link_own), link_key_docs, N_OF(link_key_docs));
    for (int k = 0; k < SIM_KIND_COUNT; k++)
        names[k] = sim_kind_name((sim_kind)k);
    miss += missing_in(out, "part kind", names, SIM_KIND_COUNT, kind_docs, N_OF(kind_docs));
    for (int p = 0; p < SIM_PROTO_COUNT; p++)
        names[p] = sim_protocol_name((sim_protocol)p);
    miss += missing_in(out, "protocol", names, SIM_PROTO_COUNT, protocol_docs, N_OF(protocol_docs));
    for (int i = 0; i < SIM_IDEM_COUNT; i++)
        names[i] = sim_idempotency_name((sim_idempotency)i);
    miss +=
        missing_in(out, "idempotency policy", names, SIM_IDEM_COUNT, idem_docs, N_OF(idem_docs));
    for (int m = 0; m < SIM_M_COUNT; m++)
        names[m] = sim_measure_name((sim_measure)m);
    miss += missing_in(out, "measure", names, SIM_M_COUNT, measure_docs, N_OF(measure_docs));
    return miss;
}

/* ------------------------------------------------------------ writing */

/* text with '|' escaped, for a Markdown table cell */
static void cell(buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '|')
            buf_putc(b, '\\');
        buf_putc(b, *s == '\n' ? ' ' : *s);
    }
}

/* What a field takes: its kind of value and range. */
static void field_value(buf *b, const field_def *f)
{
    switch (f->type) {
    case FT_INT:
        buf_printf(b, "whole number, %lld to %lld", (long long)f->min, (long long)f->max);
        break;
    case FT_NUMBER:
        buf_puts(b, "number, 0 or more");
        break;
    case FT_PROB:
        buf_puts(b, "share: 0 to 1, or 0% to 100%");
        break;
    case FT_DURATION:
        buf_puts(b, "duration above 0");
        break;
    case FT_BACKOFF:
        buf_puts(b, "duration above 0, or `{first, factor, max, jitter}` (jitter `none` or `full`)");
        break;
    case FT_TTL:
        buf_puts(b, "duration, `forever` or a retention name");
        break;
    case FT_WINDOW:
        buf_puts(b, "duration, a retention name, or `none`");
        break;
    case FT_MONEY:
        buf_puts(b, "USD per month, 0 or more");
        break;
    case FT_BOOL:
        buf_puts(b, "`true` or `false`");
        break;
    case FT_IDEM:
    case FT_DELIVERY:
    case FT_PUBLISH:
    case FT_MSGID: {
        const char *names[FIELDS_MAX_ENUM_NAMES], *what;
        size_t n = fields_enum_names(f->type, names, &what);
        for (size_t i = 0; i < n; i++)
            buf_printf(b, "%s`%s`", i == 0 ? "" : (i + 1 == n ? " or " : ", "), names[i]);
        break;
    }
    }
}

/* The default a catalog section gives a field and where it comes from. */
static void field_default(buf *b, const bp_catalog *cat, const char *section, const field_def *f,
                          const void *defaults)
{
    buf_puts(b, " | ");
    field_format(b, f, defaults);
    buf_printf(b, " (`%s.%s`) | ", section, f->name);
    const bp_catalog_value *v = catalog_find(cat, section, f->name);
    if (!v || v->n_sources == 0) {
        buf_puts(b, "chosen for the example");
        return;
    }
    const bp_source *s = &v->sources[0];
    static const char *const kinds[] = {"example", "documentation", "measurement", "compare"};
    buf_printf(b, "%s", kinds[s->kind]);
    if (s->text) {
        buf_puts(b, ": ");
        cell(b, s->text);
    }
}

static void table_head(buf *b, const bp_catalog *cat)
{
    buf_puts(b, cat ? "| key | what it sets | value | default (catalog) | source of the default |\n"
                      "|---|---|---|---|---|\n"
                    : "| key | what it sets | value |\n|---|---|---|\n");
}

static void field_row(buf *b, const field_def *f, const char *line, const bp_catalog *cat,
                      const char *section, const void *defaults)
{
    buf_printf(b, "| `%s` | ", f->name);
    cell(b, line);
    buf_puts(b, " | ");
    field_value(b, f);
    if (cat)
        field_default(b, cat, section, f, defaults);
    buf_puts(b, " |\n");
}

static void plain_row(buf *b, const char *name, const char *line, const char *value,
                      const bp_catalog *cat)
{
    buf_printf(b, "| `%s` | ", name);
    cell(b, line);
    buf_printf(b, " | %s |%s\n", value, cat ? " | |" : "");
}

static void part_kind(buf *b, int k, const bp_catalog *cat)
{
    const char *name = sim_kind_name((sim_kind)k);
    buf_printf(b, "### `%s`\n\n%s\n\n", name, doc_of(kind_docs, N_OF(kind_docs), name));
    size_t n, own = 0;
    const field_def *f = fields_part(&n);
    for (size_t i = 0; i < n; i++)
        own += (f[i].kinds & KIND_BIT(k)) != 0;
    if (own == 0 && k != SIM_KIND_BROKER) {
        buf_puts(b, "It takes only the keys every part takes.\n\n");
        return;
    }
    table_head(b, cat);
    for (size_t i = 0; i < n; i++)
        if (f[i].kinds & KIND_BIT(k))
            field_row(b, &f[i], f[i].help, cat, name, cat ? (const void *)&cat->kinds[k] : NULL);
    if (k == SIM_KIND_BROKER) { /* a board's own key, not in the catalog: board.c */
        buf_puts(b, "| `dead_letter` | ");
        cell(b, doc_of(part_key_docs, N_OF(part_key_docs), "dead_letter"));
        buf_printf(b, " | a dead-letter-queue part's id |%s\n",
                   cat ? " none | a board's own: it names a part of the board |" : "");
    }
    buf_putc(b, '\n');
}

static void part_common(buf *b)
{
    buf_puts(b, "Every part takes these keys; the rest depend on its kind:\n\n"
                "| key | what it sets | value |\n|---|---|---|\n");
    static const char *const common[][2] = {{"id", "`[a-z0-9-]+`, unique on the board"},
                                            {"kind", "a part kind"},
                                            {"label", "text"},
                                            {"at", "`[column, row]`, each 0 to 63"}};
    for (size_t i = 0; i < N_OF(common); i++)
        plain_row(b, common[i][0], doc_of(part_key_docs, N_OF(part_key_docs), common[i][0]),
                  common[i][1], NULL);
    buf_putc(b, '\n');
}

static void links(buf *b, const bp_catalog *cat)
{
    buf_puts(b, "## Links\n\n`links:` is a list; `{from: broker, to: processor, protocol: amqp, "
                "lose_reply: 0.2}` says the broker delivers to the processor over AMQP and one "
                "ack in five is lost.\n\n### Protocols\n\n| protocol | what it is for |\n"
                "|---|---|\n");
    for (int p = 0; p < SIM_PROTO_COUNT; p++) {
        const char *name = sim_protocol_name((sim_protocol)p);
        buf_printf(b, "| `%s` | ", name);
        cell(b, doc_of(protocol_docs, N_OF(protocol_docs), name));
        buf_puts(b, " |\n");
    }
    buf_puts(b, "\n### Link keys\n\n| key | what it sets | value |\n|---|---|---|\n");
    static const char *const fixed[][2] = {{"from", "a part id"},
                                           {"to", "a part id"},
                                           {"protocol", "a protocol"},
                                           {"lose_reply_of", "list of job numbers, 1 or more"}};
    for (size_t i = 0; i < N_OF(fixed); i++)
        plain_row(b, fixed[i][0], doc_of(link_key_docs, N_OF(link_key_docs), fixed[i][0]),
                  fixed[i][1], NULL);
    buf_putc(b, '\n');
    size_t n;
    const field_def *f = fields_link(&n);
    for (int p = 0; p < SIM_PROTO_COUNT; p++) {
        const char *name = sim_protocol_name((sim_protocol)p);
        buf_printf(b, "Settings of a link with `protocol: %s`:\n\n", name);
        table_head(b, cat);
        for (size_t i = 0; i < n; i++)
            field_row(b, &f[i], f[i].help, cat, name,
                      cat ? (const void *)&cat->protocols[p] : NULL);
        buf_putc(b, '\n');
    }
}

static void traffic(buf *b, const bp_catalog *cat)
{
    buf_puts(b, "## Traffic\n\n`traffic: {from: users, jobs: 1000, over: 10 s, op: charge, "
                "arrivals: poisson}`: each job has its own message ID, a business key and an "
                "operation. `from`, `jobs` and `over` are required; the rest come from the "
                "catalog's `traffic` section.\n\n| key | what it sets |");
    buf_puts(b, cat ? " default (catalog) |\n|---|---|---|\n" : "\n|---|---|\n");
    size_t n;
    const char *const *keys = board_traffic_keys(&n);
    for (size_t i = 0; i < n; i++) {
        buf_printf(b, "| `%s` | ", keys[i]);
        cell(b, traffic_doc(keys[i]));
        if (cat) {
            const bp_catalog_value *v = catalog_find(cat, "traffic", keys[i]);
            buf_printf(b, " | %s",
                       v                               ? v->text
                       : strcmp(keys[i], "noun") == 0 ? "from `op`: payment, or update for set"
                       : strcmp(keys[i], "verb") == 0 ? "from `op`: charged, or written for set"
                                                       : "required");
        }
        buf_puts(b, " |\n");
    }
    buf_putc(b, '\n');
}

static void measures(buf *b)
{
    buf_puts(b, "## Measures\n\nWhat `{{ BOARD.MEASURE }}`, goals, compares, charts and `sim`'s "
                "JSON report. Each is the mean over the replications; the `min`, `max` and "
                "`worst` filters give the spread.\n\n| measure | unit | what it counts |\n"
                "|---|---|---|\n");
    static const char *const units[] = {"count", "share of jobs", "seconds", "USD per month"};
    for (int m = 0; m < SIM_M_COUNT; m++) {
        const char *name = sim_measure_name((sim_measure)m);
        buf_printf(b, "| `%s` | %s | ", name, units[sim_measure_unit((sim_measure)m)]);
        cell(b, doc_of(measure_docs, N_OF(measure_docs), name));
        buf_puts(b, " |\n");
    }
    buf_putc(b, '\n');
}

static void directives(buf *b)
{
    buf_puts(b, "## Directives\n\nA directive stands alone in its paragraph of a page, but "
                "for those that say they go in a sentence (docs/pages.md tells the rest of a "
                "page).\n\n| directive | what it shows |\n|---|---|\n");
    for (size_t i = 0; i < render_directive_count(); i++) {
        const render_directive *d = render_directive_at(i);
        buf_printf(b, "| `%s` | ", d->syntax);
        cell(b, d->help);
        buf_puts(b, " |\n");
    }
    buf_putc(b, '\n');
}

static void board_keys(buf *b)
{
    buf_puts(b, "## A board file\n\nA board is one YAML file in `content/boards/`, listed in a "
                "page's `boards:`. Any part or link setting it leaves out comes from the "
                "catalog (`content/catalog.yaml`); unknown keys, kinds, protocols, part ids and "
                "units are errors.\n\n```yaml\nid: every-delivery\ntitle: Every delivery runs "
                "the effect\nreplications: 20\nparts:\n  - {id: users, kind: users}\n  - {id: "
                "broker, kind: message-broker}\n  - {id: processor, kind: consumer, idempotency: "
                "none}\n  - {id: provider, kind: payment-provider}\nlinks:\n  - {from: users, "
                "to: broker, protocol: amqp}\n  - {from: broker, to: processor, protocol: amqp, "
                "lose_reply: 0.2}\n  - {from: processor, to: provider, protocol: http2}\n"
                "traffic: {from: users, jobs: 1000, over: 10 s}\ngoals:\n  duplicates: {max: "
                "0}\n```\n\n| key | what it sets |\n|---|---|\n");
    size_t n;
    const char *const *keys = board_top_keys(&n);
    for (size_t i = 0; i < n; i++) {
        buf_printf(b, "| `%s` | ", keys[i]);
        cell(b, doc_of(board_key_docs, N_OF(board_key_docs), keys[i]));
        buf_puts(b, " |\n");
    }
    buf_puts(b, "\n### Values\n\n- Durations carry a unit: `us`, `ms`, `s`, `min`, `h` or `d` "
                "(`150 ms`, `5 min`, `24 h`).\n- Shares (probabilities) are `0.2` or `20%`.\n"
                "- Money is `3 USD` (per month).\n- A key retention (`key_ttl`, "
                "`dedup_window`) may also be `forever` or name a window of the catalog's "
                "`retention` section");
}

static void retention_names(buf *b, const bp_catalog *cat)
{
    if (!cat) {
        buf_puts(b, ".\n\n");
        return;
    }
    buf_puts(b, ":");
    const char *sep = " ";
    for (size_t i = 0; i < cat->n_values; i++)
        if (strcmp(cat->values[i].section, "retention") == 0) {
            buf_printf(b, "%s`%s` (%s)", sep, cat->values[i].field, cat->values[i].text);
            sep = ", ";
        }
    buf_puts(b, ".\n\n");
}

static void goals(buf *b)
{
    buf_puts(b, "## Goals and expect\n\n```yaml\ngoals:\n  duplicates: {max: 0}\n  "
                "completion_time: {max: 40 s}\n  error_rate: {max: 1%}\nexpect: fail\n```\n\n"
                "A goal names a measure and a `max`, a `min` or both, in the measure's unit "
                "(durations with a unit, shares as `0.01` or `1%`, money in USD). It passes "
                "only when the worst replication meets it. `expect: fail` says the page shows "
                "this board missing a goal; if every goal passes, the build fails (and "
                "`expect: pass` the other way round).\n\n");
}

static void policies(buf *b)
{
    buf_puts(b, "### Idempotency policies\n\n| `idempotency:` | what the handler does |\n"
                "|---|---|\n");
    for (int i = 0; i < SIM_IDEM_COUNT; i++) {
        const char *name = sim_idempotency_name((sim_idempotency)i);
        buf_printf(b, "| `%s` | ", name);
        cell(b, doc_of(idem_docs, N_OF(idem_docs), name));
        buf_puts(b, " |\n");
    }
    buf_putc(b, '\n');
}

static void parts(buf *b, const bp_catalog *cat)
{
    buf_puts(b, "## Part kinds\n\n");
    part_common(b);
    for (int k = 0; k < SIM_KIND_COUNT; k++)
        part_kind(b, k, cat);
    policies(b);
}

void help_reference(buf *out, const bp_catalog *cat)
{
    buf_puts(out, "# Boards: the reference\n\n<!-- Written by `make docs` (boardpress help "
                  "board) from the field rows of sim-core/schema.h, the simulator's names and "
                  "the catalog; edit a setting's row there, generator/help.c (the other keys) "
                  "or content/catalog.yaml, not this file. -->\n\n"
                  "Everything a board file can say, every measure a page can quote and every "
                  "directive. The same text is in the terminal: `boardpress help board`, "
                  "`boardpress help part consumer`, `boardpress help measure errors`, "
                  "`boardpress help directive compare`.\n\n");
    board_keys(out);
    retention_names(out, cat);
    parts(out, cat);
    links(out, cat);
    traffic(out, cat);
    goals(out);
    measures(out);
    directives(out);
}

/* ------------------------------------------------------------ the command */

/* "a, b or c" on stderr */
static void list_names(const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        fprintf(stderr, "%s%s", i == 0 ? "" : (i + 1 == n ? " or " : ", "), names[i]);
}

static int help_usage(const char *msg, const char *word, const char *const *names, size_t n)
{
    fprintf(stderr, "boardpress: error: %s '%s'", msg, word);
    const char *near = diag_suggest(word, names, n);
    if (near) {
        fprintf(stderr, "; did you mean '%s'?\n", near);
    } else {
        fputs(" (expected ", stderr);
        list_names(names, n);
        fputs(")\n", stderr);
    }
    fputs("usage: boardpress help [board | part KIND | measure NAME | directive NAME]\n", stderr);
    return 2;
}

/* The names a topic takes: part kinds, measures or directives (at most 64). */
static size_t topic_names(int t, const char **names)
{
    size_t n = 0;
    if (t == 1)
        for (; n < SIM_KIND_COUNT; n++)
            names[n] = sim_kind_name((sim_kind)n);
    else if (t == 2)
        for (; n < SIM_M_COUNT && n < 64; n++)
            names[n] = sim_measure_name((sim_measure)n);
    else
        for (; n < render_directive_count() && n < 64; n++)
            names[n] = render_directive_at(n)->name;
    return n;
}

static int help_part(buf *b, const char *kind, const bp_catalog *cat)
{
    int k = sim_kind_from_name(kind);
    if (k < 0) {
        const char *names[64];
        return help_usage("unknown part kind", kind, names, topic_names(1, names));
    }
    part_common(b);
    part_kind(b, k, cat);
    if (k == SIM_KIND_CONSUMER || k == SIM_KIND_SERVICE)
        policies(b);
    return 0;
}

static int help_measure(buf *b, const char *name)
{
    int m = sim_measure_from_name(name);
    if (m < 0) {
        const char *names[64];
        return help_usage("unknown measure", name, names, topic_names(2, names));
    }
    static const char *const units[] = {"a count", "a share of the jobs", "seconds",
                                        "USD per month"};
    buf_printf(b, "%s (%s): %s\n", name, units[sim_measure_unit((sim_measure)m)],
               doc_of(measure_docs, N_OF(measure_docs), name));
    buf_printf(b, "On a page: {{ BOARD.%s }}; as a goal: goals: {%s: {max: ...}}.\n", name, name);
    return 0;
}

static int help_directive(buf *b, const char *name)
{
    for (size_t i = 0; i < render_directive_count(); i++) {
        const render_directive *d = render_directive_at(i);
        if (strcmp(d->name, name) == 0) {
            buf_printf(b, "%s\n  %s\n", d->syntax, d->help);
            return 0;
        }
    }
    const char *names[64];
    return help_usage("unknown directive", name, names, topic_names(3, names));
}

int help_main(int argc, char **argv)
{
    const char *catalog = "content/catalog.yaml", *topic = NULL, *name = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--catalog") == 0 && i + 1 < argc) {
            catalog = argv[++i];
        } else if (argv[i][0] == '-') {
            fprintf(stderr,
                    "boardpress: error: unknown option %s\nusage: boardpress help "
                    "[board | part KIND | measure NAME | directive NAME] "
                    "[--catalog FILE]\n",
                    argv[i]);
            return 2;
        } else if (!topic) {
            topic = argv[i];
        } else if (!name) {
            name = argv[i];
        } else {
            fprintf(stderr,
                    "boardpress: error: help takes a topic and a name, found another: "
                    "%s\n",
                    argv[i]);
            return 2;
        }
    }
    static const char *const topics[] = {"board", "part", "measure", "directive"};
    if (!topic)
        topic = "board";
    int t = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(topic, topics[i]) == 0)
            t = i;
    if (t < 0)
        return help_usage("unknown help topic", topic, topics, 4);
    if (t > 0 && !name) {
        const char *names[64];
        size_t n = topic_names(t, names);
        fprintf(stderr, "boardpress: error: help %s needs a name: boardpress help %s %s (", topic,
                topic, names[t == 1 ? SIM_KIND_CONSUMER : t == 2 ? SIM_M_DUPLICATES : 1]);
        list_names(names, n);
        fputs(")\n", stderr);
        return 2;
    }
    if (t == 0 && name) {
        fprintf(stderr, "boardpress: error: help board takes no name, found %s\n", name);
        return 2;
    }
    /* The catalog gives defaults; without one (outside a site) they are left out. */
    bp_catalog *cat = NULL;
    if (t <= 1) {
        FILE *f = fopen(catalog, "r");
        if (f) {
            fclose(f);
            diag d;
            diag_init(&d, stderr);
            cat = catalog_load(catalog, &d);
            int rc = diag_exit_status(&d);
            diag_free(&d);
            if (!cat)
                return rc ? rc : 1;
        }
    }
    buf b;
    buf_init(&b);
    int rc = t == 0   ? (help_reference(&b, cat), 0)
             : t == 1 ? help_part(&b, name, cat)
             : t == 2 ? help_measure(&b, name)
                      : help_directive(&b, name);
    if (rc == 0)
        fwrite(b.data, 1, b.len, stdout);
    buf_free(&b);
    catalog_free(cat);
    if (rc == 0 && fflush(stdout) != 0)
        rc = 3;
    return rc;
}
