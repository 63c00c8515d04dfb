/*
 * t_branch: branches, jumps and delay slots.  Checks that delay slots run
 * (or are nullified for branch-likely not taken), link values, REGIMM
 * forms, branches whose delay slot is on the next page, and jumping to an
 * instruction that follows a branch (it is then not a delay slot).
 */
#include "runtime.h"
    .set noreorder
    .set noat

    /* EXPECT reg, value, check-number */
    .macro EXPECT reg, val, n
    li      $at, \val
    beq     \reg, $at, 9f
    nop
    li      $v0, \n
    j       fail
    nop
9:
    .endm

    .text
    .globl main
main:
    move    $s7, $ra            /* the tests below clobber ra */
    /* 1: beq taken, delay slot executes */
    li      $t0, 0
    beq     $t0, $t0, 1f
    addiu   $t0, $t0, 1
    addiu   $t0, $t0, 100
1:  EXPECT  $t0, 1, 1

    /* 2: bne not taken: delay slot executes, fall through */
    li      $t0, 0
    bne     $t0, $t0, fail_2
    addiu   $t0, $t0, 1
    addiu   $t0, $t0, 10
    EXPECT  $t0, 11, 2

    /* 3: beql not taken: delay slot nullified */
    li      $t0, 0
    li      $t1, 1
    beql    $t0, $t1, fail_3
    addiu   $t0, $t0, 1
    EXPECT  $t0, 0, 3

    /* 4: beql taken: delay slot executes */
    li      $t0, 0
    beql    $t0, $t0, 1f
    addiu   $t0, $t0, 1
    addiu   $t0, $t0, 100
1:  EXPECT  $t0, 1, 4

    /* 5..12: sign branches on -1, 0, 1 */
    li      $t1, -1
    li      $t2, 0
    li      $t3, 1
    li      $t0, 0
    bltz    $t1, 1f
    ori     $t0, $t0, 1
    ori     $t0, $t0, 0x100
1:  bltz    $t2, fail_5
    ori     $t0, $t0, 2
    bgez    $t2, 1f
    ori     $t0, $t0, 4
    ori     $t0, $t0, 0x200
1:  bgez    $t1, fail_5
    ori     $t0, $t0, 8
    blez    $t2, 1f
    ori     $t0, $t0, 0x10
    ori     $t0, $t0, 0x400
1:  blez    $t3, fail_5
    ori     $t0, $t0, 0x20
    bgtz    $t3, 1f
    ori     $t0, $t0, 0x40
    ori     $t0, $t0, 0x800
1:  bgtz    $t2, fail_5
    ori     $t0, $t0, 0x80
    EXPECT  $t0, 0xFF, 5

    /* 6: likely forms not taken nullify, taken execute */
    li      $t0, 0
    bnel    $t2, $t2, fail_6
    ori     $t0, $t0, 1
    blezl   $t3, fail_6
    ori     $t0, $t0, 2
    bgtzl   $t2, fail_6
    ori     $t0, $t0, 4
    bltzl   $t2, fail_6
    ori     $t0, $t0, 8
    bgezl   $t1, fail_6
    ori     $t0, $t0, 0x10
    EXPECT  $t0, 0, 6
    bnel    $t2, $t3, 1f
    ori     $t0, $t0, 1
    nop
1:  blezl   $t2, 1f
    ori     $t0, $t0, 2
    nop
1:  bgtzl   $t3, 1f
    ori     $t0, $t0, 4
    nop
1:  bltzl   $t1, 1f
    ori     $t0, $t0, 8
    nop
1:  bgezl   $t2, 1f
    ori     $t0, $t0, 0x10
    nop
1:  EXPECT  $t0, 0x1F, 7

    /* 8: bal / bgezal link = address of the branch + 8 */
    la      $t4, 2f
    bal     1f
    nop
2:  b       fail_8
    nop
1:  bne     $ra, $t4, fail_8
    nop
    /* 9: bltzal not taken still links */
    li      $ra, 0
    la      $t4, 2f
    bltzal  $t3, fail_9
    nop
2:  bne     $ra, $t4, fail_9
    nop
    /* 10: bltzall not taken: links, nullifies */
    li      $t0, 0
    li      $ra, 0
    la      $t4, 2f
    bltzall $t3, fail_10
    addiu   $t0, $t0, 1
