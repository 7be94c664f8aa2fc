/* render.h — the render stage of a build: every page of the site model to
 * HTML through its template, with its placeholders and directives expanded
 * from the measured results and the drawings the draw stage made (draw/),
 * plus the default home page and the sitemap. The files go to a sink the
 * caller gives: the renderer never knows where they end up. */
#ifndef BP_RENDER_H
#define BP_RENDER_H

#include "base/diag.h"
#include "model/site.h"

#include <stddef.h>

/* Where rendered files go (the orchestrator connects it to the output
 * tree, write/output.h). open gives a handle for the files of page seq
 * (0 .. n_pages-1 in page order, n_pages for the site's own files: the
 * default home page, the sitemap), used by one thread at a time; write
 * stores one file through it (rel: '/'-separated, relative to the site's
 * root; returns 0, or -1 after reporting to d); close lets it go. */
typedef struct {
    void *(*open)(void *ctx, size_t seq);
    int (*write)(void *handle, const char *rel, const void *data, size_t len, diag *d);
    void (*close)(void *handle);
    void *ctx;
} render_sink;

/* Render the site (after simulate_site): templates are loaded once each
 * (templates/), then every page on --jobs threads (after draw_site:
 * draw/figures.h), each read, rendered and written then dropped. Every problem is reported to s->d in page order,
 * whatever the threads did. sink NULL: render and check, write nothing
 * (`boardpress check`). */
void render_site(site *s, const render_sink *sink);

/* Before the draw stage: mark the board files whose diagram or timeline a
 * page's directive shows (bp_variant's shows_diagram, shows_timeline), by
 * the placeholders render_site will expand, found the same way (Markdown's
 * text, not its code); only pages that list boards are read. Reports
 * nothing: a page's errors are render_site's to say. */
void render_scan(site *s);

/* A page directive ({{ board ID }} ...) as the reference tells it. */
typedef struct {
    const char *name;   /* the first word: "board" */
    const char *syntax; /* how it is written: "{{ board ID }}" */
    const char *help;   /* one line: what it shows */
    bool in_text;       /* inside a sentence; the others stand alone in their paragraph */
} render_directive;

/* The directives, in the reference's order, from the renderer's one table
 * (render/expand.c): how many, and the i-th (NULL past the end; static,
 * never freed). */
size_t render_directive_count(void);
const render_directive *render_directive_at(size_t i);

#endif
