/*
 * How long a launch of the simulated app takes (sim_launch.c asks once
 * per launch): the launch type's fixed time, or with --launch-spread PCT
 * that time times a log-normal factor (sigma PCT%) as real launches vary
 * from run to run, and with --slow-launch PCT every launch PCT% longer
 * (a regression to find with `systrace compare`).  The factor comes from
 * --launch-seed (else --seed) and the launch's number, so a run of the
 * simulator is repeatable, and two simulators whose generated traces are
 * the same (one --seed) can launch differently.
 */
#include "sim.h"
#include "sim_cmds.h"

#include <math.h>

/* splitmix64: a well-mixed 64-bit value from seed and launch number */
static uint64_t mix(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* A standard normal value (Box-Muller) for this launch. */
static double normal(uint32_t seed, unsigned launch)
{
    uint64_t a = mix(((uint64_t)seed << 32) | launch), b = mix(a);
    double u1 = ((double)(a >> 11) + 1.0) / 9007199254740993.0;  /* (0, 1] */
    double u2 = (double)(b >> 11) / 9007199254740992.0;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

unsigned sim_launch_ms(const struct sim_device *dev, unsigned base_ms)
{
    double ms = base_ms * (1.0 + dev->opt.slow_launch_pct / 100.0);
    uint32_t seed = dev->opt.launch_seed ? dev->opt.launch_seed : dev->opt.seed;
    if (dev->opt.launch_spread_pct)
        ms *= exp(dev->opt.launch_spread_pct / 100.0 * normal(seed, dev->launches));
    return ms < 1 ? 1 : ms > 600000 ? 600000 : (unsigned)(ms + 0.5);
}
