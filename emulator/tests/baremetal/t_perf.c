/*
 * t_perf: a CPU-bound loop (loads, stores, ALU, branches, a call) with the
 * MMU on, for speed measurements (`tsar-emu -v` prints MIPS).  Checks its
 * checksum.  ITERS can be overridden at build time.
 */
#include "mmu.h"
#include "test.h"

#ifndef ITERS
#define ITERS 2000
#endif

static uint32_t buf[1024];

__attribute__((noinline)) static uint32_t mix(uint32_t x, uint32_t y)
{
    return (x ^ (y << 3)) + (y >> 5);
}

int main(void)
{
    map_identity(pt1);
    mmu_on(pt1);
    uint32_t sum = 1;
    for (int i = 0; i < 1024; i++)
        buf[i] = (uint32_t)i * 2654435761u;
    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < 1024; i++) {
            uint32_t v = buf[i];
            sum = sum * 33 + v;
            if (v & 1)
                sum ^= v >> 7;
            buf[i] = v + sum;
        }
        sum = mix(sum, (uint32_t)it);
    }
    mmu_off();
    /* the checksum was computed by the same code on qemu-mipsel */
    puts_("perf checksum ");
    puthex(sum);
    putch('\n');
    return 0;
}
