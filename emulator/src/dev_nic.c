// SPDX-License-Identifier: GPL-2.0
/*
 * dev_nic.c - SoCLib vci_multi_nic, one channel, and the library's network
 * side (temu_net_input, temu_host.net_tx).
 *
 * The register map (NIC_*, hwdesc.h from the tsar layer's _registers.yaml)
 * follows SoCLib: per channel two RX and two TX containers of 4 KiB, then
 * the channel registers (descriptors, MAC, RUN); the global registers and
 * event counters at +0x40000.  A container holds whole frames: word 0 =
 * NB_WORDS << 16 | NB_PACKETS, words 1..33 the frame lengths (frame 2k in
 * bits 31..16 of word 1 + k, frame 2k + 1 in bits 15..0), the frames from
 * word 34 on, each starting on a word, bytes in memory order, no FCS.
 *
 * The CPU reads and writes the containers itself (this board has no CMA).
 * RX: frames from the host wait in a bounded FIFO (drops are counted in
 * NPKT_RX_DES_MFIFO_FULL); while the channel receives, the NIC packs the
 * waiting frames into its next container (0, 1, 0, ...) when that one is
 * empty and marks it full (DESC_HI bit 31).  The guest reads it and gives
 * it back by writing DESC_HI with bit 31 clear.  TX: the guest fills a
 * container and writes DESC_HI with bit 31 set; the NIC sends containers in
 * order (0, 1, 0, ...), a container taking NIC_TX_DELAY cycles plus one per
 * 4 bytes, then marks it empty.  Output 0 (RX) is high while a container is
 * full, output 1 (TX) while one is empty, each while its direction runs:
 * SoCLib ties both to 0, so these are tsar-emu's (docs/network.md).
 * NIC_LINK (not in SoCLib) reads whether the cable is in (-net none: no).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define NIC_FIFO_SLOTS 256u   /* frames waiting for an RX container, at most */
#define NIC_TX_DELAY 500u     /* cycles from a TX release to the wire, plus 1 per word */
#define NIC_WORDS (NIC_CONTAINER_SIZE / 4)
#define NIC_NCOUNT ((NIC_G_NPKT_TX_DISPATCH_TRANSMIT - NIC_G_NPKT_RX_G2S_RECEIVED) / 4 + 1)
#define CNT(n, reg) ((n)->cnt[((reg) - NIC_G_NPKT_RX_G2S_RECEIVED) / 4])
#define GLOBAL_END (NIC_G_NPKT_TX_DISPATCH_TRANSMIT + 4)

typedef struct nic_frame {
    uint16_t len;
    uint8_t data[NIC_MAX_FRAME];
} nic_frame;

typedef struct nic {
    machine *m;
    bool link;
    /* global registers */
    uint32_t vis, on, bc_enable, tdm_enable, tdm_period, bypass_enable;
    uint32_t mac4, mac2;
    uint32_t cnt[NIC_NCOUNT];
    /* channel 0 */
    uint32_t rx_run, tx_run;
    uint32_t rx_lo[2], rx_hi[2], tx_lo[2], tx_hi[2]; /* descriptors' address bits */
    bool rx_full[2], tx_full[2];
    unsigned rx_fill, tx_next;   /* container the NIC fills / sends next */
    bool tx_busy;
    uint64_t tx_done_at;
    uint8_t rxc[2][NIC_CONTAINER_SIZE], txc[2][NIC_CONTAINER_SIZE];
    /* frames from the host */
    nic_frame *fifo;
    unsigned head, count;
    temu_net_counters st;
} nic_t;

extern const temu_device_type nic_device;

static uint32_t ld32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void st32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static bool rx_on(const nic_t *n) { return n->on && (n->vis & 1) && n->rx_run; }
static bool tx_on(const nic_t *n) { return n->on && (n->vis & 1) && n->tx_run; }

