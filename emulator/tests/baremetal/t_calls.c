/*
 * t_calls: calls and returns, hot enough to run as translated code (the
 * translating tier's return stack, its link sites for j/jal and its jump
 * cache probes at call sites): calls across pages, recursion deeper than
 * the return stack, a return to another address than the call's, a return
 * block rewritten while its call is in progress (from another page and
 * from its own), calls through pointers and tail calls, and a caller's
 * page remapped to other code while its call is in progress.
 */
#include "mmu.h"
#include "test.h"

#define ITER 2000

/* Page A: callers.  ca_call(word, patch) calls cb_patch (page B), which
 * stores word over ca_ret's "li v0" when patch is set; ca_call returns what
 * ca_ret computes.  ca_call2 does the same through ca_patch2, on page A
 * (a store into the running page), called with bal.  ca_skip calls
 * cb_skip, which returns one word past its return address. */
__asm__(".set push\n.set noreorder\n.text\n.balign 4096\n"
        ".globl ca_call, ca_ret, ca_call2, ca_ret2, ca_skip\n"
        "ca_call:\n"
        "  addiu $sp, $sp, -8\n"
        "  sw   $ra, 4($sp)\n"
        "  jal  cb_patch\n"
        "  nop\n"
        "ca_ret:\n"
        "  li   $v0, 1\n"
        "  lw   $ra, 4($sp)\n"
        "  jr   $ra\n"
        "  addiu $sp, $sp, 8\n"
        "ca_call2:\n"
        "  addiu $sp, $sp, -8\n"
        "  sw   $ra, 4($sp)\n"
        "  bal  ca_patch2\n"
        "  nop\n"
        "ca_ret2:\n"
        "  li   $v0, 1\n"
        "  lw   $ra, 4($sp)\n"
        "  jr   $ra\n"
        "  addiu $sp, $sp, 8\n"
        "ca_patch2:\n"
        "  beqz $a1, 1f\n"
        "  lui  $t0, %hi(ca_ret2)\n"
        "  sw   $a0, %lo(ca_ret2)($t0)\n"
        "1:\n"
        "  jr   $ra\n"
        "  nop\n"
        "ca_skip:\n"
        "  addiu $sp, $sp, -8\n"
        "  sw   $ra, 4($sp)\n"
        "  li   $v0, 0\n"
        "  jal  cb_skip\n"
        "  nop\n"
        "  addiu $v0, $v0, 2\n" /* skipped */
        "  addiu $v0, $v0, 1\n"
        "  lw   $ra, 4($sp)\n"
        "  jr   $ra\n"
        "  addiu $sp, $sp, 8\n"
        ".balign 4096\n"
        "cb_patch:\n"
        "  beqz $a1, 1f\n"
        "  lui  $t0, %hi(ca_ret)\n"
        "  sw   $a0, %lo(ca_ret)($t0)\n"
        "1:\n"
        "  jr   $ra\n"
        "  nop\n"
        "cb_skip:\n"
        "  addiu $ra, $ra, 4\n"
        "  jr   $ra\n"
        "  nop\n"
        ".balign 4096\n"
        ".set pop\n");
uint32_t ca_call(uint32_t word, uint32_t patch);
uint32_t ca_call2(uint32_t word, uint32_t patch);
uint32_t ca_skip(void);

/* recursion through two pages, deeper than any return stack */
__attribute__((noinline, aligned(4096))) uint32_t rec_b(uint32_t n);
__attribute__((noinline, aligned(4096))) uint32_t rec_a(uint32_t n)
{
    if (n == 0)
        return 1;
    uint32_t r = rec_b(n - 1);
    __asm__ volatile("" : "+r"(r));
    return r * 3 + n;
}
__attribute__((noinline, aligned(4096))) uint32_t rec_b(uint32_t n)
{
    if (n == 0)
        return 2;
    uint32_t r = n & 1 ? rec_a(n - 1) : rec_b(n - 1);
    __asm__ volatile("" : "+r"(r));
    return r * 5 + n;
}
/* the same with an explicit stack: which function runs at each depth */
static uint32_t rec_ref(uint32_t n)
{
    int is_a[64];
    uint32_t depth = 0;
    for (uint32_t m = n, a = 1;; m--, depth++) {
        is_a[depth] = (int)a;
        if (m == 0)
            break;
        a = a ? 0 : m & 1;
    }
    uint32_t r = is_a[depth] ? 1 : 2;
    for (uint32_t d = depth; d-- > 0;)
        r = is_a[d] ? r * 3 + (n - d) : r * 5 + (n - d);
    return r;
}

