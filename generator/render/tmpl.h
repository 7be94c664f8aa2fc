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

#include "base/diag.h"
#include "base/util.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct tmpl tmpl;
typedef struct tmpl_scope tmpl_scope;
typedef struct tmpl_lib tmpl_lib;

/* A templates folder, each of its files parsed at most once however many
 * templates include it and however often: a build's page, index and other
 * templates share one library. Free with tmpl_lib_free (also frees every
 * template it loaded). */
tmpl_lib *tmpl_lib_new(const char *dir);
void tmpl_lib_free(tmpl_lib *lib);
/* NAME.html of the library's folder, with its partials. Returns the
 * template (owned by lib), or NULL after reporting every problem (unknown
 * directive, unclosed block, missing partial, partial cycle, partials nested
 * deeper than 16 or shown more than 1,000 times); asking again gives the
 * same template, or NULL without a second report. */
tmpl *tmpl_lib_load(tmpl_lib *lib, const char *name, diag *d);

/* tmpl_lib_load in a library of its own (freed with the template). */
tmpl *tmpl_load(const char *dir, const char *name, diag *d);
/* Parse template text directly (path for messages; partials from dir). */
tmpl *tmpl_parse(const char *dir, const char *path, const char *text, size_t len, diag *d);
/* Free what tmpl_load or tmpl_parse returned (not a library's templates). */
void tmpl_free(tmpl *t);

/* Render with the variables of scope. Returns 0, or -1 after reporting
 * unknown variables (each position once per template) or output past
 * 64 MiB (once per template; later renderings of it fail at once). */
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
