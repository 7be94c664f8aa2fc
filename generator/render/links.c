/* links.c — every link and image of the pages' Markdown checked once all
 * pages are rendered: a link inside the site must lead to a page, a file a
 * page wrote (a drawing, results.json), a file the site itself writes, or
 * a file of the static folder, and its #fragment to an id on that page; a
 * link out of the site is checked for its form only (nothing is fetched). */
#include "render/render_internal.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ------------------------------------------------------------ recording */

void links_record(void *ctx, const char *url, int line, int col)
{
    page_info *pi = ctx;
    pi->links = xgrow(pi->links, sizeof *pi->links, &pi->cap_links, pi->n_links + 1);
    pi->links[pi->n_links++] = (page_link){xstrdup(url), line, col};
}

void page_info_free(page_info *pi)
{
    for (size_t i = 0; i < pi->n_links; i++)
        free(pi->links[i].url);
    free(pi->links);
    strset_free(&pi->ids);
    strset_free(&pi->files);
    for (size_t i = 0; i < pi->n_sections; i++) {
        free(pi->sections[i].id);
        free(pi->sections[i].heading);
        free(pi->sections[i].text);
    }
    free(pi->sections);
    free(pi->terms);
    memset(pi, 0, sizeof *pi);
}

/* ------------------------------------------------------------ external links */

/* Schemes a reader's browser opens; anything else is most likely a typo. */
static const char *const schemes[] = {"https", "http", "mailto", "tel", "ftp"};
#define N_SCHEMES (sizeof schemes / sizeof schemes[0])

/* The schemes the Markdown renderer drops from links (unless the site
 * allows raw HTML): not a typo of the ones above. */
static bool dropped_scheme(const char *scheme)
{
    return !strcmp(scheme, "javascript") || !strcmp(scheme, "vbscript") ||
           !strcmp(scheme, "data") || !strcmp(scheme, "file");
}

/* The length of url's scheme (RFC 3986: a letter, then letters, digits,
 * '+', '-', '.'; then ':'), or 0 when it has none. */
static size_t scheme_len(const char *url)
{
    if (!isalpha((unsigned char)url[0]))
        return 0;
    size_t i = 1;
    while (isalnum((unsigned char)url[i]) || url[i] == '+' || url[i] == '-' || url[i] == '.')
        i++;
    return url[i] == ':' ? i : 0;
}

/* What is wrong with the form of an external link, or NULL. why gets the
 * message for the schemes that need one. */
static const char *external_problem(const char *url, size_t slen, char *why, size_t n)
{
    for (const char *p = url; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == 0x7f)
            return "it holds a space or a control character (write %20)";
    char scheme[16] = "";
    if (slen && slen < sizeof scheme)
        for (size_t i = 0; i < slen; i++)
            scheme[i] = (char)tolower((unsigned char)url[i]);
    const char *rest = url + slen + (slen ? 1 : 0);
    if (!slen || !strcmp(scheme, "http") || !strcmp(scheme, "https") || !strcmp(scheme, "ftp")) {
        if (strncmp(rest, "//", 2) != 0)
            return "an address needs '//' and a host after its scheme";
        const char *h = rest + 2, *e = h;
        if (*e == '[') { /* an IPv6 literal */
            e = strchr(e, ']');
            if (!e)
                return "its host has no closing ']'";
            e++;
        } else {
            while (isalnum((unsigned char)*e) || *e == '-' || *e == '.' || *e == '_' ||
                   (unsigned char)*e >= 0x80)
                e++;
        }
        if (e == h)
            return "it names no host";
        if (*e == ':') {
            e++;
            while (isdigit((unsigned char)*e))
                e++;
        }
        if (*e && *e != '/' && *e != '?' && *e != '#') {
            snprintf(why, n, "its host ends at an unexpected '%c'", *e);
            return why;
        }
        return NULL;
    }
    if (!strcmp(scheme, "mailto")) {
        const char *at = strchr(rest, '@'), *q = strchr(rest, '?');
        if (!at || at == rest || !at[1] || at[1] == '?' || (q && q < at))
            return "a mailto: address needs a name, '@' and a domain";
        return NULL;
    }
    if (!strcmp(scheme, "tel")) {
        if (!*rest)
            return "a tel: link needs a number";
        return NULL;
    }
    return NULL;
}

