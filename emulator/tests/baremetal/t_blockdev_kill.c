/*
 * t_blockdev_kill: a completed write is in the image even if the emulator
 * is killed right after. Writes block 1 of the 8-block image with
 * (i ^ 0x3C), waits for WRITE_SUCCESS, prints "written" and spins until
 * the host kills the emulator (which then checks the image).
 */
#include "test.h"

#define B(off) REG32(BLOCKDEVICE_BASE + (off))
enum { BUFFER = BDEV_BUFFER, LBA = BDEV_LBA, COUNT = BDEV_COUNT, OP = BDEV_OP, STATUS = BDEV_STATUS,
       IRQ_ENABLE = BDEV_IRQ_ENABLE };
enum { ST_BUSY = BDEV_STATUS_BUSY, ST_WRITE_OK = BDEV_STATUS_WRITE_SUCCESS };

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
