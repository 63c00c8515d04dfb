/*
 * t_irq_ds: interrupts arriving on every instruction of a loop, including
 * the delay slot of its branch: EPC must then be the branch with Cause.BD
 * set, and eret must re-execute the branch so that the loop's effects are
 * exact (the delay slot runs exactly once per iteration).
 */
#include "test.h"

#define X_PER(i) XICU_REG(XICU_PTI_PER, i)
#define X_ACK(i) XICU_REG(XICU_PTI_ACK, i)
#define X_PTI_EN(o) XICU_REG(XICU_MSK_PTI_ENABLE, o)
#define X_MSK_PTI(o) XICU_REG(XICU_MSK_PTI, o)

extern char loop_br[], loop_top[];
static volatile int nirq, nbd, nbr, ntop;

static void irq(exc_frame *f, uint32_t cause)
{
    (void)f;
    uint32_t epc = MFC0(14, 0);
    nirq++;
    if (cause & CAUSE_BD) {
        nbd++;
        if (epc != (uint32_t)(uintptr_t)loop_br)
            fail(10, "BD set but EPC is not the branch", epc, (uint32_t)(uintptr_t)loop_br);
    } else if (epc == (uint32_t)(uintptr_t)loop_br) {
        nbr++;
    } else if (epc == (uint32_t)(uintptr_t)loop_top) {
        ntop++;
    }
    (void)REG32(X_ACK(0));
}

/* one copy of the loop (noinline: the labels must be unique) */
__attribute__((noinline)) static void run_loop(uint32_t n, uint32_t *pi, uint32_t *pd)
{
    uint32_t i = 0, d = 0;
    __asm__ volatile(".set push\n\t.set noreorder\n\t"
                     ".globl loop_top, loop_br\n"
                     "loop_top:\n\t"
                     "addiu %0, %0, 1\n"
                     "loop_br:\n\t"
                     "bne   %0, %2, loop_top\n\t"
                     "addiu %1, %1, 1\n\t" /* delay slot */
                     ".set pop"
                     : "+r"(i), "+r"(d)
                     : "r"(n));
    *pi = i;
    *pd = d;
}

int main(void)
{
    irq_hook = irq;
    REG32(X_PTI_EN(0)) = 1;
    uint32_t iters = 0, ds = 0;
    /* periods that are not multiples of the 3-instruction loop: the
     * interrupt walks over every position */
    for (uint32_t per = 301; per <= 306; per++) {
        REG32(X_PER(0)) = per;
        MTC0(12, 0, 0x0401);
        uint32_t n = 20000, i, d;
        run_loop(n, &i, &d);
        MTC0(12, 0, 0);
        REG32(X_PER(0)) = 0;
        iters += i;
        ds += d;
        CHECK_EQ(1, i, n);
        CHECK_EQ(2, d, n); /* the slot ran exactly once per iteration */
    }
    REG32(X_MSK_PTI(0)) = 0;
    CHECK(3, nirq > 300);
    CHECK(4, nbd > 50);   /* some hit the delay slot ... */
    CHECK(5, nbr > 50);   /* ... some the branch ... */
    CHECK(6, ntop > 50);  /* ... and some the first instruction */
    CHECK_EQ(7, iters, 6 * 20000);
    return 0;
}
