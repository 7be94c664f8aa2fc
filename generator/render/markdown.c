/* markdown.c — the only user of cmark-gfm. Parses the page body (once it is
 * within the limits md_limits.c checks), expands placeholders in text nodes
 * through a callback (so code spans and code blocks keep `{{ x }}`
 * exactly), gives headings stable ids, renders HTML. */
#define _GNU_SOURCE /* memmem */
#include "render/markdown.h"
#include "render/markdown_internal.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *base;
    int next;
} idcount;

typedef struct {
    md_body b;       /* the text, its lines, where messages go */
    int directives;  /* placeholders alone in their paragraph so far */
    strset ids;      /* heading ids used so far */
    idcount *counts; /* per base id: the next suffix to try (open addressing) */
    size_t cap_counts, n_counts;
    char **snippets; /* expanded HTML standing in for marker text (see stand_in) */
    size_t n_snippets, cap_snippets;
    cmark_mem *mem; /* the document's allocator: cmark links only nodes of one */
} walker;

/* ------------------------------------------------------------ arena
 * cmark-gfm allocates every node, string and buffer of a page separately;
 * through this per-thread arena they are bump allocations, freed at once
 * when the page is done (about a third of the time Markdown took). cmark's
 * allocator has no context argument, hence thread-local state. Memory the
 * arena hands out never leaves md_render: the HTML is rendered with the
 * default allocator. */

typedef struct chunk {
    struct chunk *next;
    size_t size, used, last; /* last: offset of the newest block's header */
} chunk;

#define ARENA_CHUNK ((size_t)256 << 10)
#define ARENA_HDR ((size_t)16) /* a block: its size, padded to 16 bytes */

static _Thread_local chunk *arena_used;  /* current chunk first */
static _Thread_local chunk *arena_spare; /* kept for the next page */

static void *arena_alloc(size_t n)
{
    size_t need = ARENA_HDR + ((n + 15) & ~(size_t)15);
    if (need < n)
        return NULL;
    chunk *c = arena_used;
    if (!c || c->size - c->used < need) {
        if (arena_spare && arena_spare->size - sizeof(chunk) >= need) {
            c = arena_spare;
            arena_spare = c->next;
        } else {
            size_t size = need + sizeof(chunk) > ARENA_CHUNK ? need + sizeof(chunk) : ARENA_CHUNK;
            c = malloc(size);
            if (!c)
                return NULL;
            c->size = size;
        }
        c->used = sizeof(chunk);
        c->next = arena_used;
        arena_used = c;
    }
    char *block = (char *)c + c->used;
    memcpy(block, &n, sizeof n);
    c->last = c->used;
    c->used += need;
    return block + ARENA_HDR;
}

static void *arena_calloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        return NULL;
    void *p = arena_alloc(count * size);
    if (p)
        memset(p, 0, count * size);
    return p;
}

static void *arena_realloc(void *p, size_t n)
{
    if (!p)
        return arena_alloc(n);
    char *block = (char *)p - ARENA_HDR;
    size_t old;
    memcpy(&old, block, sizeof old);
    chunk *c = arena_used;
    size_t need = ARENA_HDR + ((n + 15) & ~(size_t)15);
    if (c && block == (char *)c + c->last && need >= ARENA_HDR && c->last + need <= c->size) {
        c->used = c->last + need; /* the newest block grows (or shrinks) in place */
        memcpy(block, &n, sizeof n);
        return p;
    }
    void *q = arena_alloc(n);
    if (q)
        memcpy(q, p, old < n ? old : n);
    return q;
}

static void arena_free(void *p)
{
    chunk *c = arena_used;
    if (p && c && (char *)p - ARENA_HDR == (char *)c + c->last)
        c->used = c->last; /* the newest block: give it back */
}

/* Every block goes back at once; chunks are kept for the next page, except
 * one-off big ones. */
static void arena_reset(void)
{
    while (arena_used) {
        chunk *c = arena_used;
        arena_used = c->next;
        if (c->size > ARENA_CHUNK) {
            free(c);
        } else {
            c->next = arena_spare;
            arena_spare = c;
        }
    }
}

