/* rng.c — the counter-based stream (SplitMix64's mix of a key and a
 * draw's coordinates) and the distributions of the model. exp/log are our
 * own (fdlibm's algorithms on IEEE basic operations) so that results do
 * not depend on the libm of the machine (floor and sqrt are exact). */
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

/* The normal draw, inline for dist_draw. */
static inline double normal_draw(uint64_t key, uint64_t who, uint32_t what)
{
    /* u on the open interval (0, 1): 2^53 midpoints, symmetric about 1/2 */
    return normal_quantile((rng_u53(rng_bits(rng_site(key, who), what, 0) >> 11) + 0.5) *
                           0x1.0p-53);
}

double rng_normal(uint64_t key, uint64_t who, uint32_t what)
{
    return normal_draw(key, who, what);
}

static inline double exp_of(double x);

void dist_init(sim_dist *d, sim_latency l)
{
    d->constant_us = l.median_us;
    d->mu = 0;
    d->sigma = 0;
    if (l.p99_us > l.median_us && l.median_us > 0) {
        d->mu = sim_log((double)l.median_us);
        d->sigma = (sim_log((double)l.p99_us) - d->mu) / SIM_Z99;
    }
    d->proof_us[0] = dist_at(d, 0);
    d->proof_us[1] = dist_at(d, SIM_Z99);
}

/* dist_at of a log-normal (sigma > 0), inline for the draws. */
static inline int64_t lognormal_at(const sim_dist *d, double z)
{
    double x = exp_of(d->mu + d->sigma * z);
    if (!(x < (double)SIM_DURATION_CAP_US))
        return SIM_DURATION_CAP_US;
    return (int64_t)(x + 0.5);
}

int64_t dist_at(const sim_dist *d, double z)
{
    return d->sigma == 0 ? d->constant_us : lognormal_at(d, z);
}

int64_t dist_draw(const sim_dist *d, uint64_t key, uint64_t who, uint32_t what)
{
    return d->sigma == 0 ? d->constant_us : dist_at(d, normal_draw(key, who, what));
}

#ifndef __wasm__ /* the module keeps one copy of the draw (its size) */
void dist_draw_run(const sim_dist *d, uint64_t key, uint64_t who, uint32_t what, uint32_t n,
                   int64_t *out)
{
    if (d->sigma == 0) {
        for (uint32_t i = 0; i < n; i++)
            out[i] = d->constant_us;
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        out[i] = lognormal_at(d, normal_draw(key, who + i, what));
}
#endif

/* ln 2 split so that k * LN2_HI is exact for |k| < 2^20 (fdlibm's split). */
#define LN2_HI 6.93147180369123816490e-01
#define LN2_LO 1.90821492927058770002e-10

/* fdlibm's minimax coefficients for log (e_log.c). */
#define LG1 6.666666666666735130e-01
#define LG2 3.999999999940941908e-01
#define LG3 2.857142874366239149e-01
#define LG4 2.222219843214978396e-01
#define LG5 1.818357216161805012e-01
#define LG6 1.531383769920937332e-01
#define LG7 1.479819860511658591e-01

/* fdlibm's minimax coefficients for exp (e_exp.c). */
#define EP1 1.66666666666666019037e-01
#define EP2 -2.77777777770155933842e-03
#define EP3 6.61375632143793436117e-05
#define EP4 -1.65339022054652515390e-06
#define EP5 4.13813679705723846039e-08

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
    /* fdlibm's e_log.c, on the bits (error below 1 ulp): x = 2^k (1 + f)
     * with 1 + f in [sqrt(2)/2, sqrt(2)), s = f / (2 + f), and
     * ln(1 + f) = f - s (f - R) with R a minimax polynomial in s^2. */
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int k = 0;
    if (bits >> 52 == 0) { /* subnormal: scale into the normal range first */
        x *= 0x1p54;
        memcpy(&bits, &x, sizeof bits);
        k = -54;
    }
    uint32_t hx = (uint32_t)(bits >> 32);
    k += (int)(hx >> 20) - 1023;
    hx &= 0x000fffff;
    uint32_t half = (hx + 0x95f64) & 0x100000; /* 1 + f at or above sqrt(2): halve it */
    bits = (uint64_t)(hx | (half ^ 0x3ff00000)) << 32 | (bits & 0xffffffffu);
    memcpy(&x, &bits, sizeof x);
    k += (int)(half >> 20);
    double f = x - 1.0, dk = k;
    if ((0x000fffff & (2 + hx)) < 3) { /* |f| < 2^-20 */
        if (f == 0)
            return dk * LN2_HI + dk * LN2_LO;
        double r = f * f * (0.5 - 0.33333333333333333 * f);
        return dk * LN2_HI - ((r - dk * LN2_LO) - f);
    }
    double s = f / (2.0 + f), z = s * s, w = z * z;
    double r = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7))) + w * (LG2 + w * (LG4 + w * LG6));
    if ((((int32_t)hx - 0x6147a) | (0x6b851 - (int32_t)hx)) > 0) { /* 1 + f near sqrt(2) */
        double hfsq = 0.5 * f * f;
        return dk * LN2_HI - ((hfsq - (s * (hfsq + r) + dk * LN2_LO)) - f);
    }
    return dk * LN2_HI - ((s * (f - r) - dk * LN2_LO) - f);
}

/* exp, inline for dist_draw (every log-normal draw) and sim_exp. */
static inline double exp_of(double x)
{
    if (x != x)
        return x;
    if (x > 709.78)
        return HUGE_VAL;
    if (x < -745.2)
        return 0;
    /* x = k ln2 + r with |r| <= ln2 / 2, r kept as hi - lo; exp(r) by
     * fdlibm's rational form (e_exp.c, error below 1 ulp):
     * c = r - r^2 (P1 + r^2 (P2 + ...)), exp(r) = 1 + r + r c / (2 - c). */
    double k = floor(x * 1.44269504088896340736 + 0.5);
    double hi = x - k * LN2_HI, lo = k * LN2_LO, r = hi - lo, t = r * r;
    double c = r - t * (EP1 + t * (EP2 + t * (EP3 + t * (EP4 + t * EP5))));
    double p = 1 - ((lo - (r * c) / (2 - c)) - hi);
    /* p * 2^k, k in [-1075, 1024]: p is in [0.7, 1.42], so for k in
     * [-1021, 1023] 2^k and p * 2^k are normal (or overflow as the two
     * steps would) and one exact scaling gives the same bits; past that,
     * two exact powers of two */
    int ki = (int)k;
    if (ki >= -1021 && ki <= 1023)
        return p * pow2(ki);
    int k1 = ki / 2;
    return p * pow2(k1) * pow2(ki - k1);
}

double sim_exp(double x)
{
    return exp_of(x);
}
