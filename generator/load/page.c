/* page.c — front matter of content pages (title, summary, boards, levels,
 * charts, slug, order, template). The body is kept as read and rendered
 * later (render/pages.c). */
#include "load/page.h"
#include "base/util.h"
#include "load/ydoc.h"
#include "load/yread.h"

#include <stdlib.h>
#include <string.h>

static const char *const page_keys[] = {"title", "summary",  "boards", "levels",  "charts",
                                        "slug",  "order",    "template", "date",   "updated",
                                        "labels"};

/* `labels: {errors: dead-lettered}`: the page's own word for a measure,
 * used in its compare tables, levels and charts. */
static void read_labels(const char *path, const ynode *v, bp_page *p, diag *d)
{
    if (yexpect(path, v, YN_MAP, "labels", d) != 0)
        return;
    const char *names[SIM_M_COUNT];
    for (int m = 0; m < SIM_M_COUNT; m++)
        names[m] = sim_measure_name((sim_measure)m);
    p->labels = xcalloc(v->n / 2 + 1, sizeof *p->labels);
    for (size_t i = 0; i + 1 < v->n; i += 2) {
        const ynode *k = v->kids[i], *val = v->kids[i + 1];
        int m = sim_measure_from_name(k->s);
        if (m < 0) {
            diag_unknown(d, path, k->line, k->col, "measure|in labels", k->s, names, SIM_M_COUNT);
            continue;
        }
        char *t = NULL;
        if (yread_text(path, val, "a label", &t, d) != 0)
            continue;
        if (!t[0] || strlen(t) > 60) {
            diag_error(d, path, val->line, val->col,
                       "a label is 1 to 60 characters: the page's word for %s in its tables",
                       k->s);
            free(t);
            continue;
        }
        p->labels[p->n_labels++] = (bp_label){(sim_measure)m, t, {val->line, val->col}};
    }
}

/* `date:` or `updated:`, a day YYYY-MM-DD, into out ("" when absent). */
static void read_day(const char *path, const ynode *fm, const char *key, char out[11], diag *d)
{
    const ynode *v = ymap_get(fm, key);
    char *t = NULL;
    if (!v || yread_text(path, v, key, &t, d) != 0)
        return;
    if (yread_valid_day(t))
        memcpy(out, t, 11);
    else
        diag_error(d, path, v->line, v->col,
                   "%s '%s' is not a day: write it as YYYY-MM-DD, such as 2026-12-02", key, t);
    free(t);
}

/* Length of the line at text[i] without its newline; *next is the next line. */
static size_t line_at(const char *text, size_t len, size_t i, size_t *next)
{
    size_t j = i;
    while (j < len && text[j] != '\n')
        j++;
    *next = j < len ? j + 1 : j;
    size_t l = j - i;
    if (l > 0 && text[i + l - 1] == '\r')
        l--;
    return l;
}

int page_split(const char *text, size_t len, size_t *fm_start, size_t *fm_len, size_t *body_offset,
               int *body_line)
{
    /* Editors on Windows may start a UTF-8 file with a byte order mark. */
    size_t start = len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0 ? 3 : 0;
    size_t next;
    size_t l = line_at(text, len, start, &next);
    if (!(l == 3 && memcmp(text + start, "---", 3) == 0))
        return 1;
    *fm_start = next;
    int line = 2;
    for (size_t i = next; i < len; line++) {
        size_t after;
        size_t ll = line_at(text, len, i, &after);
        if (ll == 3 && (memcmp(text + i, "---", 3) == 0 || memcmp(text + i, "...", 3) == 0)) {
            *fm_len = i - *fm_start;
            *body_offset = after;
            *body_line = line + 1;
            return 0;
        }
        i = after;
    }
    return -1;
}

bool page_valid_slug(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 64)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
            return false;
    return true;
}

static void read_refs(const char *path, const ynode *v, const char *what, bp_ref **out, size_t *n,
                      diag *d)
{
    if (yexpect(path, v, YN_SEQ, what, d) != 0)
        return;
    *out = xcalloc(v->n ? v->n : 1, sizeof **out);
    for (size_t i = 0; i < v->n; i++) {
        char *s = NULL;
        if (yread_text(path, v->kids[i], "a file path", &s, d) != 0)
            continue;
        for (size_t k = 0; k < *n; k++) {
            if (strcmp((*out)[k].path, s) == 0) {
                diag_error(d, path, v->kids[i]->line, v->kids[i]->col, "'%s' is listed twice in %s",
                           s, what);
                break;
            }
        }
        (*out)[*n].path = s;
        (*out)[*n].pos.line = v->kids[i]->line;
        (*out)[*n].pos.col = v->kids[i]->col;
        (*n)++;
    }
}

