/*
 * smp.h - helpers for the multi-CPU bare-metal tests (run with a DTB from
 * emulator/tests/dts/smpN.dts).  Secondary CPUs enter secondary_main(id)
 * after CPU 0 has cleared .bss (crt0.S); they handle no exceptions, so they
 * sleep with `wait` and interrupts off (wait ends on a raw IRQ line).
 */
#ifndef SMP_H
#define SMP_H

#include "test.h"

/* XICU functions (reference 4.2) */
enum { X_WTI_REG = 0, X_PTI_PER = 1, X_PTI_VAL = 2, X_PTI_ACK = 3, X_MSK_PTI = 4,
       X_MSK_HWI = 8, X_MSK_WTI = 12, X_WTI_ACTIVE = 14, X_PRIO = 15, X_CONFIG = 16 };
#define XICU(func, idx) REG32(XICU_REG(func, idx))

static inline uint32_t cpu_id(void) { return MFC0(15, 1) & 0xFFF; }

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
static inline void mailbox_setup(uint32_t id) { XICU(X_MSK_WTI, 4 * id) = 1u << id; }

/* Sleep until the mailbox has a message; return it (reading acknowledges). */
static inline uint32_t mailbox_wait(uint32_t id)
{
    while (!(XICU(X_WTI_ACTIVE, 4 * id) & (1u << id)))
        cpu_wait();
    return XICU(X_WTI_REG, id);
}

static inline void mailbox_send(uint32_t to, uint32_t v) { XICU(X_WTI_REG, to) = v; }

#endif
