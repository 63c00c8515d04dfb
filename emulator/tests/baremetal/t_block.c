/*
 * t_block: what the block-level interpreter must keep exact.  Count (one
 * tick per instruction) gives the exact number of instructions between two
 * mfc0 reads, so each sequence below checks its own instruction count:
 * a long straight-line block, a block running off the end of its page,
 * superinstruction candidates (addiu + bne, branch + nop delay slot),
 * branch-likely nullification, stores that patch instructions later in
 * the running block (also turning a plain instruction into a branch),
 * precise faults in the middle of a block and in delay slots, and LL/SC
 * with stores through write entries that existed before the LL (kernel
 * and user mode, the MMU off: one physical page, two software TLBs).
 */
#include <stddef.h>

#include "test.h"

#define STR_(x) #x
#define STR(x) STR_(x)
#define REP10(s) s s s s s s s s s s
#define REP100(s) REP10(REP10(s))
#define INC " addiu $v0, $v0, 1\n"

/* Each function: v0 = the counted result, v1 = Count after - Count before
 * (the first mfc0 counts, the second does not).  Stored by the callers. */
__asm__(".set push\n.set noreorder\n.set noat\n.text\n"
        /* 1: 200 straight-line instructions: 201 */
        ".globl blk_long\nblk_long:\n"
        " move $v0, $zero\n"
        " mfc0 $t0, $9\n" REP100(INC) REP100(INC) " mfc0 $t1, $9\n"
        " jr $ra\n subu $v1, $t1, $t0\n"
        /* 2: li + 50 x (addiu, addiu, bnez, nop): 1 + 1 + 200 = 202 */
        ".globl blk_fused\nblk_fused:\n"
        " move $v0, $zero\n"
        " mfc0 $t0, $9\n"
        " li $t2, 50\n"
        "1: addiu $v0, $v0, 3\n"
        " addiu $t2, $t2, -1\n"
        " bnez $t2, 1b\n"
        " nop\n"
        " mfc0 $t1, $9\n"
        " jr $ra\n subu $v1, $t1, $t0\n"
        /* 3: beql not taken (slot nullified, not counted), beql taken,
         * beq + nop taken and not taken, b + nop:
         * mfc0, li, beql | beql, addiu(slot) | beq, nop | beq, nop | b, nop = 11 */
        ".globl blk_likely\nblk_likely:\n"
        " move $v0, $zero\n"
        " mfc0 $t0, $9\n"
        " li $t2, 1\n"
        " beql $t2, $zero, 9f\n"
        " addiu $v0, $v0, 100\n"        /* nullified */
        " beql $t2, $t2, 1f\n"
        " addiu $v0, $v0, 1\n"          /* runs */
        " addiu $v0, $v0, 1000\n"       /* jumped over */
        "1: beq $t2, $zero, 9f\n"
        " nop\n"
        " beq $t2, $t2, 2f\n"
        " nop\n"
        " addiu $v0, $v0, 1000\n"
        "2: b 3f\n"
        " nop\n"
        " addiu $v0, $v0, 1000\n"
        "3: mfc0 $t1, $9\n"
        " jr $ra\n subu $v1, $t1, $t0\n"
        "9: li $v0, -1\n"
        " jr $ra\n li $v1, 0\n"
        /* 3b: branches likely in each other's delay slots, none taken: each
         * nullifies the next, so one block refunds its budget again and
         * again (a stop marker inside it must move, not stay behind):
         * mfc0 + 4 beql + 2 increments = 7, v0 = 2 */
        ".globl blk_lchain\nblk_lchain:\n"
        " move $v0, $zero\n"
        " li $t2, 1\n"
        " mfc0 $t0, $9\n"
        " beql $t2, $zero, 9b\n beql $t2, $zero, 9b\n"
        " beql $t2, $zero, 9b\n beql $t2, $zero, 9b\n"
        " beql $t2, $zero, 9b\n beql $t2, $zero, 9b\n"
        " beql $t2, $zero, 9b\n beql $t2, $zero, 9b\n"
        " addiu $v0, $v0, 1\n addiu $v0, $v0, 1\n"
        " mfc0 $t1, $9\n"
        " jr $ra\n subu $v1, $t1, $t0\n"
        /* 4: a block running off its page: starts 8 words before a page
         * end, 16 increments: mfc0 + 16 = 17 */
        " .balign 4096\n"
        " .skip 4096 - 16\n"
        ".globl blk_pagecross\nblk_pagecross:\n"
        " move $v0, $zero\n"
        " mfc0 $t0, $9\n"
        REP10(INC) INC INC INC INC INC INC
        " mfc0 $t1, $9\n"
        " jr $ra\n subu $v1, $t1, $t0\n"
        /* 5: a branch whose delay slot is the next page's first word, and
         * a fused addiu + bne + nop across it: 1 + 1 + 4 * 3 = 14 */
        " .balign 4096\n"
        " .skip 4096 - 24\n"
        ".globl blk_dspage\nblk_dspage:\n"
        " move $v0, $zero\n"
        " mfc0 $t0, $9\n"
        " li $t2, 3\n"
        "1: addiu $v0, $v0, 1\n"
        " addiu $t2, $t2, -1\n"
        " bnez $t2, 1b\n"               /* last word of the page */
        " addiu $v0, $v0, 10\n"         /* first word of the next one */
        " mfc0 $t1, $9\n"
        " jr $ra\n subu $v1, $t1, $t0\n"
        ".set pop\n");

