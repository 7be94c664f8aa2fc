/* rng.c — the counter-based stream (SplitMix64's mix of a key and a
 * draw's coordinates) and the distributions of the model. exp/log are our
 * own so that results do not depend on the libm of the machine (frexp,
 * ldexp and sqrt are exact). */
#include "rng.h"

#include <math.h>
#include <string.h>

uint64_t rng_stream_key(uint64_t seed, uint64_t replication)
{
    /* mix(seed) is a bijection, so two seeds never meet before the
     * replication is added; the second mix makes nearby keys unrelated */
    return rng_mix(rng_mix(seed ^ 0x5851f42d4c957f2dULL) + (replication + 1) * RNG_GAMMA);
}

uint64_t rng_below(uint64_t key, uint64_t who, uint32_t what, uint64_t n)
{
    uint64_t site = rng_site(key, who);
    /* Reject the lowest (2^64 mod n) values so every residue is equally likely. */
    uint64_t threshold = (0 - n) % n;
    for (uint32_t i = 0;; i++) {
        uint64_t x = rng_bits(site, what, i);
        if (x >= threshold)
            return x % n;
    }
}

double rng_exponential(uint64_t key, uint64_t who, uint32_t what, double mean)
{
    if (mean <= 0)
        return 0;
    return -mean * sim_log(1.0 - rng_uniform(key, who, what)); /* 1 - u is in (0, 1] */
}

/* Acklam's rational approximations of the normal quantile: relative error
 * below 1.15e-9 over (0, 1). Inversion keeps a draw monotone in its
 * uniform, so boards that differ in a latency's median or p99 still get
 * matching durations from the same draw. */
static const double qa[6] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
static const double qb[5] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01, -1.328068155288572e+01};
static const double qc[6] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
static const double qd[4] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};

/* The quantile, inline for rng_normal. */
static inline double normal_quantile(double u)
{
    double p = u < 0.5 ? u : 1 - u; /* exact for the draws' u, multiples of 2^-54 */
    if (p >= 0.02425) {
        double q = u - 0.5, r = q * q;
        return (((((qa[0] * r + qa[1]) * r + qa[2]) * r + qa[3]) * r + qa[4]) * r + qa[5]) * q /
               (((((qb[0] * r + qb[1]) * r + qb[2]) * r + qb[3]) * r + qb[4]) * r + 1);
    }
    double q = sqrt(-2 * sim_log(p));
    double z = (((((qc[0] * q + qc[1]) * q + qc[2]) * q + qc[3]) * q + qc[4]) * q + qc[5]) /
               ((((qd[0] * q + qd[1]) * q + qd[2]) * q + qd[3]) * q + 1);
    return u > 0.5 ? -z : z;
}

double sim_normal_quantile(double u)
{
    return normal_quantile(u);
}

double rng_normal(uint64_t key, uint64_t who, uint32_t what)
{
    /* u on the open interval (0, 1): 2^53 midpoints, symmetric about 1/2 */
    return normal_quantile(((double)(rng_bits(rng_site(key, who), what, 0) >> 11) + 0.5) *
                           0x1.0p-53);
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

int64_t dist_draw(const sim_dist *d, uint64_t key, uint64_t who, uint32_t what)
{
    if (d->sigma == 0)
        return d->constant_us;
    double x = sim_exp(d->mu + d->sigma * rng_normal(key, who, what));
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
