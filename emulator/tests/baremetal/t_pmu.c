/*
 * t_pmu: the performance counters (the spec's isa.cp0.pmu, MIPS32
 * PerfCtl/PerfCnt layout): presence (Config1.PC, IntCtl.IPPCI, PerfCtl.M),
 * write masks, exact instruction and cycle counts (a read gives the count
 * before it; a write takes effect after it), the mode filters (U, K, EXL:
 * eret and mtc0 Status complete in the mode they leave, a faulting
 * instruction never completes), exception and interrupt events, and the
 * overflow interrupt: Cause.PCI and IP7 exactly at the overflowing
 * instruction, cleared with the counter; a branch whose delay slot is
 * interrupted runs again but counts once, taken off as the interrupt is
 * (a context switch may come before it runs again).
 */
#include "test.h"

#define CTL(n) MFC0(25, 2 * (n))
#define CNT(n) MFC0(25, 2 * (n) + 1)
#define SET_CTL(n, v) MTC0(25, 2 * (n), v)
#define SET_CNT(n, v) MTC0(25, 2 * (n) + 1, v)
#define EV(e) ((uint32_t)(e) << CP0_PERFCTL_EVENT_SHIFT)
#define ALL_MODES (CP0_PERFCTL_U | CP0_PERFCTL_K | CP0_PERFCTL_EXL)
#define PMU_IP (1u << (10 + CP0_PMU_IRQ_LINE))

/* user code: 40 instructions, then the syscall that ends run_user */
__asm__(".set push\n.set noreorder\n.text\n"
        "u_forty:\n"
        "  .rept 40\n  addiu $t0, $t0, 1\n  .endr\n"
        "  syscall\n  nop\n"
        "u_faults:\n" /* 3 completed, 2 exceptions (break, teq), then syscall */
        "  addiu $t0, $t0, 1\n"
        "  break\n"
        "  addiu $t0, $t0, 1\n"
        "  teq  $zero, $zero\n"
        "  addiu $t0, $t0, 1\n"
        "  syscall\n  nop\n"
        ".set pop\n");
extern void u_forty(void), u_faults(void);

static volatile uint32_t irq_epc, irq_cause, irq_cnt, irq_cnt0, irq_n, rerun_start;

static void pmu_irq(exc_frame *f, uint32_t cause)
{
    (void)f;
    irq_n++;
    irq_cause = cause;
    irq_epc = MFC0(14, 0);
    irq_cnt = CNT(1);
    irq_cnt0 = CNT(0);
    SET_CTL(1, 0); /* stop counting, then clear the overflow */
    SET_CNT(1, 0);
}

/* Kernel instructions of a run_user(u_forty) counted by counter 1 in the
 * given modes (the same code path for every call). */
static __attribute__((noinline)) uint32_t user_run_counted(uint32_t modes)
{
    SET_CTL(1, EV(CP0_PMU_EVENT_INSTRUCTIONS) | modes);
    SET_CNT(1, 0);
    run_user(u_forty, 0);
    uint32_t n = CNT(1);
    SET_CTL(1, 0);
    return n;
}

/*
 * Counter 0's kernel instructions over mfc0; nop; b; nop (its slot); mfc0
 * while counter 1, started 3 instructions short of bit 31 with control
 * word ctl1, overflows right after the branch: with IE, the interrupt
 * comes at the delay slot and the branch runs again after it.
 */
static __attribute__((noinline)) uint32_t branch_rerun(uint32_t ctl1)
{
    uint32_t a, b;
    SET_CTL(0, EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_K);
    __asm__ volatile(".set push\n.set noreorder\n"
                     "mtc0 %2, $25, 3\n"
                     "mtc0 %3, $25, 2\n" /* counts from the next one */
                     "mfc0 %0, $25, 1\n" /* 1 */
                     "nop\n"              /* 2 */
                     "b 1f\n"             /* 3: bit 31 */
                     " nop\n"
                     "1: mfc0 %1, $25, 1\n"
                     ".set pop\n"
                     : "=&r"(a), "=&r"(b)
                     : "r"(0x80000000u - 3), "r"(ctl1));
    SET_CTL(0, 0);
    SET_CTL(1, 0);
    rerun_start = a;
    return b - a;
}