/* ------------------------------------------------------------ links inside the site */

/* The pages other than the home page in their slugs' order (s->pages is
 * in the nav's), for finding a link's page without reading every page. */
typedef struct {
    const char *slug;
    size_t page; /* index into s->pages */
} slug_at;

typedef struct {
    slug_at *at;
    size_t n;
} slug_index;

static int slug_cmp(const void *a, const void *b)
{
    const slug_at *x = a, *y = b;
    int c = strcmp(x->slug, y->slug);
    return c ? c : (x->page > y->page) - (x->page < y->page);
}

static slug_index slugs_of(const site *s)
{
    slug_index ix = {xcalloc(s->n_pages + 1, sizeof(slug_at)), 0};
    for (size_t i = 0; i < s->n_pages; i++)
        if (!s->pages[i]->is_home)
            ix.at[ix.n++] = (slug_at){s->pages[i]->slug, i};
    qsort(ix.at, ix.n, sizeof *ix.at, slug_cmp);
    return ix;
}

/* strcmp of slug and key[0..len) (no NUL in it). */
static int key_cmp(const char *slug, const char *key, size_t len)
{
    int c = strncmp(slug, key, len);
    return c ? c : slug[len] != '\0';
}

/* The first of the pages whose slug is key[0..len), as an index into
 * ix->at (ix->n: none); the others with that slug follow it. */
static size_t slug_find(const slug_index *ix, const char *key, size_t len)
{
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (key_cmp(ix->at[mid].slug, key, len) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < ix->n && !key_cmp(ix->at[lo].slug, key, len) ? lo : ix->n;
}

/* The page whose folder is target ("slug/" or "slug/index.html"; "" or
 * "index.html" for the home page), or s->n_pages. */
static size_t page_of(const site *s, const slug_index *ix, const char *target)
{
    if (!*target || !strcmp(target, "index.html")) /* the home page sorts first */
        return s->n_pages && s->pages[0]->is_home ? 0 : s->n_pages;
    size_t n = strlen(target), l;
    if (n >= 11 && !strcmp(target + n - 11, "/index.html"))
        l = n - 11;
    else if (target[n - 1] == '/')
        l = n - 1;
    else
        return s->n_pages;
    size_t k = slug_find(ix, target, l);
    return k < ix->n ? ix->at[k].page : s->n_pages;
}

/* Percent-decoded copy of s[0..n) (an invalid escape stays as written). */
static char *decoded(const char *s, size_t n)
{
    char *out = xmalloc(n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%' && i + 2 < n && isxdigit((unsigned char)s[i + 1]) &&
            isxdigit((unsigned char)s[i + 2])) {
            char hex[3] = {s[i + 1], s[i + 2], 0};
            *o++ = (char)strtol(hex, NULL, 16);
            i += 2;
        } else
            *o++ = s[i];
    }
    *o = 0;
    return out;
}

/* The link's path resolved from the page's folder dir ("" or "slug/") into
 * a path from the site's root, with "." and ".." taken away; NULL when it
 * climbs above the root. A path that starts with '/' is from the site's
 * root (less the path of base_url, when it starts with that). */
