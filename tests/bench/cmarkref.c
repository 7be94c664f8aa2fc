/* cmarkref.c — the floor for the build bench: the smallest C program that
 * turns the same pages into HTML files, with cmark-gfm (tables, autolinks,
 * strikethrough) and nothing else: no front-matter parsing beyond skipping
 * it, no templates, no placeholders, no atomic output.
 *
 * usage: cmarkref CONTENT_DIR OUT_DIR   (OUT_DIR must not exist) */
#define _DEFAULT_SOURCE
#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 65536, n = 0, r;
    char *b = malloc(cap);
    while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            b = realloc(b, cap *= 2);
    }
    fclose(f);
    *len = n;
    return b;
}

int main(int argc, char **argv)
{
    if (argc != 3)
        return 2;
    cmark_gfm_core_extensions_ensure_registered();
    DIR *dh = opendir(argv[1]);
    if (!dh || mkdir(argv[2], 0755) != 0)
        return 1;
    struct dirent *e;
    int pages = 0;
    char path[4096];
    while ((e = readdir(dh))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 3, ".md") != 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", argv[1], e->d_name);
        size_t len;
        char *text = slurp(path, &len);
        if (!text)
            return 1;
        const char *body = text;
        if (strncmp(text, "---\n", 4) == 0) {
            const char *end = strstr(text + 4, "\n---\n");
            if (end)
                body = end + 5;
        }
        cmark_parser *p = cmark_parser_new(CMARK_OPT_DEFAULT);
        static const char *const exts[] = {"table", "autolink", "strikethrough"};
        for (int i = 0; i < 3; i++)
            cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension(exts[i]));
        cmark_parser_feed(p, body, len - (size_t)(body - text));
        cmark_node *doc = cmark_parser_finish(p);
        char *html =
            cmark_render_html(doc, CMARK_OPT_DEFAULT, cmark_parser_get_syntax_extensions(p));
        e->d_name[l - 3] = '\0';
        snprintf(path, sizeof path, "%s/%s", argv[2], e->d_name);
        mkdir(path, 0755);
        snprintf(path, sizeof path, "%s/%s/index.html", argv[2], e->d_name);
        FILE *f = fopen(path, "wb");
        if (!f)
            return 1;
        fputs(html, f);
        fclose(f);
        free(html);
        cmark_node_free(doc);
        cmark_parser_free(p);
        free(text);
        pages++;
    }
    closedir(dh);
    printf("{\"pages\":%d}\n", pages);
    return 0;
}
