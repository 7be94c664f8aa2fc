/* override.c — a board tree changed in one place ("parts.ID.KEY",
 * "parts.ID.KEY.SUBKEY" of a mapping setting, "links.A.B.KEY",
 * "traffic.KEY") for levels, charts and `boardpress sim --set`, and the
 * board that results (board.h). */
#include "load/board.h"
#include "load/fields.h"
#include "load/yread.h"

#include <stdlib.h>
#include <string.h>

/* Find the item of a list of mappings whose key equals value. */
static ynode *find_item(const ynode *list, const char *key, const char *value)
{
    if (!list || list->type != YN_SEQ)
        return NULL;
    for (size_t i = 0; i < list->n; i++) {
        const ynode *k = ymap_get(list->kids[i], key);
        if (k && k->type == YN_SCALAR && strcmp(k->s, value) == 0)
            return list->kids[i];
    }
    return NULL;
}

static ynode *find_link(const ynode *list, const char *from, const char *to)
{
    if (!list || list->type != YN_SEQ)
        return NULL;
    for (size_t i = 0; i < list->n; i++) {
        const ynode *f = ymap_get(list->kids[i], "from"), *t = ymap_get(list->kids[i], "to");
        if (f && t && f->type == YN_SCALAR && t->type == YN_SCALAR && strcmp(f->s, from) == 0 &&
            strcmp(t->s, to) == 0)
            return list->kids[i];
    }
    return NULL;
}

/* The ids of a board tree's parts (at most 64) into ids; returns how many. */
static size_t part_ids(const ynode *root, const char **ids)
{
    const ynode *list = ymap_get(root, "parts");
    size_t n = 0;
    for (size_t i = 0; list && list->type == YN_SEQ && i < list->n && n < 64; i++) {
        const ynode *id = ymap_get(list->kids[i], "id");
        if (id && id->type == YN_SCALAR)
            ids[n++] = id->s;
    }
    return n;
}

/* " (it has links.A.B and links.B.C)": the links a path may name, when a
 * board has at most 8 (a wrong end is likelier than a misspelling). */
static void board_links_text(const ynode *root, buf *out)
{
    const ynode *list = ymap_get(root, "links");
    if (!list || list->type != YN_SEQ || list->n == 0 || list->n > 8)
        return;
    for (size_t i = 0; i < list->n; i++) {
        const ynode *a = ymap_get(list->kids[i], "from"), *b = ymap_get(list->kids[i], "to");
        if (!a || !b || a->type != YN_SCALAR || b->type != YN_SCALAR)
            continue;
        buf_puts(out, out->len ? (i + 1 == list->n ? " and " : ", ") : " (it has ");
        buf_printf(out, "links.%s.%s", a->s, b->s);
    }
    if (out->len)
        buf_putc(out, ')');
}

/* Point the key of map whose value is v at src, so that errors about a
 * key the override added name the override rather than the board. */
static void key_from(ynode *map, const ynode *v, const char *src)
{
    for (size_t i = 0; i + 1 < map->n; i += 2)
        if (map->kids[i + 1] == v)
            map->kids[i]->file = src;
}

/* The mapping under part's setting whose key a four-part path sets: the
 * one there, or one made in its place. The one setting with keys is
 * redelivery_after, and its plain value T (a fixed wait) is the back-off
 * {first: T, factor: 1}: setting one key then changes that key only (max
 * alone caps nothing, jitter alone draws below T). With no value there,
 * {factor: 1} keeps the catalog's fixed wait as first in the same way. */
static ynode *key_map(ynode *part, const char *setting, const char *src, bp_pos at)
{
    ynode *m = ymap_get(part, setting);
    if (m && m->type != YN_SCALAR)
        return m; /* a mapping; anything else is reported by the caller */
    ynode *made = ynode_new_map(at.line, at.col);
    made->file = src;
    if (m)
        ymap_set(made, "first", ynode_clone(m), m->line, m->col);
    ynode *one = ynode_new_scalar("1", at.line, at.col);
    one->file = src;
    ymap_set(made, "factor", one, at.line, at.col);
    key_from(made, one, src);
    ymap_set(part, setting, made, at.line, at.col);
    key_from(part, made, src);
    return made;
}