/* Self-modifying code inside a running block: the stores patch words the
 * block has already been decoded and charged for. */
__asm__(".set push\n.set noreorder\n.set noat\n.text\n.balign 4096\n"
        /* a0 is stored over smc_p1 (3 words after the store), then runs:
         * mfc0, lui, sw, addiu x2, p1, addiu = 7 */
        ".globl smc_blk, smc_p1\nsmc_blk:\n"
        " move $v0, $zero\n"
        " mfc0 $t0, $9\n"
        " lui $t3, %hi(smc_p1)\n"
        " sw $a0, %lo(smc_p1)($t3)\n"
        INC INC
        "smc_p1: addiu $v0, $v0, 1\n"
        INC
        " mfc0 $t1, $9\n"
        " jr $ra\n subu $v1, $t1, $t0\n"
        /* a1 is stored over smc_p2: with `b smc_tgt` + its delay slot (the
         * nop after it) the increments in between are skipped:
         * plain: mfc0 lui sw p2(addiu) nop addiu x4 = 9 -> v0 = 5
         * branch: mfc0 lui sw p2(b) nop(slot) addiu = 6 -> v0 = 1 */
        ".globl smc_br, smc_p2\nsmc_br:\n"
        " move $v0, $zero\n"
        " mfc0 $t0, $9\n"
        " lui $t3, %hi(smc_p2)\n"
        " sw $a0, %lo(smc_p2)($t3)\n"
        "smc_p2: addiu $v0, $v0, 1\n"
        " nop\n"
        INC INC INC
        "smc_tgt: addiu $v0, $v0, 1\n"
        " mfc0 $t1, $9\n"
        " jr $ra\n subu $v1, $t1, $t0\n"
        ".set pop\n");

/* Faults inside blocks: a misaligned load after 10 increments of a
 * 30-instruction block; misaligned loads in the delay slots of a taken
 * and of a not-taken in-page branch, and of a bne whose fall-through
 * follows (the handler resumes after the branch and its slot). */
__asm__(".set push\n.set noreorder\n.set noat\n.text\n"
        ".globl flt_mid, flt_mid_at\nflt_mid:\n"
        " move $v0, $zero\n"
        " li $t3, 1\n"
        REP10(INC)
        "flt_mid_at: lw $t4, 0($t3)\n"
        REP10(INC) REP10(INC)
        " jr $ra\n nop\n"
        ".globl flt_ds_taken, flt_ds_taken_br\nflt_ds_taken:\n"
        " move $v0, $zero\n"
        " li $t3, 2\n"
        INC INC INC
        "flt_ds_taken_br: beq $zero, $zero, 1f\n"
        " lw $t4, 0($t3)\n"
        " addiu $v0, $v0, 16\n"          /* the handler resumes here */
        " jr $ra\n nop\n"
        "1: addiu $v0, $v0, 100\n"
        " jr $ra\n nop\n"
        ".globl flt_ds_nt, flt_ds_nt_br\nflt_ds_nt:\n"
        " move $v0, $zero\n"
        " li $t3, 3\n"
        INC INC
        "flt_ds_nt_br: bne $zero, $zero, 1f\n"
        " lh $t4, 0($t3)\n"
        " addiu $v0, $v0, 16\n"
        " jr $ra\n nop\n"
        "1: addiu $v0, $v0, 100\n"
        " jr $ra\n nop\n"
        ".set pop\n");