static char *resolve(const site *s, const char *dir, const char *path)
{
    buf b;
    buf_init(&b);
    if (path[0] == '/') {
        const char *base = s->cfg.base_url, *bp = strstr(base, "://");
        bp = bp ? strchr(bp + 3, '/') : NULL;
        size_t bl = bp ? strlen(bp) : 0;
        path = bl > 1 && !strncmp(path, bp, bl) ? path + bl : path + 1;
    } else {
        buf_puts(&b, dir);
    }
    buf_puts(&b, path);
    char *joined = buf_detach(&b);
    /* segments, with "." dropped and ".." taking the one before */
    size_t n = strlen(joined);
    char **seg = xcalloc(n + 2, sizeof *seg);
    size_t k = 0;
    bool above = false, trailing = n && joined[n - 1] == '/';
    for (char *tok = joined, *next; tok; tok = next) {
        next = strchr(tok, '/');
        if (next)
            *next++ = 0;
        if (!*tok || !strcmp(tok, "."))
            continue;
        if (!strcmp(tok, "..")) {
            if (k == 0)
                above = true;
            else
                k--;
            continue;
        }
        seg[k++] = tok;
    }
    char *out = NULL;
    if (!above) {
        buf r;
        buf_init(&r);
        for (size_t i = 0; i < k; i++) {
            if (i)
                buf_putc(&r, '/');
            buf_puts(&r, seg[i]);
        }
        if (k && (trailing || !strcmp(path, ".") || !strcmp(path, "..")))
            buf_putc(&r, '/');
        out = r.data ? buf_detach(&r) : xstrdup("");
        buf_free(&r);
    }
    free(seg);
    free(joined);
    return out;
}

/* True when target (from the site's root) is a file of the static folder
 * (copied to static/), a regular file inside it. */
static bool static_file(const site *s, const char *target)
{
    if (strncmp(target, "static/", 7) != 0 || !target[7])
        return false;
    char *path = xasprintf("%s/%s", s->opt.statics, target + 7);
    struct stat st;
    bool ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    free(path);
    return ok;
}

/* The files the site itself writes at its root (render_site). */
static bool site_file(const site *s, const char *target)
{
    if (!strcmp(target, FEED_FILE))
        return true;
    if (!strcmp(target, "sitemap.xml"))
        return s->cfg.base_url[0] != 0;
    return false;
}

/* target as the page in folder dir would write it: "../x/" or "x/". */
static char *relative_to(const char *dir, const char *target)
{
    size_t l = strlen(dir);
    if (l && !strncmp(target, dir, l))
        return xstrdup(target + l);
    return xasprintf("%s%s", l ? "../" : "", target);
}

/* Every target a link may name (from the site's root): the pages' folders
 * and the files they wrote, and the static files in want's folder when it
 * names one; the caller frees the array and its strings. */
static char **known_targets(const site *s, const page_info *info, const char *want, size_t *n)
{
    size_t cap = 0, k = 0;
    char **t = NULL;
    for (size_t i = 0; i < s->n_pages; i++) {
        const bp_page *p = s->pages[i];
        t = xgrow(t, sizeof *t, &cap, k + 1);
        t[k++] = p->is_home ? xstrdup("") : xasprintf("%s/", p->slug);
        const strset *f = &info[i].files;
        for (size_t j = 0; j < f->cap; j++)
            if (f->slots[j]) {
                t = xgrow(t, sizeof *t, &cap, k + 1);
                t[k++] =
                    p->is_home ? xstrdup(f->slots[j]) : xasprintf("%s/%s", p->slug, f->slots[j]);
            }
    }
    /* the static files beside the one asked for (one folder, not a walk) */
    if (!strncmp(want, "static/", 7)) {
        const char *slash = strrchr(want, '/');
        char *sub = xstrndup(want + 7, (size_t)(slash - want) - 6);
        char *dirpath = xasprintf("%s/%s", s->opt.statics, sub);
        DIR *dp = opendir(dirpath);
        for (struct dirent *e; dp && (e = readdir(dp));) {
            if (e->d_name[0] == '.')
                continue;
            t = xgrow(t, sizeof *t, &cap, k + 1);
            t[k++] = xasprintf("static/%s%s", sub, e->d_name);
        }
        if (dp)
            closedir(dp);
        free(dirpath);
        free(sub);
    }
    *n = k;
    return t;
}

