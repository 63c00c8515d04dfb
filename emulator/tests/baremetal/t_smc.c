/*
 * t_smc: self-modifying code in the page being executed (the decoded-code
 * cache must see the store at once), including a change of the word that
 * follows a branch (delay-slot status).
 */
#include "test.h"

/* code and data in the same page: patch the immediate of `li v0` */
__asm__(".set push\n.set noreorder\n.text\n.balign 4096\n"
        ".globl smc_fn, smc_patch, smc_word\n"
        "smc_fn:\n"
        "  lui  $t0, %hi(smc_patch)\n"
        "  sw   $a0, %lo(smc_patch)($t0)\n" /* store into this very page */
        "smc_patch:\n"
        "  li   $v0, 1\n"                   /* replaced before it runs */
        "  jr   $ra\n"
        "smc_ds:\n"
        "  nop\n"
        "smc_word:\n"
        "  .word 0\n"
        ".set pop\n");
extern char smc_fn[], smc_patch[], smc_word[];

int main(void)
{
    uint32_t (*fn)(uint32_t) = (uint32_t(*)(uint32_t))(uintptr_t)smc_fn;
    CHECK_EQ(1, fn(0x24020007), 7);     /* li v0, 7 */
    CHECK_EQ(2, fn(0x24020009), 9);
    CHECK_EQ(3, fn(0x24020001), 1);
    /* patch the delay slot of the jr from outside */
    volatile uint32_t *ds = (volatile uint32_t *)(uintptr_t)(smc_patch + 8);
    *ds = 0x24420100; /* addiu v0, v0, 0x100 (runs in the delay slot) */
    CHECK_EQ(4, fn(0x24020001), 0x101);
    *ds = 0;
    CHECK_EQ(5, fn(0x24020002), 2);
    /* turn the jr into a nop and the delay slot into a jr: then the word
     * after it (smc_word) becomes a delay slot */
    volatile uint32_t *jr = (volatile uint32_t *)(uintptr_t)(smc_patch + 4);
    *(volatile uint32_t *)(uintptr_t)smc_word = 0x24420010; /* addiu v0, v0, 16 */
    *jr = 0;
    *ds = 0x03E00008; /* jr ra */
    CHECK_EQ(6, fn(0x24020003), 0x13);
    return 0;
}
