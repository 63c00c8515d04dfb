/*
 * crt0.S - the runtime's start-up code, exception vectors and exit
 * (runtime.h): for the bare-metal tests, the bench's TSAR platform, the
 * diff harness's TSAR side.
 *
 * _start is at the start of .text (link.ld: 0x10000 unless the program
 * sets RT_TEXT; the ELF entry, so also the "reset address").  It
 * first stores every GPR and the reset CP0/CP2 state with $zero-relative
 * stores (no register is touched before it is saved), then sets EBase to
 * this page (so the general vector is _start + 0x180), clears BEV/ERL, sets
 * up a stack and calls main(); main's return value is the exit status.
 * The general exception vector jumps to rt_exception: exc_common below
 * (registers saved, exc_dispatch() in lib.c), unless the program defines
 * an rt_exception of its own.
 */
#include "runtime.h"

    .set noreorder
    .set noat

    .section .lowdata, "aw", @nobits
    .globl boot_regs, boot_cp
boot_regs:  .space 32 * 4        /* GPRs at reset (0x1000) */
boot_cp:    .space 16 * 4        /* CP0/CP2 reset values (0x1080) */

    .section .text.start, "ax"
    .globl _start
_start:
    /* Every CPU starts here (reference 5) with the same registers, so all
     * of them may store them; EBase.CPUNum then tells them apart. */
    sw      $1, 0x1004($0)
    sw      $2, 0x1008($0)
    sw      $3, 0x100c($0)
    sw      $4, 0x1010($0)
    sw      $5, 0x1014($0)
    sw      $6, 0x1018($0)
    sw      $7, 0x101c($0)
    sw      $8, 0x1020($0)
    sw      $9, 0x1024($0)
    sw      $10, 0x1028($0)
    sw      $11, 0x102c($0)
    sw      $12, 0x1030($0)
    sw      $13, 0x1034($0)
    sw      $14, 0x1038($0)
    sw      $15, 0x103c($0)
    sw      $16, 0x1040($0)
    sw      $17, 0x1044($0)
    sw      $18, 0x1048($0)
    sw      $19, 0x104c($0)
    sw      $20, 0x1050($0)
    sw      $21, 0x1054($0)
    sw      $22, 0x1058($0)
    sw      $23, 0x105c($0)
    sw      $24, 0x1060($0)
    sw      $25, 0x1064($0)
    sw      $26, 0x1068($0)
    sw      $27, 0x106c($0)
    sw      $28, 0x1070($0)
    sw      $29, 0x1074($0)
    sw      $30, 0x1078($0)
    sw      $31, 0x107c($0)
    j       start2
    nop

    /* general exception vector: EBase + 0x180 */
    .org CP0_GENERAL_VECTOR_OFFSET
exc_vector:
    j       rt_exception
    nop

    /* interrupt vector when Cause.IV = 1: EBase + 0x200 (counted) */
    .org 0x200
    la      $k0, iv_hits
    lw      $k1, 0($k0)
    addiu   $k1, $k1, 1
    j       exc_common
    sw      $k1, 0($k0)

    /* Status.BEV = 1: reset address (the ELF entry, _start) + 0x380 (counted) */
    .org 0x380
    la      $k0, bev_hits
    lw      $k1, 0($k0)
    addiu   $k1, $k1, 1
    j       exc_common
    sw      $k1, 0($k0)

    .weak   rt_exception
    .set    rt_exception, exc_common