/* The ids of a strset as an array (valid while the set is unchanged). */
static const char **ids_of(const strset *ids, size_t *n)
{
    const char **a = xcalloc(ids->n + 1, sizeof *a);
    size_t k = 0;
    for (size_t j = 0; j < ids->cap; j++)
        if (ids->slots[j])
            a[k++] = ids->slots[j];
    *n = k;
    return a;
}

/* A #fragment of a page: an id, or the page script's state form (tokens
 * joined with '&', each ID or ID=STATE); every ID must be on the page. */
static void check_fragment(site *s, const bp_page *p, const page_link *l, const char *frag,
                           const bp_page *target, const page_info *ti)
{
    char *f = decoded(frag, strlen(frag));
    for (char *tok = f, *next; tok && *tok; tok = next) {
        next = strchr(tok, '&');
        if (next)
            *next++ = 0;
        char *eq = strchr(tok, '=');
        if (eq)
            *eq = 0;
        if (!*tok || strset_has(&ti->ids, tok))
            continue;
        size_t n;
        const char **ids = ids_of(&ti->ids, &n);
        const char *near = diag_suggest(tok, ids, n);
        const char *where = target == p ? "this page" : target->title;
        if (near)
            diag_error(&s->d, p->path, l->line, l->col,
                       "link to '%s': no heading or figure with id '%s' on %s%s%s; did you "
                       "mean '%.*s#%s'?",
                       l->url, tok, target == p ? "" : "'", where, target == p ? "" : "'",
                       (int)strcspn(l->url, "#"), l->url, near);
        else
            diag_error(&s->d, p->path, l->line, l->col,
                       "link to '%s': no heading or figure with id '%s' on %s%s%s", l->url, tok,
                       target == p ? "" : "'", where, target == p ? "" : "'");
        free(ids);
        break;
    }
    free(f);
}

/* A link inside the site to nothing: the hint is the nearest target as
 * this page would write it, compared with the path as written. */
static void report_missing(site *s, const page_info *info, const slug_index *ix,
                           const bp_page *p, const page_link *l, const char *dir, const char *path,
                           const char *target)
{
    char *slashed = xasprintf("%s/", target);
    if (page_of(s, ix, slashed) < s->n_pages) {
        char *rel = relative_to(dir, slashed);
        diag_error_near(&s->d, p->path, l->line, l->col, rel,
                        "link to '%s': a page's address ends with '/' (opened from files, a "
                        "browser would list the folder)",
                        l->url);
        free(rel);
        free(slashed);
        return;
    }
    free(slashed);
    size_t n;
    char **known = known_targets(s, info, target, &n);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) { /* as this page writes them; not itself ("") */
        char *rel = relative_to(dir, known[i]);
        free(known[i]);
        if (*rel)
            known[k++] = rel;
        else
            free(rel);
    }
    const char *near = diag_suggest(path, (const char *const *)known, k);
    if (near || strncmp(target, "static/", 7))
        diag_error_near(&s->d, p->path, l->line, l->col, near,
                        "link to '%s': the site has no page or file '%s'", l->url, target);
    else
        diag_error(&s->d, p->path, l->line, l->col,
                   "link to '%s': the static folder has no file '%s'", l->url, target + 7);
    for (size_t i = 0; i < k; i++)
        free(known[i]);
    free(known);
}

/* Whether target is a file page i wrote into its folder (or its card). */
static bool page_file(const site *s, const page_info *info, size_t i, const char *target)
{
    const bp_page *q = s->pages[i];
    size_t ql = q->is_home ? 0 : strlen(q->slug);
    const char *name = target + (ql ? ql + 1 : 0);
    return strset_has(&info[i].files, name) ||
           (s->cfg.base_url[0] && !strcmp(name, CARD_FILE));
}

