/*
 * t_nic: the NIC (SoCLib vci_multi_nic, channel 0) against libslirp.
 * Registers and bus errors; a TX container of three frames (too short,
 * foreign source MAC, an ARP request for the gateway) of which only the
 * ARP request goes out; libslirp's ARP reply in RX container 0 (polled);
 * an ICMP echo request to 10.0.2.2 and its reply in RX container 1
 * through the RX interrupt (HWI NIC_IRQ0 on XICU output 0); the TX
 * interrupt; the counters.  Prints "link=0" and checks that nothing comes
 * back when the NIC has no cable (-net none), else "link=1 ... ok".
 */
#include "nic.h"

#define X_HWI_EN(o) XICU_REG(XICU_MSK_HWI_ENABLE, o)
#define X_MSK_HWI(o) XICU_REG(XICU_MSK_HWI, o)
#define IP2 0x400

static uint8_t f0[64], f1[64], f2[64], rx[1600];
static uint8_t echo[14 + 20 + 8 + 32];
static volatile int rx_irqs;

static void on_irq(exc_frame *f, uint32_t cause)
{
    (void)f;
    (void)cause;
    rx_irqs++;
    REG32(X_MSK_HWI(0)) = 0; /* the line stays up until the container goes back */
}

static void wait_tx_done(int n, int c)
{
    for (int i = 0; i < 1000000; i++)
        if (!(N(tx_desc(c)) & NIC_DESC_FULL))
            return;
    fail(n, "TX container sent", N(tx_desc(c)), 0);
}

static int wait_rx(int c)
{
    for (int i = 0; i < 200000; i++)
        if (N(rx_desc(c)) & NIC_DESC_FULL)
            return 1;
    return 0;
}

