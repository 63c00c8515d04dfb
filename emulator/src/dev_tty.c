// SPDX-License-Identifier: GPL-2.0
/*
 * dev_tty.c - SoCLib vci_multi_tty (reference 4.1), and the library's TTY
 * input (temu_tty_input, temu_tty_input_room).
 *
 * Channel stride TTY_CHANNEL_STRIDE: WRITE (W), STATUS (R), READ (R), offsets
 * in hwdesc.h (the tsar layer's _registers.yaml). CONFIG (0xC) is outside the 0xC-byte segment of linux_monocluster: bus
 * error.  Only channel 0 is connected to the host; output of the other
 * channels goes to temu_host.tty_out with their channel number.
 *
 * Input for channel 0 is a FIFO filled by the host (temu_tty_input).  As in
 * SoCLib, 0x0D characters are skipped on the guest side.  The RX interrupt
 * line of a channel (output j = channel j) is high while it has a
 * character pending.
 */
#include <stdlib.h>

#include "internal.h"

#define TTY_MAX_CH 16
#define TTY_FIFO 4096
typedef struct tty {
    struct machine *m;
    unsigned nch;
    uint8_t fifo[TTY_FIFO];       /* channel 0 input */
    unsigned head, count;
} tty_t;

extern const temu_device_type tty_device;

static void drop_cr(tty_t *t)
{
    while (t->count && t->fifo[t->head] == 0x0D) {
        t->head = (t->head + 1) % TTY_FIFO;
        t->count--;
    }
}

static uint32_t tty_irq_lines(void *dev)
{
    tty_t *t = dev;
    return t->count != 0; /* only channel 0 has input */
}

static int tty_read(void *dev, uint32_t off, uint32_t *val)
{
    tty_t *t = dev;
    unsigned ch = off / TTY_CHANNEL_STRIDE, reg = off % TTY_CHANNEL_STRIDE;
    if (ch >= t->nch)
        return -1;
    switch (reg) {
    case TTY_STATUS:
        *val = ch == 0 && t->count != 0 ? TTY_STATUS_RX : 0;
        return 0;
    case TTY_READ:
        if (ch == 0 && t->count) {
            *val = t->fifo[t->head];
            t->head = (t->head + 1) % TTY_FIFO;
            t->count--;
            drop_cr(t);
        } else {
            *val = 0;
        }
        return 0;
    default:
        return -1;
    }
}

static int tty_write(void *dev, uint32_t off, uint32_t val, uint32_t be)
{
    tty_t *t = dev;
    unsigned ch = off / TTY_CHANNEL_STRIDE, reg = off % TTY_CHANNEL_STRIDE;
    if (ch >= t->nch || reg != TTY_WRITE)
        return -1;
    if (!(be & 1))
        return 0; /* only the low byte carries the character */
    uint8_t c = (uint8_t)val;
    machine *m = t->m;
    if (m->host.tty_out)
        m->host.tty_out(m->host.opaque, ch, &c, 1);
    return 0;
}

static void *tty_create(machine *m, const dev_desc *d, const void *fdt, char *err,
                        size_t errlen)
{
    (void)fdt;
    tty_t *t = calloc(1, sizeof *t);
    if (!t) {
        errf(err, errlen, "out of memory");
        return NULL;
    }
    t->m = m;
    t->nch = (unsigned)((d->size + TTY_CHANNEL_STRIDE - 1) / TTY_CHANNEL_STRIDE);
    if (t->nch == 0)
        t->nch = 1;
    if (t->nch > TTY_MAX_CH)
        t->nch = TTY_MAX_CH;
    return t;
}

static const char *const tty_compatible[] = {TTY_COMPATIBLE, NULL};

const temu_device_type tty_device = {
    .name = "tty",
    .compatible = tty_compatible,
    .create = tty_create,
    .read = tty_read,
    .write = tty_write,
    .irq_lines = tty_irq_lines,
};

/* ------------------------------------------------------------ host side */

size_t temu_tty_input(temu *e, const uint8_t *buf, size_t len)
{
    machine *m = &e->m;
    tty_t *t = machine_device(m, &tty_device);
    if (!t)
        return len; /* no TTY: input is dropped */
    size_t n = 0;
    while (n < len && t->count < TTY_FIFO) {
        t->fifo[(t->head + t->count) % TTY_FIFO] = buf[n++];
        t->count++;
    }
    drop_cr(t);
    if (n)
        m->input_arrived = true;
    return n;
}

size_t temu_tty_input_room(const temu *e)
{
    const tty_t *t = machine_device(&e->m, &tty_device);
    return t ? TTY_FIFO - t->count : TTY_FIFO;
}
