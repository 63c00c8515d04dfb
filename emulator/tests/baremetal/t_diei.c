/*
 * t_diei: di, ei and CP2 writes that flush nothing (SYNC, LL_RESET) in a
 * hot loop, with a timer interrupt walking over every position: an
 * interrupt that comes while di has masked it is taken right after the ei
 * (EPC = the word after it), never in between; an ll reservation does not
 * survive LL_RESET. The translating tier runs these as helper calls inside
 * host code (test_block_interp compares both tiers' counts).
 */
#include "test.h"

#define X_PER(i) XICU_REG(XICU_PTI_PER, i)
#define X_ACK(i) XICU_REG(XICU_PTI_ACK, i)
#define X_PTI_EN(o) XICU_REG(XICU_MSK_PTI_ENABLE, o)
#define X_MSK_PTI(o) XICU_REG(XICU_MSK_PTI, o)

extern char masked_first[], masked_last[], after_ei[];
static volatile int nirq, nafter, nmasked;
static volatile uint32_t llword;

static void irq(exc_frame *f, uint32_t cause)
{
    (void)f;
    (void)cause;
    uint32_t epc = MFC0(14, 0);
    nirq++;
    if (epc >= (uint32_t)(uintptr_t)masked_first && epc <= (uint32_t)(uintptr_t)masked_last)
        nmasked++;
    if (epc == (uint32_t)(uintptr_t)after_ei)
        nafter++;
    (void)REG32(X_ACK(0));
}

/* n iterations; returns the sum of the Status values di and ei read, and
 * in *sc how many sc (after an ll and LL_RESET) succeeded */
__attribute__((noinline)) static uint32_t run_loop(uint32_t n, uint32_t *sc)
{
    uint32_t i = 0, sum = 0, a, b, ok = 0, v;
    __asm__ volatile(".set push\n\t.set noreorder\n\t"
                     ".globl masked_first, masked_last, after_ei\n"
                     "1:\n\t"
                     "di    %2\n"
                     "masked_first:\n\t"
                     "addu  %1, %1, %2\n\t"
                     "ll    %4, 0(%7)\n\t"
                     "mtc2  $0, $%c8\n\t"   /* LL_RESET */
                     "mtc2  $0, $%c9\n\t"   /* SYNC */
                     "sc    %4, 0(%7)\n\t"
                     "addu  %5, %5, %4\n"
                     "masked_last:\n\t"
                     "ei    %3\n"
                     "after_ei:\n\t"
                     "addu  %1, %1, %3\n\t"
                     "addiu %0, %0, 1\n\t"
                     "bne   %0, %6, 1b\n\t"
                     "nop\n\t"
                     ".set pop"
                     : "+r"(i), "+r"(sum), "=&r"(a), "=&r"(b), "=&r"(v), "+r"(ok)
                     : "r"(n), "r"(&llword), "i"(CP2_LL_RESET), "i"(CP2_SYNC)
                     : "memory");
    *sc = ok;
    return sum;
}

int main(void)
{
    irq_hook = irq;
    REG32(X_PTI_EN(0)) = 1;
    uint32_t total = 0;
    for (uint32_t per = 301; per <= 313; per++) {
        REG32(X_PER(0)) = per;
        MTC0(12, 0, 0x0401);
        uint32_t n = 5000, sc;
        uint32_t sum = run_loop(n, &sc);
        MTC0(12, 0, 0);
        REG32(X_PER(0)) = 0;
        CHECK_EQ(1, sc, 0);                   /* LL_RESET broke every reservation */
        CHECK_EQ(2, sum, n * (0x0401 + 0x0400)); /* di read IE set, ei read it clear */
        total += n;
    }
    REG32(X_MSK_PTI(0)) = 0;
    CHECK_EQ(3, nmasked, 0);  /* never between di and ei */
    CHECK(4, nirq > 150);
    CHECK(5, nafter > 100);   /* the masked ones: right after the ei */
    CHECK_EQ(6, total, 13 * 5000);
    return 0;
}
