/*
 * t_blockdev_kill: a completed write is in the image even if the emulator
 * is killed right after. Writes block 1 of the 8-block image with
 * (i ^ 0x3C), waits for WRITE_SUCCESS, prints "written" and spins until
 * the host kills the emulator (which then checks the image).
 */
#include "test.h"

#define B(off) REG32(BDEV_BASE + (off))
enum { BUFFER = 0x00, LBA = 0x04, COUNT = 0x08, OP = 0x0C, STATUS = 0x10, IRQ_ENABLE = 0x14 };
enum { ST_BUSY = 1, ST_WRITE_OK = 3 };

static uint8_t buf[512] __attribute__((aligned(64)));

int main(void)
{
    B(IRQ_ENABLE) = 0;
    for (int i = 0; i < 512; i++)
        buf[i] = (uint8_t)(i ^ 0x3C);
    B(BUFFER) = (uint32_t)(uintptr_t)buf;
    B(LBA) = 1;
    B(COUNT) = 1;
    B(OP) = 2;
    uint32_t st;
    while ((st = B(STATUS)) == ST_BUSY)
        ;
    CHECK_EQ(1, st, ST_WRITE_OK);
    puts_("written\n");
    /* keep running until killed (a bare `b .` with interrupts masked
     * would end the run as a hang) */
    for (volatile uint32_t i = 0;; i++)
        ;
}
