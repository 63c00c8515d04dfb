/*
 * pmu.c - performance counters: MIPS32 PerfCtl/PerfCnt pairs, kept exactly.
 *
 * The spec's isa.cp0.pmu names the events and the control fields
 * (hwdesc.h: CP0_PMU_*, CP0_PERFCTL_*).  Counts are computed lazily: a
 * cycle or instruction counter advances, at each sync, by the cycles or
 * instructions since the previous one if the CPU was in a mode its control
 * word selects.  Every mode change accounts first (the instruction that
 * changes the mode, eret or mtc0, completes in the old one), so the mode
 * between two accounts is the one the earlier saw.
 * Exceptions and interrupts are counted as they are taken.  The run loop
 * ends a CPU's run at pmu_next, the earliest time a counter could
 * overflow, and syncs there: an overflow interrupt is raised exactly at
 * the instruction that overflows (later only if the CPU sat in `wait`).
 */
#include "internal.h"

#if CP0_PMU_COUNTERS

#define CTL_MODES (CP0_PERFCTL_EXL | CP0_PERFCTL_K | CP0_PERFCTL_U)
#define CTL_WMASK (CTL_MODES | CP0_PERFCTL_IE | CP0_PERFCTL_EVENT)
#define CNT_OVERFLOW 0x80000000u
#define PMU_CAUSE_BITS (CP0_CAUSE_PCI | (1u << (10 + CP0_PMU_IRQ_LINE)))

/* The PerfCtl mode bit that selects the mode the CPU is in now. */
static uint32_t mode_bit(const cpu_t *c)
{
    if (c->status & (ST_EXL | ST_ERL))
        return CP0_PERFCTL_EXL;
    return (c->status & ST_UM) ? CP0_PERFCTL_U : CP0_PERFCTL_K;
}

static unsigned ctl_event(uint32_t ctl)
{
    return (ctl & CP0_PERFCTL_EVENT) >> CP0_PERFCTL_EVENT_SHIFT;
}

/* Cause.PCI and the counters' interrupt line: a counter with bit 31 set
 * and its interrupt enabled. */
static void update_irq(cpu_t *c)
{
    bool pci = false;
    for (int i = 0; i < CP0_PMU_COUNTERS; i++)
        if ((c->perfcnt[i] & CNT_OVERFLOW) && (c->perfctl[i] & CP0_PERFCTL_IE))
            pci = true;
    c->pmu_irq = pci;
    c->cause = pci ? c->cause | PMU_CAUSE_BITS : c->cause & ~PMU_CAUSE_BITS;
}

uint32_t pmu_cause_bits(const cpu_t *c)
{
    return c->pmu_irq ? PMU_CAUSE_BITS : 0;
}

/* Add what was counted since the last account, through `ahead` more
 * instructions (1: the one executing now completes under the old mode or
 * setting; a debugger's write has none, and nothing goes backwards). */
static void account(cpu_t *c, unsigned ahead, unsigned not_completed)
{
    uint64_t cyc = c->cycles + ahead, ins = c->cycles - c->idle_cycles + ahead;
    if (cyc < c->pmu_cycles)
        return;
    if (c->pmu_on) {
        uint64_t dc = cyc - c->pmu_cycles, di = ins - not_completed - c->pmu_insns;
        uint32_t rerun = 0;
        if (c->pmu_rerun == c->pmu_mode && di) {
            /* the branch whose delay slot was interrupted, run again */
            rerun = c->pmu_rerun_mask;
            c->pmu_rerun = 0;
        }
        for (int i = 0; i < CP0_PMU_COUNTERS; i++) {
            uint32_t ctl = c->perfctl[i];
            if (!(ctl & c->pmu_mode))
                continue;
            if (ctl_event(ctl) == CP0_PMU_EVENT_CYCLES)
                c->perfcnt[i] += (uint32_t)dc;
            else if (ctl_event(ctl) == CP0_PMU_EVENT_INSTRUCTIONS)
                c->perfcnt[i] += (uint32_t)di - ((rerun >> i) & 1);
        }
        update_irq(c);
    }
    c->pmu_cycles = cyc;
    c->pmu_insns = ins;
}

void pmu_account(cpu_t *c, unsigned ahead)
{
    account(c, ahead, 0);
}

void pmu_mode_changed(cpu_t *c)
{
    uint64_t before = c->pmu_next;
    c->pmu_mode = mode_bit(c);
    /* The earliest cycle a counter counting in this mode reaches bit 31
     * (instructions never run ahead of cycles, so this is never late). */
    c->pmu_next = UINT64_MAX;
    for (int i = 0; i < CP0_PMU_COUNTERS; i++) {
        uint32_t ctl = c->perfctl[i], cnt = c->perfcnt[i];
        unsigned ev = ctl_event(ctl);
        if (!(ctl & c->pmu_mode) || !(ctl & CP0_PERFCTL_IE) || (cnt & CNT_OVERFLOW) ||
            (ev != CP0_PMU_EVENT_CYCLES && ev != CP0_PMU_EVENT_INSTRUCTIONS))
            continue;
        uint64_t t = c->pmu_cycles + (CNT_OVERFLOW - cnt);
        if (t < c->pmu_next)
            c->pmu_next = t;
    }
    /* The running budget ends by the deadline it started with; an earlier
     * one needs the run to end (a later one only makes it end early). */
    if (c->pmu_next < before)
        c->exit_req = true;
}