/* LL/SC: a0 = the reserved word, a1 = another word of its page. */
__asm__(".set push\n.set noreorder\n.set noat\n.text\n"
        /* store to the page first (a write entry exists), then ll; a store
         * to the reserved word must break the reservation: v0 = sc = 0 */
        ".globl llsc_own_store\nllsc_own_store:\n"
        " sw $zero, 0($a1)\n"
        " sw $zero, 0($a0)\n"
        " ll $t0, 0($a0)\n"
        " li $t1, 5\n"
        " sw $t1, 0($a0)\n"
        " addiu $t0, $t0, 1\n"
        " sc $t0, 0($a0)\n"
        " jr $ra\n move $v0, $t0\n"
        /* a store to the other word keeps it: v0 = 1 */
        ".globl llsc_other_store\nllsc_other_store:\n"
        " sw $zero, 0($a1)\n"
        " ll $t0, 0($a0)\n"
        " sw $t0, 0($a1)\n"
        " addiu $t0, $t0, 1\n"
        " sc $t0, 0($a0)\n"
        " jr $ra\n move $v0, $t0\n"
        /* a byte store into the reserved word breaks it: v0 = 0 */
        ".globl llsc_byte_store\nllsc_byte_store:\n"
        " sb $zero, 2($a0)\n"
        " ll $t0, 0($a0)\n"
        " sb $t0, 3($a0)\n"
        " sc $t0, 0($a0)\n"
        " jr $ra\n move $v0, $t0\n"
        ".set pop\n");

static volatile uint32_t llpage[1024] __attribute__((aligned(4096)));
static volatile uint32_t user_sc, user_sc2;

/* user mode (MMU off: the same physical page through the user software
 * TLB): a store fills a user write entry, then the reservation */
__asm__(".set push\n.set noreorder\n.set noat\n.text\n"
        ".globl user_llsc\nuser_llsc:\n"
        " lui $a0, %hi(llpage)\n"
        " addiu $a0, $a0, %lo(llpage)\n"
        " sw $zero, 8($a0)\n"            /* user write entry for the page */
        " ll $t0, 0($a0)\n"
        " sw $t0, 0($a0)\n"              /* breaks it */
        " sc $t0, 0($a0)\n"
        " lui $t1, %hi(user_sc)\n"
        " sw $t0, %lo(user_sc)($t1)\n"
        " ll $t0, 0($a0)\n"
        " sw $t0, 4($a0)\n"              /* another word: kept */
        " sc $t0, 0($a0)\n"
        " lui $t1, %hi(user_sc2)\n"
        " sw $t0, %lo(user_sc2)($t1)\n"
        " syscall\n"
        " nop\n"
        ".set pop\n");

typedef struct { uint32_t v0, v1; } pair;
extern char blk_long[], blk_fused[], blk_likely[], blk_lchain[], blk_pagecross[], blk_dspage[];
extern char smc_blk[], smc_p1[], smc_br[], smc_p2[];
extern char flt_mid[], flt_mid_at[], flt_ds_taken[], flt_ds_taken_br[];
extern char flt_ds_nt[], flt_ds_nt_br[];
extern char llsc_own_store[], llsc_other_store[], llsc_byte_store[], user_llsc[];

/* Call an asm function: returns v0, and v1 through *count. */
static uint32_t call(char *fn, uint32_t a0, uint32_t a1, uint32_t *count)
{
    register uint32_t r_a0 __asm__("$4") = a0;
    register uint32_t r_a1 __asm__("$5") = a1;
    register uint32_t r_v0 __asm__("$2");
    register uint32_t r_v1 __asm__("$3");
    __asm__ volatile("jalr %4\n\tnop"
                     : "=r"(r_v0), "=r"(r_v1), "+r"(r_a0), "+r"(r_a1)
                     : "r"(fn)
                     : "$1", "$6", "$7", "$8", "$9", "$10", "$11", "$12", "$13", "$14",
                       "$15", "$24", "$25", "$31", "memory");
    if (count)
        *count = r_v1;
    return r_v0;
}

