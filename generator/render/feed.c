/* feed.c — feed.xml, an Atom feed (RFC 4287) of the site's pages in their
 * order: each entry its title, summary, link and dates (front matter
 * `updated`, else `date`, else the build's moment: SOURCE_DATE_EPOCH). */
#include "render/render_internal.h"

#include <stdio.h>
#include <string.h>

/* A page's updated moment as Atom writes it. */
static void page_updated(const site *s, const bp_page *p, char out[32])
{
    const char *day = p->updated[0] ? p->updated : p->date;
    if (day[0])
        snprintf(out, 32, "%sT00:00:00Z", day);
    else
        snprintf(out, 32, "%s", s->built_at);
}

/* An id that stays the page's: its address when the site has one, else a
 * name made from the site's title and the page's slug (urn:uuid, version
 * 8 form, from two hashes), so the id is an IRI and the same every build. */
static void put_id(buf *x, const site *s, const char *slug)
{
    if (s->cfg.base_url[0]) {
        buf_html_s(x, s->cfg.base_url);
        if (*slug) {
            buf_html_s(x, slug);
            buf_putc(x, '/');
        }
        return;
    }
    buf key;
    buf_init(&key);
    buf_printf(&key, "%s\n%s", s->cfg.title, slug);
    uint64_t a = hash64(key.data, key.len, 0x626f617264ULL);
    uint64_t b = hash64(key.data, key.len, 0x70726573ULL);
    buf_free(&key);
    a = (a & ~(uint64_t)0xf000) | 0x8000;                 /* version 8 */
    b = (b & ~((uint64_t)3 << 62)) | ((uint64_t)2 << 62); /* the RFC 4122 variant */
    buf_printf(x, "urn:uuid:%08x-%04x-%04x-%04x-%012llx", (unsigned)(a >> 32),
               (unsigned)((a >> 16) & 0xffff), (unsigned)(a & 0xffff), (unsigned)(b >> 48),
               (unsigned long long)(b & 0xffffffffffffULL));
}

/* The address of a page: absolute with base_url, else relative to the
 * feed (which sits at the site's top). */
static void put_href(buf *x, const site *s, const char *slug)
{
    buf_html_s(x, s->cfg.base_url);
    if (*slug) {
        buf_html_s(x, slug);
        buf_putc(x, '/');
    } else if (!s->cfg.base_url[0]) {
        buf_puts(x, "./");
    }
}

void feed_write(site *s, const render_sink *sink, void *out)
{
    if (!sink)
        return;
    char newest[32] = "";
    for (size_t i = 0; i < s->n_order; i++) {
        char u[32];
        page_updated(s, s->order[i], u);
        if (strcmp(u, newest) > 0)
            memcpy(newest, u, sizeof newest);
    }
    if (!newest[0])
        snprintf(newest, sizeof newest, "%s", s->built_at);
    buf x;
    buf_init(&x);
    buf_printf(&x, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
                   "<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"");
    buf_html_s(&x, s->cfg.language);
    buf_puts(&x, "\">\n<title>");
    buf_html_s(&x, s->cfg.title);
    buf_puts(&x, "</title>\n");
    if (s->cfg.description) {
        buf_puts(&x, "<subtitle>");
        buf_html_s(&x, s->cfg.description);
        buf_puts(&x, "</subtitle>\n");
    }
    buf_puts(&x, "<id>");
    put_id(&x, s, "");
    buf_printf(&x, "</id>\n<updated>%s</updated>\n<author><name>", newest);
    buf_html_s(&x, s->cfg.title);
    buf_puts(&x, "</name></author>\n<link rel=\"alternate\" type=\"text/html\" href=\"");
    put_href(&x, s, "");
    buf_puts(&x, "\"/>\n");
    if (s->cfg.base_url[0]) {
        buf_puts(&x, "<link rel=\"self\" type=\"application/atom+xml\" href=\"");
        buf_html_s(&x, s->cfg.base_url);
        buf_puts(&x, "feed.xml\"/>\n");
    }
    buf_printf(&x, "<generator version=\"%s\">boardpress</generator>\n", BOARDPRESS_VERSION);
    for (size_t i = 0; i < s->n_order; i++) {
        const bp_page *p = s->order[i];
        char u[32];
        page_updated(s, p, u);
        buf_puts(&x, "<entry>\n<title>");
        buf_html_s(&x, p->title);
        buf_puts(&x, "</title>\n<id>");
        put_id(&x, s, p->slug);
        buf_puts(&x, "</id>\n<link rel=\"alternate\" type=\"text/html\" href=\"");
        put_href(&x, s, p->slug);
        buf_printf(&x, "\"/>\n<updated>%s</updated>\n", u);
        if (p->date[0])
            buf_printf(&x, "<published>%sT00:00:00Z</published>\n", p->date);
        buf_puts(&x, "<summary>");
        buf_html_s(&x, p->summary ? p->summary : p->title);
        buf_puts(&x, "</summary>\n</entry>\n");
    }
    buf_puts(&x, "</feed>\n");
    sink->write(out, FEED_FILE, x.data, x.len, &s->d);
    buf_free(&x);
}
