/* rng.h — the simulator's random numbers: xoshiro256** seeded by splitmix64,
 * and the distributions the model draws from. Deterministic on every machine:
 * exp and log are computed here from IEEE basic operations, not taken from a
 * libm whose last bits may differ between systems. */
#ifndef SIM_RNG_H
#define SIM_RNG_H

#include "simcore.h"

#include <stdbool.h>
#include <stdint.h>

/* One stream; plain value, no heap. */
typedef struct {
    uint64_t s[4];
    double spare; /* second normal of the last polar-method pair */
    bool has_spare;
} sim_rng;

/* Seed a stream: the four state words are splitmix64 outputs of seed. */
void rng_seed(sim_rng *r, uint64_t seed);
uint64_t rng_next(sim_rng *r);
/* Uniform on [0, 1) with 53 random bits. */
double rng_uniform(sim_rng *r);
/* Uniform integer on [0, n), n >= 1, without modulo bias. */
uint64_t rng_below(sim_rng *r, uint64_t n);
/* Exponential with the given mean (>= 0). */
double rng_exponential(sim_rng *r, double mean);
/* Standard normal (Marsaglia's polar method; pairs are cached). */
double rng_normal(sim_rng *r);
/* True with probability p. Draws nothing when p <= 0 or p >= 1. Inline:
 * the model asks this at every step, most often with p = 0. */
static inline bool rng_bernoulli(sim_rng *r, double p)
{
    if (p <= 0)
        return false;
    if (p >= 1)
        return true;
    return rng_uniform(r) < p;
}

/* A duration distribution prepared from a sim_latency: log-normal with the
 * given median and 99th percentile, or a constant when p99 == median. */
typedef struct {
    int64_t constant_us; /* used when sigma == 0 */
    double mu, sigma;    /* of ln(duration in us) */
} sim_dist;

/* z of the standard normal's 99th percentile. */
#define SIM_Z99 2.3263478740408408

/* Draws are clamped to this (about 31 years) so a wild log-normal tail can
 * never overflow simulated time. */
#define SIM_DURATION_CAP_US 1000000000000000LL

void dist_init(sim_dist *d, sim_latency l);
/* Draws nothing for a constant distribution. */
int64_t dist_draw(const sim_dist *d, sim_rng *r);

/* Natural logarithm (x > 0) and exponential, accurate to about 1 ulp and
 * identical on every IEEE-754 machine. */
double sim_log(double x);
double sim_exp(double x);

#endif