static bool is_own_mac(const nic_t *n, const uint8_t *a)
{
    uint32_t hi = (uint32_t)a[0] << 24 | (uint32_t)a[1] << 16 | (uint32_t)a[2] << 8 | a[3];
    return hi == n->mac4 && ((uint32_t)a[4] << 8 | a[5]) == (n->mac2 & 0xFFFF);
}

static uint32_t nic_irq_lines(void *dev)
{
    nic_t *n = dev;
    uint32_t l = 0;
    if (rx_on(n) && (n->rx_full[0] || n->rx_full[1]))
        l |= 1u << NIC_IRQ_RX;
    if (tx_on(n) && (!n->tx_full[0] || !n->tx_full[1]))
        l |= 1u << NIC_IRQ_TX;
    return l;
}

/* Pack waiting frames into the next RX container while it is empty. */
static void rx_fill(nic_t *n)
{
    while (n->count && rx_on(n) && !n->rx_full[n->rx_fill]) {
        uint8_t *c = n->rxc[n->rx_fill];
        unsigned w = NIC_HEADER_WORDS, np = 0;
        memset(c, 0, NIC_HEADER_WORDS * 4);
        while (n->count && np < NIC_MAX_PACKETS) {
            const nic_frame *f = &n->fifo[n->head];
            unsigned words = (f->len + 3u) / 4;
            if (w + words > NIC_WORDS)
                break;
            memcpy(c + w * 4, f->data, f->len);
            memset(c + w * 4 + f->len, 0, words * 4 - f->len);
            uint8_t *pl = c + (1 + np / 2) * 4;
            uint32_t lens = ld32(pl);
            lens = np & 1 ? (lens & 0xFFFF0000u) | f->len : (lens & 0xFFFFu) | (uint32_t)f->len << 16;
            st32(pl, lens);
            w += words;
            np++;
            n->head = (n->head + 1) % NIC_FIFO_SLOTS;
            n->count--;
        }
        st32(c, w << 16 | np);
        n->rx_full[n->rx_fill] = true;
        n->st.rx_delivered += np;
        if (TRACE_ON(n->m, TEMU_TRACE_DEV))
            trace_printf(n->m, "dev: nic rx container %u: %u frames, %u words\n", n->rx_fill,
                         np, w);
        n->rx_fill ^= 1;
    }
}

/* The container being sent is on the wire: its frames go to the host. */
static void tx_complete(nic_t *n)
{
    machine *m = n->m;
    const uint8_t *c = n->txc[n->tx_next];
    uint32_t h = ld32(c);
    unsigned np = h & 0xFFFF, w = NIC_HEADER_WORDS;
    if (np > NIC_MAX_PACKETS)
        np = NIC_MAX_PACKETS;
    for (unsigned i = 0; i < np; i++) {
        uint32_t lens = ld32(c + (1 + i / 2) * 4);
        unsigned len = i & 1 ? lens & 0xFFFF : lens >> 16;
        unsigned words = (len + 3) / 4;
        CNT(n, NIC_G_NPKT_TX_DISPATCH_RECEIVED)++;
        n->st.tx_frames++;
        if (w + words > NIC_WORDS || len > NIC_MAX_FRAME) {
            /* runs past the container: the rest of it is garbage */
            CNT(n, NIC_G_NPKT_TX_DISPATCH_TOO_BIG)++;
            n->st.tx_dropped += np - i;
            n->st.tx_frames += np - i - 1;
            break;
        }
        const uint8_t *f = c + w * 4;
        w += words;
        if (len < NIC_MIN_FRAME) {
            CNT(n, NIC_G_NPKT_TX_DISPATCH_TOO_SMALL)++;
            n->st.tx_dropped++;
            continue;
        }
        if (!is_own_mac(n, f + 6)) {
            CNT(n, NIC_G_NPKT_TX_DISPATCH_SRC_FAIL)++;
            n->st.tx_dropped++;
            continue;
        }
        if (f[0] == 0xFF && f[1] == 0xFF && f[2] == 0xFF && f[3] == 0xFF && f[4] == 0xFF &&
            f[5] == 0xFF)
            CNT(n, NIC_G_NPKT_TX_DISPATCH_BROADCAST)++;
        if (TRACE_ON(m, TEMU_TRACE_DEV))
            trace_printf(m, "dev: nic tx frame of %u bytes%s\n", len,
                         n->link && m->host.net_tx ? "" : " (no cable: lost)");
        if (!n->link || !m->host.net_tx) {
            n->st.tx_dropped++;
            continue;
        }
        CNT(n, NIC_G_NPKT_TX_DISPATCH_TRANSMIT)++;
        n->st.tx_sent++;
        m->host.net_tx(m->host.opaque, f, len);
    }
    n->tx_full[n->tx_next] = false;
    n->tx_next ^= 1;
    n->tx_busy = false;
}