/* calls through pointers (jalr) and tail calls (j) */
__attribute__((noinline, aligned(4096))) uint32_t leaf(uint32_t x) { return x * 7 + 1; }
__attribute__((noinline)) uint32_t tail(uint32_t x) { return leaf(x + 2); }
static uint32_t (*volatile fp[2])(uint32_t) = {leaf, tail};

/* A caller at VA CALLER_VA, mapped to codeX or codeY: they differ in the
 * block after the call (v0 = 0x11 or 0x22).  The callee (a0) remaps the
 * page (a1: its PTE, a2: new PPN or 0) while the call is in progress. */
#define CALLER_VA 0x40010000u
static uint32_t codeX[1024] __attribute__((aligned(4096)));
static uint32_t codeY[1024] __attribute__((aligned(4096)));
static const uint32_t caller_words[] = {
    0x27BDFFF8, /* addiu sp, sp, -8 */
    0xAFBF0004, /* sw ra, 4(sp) */
    0x0080C821, /* move t9, a0 */
    0x0320F809, /* jalr t9 */
    0x00000000, /* nop */
    0x24020000, /* li v0, (0x11 or 0x22) */
    0x8FBF0004, /* lw ra, 4(sp) */
    0x03E00008, /* jr ra */
    0x27BD0008, /* addiu sp, sp, 8 */
};
__attribute__((noinline)) static uint32_t flip(uint32_t self, volatile pte2_t *pte,
                                               uint32_t ppn)
{
    if (ppn)
        pte->ppn = ppn;
    return self;
}

#define PA(p) ((uint32_t)(uintptr_t)(p))

int main(void)
{
    /* a return block rewritten from another page, every 100 calls */
    uint32_t v = 1;
    for (uint32_t i = 0; i < ITER; i++) {
        uint32_t patch = i % 100 == 50;
        if (patch)
            v = (v + 3) & 0x7FFF;
        CHECK_EQ(1, ca_call(0x24020000u | v, patch), v);
    }
    /* ... and from its own page */
    v = 1;
    for (uint32_t i = 0; i < ITER; i++) {
        uint32_t patch = i % 100 == 50;
        if (patch)
            v = (v + 5) & 0x7FFF;
        CHECK_EQ(2, ca_call2(0x24020000u | v, patch), v);
    }
    /* a return elsewhere than the call's return address */
    for (uint32_t i = 0; i < ITER; i++)
        CHECK_EQ(3, ca_skip(), 1);
    /* recursion, of varying depth */
    for (uint32_t i = 0; i < ITER; i++) {
        uint32_t n = (i * 7) % 40;
        CHECK_EQ(4, rec_a(n), rec_ref(n));
    }
    /* pointers and tail calls */
    for (uint32_t i = 0; i < ITER; i++) {
        uint32_t k = (i >> 3) & 1;
        CHECK_EQ(5, fp[k](i), k ? (i + 2) * 7 + 1 : i * 7 + 1);
    }

    /* the caller's page remapped by its callee, every 100 calls */
    for (unsigned i = 0; i < sizeof caller_words / 4; i++)
        codeX[i] = codeY[i] = caller_words[i];
    codeX[5] |= 0x11;
    codeY[5] |= 0x22;
    map_identity(pt1);
    mmu_on(pt1);
    volatile pte2_t *pte = map_page(pt1, CALLER_VA, PA(codeX), PTE_V | PTE_C | PTE_X);
    uint32_t (*caller)(void *, volatile pte2_t *, uint32_t) =
        (uint32_t(*)(void *, volatile pte2_t *, uint32_t))CALLER_VA;
    uint32_t expect = 0x11;
    for (uint32_t i = 0; i < ITER; i++) {
        uint32_t ppn = 0;
        if (i % 100 == 50) {
            expect = expect == 0x11 ? 0x22 : 0x11;
            ppn = PA(expect == 0x11 ? codeX : codeY) >> 12;
        }
        CHECK_EQ(6, caller((void *)flip, pte, ppn), expect);
    }
    mmu_off();
    return 0;
}
