/* string.h — the part of <string.h> sim-core uses, for the WebAssembly
 * module (sim-core/wasm/libc.c implements it). */
#ifndef BP_WASM_STRING_H
#define BP_WASM_STRING_H

#include <stddef.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
char *strstr(const char *haystack, const char *needle);

#endif