void md_release(void)
{
    arena_reset();
    while (arena_spare) {
        chunk *c = arena_spare;
        arena_spare = c->next;
        free(c);
    }
}

static cmark_mem arena_mem = {arena_calloc, arena_realloc, arena_free};
static _Thread_local int md_depth; /* md_render within md_render uses malloc */

void md_slugify(buf *out, const char *text, size_t len)
{
    bool dash = false;
    size_t start = out->len;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c >= 'A' && c <= 'Z')
            c = (char)(c - 'A' + 'a');
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
            if (dash && out->len > start)
                buf_putc(out, '-');
            dash = false;
            buf_putc(out, c);
        } else if (!((unsigned char)c & 0x80) || ((unsigned char)c & 0xC0) == 0xC0) {
            dash = true;
        }
    }
    if (out->len == start)
        buf_puts(out, "section");
}

/* Plain text of an inline subtree, for heading ids. */
static void plain_text(cmark_node *n, buf *out)
{
    for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
        const char *lit = cmark_node_get_literal(c);
        cmark_node_type t = cmark_node_get_type(c);
        if ((t == CMARK_NODE_TEXT || t == CMARK_NODE_CODE) && lit)
            buf_puts(out, lit);
        else if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
            buf_putc(out, ' ');
        else if (t == CMARK_NODE_CUSTOM_INLINE)
            ; /* expanded placeholders do not name the section */
        else
            plain_text(c, out);
    }
}

/* The counter of a base id (created at 2). A page may have tens of thousands
 * of headings with the same text: trying "-2", "-3", ... from the start each
 * time would be quadratic, so each base remembers where it got to. */
static int *id_counter(walker *w, const char *base)
{
    if ((w->n_counts + 1) * 2 > w->cap_counts) {
        size_t cap = w->cap_counts ? w->cap_counts * 2 : 64;
        idcount *slots = xcalloc(cap, sizeof *slots);
        for (size_t i = 0; i < w->cap_counts; i++) {
            if (!w->counts[i].base)
                continue;
            size_t k = (size_t)hash64(w->counts[i].base, strlen(w->counts[i].base), 0) & (cap - 1);
            while (slots[k].base)
                k = (k + 1) & (cap - 1);
            slots[k] = w->counts[i];
        }
        free(w->counts);
        w->counts = slots;
        w->cap_counts = cap;
    }
    size_t k = (size_t)hash64(base, strlen(base), 0) & (w->cap_counts - 1);
    while (w->counts[k].base && strcmp(w->counts[k].base, base) != 0)
        k = (k + 1) & (w->cap_counts - 1);
    if (!w->counts[k].base) {
        w->counts[k].base = xstrdup(base);
        w->counts[k].next = 2;
        w->n_counts++;
    }
    return &w->counts[k].next;
}

static bool id_taken(const walker *w, const char *id)
{
    return strset_has(&w->ids, id) || (w->b.o->ids && strset_has(w->b.o->ids, id));
}

/* A heading id not used before on the page (by headings or by the page's
 * other elements): base, else base-2, base-3, ... */
static char *unique_id(walker *w, const char *base)
{
    char *id;
    if (!id_taken(w, base)) {
        id = xstrdup(base);
    } else {
        int *next = id_counter(w, base);
        for (;;) {
            id = xasprintf("%s-%d", base, (*next)++);
            if (!id_taken(w, id))
                break;
            free(id);
        }
    }
    strset_add(&w->ids, id);
    if (w->b.o->ids)
        strset_add(w->b.o->ids, id);
    return id;
}

