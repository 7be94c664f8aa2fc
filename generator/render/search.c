/* search.c — the site's search index, search-index.js at its top: every
 * page's sections (search_text.c cuts them) with their words and measured
 * numbers, for static/bp-search.js to search in the reader's browser with
 * nothing fetched (a <script> loads it, so it works from file:// too).
 *
 * The format (docs/site.md "Search"), one assignment of a JSON object:
 *
 *   window.bpSearchIndex={"v":1,
 *     "pages":[URL,TITLE,...],            URL relative to the site's top
 *     "sections":[PAGE,ID,HEADING,...],   PAGE an index into pages/2; ID ""
 *                                         and HEADING "": the page's top
 *     "terms":"T|T|...",                  every term once, sorted bytewise
 *     "postings":"P|P|..."};              one per term, in the same order
 *
 * A term is a word, a number ("1000.5") or a number and the word after it
 * ("5 min", "99.9 %"). Its postings are the sections it occurs in, as
 * base-36 differences from the section before (the first from -1), each
 * followed by ":W" when its weight W is not 1; items are parted by ','.
 * Weights: 1 for each time in the text, HEADING_WEIGHT in the section's
 * heading, TITLE_WEIGHT in the page's title (on its first section). */
#include "render/render_internal.h"

#include <stdlib.h>
#include <string.h>

#define HEADING_WEIGHT 4u
#define TITLE_WEIGHT 8u

/* ------------------------------------------------------------ sets of terms */

/* Where a term's bytes are in its set's arena; every entry begins with it. */
typedef struct {
    uint32_t at, len;
} term_key;

/* Terms, each once, with an entry of size bytes (a term_key first): an
 * open-addressing table on hash64, grown at half full. */
typedef struct {
    buf arena;
    char *e;
    size_t size, n, cap_e;
    uint32_t *slot; /* index + 1 into e, 0: free */
    size_t n_slots;
} termset;

static const term_key *key_at(const termset *t, size_t i)
{
    return (const term_key *)(t->e + i * t->size);
}

/* The entry of term w (len bytes); a new one, zero past its key, when
 * *added. It moves when the next term is added. */
static void *termset_get(termset *t, const char *w, size_t len, bool *added)
{
    if ((t->n + 1) * 2 > t->n_slots) {
        size_t n = t->n_slots ? t->n_slots * 2 : 256;
        uint32_t *slot = xcalloc(n, sizeof *slot);
        for (size_t i = 0; i < t->n; i++) {
            const term_key *e = key_at(t, i);
            size_t k = (size_t)hash64(t->arena.data + e->at, e->len, 0) & (n - 1);
            while (slot[k])
                k = (k + 1) & (n - 1);
            slot[k] = (uint32_t)i + 1;
        }
        free(t->slot);
        t->slot = slot;
        t->n_slots = n;
    }
    size_t k = (size_t)hash64(w, len, 0) & (t->n_slots - 1);
    *added = false;
    while (t->slot[k]) {
        const term_key *e = key_at(t, t->slot[k] - 1);
        if (e->len == len && !memcmp(t->arena.data + e->at, w, len))
            return t->e + (t->slot[k] - 1) * t->size;
        k = (k + 1) & (t->n_slots - 1);
    }
    t->e = xgrow(t->e, t->size, &t->cap_e, t->n + 1);
    char *e = t->e + t->n * t->size;
    memset(e, 0, t->size);
    *(term_key *)e = (term_key){(uint32_t)t->arena.len, (uint32_t)len};
    buf_put(&t->arena, w, len);
    t->slot[k] = (uint32_t)++t->n;
    *added = true;
    return e;
}

static void termset_free(termset *t)
{
    buf_free(&t->arena);
    free(t->e);
    free(t->slot);
}

/* ------------------------------------------------------------ one page's terms */

/* The terms of the page being tokenised, each with its postings (a list
 * through one array). A page's job makes it and keeps only what it packs
 * (page_pack). */
typedef struct {
    uint32_t section, weight, next; /* next: index + 1 into the postings, 0: last */
} posting;

typedef struct {
    term_key key;
    uint32_t head, tail; /* index + 1 of its first and last posting */
} entry;

typedef struct {
    termset terms; /* of entry */
    posting *p;
    size_t n_p, cap_p;
    uint32_t section; /* the section whose tokens come now */
    uint32_t weight;  /* what each of them counts */
} termtab;

