/*
 * t_smp_wake: a CPU sleeping in `wait` wakes when one of its lines rises,
 * even if the line falls again before the running CPU's time slot ends.
 * CPU 0 raises CPU 1's line 0 (a WTI) and acknowledges it at once, then
 * spins (its slot goes on); CPU 1 must have left `wait` once.  Run with the
 * 4-CPU DTB.
 */
#include "smp.h"

static volatile uint32_t ready, wakes;

void secondary_main(uint32_t id)
{
    if (id == 1) {
        XICU(X_MSK_WTI, 4) = 1u << 1; /* WTI 1 -> output 4: CPU 1, line 0 */
        ready = 1;
        for (;;) {
            cpu_wait();
            atomic_add(&wakes, 1);
        }
    }
    for (;;)
        cpu_wait();
}

int main(void)
{
    while (!ready)
        ;
    for (uint32_t k = 1; k <= 3; k++) {
        XICU(X_WTI_REG, 1) = 0x100 + k; /* CPU 1's line rises */
        (void)XICU(X_WTI_REG, 1);       /* and falls (reading acknowledges) */
        uint32_t spins = 0;
        while (wakes != k)
            CHECK(k, ++spins < 1000000);
    }
    CHECK_EQ(4, MFC0(13, 0) & 0xFC00u, 0);
    puts_("wake: 3 pulses seen\n");
    return 0;
}