static void nic_update(nic_t *n)
{
    uint64_t now = machine_now(n->m);
    for (;;) {
        if (n->tx_busy) {
            if (now < n->tx_done_at)
                break;
            tx_complete(n);
        }
        if (!tx_on(n) || !n->tx_full[n->tx_next])
            break;
        uint32_t words = ld32(n->txc[n->tx_next]) >> 16;
        n->tx_busy = true;
        n->tx_done_at = now + NIC_TX_DELAY + (words < NIC_WORDS ? words : NIC_WORDS);
    }
    rx_fill(n);
}

static uint64_t nic_service(void *dev)
{
    nic_t *n = dev;
    nic_update(n);
    return n->tx_busy ? n->tx_done_at : UINT64_MAX;
}

static uint32_t *global_reg(nic_t *n, uint32_t off)
{
    switch (off) {
    case NIC_G_VIS: return &n->vis;
    case NIC_G_ON: return &n->on;
    case NIC_G_BC_ENABLE: return &n->bc_enable;
    case NIC_G_TDM_ENABLE: return &n->tdm_enable;
    case NIC_G_TDM_PERIOD: return &n->tdm_period;
    case NIC_G_BYPASS_ENABLE: return &n->bypass_enable;
    case NIC_G_MAC_4: return &n->mac4;
    case NIC_G_MAC_2: return &n->mac2;
    }
    if (off >= NIC_G_NPKT_RX_G2S_RECEIVED && off < GLOBAL_END)
        return &n->cnt[(off - NIC_G_NPKT_RX_G2S_RECEIVED) / 4];
    return NULL; /* other channels' MAC words, holes */
}

static int nic_read(void *dev, uint32_t off, uint32_t *val)
{
    nic_t *n = dev;
    nic_update(n);
    if (off >= NIC_G_VIS) {
        if (off == NIC_G_NB_CHAN) {
            *val = 1;
            return 0;
        }
        uint32_t *r = global_reg(n, off);
        if (!r)
            return -1;
        *val = *r;
        return 0;
    }
    if (off >= NIC_CHANNEL_SPAN)
        return -1; /* one channel */
    if (off < NIC_TX_CONTAINER_0) {
        unsigned c = (off - NIC_RX_CONTAINER_0) / NIC_CONTAINER_SIZE;
        *val = ld32(n->rxc[c] + off % NIC_CONTAINER_SIZE);
        return 0;
    }
    switch (off) {
    case NIC_RX_DESC_LO_0: *val = n->rx_lo[0]; return 0;
    case NIC_RX_DESC_LO_1: *val = n->rx_lo[1]; return 0;
    case NIC_TX_DESC_LO_0: *val = n->tx_lo[0]; return 0;
    case NIC_TX_DESC_LO_1: *val = n->tx_lo[1]; return 0;
    case NIC_RX_DESC_HI_0: *val = n->rx_hi[0] | (n->rx_full[0] ? NIC_DESC_FULL : 0); return 0;
    case NIC_RX_DESC_HI_1: *val = n->rx_hi[1] | (n->rx_full[1] ? NIC_DESC_FULL : 0); return 0;
    case NIC_TX_DESC_HI_0: *val = n->tx_hi[0] | (n->tx_full[0] ? NIC_DESC_FULL : 0); return 0;
    case NIC_TX_DESC_HI_1: *val = n->tx_hi[1] | (n->tx_full[1] ? NIC_DESC_FULL : 0); return 0;
    case NIC_MAC_4: *val = n->mac4; return 0;
    case NIC_MAC_2: *val = n->mac2 & 0xFFFF; return 0;
    case NIC_RX_RUN: *val = n->rx_run; return 0;
    case NIC_TX_RUN: *val = n->tx_run; return 0;
    case NIC_LINK: *val = n->link; return 0;
    default: return -1; /* TX containers are write-only */
    }
}