static void tab_add(void *ctx, const char *w, size_t len)
{
    termtab *t = ctx;
    bool added;
    entry *e = termset_get(&t->terms, w, len, &added);
    if (e->tail && t->p[e->tail - 1].section == t->section) {
        t->p[e->tail - 1].weight += t->weight;
        return;
    }
    t->p = xgrow(t->p, sizeof *t->p, &t->cap_p, t->n_p + 1);
    t->p[t->n_p++] = (posting){t->section, t->weight, 0};
    if (e->tail)
        t->p[e->tail - 1].next = (uint32_t)t->n_p;
    else
        e->head = (uint32_t)t->n_p;
    e->tail = (uint32_t)t->n_p;
}

static void put_base36(buf *b, uint32_t v)
{
    char d[8];
    size_t n = 0;
    do {
        d[n++] = "0123456789abcdefghijklmnopqrstuvwxyz"[v % 36];
        v /= 36;
    } while (v);
    while (n)
        buf_putc(b, d[--n]);
}

static void put_varint(buf *b, uint32_t v)
{
    while (v >= 0x80) {
        buf_putc(b, (char)(0x80 | (v & 0x7f)));
        v >>= 7;
    }
    buf_putc(b, (char)v);
}

static uint32_t get_varint(const char **s)
{
    const unsigned char *u = (const unsigned char *)*s;
    uint32_t v = 0;
    for (unsigned shift = 0;; shift += 7) {
        v |= (uint32_t)(*u & 0x7f) << shift;
        if (!(*u++ & 0x80))
            break;
    }
    *s = (const char *)u;
    return v;
}

/* A page's terms packed as the index needs them, in pi->terms: for each
 * term its bytes and a NUL, its first section (a varint, numbered in the
 * page), that posting's weight, its last section, then the postings after
 * the first as the index writes them (",DIFF[:W]...", their differences do
 * not depend on the sections of the pages before) and a NUL. */
static void page_pack(const termtab *t, page_info *pi)
{
    buf b;
    buf_init(&b);
    for (size_t i = 0; i < t->terms.n; i++) {
        const entry *e = (const entry *)key_at(&t->terms, i);
        const posting *first = &t->p[e->head - 1];
        buf_put(&b, t->terms.arena.data + e->key.at, e->key.len);
        buf_putc(&b, '\0');
        put_varint(&b, first->section);
        put_varint(&b, first->weight);
        put_varint(&b, t->p[e->tail - 1].section);
        for (const posting *p = first; p->next;) {
            const posting *q = &t->p[p->next - 1];
            buf_putc(&b, ',');
            put_base36(&b, q->section - p->section);
            if (q->weight != 1) {
                buf_putc(&b, ':');
                put_base36(&b, q->weight);
            }
            p = q;
        }
        buf_putc(&b, '\0');
    }
    pi->terms_len = b.len;
    pi->terms = b.len ? xstrndup(b.data, b.len) : NULL; /* no spare room kept */
    buf_free(&b);
}

void search_page_terms(page_info *pi, const char *title)
{
    termtab t;
    memset(&t, 0, sizeof t);
    t.terms.size = sizeof(entry);
    for (size_t k = 0; k < pi->n_sections; k++) {
        page_section *s = &pi->sections[k];
        t.section = (uint32_t)k;
        if (k == 0) {
            t.weight = TITLE_WEIGHT;
            search_tokens(title, strlen(title), tab_add, &t);
        }
        t.weight = HEADING_WEIGHT;
        if (s->heading)
            search_tokens(s->heading, strlen(s->heading), tab_add, &t);
        t.weight = 1;
        if (s->text)
            search_tokens(s->text, strlen(s->text), tab_add, &t);
        free(s->text);
        s->text = NULL;
    }
    free(pi->terms);
    page_pack(&t, pi);
    termset_free(&t.terms);
    free(t.p);
}

/* ------------------------------------------------------------ the site's index */

/* A term of the site with its postings written so far: the pages' packed
 * terms are merged into a termset of them in the site's order. */
typedef struct {
    term_key key;
    uint32_t last; /* the last section written, UINT32_MAX: none */
    buf post;
} gterm;

/* Page pi's packed terms into t, its sections numbered from base; they
 * are freed once merged. */
static void merge_page(termset *t, page_info *pi, uint32_t base)
{
    const char *s = pi->terms, *end = pi->terms + pi->terms_len;
    while (s < end) {
        size_t len = strlen(s);
        bool added;
        gterm *e = termset_get(t, s, len, &added);
        if (added)
            e->last = UINT32_MAX;
        s += len + 1;
        uint32_t first = base + get_varint(&s);
        uint32_t weight = get_varint(&s);
        uint32_t last = base + get_varint(&s);
        if (e->post.len)
            buf_putc(&e->post, ',');
        put_base36(&e->post, first - e->last); /* from -1 for the first */
        if (weight != 1) {
            buf_putc(&e->post, ':');
            put_base36(&e->post, weight);
        }
        size_t rest = strlen(s);
        buf_put(&e->post, s, rest);
        s += rest + 1;
        e->last = last;
    }
    free(pi->terms);
    pi->terms = NULL;
    pi->terms_len = 0;
}

