/* test_ydoc.c — the YAML tree: shape, 1-based positions (with the front
 * matter's line offset), plain vs quoted scalars, and every refused input
 * with its exact message and position. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gen_testlib.h"
#include "base/util.h"
#include "load/ydoc.h"

#include <stdlib.h>
#include <string.h>

static ynode *parse_n(const char *text, size_t len, int line_offset, diag *d, bool *empty)
{
    return yaml_parse("t.yaml", text, len, line_offset, d, empty);
}

static ynode *parse(const char *text, int line_offset, diag *d)
{
    bool empty = true;
    ynode *n = parse_n(text, strlen(text), line_offset, d, &empty);
    assert_false(empty);
    return n;
}

static void pos_is(const ynode *n, int line, int col)
{
    assert_non_null(n);
    if (n->line != line || n->col != col)
        fail_msg("node at %d:%d, want %d:%d", n->line, n->col, line, col);
}

/* Parse text, expect failure with exactly one message `want`. */
static void refused_n(const char *text, size_t len, int line_offset, const char *want)
{
    diag d;
    diag_init(&d, NULL);
    bool empty = true;
    ynode *n = parse_n(text, len, line_offset, &d, &empty);
    assert_null(n);
    assert_false(empty);
    assert_int_equal(d.errors, 1);
    assert_string_equal(diag_text(&d), want);
    diag_free(&d);
}

static void refused(const char *text, const char *want)
{
    refused_n(text, strlen(text), 0, want);
}

static void tree_shape(void **state)
{
    (void)state;
    const char *text = "id: mini\n"
                       "parts:\n"
                       "  - {id: a, kind: users}\n"
                       "  - id: b\n"
                       "    kind: \"service\"\n"
                       "title: 'It''s quoted'\n"
                       "empty:\n"
                       "list: [1, 2.5, \"\"]\n"
                       "é: ünï\n";
    diag d;
    diag_init(&d, NULL);
    ynode *root = parse(text, 0, &d);
    assert_int_equal(d.errors, 0);
    assert_non_null(root);
    assert_int_equal(root->type, YN_MAP);
    pos_is(root, 1, 1);
    assert_int_equal(root->n, 12); /* 6 keys, 6 values */
    assert_string_equal(root->kids[0]->s, "id");
    pos_is(root->kids[0], 1, 1);
    pos_is(root->kids[1], 1, 5);

    ynode *parts = ymap_get(root, "parts");
    assert_int_equal(parts->type, YN_SEQ);
    assert_int_equal(parts->n, 2);
    pos_is(parts, 3, 3);
    ynode *a = parts->kids[0], *b = parts->kids[1];
    assert_int_equal(a->type, YN_MAP);
    pos_is(a, 3, 5);
    assert_string_equal(ymap_get(a, "kind")->s, "users");
    pos_is(ymap_get(a, "kind"), 3, 19);
    pos_is(b, 4, 5);
    ynode *kind = ymap_get(b, "kind");
    assert_string_equal(kind->s, "service");
    assert_false(kind->plain);
    pos_is(kind, 5, 11); /* at the opening quote */
    assert_true(ymap_get(b, "id")->plain);

    ynode *title = ymap_get(root, "title");
    assert_string_equal(title->s, "It's quoted");
    assert_int_equal(title->len, 11);
    assert_false(title->plain);

    ynode *empty = ymap_get(root, "empty");
    assert_int_equal(empty->type, YN_SCALAR);
    assert_string_equal(empty->s, "");
    assert_int_equal(empty->len, 0);
    assert_true(empty->plain);

    ynode *list = ymap_get(root, "list");
    assert_int_equal(list->n, 3);
    assert_string_equal(list->kids[1]->s, "2.5");
    assert_true(list->kids[1]->plain);
    assert_string_equal(list->kids[2]->s, "");
    assert_false(list->kids[2]->plain);
    pos_is(list->kids[2], 8, 16);

    /* Columns count characters, not bytes. */
    ynode *u = ymap_get(root, "é");
    assert_string_equal(u->s, "ünï");
    pos_is(u, 9, 4);

    assert_null(ymap_get(root, "missing"));
    assert_null(ymap_get(parts, "id")); /* not a mapping */
    assert_null(ymap_get(NULL, "id"));
    assert_null(root->file);

    assert_string_equal(ynode_kind(root), "a mapping");
    assert_string_equal(ynode_kind(parts), "a list");
    assert_string_equal(ynode_kind(title), "a value");
    ynode_free(root);
    ynode_free(NULL);
    diag_free(&d);
}

