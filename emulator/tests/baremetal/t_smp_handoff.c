/*
 * t_smp_handoff: a CPU that ran alone (every other CPU in `wait`) and then
 * slept too must not keep the whole machine when it wakes.  CPU 1 sleeps on
 * a timer due in LATE cycles; CPUs 2 and 3 sleep for good.  CPU 0 computes
 * alone, then sleeps on its own timer due sooner, so every CPU sleeps and
 * time jumps to CPU 0's timer.  Woken, CPU 0 spins until CPU 1, woken by
 * its timer meanwhile, has run and set `flag`.  Run with the 4-CPU DTB.
 */
#include "smp.h"

#define LATE 400000u  /* CPU 1's timer */
#define SOON 200000u  /* CPU 0's timer, armed just before it sleeps */

static volatile uint32_t ready, flag;

void secondary_main(uint32_t id)
{
    if (id == 1) {
        XICU(X_MSK_PTI, 4) = 1u << 1; /* PTI 1 -> output 4: CPU 1, line 0 */
        XICU(X_PTI_PER, 1) = LATE;
        ready = 1;
        while (!(XICU(X_PRIO, 4) & 1u))
            cpu_wait();
        (void)XICU(X_PTI_ACK, 1);
        XICU(X_PTI_PER, 1) = 0;
        flag = 1;
    }
    for (;;)
        cpu_wait();
}

int main(void)
{
    while (!ready)
        ;
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < 20000; i++) /* alone: CPU 1 sleeps */
        h = (h ^ i) * 16777619u;
    XICU(X_MSK_PTI, 0) = 1u << 0;
    XICU(X_PTI_PER, 0) = SOON;
    while (!(XICU(X_PRIO, 0) & 1u))
        cpu_wait();
    (void)XICU(X_PTI_ACK, 0);
    XICU(X_PTI_PER, 0) = 0;
    /* CPU 1 is due within LATE cycles: it must get to run */
    uint32_t spins = 0;
    while (!flag)
        CHECK(1, ++spins < 4000000);
    puts_("handoff: CPU 1 ran after ");
    putdec(spins);
    puts_(" spins\n");
    return 0;
}
