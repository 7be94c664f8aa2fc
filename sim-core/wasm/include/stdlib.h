/* stdlib.h — the allocator sim-core uses, for the WebAssembly module
 * (sim-core/wasm/libc.c: size classes over memory.grow). */
#ifndef BP_WASM_STDLIB_H
#define BP_WASM_STDLIB_H

#include <stddef.h>

void *malloc(size_t n);
void *calloc(size_t count, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);

#endif