static void line_offset(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    ynode *root = parse("title: x\nboards: [a, b]\n", 1, &d);
    pos_is(root, 2, 1);
    pos_is(ymap_get(root, "title"), 2, 8);
    pos_is(ymap_get(root, "boards")->kids[1], 3, 13);
    ynode_free(root);
    assert_int_equal(d.errors, 0);
    diag_free(&d);

    refused_n("a: 1\nb: 2\na: 3\n", 15, 10,
              "t.yaml:13:1: error: duplicate key 'a' (first given at line 11)\n");
    refused_n("a: 1\nb: x\xff\n", 11, 4,
              "t.yaml:6:5: error: invalid UTF-8 (files must be UTF-8 encoded)\n");
    refused_n("a:\n\tb: 1\n", 9, 7,
              "t.yaml:9:1: error: tab character: YAML is indented with spaces, not tabs\n");
}

static void empty_documents(void **state)
{
    (void)state;
    static const char *const texts[] = {"", "# only a comment\n", "\n\n   \n"};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        diag d;
        diag_init(&d, NULL);
        bool empty = false;
        assert_null(parse_n(texts[i], strlen(texts[i]), 0, &d, &empty));
        assert_true(empty);
        assert_int_equal(d.errors, 0);
        diag_free(&d);
    }
    /* An explicit document with nothing in it is one empty value. */
    diag d;
    diag_init(&d, NULL);
    ynode *n = parse("---\n", 0, &d);
    assert_int_equal(n->type, YN_SCALAR);
    assert_int_equal(n->len, 0);
    pos_is(n, 2, 1);
    ynode_free(n);
    /* "..." ends the one document. */
    n = parse("a: 1\n...\n", 0, &d);
    assert_string_equal(ymap_get(n, "a")->s, "1");
    ynode_free(n);
    assert_int_equal(d.errors, 0);
    /* empty may be NULL */
    assert_null(yaml_parse("t.yaml", "", 0, 0, &d, NULL));
    diag_free(&d);
}

static void refused_features(void **state)
{
    (void)state;
    refused("a: *x\n",
            "t.yaml:1:4: error: aliases ('*name') are not supported; write the value out\n");
    refused("a: 1\nb: &anchor 2\nc: *anchor\n",
            "t.yaml:2:4: error: anchors ('&name') are not supported; write the value out\n");
    refused("a: &x [1]\n",
            "t.yaml:1:4: error: anchors ('&name') are not supported; write the value out\n");
    refused("a: !foo 1\n", "t.yaml:1:4: error: tag '!foo' is not supported; remove it\n");
    refused("a: !!str 1\n",
            "t.yaml:1:4: error: tag 'tag:yaml.org,2002:str' is not supported; remove it\n");
    refused("x: 1\nparts: !!seq []\n",
            "t.yaml:2:8: error: tag 'tag:yaml.org,2002:seq' is not supported; remove it\n");
    refused("a: 1\nb: 2\na: 3\n", "t.yaml:3:1: error: duplicate key 'a' (first given at line 1)\n");
    refused("p:\n  - {id: x, id: y}\n",
            "t.yaml:2:13: error: duplicate key 'id' (first given at line 2)\n");
    refused("? [a, b]\n: 1\n", "t.yaml:1:3: error: a mapping key must be plain text, not a list\n");
    refused("{[a]: 1}", "t.yaml:1:2: error: a mapping key must be plain text, not a list\n");
    refused("? {a: 1}\n: 1\n",
            "t.yaml:1:3: error: a mapping key must be plain text, not a mapping\n");
    refused("a: 1\n---\nb: 2\n",
            "t.yaml:2:1: error: only one YAML document is allowed here (found a second '---')\n");
    refused("---\na: 1\n---\n",
            "t.yaml:3:1: error: only one YAML document is allowed here (found a second '---')\n");
    refused("a:\n\tb: 1\n",
            "t.yaml:2:1: error: tab character: YAML is indented with spaces, not tabs\n");
    refused("a: `x`\n",
            "t.yaml:1:4: error: a value cannot start with '`' or '@'; put it in quotes\n");
    refused("a: %x\n", "t.yaml:1:4: error: unexpected character; put the value in quotes\n");
    refused("a: b: c\n", "t.yaml:1:5: error: unexpected ':' here: put a value that contains "
                         "': ' in quotes, or check this line's indentation\n");
    refused("a: [1, 2\n",
            "t.yaml:1:4: error: '[' is not closed with ']' (the parser expected ',' or ']' at line "
            "2, column 1, and found the end of the file)\n");
    refused("a: \"x\\0y\"\n", "t.yaml:1:4: error: NUL character in a value\n");
}

static void refused_bytes(void **state)
{
    (void)state;
    refused("a: 1\nb: x\xff\n", "t.yaml:2:5: error: invalid UTF-8 (files must be UTF-8 encoded)\n");
    refused("a: é\xc3(\n", "t.yaml:1:5: error: invalid UTF-8 (files must be UTF-8 encoded)\n");
    refused("a: \xed\xa0\x80\n",
            "t.yaml:1:4: error: invalid UTF-8 (files must be UTF-8 encoded)\n");
    refused_n("a: 1\nb: 2\0\n", 11, 0,
              "t.yaml:2:5: error: NUL byte in text (is this a UTF-16 or binary file?)\n");
    /* UTF-16 starts with a NUL in its first two bytes. */
    refused_n("a\0:\0", 4, 0,
              "t.yaml:1:2: error: NUL byte in text (is this a UTF-16 or binary file?)\n");
    /* libyaml's own check for control characters, at the character. */
    refused("a: 1\nb: x\x01\n",
            "t.yaml:2:5: error: control characters are not allowed (byte 0x01)\n");
}

