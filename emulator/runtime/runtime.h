/*
 * runtime.h - the bare-metal runtime of tsar-emu's guest programs (the
 * bare-metal tests, the bench's TSAR platform, the diff harness's TSAR side,
 * fuzz seeds): crt0.S (start-up, exception vectors, exit), lib.c (console,
 * exit, exception dispatch), mmu.c/mmu.h (page tables), link.ld.
 *
 * Every platform fact comes from hwdesc.h, generated from the spec
 * (generate.py emulator/platform.yaml --hwdesc $(BUILD)/hwdesc): device
 * bases (TTY_BASE, SIMHELPER_BASE, ...), their registers (TTY_WRITE,
 * SIMHELPER_END_WITH_RETVAL, XICU_PTI_PER, ...), PTE bits (PTE_V, ...), MMU
 * fault types (MMU_FAULT_*), MODE bits (MMU_MODE_*), CP2 and CP0 register
 * numbers (CP2_PTPR, CP0_STATUS_REG/_SEL, ...).  C and assembler alike.
 */
#ifndef RUNTIME_H
#define RUNTIME_H

#include "hwdesc.h"

/* a CP0 register as "number, select": MFC0(CP0(STATUS)), mfc0n $t0, CP0(STATUS) */
#define CP0(name) CP0_##name##_REG, CP0_##name##_SEL
/* word address of an XICU register: function (XICU_PTI_PER...) and index */
#define XICU_REG(func, idx) (XICU_BASE + ((func) << XICU_FUNC_SHIFT) + ((idx) << XICU_INDEX_SHIFT))

#ifdef __ASSEMBLER__
/* Coprocessor accesses by number (the hwdesc.h macros expand to numbers;
 * the assembler wants $n):  mtc2n $t0, CP2_PTPR   mfc0n $t0, CP0(EBASE) */
    .macro mtc2n rt, n
    mtc2    \rt, $\n
    .endm
    .macro mfc2n rt, n
    mfc2    \rt, $\n
    .endm
    .macro mtc0n rt, r, s
    mtc0    \rt, $\r, \s
    .endm
    .macro mfc0n rt, r, s
    mfc0    \rt, $\r, \s
    .endm
    /* MMU set-up helpers (noreorder inside; registers are clobbered as said).
     * pte1: PT1[va >> big page shift] = flags | pa >> big page shift (a big
     * page); pt = PT1's address */
    .macro pte1 pt, tmp, va, pa, flags
    li      \tmp, (\flags) | ((\pa) >> MMU_BIG_PAGE_SHIFT)
    sw      \tmp, ((\va) >> MMU_BIG_PAGE_SHIFT) * PT1_ENTRY_BYTES(\pt)
    .endm
    /* ptd1: PT1[va >> big page shift] = V | T | pt2 >> page shift (pt2: the
     * PT2's address in a register) */
    .macro ptd1 pt, pt2, tmp, tmp2, va
    srl     \tmp, \pt2, MMU_PAGE_SHIFT
    li      \tmp2, PTE_V | PTE_T
    or      \tmp, \tmp, \tmp2
    sw      \tmp, ((\va) >> MMU_BIG_PAGE_SHIFT) * PT1_ENTRY_BYTES(\pt)
    .endm
    /* pt2_fill: the PT2 at pt2 (advanced past it) = PT2_ENTRIES x {flags,
     * ppn + i}: pages from ppn on */
    .macro pt2_fill pt2, flags, ppn, t0, t1, t2
    .set    push
    .set    noreorder
    li      \t0, \flags
    li      \t1, \ppn
    addiu   \t2, \t1, PT2_ENTRIES
.Lpt2_fill\@:
    sw      \t0, 0(\pt2)
    sw      \t1, PTE2_PPN_WORD * 4(\pt2)
    addiu   \t1, \t1, 1
    bne     \t1, \t2, .Lpt2_fill\@
    addiu   \pt2, \pt2, PT2_ENTRY_BYTES
    .set    pop
    .endm
    /* zero: clear [ra, ra + bytes) word by word (ra advanced, tmp clobbered) */
    .macro zero ra, tmp, bytes
    .set    push
    .set    noreorder
    addiu   \tmp, \ra, \bytes
