/*
 * smp_work.c - multi-CPU workload for smp_bench.py (built with the
 * bare-metal tests' crt0/lib/mmu).  WORKERS CPUs (all of them when 0) each
 * run the t_perf loop ITERS times on their own buffer with the MMU on; the
 * others sleep in `wait`.  CPU 0 ends the run when every worker is done.
 */
#include "mmu.h"
#include "smp.h"

#ifndef ITERS
#define ITERS 100
#endif
#ifndef WORKERS
#define WORKERS 0
#endif

static uint32_t buf[8][1024];
static volatile uint32_t done, sums[8];

static uint32_t work(uint32_t id)
{
    uint32_t *b = buf[id], sum = 1 + id;
    for (int i = 0; i < 1024; i++)
        b[i] = (uint32_t)i * 2654435761u;
    for (int it = 0; it < ITERS; it++)
        for (int i = 0; i < 1024; i++) {
            uint32_t v = b[i];
            sum = sum * 33 + v;
            if (v & 1)
                sum ^= v >> 7;
            b[i] = v + sum;
        }
    return sum;
}

static int is_worker(uint32_t id, uint32_t ncpu)
{
    return WORKERS == 0 ? id < ncpu : id < WORKERS;
}

static uint32_t ncpus(void)
{
    return XICU(X_CONFIG, 0) >> 26; /* outputs / 4 */
}

void secondary_main(uint32_t id)
{
    if (is_worker(id, ncpus())) {
        mmu_on(pt1);
        sums[id] = work(id);
        atomic_add(&done, 1);
    }
    for (;;)
        cpu_wait();
}

int main(void)
{
    uint32_t n = ncpus(), workers = WORKERS ? WORKERS : n;
    map_identity(pt1);
    mmu_on(pt1);
    sums[0] = work(0);
    atomic_add(&done, 1);
    while (done != workers)
        ;
    mmu_off();
    puts_("workers ");
    putdec(workers);
    puts_(" sum0 ");
    puthex(sums[0]);
    putch('\n');
    return 0;
}
