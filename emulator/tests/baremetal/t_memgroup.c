/*
 * t_memgroup: runs of loads or stores off one base register (which the JIT
 * serves with one TLB probe when they share a page), at bases that walk
 * across 4 KiB page boundaries (also with the MMU on, adjacent virtual pages
 * on swapped physical pages), ascending and descending offsets, a load
 * that overwrites its base, and misaligned runs (each access raises
 * AdEL/AdES on its own, none of the stores happens).  Prints a checksum,
 * which the tier comparison (test_block_interp) holds to the interpreter's.
 */
#include "mmu.h"
#include "test.h"

static uint32_t buf[3 * 1024] __attribute__((aligned(4096)));

static uint32_t lw4(const void *p)
{
    uint32_t a, b, c, d;
    __asm__ volatile("lw %0, 0(%4)\n\t"
                     "lw %1, 4(%4)\n\t"
                     "addu %0, %0, %1\n\t"
                     "lw %2, 8(%4)\n\t"
                     "lw %3, 12(%4)\n\t"
                     : "=&r"(a), "=&r"(b), "=&r"(c), "=&r"(d)
                     : "r"(p)
                     : "memory");
    return a ^ (c * 3) ^ (d * 7);
}

static void sw4_down(void *p, uint32_t v)
{
    __asm__ volatile("sw %0, 12(%1)\n\t"
                     "addiu %0, %0, 1\n\t"
                     "sw %0, 8(%1)\n\t"
                     "sw %0, 4(%1)\n\t"
                     "xori %0, %0, 0x55\n\t"
                     "sw %0, 0(%1)\n\t"
                     : "+&r"(v)
                     : "r"(p)
                     : "memory");
}

static uint32_t lbu_mixed(const void *p)
{
    uint32_t a, b, c;
    __asm__ volatile("lbu %0, 3(%3)\n\t"
                     "lbu %1, -1(%3)\n\t"
                     "sll %0, %0, 8\n\t"
                     "lb %2, 6(%3)\n\t"
                     "or %0, %0, %1\n\t"
                     : "=&r"(a), "=&r"(b), "=&r"(c)
                     : "r"(p)
                     : "memory");
    return a + c;
}

/* the second load replaces the base: the third uses the new one */
static uint32_t chase(const uint32_t *p)
{
    uint32_t a, q = (uint32_t)(uintptr_t)p, c;
    __asm__ volatile("lw %0, 0(%1)\n\t"
                     "lw %1, 4(%1)\n\t"
                     "lw %2, 0(%1)\n\t"
                     : "=&r"(a), "+&r"(q), "=&r"(c)
                     :
                     : "memory");
    return a + c;
}

static uint32_t sink;

int main(void)
{
    uint8_t *b = (uint8_t *)buf;
    uint32_t sum = 0;
    for (unsigned i = 0; i < 3 * 1024; i++)
        buf[i] = i * 2654435761u + 12345;
    /* pointers for chase: buf[2048 + 2k + 1] -> buf[k] */
    for (unsigned k = 0; k < 64; k++)
        buf[2048 + 2 * k + 1] = (uint32_t)(uintptr_t)&buf[k * 17];

    for (int round = 0; round < 4; round++) {
        /* bases walk over the boundaries at 4096 and 8192 */
        for (int i = -24; i <= 8; i++) {
            sum = sum * 31 + lw4(b + 4096 + 4 * i);
            sum = sum * 31 + lw4(b + 8192 + 4 * i);
            sw4_down(b + 4096 + 4 * i, sum);
            sum = sum * 31 + lbu_mixed(b + 4096 + i);
            sum = sum * 31 + lbu_mixed(b + 8192 + 3 * i);
        }
        for (unsigned k = 0; k < 64; k++)
            sum = sum * 31 + chase(&buf[2048 + 2 * k]);
    }
    /* MMU on: VA 0x40000000 on buf's third page, 0x40001000 on its first */
    map_identity(pt1);
    mmu_on(pt1);
    map_page(pt1, 0x40000000, (uint32_t)(uintptr_t)&buf[2048], PTE_KERNEL);
    map_page(pt1, 0x40001000, (uint32_t)(uintptr_t)&buf[0], PTE_KERNEL);
    uint8_t *v = (uint8_t *)0x40001000;
    for (int round = 0; round < 4; round++) {
        for (int i = -24; i <= 8; i++) {
            sum = sum * 31 + lw4(v + 4 * i);
            sw4_down(v + 4 * i, sum);
            sum = sum * 31 + lbu_mixed(v + 3 * i);
        }
    }
    mmu_off();
    for (unsigned i = 0; i < 3 * 1024; i++)
        sum = sum * 31 + buf[i];

    /* misaligned runs: every access faults (and is skipped) */
    buf[8] = 0x11111111;
    buf[9] = 0x22222222;
    for (int k = 0; k < 3; k++) {
        int c0 = exc_count;
        exc_expect = 4;
        sink = lw4(b + 34);
        CHECK_EQ(1, exc_count - c0, 4);
        CHECK_EQ(2, EXCCODE(exc_cause), EXC_ADEL);
        exc_expect = 4;
        sw4_down(b + 34, 0xABCD);
        CHECK_EQ(3, exc_count - c0, 8);
        CHECK_EQ(4, EXCCODE(exc_cause), EXC_ADES);
        exc_expect = 0;
    }
    CHECK_EQ(5, buf[8], 0x11111111);
    CHECK_EQ(6, buf[9], 0x22222222);
    puts_("memgroup checksum ");
    puthex(sum);
    putch('\n');
    return 0;
}
