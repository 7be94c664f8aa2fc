/* searchbench.c — what search adds to a build, for make bench.
 *
 *   searchbench ROUNDS PUBLIC
 *       reads every page a build wrote under PUBLIC (index.html and
 *       SLUG/index.html), takes its body (inside <article>, else <main>),
 *       and ROUNDS times cuts each into sections and writes the index with
 *       the build's own code (render/search.c): the work a build does for
 *       search, timed alone. Prints ms per build and the index's bytes.
 *
 * One JSON line on stdout. Linked like drawbench (tests/bench/run.py). */
#define _GNU_SOURCE
#include "render/render_internal.h"
#include "base/util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct {
    char *url, *title, *body;
} page;

/* The text between the first open and the last close tag, or NULL. */
static char *between(const char *html, const char *open, const char *close)
{
    const char *a = strstr(html, open);
    const char *b = a ? strstr(a, close) : NULL;
    if (!a || !b)
        return NULL;
    const char *last = b;
    while ((b = strstr(b + 1, close)))
        last = b;
    a = strchr(a, '>');
    return a && a < last ? xstrndup(a + 1, (size_t)(last - a - 1)) : NULL;
}

static int load(const char *path, const char *url, page *p)
{
    char *html;
    size_t len;
    if (file_read(path, (size_t)64 << 20, &html, &len) != 0)
        return -1;
    p->url = xstrdup(url);
    p->body = between(html, "<article", "</article>");
    if (!p->body)
        p->body = between(html, "<main", "</main>");
    p->title = between(html, "<h1", "</h1>");
    free(html);
    if (!p->body || !p->title)
        return -1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: searchbench ROUNDS PUBLIC\n");
        return 2;
    }
    int rounds = atoi(argv[1]);
    const char *pub = argv[2];
    page *pages = NULL;
    size_t n = 0, cap = 0;
    char *home = xasprintf("%s/index.html", pub);
    pages = xgrow(pages, sizeof *pages, &cap, n + 1);
    if (load(home, "", &pages[n]) == 0)
        n++;
    free(home);
    DIR *d = opendir(pub);
    if (!d) {
        perror(pub);
        return 1;
    }
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "static"))
            continue;
        char *path = xasprintf("%s/%s/index.html", pub, e->d_name);
        char *url = xasprintf("%s/", e->d_name);
        pages = xgrow(pages, sizeof *pages, &cap, n + 1);
        if (load(path, url, &pages[n]) == 0)
            n++;
        free(path);
        free(url);
    }
    closedir(d);
    size_t bytes = 0;
    double t0 = now_s();
    for (int r = 0; r < rounds; r++) {
        page_info *info = xcalloc(n + 1, sizeof *info);
        search_page *sp = xcalloc(n + 1, sizeof *sp);
        for (size_t i = 0; i < n; i++) {
            search_sections(&info[i], pages[i].body, strlen(pages[i].body));
            search_page_terms(&info[i], pages[i].title);
            sp[i] = (search_page){pages[i].url, pages[i].title, &info[i]};
        }
        buf js;
        buf_init(&js);
        search_index_js(&js, sp, n);
        bytes = js.len;
        buf_free(&js);
        for (size_t i = 0; i < n; i++)
            page_info_free(&info[i]);
        free(info);
        free(sp);
    }
    double ms = (now_s() - t0) * 1000 / (rounds > 0 ? rounds : 1);
    printf("{\"pages\": %zu, \"ms_per_build\": %.3f, \"index_bytes\": %zu}\n", n, ms, bytes);
    for (size_t i = 0; i < n; i++) {
        free(pages[i].url);
        free(pages[i].title);
        free(pages[i].body);
    }
    free(pages);
    return 0;
}
