/*
 * t_smp_order: records the interleaving.  Every CPU appends its id to one
 * log ROUNDS times (slot taken with ll/sc), with a little private work in
 * between; CPU 0 prints a hash of the log and how often consecutive entries
 * come from different CPUs.  Two runs with the same settings print the
 * same line; different -seed values give different logs.  Also checks
 * that every entry was written exactly once, and that the Count values
 * read at each append never decrease in log order (shared time base).  Run with the 4-CPU DTB.
 */
#include "smp.h"

#define NCPU 4
#define ROUNDS 300

static volatile uint32_t next, log_[NCPU * ROUNDS], stamp[NCPU * ROUNDS], done;

static void append(uint32_t id)
{
    uint32_t work = id * 7 + 3;
    for (uint32_t r = 0; r < ROUNDS; r++) {
        uint32_t slot, t;
        /* the slot and a Count read in one ll/sc: the log is in time order */
        __asm__ volatile("1: ll %0, 0(%2)\n\t"
                         "mfc0 %1, $9\n\t"
                         "addiu $1, %0, 1\n\t"
                         "sc $1, 0(%2)\n\t"
                         "beqz $1, 1b\n\t"
                         "nop"
                         : "=&r"(slot), "=&r"(t)
                         : "r"(&next)
                         : "memory", "$1");
        log_[slot] = id + 1;
        stamp[slot] = t;
        for (uint32_t k = 0; k < (work & 15); k++) /* uneven private work */
            work = work * 1103515245u + 12345u;
        work >>= 3;
    }
    atomic_add(&done, 1);
}

void secondary_main(uint32_t id)
{
    append(id);
    for (;;)
        cpu_wait();
}

int main(void)
{
    append(0);
    while (done != NCPU)
        ;
    uint32_t h = 2166136261u, switches = 0, per[NCPU] = {0};
    for (uint32_t i = 0; i < NCPU * ROUNDS; i++) {
        uint32_t v = log_[i];
        CHECK(1, v >= 1 && v <= NCPU);
        per[v - 1]++;
        h = (h ^ v) * 16777619u;
        if (i && v != log_[i - 1])
            switches++;
        /* Count is one time base: it never goes back from CPU to CPU */
        if (i && (int32_t)(stamp[i] - stamp[i - 1]) < 0)
            fail(3, "Count went backwards", stamp[i], stamp[i - 1]);
    }
    for (int i = 0; i < NCPU; i++)
        CHECK_EQ(2, per[i], ROUNDS);
    puts_("order hash ");
    puthex(h);
    puts_(" switches ");
    putdec(switches);
    putch('\n');
    return 0;
}
