/* embed.c — a page of its own for each figure a directive shows (a board,
 * a compare, a level or live level, a timeline, a chart):
 * SLUG/embed/ID/index.html holds just that element, with its numbers and
 * its switcher or sliders, and a link back to it on its page, for another
 * site to show in an <iframe>; the figure on the page gets a "Share" note
 * with the <iframe> snippet. The element's HTML is the page's own, byte
 * for byte: the embed page's <base href="../../"> makes its relative
 * addresses (drawings, static/) read from the page's folder. */
#include "render/render_internal.h"

#include <stdlib.h>
#include <string.h>

/* The directives whose element is embedded. */
static bool embedded(const char *name)
{
    return !strcmp(name, "board") || !strcmp(name, "compare") || !strcmp(name, "level") ||
           !strcmp(name, "timeline") || !strcmp(name, "chart");
}

/* The value of the first id="..." of the element's opening tag (caller
 * frees), or NULL. */
static char *element_id(const char *html, size_t len)
{
    const char *end = memchr(html, '>', len);
    if (!end)
        return NULL;
    for (const char *p = html; p + 4 < end; p++)
        if (!memcmp(p, " id=\"", 5)) {
            const char *v = p + 5, *q = memchr(v, '"', (size_t)(end - v));
            return q ? xstrndup(v, (size_t)(q - v)) : NULL;
        }
    return NULL;
}

/* The largest height="N" of the element's first drawing: what the
 * snippet's iframe starts with. */
static int first_height(const char *html, size_t len)
{
    const char *p = html, *end = html + len;
    int h = 0;
    for (int k = 0; k < 4 && p < end; k++) {
        const char *q = strstr(p, " height=\"");
        if (!q || q >= end)
            break;
        int v = atoi(q + 9);
        if (v > h)
            h = v;
        p = q + 9;
    }
    return h;
}

/* The embed page's address as the snippet writes it: absolute with
 * base_url, else from the site's top. */
static void put_embed_url(buf *b, const page_ctx *pc, const char *name)
{
    buf_html_s(b, pc->s->cfg.base_url);
    if (!pc->page->is_home) {
        buf_html_s(b, pc->page->slug);
        buf_putc(b, '/');
    }
    buf_puts(b, "embed/");
    buf_html_s(b, name);
    buf_putc(b, '/');
}

static void write_page(page_ctx *pc, const char *name, const char *elem_id, const char *html,
                       size_t len, bool js, bool live)
{
    const site *s = pc->s;
    const bp_page *p = pc->page;
    const char *st = p->is_home ? "static/" : "../static/";
    buf x;
    buf_init(&x);
    buf_puts(&x, "<!doctype html>\n<html lang=\"");
    buf_html_s(&x, s->cfg.language);
    buf_puts(&x, "\" class=\"bp-embedded\">\n<head>\n<meta charset=\"utf-8\">\n"
                 "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                 "<meta name=\"color-scheme\" content=\"light dark\">\n"
                 "<base href=\"../../\">\n<title>");
    buf_html_s(&x, p->title);
    buf_puts(&x, " · ");
    buf_html_s(&x, s->cfg.title);
    buf_puts(&x, "</title>\n");
    if (s->cfg.base_url[0]) {
        buf_puts(&x, "<link rel=\"canonical\" href=\"");
        buf_html_s(&x, s->cfg.base_url);
        if (!p->is_home) {
            buf_html_s(&x, p->slug);
            buf_putc(&x, '/');
        }
        buf_puts(&x, "\">\n");
    }
    buf_printf(&x,
               "<link rel=\"icon\" href=\"%sfavicon.svg\" type=\"image/svg+xml\">\n"
               "<link rel=\"stylesheet\" href=\"%sboardpress.css\">\n",
               st, st);
    if (live)
        buf_printf(&x,
                   "<script src=\"%sbp-sim.js\" defer></script>\n"
                   "<script src=\"%sbp-fmt.js\" defer></script>\n"
                   "<script src=\"%sbp-live.js\" defer></script>\n",
                   st, st, st);
    if (js)
        buf_printf(&x, "<script src=\"%sboardpress.js\" defer></script>\n", st);
    /* the heading names where the figure comes from and leads back to it */
    buf_puts(&x, "</head>\n<body class=\"bp-embed\">\n<main id=\"main\">\n"
                 "<article class=\"bp-page\">\n<h1 class=\"bp-embed-back\"><a href=\"index.html#");
    buf_html_s(&x, elem_id);
    buf_puts(&x, "\" target=\"_top\">");
    buf_html_s(&x, p->title);
    buf_puts(&x, "</a> · ");
    buf_html_s(&x, s->cfg.title);
    buf_puts(&x, "</h1>\n");
    buf_put(&x, html, len);
    buf_puts(&x, "</article>\n</main>\n</body>\n</html>\n");
    char *file = xasprintf("embed/%s/index.html", name);
    expand_page_file(pc, file, x.data);
    free(file);
    buf_free(&x);
}

void embed_directive(page_ctx *pc, const char *directive, buf *out, size_t start, bool js,
                     bool live)
{
    if (!embedded(directive) || out->len <= start)
        return;
    const char *html = out->data + start;
    size_t len = out->len - start;
    char *elem_id = element_id(html, len);
    if (!elem_id)
        return;
    /* embed/ID/: the board's or level's own id; the element's when that
     * folder is taken (the same id as a board and a level) */
    const char *name = elem_id;
    if (!strncmp(name, "board-", 6) || !strncmp(name, "level-", 6) || !strncmp(name, "chart-", 6))
        name += 6;
    char *file = xasprintf("embed/%s/index.html", name);
    if (strset_has(&pc->files, file))
        name = elem_id;
    free(file);
    char *html_copy = xstrndup(html, len);
    write_page(pc, name, elem_id, html_copy, len, js, live);
    int h = first_height(html_copy, len);
    h = h ? h + 150 : 480;
    if (js)
        h += 260;
    free(html_copy);

    buf_puts(out, "<details class=\"bp-share\"><summary>Share</summary>\n"
                  "<p>To show this on another site, paste:</p>\n"
                  "<pre class=\"bp-share-code\"><code>&lt;iframe src=&quot;");
    buf url;
    buf_init(&url);
    put_embed_url(&url, pc, name);
    buf_html(out, url.data, url.len);
    buf_printf(out,
               "&quot; width=&quot;100%%&quot; height=&quot;%d&quot; "
               "style=&quot;border:0&quot; loading=&quot;lazy&quot; title=&quot;",
               h);
    buf t;
    buf_init(&t);
    buf_html_s(&t, pc->page->title);
    buf_html(out, t.data, t.len);
    buf_puts(out, "&quot;&gt;&lt;/iframe&gt;</code></pre>\n<p>");
    if (!pc->s->cfg.base_url[0])
        buf_puts(out, "Put the site's address in front (or set <code>base_url</code> in "
                      "<code>site.yaml</code>). ");
    buf_puts(out, "<a href=\"embed/");
    buf_html_s(out, name);
    buf_puts(out, "/index.html\">See it on its own</a>.</p>\n</details>\n");
    buf_free(&t);
    buf_free(&url);
    free(elem_id);
}
