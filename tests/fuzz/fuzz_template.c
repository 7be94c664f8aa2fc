/* fuzz_template.c — the template language: tmpl_parse on any UTF-8 text
 * (partials from tests/fuzz/templates/), then tmpl_render with the
 * variables a page has (text, HTML and lists), twice (errors are reported
 * once per position). */
#include "fuzz_common.h"
#include "render/tmpl.h"

static char *dir;
static tmpl_scope *scope;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    dir = fuzz_path("templates");
    scope = tmpl_scope_new(NULL);
    tmpl_set_text(scope, "title", "Fish & <Chips> \"quoted\"");
    tmpl_set_text(scope, "summary", "");
    tmpl_set_text(scope, "lang", "en");
    tmpl_set_text(scope, "root", "../");
    tmpl_set_html(scope, "content", "<p>Body</p>");
    tmpl_list_declare(scope, "pages");
    tmpl_list_declare(scope, "nav");
    for (int i = 0; i < 3; i++) {
        tmpl_scope *item = tmpl_list_add(scope, "nav");
        tmpl_set_text(item, "title", i ? "Page" : "<Home>");
        tmpl_set_text(item, "url", "x/");
        tmpl_set_text(item, "current", i == 1 ? "page" : "");
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* load_file refuses text that is not UTF-8 (or holds NUL) first. */
    if (!utf8_valid((const char *)data, size, NULL))
        return 0;
    char *text = fuzz_text(data, size);
    diag d;
    diag_init(&d, NULL);
    tmpl *t = tmpl_parse(dir, "templates/fuzz.html", text, size, &d);
    FUZZ_ASSERT(t ? d.errors == 0 : d.errors > 0);
    if (t) {
        for (int i = 0; i < 2; i++) {
            buf out;
            buf_init(&out);
            int before = d.errors;
            int rc = tmpl_render(t, scope, &out, &d);
            FUZZ_ASSERT(rc == 0 ? d.errors == before : 1);
            buf_free(&out);
        }
    }
    tmpl_free(t);
    diag_free(&d);
    free(text);
    return 0;
}
