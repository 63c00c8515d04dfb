/*
 * t_mc_idle: CPU 0 works while every other CPU sleeps in `wait` (the
 * runtime's default secondary_main): what idle CPUs cost the host
 * (test_multicluster.py compares the run's host time on a 64-CPU mesh with
 * a 1-CPU platform).  First about 200 million instructions of computation,
 * then 20000 stores into a page-table page with the MMU on (each drops the
 * cached translations of every CPU).
 */
#include "mmu.h"
#include "test.h"

#define SPARE_VA 0x70000000u   /* a PT1 entry no access uses */

static volatile uint32_t seen = 7;

int main(void)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < 50000000; i++)
        h = (h ^ i) * 16777619u;
    map_identity(pt1);
    mmu_on(pt1);
    volatile uint32_t *spare = &pt1[SPARE_VA >> MMU_BIG_PAGE_SHIFT];
    for (uint32_t i = 0; i < 20000; i++) {
        *spare = i;            /* a page-table store */
        h = h * 3 + seen;      /* a refill after it */
    }
    mmu_off();
    puts_("idle hash ");
    puthex(h);
    puts_("\n");
    return 0;
}
