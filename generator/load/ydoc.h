/* ydoc.h — a small YAML document tree with source positions, read with
 * libyaml (ydoc.c is the only file that includes libyaml).
 * The subset boardpress accepts: one document of mappings, sequences and
 * scalars; no anchors, aliases, tags, duplicate keys or complex keys; UTF-8
 * only; nesting at most YAML_MAX_DEPTH. */
#ifndef BP_YDOC_H
#define BP_YDOC_H

#include "base/diag.h"

#include <stdbool.h>
#include <stddef.h>

#define YAML_MAX_DEPTH 64
#define YAML_MAX_NODES 200000

typedef enum { YN_SCALAR, YN_SEQ, YN_MAP } yn_type;

typedef struct ynode {
    yn_type type;
    int line, col;       /* 1-based position in the real file */
    char *s;             /* scalar text, NUL-terminated (YN_SCALAR) */
    size_t len;          /* scalar length in bytes */
    bool plain;          /* unquoted scalar (so `null`, `true` are words) */
    struct ynode **kids; /* sequence items; for maps keys at even, values at odd indices */
    size_t n;            /* number of entries in kids */
    size_t cap;
    const char
        *file; /* set on override nodes from another file (not owned); NULL: the document's */
} ynode;

/* The file a node's position refers to. */
#define YPATH(path, node) ((node)->file ? (node)->file : (path))

/* Parse text (len bytes) as one YAML document. path is used in messages;
 * line_offset is the number of file lines before text (front matter).
 * Returns the root node (free with ynode_free), or NULL after reporting
 * every problem to d. An empty document returns NULL with *empty set. */
ynode *yaml_parse(const char *path, const char *text, size_t len, int line_offset, diag *d,
                  bool *empty);

/* Read and parse the YAML file at path. A file that cannot be read ("cannot
 * read the WHAT: ...", d->io set unless it is missing), an empty document
 * ("the WHAT file is empty") and YAML errors are reported; NULL then. */
ynode *yaml_load(const char *path, const char *what, diag *d);
/* yaml_load for text already read (also reports an empty document). */
ynode *yaml_parse_named(const char *path, const char *text, size_t len, const char *what, diag *d);

void ynode_free(ynode *n);
/* A deep copy (positions and file pointers kept), to apply overrides to one
 * parse of a board many times. */
ynode *ynode_clone(const ynode *n);

/* The value for key in a mapping, or NULL. */
ynode *ymap_get(const ynode *map, const char *key);

/* A human name for a node type, for messages: "a mapping", "a list", "text". */
const char *ynode_kind(const ynode *n);

/* A new scalar node (for overrides): copies s. */
ynode *ynode_new_scalar(const char *s, int line, int col);

/* A new empty mapping (for an override that makes one). */
ynode *ynode_new_map(int line, int col);

/* Put value under key in map (replacing and freeing an existing value);
 * the map takes ownership of value. */
void ymap_set(ynode *map, const char *key, ynode *value, int line, int col);

#endif