bp_page *page_parse(const char *path, const char *text, size_t len, const char *slug_default,
                    diag *d)
{
    size_t mark = diag_mark(d);
    size_t fm_start = 0, fm_len = 0;
    bp_page *p = xcalloc(1, sizeof *p);
    p->path = xstrdup(path);
    p->is_home = strcmp(slug_default, "index") == 0;
    p->template_name = xstrdup("page");

    size_t bad_at;
    unsigned cp;
    int line, col;
    if (!utf8_valid(text, len, &bad_at)) {
        text_pos(text, bad_at, &line, &col);
        diag_error(d, path, line, col, "%s",
                   text[bad_at] == '\0' ? "NUL byte in the page (is it a text file?)"
                                        : "invalid UTF-8 (pages must be UTF-8 encoded)");
        goto out;
    }
    if ((bad_at = text_control_at(text, len, &cp)) < len) {
        text_pos(text, bad_at, &line, &col);
        diag_error(d, path, line, col,
                   "control character U+%04X in the page; text may not hold one: remove it", cp);
        goto out;
    }
    if (len == 0) {
        diag_error(d, path, 1, 1, "the page is empty; it needs front matter with a title");
        goto out;
    }
    int rc = page_split(text, len, &fm_start, &fm_len, &p->body_offset, &p->body_line);
    if (rc == 1) {
        diag_error(d, path, 1, 1,
                   "the page needs front matter: start it with a line '---', then 'title: ...', "
                   "then '---'");
        goto out;
    }
    if (rc == -1) {
        diag_error(d, path, 1, 1, "front matter starts with '---' but has no closing '---' line");
        goto out;
    }
    bool empty = false;
    ynode *fm = yaml_parse(path, text + fm_start, fm_len, 1, d, &empty);
    if (!fm) {
        if (empty)
            diag_error(d, path, 2, 1, "front matter is empty; it needs at least a title");
        goto out;
    }
    if (yexpect(path, fm, YN_MAP, "front matter", d) != 0) {
        ynode_free(fm);
        goto out;
    }
    ycheck_keys(path, fm, "front matter key", page_keys, sizeof page_keys / sizeof page_keys[0], d);
    const ynode *v;
    if (!(v = ymap_get(fm, "title"))) {
        /* a misspelt title was reported as an unknown key with its hint:
         * one error for the one cause */
        static const char *const title[] = {"title"};
        bool misspelt = false;
        for (size_t i = 0; i + 1 < fm->n && !misspelt; i += 2)
            misspelt = diag_suggest(fm->kids[i]->s, title, 1) != NULL;
        if (!misspelt)
            diag_error(d, path, 2, 1, "front matter needs a title");
    } else
        yread_text(path, v, "title", &p->title, d);
    if ((v = ymap_get(fm, "summary")))
        yread_text(path, v, "summary", &p->summary, d);
    if ((v = ymap_get(fm, "boards")))
        read_refs(path, v, "boards", &p->boards, &p->n_boards, d);
    if ((v = ymap_get(fm, "levels")))
        read_refs(path, v, "levels", &p->levels, &p->n_levels, d);
    if ((v = ymap_get(fm, "charts")))
        read_refs(path, v, "charts", &p->charts, &p->n_charts, d);
    if ((v = ymap_get(fm, "labels")))
        read_labels(path, v, p, d);
    read_day(path, fm, "date", p->date, d);
    read_day(path, fm, "updated", p->updated, d);
    if (p->date[0] && p->updated[0] && strcmp(p->updated, p->date) < 0) {
        v = ymap_get(fm, "updated");
        diag_error(d, path, v->line, v->col, "updated %s is before the page's date %s", p->updated,
                   p->date);
    }
    int64_t order = 0;
    if ((v = ymap_get(fm, "order")) &&
        yread_int(path, v, "order", -1000000, 1000000, &order, d) == 0)
        p->order = (int)order;
    if ((v = ymap_get(fm, "template"))) {
        char *t = NULL;
        if (yread_id(path, v, "template", &t, d) == 0) {
            free(p->template_name);
            p->template_name = t;
            p->template_pos.line = v->line;
            p->template_pos.col = v->col;
        }
    }
    if ((v = ymap_get(fm, "slug"))) {
        if (p->is_home) {
            diag_error(d, path, v->line, v->col, "the home page (index.md) cannot have a slug");
        } else if (v->type == YN_SCALAR && !page_valid_slug(v->s)) {
            diag_error(d, path, v->line, v->col,
                       "slug '%s' may only use a-z, 0-9 and '-' (1 to 64 characters), so it "
                       "stays inside the output folder",
                       v->s);
        } else if (yread_text(path, v, "slug", &p->slug, d) == 0) {
            p->slug_pos.line = v->line;
            p->slug_pos.col = v->col;
        }
    }
    ynode_free(fm);
    p->body_len = len - p->body_offset;
    p->body = xstrndup(text + p->body_offset, p->body_len);
    if (!p->slug) {
        if (p->is_home)
            p->slug = xstrdup("");
        else if (page_valid_slug(slug_default))
            p->slug = xstrdup(slug_default);
        else
            diag_error(d, path, 0, 0,
                       "file name '%s.md' does not make a valid slug (a-z, 0-9, '-'); rename "
                       "it or set 'slug:'",
                       slug_default);
    }
out:
    if (diag_failed_since(d, mark)) {
        page_free(p);
        return NULL;
    }
    return p;
}