.Lzero\@:
    sw      $0, 0(\ra)
    addiu   \ra, \ra, 4
    bne     \ra, \tmp, .Lzero\@
    nop
    .set    pop
    .endm
    /* mmu_on: sync; PTPR = pt >> PTPR shift; MODE = mode (pt: PT1's address
     * in a register, clobbered); two nops for the pipeline */
    .macro mmu_on pt, mode
    sync
    srl     \pt, \pt, MMU_PTPR_SHIFT
    mtc2n   \pt, CP2_PTPR
    li      \pt, \mode
    mtc2n   \pt, CP2_MODE
    nop
    nop
    .endm
#else
#include <stdint.h>

#define REG32(a) (*(volatile uint32_t *)(uintptr_t)(a))

/* CP0 Status / Cause fields and exception codes (the spec's isa.cp0) */
#define ST_IE CP0_STATUS_IE
#define ST_EXL CP0_STATUS_EXL
#define ST_ERL CP0_STATUS_ERL
#define ST_UM CP0_STATUS_UM
#define ST_BEV CP0_STATUS_BEV
#define ST_CU0 CP0_STATUS_CU0
#define ST_CU2 CP0_STATUS_CU2
#define CAUSE_BD CP0_CAUSE_BD
#define EXCCODE(c) (((c) & CP0_CAUSE_EXCCODE) >> CP0_CAUSE_EXCCODE_SHIFT)
#define CAUSE_CE(c) (((c) & CP0_CAUSE_CE) >> CP0_CAUSE_CE_SHIFT)
enum { EXC_INT = CP0_EXC_INT, EXC_ADEL = CP0_EXC_ADEL, EXC_ADES = CP0_EXC_ADES,
       EXC_IBE = CP0_EXC_IBE, EXC_DBE = CP0_EXC_DBE, EXC_SYS = CP0_EXC_SYS, EXC_BP = CP0_EXC_BP,
       EXC_RI = CP0_EXC_RI, EXC_CPU = CP0_EXC_CPU, EXC_OV = CP0_EXC_OV, EXC_TR = CP0_EXC_TR };

/* MFC0(12, 0) or MFC0(CP0(STATUS)); MFC2(11) or MFC2(CP2_IETR) */
#define MFC0_(reg, sel)                                                       \
    ({                                                                        \
        uint32_t v_;                                                          \
        __asm__ volatile("mfc0 %0, $" #reg ", " #sel : "=r"(v_));             \
        v_;                                                                   \
    })
#define MFC0(...) MFC0_(__VA_ARGS__)
#define MTC0_(reg, sel, v)                                                    \
    __asm__ volatile("mtc0 %0, $" #reg ", " #sel "\n\tehb" ::"r"((uint32_t)(v)) : "memory")
#define MTC0(...) MTC0_(__VA_ARGS__)
#define MFC2_(reg)                                                            \
    ({                                                                        \
        uint32_t v_;                                                          \
        __asm__ volatile("mfc2 %0, $" #reg : "=r"(v_)::"memory");             \
        v_;                                                                   \
    })
#define MFC2(reg) MFC2_(reg)
#define MTC2_(reg, v) __asm__ volatile("mtc2 %0, $" #reg ::"r"((uint32_t)(v)) : "memory")
#define MTC2(reg, v) MTC2_(reg, v)

/* saved by crt0 at reset */
extern volatile uint32_t boot_regs[32];
extern volatile uint32_t boot_cp[16];
extern volatile uint32_t iv_hits, bev_hits; /* counted by crt0's +0x200 / BEV vectors */
enum { BOOT_STATUS, BOOT_CAUSE, BOOT_EBASE, BOOT_PRID, BOOT_MODE, BOOT_COUNT,
       BOOT_HWRENA, BOOT_USERLOCAL, BOOT_DPEXT, BOOT_IPEXT, BOOT_PTPR };

/* exception bookkeeping (lib.c): crt0's vector calls exc_dispatch unless the
 * program defines rt_exception (an assembler entry of its own) */
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

/* Switch to user mode at `fn` (with EXL + eret); fn must end with a syscall,
 * which brings us back to kernel mode after this call. */
void run_user(void (*fn)(void), uint32_t extra_status);
#endif /* __ASSEMBLER__ */

#endif