static int nic_write(void *dev, uint32_t off, uint32_t val, uint32_t be)
{
    nic_t *n = dev;
    nic_update(n);
    if (off >= NIC_G_VIS) {
        uint32_t *r = global_reg(n, off);
        if (!r)
            return -1; /* NB_CHAN is read-only */
        *r = val;
    } else if (off >= NIC_CHANNEL_SPAN) {
        return -1;
    } else if (off < NIC_TX_CONTAINER_0) {
        return -1; /* RX containers are read-only */
    } else if (off < NIC_RX_DESC_LO_0) {
        unsigned c = (off - NIC_TX_CONTAINER_0) / NIC_CONTAINER_SIZE;
        if (n->tx_full[c])
            return -1; /* the NIC owns it until it is sent */
        uint8_t *p = n->txc[c] + off % NIC_CONTAINER_SIZE;
        for (int i = 0; i < 4; i++)
            if (be & (1u << i))
                p[i] = (uint8_t)(val >> (8 * i));
    } else {
        switch (off) {
        case NIC_RX_DESC_LO_0: n->rx_lo[0] = val; break;
        case NIC_RX_DESC_LO_1: n->rx_lo[1] = val; break;
        case NIC_TX_DESC_LO_0: n->tx_lo[0] = val; break;
        case NIC_TX_DESC_LO_1: n->tx_lo[1] = val; break;
        case NIC_RX_DESC_HI_0:
        case NIC_RX_DESC_HI_1: {
            unsigned c = off == NIC_RX_DESC_HI_1;
            n->rx_hi[c] = val & 0xFFFF;
            if (!(val & NIC_DESC_FULL))
                n->rx_full[c] = false; /* the guest gives it back */
            break;
        }
        case NIC_TX_DESC_HI_0:
        case NIC_TX_DESC_HI_1: {
            unsigned c = off == NIC_TX_DESC_HI_1;
            n->tx_hi[c] = val & 0xFFFF;
            if (val & NIC_DESC_FULL)
                n->tx_full[c] = true; /* to be sent */
            break;
        }
        case NIC_RX_RUN: n->rx_run = val != 0; break;
        case NIC_TX_RUN: n->tx_run = val != 0; break;
        default: return -1; /* MAC_4, MAC_2, LINK are read-only */
        }
    }
    nic_update(n);
    return 0;
}

static void *nic_create(machine *m, const dev_desc *d, const void *fdt, char *err,
                        size_t errlen)
{
    (void)fdt;
    if (d->size < NIC_G_VIS + NIC_CONTAINER_SIZE) {
        errf(err, errlen, "the NIC's window (0x%llx bytes) does not reach its global "
             "registers at +0x%x", (unsigned long long)d->size, (unsigned)NIC_G_VIS);
        return NULL;
    }
    nic_t *n = calloc(1, sizeof *n);
    nic_frame *fifo = calloc(NIC_FIFO_SLOTS, sizeof *fifo);
    if (!n || !fifo) {
        free(n);
        free(fifo);
        errf(err, errlen, "out of memory");
        return NULL;
    }
    n->m = m;
    n->fifo = fifo;
    n->link = m->cfg.net_link != 0;
    /* QEMU's default MAC; SoCLib's reset values are constructor parameters */
    n->mac4 = 0x52540012;
    n->mac2 = 0x3456;
    n->bypass_enable = 1; /* SoCLib's reset value */
    n->tdm_period = 50000;
    n->st.rx_fifo_cap = NIC_FIFO_SLOTS;
    return n;
}

