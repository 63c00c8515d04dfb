/*
 * nic.h - the NIC (SoCLib vci_multi_nic, channel 0) for the bare-metal
 * tests: registers, container packing, and the frames they send to
 * libslirp's gateway 10.0.2.2 from 10.0.2.15.
 */
#ifndef NIC_H
#define NIC_H

#include "test.h"

#define N(off) REG32(NIC_BASE + (off))
#define NWORD(c, w) REG32(NIC_BASE + (c) + 4 * (w))

static const uint8_t my_mac[6] = {0x52, 0x54, 0x00, 0x12, 0x34, 0x56};
static const uint8_t my_ip[4] = {10, 0, 2, 15};
static const uint8_t gw_ip[4] = {10, 0, 2, 2};

static void nic_on(void)
{
    N(NIC_G_ON) = 1;
    N(NIC_G_VIS) = 1;
    N(NIC_G_BC_ENABLE) = 1;
    N(NIC_RX_RUN) = 1;
    N(NIC_TX_RUN) = 1;
}

static inline uint32_t tx_desc(int c) { return c ? NIC_TX_DESC_HI_1 : NIC_TX_DESC_HI_0; }
static inline uint32_t rx_desc(int c) { return c ? NIC_RX_DESC_HI_1 : NIC_RX_DESC_HI_0; }
static inline uint32_t tx_cont(int c) { return c ? NIC_TX_CONTAINER_1 : NIC_TX_CONTAINER_0; }
static inline uint32_t rx_cont(int c) { return c ? NIC_RX_CONTAINER_1 : NIC_RX_CONTAINER_0; }

/* Fill TX container c with n (at most 6) frames and send it. */
static void tx_send(int c, int n, const uint8_t *const *frames, const uint16_t *lens)
{
    uint32_t w = NIC_HEADER_WORDS, plen[4];
    for (int k = 0; k < 4; k++)
        plen[k] = 0;
    for (int i = 0; i < n && i < 6; i++) {
        const uint8_t *f = frames[i];
        for (uint32_t b = 0; b < lens[i]; b += 4) {
            uint32_t v = 0;
            for (uint32_t k = 0; k < 4 && b + k < lens[i]; k++)
                v |= (uint32_t)f[b + k] << (8 * k);
            NWORD(tx_cont(c), w + b / 4) = v;
        }
        w += (lens[i] + 3u) / 4;
        plen[1 + i / 2] |= i & 1 ? lens[i] : (uint32_t)lens[i] << 16;
    }
    plen[0] = w << 16 | (uint32_t)n;
    for (int k = 0; k <= (n + 1) / 2; k++)
        NWORD(tx_cont(c), k) = plen[k];
    N(tx_desc(c)) = NIC_DESC_FULL;
}

/* Copy frame i of RX container c into buf (returns its length). */
static uint32_t rx_frame(int c, uint32_t i, uint8_t *buf)
{
    uint32_t w = NIC_HEADER_WORDS;
    for (uint32_t k = 0; k < i; k++) {
        uint32_t l = NWORD(rx_cont(c), 1 + k / 2);
        l = k & 1 ? l & 0xFFFF : l >> 16;
        w += (l + 3) / 4;
    }
    uint32_t len = NWORD(rx_cont(c), 1 + i / 2);
    len = i & 1 ? len & 0xFFFF : len >> 16;
    for (uint32_t b = 0; b < len; b += 4) {
        uint32_t v = NWORD(rx_cont(c), w + b / 4);
        for (uint32_t k = 0; k < 4 && b + k < len; k++)
            buf[b + k] = (uint8_t)(v >> (8 * k));
    }
    return len;
}

static void copy(uint8_t *d, const uint8_t *s, int n)
{
    for (int i = 0; i < n; i++)
        d[i] = s[i];
}

/* ARP request "who has 10.0.2.2, tell 10.0.2.15", padded to 60 bytes */
static uint16_t arp_request(uint8_t *f)
{
    for (int i = 0; i < 60; i++)
        f[i] = 0;
    for (int i = 0; i < 6; i++)
        f[i] = 0xFF;
    copy(f + 6, my_mac, 6);
    f[12] = 0x08, f[13] = 0x06;            /* ARP */
    f[14] = 0, f[15] = 1, f[16] = 8, f[17] = 0, f[18] = 6, f[19] = 4;
    f[20] = 0, f[21] = 1;                  /* request */
    copy(f + 22, my_mac, 6);
    copy(f + 28, my_ip, 4);
    copy(f + 38, gw_ip, 4);
    return 60;
}

static uint16_t csum(const uint8_t *p, int n)
{
    uint32_t s = 0;
    for (int i = 0; i + 1 < n; i += 2)
        s += (uint32_t)p[i] << 8 | p[i + 1];
    if (n & 1)
        s += (uint32_t)p[n - 1] << 8;
    while (s >> 16)
        s = (s & 0xFFFF) + (s >> 16);
    return (uint16_t)~s;
}

/* IPv4 header (20 bytes) at f + 14 for protocol proto and payload len */
static void ip_header(uint8_t *f, const uint8_t *dst_mac, int proto, int len, uint16_t id)
{
    copy(f, dst_mac, 6);
    copy(f + 6, my_mac, 6);
    f[12] = 0x08, f[13] = 0x00;
    uint8_t *ip = f + 14;
    int tot = 20 + len;
    ip[0] = 0x45, ip[1] = 0, ip[2] = (uint8_t)(tot >> 8), ip[3] = (uint8_t)tot;
    ip[4] = (uint8_t)(id >> 8), ip[5] = (uint8_t)id, ip[6] = 0x40, ip[7] = 0;
    ip[8] = 64, ip[9] = (uint8_t)proto, ip[10] = 0, ip[11] = 0;
    copy(ip + 12, my_ip, 4);
    copy(ip + 16, gw_ip, 4);
    uint16_t c = csum(ip, 20);
    ip[10] = (uint8_t)(c >> 8), ip[11] = (uint8_t)c;
}

#endif
