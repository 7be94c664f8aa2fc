/* stdio.h — formatted output into a buffer, enough for sim-core's
 * messages (%d %i %u %x %c %s %% with the l, ll and z sizes, a width and
 * '-'), for the WebAssembly module. No streams: the module has no I/O. */
#ifndef BP_WASM_STDIO_H
#define BP_WASM_STDIO_H

#include <stdarg.h>
#include <stddef.h>

int vsnprintf(char *restrict out, size_t n, const char *restrict fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
int snprintf(char *restrict out, size_t n, const char *restrict fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