int main(void)
{
    CHECK_EQ(1, N(NIC_G_NB_CHAN), 1);
    CHECK_EQ(2, N(NIC_MAC_4), 0x52540012);
    CHECK_EQ(3, N(NIC_MAC_2), 0x3456);
    CHECK_EQ(4, N(NIC_G_ON), 0);
    CHECK_EQ(5, N(NIC_RX_DESC_HI_0), 0);
    uint32_t link = N(NIC_LINK);
    CHECK(6, link <= 1);
    /* TX containers are write-only, RX containers and the MAC read-only,
     * one channel only */
    EXPECT_EXC(7, 7, (void)N(NIC_TX_CONTAINER_0));
    EXPECT_EXC(8, 7, N(NIC_RX_CONTAINER_0) = 1);
    EXPECT_EXC(9, 7, N(NIC_MAC_4) = 1);
    EXPECT_EXC(10, 7, (void)N(NIC_CHANNEL_SPAN + NIC_MAC_4));
    EXPECT_EXC(11, 7, N(NIC_G_NB_CHAN) = 2);
    /* descriptors keep their address bits */
    N(NIC_RX_DESC_LO_1) = 0x12345678;
    CHECK_EQ(12, N(NIC_RX_DESC_LO_1), 0x12345678);
    N(NIC_RX_DESC_HI_1) = 0x00AB;
    CHECK_EQ(13, N(NIC_RX_DESC_HI_1), 0x00AB);

    /* TX interrupt: containers empty and TX running */
    nic_on();
    REG32(X_HWI_EN(0)) = 1u << NIC_IRQ1;
    CHECK(14, MFC0(13, 0) & IP2);
    REG32(X_MSK_HWI(0)) = 0;

    /* one container, three frames: only the ARP request is sent */
    const uint8_t *frames[3] = {f0, f1, f2};
    uint16_t lens[3] = {40, arp_request(f1), arp_request(f2)};
    arp_request(f0);
    f1[6] = 0x02; /* not our source address */
    tx_send(0, 3, frames, lens);
    CHECK(15, N(NIC_TX_DESC_HI_0) & NIC_DESC_FULL);
    EXPECT_EXC(16, 7, N(NIC_TX_CONTAINER_0 + 0x100) = 0); /* the NIC owns it */
    wait_tx_done(17, 0);
    CHECK_EQ(18, N(NIC_G_NPKT_TX_DISPATCH_RECEIVED), 3);
    CHECK_EQ(19, N(NIC_G_NPKT_TX_DISPATCH_TOO_SMALL), 1);
    CHECK_EQ(20, N(NIC_G_NPKT_TX_DISPATCH_SRC_FAIL), 1);
    CHECK_EQ(21, N(NIC_G_NPKT_TX_DISPATCH_BROADCAST), 1);
    if (!link) {
        CHECK_EQ(22, N(NIC_G_NPKT_TX_DISPATCH_TRANSMIT), 0);
        CHECK(23, !wait_rx(0));
        puts_("link=0\n");
        return 0;
    }
    CHECK_EQ(24, N(NIC_G_NPKT_TX_DISPATCH_TRANSMIT), 1);

    /* the gateway's ARP reply, in RX container 0 */
    CHECK(30, wait_rx(0));
    uint32_t h = NWORD(NIC_RX_CONTAINER_0, 0);
    CHECK_EQ(31, h & 0xFFFF, 1);
    uint32_t len = rx_frame(0, 0, rx);
    CHECK(32, len >= 60 && len <= 64); /* 42 bytes of ARP, padded */
    CHECK_EQ(33, h >> 16, NIC_HEADER_WORDS + (len + 3) / 4);
    for (int i = 0; i < 6; i++)
        CHECK_EQ(34, rx[i], my_mac[i]);
    CHECK_EQ(35, rx[12] << 8 | rx[13], 0x0806);
    CHECK_EQ(36, rx[20] << 8 | rx[21], 2); /* reply */
    for (int i = 0; i < 4; i++)
        CHECK_EQ(37, rx[28 + i], gw_ip[i]);
    uint8_t gw_mac[6];
    copy(gw_mac, rx + 22, 6);
    N(NIC_RX_DESC_HI_0) = 0; /* give it back */
    CHECK_EQ(38, N(NIC_RX_DESC_HI_0) & NIC_DESC_FULL, 0);

    /* ICMP echo to the gateway; the reply through the RX interrupt */
    ip_header(echo, gw_mac, 1, 8 + 32, 0x1234);
    uint8_t *icmp = echo + 34;
    icmp[0] = 8, icmp[1] = 0, icmp[2] = icmp[3] = 0;
    icmp[4] = 0xBE, icmp[5] = 0xEF, icmp[6] = 0, icmp[7] = 1;
    for (int i = 0; i < 32; i++)
        icmp[8 + i] = (uint8_t)(i * 7 + 3);
    uint16_t c = csum(icmp, 40);
    icmp[2] = (uint8_t)(c >> 8), icmp[3] = (uint8_t)c;
    irq_hook = on_irq;
    REG32(X_HWI_EN(0)) = 1u << NIC_IRQ0;
    MTC0(12, 0, 0x0401);
    const uint8_t *ef[1] = {echo};
    uint16_t el[1] = {sizeof echo};
    tx_send(1, 1, ef, el); /* the NIC sends containers in turn: 1 now */
    for (int i = 0; i < 100000 && !rx_irqs; i++)
        __asm__ volatile("wait" ::: "memory");
    MTC0(12, 0, 0);
    irq_hook = 0;
    CHECK_EQ(40, rx_irqs, 1);
    CHECK(41, N(NIC_RX_DESC_HI_1) & NIC_DESC_FULL); /* the NIC fills them in turn */
    CHECK_EQ(42, NWORD(NIC_RX_CONTAINER_1, 0) & 0xFFFF, 1);
    len = rx_frame(1, 0, rx);
    CHECK_EQ(43, len, sizeof echo);
    CHECK_EQ(44, rx[12] << 8 | rx[13], 0x0800);
    CHECK_EQ(45, rx[14 + 9], 1);   /* ICMP */
    CHECK_EQ(46, rx[34], 0);       /* echo reply */
    CHECK_EQ(47, rx[38] << 8 | rx[39], 0xBEEF);
    for (int i = 0; i < 32; i++)
        CHECK_EQ(48, rx[42 + i], (uint8_t)(i * 7 + 3));
    for (int i = 0; i < 4; i++)
        CHECK_EQ(49, rx[26 + i], gw_ip[i]);
    N(NIC_RX_DESC_HI_1) = 0;
    CHECK_EQ(50, MFC0(13, 0) & IP2, 0);
    CHECK_EQ(51, N(NIC_G_NPKT_TX_DISPATCH_TRANSMIT), 2);
    CHECK(52, N(NIC_G_NPKT_RX_DES_SUCCESS) >= 2);
    CHECK_EQ(53, N(NIC_G_NPKT_RX_DES_MFIFO_FULL), 0);
    puts_("link=1 arp and icmp echo ok\n");
    return 0;
}
