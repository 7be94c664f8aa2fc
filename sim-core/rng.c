/* rng.c — xoshiro256** (Blackman & Vigna), splitmix64 seeding, and the
 * distributions of the model. exp/log are our own so that results do not
 * depend on the libm of the machine (frexp, ldexp and sqrt are exact). */
#include "rng.h"

#include <math.h>
#include <string.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(sim_rng *r, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&x);
    r->spare = 0;
    r->has_spare = false;
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

uint64_t rng_next(sim_rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

double rng_uniform(sim_rng *r)
{
    return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t rng_below(sim_rng *r, uint64_t n)
{
    /* Reject the top (2^64 mod n) values so every residue is equally likely. */
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = rng_next(r);
        if (x >= threshold)
            return x % n;
    }
}

double rng_exponential(sim_rng *r, double mean)
{
    if (mean <= 0)
        return 0;
    return -mean * sim_log(1.0 - rng_uniform(r)); /* 1 - u is in (0, 1] */
}

double rng_normal(sim_rng *r)
{
    if (r->has_spare) {
        r->has_spare = false;
        return r->spare;
    }
    double u, v, s;
    do {
        u = 2.0 * rng_uniform(r) - 1.0;
        v = 2.0 * rng_uniform(r) - 1.0;
        s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    double f = sqrt(-2.0 * sim_log(s) / s);
    r->spare = v * f;
    r->has_spare = true;
    return u * f;
}

void dist_init(sim_dist *d, sim_latency l)
{
    d->constant_us = l.median_us;
    d->mu = 0;
    d->sigma = 0;
    if (l.p99_us > l.median_us && l.median_us > 0) {
        d->mu = sim_log((double)l.median_us);
        d->sigma = (sim_log((double)l.p99_us) - d->mu) / SIM_Z99;
    }
}

int64_t dist_draw(const sim_dist *d, sim_rng *r)
{
    if (d->sigma == 0)
        return d->constant_us;
    double x = sim_exp(d->mu + d->sigma * rng_normal(r));
    if (!(x < (double)SIM_DURATION_CAP_US))
        return SIM_DURATION_CAP_US;
    return (int64_t)(x + 0.5);
}

/* ln 2 split so that k * LN2_HI is exact for |k| < 2^20 (fdlibm's split). */
#define LN2_HI 6.93147180369123816490e-01
#define LN2_LO 1.90821492927058770002e-10
#define SQRT_HALF 0.70710678118654752440

/* 1/(2k+1) and 1/k!, folded by the compiler (correctly rounded). */
static const double inv_odd[12] = {
    1.0,      1.0 / 3,  1.0 / 5,  1.0 / 7,  1.0 / 9,  1.0 / 11,
    1.0 / 13, 1.0 / 15, 1.0 / 17, 1.0 / 19, 1.0 / 21, 1.0 / 23,
};
static const double inv_fact[15] = {
    1.0,
    1.0,
    1.0 / 2,
    1.0 / 6,
    1.0 / 24,
    1.0 / 120,
    1.0 / 720,
    1.0 / 5040,
    1.0 / 40320,
    1.0 / 362880,
    1.0 / 3628800,
    1.0 / 39916800,
    1.0 / 479001600,
    1.0 / 6227020800.0,
    1.0 / 87178291200.0,
};

/* 2^k for k in [-1022, 1023], built from its bits. */
static double pow2(int k)
{
    uint64_t bits = (uint64_t)(k + 1023) << 52;
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

double sim_log(double x)
{
    if (!(x > 0))
        return x == 0 ? -HUGE_VAL : NAN;
    if (x == HUGE_VAL)
        return x;
    /* x = m * 2^e with m in [0.5, 1), read from the bits (exact) */
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int e = (int)((bits >> 52) & 0x7ff);
    if (e == 0) { /* subnormal: scale into the normal range first */
        x *= 0x1p54;
        memcpy(&bits, &x, sizeof bits);
        e = (int)((bits >> 52) & 0x7ff) - 54;
    }
    e -= 1022;
    bits = (bits & 0x800fffffffffffffULL) | (UINT64_C(1022) << 52);
    double m;
    memcpy(&m, &bits, sizeof m);
    if (m < SQRT_HALF) {
        m *= 2;
        e--;
    }
    /* ln m = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.1716: the series
     * 2(s + s^3/3 + ...) reaches double precision by s^23. */
    double s = (m - 1.0) / (m + 1.0);
    double s2 = s * s;
    double p = inv_odd[11];
    for (int k = 10; k >= 0; k--)
        p = inv_odd[k] + s2 * p;
    double lnm = 2.0 * s * p;
    return (double)e * LN2_HI + ((double)e * LN2_LO + lnm);
}

double sim_exp(double x)
{
    if (x != x)
        return x;
    if (x > 709.78)
        return HUGE_VAL;
    if (x < -745.2)
        return 0;
    /* x = k ln2 + r with |r| <= ln2 / 2; exp(r) by Taylor to r^14/14!. */
    double k = floor(x * 1.44269504088896340736 + 0.5);
    double r = (x - k * LN2_HI) - k * LN2_LO;
    double p = inv_fact[14];
    for (int i = 13; i >= 0; i--)
        p = inv_fact[i] + r * p;
    /* p * 2^k, k in [-1075, 1024], as two exact powers of two */
    int ki = (int)k;
    int k1 = ki / 2;
    return p * pow2(k1) * pow2(ki - k1);
}