/* The 1-based line and byte column of a byte offset in the body. */
static void position_of(const walker *w, size_t off, int *line, int *byte_col)
{
    size_t lo = 0, hi = w->b.n_lines; /* the last line starting at or before off */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (w->b.line_start[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    *line = (int)lo + 1;
    *byte_col = (int)(off - w->b.line_start[lo]) + 1;
}

/* Where a text node's source begins. cmark-gfm's text nodes do not always
 * map back: entities and escapes are merged into the literal ("&amp;" is
 * one byte), and autolinked e-mail addresses leave nodes with no position.
 * Then the search starts at the first line of the nearest block that has
 * one. */
static size_t source_start(const walker *w, cmark_node *node)
{
    int line = cmark_node_get_start_line(node), col = cmark_node_get_start_column(node);
    if (line >= 1 && (size_t)line <= w->b.n_lines && col >= 1) {
        size_t off = w->b.line_start[line - 1] + (size_t)col - 1;
        return off <= w->b.len ? off : w->b.len;
    }
    for (cmark_node *p = cmark_node_parent(node); p; p = cmark_node_parent(p)) {
        line = cmark_node_get_start_line(p);
        if (line >= 1 && (size_t)line <= w->b.n_lines)
            return w->b.line_start[line - 1];
    }
    return 0;
}

/* The next "{{" in the source at or after *cursor (moved past its "}}"),
 * as a line and byte column; false when there is none. */
static bool next_open(const walker *w, size_t *cursor, int *line, int *byte_col, bool *escaped)
{
    for (size_t i = *cursor; i + 1 < w->b.len; i++) {
        if (w->b.text[i] != '{' || w->b.text[i + 1] != '{')
            continue;
        position_of(w, i, line, byte_col);
        /* "\{{" is a literal "{{" (Markdown's backslash escape); "\\{{" is not */
        *escaped = i > 0 && w->b.text[i - 1] == '\\' && !(i > 1 && w->b.text[i - 2] == '\\');
        if (*escaped) {
            *cursor = i + 2;
            return true;
        }
        size_t k = i + 2;
        while (k + 1 < w->b.len && !(w->b.text[k] == '}' && w->b.text[k + 1] == '}') &&
               w->b.text[k] != '\n')
            k++;
        *cursor = k + 1 < w->b.len && w->b.text[k] == '}' ? k + 2 : i + 2;
        return true;
    }
    return false;
}

/* Put expanded HTML before node. cmark-gfm's table cells refuse custom
 * inline nodes (its table extension lists the inline types a cell may
 * hold), so there the HTML goes in as a marker text "\xffN\xff" that
 * md_render swaps for snippet N after rendering: 0xFF never occurs in the
 * UTF-8 that cmark writes, so no author text can look like a marker. */
/* The text of generated inline HTML: tags dropped, the five entities that
 * buf_html writes decoded. For image alt text, which cmark renders as plain
 * text and where a custom node would vanish. */
static char *plain_of(const char *html)
{
    buf b;
    buf_init(&b);
    static const struct {
        const char *entity, *ch;
    } ents[] = {{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""}, {"&#39;", "'"}};
    for (const char *p = html; *p;) {
        if (*p == '<') {
            const char *end = strchr(p, '>');
            p = end ? end + 1 : p + strlen(p);
            continue;
        }
        bool done = false;
        for (size_t k = 0; k < sizeof ents / sizeof ents[0] && !done; k++) {
            size_t l = strlen(ents[k].entity);
            if (strncmp(p, ents[k].entity, l) == 0) {
                buf_puts(&b, ents[k].ch);
                p += l;
                done = true;
            }
        }
        if (!done)
            buf_putc(&b, *p++);
    }
    return buf_detach(&b);
}

static bool inside_image(cmark_node *node)
{
    for (cmark_node *p = cmark_node_parent(node); p; p = cmark_node_parent(p))
        if (cmark_node_get_type(p) == CMARK_NODE_IMAGE)
            return true;
    return false;
}

static void stand_in(walker *w, cmark_node *node, const char *html)
{
    if (inside_image(node)) {
        char *text = plain_of(html);
        cmark_node *t = cmark_node_new_with_mem(CMARK_NODE_TEXT, w->mem);
        cmark_node_set_literal(t, text);
        cmark_node_insert_before(node, t);
        free(text);
        return;
    }
    cmark_node *ci = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_INLINE, w->mem);
    cmark_node_set_on_enter(ci, html);
    if (cmark_node_insert_before(node, ci))
        return;
    cmark_node_free(ci);
    char marker[32];
    snprintf(marker, sizeof marker, "\xff%zu\xff", w->n_snippets);
    w->snippets = xgrow(w->snippets, sizeof *w->snippets, &w->cap_snippets, w->n_snippets + 1);
    w->snippets[w->n_snippets++] = xstrdup(html);
    cmark_node *t = cmark_node_new_with_mem(CMARK_NODE_TEXT, w->mem);
    cmark_node_set_literal(t, marker);
    cmark_node_insert_before(node, t);
}

/* A code span of one short word ("--set", "results.json"): a line may
 * not break inside it, as a browser would after its hyphen ("-" / "-set"). */
static bool one_word(const char *lit)
{
    if (!lit || !*lit || strlen(lit) > 24)
        return false;
    for (const char *p = lit; *p; p++)
        if (*p == ' ' || *p == '\t' || *p == '\n')
            return false;
    return true;
}

static void code_one_line(walker *w, cmark_node *node)
{
    if (inside_image(node))
        return;
    buf html;
    buf_init(&html);
    buf_puts(&html, "<code class=\"bp-word\">");
    buf_html_s(&html, cmark_node_get_literal(node));
    buf_puts(&html, "</code>");
    stand_in(w, node, html.data);
    buf_free(&html);
    cmark_node_unlink(node);
    cmark_node_free(node);
}

/* html with every marker of stand_in replaced by its snippet, appended to out. */
static void put_snippets(buf *out, const char *html, size_t len, const walker *w)
{
    size_t i = 0;
    while (i < len) {
        const char *m = memchr(html + i, 0xff, len - i);
        if (!m) {
            buf_put(out, html + i, len - i);
            break;
        }
        size_t at = (size_t)(m - html);
        buf_put(out, html + i, at - i);
        char *end;
        unsigned long long k = strtoull(m + 1, &end, 10);
        if ((unsigned char)*end == 0xff && k < w->n_snippets) {
            buf_puts(out, w->snippets[k]);
            i = (size_t)(end + 1 - html);
        } else {
            buf_putc(out, *m);
            i = at + 1;
        }
    }
}

/* Expand the placeholders of one text node, splitting it around them. */
static void expand_text(walker *w, cmark_node *node, bool alone_possible)
{
    const char *lit = cmark_node_get_literal(node);
    if (!lit || !strstr(lit, "{{"))
        return;
    char *s = xstrdup(lit);
    int line = cmark_node_get_start_line(node), col0 = cmark_node_get_start_column(node);
    size_t cursor = source_start(w, node);
    size_t pos = 0, n = strlen(s);
    buf before;
    buf_init(&before);
    while (pos < n) {
        char *open = strstr(s + pos, "{{");
        if (!open) {
            buf_puts(&before, s + pos);
            break;
        }
        size_t o = (size_t)(open - s);
        buf_put(&before, s + pos, o - pos);
        /* Where it is in the file: found in the source, or (when the source
         * does not show it, as with "\{\{") counted from the node. */
        int at_line, at_col;
        bool escaped = false;
        if (!next_open(w, &cursor, &at_line, &at_col, &escaped)) {
            at_line = line >= 1 ? line : 1;
            at_col = col0 + (int)o >= 1 ? col0 + (int)o : 1;
        }
        if (escaped) { /* written "\{{": the braces stay text */
            buf_puts(&before, "{{");
            pos = o + 2;
            continue;
        }
        char *close = strstr(open + 2, "}}");
        char *single = strchr(open + 2, '}');
        if (single && single != close) {
            /* "{{ a.jobs } and {{ b.jobs }}": the first is short of a brace,
             * not one placeholder running on into the next */
            char msg[200];
            size_t shown = (size_t)(single + 1 - open);
            snprintf(msg, sizeof msg, "placeholder '%.*s%s' ends with one '}': write '}}'",
                     (int)(shown > 80 ? 80 : shown), open, shown > 80 ? "…" : "");
            md_report(&w->b, at_line, at_col, msg);
            buf_put(&before, open, shown);
            pos = (size_t)(single + 1 - s);
            continue;
        }
        if (!close) {
            md_report(&w->b, at_line, at_col,
                      "unterminated placeholder: '{{' without '}}' on the same line");
            buf_puts(&before, s + o);
            break;
        }
        size_t c = (size_t)(close - s);
        /* Text before goes in its own node. */
        if (before.len) {
            cmark_node *t = cmark_node_new_with_mem(CMARK_NODE_TEXT, w->mem);
            cmark_node_set_literal(t, before.data);
            cmark_node_insert_before(node, t);
            buf_clear(&before);
        }
        bool alone = alone_possible && o == 0 && s[c + 2] == '\0';
        if (alone && ++w->directives > MD_MAX_DIRECTIVES) {
            if (w->directives == MD_MAX_DIRECTIVES + 1) {
                char msg[128];
                snprintf(msg, sizeof msg, "more than %d directives on one page", MD_MAX_DIRECTIVES);
                md_report(&w->b, at_line, at_col, msg);
            } else {
                w->b.errors++;
            }
            break;
        }
        buf html;
        buf_init(&html);
        bool block = false;
        if (w->b.o->expand(w->b.o->ctx, open + 2, c - o - 2, at_line + w->b.o->line_offset,
                           md_char_col(&w->b, at_line, at_col), alone, &html, &block) != 0) {
            w->b.errors++;
        } else if (block) {
            cmark_node *para = cmark_node_parent(node);
            cmark_node *cb = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, w->mem);
            cmark_node_set_on_enter(cb, html.data);
            cmark_node_insert_before(para, cb);
            cmark_node_unlink(para);
            cmark_node_free(para); /* frees node too */
            buf_free(&html);
            buf_free(&before);
            free(s);
            return;
        } else {
            stand_in(w, node, html.data ? html.data : "");
        }
        buf_free(&html);
        pos = c + 2;
    }
    cmark_node_set_literal(node, before.data ? before.data : "");
    buf_free(&before);
    free(s);
}