2:  EXPECT  $t0, 0, 10
    bne     $ra, $t4, fail_10
    nop
    /* 11: bgezall taken */
    li      $t0, 0
    la      $t4, 2f
    bgezall $t2, 1f
    addiu   $t0, $t0, 1
2:  b       fail_11
    nop
1:  bne     $ra, $t4, fail_11
    nop
    EXPECT  $t0, 1, 11

    /* 12: j / jal */
    li      $t0, 0
    j       1f
    addiu   $t0, $t0, 1
    b       fail_12
    nop
1:  la      $t4, 2f
    jal     3f
    addiu   $t0, $t0, 1
2:  b       4f
    nop
3:  bne     $ra, $t4, fail_12
    nop
    jr      $ra
    addiu   $t0, $t0, 1
4:  EXPECT  $t0, 3, 12

    /* 13: jalr rd (not ra), jr */
    la      $t5, 3f
    la      $t4, 2f
    li      $t6, 0
    jalr    $t7, $t5
    addiu   $t6, $t6, 1
2:  b       4f
    nop
3:  bne     $t7, $t4, fail_13
    nop
    jr      $t7
    addiu   $t6, $t6, 1
4:  EXPECT  $t6, 2, 13

    /* 14: branch in the last word of a page, delay slot on the next page */
    li      $t0, 0
    la      $t5, pg_entry
    jr      $t5
    nop
pg_back:
    EXPECT  $t0, 1, 14
    /* 15: branch-likely not taken in the last word skips a delay slot on the next page */
    li      $t0, 0
    la      $t5, pg2_entry
    jr      $t5
    nop
pg2_back:
    EXPECT  $t0, 0x10, 15

    /* 16: jumping straight to the word after a branch runs it as a normal instruction */
    li      $t0, 0
    la      $t5, after_branch
    jr      $t5
    nop
    b       fail_16
    nop
    beq     $0, $0, fail_16       /* never executed: we land on its delay slot */
after_branch:
    addiu   $t0, $t0, 1           /* executed as a normal instruction */
    addiu   $t0, $t0, 2           /* must follow sequentially */
    EXPECT  $t0, 3, 16

    /* 17: a counted loop (backward branch, delay slot in the loop) */
    li      $t0, 1000
    li      $t1, 0
1:  addiu   $t0, $t0, -1
    bnez    $t0, 1b
    addiu   $t1, $t1, 2
    EXPECT  $t1, 2000, 17

    /* 18: REGIMM with rt bits 2/3 set decodes as a branch (ISS quirk):
     * rt = 0x0c (teqi in MIPS32) decodes as bltz */
    li      $t0, 0
    li      $t1, -1
    .word   0x052c0002          /* "teqi t1,2" = bltz t1, +2 in this model */
    addiu   $t0, $t0, 1
    addiu   $t0, $t0, 100
    EXPECT  $t0, 1, 18

    li      $v0, 0
    jr      $s7
    nop

fail_2: li $v0, 2
        j fail
        nop
fail_3: li $v0, 3
        j fail
        nop
fail_5: li $v0, 5
        j fail
        nop
fail_6: li $v0, 6
        j fail
        nop
fail_8: li $v0, 8
        j fail
        nop
fail_9: li $v0, 9
        j fail
        nop
fail_10: li $v0, 10
        j fail
        nop
fail_11: li $v0, 11
        j fail
        nop
fail_12: li $v0, 12
        j fail
        nop
fail_13: li $v0, 13
        j fail
        nop
fail_16: li $v0, 16
        j fail
        nop
fail:
    li      $t0, SIMHELPER_BASE
    sw      $v0, SIMHELPER_END_WITH_RETVAL($t0)
1:  b       1b
    nop

    /* page-crossing code */
    .balign 4096
    .fill   1022, 4, 0
pg_entry:                       /* offset 4088 */
    nop
    beq     $0, $0, pg_target   /* offset 4092: last word */
    addiu   $t0, $t0, 1         /* offset 0 of the next page: delay slot */
    addiu   $t0, $t0, 100
pg_target:
    j       pg_back
    nop

    .balign 4096
    .fill   1022, 4, 0
pg2_entry:
    nop
    bnel    $0, $0, fail_15     /* not taken: delay slot (next page) nullified */
    addiu   $t0, $t0, 1
    ori     $t0, $t0, 0x10
    j       pg2_back
    nop
fail_15: li $v0, 15
    j fail
    nop