/* mfc0, then `n` nops, then mfc0: the second minus the first */
#define SPAN(n, a, b)                                                         \
    __asm__ volatile(".set push\n.set noreorder\n"                            \
                     "mfc0 %0, $25, 1\n"                                      \
                     ".rept " #n "\nnop\n.endr\n"                             \
                     "mfc0 %1, $25, 1\n"                                      \
                     ".set pop\n"                                             \
                     : "=&r"(a), "=&r"(b))

int main(void)
{
    uint32_t a, b;

    /* ---- presence ---- */
    CHECK_EQ(1, (MFC0(16, 1) >> 4) & 1, 1);                     /* Config1.PC */
    CHECK_EQ(2, (MFC0(12, 1) >> 26) & 7, 2 + CP0_PMU_IRQ_LINE); /* IntCtl.IPPCI */
    MTC0(12, 1, 0);
    CHECK_EQ(3, MFC0(12, 1), (2u + CP0_PMU_IRQ_LINE) << 26);    /* read-only */
    CHECK_EQ(4, CTL(0), CP0_PERFCTL_MORE);                      /* M: counter 1 follows */
    CHECK_EQ(5, CTL(1), 0);                                     /* the last one */
    SET_CTL(1, 0xFFFFFFFF);
    CHECK_EQ(6, CTL(1), ALL_MODES | CP0_PERFCTL_IE | CP0_PERFCTL_EVENT);
    SET_CTL(1, 0);
    SET_CNT(1, 0x12345678);
    CHECK_EQ(7, CNT(1), 0x12345678); /* not counting: holds its value */
    CHECK_EQ(8, CNT(1), 0x12345678);

    /* ---- exact instruction counts in kernel mode (Status = 0) ---- */
    SET_CNT(0, 0);
    SET_CTL(0, EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_K);
    CHECK_EQ(10, CNT(0), 1); /* not the enabling mtc0, the ehb after it */
    SPAN(0, a, b);
    CHECK_EQ(11, b - a, 1);  /* the first mfc0 */
    SPAN(100, a, b);
    CHECK_EQ(12, b - a, 101);
    SPAN(1000, a, b);
    CHECK_EQ(13, b - a, 1001);
    SET_CNT(0, 7);
    CHECK_EQ(14, CNT(0), 8); /* a write takes effect after it (+ its ehb) */

    /* cycles: one per instruction outside `wait`; Count agrees */
    SET_CTL(0, EV(CP0_PMU_EVENT_CYCLES) | CP0_PERFCTL_K);
    SPAN(500, a, b);
    CHECK_EQ(15, b - a, 501);
    uint32_t c0 = CNT(0), t0 = count_now();
    for (volatile int i = 0; i < 200; i++)
        ;
    uint32_t c1 = CNT(0), t1 = count_now();
    CHECK_EQ(16, c1 - c0, t1 - t0);
    /* user-only counting sees nothing of kernel code */
    SET_CTL(0, EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_U);
    SPAN(100, a, b);
    CHECK_EQ(17, b - a, 0);

    /* ---- mode filters across user mode ---- */
    SET_CTL(0, EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_U);
    SET_CNT(0, 0);
    uint32_t both = user_run_counted(CP0_PERFCTL_K | CP0_PERFCTL_EXL);
    CHECK_EQ(20, CNT(0), 40); /* the syscall does not complete */
    CHECK(21, both > 20);     /* run_user's entry, the vector, the handler */
    CHECK_EQ(22, user_run_counted(CP0_PERFCTL_K | CP0_PERFCTL_EXL), both);
    CHECK_EQ(23, CNT(0), 80);
    uint32_t exl = user_run_counted(CP0_PERFCTL_EXL);
    uint32_t k = user_run_counted(CP0_PERFCTL_K);
    CHECK(24, exl > 10 && k > 2);
    CHECK_EQ(25, exl + k, both); /* every kernel instruction in exactly one */
    CHECK_EQ(26, user_run_counted(ALL_MODES), both + 40);

    /* ---- exceptions: counted in the mode they interrupt ---- */
    SET_CTL(0, EV(CP0_PMU_EVENT_EXCEPTIONS) | CP0_PERFCTL_U);
    SET_CTL(1, EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_U);
    SET_CNT(0, 0);
    SET_CNT(1, 0);
    exc_expect = 2;
    run_user(u_faults, 0);
    exc_expect = 0;
    CHECK_EQ(30, CNT(0), 3); /* break, teq, syscall */
    CHECK_EQ(31, CNT(1), 3); /* the three addiu */
    SET_CTL(0, EV(CP0_PMU_EVENT_EXCEPTIONS) | CP0_PERFCTL_K);
    SET_CNT(0, 0);
    exc_expect = 2;
    run_user(u_faults, 0);
    exc_expect = 0;
    CHECK_EQ(32, CNT(0), 0); /* none taken from kernel mode */
    /* a faulting instruction takes its cycle in the mode it ran in */
    SET_CTL(1, EV(CP0_PMU_EVENT_CYCLES) | CP0_PERFCTL_U);
    SET_CNT(1, 0);
    exc_expect = 2;
    run_user(u_faults, 0);
    exc_expect = 0;
    CHECK_EQ(33, CNT(1), 6);
    SET_CTL(0, 0);
    SET_CTL(1, 0);

    /* ---- overflow interrupt: exactly at the overflowing instruction ---- */
    irq_hook = pmu_irq;
    SET_CTL(0, EV(CP0_PMU_EVENT_INTERRUPTS) | ALL_MODES);
    SET_CNT(0, 0);
    SET_CNT(1, 0x80000000u - 1000);
    SET_CTL(1, EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_K | CP0_PERFCTL_IE);
    CHECK_EQ(40, MFC0(13, 0) & (CP0_CAUSE_PCI | PMU_IP), 0);
    MTC0(12, 0, PMU_IP | ST_IE);
    __asm__ volatile(".set push\n.set noreorder\n"
                     ".rept 1200\nnop\n.endr\n"
                     ".set pop\n");
    MTC0(12, 0, 0);
    CHECK_EQ(41, irq_n, 1);
    CHECK_EQ(42, irq_cause & (CP0_CAUSE_PCI | PMU_IP), CP0_CAUSE_PCI | PMU_IP);
    /* taken at the overflowing instruction: the handler runs with EXL set,
     * which counter 1 does not count */
    CHECK_EQ(43, irq_cnt, 0x80000000u);
    CHECK_EQ(44, CNT(0), 1); /* the interrupt event */
    CHECK_EQ(45, MFC0(13, 0) & (CP0_CAUSE_PCI | PMU_IP), 0); /* cleared with the counter */

    /* an interrupt in a delay slot: the branch runs twice, counts once */
    irq_n = 0;
    MTC0(12, 0, PMU_IP | ST_IE);
    uint32_t quiet = branch_rerun(EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_K);
    uint32_t rerun = branch_rerun(EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_K |
                                  CP0_PERFCTL_IE);
    MTC0(12, 0, 0);
    CHECK_EQ(50, irq_n, 1);
    CHECK_EQ(51, irq_cause & CAUSE_BD, CAUSE_BD);
    CHECK_EQ(52, irq_cnt, 0x80000000u);
    CHECK_EQ(53, quiet, 4); /* mfc0, nop, b, nop */
    CHECK_EQ(54, rerun, quiet);
    /* counter 0, not at bit 31, no longer counts the branch in the handler */
    CHECK_EQ(55, irq_cnt0 - rerun_start, 2); /* mfc0, nop */

    /* an overflow without IE raises nothing; enabling IE afterwards does */
    irq_n = 0;
    SET_CNT(1, 0x7FFFFFF0u);
    SET_CTL(1, EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_K);
    SPAN(100, a, b);
    CHECK(46, CNT(1) >= 0x80000000u);
    CHECK_EQ(47, MFC0(13, 0) & CP0_CAUSE_PCI, 0);
    SET_CTL(1, EV(CP0_PMU_EVENT_INSTRUCTIONS) | CP0_PERFCTL_K | CP0_PERFCTL_IE);
    CHECK_EQ(48, MFC0(13, 0) & (CP0_CAUSE_PCI | PMU_IP), CP0_CAUSE_PCI | PMU_IP);
    MTC0(12, 0, PMU_IP | ST_IE);
    MTC0(12, 0, 0);
    CHECK_EQ(49, irq_n, 1);
    SET_CTL(0, 0);
    SET_CTL(1, 0);
    SET_CNT(1, 0);
    return 0;
}