static void check_table(walker *w, cmark_node *table)
{
    uint16_t cols = cmark_gfm_extensions_get_table_columns(table);
    if (cols > MD_MAX_TABLE_COLUMNS) {
        char msg[128];
        snprintf(msg, sizeof msg, "table has %u columns; the limit is %d", cols,
                 MD_MAX_TABLE_COLUMNS);
        md_report(&w->b, cmark_node_get_start_line(table), cmark_node_get_start_column(table), msg);
    }
}

/* Tell the caller of a link, at its address in the file. cmark-gfm gives
 * a link that spans lines the line it closes on, so the address is looked
 * for in the source instead: from the start of the link's block, after the
 * block's links before it (then anywhere, for a reference defined
 * elsewhere); not found (written with escapes or entities), the start of
 * its block. */
static void report_link(walker *w, cmark_node *n, cmark_node **block, size_t *cursor)
{
    const char *url = cmark_node_get_url(n);
    if (!url)
        return;
    cmark_node *b = cmark_node_parent(n);
    while (b && (cmark_node_get_type(b) & CMARK_NODE_TYPE_MASK) == CMARK_NODE_TYPE_INLINE)
        b = cmark_node_parent(b);
    size_t start = b ? source_start(w, b) : 0;
    if (b != *block) {
        *block = b;
        *cursor = start;
    }
    size_t ul = strlen(url), off = start;
    const char *hit = NULL;
    if (ul && *cursor <= w->b.len)
        hit = memmem(w->b.text + *cursor, w->b.len - *cursor, url, ul);
    if (!hit && ul)
        hit = memmem(w->b.text, w->b.len, url, ul);
    if (hit) {
        off = (size_t)(hit - w->b.text);
        if (off >= *cursor)
            *cursor = off + ul;
    }
    int line, byte_col;
    position_of(w, off, &line, &byte_col);
    w->b.o->link(w->b.o->link_ctx, url, line + w->b.o->line_offset,
                 md_char_col(&w->b, line, byte_col));
}