static void depth_limit(void **state)
{
    (void)state;
    char text[200];
    /* 64 levels are fine ... */
    memset(text, '[', 64);
    memset(text + 64, ']', 64);
    text[128] = '\0';
    diag d;
    diag_init(&d, NULL);
    ynode *n = parse(text, 0, &d);
    assert_non_null(n);
    assert_int_equal(d.errors, 0);
    int depth = 0;
    for (const ynode *k = n; k->n; k = k->kids[0])
        depth++;
    assert_int_equal(depth, 63);
    ynode_free(n);
    diag_free(&d);
    /* ... the 65th is refused where it opens. */
    memset(text, '[', 65);
    memset(text + 65, ']', 65);
    text[130] = '\0';
    refused(text, "t.yaml:1:65: error: nesting deeper than 64 levels\n");
    /* block style counts the same way */
    buf b;
    buf_init(&b);
    for (int i = 0; i < 65; i++)
        buf_printf(&b, "%*sk:\n", i, "");
    buf_printf(&b, "%*sv\n", 65, "");
    refused(b.data, "t.yaml:65:65: error: nesting deeper than 64 levels\n");
    buf_free(&b);
}

static void value_limit(void **state)
{
    (void)state;
    /* The sequence itself is the first value, so item 200,000 is one too many. */
    buf b;
    buf_init(&b);
    buf_putc(&b, '[');
    for (int i = 0; i < YAML_MAX_NODES; i++)
        buf_puts(&b, "0,");
    buf_putc(&b, ']');
    refused(b.data, "t.yaml:1:400000: error: too many values in one file (limit 200000)\n");
    /* 199,999 items are fine. */
    buf_clear(&b);
    buf_putc(&b, '[');
    for (int i = 0; i < YAML_MAX_NODES - 1; i++)
        buf_puts(&b, "0,");
    buf_putc(&b, ']');
    diag d;
    diag_init(&d, NULL);
    ynode *n = parse(b.data, 0, &d);
    assert_int_equal(n->n, YAML_MAX_NODES - 1);
    ynode_free(n);
    diag_free(&d);
    buf_free(&b);
}

static void many_keys(void **state)
{
    (void)state;
    /* Duplicate keys are found in a large mapping too, naming the first. */
    buf b;
    buf_init(&b);
    for (int i = 0; i < 20000; i++)
        buf_printf(&b, "key%d: %d\n", i, i);
    diag d;
    diag_init(&d, NULL);
    ynode *n = parse(b.data, 0, &d);
    assert_int_equal(n->n, 40000);
    assert_string_equal(ymap_get(n, "key19999")->s, "19999");
    ynode_free(n);
    diag_free(&d);
    buf_puts(&b, "key12345: again\n");
    refused(b.data,
            "t.yaml:20001:1: error: duplicate key 'key12345' (first given at line 12346)\n");
    buf_free(&b);
}

static void setting_values(void **state)
{
    (void)state;
    diag d;
    diag_init(&d, NULL);
    ynode *root = parse("seed: 1\ntraffic: {jobs: 10}\n", 0, &d);
    ynode *v = ynode_new_scalar("42", 7, 3);
    assert_true(v->plain);
    assert_int_equal(v->len, 2);
    pos_is(v, 7, 3);
    ymap_set(root, "seed", v, 7, 3); /* replaces (and frees) the old value */
    assert_ptr_equal(ymap_get(root, "seed"), v);
    assert_int_equal(root->n, 4);
    ymap_set(root, "replications", ynode_new_scalar("5", 8, 1), 8, 1); /* adds */
    assert_int_equal(root->n, 6);
    assert_string_equal(root->kids[4]->s, "replications");
    pos_is(root->kids[4], 8, 1);
    assert_string_equal(ymap_get(root, "replications")->s, "5");
    ynode *t = ymap_get(root, "traffic");
    ymap_set(t, "jobs", ynode_new_scalar("20", 9, 9), 9, 9);
    assert_string_equal(ymap_get(t, "jobs")->s, "20");
    assert_int_equal(t->n, 2);
    ynode_free(root);
    diag_free(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_shape),      cmocka_unit_test(line_offset),
        cmocka_unit_test(empty_documents), cmocka_unit_test(refused_features),
        cmocka_unit_test(refused_bytes),   cmocka_unit_test(depth_limit),
        cmocka_unit_test(value_limit),     cmocka_unit_test(many_keys),
        cmocka_unit_test(setting_values),
    };
    return cmocka_run_group_tests_name("ydoc", tests, NULL, NULL);
}
