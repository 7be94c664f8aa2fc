/* draw_facts.c — what a board diagram says about each part's and link's
 * settings, in words: sizes, tries and waits, crashes, failures, key
 * retention, lost messages. On a live board (draw_board_live) the value of
 * each setting the reader changes is marked for the page to rewrite, and
 * shown even where a plain diagram leaves it out. */
#include "draw/draw_internal.h"
#include "base/fmt.h"
#include "load/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The setting a path names among a live board's, or NULL. */
static const draw_live *S_live(const dlives *lv, const char *path)
{
    for (size_t i = 0; lv && i < lv->n; i++)
        if (strcmp(lv->v[i].set, path) == 0)
            return &lv->v[i];
    return NULL;
}

static const draw_live *S_live_part(const dlives *lv, const bp_board *b, size_t i,
                                    const char *field)
{
    if (!lv || !lv->n)
        return NULL;
    char path[192];
    snprintf(path, sizeof path, "parts.%s.%s", b->parts[i].id, field);
    return S_live(lv, path);
}

static const draw_live *S_live_link(const dlives *lv, const bp_board *b, size_t i,
                                    const char *field)
{
    if (!lv || !lv->n)
        return NULL;
    const sim_link *l = &b->sim.links[i];
    char path[256];
    snprintf(path, sizeof path, "links.%s.%s.%s", b->parts[l->from].id, b->parts[l->to].id, field);
    return S_live(lv, path);
}

/* before + value + after into dst, the value marked as the live setting's
 * when there is one (lv), else value is the plain diagram's. */
void draw_factor_words(char *dst, size_t n, const char *label)
{
    if (strncmp(label, "×", strlen("×")) == 0) /* a slider's label: "×1.5" */
        label += strlen("×");
    char *end;
    double f = strtod(label, &end);
    if (end != label && *end == '\0' && f == 1)
        snprintf(dst, n, "the same wait each try");
    else
        snprintf(dst, n, "then ×%s each try", label);
}

bool draw_factor_setting(const char *set)
{
    const char *tail = ".redelivery_after.factor";
    size_t n = strlen(set), t = strlen(tail);
    return strncmp(set, "parts.", 6) == 0 && n > t && strcmp(set + n - t, tail) == 0;
}

static void S_setting(char *dst, size_t n, dmarks *mk, const char *before, const char *value,
                      const char *after, const draw_live *lv)
{
    if (lv)
        value = lv->text;
    snprintf(dst, n, "%s%s%s", before, value, after);
    memset(mk, 0, sizeof *mk);
    if (lv && strlen(before) + strlen(value) < n)
        mk->span[mk->n++] = (dspan){"data-set", lv->set, strlen(before), strlen(value)};
}

/* True when some handler uses this provider's idempotency keys. */
static bool S_provider_keys(const bp_board *b, size_t prov)
{
    for (size_t i = 0; i < b->sim.n_links; i++) {
        const sim_link *l = &b->sim.links[i];
        if ((size_t)l->to == prov && dpart_handles(b->sim.parts[l->from].kind) &&
            b->sim.parts[l->from].idempotency == SIM_IDEM_PROVIDER_KEY)
            return true;
    }
    return false;
}

/* True when part i publishes to a message broker (users, or a handler
 * that passes its event on to a second hop); with lossy, only over a link
 * that loses publishes or confirms (else a publisher never retries). */
static bool S_publishes(const bp_board *b, size_t i, bool lossy)
{
    for (size_t k = 0; k < b->sim.n_links; k++) {
        const sim_link *l = &b->sim.links[k];
        if ((size_t)l->from != i || b->sim.parts[l->to].kind != SIM_KIND_BROKER)
            continue;
        if (!lossy || l->lose_request > 0 || l->lose_reply > 0 || l->n_lose_reply_of > 0)
            return true;
    }
    return false;
}

