/*
 * t_mc_iopic: the IOPIC (SoCLib vci_iopic, tsar-multicluster.md 3.3) with
 * the block device on its input 8 (docs/multicluster.md's input map).  A
 * rising edge writes the input number to the WTI mailbox of ADDRESS/EXTEND
 * (here WTI 5 of the last cluster's XICU), a falling edge reads it back
 * (clearing it); a channel whose write fails stays in the error state,
 * doing nothing, until STATUS is read; MASK = 0 disables a channel.  The
 * block device's DMA goes to the last cluster too (BUFFER_EXT).  Needs the
 * mesh DTB and -disk with make_disk's image (byte i of block 0 = i).
 */
#include "mc.h"

/* The IOPIC's local address in the I/O cluster (docs/multicluster.md) and
 * its registers (SoCLib iopic.h), until the spec describes it. */
#define IOPIC_LOCAL 0x11000000u
enum { P_ADDRESS, P_EXTEND, P_STATUS, P_MASK };
#define P(ch, w) REG32(IOPIC_LOCAL + 16 * (ch) + 4 * (w))
#define B(off) REG32(BLOCKDEVICE_BASE + (off))
#define IN_BDEV 8
#define WTI 5
#define OUT 1                  /* the XICU output whose WTI mask we watch */

static uint32_t clusters[256], ncl, T;
static uint32_t buf[128] __attribute__((aligned(64)));

static void delay(void)
{
    for (volatile uint32_t i = 0; i < 5000; i++)
        ;
}

/* read one block to buf, in cluster ext; wait long enough for it to end */
static void xfer(uint32_t ext)
{
    B(BDEV_BUFFER) = (uint32_t)(uintptr_t)buf;
    B(BDEV_BUFFER_EXT) = ext;
    B(BDEV_LBA) = 0;
    B(BDEV_COUNT) = 1;
    B(BDEV_OP) = BDEV_OP_READ;
    delay();
}

static uint32_t pending(void) { return xicu_rd(T, XICU_MSK_WTI_DISABLE, OUT) & (1u << WTI); }

int main(void)
{
    ncl = (uint32_t)probe(XICU_REG(XICU_CONFIG, 0), clusters);
    CHECK(1, ncl >= 2);
    T = clusters[ncl - 1];
    xicu_wr(T, XICU_MSK_WTI, OUT, 1u << WTI);

    /* registers */
    CHECK_EQ(2, P(IN_BDEV, P_MASK), 0);
    P(IN_BDEV, P_ADDRESS) = 0x12345678;
    CHECK_EQ(3, P(IN_BDEV, P_ADDRESS), 0x12345678);
    P(IN_BDEV, P_EXTEND) = 0x1FF;
    CHECK_EQ(4, P(IN_BDEV, P_EXTEND), 0xFF);
    EXPECT_EXC(5, EXC_DBE, P(IN_BDEV, P_STATUS) = 0);
    EXPECT_EXC(6, EXC_DBE, (void)REG32(IOPIC_LOCAL + 0x200));
    CHECK_EQ(7, P(IN_BDEV, P_STATUS), 0);

    /* masked: no write */
    P(IN_BDEV, P_ADDRESS) = XICU_REG(XICU_WTI_REG, WTI);
    P(IN_BDEV, P_EXTEND) = T;
    xfer(0);
    CHECK_EQ(10, P(IN_BDEV, P_STATUS), 1);  /* the level is up */
    CHECK_EQ(11, pending(), 0);
    CHECK_EQ(12, B(BDEV_STATUS), BDEV_STATUS_READ_SUCCESS);
    CHECK_EQ(13, P(IN_BDEV, P_STATUS), 0);

    /* enabled: rising edge -> WTI write, falling edge -> WTI read */
    P(IN_BDEV, P_MASK) = 1;
    xfer(T);
    CHECK_EQ(20, pending(), 1u << WTI);
    CHECK_EQ(21, P(IN_BDEV, P_STATUS), 1);
    CHECK_EQ(22, B(BDEV_STATUS), BDEV_STATUS_READ_SUCCESS);
    delay();
    CHECK_EQ(23, pending(), 0);
    CHECK_EQ(24, xicu_rd(T, XICU_WTI_REG, WTI), IN_BDEV);
    CHECK_EQ(25, pread(T, (uint32_t)(uintptr_t)buf), 0x03020100);
    puts_("iopic edges ok\n");

    /* a failed write: the error state, nothing routed until STATUS is read */
    P(IN_BDEV, P_EXTEND) = 0xEE;
    xfer(0);
    P(IN_BDEV, P_EXTEND) = T;
    CHECK_EQ(30, B(BDEV_STATUS), BDEV_STATUS_READ_SUCCESS);  /* falls: no read */
    xfer(0);                                                 /* rises: no write */
    CHECK_EQ(31, pending(), 0);
    CHECK_EQ(32, P(IN_BDEV, P_STATUS), 3);                   /* level + error */
    CHECK_EQ(33, P(IN_BDEV, P_STATUS), 1);                   /* read: cleared */
    CHECK_EQ(34, B(BDEV_STATUS), BDEV_STATUS_READ_SUCCESS);
    xfer(0);
    CHECK_EQ(35, pending(), 1u << WTI);
    CHECK_EQ(36, B(BDEV_STATUS), BDEV_STATUS_READ_SUCCESS);
    delay();
    CHECK_EQ(37, pending(), 0);
    puts_("iopic error state ok\n");

    /* disabled again */
    P(IN_BDEV, P_MASK) = 0;
    xfer(0);
    CHECK_EQ(40, pending(), 0);
    CHECK_EQ(41, B(BDEV_STATUS), BDEV_STATUS_READ_SUCCESS);
    puts_("iopic mask ok\n");
    return 0;
}
