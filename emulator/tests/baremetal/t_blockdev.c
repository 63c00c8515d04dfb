/*
 * t_blockdev: block device DMA (reference 4.3).  Needs `-disk` with an image
 * of 8 blocks where byte i of block b is (b * 31 + i) & 0xFF, except block 5
 * which holds the code words {jr ra; li v0, 0x55}.  Block 3 is overwritten
 * with (i ^ 0xA5) (the host checks it afterwards).
 */
#include "test.h"

#define B(off) REG32(BLOCKDEVICE_BASE + (off))
enum { BUFFER = BDEV_BUFFER, LBA = BDEV_LBA, COUNT = BDEV_COUNT, OP = BDEV_OP, STATUS = BDEV_STATUS,
       IRQ_ENABLE = BDEV_IRQ_ENABLE, SIZE = BDEV_SIZE, BLOCK_SIZE = BDEV_BLOCK_SIZE,
       BUFFER_EXT = BDEV_BUFFER_EXT };
enum { ST_IDLE = BDEV_STATUS_IDLE, ST_BUSY = BDEV_STATUS_BUSY, ST_READ_OK = BDEV_STATUS_READ_SUCCESS,
       ST_WRITE_OK = BDEV_STATUS_WRITE_SUCCESS, ST_READ_ERR = BDEV_STATUS_READ_ERROR,
       ST_WRITE_ERR = BDEV_STATUS_WRITE_ERROR };

#define X_HWI_EN(o) XICU_REG(XICU_MSK_HWI_ENABLE, o)
#define X_MSK_HWI(o) XICU_REG(XICU_MSK_HWI, o)

static uint8_t buf[3 * 512] __attribute__((aligned(64)));
static uint8_t buf2[512] __attribute__((aligned(64)));
static uint32_t code[1024] __attribute__((aligned(4096)));
static volatile int nirq;
static volatile uint32_t irq_status;

static void bd_irq(exc_frame *f, uint32_t cause)
{
    (void)f;
    (void)cause;
    nirq++;
    irq_status = B(STATUS); /* reading the terminal state acknowledges */
}

static uint32_t xfer(uint32_t op, void *dst, uint32_t lba, uint32_t count)
{
    B(BUFFER) = (uint32_t)(uintptr_t)dst;
    B(LBA) = lba;
    B(COUNT) = count;
    B(OP) = op;
    uint32_t st;
    while ((st = B(STATUS)) == ST_BUSY)
        ;
    return st;
}

int main(void)
{
    CHECK_EQ(1, B(SIZE), 8);
    CHECK_EQ(2, B(BLOCK_SIZE), 512);
    CHECK_EQ(3, B(IRQ_ENABLE), 1);
    CHECK_EQ(4, B(STATUS), ST_IDLE);
    B(IRQ_ENABLE) = 0;

    /* read blocks 1..2, polling */
    B(BUFFER) = (uint32_t)(uintptr_t)buf;
    B(LBA) = 1;
    B(COUNT) = 2;
    CHECK_EQ(5, B(LBA), 1);
    CHECK_EQ(6, B(COUNT), 2);
    CHECK_EQ(7, B(BUFFER), (uint32_t)(uintptr_t)buf);
    B(OP) = 1;
    CHECK_EQ(8, B(STATUS), ST_BUSY);
    /* registers are locked while busy */
    EXPECT_EXC(9, EXC_DBE, B(LBA) = 7);
    EXPECT_EXC(10, EXC_DBE, B(OP) = 1);
    uint32_t st;
    while ((st = B(STATUS)) == ST_BUSY)
        ;
    CHECK_EQ(11, st, ST_READ_OK);
    CHECK_EQ(12, B(STATUS), ST_IDLE); /* the read acknowledged it */
    CHECK_EQ(13, B(LBA), 1);
    for (int b = 0; b < 2; b++)
        for (int i = 0; i < 512; i++)
            CHECK_EQ(14, buf[b * 512 + i], ((b + 1) * 31 + i) & 0xFF);

    /* write block 3, read it back */
    for (int i = 0; i < 512; i++)
        buf[i] = (uint8_t)(i ^ 0xA5);
    CHECK_EQ(20, xfer(2, buf, 3, 1), ST_WRITE_OK);
    CHECK_EQ(21, xfer(1, buf2, 3, 1), ST_READ_OK);
    for (int i = 0; i < 512; i++)
        CHECK_EQ(22, buf2[i], (i ^ 0xA5) & 0xFF);

    /* errors: out of range, buffer outside RAM */
    CHECK_EQ(30, xfer(1, buf, 7, 2), ST_READ_ERR);
    CHECK_EQ(31, xfer(2, buf, 8, 1), ST_WRITE_ERR);
    CHECK_EQ(32, xfer(1, (void *)0x30000000, 0, 1), ST_READ_ERR);
    B(BUFFER_EXT) = 0x12;
    CHECK_EQ(33, B(BUFFER_EXT), 0x12);
    CHECK_EQ(34, xfer(1, buf, 0, 1), ST_READ_ERR); /* PA 0x12_xxxx_xxxx: no RAM */
    B(BUFFER_EXT) = 0;
    /* NOOP resets */
    B(OP) = 0;
    CHECK_EQ(35, B(STATUS), ST_IDLE);

    /* interrupt driven: HWI 1 -> output 0 -> IP2 */
    irq_hook = bd_irq;
    B(IRQ_ENABLE) = 1;
    REG32(X_HWI_EN(0)) = 2;
    MTC0(12, 0, 0x0401);
    B(BUFFER) = (uint32_t)(uintptr_t)buf;
    B(LBA) = 0;
    B(COUNT) = 1;
    B(OP) = 1;
    while (!nirq)
        __asm__ volatile("wait" ::: "memory");
    MTC0(12, 0, 0);
    CHECK_EQ(40, nirq, 1);
    CHECK_EQ(41, irq_status, ST_READ_OK);
    CHECK_EQ(42, MFC0(13, 0) & 0x400, 0); /* line dropped after the ack */
    for (int i = 0; i < 512; i++)
        CHECK_EQ(43, buf[i], i & 0xFF);
    REG32(X_MSK_HWI(0)) = 0;
    irq_hook = 0;

    /* DMA over code that was already executed: the new code runs */
    uint32_t (*fn)(void) = (uint32_t(*)(void))(uintptr_t)code;
    code[0] = 0x03E00008; /* jr ra */
    code[1] = 0x24020011; /* li v0, 0x11 */
    CHECK_EQ(50, fn(), 0x11);
    B(IRQ_ENABLE) = 0;
    CHECK_EQ(51, xfer(1, code, 5, 1), ST_READ_OK);
    CHECK_EQ(52, fn(), 0x55);
    return 0;
}