/* Give a heading an id and a self-link: render it alone and swap it for a
 * custom block with the id added. */
static cmark_node *heading_with_id(walker *w, cmark_node *h, cmark_llist *exts, int options)
{
    buf text, id;
    buf_init(&text);
    buf_init(&id);
    plain_text(h, &text);
    md_slugify(&id, text.data ? text.data : "", text.len);
    char *uid = unique_id(w, id.data);
    char *rendered =
        cmark_render_html_with_mem(h, options, exts, cmark_get_default_mem_allocator());
    int level = cmark_node_get_heading_level(h);
    /* rendered is "<hN>...</hN>\n" */
    buf out;
    buf_init(&out);
    buf_printf(&out, "<h%d id=\"%s\">", level, uid);
    const char *inner = rendered + 4;
    const char *end = strstr(rendered, "</h");
    buf_put(&out, inner, end ? (size_t)(end - inner) : strlen(inner));
    buf_printf(
        &out,
        " <a class=\"bp-anchor\" href=\"#%s\" aria-label=\"Link to this section\">#</a></h%d>\n",
        uid, level);
    cmark_node *cb = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, w->mem);
    cmark_node_set_on_enter(cb, out.data);
    cmark_node_insert_before(h, cb);
    cmark_node_unlink(h);
    cmark_node_free(h);
    free(rendered);
    free(uid);
    buf_free(&out);
    buf_free(&text);
    buf_free(&id);
    return cb;
}

