/*
 * test.h - helpers for the bare-metal test programs.
 *
 * A test's main() returns 0 on success; CHECK(n, cond) ends the run with
 * exit status n (and a message on the TTY) when cond is false, so the exit
 * status names the failing check.  Unexpected exceptions end the run with
 * 200 + ExcCode.
 */
#ifndef TEST_H
#define TEST_H

#include <stdint.h>
#include "regs.h"

typedef uint32_t u32;

#define REG32(a) (*(volatile uint32_t *)(uintptr_t)(a))

#define MFC0(reg, sel)                                                        \
    ({                                                                        \
        uint32_t v_;                                                          \
        __asm__ volatile("mfc0 %0, $" #reg ", " #sel : "=r"(v_));             \
        v_;                                                                   \
    })
#define MTC0(reg, sel, v)                                                     \
    __asm__ volatile("mtc0 %0, $" #reg ", " #sel "\n\tehb" ::"r"((uint32_t)(v)) : "memory")
#define MFC2(reg)                                                             \
    ({                                                                        \
        uint32_t v_;                                                          \
        __asm__ volatile("mfc2 %0, $" #reg : "=r"(v_)::"memory");             \
        v_;                                                                   \
    })
#define MTC2(reg, v) __asm__ volatile("mtc2 %0, $" #reg ::"r"((uint32_t)(v)) : "memory")

/* CP0 Status / Cause bits */
#define ST_IE 0x1u
#define ST_EXL 0x2u
#define ST_ERL 0x4u
#define ST_UM 0x10u
#define ST_BEV 0x00400000u
#define ST_CU0 0x10000000u
#define ST_CU2 0x40000000u
#define CAUSE_BD 0x80000000u
#define EXCCODE(c) (((c) >> 2) & 0x1F)
#define CAUSE_CE(c) (((c) >> 28) & 3)

enum { EXC_INT = 0, EXC_ADEL = 4, EXC_ADES = 5, EXC_IBE = 6, EXC_DBE = 7, EXC_SYS = 8,
       EXC_BP = 9, EXC_RI = 10, EXC_CPU = 11, EXC_OV = 12, EXC_TR = 13 };

/* saved by crt0 at reset */
extern volatile uint32_t boot_regs[32];
extern volatile uint32_t boot_cp[16];
extern volatile uint32_t iv_hits, bev_hits; /* counted by crt0's +0x200 / BEV vectors */
enum { BOOT_STATUS, BOOT_CAUSE, BOOT_EBASE, BOOT_PRID, BOOT_MODE, BOOT_COUNT,
       BOOT_HWRENA, BOOT_USERLOCAL, BOOT_DPEXT, BOOT_IPEXT, BOOT_PTPR };

/* exception bookkeeping (lib.c) */
typedef struct exc_frame { uint32_t r[32]; uint32_t hi, lo; } exc_frame;
extern volatile int exc_expect;     /* >0: that many exceptions are expected */
extern volatile int exc_count;
extern volatile uint32_t exc_cause, exc_epc, exc_badvaddr, exc_status;
extern volatile uint32_t exc_resume;      /* if set: EPC := this (then cleared) */
extern void (*volatile irq_hook)(exc_frame *f, uint32_t cause);
extern void (*volatile exc_hook)(exc_frame *f, uint32_t cause);

void exc_default_resume(uint32_t cause);
void putch(int c);
void puts_(const char *s);
void puthex(uint32_t v);
void putdec(uint32_t v);
__attribute__((noreturn)) void fail(int n, const char *what, uint32_t got, uint32_t exp);
__attribute__((noreturn)) void sim_exit(uint32_t code);

#define CHECK(n, cond)                                                        \
    do {                                                                      \
        if (!(cond))                                                          \
            fail(n, #cond, 0, 0);                                             \
    } while (0)
#define CHECK_EQ(n, got, exp)                                                 \
    do {                                                                      \
        uint32_t g_ = (uint32_t)(got), e_ = (uint32_t)(exp);                  \
        if (g_ != e_)                                                         \
            fail(n, #got " == " #exp, g_, e_);                                \
    } while (0)

/* Expect exactly one exception while running `stmt`, with ExcCode `code`. */
#define EXPECT_EXC(n, code, stmt)                                             \
    do {                                                                      \
        int c0_ = exc_count;                                                  \
        exc_expect = 1;                                                       \
        stmt;                                                                 \
        exc_expect = 0;                                                       \
        CHECK_EQ(n, exc_count - c0_, 1);                                      \
        CHECK_EQ(n, EXCCODE(exc_cause), code);                                \
    } while (0)

/* Switch to user mode at `fn` (with EXL + eret); fn must end with a syscall,
 * which brings us back to kernel mode after this call. */
void run_user(void (*fn)(void), uint32_t extra_status);

static inline uint32_t count_now(void) { return MFC0(9, 0); }

#endif
