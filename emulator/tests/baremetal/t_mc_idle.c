/*
 * t_mc_idle: CPU 0 computes (about 200 million instructions) while every
 * other CPU sleeps in `wait` (the runtime's default secondary_main): what
 * idle CPUs cost the host (test_multicluster.py compares the run's host
 * time on a 64-CPU mesh with a 1-CPU platform).
 */
#include "test.h"

int main(void)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < 50000000; i++)
        h = (h ^ i) * 16777619u;
    puts_("idle hash ");
    puthex(h);
    puts_("\n");
    return 0;
}