/* Exported by libcmark-gfm, declared only in a header Debian ships among its
 * internal ones (cmark-gfm/registry.h). */
void cmark_release_plugins(void);

void md_shutdown(void)
{
    cmark_release_plugins();
}

static void add_ext(cmark_parser *p, const char *name)
{
    cmark_syntax_extension *e = cmark_find_syntax_extension(name);
    if (e)
        cmark_parser_attach_syntax_extension(p, e);
}

void md_init(void)
{
    cmark_gfm_core_extensions_ensure_registered();
}

int md_render(const char *text, size_t len, const md_options *o, buf *out, diag *d)
{
    walker w;
    memset(&w, 0, sizeof w);
    w.b.o = o;
    w.b.text = text;
    w.b.len = len;
    w.b.d = d;
    if (len > MD_MAX_BYTES) {
        /* rounded up: a body just over the limit must not read "256 KiB" */
        diag_error(d, o->path, o->line_offset + 1, 1, "page body is %zu KiB; the limit is %zu KiB",
                   (len + 1023) >> 10, MD_MAX_BYTES >> 10);
        return -1;
    }
    size_t cap = 0;
    w.b.line_start = xgrow(NULL, sizeof *w.b.line_start, &cap, 1);
    w.b.line_start[w.b.n_lines++] = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n' && i + 1 <= len) {
            w.b.line_start = xgrow(w.b.line_start, sizeof *w.b.line_start, &cap, w.b.n_lines + 1);
            w.b.line_start[w.b.n_lines++] = i + 1;
        }
    }

    if (md_check_limits(&w.b) > 0) {
        free(w.b.line_start);
        return -1;
    }

    cmark_gfm_core_extensions_ensure_registered();
    int options = CMARK_OPT_DEFAULT | CMARK_OPT_STRIKETHROUGH_DOUBLE_TILDE;
    if (o->unsafe_html)
        options |= CMARK_OPT_UNSAFE;
    cmark_mem *mem = md_depth++ == 0 ? &arena_mem : cmark_get_default_mem_allocator();
    cmark_parser *p = cmark_parser_new_with_mem(options, mem);
    w.mem = mem;
    add_ext(p, "table");
    add_ext(p, "autolink");
    add_ext(p, "strikethrough");
    if (o->unsafe_html)
        add_ext(p, "tagfilter");
    cmark_parser_feed(p, text, len);
    cmark_node *doc = cmark_parser_finish(p);
    cmark_llist *exts = cmark_parser_get_syntax_extensions(p);

    /* Collect first, then change: the iterator must not see edited nodes. */
    cmark_node **texts = NULL, **heads = NULL, **links = NULL, **codes = NULL;
    size_t n_texts = 0, cap_texts = 0, n_heads = 0, cap_heads = 0, n_links = 0, cap_links = 0;
    size_t n_codes = 0, cap_codes = 0;
    cmark_iter *it = cmark_iter_new(doc);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        if (ev != CMARK_EVENT_ENTER)
            continue;
        cmark_node *n = cmark_iter_get_node(it);
        cmark_node_type t = cmark_node_get_type(n);
        if (t == CMARK_NODE_TEXT) {
            texts = xgrow(texts, sizeof *texts, &cap_texts, n_texts + 1);
            texts[n_texts++] = n;
        } else if (t == CMARK_NODE_HEADING) {
            heads = xgrow(heads, sizeof *heads, &cap_heads, n_heads + 1);
            heads[n_heads++] = n;
        } else if ((t == CMARK_NODE_LINK || t == CMARK_NODE_IMAGE) && o->link) {
            links = xgrow(links, sizeof *links, &cap_links, n_links + 1);
            links[n_links++] = n;
        } else if (t == CMARK_NODE_CODE && one_word(cmark_node_get_literal(n))) {
            codes = xgrow(codes, sizeof *codes, &cap_codes, n_codes + 1);
            codes[n_codes++] = n;
        } else if (strcmp(cmark_node_get_type_string(n), "table") == 0) {
            check_table(&w, n);
        }
    }
    cmark_iter_free(it);
    if (w.b.errors == 0) {
        for (size_t i = 0; i < n_texts; i++) {
            cmark_node *parent = cmark_node_parent(texts[i]);
            bool alone = parent && cmark_node_get_type(parent) == CMARK_NODE_PARAGRAPH &&
                         cmark_node_first_child(parent) == texts[i] &&
                         cmark_node_last_child(parent) == texts[i] &&
                         cmark_node_get_type(cmark_node_parent(parent)) == CMARK_NODE_DOCUMENT;
            expand_text(&w, texts[i], alone);
        }
        cmark_node *link_block = NULL;
        size_t link_cursor = 0;
        for (size_t i = 0; i < n_links; i++) /* before headings are rendered alone */
            report_link(&w, links[i], &link_block, &link_cursor);
        for (size_t i = 0; i < n_codes; i++)
            code_one_line(&w, codes[i]);
        for (size_t i = 0; i < n_heads; i++)
            heading_with_id(&w, heads[i], exts, options);
    }
    free(codes);
    free(texts);
    free(heads);
    free(links);

    int rc = w.b.errors ? -1 : 0;
    if (rc == 0) {
        char *html =
            cmark_render_html_with_mem(doc, options, exts, cmark_get_default_mem_allocator());
        size_t hl = strlen(html);
        if (w.n_snippets) {
            buf full;
            buf_init(&full);
            put_snippets(&full, html, hl, &w);
            free(html);
            hl = full.len;
            html = buf_detach(&full);
        }
        if (hl > MD_MAX_HTML_BYTES) {
            diag_error(d, o->path, o->line_offset + 1, 1,
                       "page renders to %zu MiB of HTML; the limit is %zu MiB", hl >> 20,
                       MD_MAX_HTML_BYTES >> 20);
            rc = -1;
        } else {
            buf_put(out, html, hl);
        }
        free(html);
    }
    cmark_node_free(doc);
    cmark_parser_free(p);
    if (--md_depth == 0)
        arena_reset();
    strset_free(&w.ids);
    for (size_t i = 0; i < w.cap_counts; i++)
        free(w.counts[i].base);
    free(w.counts);
    for (size_t i = 0; i < w.n_snippets; i++)
        free(w.snippets[i]);
    free(w.snippets);
    free(w.b.line_start);
    return rc;
}