int main(void)
{
    uint32_t n, v;

    /* exact counts; each twice (the second run uses the decoded blocks) */
    for (int k = 0; k < 2; k++) {
        v = call(blk_long, 0, 0, &n);
        CHECK_EQ(1, v, 200);
        CHECK_EQ(2, n, 201);
        v = call(blk_fused, 0, 0, &n);
        CHECK_EQ(3, v, 150);
        CHECK_EQ(4, n, 202);
        v = call(blk_likely, 0, 0, &n);
        CHECK_EQ(5, v, 1);
        CHECK_EQ(6, n, 11);
        v = call(blk_lchain, 0, 0, &n);
        CHECK_EQ(68, v, 2);
        CHECK_EQ(69, n, 7);
        v = call(blk_pagecross, 0, 0, &n);
        CHECK_EQ(7, v, 16);
        CHECK_EQ(8, n, 17);
        CHECK(9, ((uintptr_t)blk_pagecross & 0xFFF) == 0xFF0);
        v = call(blk_dspage, 0, 0, &n);
        CHECK_EQ(10, v, 33);
        CHECK_EQ(11, n, 14);
    }

    /* self-modifying code in the running block */
    static const uint32_t imm[] = {1, 100, 7, 0x1000};
    for (unsigned k = 0; k < 4; k++) {
        v = call(smc_blk, 0x24420000u | imm[k], 0, &n); /* addiu v0, v0, imm */
        CHECK_EQ(20 + k, v, 3 + imm[k]);
        CHECK_EQ(24, n, 7);
    }
    /* b smc_tgt: offset in words from the word after the branch */
    uint32_t b_tgt = 0x10000000u | 4u;
    v = call(smc_br, 0x24420001u, 0, &n); /* addiu v0, v0, 1 */
    CHECK_EQ(25, v, 5);
    CHECK_EQ(26, n, 9);
    v = call(smc_br, b_tgt, 0, &n);
    CHECK_EQ(27, v, 1);
    CHECK_EQ(28, n, 6);
    v = call(smc_br, 0x24420001u, 0, &n);
    CHECK_EQ(29, v, 5);
    CHECK_EQ(30, n, 9);

    /* precise faults in blocks */
    for (int k = 0; k < 2; k++) {
        EXPECT_EXC(40, EXC_ADEL, v = call(flt_mid, 0, 0, NULL));
        CHECK_EQ(41, exc_epc, (uint32_t)(uintptr_t)flt_mid_at);
        CHECK_EQ(42, exc_cause & CAUSE_BD, 0);
        CHECK_EQ(43, exc_badvaddr, 1);
        CHECK_EQ(44, v, 30); /* 10 before the fault, 20 after the resume */
        EXPECT_EXC(45, EXC_ADEL, v = call(flt_ds_taken, 0, 0, NULL));
        CHECK_EQ(46, exc_epc, (uint32_t)(uintptr_t)flt_ds_taken_br);
        CHECK_EQ(47, exc_cause & CAUSE_BD, CAUSE_BD);
        CHECK_EQ(48, exc_badvaddr, 2);
        CHECK_EQ(49, v, 3 + 16);
        EXPECT_EXC(50, EXC_ADEL, v = call(flt_ds_nt, 0, 0, NULL));
        CHECK_EQ(51, exc_epc, (uint32_t)(uintptr_t)flt_ds_nt_br);
        CHECK_EQ(52, exc_cause & CAUSE_BD, CAUSE_BD);
        CHECK_EQ(53, exc_badvaddr, 3);
        CHECK_EQ(54, v, 2 + 16);
    }

    /* LL/SC and stores through existing write entries */
    uint32_t a = (uint32_t)(uintptr_t)&llpage[0], b = (uint32_t)(uintptr_t)&llpage[512];
    for (int k = 0; k < 3; k++) {
        CHECK_EQ(60, call(llsc_own_store, a, b, NULL), 0);
        CHECK_EQ(61, llpage[0], 5);
        CHECK_EQ(62, call(llsc_other_store, a, b, NULL), 1);
        CHECK_EQ(63, llpage[0], 6);
        CHECK_EQ(64, call(llsc_byte_store, a, b, NULL), 0);
    }
    llpage[3] = 0; /* a kernel-mode write entry for the page */
    run_user((void (*)(void))(uintptr_t)user_llsc, 0);
    CHECK_EQ(65, user_sc, 0);
    CHECK_EQ(66, user_sc2, 1);
    llpage[2] = 0;
    CHECK_EQ(67, call(llsc_own_store, a, b, NULL), 0);
    return 0;
}
