/*
 * t_smp_mmu: the coherence contract across CPUs (reference 2: TLBs and
 * caches are kept coherent by the hardware).  CPU 1 runs with the MMU on;
 * CPU 0, with the MMU off, rewrites a PTE that CPU 1 has used, and the code
 * of a page CPU 1 has executed.  CPU 1 must see the new mapping and the new
 * code without any flush; the D bit its write sets through the walker is
 * visible to CPU 0.  Run with the 4-CPU DTB (CPUs 2 and 3 sleep).
 */
#include "mmu.h"
#include "smp.h"

#define VA_DATA 0x40000000u
#define VA_CODE 0x40100000u

static volatile uint32_t page_a[1024] __attribute__((aligned(4096)));
static volatile uint32_t page_b[1024] __attribute__((aligned(4096)));
static volatile uint32_t code[1024] __attribute__((aligned(4096)));
static volatile pte2_t *pte_data;
static volatile uint32_t step, seen[8];

static void wait_step(uint32_t s)
{
    while (step < s)
        ;
}

/* li v0, n ; jr ra ; nop */
static void write_fn(uint32_t n)
{
    code[0] = 0x24020000u | n;
    code[1] = 0x03e00008u;
    code[2] = 0;
}

void secondary_main(uint32_t id)
{
    if (id != 1)
        for (;;)
            cpu_wait();
    wait_step(1);
    mmu_on(pt1);
    uint32_t (*fn)(void) = (uint32_t (*)(void))VA_CODE;
    seen[0] = *(volatile uint32_t *)VA_DATA;
    seen[1] = fn();
    *(volatile uint32_t *)(VA_DATA + 4) = 0x77; /* sets D in the PTE */
    step = 2;
    wait_step(3);
    seen[2] = *(volatile uint32_t *)VA_DATA;
    seen[3] = fn();
    seen[4] = *(volatile uint32_t *)(VA_DATA + 4);
    step = 4;
    for (;;)
        cpu_wait();
}

int main(void)
{
    page_a[0] = 0xAAAA;
    page_b[0] = 0xBBBB;
    write_fn(1);
    map_identity(pt1);
    pte_data = map_page(pt1, VA_DATA, (uint32_t)(uintptr_t)page_a, PTE_KERNEL);
    map_page(pt1, VA_CODE, (uint32_t)(uintptr_t)code, PTE_KERNEL);
    step = 1;
    wait_step(2);
    CHECK_EQ(1, seen[0], 0xAAAA);
    CHECK_EQ(2, seen[1], 1);
    CHECK_EQ(3, page_a[1], 0x77);
    CHECK(4, pte_data->flags & PTE_D);   /* the walker's update, seen here */
    CHECK(5, pte_data->flags & PTE_L);
    /* remap and rewrite: plain stores, no flush (the contract) */
    pte_data->ppn = (uint32_t)(uintptr_t)page_b >> 12;
    write_fn(2);
    step = 3;
    wait_step(4);
    CHECK_EQ(6, seen[2], 0xBBBB);
    CHECK_EQ(7, seen[3], 2);
    CHECK_EQ(8, seen[4], 0);             /* page_b[1] */
    puts_("smp mmu coherent\n");
    return 0;
}
