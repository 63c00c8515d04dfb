/*
 * t_xicu: XICU (reference 4.2) - CONFIG, PTI timers (PER/VAL/ACK, periodic
 * and one-shot), masks, *_ACTIVE, PRIO, WTI mailboxes, outputs -> Cause.IP,
 * interrupt delivery, `wait` (wakes on a raw line even with IE=0; time
 * jumps to the next timer event).
 */
#include "test.h"

#define X_WTI(i) XICU_REG(XICU_WTI_REG, i)
#define X_PER(i) XICU_REG(XICU_PTI_PER, i)
#define X_VAL(i) XICU_REG(XICU_PTI_VAL, i)
#define X_ACK(i) XICU_REG(XICU_PTI_ACK, i)
#define X_MSK_PTI(o) XICU_REG(XICU_MSK_PTI, o)
#define X_PTI_EN(o) XICU_REG(XICU_MSK_PTI_ENABLE, o)
#define X_PTI_DIS(o) XICU_REG(XICU_MSK_PTI_DISABLE, o)
#define X_MSK_HWI(o) XICU_REG(XICU_MSK_HWI, o)
#define X_HWI_EN(o) XICU_REG(XICU_MSK_HWI_ENABLE, o)
#define X_HWI_DIS(o) XICU_REG(XICU_MSK_HWI_DISABLE, o)
#define X_MSK_WTI(o) XICU_REG(XICU_MSK_WTI, o)
#define X_WTI_EN(o) XICU_REG(XICU_MSK_WTI_ENABLE, o)
#define X_WTI_DIS(o) XICU_REG(XICU_MSK_WTI_DISABLE, o)
#define X_PRIO(o) XICU_REG(XICU_PRIO, o)
#define X_CONFIG XICU_REG(XICU_CONFIG, 0)

static volatile int nirq, npti, nwti;
static volatile uint32_t last_prio, last_cause, first_irq_count, wti_val;

static void irq(exc_frame *f, uint32_t cause)
{
    (void)f;
    nirq++;
    last_cause = cause;
    if (nirq == 1)
        first_irq_count = count_now();
    uint32_t prio = REG32(X_PRIO(0));
    last_prio = prio;
    if (prio & 1) { /* PTI first, like Linux */
        (void)REG32(X_ACK((prio >> 8) & 31));
        npti++;
    } else if (prio & 4) {
        wti_val = REG32(X_WTI((prio >> 24) & 31)); /* read clears */
        nwti++;
    } else {
        fail(99, "spurious interrupt, prio", prio, cause);
    }
}

static void wait_insn(void) { __asm__ volatile("wait" ::: "memory"); }