static void nic_free(void *dev)
{
    nic_t *n = dev;
    free(n->fifo);
    free(n);
}

static int nic_missing(machine *m, const char *dtname, char *err, size_t errlen)
{
    if (!m->cfg.net_required)
        return 0;
    errf(err, errlen, "-net/-net-dump: %s has no NIC (a \"%s\" node)", dtname,
         NIC_COMPATIBLE);
    return -1;
}

static const char *const nic_compatible[] = {NIC_COMPATIBLE, NULL};

const temu_device_type nic_device = {
    .name = "nic",
    .compatible = nic_compatible,
    .create = nic_create,
    .free = nic_free,
    .read = nic_read,
    .write = nic_write,
    .service = nic_service,
    .irq_lines = nic_irq_lines,
    .missing = nic_missing,
};

/* ------------------------------------------------------------ host side */

static void rx_drop(nic_t *n) { n->st.rx_dropped++; }

int temu_net_input(temu *e, const uint8_t *frame, size_t len)
{
    nic_t *n = machine_device(&e->m, &nic_device);
    if (!n)
        return -1;
    n->st.rx_frames++;
    if (!n->link) {
        rx_drop(n);
        return -1;
    }
    CNT(n, NIC_G_NPKT_RX_G2S_RECEIVED)++;
    if (!n->on) {
        CNT(n, NIC_G_NPKT_RX_G2S_DISCARDED)++;
        rx_drop(n);
        return -1;
    }
    if (len > NIC_MAX_FRAME || len < 14) {
        if (len > NIC_MAX_FRAME)
            CNT(n, NIC_G_NPKT_RX_DES_TOO_BIG)++;
        else
            CNT(n, NIC_G_NPKT_RX_DES_TOO_SMALL)++;
        rx_drop(n);
        return -1;
    }
    CNT(n, NIC_G_NPKT_RX_DES_SUCCESS)++;
    CNT(n, NIC_G_NPKT_RX_DISPATCH_RECEIVED)++;
    if (frame[0] & 1) { /* broadcast or multicast */
        if (!n->bc_enable || !rx_on(n)) {
            CNT(n, NIC_G_NPKT_RX_DISPATCH_DST_FAIL)++;
            rx_drop(n);
            return -1;
        }
        CNT(n, NIC_G_NPKT_RX_DISPATCH_BROADCAST)++;
    } else if (!is_own_mac(n, frame) || !rx_on(n)) {
        CNT(n, NIC_G_NPKT_RX_DISPATCH_DST_FAIL)++;
        rx_drop(n);
        return -1;
    }
    if (n->count == NIC_FIFO_SLOTS) {
        CNT(n, NIC_G_NPKT_RX_DES_MFIFO_FULL)++;
        n->st.rx_fifo_full++;
        rx_drop(n);
        return -1;
    }
    nic_frame *f = &n->fifo[(n->head + n->count) % NIC_FIFO_SLOTS];
    n->count++;
    if (n->count > n->st.rx_fifo_max)
        n->st.rx_fifo_max = n->count;
    /* the wire pads short frames (ARP replies) to the minimum */
    f->len = (uint16_t)(len < NIC_MIN_FRAME ? NIC_MIN_FRAME : len);
    memcpy(f->data, frame, len);
    memset(f->data + len, 0, f->len - len);
    e->m.input_arrived = true;
    return 0;
}

int temu_has_nic(const temu *e) { return machine_device(&e->m, &nic_device) != NULL; }

int temu_net_receiving(const temu *e)
{
    const nic_t *n = machine_device(&e->m, &nic_device);
    return n && n->link && rx_on(n);
}

int temu_net_counters_get(const temu *e, temu_net_counters *c)
{
    const nic_t *n = machine_device(&e->m, &nic_device);
    if (!n)
        return -1;
    *c = n->st;
    return 0;
}
