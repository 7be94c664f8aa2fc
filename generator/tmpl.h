/* tmpl.h — the HTML template language (the .html files in templates/):
 *   {{ name }}                 a variable: text is HTML-escaped, HTML values
 *                              (content, nav, ...) go in as they are
 *   {{> name }}                the partial templates/partials/name.html
 *   {{#if name }}..{{ else }}..{{/if }}   when name is non-empty
 *   {{#each name }}..{{/each }}           once per item of a list; inside,
 *                              the item's variables come first
 *   {{! comment }}             nothing
 * An unknown variable is an error at its file:line:col, never "". */
#ifndef BP_TMPL_H
#define BP_TMPL_H

#include "diag.h"
#include "util.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct tmpl tmpl;
typedef struct tmpl_scope tmpl_scope;

/* Load templates/NAME.html from dir, with its partials. Returns NULL after
 * reporting every problem (unknown directive, unclosed block, missing
 * partial, partial cycle). Free with tmpl_free. */
tmpl *tmpl_load(const char *dir, const char *name, diag *d);
/* Parse template text directly (path for messages; partials from dir). */
tmpl *tmpl_parse(const char *dir, const char *path, const char *text, size_t len, diag *d);
void tmpl_free(tmpl *t);

/* Render with the variables of scope. Returns 0, or -1 after reporting
 * unknown variables (each position once per template). */
int tmpl_render(tmpl *t, const tmpl_scope *scope, buf *out, diag *d);

/* Scopes: a set of named values; parent scopes are searched after. */
tmpl_scope *tmpl_scope_new(const tmpl_scope *parent);
void tmpl_scope_free(tmpl_scope *s);
/* Set a text variable (escaped on output); copies value. */
void tmpl_set_text(tmpl_scope *s, const char *name, const char *value);
/* Set an HTML variable (inserted as is): only for trusted, generated HTML. */
void tmpl_set_html(tmpl_scope *s, const char *name, const char *value);
/* Add an item to the list variable name and return its scope (owned by s). */
tmpl_scope *tmpl_list_add(tmpl_scope *s, const char *name);
/* A list of n items made while rendering, one at a time: fill(ctx, i, item)
 * sets item i's variables into a fresh scope that is freed right after.
 * Memory stays flat however long the list (every page of a site). ctx must
 * outlive the rendering. */
typedef void (*tmpl_fill_fn)(void *ctx, size_t i, tmpl_scope *item);
void tmpl_list_lazy(tmpl_scope *s, const char *name, size_t n, tmpl_fill_fn fill, void *ctx);
/* Declare an empty list (so {{#each}} and {{#if}} over it are valid). */
void tmpl_list_declare(tmpl_scope *s, const char *name);

#endif