/* True when the board file itself set part i's field (bp_board.part_set). */
static bool S_board_set(const bp_board *b, size_t i, const char *field)
{
    size_t n;
    const field_def *table = fields_part(&n);
    const field_def *f = fields_find(table, n, field);
    if (!b->part_set || !f)
        return false;
    size_t bit = (size_t)(f - table);
    return (b->part_set[i].bits >> bit) & 1u;
}

void dpart_facts(const bp_board *b, size_t i, char facts[][128], dcolor *colors, dmarks *marks,
                 const dlives *lv, size_t *n)
{
    const sim_part *p = &b->sim.parts[i];
    char a[32], c[32];
    const draw_live *L;
    *n = 0;
    memset(marks, 0, 8 * sizeof *marks);
    if (p->external) {
        snprintf(facts[*n], 128, "external");
        colors[(*n)++] = DC_MUTED;
    } else if (p->vcpu > 0 || p->gb > 0) {
        fmt_label_number(a, sizeof a, p->vcpu);
        fmt_label_number(c, sizeof c, p->gb);
        if (p->vcpu > 0 && p->gb > 0)
            snprintf(facts[*n], 128, "%s vCPU · %s GB", a, c);
        else if (p->vcpu > 0)
            snprintf(facts[*n], 128, "%s vCPU", a);
        else
            snprintf(facts[*n], 128, "%s GB", c);
        colors[(*n)++] = DC_MUTED;
    }
    /* Sender settings a board chose itself (not the catalog's defaults). */
    L = S_live_part(lv, b, i, "tries");
    if ((p->kind == SIM_KIND_BROKER || p->kind == SIM_KIND_USERS) &&
        (S_board_set(b, i, "tries") || L)) {
        snprintf(a, sizeof a, "%d %s", p->tries, p->tries == 1 ? "try" : "tries");
        S_setting(facts[*n], 128, &marks[*n], "", a, "", L);
        colors[(*n)++] = DC_MUTED;
    }
    /* a back-off in the words the pages use (fields_backoff_text): "redelivers
     * after 1 s", "then ×2 each try", "up to 1 min", "full jitter" */
    L = S_live_part(lv, b, i, "redelivery_after");
    if (!L)
        L = S_live_part(lv, b, i, "redelivery_after.first");
    if (p->kind == SIM_KIND_BROKER && (S_board_set(b, i, "redelivery_after") || L)) {
        fmt_label_duration(a, sizeof a, p->redelivery_after_us);
        S_setting(facts[*n], 128, &marks[*n], "redelivers after ", a, "", L);
        colors[(*n)++] = DC_MUTED;
    }
    L = S_live_part(lv, b, i, "redelivery_after.factor");
    if (p->kind == SIM_KIND_BROKER && (p->backoff_factor > 1 || L)) {
        char words[64];
        fmt_label_number(a, sizeof a, p->backoff_factor > 1 ? p->backoff_factor : 1);
        draw_factor_words(words, sizeof words, L ? L->text : a);
        S_setting(facts[*n], 128, &marks[*n], "", words, "", L ? &(draw_live){L->set, words} : NULL);
        colors[(*n)++] = DC_MUTED;
    }
    /* the cap a line of its own (one line with the factor wraps on a phone) */
    L = S_live_part(lv, b, i, "redelivery_after.max");
    if (p->kind == SIM_KIND_BROKER && ((p->backoff_factor > 1 && p->backoff_max_us > 0) || L)) {
        fmt_label_duration(a, sizeof a, p->backoff_max_us);
        S_setting(facts[*n], 128, &marks[*n], "up to ", a, "", L);
        colors[(*n)++] = DC_MUTED;
    }
    L = S_live_part(lv, b, i, "redelivery_after.jitter");
    if (p->kind == SIM_KIND_BROKER && (p->backoff_jitter || L)) {
        S_setting(facts[*n], 128, &marks[*n], "", p->backoff_jitter ? "full" : "no", " jitter", L);
        colors[(*n)++] = DC_MUTED;
    }
    L = S_live_part(lv, b, i, "timeout");
    if (p->kind == SIM_KIND_USERS && (S_board_set(b, i, "timeout") || L)) {
        fmt_label_duration(a, sizeof a, p->timeout_us);
        S_setting(facts[*n], 128, &marks[*n], "waits ", a, " for a response", L);
        colors[(*n)++] = DC_MUTED;
    }
    if (p->kind == SIM_KIND_BROKER && p->delivery == SIM_DELIVERY_AT_MOST_ONCE) {
        snprintf(facts[*n], 128, "at-most-once delivery");
        colors[(*n)++] = DC_MUTED;
    }
    L = S_live_part(lv, b, i, "crash_after_effect");
    if (dpart_handles(p->kind) && (p->crash_after_effect > 0 || L)) {
        fmt_label_percent(a, sizeof a, p->crash_after_effect);
        /* with a commit of its own to crash after, the prose's "before the commit" */
        bool commits = p->crash_after_commit > 0 || S_publishes(b, i, false);
        S_setting(facts[*n], 128, &marks[*n],
                  commits ? "crashes before the commit: " : "crashes after the effect: ", a, "", L);
        colors[(*n)++] = DC_FAIL;
    }
    L = S_live_part(lv, b, i, "fail");
    if ((p->kind == SIM_KIND_PROVIDER || p->kind == SIM_KIND_CONSUMER) && (p->fail > 0 || L)) {
        fmt_label_percent(a, sizeof a, p->fail);
        S_setting(facts[*n], 128, &marks[*n], "fails ", a,
                  p->kind == SIM_KIND_PROVIDER ? " of calls" : " of deliveries", L);
        colors[(*n)++] = DC_FAIL;
    }
    /* the traffic's poison share, on the part it starts from */
    L = lv && lv->n ? S_live(lv, "traffic.poison") : NULL;
    if ((int)i == b->sim.traffic.from && (b->sim.traffic.poison > 0 || L) && *n < 8) {
        char words[64];
        fmt_label_percent(a, sizeof a, b->sim.traffic.poison);
        snprintf(words, sizeof words, " of %s always fail", board_noun(b, true));
        S_setting(facts[*n], 128, &marks[*n], "", a, words, L);
        colors[(*n)++] = DC_FAIL;
    }
    /* when a dead-letter queue gets a message (its link from the broker,
     * dashed, has no words of its own: draw_board.c S_drawn) */
    if (p->kind == SIM_KIND_DLQ && *n < 8) {
        snprintf(facts[*n], 128, "after the last try");
        colors[(*n)++] = DC_MUTED;
    }
    /* the second release's settings: each where it acts */
    L = S_live_part(lv, b, i, "crash_after_commit");
    if (dpart_handles(p->kind) && (p->crash_after_commit > 0 || L) && *n < 8) {
        fmt_label_percent(a, sizeof a, p->crash_after_commit);
        S_setting(facts[*n], 128, &marks[*n], "crashes after the commit: ", a, "", L);
        colors[(*n)++] = DC_FAIL;
    }
    L = S_live_part(lv, b, i, "lease");
    if (dpart_handles(p->kind) && p->idempotency == SIM_IDEM_KEY_CLAIMED_FIRST && *n < 8) {
        fmt_label_duration(a, sizeof a, p->lease_us);
        S_setting(facts[*n], 128, &marks[*n], "claim held ", a, "", L);
        colors[(*n)++] = DC_MUTED;
    }
    if (dpart_handles(p->kind) && S_publishes(b, i, false) && *n < 8) {
        L = S_live_part(lv, b, i, "relay_every");
        if (p->publish == SIM_PUBLISH_OUTBOX) {
            fmt_label_duration(a, sizeof a, p->relay_every_us);
            S_setting(facts[*n], 128, &marks[*n], "outbox, relayed every ", a, "", L);
        } else {
            snprintf(facts[*n], 128, "publishes %s the commit",
                     p->publish == SIM_PUBLISH_BEFORE_COMMIT ? "before" : "after");
        }
        colors[(*n)++] = DC_MUTED;
    }
    if (p->kind == SIM_KIND_USERS && p->tries > 1 && S_publishes(b, i, true) && *n < 8) {
        snprintf(facts[*n], 128, "%s",
                 p->message_id == SIM_MESSAGE_ID_PRODUCER ? "one ID per message, every try"
                                                          : "a new ID every try");
        colors[(*n)++] = DC_MUTED;
    }
    L = S_live_part(lv, b, i, "dedup_window");
    if (p->kind == SIM_KIND_BROKER && (p->dedup_window_us > 0 || L) && *n < 8) {
        fmt_label_duration(a, sizeof a, p->dedup_window_us);
        buf before; /* "drops repeated IDs for 5 min", "drops repeated IDs forever" */
        buf_init(&before);
        fmt_words_before(&before, "drops repeated IDs for ", L ? 0 : p->dedup_window_us);
        S_setting(facts[*n], 128, &marks[*n], before.data, a, "", L);
        buf_free(&before);
        colors[(*n)++] = DC_MUTED;
    }
    bool keyed = (dpart_handles(p->kind) && p->idempotency != SIM_IDEM_NONE &&
                  p->idempotency != SIM_IDEM_PROVIDER_KEY) ||
                 (p->kind == SIM_KIND_PROVIDER && S_provider_keys(b, i));
    L = S_live_part(lv, b, i, "key_ttl");
    if (keyed && (p->key_ttl_us != SIM_FOREVER || L)) {
        fmt_label_duration(a, sizeof a, p->key_ttl_us);
        bool keys = p->kind == SIM_KIND_PROVIDER ||
                    (p->idempotency == SIM_IDEM_BUSINESS_KEY && dpart_handles(p->kind));
        S_setting(facts[*n], 128, &marks[*n], keys ? "keys kept " : "IDs kept ", a, "", L);
        colors[(*n)++] = DC_MUTED;
    }
}