void pmu_sync(cpu_t *c)
{
    pmu_account(c, 0);
    pmu_mode_changed(c);
}

void pmu_exception(cpu_t *c, bool interrupt)
{
    unsigned ev = interrupt ? CP0_PMU_EVENT_INTERRUPTS : CP0_PMU_EVENT_EXCEPTIONS;
    /* An interrupt comes between instructions.  The instruction that
     * raised an exception took its cycle in the mode it ran in, but did not
     * complete.  In a delay slot, the branch before it runs again after
     * eret (EPC names it), and counts once. */
    if (interrupt)
        account(c, 0, 0);
    else
        account(c, 1, 1);
    /* The branch is taken off the instruction counters now: it counts
     * again wherever it runs again, which may be after a context switch
     * (another context's code runs here first, this one on another CPU).
     * A counter whose bit 31 this would change (a count that raised this
     * very interrupt must stay past bit 31 for its handler) pays at the
     * next count in this mode instead. */
    if (c->br_pending) {
        c->pmu_rerun = 0;
        c->pmu_rerun_mask = 0;
        for (int i = 0; i < CP0_PMU_COUNTERS; i++) {
            uint32_t ctl = c->perfctl[i], cnt = c->perfcnt[i];
            if (!(ctl & c->pmu_mode) || ctl_event(ctl) != CP0_PMU_EVENT_INSTRUCTIONS)
                continue;
            if (((cnt - 1) ^ cnt) & CNT_OVERFLOW)
                c->pmu_rerun_mask |= 1u << i;
            else
                c->perfcnt[i] = cnt - 1;
        }
        if (c->pmu_rerun_mask)
            c->pmu_rerun = c->pmu_mode;
    }
    for (int i = 0; i < CP0_PMU_COUNTERS; i++)
        if ((c->perfctl[i] & c->pmu_mode) && ctl_event(c->perfctl[i]) == ev)
            c->perfcnt[i]++;
    update_irq(c);
}

void pmu_reset(cpu_t *c)
{
    for (int i = 0; i < CP0_PMU_COUNTERS; i++)
        c->perfctl[i] = c->perfcnt[i] = 0;
    c->pmu_on = false;
    c->pmu_irq = false;
    c->pmu_rerun = c->pmu_rerun_mask = 0;
    c->pmu_cycles = c->cycles;
    c->pmu_insns = c->cycles - c->idle_cycles;
    c->pmu_next = UINT64_MAX;
    c->pmu_mode = mode_bit(c);
}

/* $25 sel 2n is PerfCtl n, sel 2n + 1 PerfCnt n (checked by the generator). */
bool pmu_read(cpu_t *c, int sel, uint32_t *val)
{
    int i = sel >> 1;
    if (i >= CP0_PMU_COUNTERS)
        return false;
    if (sel & 1) {
        pmu_account(c, 0); /* the count before this instruction */
        *val = c->perfcnt[i];
    } else {
        *val = c->perfctl[i] | (i + 1 < CP0_PMU_COUNTERS ? CP0_PERFCTL_MORE : 0);
    }
    return true;
}

bool pmu_write(cpu_t *c, int sel, uint32_t val)
{
    int i = sel >> 1;
    if (i >= CP0_PMU_COUNTERS)
        return false;
    /* the write takes effect after this instruction */
    pmu_account(c, 1);
    if (sel & 1)
        c->perfcnt[i] = val;
    else
        c->perfctl[i] = val & CTL_WMASK;
    c->pmu_on = false;
    for (int k = 0; k < CP0_PMU_COUNTERS; k++)
        if (c->perfctl[k] & CTL_MODES)
            c->pmu_on = true;
    update_irq(c);
    pmu_mode_changed(c); /* the new overflow deadline */
    return true;
}

#else /* no counters in the spec: Config1.PC = 0, $25 reads 0 */

uint32_t pmu_cause_bits(const cpu_t *c) { (void)c; return 0; }
void pmu_account(cpu_t *c, unsigned ahead) { (void)c; (void)ahead; }
void pmu_mode_changed(cpu_t *c) { (void)c; }
void pmu_sync(cpu_t *c) { (void)c; }
void pmu_exception(cpu_t *c, bool interrupt) { (void)c; (void)interrupt; }
void pmu_reset(cpu_t *c) { c->pmu_on = false; c->pmu_irq = false; c->pmu_next = UINT64_MAX; }
bool pmu_read(cpu_t *c, int sel, uint32_t *val) { (void)c; (void)sel; (void)val; return false; }
bool pmu_write(cpu_t *c, int sel, uint32_t val) { (void)c; (void)sel; (void)val; return false; }

#endif
