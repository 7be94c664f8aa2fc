/* build.c — `boardpress build` / `check`, the stages in order:
 *
 *   load      content/ into the site model              load/load.h
 *   simulate  every board variant once, then the claims  run/simulate.h
 *   draw      every drawing the pages show (their        draw/figures.h
 *             directives read first: render_scan), on    render/render.h
 *             --jobs threads (or from the drawing cache)
 *   render    every page through its template            render/render.h
 *   write     into a new output tree, swapped in only    write/output.h
 *             when nothing failed; a site with live boards
 *             also gets the simulator and its scripts        assets.h
 *
 * The site model (model/site.h) is made, owned and freed here; each stage
 * reads it and adds its part. A stage runs only when the ones before it
 * reported nothing. */
#include "build.h"
#include "assets.h"
#include "base/spans.h"
#include "draw/figures.h"
#include "load/load.h"
#include "render/render.h"
#include "run/cache.h"
#include "run/simulate.h"
#include "write/output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* The date the pages say they were measured: SOURCE_DATE_EPOCH when it is
 * set (reproducible builds), else today, in UTC. The moment to the second
 * (the feed's dates) is SOURCE_DATE_EPOCH's, else today's midnight: a
 * rebuild later the same day writes the same bytes, as the pages do. */
static void build_date(site *s)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    time_t t = time(NULL);
    t -= t % 86400;
    if (sde && *sde) {
        char *end;
        long long v = strtoll(sde, &end, 10);
        if (*end == '\0' && v >= 0)
            t = (time_t)v;
        else
            diag_error(&s->d, NULL, 0, 0,
                       "SOURCE_DATE_EPOCH must be a number of seconds, found '%s'", sde);
    }
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(s->date, sizeof s->date, "%Y-%m-%d", &tm);
    strftime(s->built_at, sizeof s->built_at, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The renderer's files go into the new output tree, each page's through a
 * handle of its own (outdir_view), so the journal lists them in page order
 * whatever thread wrote them. */
static void *out_open(void *ctx, size_t seq)
{
    return outdir_view(ctx, seq);
}

static int out_write(void *handle, const char *rel, const void *data, size_t len, diag *d)
{
    return outdir_write(handle, rel, data, len, d);
}

static void out_close(void *handle)
{
    outdir_view_free(handle);
}

/* A site with live boards gets the module and its scripts in static/; a
 * file of the same name in the static folder would be overwritten, so it
 * is an error, named. */
static void live_assets_check(site *s)
{
    for (size_t i = 0; i < bp_live_assets_n; i++) {
        char *path = xasprintf("%s/%s", s->opt.statics, bp_live_assets[i].name);
        struct stat st;
        if (lstat(path, &st) == 0)
            diag_error(&s->d, path, 0, 0,
                       "the site has live boards, and boardpress writes its own static/%s for "
                       "them: rename this file",
                       bp_live_assets[i].name);
        free(path);
    }
}

static void live_assets_write(outdir *out, diag *d)
{
    for (size_t i = 0; i < bp_live_assets_n; i++) {
        char *rel = xasprintf("static/%s", bp_live_assets[i].name);
        outdir_write(out, rel, bp_live_assets[i].data, bp_live_assets[i].len, d);
        free(rel);
    }
}

/* One line on stderr: what was built (or why not), in how long. */
static void summary(const site *s, int status, size_t written, size_t unchanged, double dt)
{
    const site_options *o = &s->opt;
    size_t runs = s->runs + s->cached + s->shared;
    if (status == 0) {
        fprintf(stderr,
                "boardpress: %s %zu page%s, %zu board%s, %zu level%s, %zu run%s "
                "(%zu simulated, %zu from the cache",
                o->write ? "built" : "checked", s->n_pages, s->n_pages == 1 ? "" : "s", s->n_boards,
                s->n_boards == 1 ? "" : "s", s->n_levels, s->n_levels == 1 ? "" : "s", runs,
                runs == 1 ? "" : "s", s->runs, s->cached);
        if (s->shared)
            fprintf(stderr, ", %zu the same as another", s->shared);
        fputc(')', stderr);
    } else
        fprintf(stderr, "boardpress: %d error%s; %s", s->d.errors, s->d.errors == 1 ? "" : "s",
                o->write ? "nothing written, the previous site is unchanged" : "check failed");
    if (status == 0 && o->write)
        fprintf(stderr, ", %zu files written, %zu unchanged", written, unchanged);
    fprintf(stderr, ", %.2f s\n", dt);
}

/* True when the build may go on: nothing reported, and not asked to stop
 * (said once, as an error, so nothing is written). */
static bool go_on(site *s, build_report *r)
{
    if (s->d.errors)
        return false;
    if (s->opt.cancel && atomic_load(s->opt.cancel)) {
        diag_error(&s->d, NULL, 0, 0, "interrupted; nothing written, %s is unchanged", s->opt.out);
        if (r)
            r->interrupted = true;
        return false;
    }
    return true;
}

static void add_changed(void *ctx, const char *rel)
{
    build_report *r = ctx;
    r->changed = xrealloc(r->changed, (r->n_changed + 1) * sizeof *r->changed);
    r->changed[r->n_changed++] = xstrdup(rel);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int site_build(const site_options *o)
{
    return site_build_report(o, NULL);
}

int site_build_report(const site_options *o, build_report *r)
{
    double t0 = clock_now_s();
    spans_begin();
    site s;
    site_init(&s, o);
    if (r)
        memset(r, 0, sizeof *r);
    build_date(&s);
    /* before anything is read or cached: the folders must not overlap */
    const char *sources[3] = {o->content, o->templates, o->statics};
    outdir_options oo = {o->out, sources, 3, o->cache};
    outdir_check(&oo, o->write, &s.d);
    /* the cache is only a speed-up: one that cannot be used (or trusted)
     * is said once and built without */
    if (s.d.errors == 0 && s.opt.cache && !cache_dir_usable(s.opt.cache, &s.d))
        s.opt.cache = oo.cache = NULL;

    double t = spans_now();
    if (go_on(&s, r))
        load_site(&s);
    span_add("stage", "load", t);
    bool live = go_on(&s, r) && site_live(&s);
    if (live)
        live_assets_check(&s);
    t = spans_now();
    if (go_on(&s, r))
        simulate_site(&s);
    span_add("stage", "simulate", t);
    t = spans_now();
    if (go_on(&s, r))
        simulate_check_claims(&s);
    span_add("stage", "claims", t);

    outdir *out = go_on(&s, r) && o->write ? outdir_begin(&oo, &s.d) : NULL;
    if (go_on(&s, r)) {
        render_sink sink = {out_open, out_write, out_close, out};
        t = spans_now();
        render_scan(&s);
        span_add("stage", "scan", t);
        t = spans_now();
        draw_site(&s);
        span_add("stage", "draw", t);
        t = spans_now();
        render_site(&s, out ? &sink : NULL);
        span_add("stage", "render", t);
        t = spans_now();
        if (out) {
            /* after every page's files and the site's own */
            outdir_set_seq(out, s.n_pages + 1);
            outdir_copy_tree(out, o->statics, "static", &s.d);
            if (live)
                live_assets_write(out, &s.d);
        }
    }
    size_t written = 0, unchanged = 0;
    if (out) {
        outdir_counts(out, &written, &unchanged);
        if (go_on(&s, r)) {
            if (r)
                outdir_changes(out, add_changed, r);
            outdir_commit(out, &s.d);
        } else {
            outdir_abort(out);
        }
    }
    span_add("stage", "write", t);

    int status = diag_exit_status(&s.d);
    if (status == 0 && s.warnings.len && s.d.out) {
        fputs(s.warnings.data, s.d.out);
        fflush(s.d.out);
    }
    if (!o->quiet && status == 0 && o->write && !s.cfg.base_url[0])
        fprintf(stderr, "boardpress: note: site.yaml has no base_url, so the pages have no share "
                        "tags (og:image needs an absolute address) and no cards (SLUG/card.png)\n");
    if (!o->quiet)
        summary(&s, status, written, unchanged, clock_now_s() - t0);
    if (r) {
        if (status != 0) { /* the commit failed: nothing changed */
            for (size_t i = 0; i < r->n_changed; i++)
                free(r->changed[i]);
            free(r->changed);
            r->changed = NULL;
            r->n_changed = 0;
        } else if (r->n_changed) {
            qsort(r->changed, r->n_changed, sizeof *r->changed, by_name);
        }
        r->simulated = s.runs;
        r->from_cache = s.cached;
        r->diags = diag_records_copy(&s.d, &r->n_diags);
    }
    site_free(&s);
    spans_end();
    return status;
}
