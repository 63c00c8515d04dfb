/*
 * t_smp_timer: one PTI timer per CPU (reference 4.2): CPU i programs PTI i
 * with its own period, routes it to its output 4*i, and counts TICKS ticks
 * sleeping in `wait` and acknowledging through PTI_ACK.  Each CPU's elapsed
 * Count must match its own period (the time base is shared), and a timer
 * wakes only its CPU.  With every CPU asleep, time jumps to the next event,
 * so long periods cost nothing.  Run with the 4-CPU DTB.
 */
#include "smp.h"

#define NCPU 4
#define TICKS 5

static volatile uint32_t elapsed[NCPU], wakeups[NCPU], done;

static uint32_t period_of(uint32_t id) { return 200000u * (id + 1); }

static void tick_loop(uint32_t id)
{
    uint32_t per = period_of(id);
    XICU(X_MSK_PTI, 4 * id) = 1u << id;
    uint32_t t0 = count_now();
    XICU(X_PTI_PER, id) = per;
    for (int t = 0; t < TICKS; t++) {
        while (!(XICU(X_PRIO, 4 * id) & 1u)) {
            cpu_wait();
            wakeups[id]++;
        }
        CHECK_EQ(70 + id, (XICU(X_PRIO, 4 * id) >> 8) & 0x1F, id);
        (void)XICU(X_PTI_ACK, id);
    }
    elapsed[id] = count_now() - t0;
    XICU(X_PTI_PER, id) = 0;
    atomic_add(&done, 1);
    mailbox_send(0, id);
}

void secondary_main(uint32_t id)
{
    tick_loop(id);
    for (;;)
        cpu_wait();
}

int main(void)
{
    mailbox_setup(0);
    tick_loop(0);
    while (done != NCPU) { /* sleep: the others' mailbox messages wake us */
        cpu_wait();
        (void)XICU(X_WTI_REG, 0);
    }
    for (uint32_t i = 0; i < NCPU; i++) {
        uint32_t exp = TICKS * period_of(i);
        /* within a few quanta of the exact value */
        CHECK(10 + i, elapsed[i] >= exp - 20000 && elapsed[i] <= exp + 20000);
        /* woken by its own timer only: about one wake-up per tick */
        CHECK(20 + i, wakeups[i] <= TICKS + 1);
        puts_("cpu ");
        putdec(i);
        puts_(" elapsed ");
        putdec(elapsed[i]);
        puts_(" wakeups ");
        putdec(wakeups[i]);
        putch('\n');
    }
    return 0;
}
