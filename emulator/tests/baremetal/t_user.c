/*
 * t_user: user mode - rdhwr gated by HWREna, CP0/CP2 access (CpU with the
 * right CE), privileged instructions, XTN refusal with CU2 set, no kseg
 * privilege checks (MMU off: a user access to 0x80000000 is a bus error,
 * not an address error).
 */
#include "mmu.h"
#include "test.h"

volatile uint32_t res[8];

/* user-mode code; each ends with the `syscall` that returns to the kernel */
__asm__(".set push\n.set noreorder\n.text\n"
        "u_rdhwr:\n"
        "  la   $t0, res\n"
        "  rdhwr $t1, $0\n  sw $t1, 0($t0)\n"
        "  rdhwr $t1, $2\n  sw $t1, 4($t0)\n"
        "  rdhwr $t1, $3\n  sw $t1, 8($t0)\n"
        "  rdhwr $t1, $29\n  sw $t1, 12($t0)\n"
        "  rdhwr $t1, $2\n  sw $t1, 16($t0)\n"
        "  syscall\n  nop\n"
        "u_rdhwr_one:\n" /* only $29 */
        "  rdhwr $t1, $29\n"
        "  syscall\n  nop\n"
        "u_cp0:\n"
        "  mfc0 $t1, $12\n"
        "  mtc0 $zero, $12\n"
        "  eret\n"
        "  wait\n"
        "  di\n"
        "  ei\n"
        "  cache 0x11, 0($sp)\n"
        "  syscall\n  nop\n"
        "u_cp2:\n"
        "  mfc2 $t1, $0\n"
        "  mtc2 $zero, $10\n"
        "  syscall\n  nop\n"
        "u_cp2_xtn:\n" /* CU2 set: XTN requests reach the MMU */
        "  mfc2 $t1, $0\n"      /* read: refused */
        "  mtc2 $zero, $10\n"   /* SYNC: allowed */
        "  mtc2 $zero, $7\n"    /* DCACHE_INVAL: allowed */
        "  mtc2 $zero, $0\n"    /* PTPR: refused */
        "  syscall\n  nop\n"
        "u_cp0_cu0:\n" /* CU0 set: CP0 usable in user mode */
        "  la   $t0, res\n"
        "  mfc0 $t1, $15, 0\n  sw $t1, 0($t0)\n"
        "  syscall\n  nop\n"
        "u_kseg:\n"
        "  li   $t0, 0x80000000\n"
        "  lw   $t1, 0($t0)\n"
        "  la   $t0, res\n"
        "  sw   $t0, 0($t0)\n"
        "  syscall\n  nop\n"
        "u_traps:\n"
        "  break\n"
        "  teq  $zero, $zero\n"
        "  .word 0x44080000\n" /* mfc1 */
        "  syscall\n  nop\n"
        ".set pop\n");
extern void u_rdhwr(void), u_rdhwr_one(void), u_cp0(void), u_cp2(void), u_cp2_xtn(void),
    u_cp0_cu0(void), u_kseg(void), u_traps(void);

#define RUN(fn, st, nexp)                                                     \
    do {                                                                      \
        int c0_ = exc_count;                                                  \
        exc_expect = nexp;                                                    \
        run_user(fn, st);                                                     \
        exc_expect = 0;                                                       \
        CHECK_EQ(1, exc_count - c0_, nexp);                                   \
    } while (0)

int main(void)
{
    /* HWREna = 0: every rdhwr from user mode is RI */
    MTC0(7, 0, 0);
    RUN(u_rdhwr, 0, 5);
    CHECK_EQ(2, EXCCODE(exc_cause), EXC_RI);
    /* enable CPUNum, CC, CCRes, ULR */
    MTC0(7, 0, 0x2000000D);
    MTC0(4, 2, 0xABCD1234);
    RUN(u_rdhwr, 0, 0);
    CHECK_EQ(3, res[0], 0);
    CHECK_EQ(4, res[2], 1);
    CHECK_EQ(5, res[3], 0xABCD1234);
    CHECK(6, res[4] - res[1] >= 2 && res[4] - res[1] < 10); /* CC counts cycles */
    /* only ULR enabled: $29 works, the others trap */
    MTC0(7, 0, 0x20000000);
    RUN(u_rdhwr_one, 0, 0);
    MTC0(7, 0, 0x00000001);
    RUN(u_rdhwr_one, 0, 1);
    CHECK_EQ(7, EXCCODE(exc_cause), EXC_RI);
    MTC0(7, 0, 0);

    /* CP0 and privileged instructions: CpU with CE = 0 */
    RUN(u_cp0, 0, 7);
    CHECK_EQ(10, EXCCODE(exc_cause), EXC_CPU);
    CHECK_EQ(11, CAUSE_CE(exc_cause), 0);
    CHECK_EQ(12, exc_status & (ST_UM | ST_EXL), ST_UM | ST_EXL);
    /* CP2 without CU2: CpU with CE = 2 */
    RUN(u_cp2, 0, 2);
    CHECK_EQ(13, EXCCODE(exc_cause), EXC_CPU);
    CHECK_EQ(14, CAUSE_CE(exc_cause), 2);
    /* CU2 set: reads refused (DBE, DETR = read privilege), SYNC and cache
     * operations allowed, other writes refused (write privilege) */
    RUN(u_cp2_xtn, ST_CU2, 2);
    CHECK_EQ(15, EXCCODE(exc_cause), EXC_DBE);
    CHECK_EQ(16, MFC2(12), MMU_FAULT_PRIVILEGE_VIOLATION);
    /* CU0 set: mfc0 works in user mode */
    res[0] = 0;
    RUN(u_cp0_cu0, ST_CU0, 0);
    CHECK_EQ(17, res[0], 0x00007000);

    /* MMU off: no kseg checks, 0x80000000 is just an unmapped PA */
    res[0] = 0;
    RUN(u_kseg, 0, 1);
    CHECK_EQ(20, EXCCODE(exc_cause), EXC_DBE);
    CHECK_EQ(21, MFC2(12), MMU_FAULT_READ | MMU_FAULT_DATA_ILLEGAL_ACCESS);
    CHECK(22, res[0] != 0); /* user code continued after the fault */

    /* Bp / Tr / CpU(1) from user mode */
    RUN(u_traps, 0, 3);
    CHECK_EQ(23, EXCCODE(exc_cause), EXC_CPU);
    CHECK_EQ(24, CAUSE_CE(exc_cause), 1);
    return 0;
}