exc_common:
    /* The C handler runs with the MMU off (the test image is identity
     * mapped) and DATA_PADDR_EXT = 0, so tests can break the page tables or
     * PADDR_EXT on purpose; MODE is restored by the eret path. */
    mtc2n   $zero, CP2_DATA_PADDR_EXT
    mfc2n   $k1, CP2_MODE
    ori     $k0, $zero, MMU_MODE_DCACHE | MMU_MODE_ICACHE
    mtc2n   $k0, CP2_MODE
    la      $k0, exc_frame
    sw      $k1, 136($k0)
    sw      $1, 4($k0)
    sw      $2, 8($k0)
    sw      $3, 12($k0)
    sw      $4, 16($k0)
    sw      $5, 20($k0)
    sw      $6, 24($k0)
    sw      $7, 28($k0)
    sw      $8, 32($k0)
    sw      $9, 36($k0)
    sw      $10, 40($k0)
    sw      $11, 44($k0)
    sw      $12, 48($k0)
    sw      $13, 52($k0)
    sw      $14, 56($k0)
    sw      $15, 60($k0)
    sw      $16, 64($k0)
    sw      $17, 68($k0)
    sw      $18, 72($k0)
    sw      $19, 76($k0)
    sw      $20, 80($k0)
    sw      $21, 84($k0)
    sw      $22, 88($k0)
    sw      $23, 92($k0)
    sw      $24, 96($k0)
    sw      $25, 100($k0)
    sw      $28, 112($k0)
    sw      $29, 116($k0)
    sw      $30, 120($k0)
    sw      $31, 124($k0)
    mfhi    $t0
    sw      $t0, 128($k0)
    mflo    $t0
    sw      $t0, 132($k0)
    la      $sp, exc_stack_top
    jal     exc_dispatch
    move    $a0, $k0
    la      $k0, exc_frame
    lw      $t0, 128($k0)
    mthi    $t0
    lw      $t0, 132($k0)
    mtlo    $t0
    lw      $1, 4($k0)
    lw      $2, 8($k0)
    lw      $3, 12($k0)
    lw      $4, 16($k0)
    lw      $5, 20($k0)
    lw      $6, 24($k0)
    lw      $7, 28($k0)
    lw      $8, 32($k0)
    lw      $9, 36($k0)
    lw      $10, 40($k0)
    lw      $11, 44($k0)
    lw      $12, 48($k0)
    lw      $13, 52($k0)
    lw      $14, 56($k0)
    lw      $15, 60($k0)
    lw      $16, 64($k0)
    lw      $17, 68($k0)
    lw      $18, 72($k0)
    lw      $19, 76($k0)
    lw      $20, 80($k0)
    lw      $21, 84($k0)
    lw      $22, 88($k0)
    lw      $23, 92($k0)
    lw      $24, 96($k0)
    lw      $25, 100($k0)
    lw      $28, 112($k0)
    lw      $29, 116($k0)
    lw      $30, 120($k0)
    lw      $31, 124($k0)
    lw      $k1, 136($k0)
    mtc2n   $k1, CP2_MODE
    nop
    eret
    nop

start2:
    mfc0n   $k0, CP0(EBASE)
    andi    $k0, $k0, CP0_EBASE_CPUNUM
    bnez    $k0, secondary_start
    nop
    /* reset-time CP0/CP2 values, before we change anything */
    mfc0n   $t0, CP0(STATUS)
    sw      $t0, 0x1080($0)
    mfc0n   $t0, CP0(CAUSE)
    sw      $t0, 0x1084($0)
    mfc0n   $t0, CP0(EBASE)
    sw      $t0, 0x1088($0)
    mfc0n   $t0, CP0(PRID)
    sw      $t0, 0x108c($0)
    mfc2n   $t0, CP2_MODE
    sw      $t0, 0x1090($0)
    mfc0n   $t0, CP0(COUNT)
    sw      $t0, 0x1094($0)
    mfc0n   $t0, CP0(HWRENA)
    sw      $t0, 0x1098($0)
    mfc0n   $t0, CP0(USERLOCAL)
    sw      $t0, 0x109c($0)
    mfc2n   $t0, CP2_DATA_PADDR_EXT
    sw      $t0, 0x10a0($0)
    mfc2n   $t0, CP2_INST_PADDR_EXT
    sw      $t0, 0x10a4($0)
    mfc2n   $t0, CP2_PTPR
    sw      $t0, 0x10a8($0)

    /* EBase = this page; Status = 0 (kernel mode, BEV=ERL=0, IRQs off) */
    la      $t0, _start
    mtc0n   $t0, CP0(EBASE)
    mtc0n   $0, CP0(STATUS)
    ehb
    la      $sp, stack_top
    /* clear .bss (the loader already zero-fills; this is belt and braces) */
    la      $t0, __bss_start
    la      $t1, __bss_end
