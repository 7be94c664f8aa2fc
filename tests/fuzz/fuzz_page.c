/* fuzz_page.c — front matter: page_split and page_parse on a whole page
 * file (any bytes, as discover_pages reads them). */
#include "fuzz_common.h"
#include "load/page.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    size_t fm_start = 0, fm_len = 0, body = 0;
    int body_line = 0;
    if (page_split(text, size, &fm_start, &fm_len, &body, &body_line) == 0) {
        /* the split stays inside the text */
        FUZZ_ASSERT(fm_start + fm_len <= size && body <= size && body_line >= 2);
    }
    diag d;
    diag_init(&d, NULL);
    bp_page *p = page_parse("content/page.md", text, size, size % 2 ? "index" : "page", &d);
    /* a page comes back whole and without errors, or not at all with a reason */
    FUZZ_ASSERT(p ? d.errors == 0 && p->title && p->slug && p->body_offset <= size : d.errors > 0);
    page_free(p);
    diag_free(&d);
    free(text);
    return 0;
}
