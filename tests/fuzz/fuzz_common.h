/* fuzz_common.h — what the libFuzzer harnesses in tests/fuzz/ share. Each
 * harness feeds one input to the generator code the way a content file
 * reaches it (file_read hands out NUL-terminated text), with diagnostics
 * collected rather than printed. */
#ifndef BP_FUZZ_COMMON_H
#define BP_FUZZ_COMMON_H

#include "base/util.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A NUL-terminated copy of the input (the caller frees). */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = xmalloc(size + 1);
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* A file the harnesses read: $BP_FUZZ_DIR/name, else tests/fuzz/name from
 * the repository root (the caller frees the path). */
static inline char *fuzz_path(const char *name)
{
    const char *dir = getenv("BP_FUZZ_DIR");
    return xasprintf("%s/%s", dir && *dir ? dir : "tests/fuzz", name);
}

/* A file of the small good site the harnesses start from: $BP_FUZZ_SITE/name,
 * else tests/bad/base/name (the caller frees the path). */
static inline char *fuzz_site_path(const char *name)
{
    const char *dir = getenv("BP_FUZZ_SITE");
    return xasprintf("%s/%s", dir && *dir ? dir : "tests/bad/base", name);
}

/* Stop with a crash the fuzzer reports when an invariant does not hold. */
#define FUZZ_ASSERT(cond)                                                                          \
    do {                                                                                           \
        if (!(cond))                                                                               \
            __builtin_trap();                                                                      \
    } while (0)

#endif