1:  beq     $t0, $t1, 2f
    nop
    sw      $0, 0($t0)
    b       1b
    addiu   $t0, $t0, 4
2:  la      $t0, smp_go             /* release the secondary CPUs */
    li      $t1, 1
    sw      $t1, 0($t0)
    jal     main
    nop
    /* exit with main's return value */
    li      $t0, SIMHELPER_BASE
    sw      $v0, SIMHELPER_END_WITH_RETVAL($t0)
3:  b       3b
    nop

    /* Secondary CPUs (id in $k0): own stack (4 KiB per hardware id from
     * link.ld's __sec_stacks: ids reach 0xFFF on a mesh), same vector page, kernel mode
     * with interrupts off, then secondary_main(id, a1, reset EBase, reset
     * Status) (lib.c has a weak
     * default that sleeps); they never reach main().  Tests that use them
     * handle no exceptions on them: the exception frame is CPU 0's. */
secondary_start:
    /* spin (no stack yet) until CPU 0 has cleared .bss */
    la      $t0, smp_go
5:  lw      $t1, 0($t0)
    beqz    $t1, 5b
    nop
    mfc0n   $a2, CP0(EBASE)         /* reset EBase and Status for the tests */
    mfc0n   $a3, CP0(STATUS)
    la      $t0, _start
    mtc0n   $t0, CP0(EBASE)
    mtc0n   $0, CP0(STATUS)
    ehb
    la      $sp, __sec_stacks
    sll     $t0, $k0, 12
    addu    $sp, $sp, $t0           /* top of stack id - 1 (4 KiB each) */
    move    $a0, $k0
    jal     secondary_main
    nop
4:  wait
    b       4b
    nop

    /* void run_user_asm(void (*fn)(void), uint32_t status): eret into fn */
    .text
    .globl run_user_asm, user_return
run_user_asm:
    la      $t0, user_ctx
    sw      $s0, 0($t0)
    sw      $s1, 4($t0)
    sw      $s2, 8($t0)
    sw      $s3, 12($t0)
    sw      $s4, 16($t0)
    sw      $s5, 20($t0)
    sw      $s6, 24($t0)
    sw      $s7, 28($t0)
    sw      $fp, 32($t0)
    sw      $ra, 36($t0)
    sw      $sp, 40($t0)
    sw      $gp, 44($t0)
    mtc0n   $a0, CP0(EPC)
    mtc0n   $a1, CP0(STATUS)
    ehb
    la      $sp, user_stack_top
    eret
    nop
user_return:
    la      $t0, user_ctx
    lw      $s0, 0($t0)
    lw      $s1, 4($t0)
    lw      $s2, 8($t0)
    lw      $s3, 12($t0)
    lw      $s4, 16($t0)
    lw      $s5, 20($t0)
    lw      $s6, 24($t0)
    lw      $s7, 28($t0)
    lw      $fp, 32($t0)
    lw      $ra, 36($t0)
    lw      $sp, 40($t0)
    lw      $gp, 44($t0)
    jr      $ra
    nop

    .data
    .align 2
    .globl smp_go
smp_go:     .word 0

    .bss
    .align 4
    /* 32 KiB unused: the tests' address-dependent checksums (t_memgroup,
     * t_perf) were taken with the data laid out after it */
    .space  4096 * 8
    .globl iv_hits, bev_hits
iv_hits:    .space 4
bev_hits:   .space 4
user_ctx:   .space 16 * 4
    .space  8192
user_stack_top:
    .globl exc_frame
exc_frame:  .space 40 * 4
    .space  4096
exc_stack_top:
    .space  16384
stack_top:
