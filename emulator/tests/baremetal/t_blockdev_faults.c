/*
 * t_blockdev_faults: the block device's read-only mode and fault injection.
 * Run with `-disk IMG -disk-ro -disk-error 2-3` on the 8-block image of
 * t_blockdev (byte i of block b = (b * 31 + i) & 0xFF): transfers touching
 * blocks 2..3 end in READ_ERROR, the others read fine, and every write ends
 * in WRITE_ERROR without reaching the image (the host checks it).
 */
#include "test.h"

#define B(off) REG32(BLOCKDEVICE_BASE + (off))
enum { BUFFER = 0x00, LBA = 0x04, COUNT = 0x08, OP = 0x0C, STATUS = 0x10, IRQ_ENABLE = 0x14,
       SIZE = 0x18 };
enum { ST_IDLE, ST_BUSY, ST_READ_OK, ST_WRITE_OK, ST_READ_ERR, ST_WRITE_ERR };

static uint8_t buf[4 * 512] __attribute__((aligned(64)));

static uint32_t xfer(uint32_t op, uint32_t lba, uint32_t count)
{
    B(BUFFER) = (uint32_t)(uintptr_t)buf;
    B(LBA) = lba;
    B(COUNT) = count;
    B(OP) = op;
    uint32_t st;
    while ((st = B(STATUS)) == ST_BUSY)
        ;
    return st;
}

static int block_ok(int slot, uint32_t b)
{
    for (int i = 0; i < 512; i++)
        if (buf[slot * 512 + i] != ((b * 31 + i) & 0xFF))
            return 0;
    return 1;
}

int main(void)
{
    B(IRQ_ENABLE) = 0;
    CHECK_EQ(1, B(SIZE), 8);
    CHECK_EQ(2, xfer(1, 0, 2), ST_READ_OK);   /* blocks 0..1: fine */
    CHECK(3, block_ok(0, 0) && block_ok(1, 1));
    CHECK_EQ(4, xfer(1, 1, 2), ST_READ_ERR);  /* 1..2 touches the bad range */
    CHECK_EQ(5, xfer(1, 3, 1), ST_READ_ERR);
    CHECK_EQ(6, xfer(1, 0, 8), ST_READ_ERR);  /* spans it */
    CHECK_EQ(7, xfer(1, 4, 4), ST_READ_OK);   /* 4..7: fine */
    CHECK(8, block_ok(0, 4) && block_ok(3, 7));
    CHECK_EQ(9, B(STATUS), ST_IDLE);
    for (int i = 0; i < 512; i++)
        buf[i] = 0xEE;
    CHECK_EQ(10, xfer(2, 6, 1), ST_WRITE_ERR); /* read-only */
    CHECK_EQ(11, xfer(2, 2, 1), ST_WRITE_ERR);
    CHECK_EQ(12, xfer(1, 6, 1), ST_READ_OK);
    CHECK(13, block_ok(0, 6));
    return 0;
}