int main(void)
{
    /* 4 outputs, 1 WTI, the spec's HWI inputs, 1 PTI */
    CHECK_EQ(1, REG32(X_CONFIG), 0x04010001u | (uint32_t)XICU_HWI_COUNT << 8);
    /* reset state: masks 0, nothing pending */
    for (int o = 0; o < 4; o++) {
        CHECK_EQ(2, REG32(X_MSK_PTI(o)), 0);
        CHECK_EQ(3, REG32(X_MSK_HWI(o)), 0);
        CHECK_EQ(4, REG32(X_MSK_WTI(o)), 0);
        CHECK_EQ(5, REG32(X_PRIO(o)), 0);
    }
    CHECK_EQ(6, REG32(X_PER(0)), 0);
    CHECK_EQ(7, REG32(X_VAL(0)), 0);

    /* mask registers */
    REG32(X_PTI_EN(1)) = 1;
    REG32(X_WTI_EN(1)) = 1;
    REG32(X_HWI_EN(1)) = 6;
    CHECK_EQ(10, REG32(X_MSK_PTI(1)), 1);
    CHECK_EQ(11, REG32(X_MSK_HWI(1)), 6);
    REG32(X_HWI_DIS(1)) = 2;
    CHECK_EQ(12, REG32(X_MSK_HWI(1)), 4);
    REG32(X_MSK_HWI(1)) = 0;
    REG32(X_MSK_PTI(1)) = 0;
    REG32(X_MSK_WTI(1)) = 0;
    CHECK_EQ(13, REG32(X_MSK_WTI(1)), 0);

    /* ---- periodic timer, interrupts through output 0 = IP2 ---- */
    irq_hook = irq;
    REG32(X_PTI_EN(0)) = 1;
    uint32_t t0 = count_now();
    REG32(X_PER(0)) = 2000; /* VAL was 0: loads 2000 */
    uint32_t v1 = REG32(X_VAL(0));
    uint32_t v2 = REG32(X_VAL(0));
    CHECK(20, v1 <= 2000 && v1 > 1900);
    CHECK(21, v2 < v1);
    CHECK_EQ(22, REG32(X_PER(0)), 2000);
    MTC0(12, 0, 0x0401); /* IM2 + IE */
    while (npti < 5)
        wait_insn();
    MTC0(12, 0, 0);
    uint32_t t1 = count_now();
    CHECK(23, first_irq_count - t0 >= 2000 && first_irq_count - t0 < 2300);
    CHECK(24, t1 - t0 >= 10000 && t1 - t0 < 11000);
    CHECK_EQ(25, EXCCODE(last_cause), 0);
    CHECK_EQ(26, last_cause & 0xFC00, 0x0400); /* IP2 */
    CHECK_EQ(27, last_prio & 0xFF, 1);         /* PTI active, index 0 */

    /* pending without delivery: Cause.IP2 follows output 0, ACTIVE reads */
    while (!(MFC0(13, 0) & 0x400))
        ;
    CHECK_EQ(30, REG32(X_PTI_DIS(0)), 1); /* PTI_ACTIVE = mask & pending */
    CHECK_EQ(31, REG32(X_PRIO(0)), 1);
    CHECK_EQ(32, REG32(X_ACK(0)), 0);
    CHECK_EQ(33, MFC0(13, 0) & 0xFC00, 0);
    /* route the PTI to output 1 instead: Cause.IP3 */
    REG32(X_PTI_DIS(0)) = 1;
    REG32(X_PTI_EN(1)) = 1;
    while (!(MFC0(13, 0) & 0x800))
        ;
    CHECK_EQ(34, MFC0(13, 0) & 0xFC00, 0x800);
    CHECK_EQ(35, REG32(X_PRIO(1)) & 1, 1);
    CHECK_EQ(36, REG32(X_PRIO(0)), 0);
    (void)REG32(X_ACK(0));
    REG32(X_MSK_PTI(1)) = 0;

    /* wait wakes on a raw line even with IE = 0 (no interrupt taken) */
    REG32(X_PTI_EN(0)) = 1;
    int before = nirq;
    wait_insn();
    CHECK_EQ(40, nirq, before);
    CHECK_EQ(41, MFC0(13, 0) & 0x400, 0x400);
    (void)REG32(X_ACK(0));

    /* PER = 0 stops the timer and clears VAL and pending */
    REG32(X_PER(0)) = 0;
    CHECK_EQ(42, REG32(X_VAL(0)), 0);
    for (volatile int i = 0; i < 3000; i++)
        ;
    CHECK_EQ(43, REG32(X_PTI_DIS(0)), 0);

    /* one-shot as Linux does it: PER = ~0, VAL = delta, ack by PER = 0 */
    npti = 0;
    nirq = 0;
    t0 = count_now();
    REG32(X_PER(0)) = 0xFFFFFFFF;
    REG32(X_VAL(0)) = 5000;
    MTC0(12, 0, 0x0401);
    while (npti < 1)
        wait_insn();
    MTC0(12, 0, 0);
    REG32(X_PER(0)) = 0;
    CHECK(50, first_irq_count - t0 >= 5000 && first_irq_count - t0 < 5300);

    /* a long timer: `wait` jumps there at once (checked by wall time in pytest) */
    npti = 0;
    REG32(X_PER(0)) = 250000000; /* 10 s of guest time at 25 MHz */
    MTC0(12, 0, 0x0401);
    while (npti < 1)
        wait_insn();
    MTC0(12, 0, 0);
    REG32(X_PER(0)) = 0;

    /* ---- WTI: write sets pending (+ value), read returns value and clears ---- */
    REG32(X_MSK_PTI(0)) = 0;
    REG32(X_WTI_EN(0)) = 1;
    nirq = 0;
    MTC0(12, 0, 0x0401);
    REG32(X_WTI(0)) = 0xCAFE;
    __asm__ volatile("nop; nop" ::: "memory");
    MTC0(12, 0, 0);
    CHECK_EQ(60, nwti, 1);
    CHECK_EQ(61, wti_val, 0xCAFE);
    CHECK_EQ(62, (last_prio & 0xFF), 4);
    CHECK_EQ(63, REG32(X_WTI_DIS(0)), 0); /* WTI_ACTIVE: cleared by the read */
    /* PRIO with several sources pending */
    REG32(X_WTI(0)) = 1;
    REG32(X_PTI_EN(0)) = 1;
    REG32(X_PER(0)) = 100;
    while (!(REG32(X_PTI_DIS(0)) & 1))
        ;
    REG32(X_PER(0)) = 0;         /* stop: also clears the PTI pending bit */
    CHECK_EQ(64, REG32(X_PRIO(0)), 4);
    REG32(X_PER(0)) = 100;
    while (!(REG32(X_PTI_DIS(0)) & 1))
        ;
    CHECK_EQ(65, REG32(X_PRIO(0)), 5); /* PTI 0 + WTI 0 */
    REG32(X_PER(0)) = 0;
    (void)REG32(X_WTI(0));
    CHECK_EQ(66, REG32(X_PRIO(0)), 0);
    REG32(X_MSK_PTI(0)) = 0;
    REG32(X_MSK_WTI(0)) = 0;
    irq_hook = 0;
    return 0;
}
