/* fuzz_markdown.c — a page body through md_render: the limits checked before
 * cmark-gfm parses, placeholders found in text nodes (never in code),
 * heading ids, the HTML size cap. The expander is a stub that answers like
 * the real one: a block for a lone directive, an error for "err", inline
 * HTML otherwise. The first byte picks unsafe_html and the line offset. */
#include "fuzz_common.h"
#include "render/markdown.h"

#include <stdbool.h>

typedef struct {
    int calls;
} stub;

static int expand(void *ctx, const char *inner, size_t len, int line, int col, bool alone, buf *out,
                  bool *block)
{
    stub *s = ctx;
    s->calls++;
    FUZZ_ASSERT(line >= 1 && col >= 1);
    FUZZ_ASSERT(memchr(inner, '\0', len) == NULL);
    if (len >= 3 && memcmp(inner, "err", 3) == 0)
        return -1;
    if (alone && len >= 6 && memcmp(inner, " board", 6) == 0) {
        buf_puts(out, "<figure><svg></svg></figure>\n");
        *block = true;
        return 0;
    }
    buf_puts(out, "<span class=\"bp-num\">");
    buf_html(out, inner, len);
    buf_puts(out, "</span>");
    return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    md_init();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    /* Like render_page: the body of a page whose text is valid UTF-8. */
    if (!utf8_valid((const char *)data + 1, size - 1, NULL))
        return 0;
    char *text = fuzz_text(data + 1, size - 1);
    stub st = {0};
    strset ids = {0}; /* the ids a page template already uses */
    strset_add(&ids, "main");
    strset_add(&ids, "section");
    md_options o = {.path = "content/page.md",
                    .line_offset = data[0] & 0x3f,
                    .unsafe_html = (data[0] & 0x40) != 0,
                    .expand = expand,
                    .ctx = &st,
                    .ids = &ids};
    diag d;
    diag_init(&d, NULL);
    buf html;
    buf_init(&html);
    int rc = md_render(text, size - 1, &o, &html, &d);
    FUZZ_ASSERT(rc == 0 ? d.errors == 0 : 1);
    FUZZ_ASSERT(html.len <= MD_MAX_HTML_BYTES);
    buf_free(&html);
    strset_free(&ids);
    diag_free(&d);
    free(text);
    return 0;
}
