/*
 * t_mc_busy: every CPU of the mesh works at once (the run loop's cost per
 * CPU with every CPU busy) and shares two words of cluster (0,0) through
 * ll/sc from every cluster: a counter each CPU increments 1000 times, and
 * the sum of the hashes the CPUs compute.  CPU 0 checks both.  The number of
 * CPUs comes from the XICUs' CONFIG (probed).
 */
#include "mc.h"

#define ITERS 200000u
#define INCS 1000u

static volatile uint32_t counter, hsum, done;

static uint32_t work(uint32_t id)
{
    uint32_t h = 2166136261u ^ id;
    for (uint32_t i = 0; i < ITERS; i++)
        h = (h ^ i) * 16777619u;
    return h;
}

static void share(uint32_t id)
{
    for (uint32_t i = 0; i < INCS; i++)
        atomic_add(&counter, 1);
    atomic_add(&hsum, work(id));
    atomic_add(&done, 1);
}

void secondary_main(uint32_t id)
{
    share(id);
    for (;;)
        cpu_wait();
}

int main(void)
{
    static uint32_t clusters[256], ids[1024];
    uint32_t ncl = (uint32_t)probe(XICU_REG(XICU_CONFIG, 0), clusters), n = 0;
    for (uint32_t k = 0; k < ncl; k++) {
        uint32_t c = (xicu_rd(clusters[k], XICU_CONFIG, 0) >> XICU_CONFIG_OUT_SHIFT & 0xFF) /
                     XICU_OUTPUTS_PER_CPU;
        for (uint32_t l = 0; l < c; l++)
            ids[n++] = clusters[k] << 4 | l;
    }
    share(0);
    while (done != n)
        ;
    CHECK_EQ(1, counter, n * INCS);
    uint32_t want = 0;
    for (uint32_t i = 0; i < n; i++)
        want += work(ids[i]);
    CHECK_EQ(2, hsum, want);
    puts_("mc busy: ");
    putdec(n);
    puts_(" CPUs\n");
    return 0;
}
