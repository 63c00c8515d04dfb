/*
 * smp.h - helpers for the multi-CPU bare-metal tests (run with a DTB from
 * emulator/tests/dts/smpN.dts).  Secondary CPUs enter secondary_main(id)
 * after CPU 0 has cleared .bss (crt0.S); they handle no exceptions, so they
 * sleep with `wait` and interrupts off (wait ends on a raw IRQ line).
 */
#ifndef SMP_H
#define SMP_H

#include "test.h"

/* XICU functions (reference 4.2; hwdesc.h): MSK_WTI_DISABLE reads the active WTIs */
enum { X_WTI_REG = XICU_WTI_REG, X_PTI_PER = XICU_PTI_PER, X_PTI_VAL = XICU_PTI_VAL,
       X_PTI_ACK = XICU_PTI_ACK, X_MSK_PTI = XICU_MSK_PTI, X_MSK_HWI = XICU_MSK_HWI,
       X_MSK_WTI = XICU_MSK_WTI, X_WTI_ACTIVE = XICU_MSK_WTI_DISABLE, X_PRIO = XICU_PRIO,
       X_CONFIG = XICU_CONFIG };
#define XICU(func, idx) REG32(XICU_REG(func, idx))

static inline uint32_t cpu_id(void) { return MFC0(CP0(EBASE)) & CP0_EBASE_CPUNUM; }

static inline void cpu_wait(void) { __asm__ volatile("wait" ::: "memory"); }

/* atomic add with ll/sc; returns the old value */
static inline uint32_t atomic_add(volatile uint32_t *p, uint32_t v)
{
    uint32_t old, tmp;
    __asm__ volatile("1: ll %0, 0(%2)\n\t"
                     "addu %1, %0, %3\n\t"
                     "sc %1, 0(%2)\n\t"
                     "beqz %1, 1b\n\t"
                     "nop"
                     : "=&r"(old), "=&r"(tmp)
                     : "r"(p), "r"(v)
                     : "memory");
    return old;
}

static inline uint32_t ll(volatile uint32_t *p)
{
    uint32_t v;
    __asm__ volatile("ll %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}

/* returns 1 if the store happened */
static inline uint32_t sc(volatile uint32_t *p, uint32_t v)
{
    __asm__ volatile("sc %0, 0(%1)" : "+r"(v) : "r"(p) : "memory");
    return v;
}

/* Route WTI `id` (the CPU's mailbox) to the CPU's output 4*id (line 0). */
static inline void mailbox_setup(uint32_t id) { XICU(X_MSK_WTI, XICU_OUTPUTS_PER_CPU * id) = 1u << id; }

/* Sleep until the mailbox has a message; return it (reading acknowledges). */
static inline uint32_t mailbox_wait(uint32_t id)
{
    while (!(XICU(X_WTI_ACTIVE, XICU_OUTPUTS_PER_CPU * id) & (1u << id)))
        cpu_wait();
    return XICU(X_WTI_REG, id);
}

static inline void mailbox_send(uint32_t to, uint32_t v) { XICU(X_WTI_REG, to) = v; }

#endif
