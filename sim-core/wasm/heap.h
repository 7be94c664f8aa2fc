/* heap.h — what the WebAssembly module's allocator (libc.c) tells the
 * module about itself, beyond <stdlib.h>. */
#ifndef BP_WASM_HEAP_H
#define BP_WASM_HEAP_H

#include <stddef.h>

/* Bytes of allocated blocks not yet freed (whole blocks, headers included). */
size_t heap_in_use(void);

#endif
