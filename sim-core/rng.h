/* rng.h — the simulator's random numbers: counter-based, so every draw is a
 * hash of the replication's key and the draw's coordinates (who draws, what
 * for), and the distributions the model draws from. Deterministic on every
 * machine: exp and log are computed here from IEEE basic operations, not
 * taken from a libm whose last bits may differ between systems. */
#ifndef SIM_RNG_H
#define SIM_RNG_H

#include "simcore.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* SplitMix64's increment (2^64 / golden ratio) and output function
 * (Stafford's "mix13"): a bijection of 64-bit words with full avalanche. */
#define RNG_GAMMA 0x9e3779b97f4a7c15ULL
static inline uint64_t rng_mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The key of replication r of a board run with this seed: both mixed, so
 * distinct (seed, r) pairs get unrelated keys (MODEL.md "Time and
 * randomness"). */
uint64_t rng_stream_key(uint64_t seed, uint64_t replication);

/* A draw site: one entity's numbers in a replication (a job's attempt,
 * packed into who by the model). Distinct who give distinct sites. */
static inline uint64_t rng_site(uint64_t key, uint64_t who)
{
    return rng_mix(key + who * 0xd1b54a32d192ed03ULL);
}

/* The i-th 64-bit number the draw site `from` gives for purpose `what`. */
static inline uint64_t rng_bits(uint64_t from, uint32_t what, uint32_t i)
{
    return rng_mix(from + ((uint64_t)what << 32 | i) * RNG_GAMMA);
}

/* m < 2^53 as a double: exact, the same value as (double)m, but built
 * from its bits (2^52 + the low 52 bits, less 2^52, plus bit 52). V8
 * compiles the integer conversion so that it waits on an unrelated earlier
 * result (a false dependency), which serialised the draws in the browser. */
static inline double rng_u53(uint64_t m)
{
    uint64_t bits = 0x4330000000000000ULL | (m & 0xfffffffffffffULL);
    double d;
    memcpy(&d, &bits, sizeof d);
    return (d - 0x1p52) + (m >> 52 ? 0x1p52 : 0.0);
}

/* Uniform on [0, 1) with 53 random bits. */
static inline double rng_unit(uint64_t from, uint32_t what, uint32_t i)
{
    return rng_u53(rng_bits(from, what, i) >> 11) * 0x1.0p-53;
}

/* The distributions, drawn at (key, who, what): the site's numbers 0, 1,
 * ... of that purpose. */
/* Uniform integer on [0, n), n >= 1, without modulo bias. */
uint64_t rng_below(uint64_t key, uint64_t who, uint32_t what, uint64_t n);
/* Uniform on [0, 1). */
static inline double rng_uniform(uint64_t key, uint64_t who, uint32_t what)
{
    return rng_unit(rng_site(key, who), what, 0);
}
/* Exponential with the given mean (>= 0). */
double rng_exponential(uint64_t key, uint64_t who, uint32_t what, double mean);
/* Standard normal by inversion of one uniform (Acklam's approximation of
 * the quantile, relative error below 1.15e-9). */
double rng_normal(uint64_t key, uint64_t who, uint32_t what);
/* The standard normal's quantile at u in (0, 1), as rng_normal uses it. */
double sim_normal_quantile(double u);

/* A duration distribution prepared from a sim_latency: log-normal with the
 * given median and 99th percentile, or a constant when p99 == median. */
typedef struct {
    int64_t constant_us; /* used when sigma == 0 */
    double mu, sigma;    /* of ln(duration in us) */
    int64_t proof_us[2]; /* dist_at at z 0 and SIM_Z99: a proof's short and long value */
} sim_dist;

/* z of the standard normal's 99th percentile. */
#define SIM_Z99 2.3263478740408408

/* Draws are clamped to this (about 31 years) so a wild log-normal tail can
 * never overflow simulated time. */
#define SIM_DURATION_CAP_US 1000000000000000LL

void dist_init(sim_dist *d, sim_latency l);
/* A duration drawn at (key, who, what); draws nothing for a constant
 * distribution. */
int64_t dist_draw(const sim_dist *d, uint64_t key, uint64_t who, uint32_t what);
/* n durations drawn at (key, who + i, what), i = 0 .. n-1, into out: each
 * the number dist_draw gives there, drawn together so that the processor
 * overlaps them, without a call each. Native only: the WebAssembly module
 * calls dist_draw for each (one copy of the draw keeps it small). */
void dist_draw_run(const sim_dist *d, uint64_t key, uint64_t who, uint32_t what, uint32_t n,
                   int64_t *out);
/* The duration at z standard deviations (0: the median, SIM_Z99: the 99th
 * percentile), rounded and capped as a draw is. */
int64_t dist_at(const sim_dist *d, double z);

/* Natural logarithm (x > 0) and exponential, accurate to about 1 ulp and
 * identical on every IEEE-754 machine. */
double sim_log(double x);
double sim_exp(double x);

#endif
