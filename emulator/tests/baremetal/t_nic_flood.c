/*
 * t_nic_flood: floods in both directions (tests/emulator/test_nic.py).
 * TX: 2000 containers of two 1000-byte UDP frames to the gateway's
 * discard port, sent as fast as the NIC takes them.  RX: after an ARP
 * request (so that libslirp knows 10.0.2.15), prints "ready" and never
 * gives a container back while the host floods a UDP forward: the NIC's
 * FIFO fills and drops.  Ends once 500 frames were dropped that way.
 */
#include "nic.h"

#define TX_CONTAINERS 2000
#define RX_DROPS 500

static uint8_t arp[64], udp[14 + 20 + 8 + 972];

int main(void)
{
    nic_on();
    /* the gateway's MAC, and libslirp learns ours */
    const uint8_t *af[1] = {arp};
    uint16_t al[1] = {arp_request(arp)};
    tx_send(0, 1, af, al);
    int i;
    for (i = 0; i < 1000000 && !(N(NIC_RX_DESC_HI_0) & NIC_DESC_FULL); i++)
        ;
    CHECK(1, i < 1000000);
    uint8_t reply[64], gw_mac[6];
    rx_frame(0, 0, reply);
    copy(gw_mac, reply + 22, 6);
    N(NIC_RX_DESC_HI_0) = 0;

    /* UDP to 10.0.2.2:9 (discard), no checksum */
    ip_header(udp, gw_mac, 17, 8 + 972, 1);
    uint8_t *u = udp + 34;
    u[0] = 0x30, u[1] = 0x39, u[2] = 0, u[3] = 9, u[4] = (8 + 972) >> 8, u[5] = (uint8_t)(8 + 972);
    u[6] = u[7] = 0;
    for (int k = 0; k < 972; k++)
        u[8 + k] = (uint8_t)k;
    const uint8_t *uf[2] = {udp, udp};
    uint16_t ul[2] = {sizeof udp, sizeof udp};
    int c = 1; /* the NIC sends containers in turn: 0 went out */
    for (int n = 0; n < TX_CONTAINERS; n++, c ^= 1) {
        while (N(tx_desc(c)) & NIC_DESC_FULL)
            ;
        tx_send(c, 2, uf, ul);
    }
    while (N(tx_desc(c ^ 1)) & NIC_DESC_FULL)
        ;
    CHECK_EQ(2, N(NIC_G_NPKT_TX_DISPATCH_RECEIVED), 1 + 2 * TX_CONTAINERS);
    CHECK_EQ(3, N(NIC_G_NPKT_TX_DISPATCH_TRANSMIT), 1 + 2 * TX_CONTAINERS);
    puts_("tx done\n");

    puts_("ready\n");
    /* mostly away from the NIC: a register access ends the CPU's run, and
     * host input arrives every poll interval of instructions */
    while (N(NIC_G_NPKT_RX_DES_MFIFO_FULL) < RX_DROPS)
        for (volatile int k = 0; k < 5000; k++)
            ;
    /* the containers hold what they took, the rest waited or was dropped */
    CHECK(4, N(NIC_RX_DESC_HI_0) & NIC_DESC_FULL);
    CHECK(5, N(NIC_RX_DESC_HI_1) & NIC_DESC_FULL);
    puts_("flooded\n");
    return 0;
}
