/* math.h — what sim-core takes from <math.h>, for the WebAssembly module:
 * sqrt and floor are single, exactly rounded wasm instructions (f64.sqrt,
 * f64.floor), like their IEEE-754 counterparts on the native build; exp
 * and log are sim-core's own (rng.c), so no libm is needed. */
#ifndef BP_WASM_MATH_H
#define BP_WASM_MATH_H

#define HUGE_VAL (__builtin_huge_val())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))

static inline double sqrt(double x)
{
    return __builtin_sqrt(x);
}

static inline double fabs(double x)
{
    return __builtin_fabs(x);
}

static inline double floor(double x)
{
    return __builtin_floor(x);
}

#endif
