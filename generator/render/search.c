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

typedef struct {
    uint32_t section, weight;
} posting;

typedef struct {
    char *term;
    size_t len; /* strlen(term): compared on every probe */
    posting *p;
    size_t n, cap;
} entry;

/* The terms seen so far: open addressing on hash64, grown at half full. */
typedef struct {
    entry *e;
    size_t *slot; /* index + 1 into e, 0: free */
    size_t n, cap_e, n_slots;
    uint32_t section; /* the section whose tokens come now */
    uint32_t weight;  /* what each of them counts */
} termtab;

static void tab_grow(termtab *t)
{
    size_t n = t->n_slots ? t->n_slots * 2 : 1024;
    size_t *slot = xcalloc(n, sizeof *slot);
    for (size_t i = 0; i < t->n; i++) {
        size_t k = (size_t)hash64(t->e[i].term, t->e[i].len, 0) & (n - 1);
        while (slot[k])
            k = (k + 1) & (n - 1);
        slot[k] = i + 1;
    }
    free(t->slot);
    t->slot = slot;
    t->n_slots = n;
}

static void tab_add(void *ctx, const char *w, size_t len)
{
    termtab *t = ctx;
    if ((t->n + 1) * 2 > t->n_slots)
        tab_grow(t);
    size_t k = (size_t)hash64(w, len, 0) & (t->n_slots - 1);
    while (t->slot[k]) {
        entry *e = &t->e[t->slot[k] - 1];
        if (e->len == len && !memcmp(e->term, w, len))
            break;
        k = (k + 1) & (t->n_slots - 1);
    }
    if (!t->slot[k]) {
        t->e = xgrow(t->e, sizeof *t->e, &t->cap_e, t->n + 1);
        t->e[t->n] = (entry){xstrndup(w, len), len, NULL, 0, 0};
        t->slot[k] = ++t->n;
    }
    entry *e = &t->e[t->slot[k] - 1];
    if (e->n && e->p[e->n - 1].section == t->section) {
        e->p[e->n - 1].weight += t->weight;
        return;
    }
    e->p = xgrow(e->p, sizeof *e->p, &e->cap, e->n + 1);
    e->p[e->n++] = (posting){t->section, t->weight};
}

static int by_term(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->term, ((const entry *)b)->term);
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

static void put_str(buf *b, const char *s)
{
    buf_putc(b, '"');
    buf_json_str(b, s, strlen(s));
    buf_putc(b, '"');
}

void search_index_js(buf *out, const search_page *pages, size_t n_pages)
{
    termtab t;
    memset(&t, 0, sizeof t);
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
        const search_page *p = &pages[i];
        for (size_t k = 0; k < p->n_sections; k++, sec++) {
            const page_section *s = &p->sections[k];
            if (sec)
                buf_putc(out, ',');
            buf_printf(out, "%zu,", i);
            put_str(out, s->id);
            buf_putc(out, ',');
            put_str(out, s->heading ? s->heading : "");
            t.section = sec;
            if (k == 0) {
                t.weight = TITLE_WEIGHT;
                search_tokens(p->title, strlen(p->title), tab_add, &t);
            }
            t.weight = HEADING_WEIGHT;
            if (s->heading)
                search_tokens(s->heading, strlen(s->heading), tab_add, &t);
            t.weight = 1;
            if (s->text)
                search_tokens(s->text, strlen(s->text), tab_add, &t);
        }
    }
    qsort(t.e, t.n, sizeof *t.e, by_term);
    buf_puts(out, "],\"terms\":\"");
    for (size_t i = 0; i < t.n; i++) {
        if (i)
            buf_putc(out, '|');
        buf_json_str(out, t.e[i].term, t.e[i].len);
    }
    buf_puts(out, "\",\"postings\":\"");
    for (size_t i = 0; i < t.n; i++) {
        if (i)
            buf_putc(out, '|');
        uint32_t last = UINT32_MAX; /* -1: the first difference is section + 1 */
        for (size_t k = 0; k < t.e[i].n; k++) {
            const posting *p = &t.e[i].p[k];
            if (k)
                buf_putc(out, ',');
            put_base36(out, p->section - last);
            if (p->weight != 1) {
                buf_putc(out, ':');
                put_base36(out, p->weight);
            }
            last = p->section;
        }
        free(t.e[i].term);
        free(t.e[i].p);
    }
    buf_puts(out, "\"};\n");
    free(t.e);
    free(t.slot);
}

void search_write(site *s, const page_info *info, const render_sink *sink, void *out)
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
        const page_info *pi = &info[at[pos] - 1];
        urls[n] = p->is_home ? xstrdup("") : xasprintf("%s/", p->slug);
        pages[n] = (search_page){urls[n], p->title, pi->sections, pi->n_sections};
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