/* The fault lines of link i in words: "20% of acks lost", "ack of payment 3 lost",
 * "transactional". Returns how many (at most 4). */
size_t dlink_faults(const bp_board *b, size_t i, char out[][160], dmarks *marks, const dlives *lv)
{
    const sim_link *l = &b->sim.links[i];
    size_t n = 0;
    char pct[48], words[64];
    memset(marks, 0, 4 * sizeof *marks);
    const draw_live *L = S_live_link(lv, b, i, "lose_request");
    if (l->lose_request > 0 || L) {
        fmt_label_percent(pct, sizeof pct, l->lose_request);
        snprintf(words, sizeof words, " of %s lost", drequest_word(l->protocol, true));
        S_setting(out[n], 160, &marks[n], "", pct, words, L);
        n++;
    }
    L = S_live_link(lv, b, i, "lose_reply");
    if (l->lose_reply > 0 || L) {
        fmt_label_percent(pct, sizeof pct, l->lose_reply);
        snprintf(words, sizeof words, " of %s lost", draw_link_reply_word(b, i, true));
        S_setting(out[n], 160, &marks[n], "", pct, words, L);
        n++;
    }
    if (l->n_lose_reply_of > 0) {
        buf t;
        buf_init(&t);
        bool many = l->n_lose_reply_of > 1;
        buf_printf(&t, "%s of %s ", draw_link_reply_word(b, i, many), board_noun(b, many));
        size_t shown = l->n_lose_reply_of > 6 ? 5 : l->n_lose_reply_of;
        for (size_t k = 0; k < shown; k++) {
            if (k > 0)
                buf_puts(&t, k + 1 == l->n_lose_reply_of ? " and " : ", ");
            buf_printf(&t, "%lld", (long long)l->lose_reply_of[k]);
        }
        if (shown < l->n_lose_reply_of)
            buf_printf(&t, " and %zu more", l->n_lose_reply_of - shown);
        buf_puts(&t, " lost");
        snprintf(out[n++], 160, "%s", t.data);
        buf_free(&t);
    }
    if (l->transactional)
        snprintf(out[n++], 160, "transactional");
    return n;
}