typedef struct {
    const char *term;
    size_t len, i;
} sorted_term;

static int by_term(const void *a, const void *b)
{
    const sorted_term *x = a, *y = b;
    int c = memcmp(x->term, y->term, x->len < y->len ? x->len : y->len);
    return c ? c : (x->len > y->len) - (x->len < y->len);
}

static void put_str(buf *b, const char *s)
{
    buf_putc(b, '"');
    buf_json_str(b, s, strlen(s));
    buf_putc(b, '"');
}

void search_index_js(buf *out, const search_page *pages, size_t n_pages)
{
    termset t;
    memset(&t, 0, sizeof t);
    t.size = sizeof(gterm);
    buf_puts(out, "/* boardpress search index, written by boardpress build "
                  "(docs/site.md, Search) */\nwindow.bpSearchIndex={\"v\":1,\"pages\":[");
    for (size_t i = 0; i < n_pages; i++) {
        if (i)
            buf_putc(out, ',');
        put_str(out, pages[i].url);
        buf_putc(out, ',');
        put_str(out, pages[i].title);
    }
    buf_puts(out, "],\"sections\":[");
    uint32_t sec = 0;
    for (size_t i = 0; i < n_pages; i++) {
        page_info *pi = pages[i].info;
        for (size_t k = 0; k < pi->n_sections; k++) {
            const page_section *s = &pi->sections[k];
            if (sec + k)
                buf_putc(out, ',');
            buf_printf(out, "%zu,", i);
            put_str(out, s->id);
            buf_putc(out, ',');
            put_str(out, s->heading ? s->heading : "");
        }
        merge_page(&t, pi, sec);
        sec += (uint32_t)pi->n_sections;
    }
    sorted_term *order = xcalloc(t.n + 1, sizeof *order);
    for (size_t i = 0; i < t.n; i++)
        order[i] = (sorted_term){t.arena.data + key_at(&t, i)->at, key_at(&t, i)->len, i};
    qsort(order, t.n, sizeof *order, by_term);
    buf_puts(out, "],\"terms\":\"");
    for (size_t i = 0; i < t.n; i++) {
        if (i)
            buf_putc(out, '|');
        buf_json_str(out, order[i].term, order[i].len);
    }
    buf_puts(out, "\",\"postings\":\"");
    for (size_t i = 0; i < t.n; i++) {
        if (i)
            buf_putc(out, '|');
        gterm *e = (gterm *)(t.e + order[i].i * t.size);
        buf_put(out, e->post.data, e->post.len);
        buf_free(&e->post);
    }
    buf_puts(out, "\"};\n");
    free(order);
    termset_free(&t);
}

void search_write(site *s, page_info *info, const render_sink *sink, void *out)
{
    if (!sink)
        return;
    search_page *pages = xcalloc(s->n_pages + 1, sizeof *pages);
    char **urls = xcalloc(s->n_pages + 1, sizeof *urls);
    size_t n = 0;
    /* the site's order (home first, then the nav's), so the index reads as
     * the contents do */
    size_t *at = xcalloc(s->n_pages + 2, sizeof *at); /* position -> page index + 1 */
    for (size_t k = 0; k < s->n_pages; k++) {
        const bp_page *p = s->pages[k];
        size_t pos = p->is_home ? 0 : p->nav_pos + 1;
        if (pos <= s->n_pages &&
            (p->is_home || (p->nav_pos < s->n_order && s->order[p->nav_pos] == p)))
            at[pos] = k + 1;
    }
    for (size_t pos = 0; pos <= s->n_pages; pos++) {
        if (!at[pos] || !info[at[pos] - 1].rendered)
            continue;
        const bp_page *p = s->pages[at[pos] - 1];
        page_info *pi = &info[at[pos] - 1];
        urls[n] = p->is_home ? xstrdup("") : xasprintf("%s/", p->slug);
        pages[n] = (search_page){urls[n], p->title, pi};
        n++;
    }
    free(at);
    buf js;
    buf_init(&js);
    search_index_js(&js, pages, n);
    sink->write(out, SEARCH_INDEX_FILE, js.data, js.len, &s->d);
    buf_free(&js);
    for (size_t i = 0; i < n; i++)
        free(urls[i]);
    free(urls);
    free(pages);
}