int board_override(const char *board_path, ynode *root, const char *expr, const char *value,
                   const char *src, int line, int col, diag *d)
{
    bp_pos at = {line, col};
    return board_override_at(board_path, root, expr, value, src, at, at, d);
}

int board_override_at(const char *board_path, ynode *root, const char *expr, const char *value,
                      const char *src, bp_pos path_pos, bp_pos value_pos, diag *d)
{
    (void)board_path;
    int line = path_pos.line, col = path_pos.col;
    char *copy = xstrdup(expr);
    char *segs[5];
    size_t n = fields_split_path(copy, segs);
    ynode *target = NULL;
    const char *field = NULL;
    int rc = -1;
    if (!root || root->type != YN_MAP)
        goto out;
    if (n == 1 && (strcmp(segs[0], "seed") == 0 || strcmp(segs[0], "replications") == 0)) {
        target = root;
        field = segs[0];
    } else if (n == 2 && strcmp(segs[0], "traffic") == 0) {
        target = ymap_get(root, "traffic");
        field = segs[1];
    } else if ((n == 3 || n == 4) && strcmp(segs[0], "parts") == 0) {
        target = find_item(ymap_get(root, "parts"), "id", segs[1]);
        field = segs[2];
        if (!target) {
            const char *ids[64];
            size_t n_ids = part_ids(root, ids);
            const char *near = diag_suggest(segs[1], ids, n_ids);
            buf text; /* without a near id, every id */
            buf_init(&text);
            for (size_t i = 0; !near && i < n_ids; i++)
                buf_printf(&text, "%s%s",
                           i == 0           ? " (its parts: "
                           : i + 1 == n_ids ? " and "
                                            : ", ",
                           ids[i]);
            if (!near && n_ids)
                buf_putc(&text, ')');
            diag_error_near(d, src, line, col, near, "no part '%s' on the board%s", segs[1],
                            text.len ? text.data : "");
            buf_free(&text);
            goto out;
        }
        if (n == 4) {
            diag_note why;
            if (!fields_part_key(segs[1], segs[2], segs[3], &why)) {
                diag_error_note(d, src, line, col, &why);
                goto out;
            }
            target = key_map(target, segs[2], src, path_pos);
            field = segs[3];
        }
    } else if (n == 4 && strcmp(segs[0], "links") == 0) {
        target = find_link(ymap_get(root, "links"), segs[1], segs[2]);
        field = segs[3];
        if (!target) {
            buf has;
            buf_init(&has);
            board_links_text(root, &has);
            diag_error(d, src, line, col, "no link from '%s' to '%s' on the board%s", segs[1],
                       segs[2], has.data ? has.data : "");
            buf_free(&has);
            goto out;
        }
    } else {
        static const char *const firsts[] = {"parts", "links", "traffic", "seed", "replications"};
        const char *near = diag_suggest(segs[0], firsts, 5);
        const char *rest = strchr(expr, '.');
        if (near && strcmp(near, segs[0]) != 0) {
            diag_note why;
            diag_note_set(&why, "cannot set '%s'", expr);
            diag_note_hint(&why, false, "did you mean '%s%s'?", near, rest ? rest : "");
            diag_error_note(d, src, line, col, &why);
        } else
            diag_error(d, src, line, col, "cannot set '%s': write " FIELDS_PATH_FORMS, expr);
        goto out;
    }
    if (!target || target->type != YN_MAP) {
        diag_error(d, src, line, col, "cannot set '%s': the board has no such mapping", expr);
        goto out;
    }
    ynode *v = ynode_new_scalar(value, value_pos.line, value_pos.col);
    v->file = src;
    ymap_set(target, field, v, line, col);
    key_from(target, v, src);
    rc = 0;
out:
    free(copy);
    return rc;
}

bp_board *board_variant(const char *board_path, const ynode *tree, const board_setting *set,
                        size_t n, const bp_catalog *cat, const sim_limits *lim, diag *d)
{
    ynode *root = ynode_clone(tree);
    size_t mark = diag_mark(d);
    for (size_t i = 0; i < n; i++)
        board_override_at(board_path, root, set[i].set, set[i].value, set[i].src, set[i].set_pos,
                          set[i].pos, d);
    bp_board *b =
        !diag_failed_since(d, mark) ? board_from_tree(board_path, root, cat, lim, d) : NULL;
    ynode_free(root);
    return b;
}