/* Whether target is a file a page wrote: the home page's when it has no
 * '/', else that of a page whose slug is target up to one of its '/'. */
static bool pages_file(const site *s, const page_info *info, const slug_index *ix,
                       const char *target)
{
    if (!strchr(target, '/'))
        for (size_t i = 0; i < s->n_pages && s->pages[i]->is_home; i++)
            if (page_file(s, info, i, target))
                return true;
    for (const char *slash = strchr(target, '/'); slash; slash = strchr(slash + 1, '/')) {
        size_t len = (size_t)(slash - target);
        for (size_t k = slug_find(ix, target, len);
             k < ix->n && !key_cmp(ix->at[k].slug, target, len); k++)
            if (page_file(s, info, ix->at[k].page, target))
                return true;
    }
    return false;
}

static void check_one(site *s, const page_info *info, const slug_index *ix, size_t pi,
                      const page_link *l)
{
    const bp_page *p = s->pages[pi];
    const char *url = l->url;
    size_t slen = scheme_len(url);
    if (slen || !strncmp(url, "//", 2)) {
        char why[96];
        char scheme[16] = "";
        for (size_t i = 0; i < slen && i + 1 < sizeof scheme; i++)
            scheme[i] = (char)tolower((unsigned char)url[i]);
        bool known = !slen;
        for (size_t i = 0; i < N_SCHEMES && !known; i++)
            known = slen == strlen(schemes[i]) && !strcmp(scheme, schemes[i]);
        if (!known) {
            /* a scheme near one of these is a typo; any other is the
             * author's (an app's own, or one the renderer drops, as
             * javascript:) and passes */
            const char *near = diag_suggest(scheme, schemes, N_SCHEMES);
            if (near && !dropped_scheme(scheme)) {
                diag_note typo;
                diag_note_set(&typo, "link to '%s': unknown scheme '%s:'", url, scheme);
                diag_note_hint(&typo, false, "did you mean '%s:'?", near);
                diag_error_note(&s->d, p->path, l->line, l->col, &typo);
            }
            return;
        }
        const char *bad = external_problem(url, slen, why, sizeof why);
        if (bad)
            diag_error(&s->d, p->path, l->line, l->col, "link to '%s' is not a valid address: %s",
                       url, bad);
        return;
    }
    /* inside the site: path, then ?query (ignored), then #fragment */
    size_t plen = strcspn(url, "?#");
    const char *hash = strchr(url, '#');
    char *path = decoded(url, plen);
    const char *dir = p->is_home ? "" : NULL;
    char *dirbuf = p->is_home ? NULL : xasprintf("%s/", p->slug);
    if (!dir)
        dir = dirbuf;
    const bp_page *tp = NULL;
    const page_info *ti = NULL;
    char *target = NULL;
    if (!*path) {
        tp = p;
        ti = &info[pi];
    } else {
        target = resolve(s, dir, path);
        if (!target) {
            diag_error(&s->d, p->path, l->line, l->col,
                       "link to '%s' leads out of the site (above its top folder)", url);
            goto out;
        }
        size_t k = page_of(s, ix, target);
        if (k < s->n_pages) {
            tp = s->pages[k];
            ti = &info[k];
        } else if (!static_file(s, target) && !site_file(s, target) &&
                   !pages_file(s, info, ix, target)) {
            report_missing(s, info, ix, p, l, dir, path, target);
        }
    }
    if (tp && hash && hash[1])
        check_fragment(s, p, l, hash + 1, tp, ti);
out:
    free(target);
    free(path);
    free(dirbuf);
}

void links_check(site *s, const page_info *info)
{
    slug_index ix = slugs_of(s);
    for (size_t page = 0; page < s->n_pages; page++)
        for (size_t i = 0; i < info[page].n_links; i++)
            check_one(s, info, &ix, page, &info[page].links[i]);
    free(ix.at);
}
