/*
 * tty.c - SoCLib vci_multi_tty (reference 4.1).
 *
 * Channel stride 16 bytes: WRITE (0x0, W), STATUS (0x4, R), READ (0x8, R).
 * CONFIG (0xC) is outside the 0xC-byte segment of linux_monocluster: bus
 * error.  Only channel 0 is connected to the host; output of the other
 * channels goes to temu_host.tty_out with their channel number.
 *
 * Input for channel 0 is a FIFO filled by the host (temu_tty_input).  As in
 * SoCLib, 0x0D characters are skipped on the guest side.  The RX interrupt
 * line of a channel is high while it has a character pending.
 */
#include <stdlib.h>

#include "internal.h"

static void drop_cr(tty_t *t)
{
    while (t->count && t->fifo[t->head] == 0x0D) {
        t->head = (t->head + 1) % TTY_FIFO;
        t->count--;
    }
}

bool tty_irq_line(tty_t *t, unsigned ch)
{
    return ch == 0 && t->count != 0;
}

static int tty_read(void *dev, uint32_t off, uint32_t *val)
{
    tty_t *t = dev;
    unsigned ch = off / 16, reg = off % 16;
    if (ch >= t->nch)
        return -1;
    switch (reg) {
    case 0x4:
        *val = ch == 0 && t->count != 0;
        return 0;
    case 0x8:
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
    unsigned ch = off / 16, reg = off % 16;
    if (ch >= t->nch || reg != 0)
        return -1;
    if (!(be & 1))
        return 0; /* only the low byte carries the character */
    uint8_t c = (uint8_t)val;
    machine *m = t->m;
    if (m->host.tty_out)
        m->host.tty_out(m->host.opaque, ch, &c, 1);
    return 0;
}

size_t tty_push_input(tty_t *t, const uint8_t *buf, size_t len)
{
    size_t n = 0;
    while (n < len && t->count < TTY_FIFO) {
        t->fifo[(t->head + t->count) % TTY_FIFO] = buf[n++];
        t->count++;
    }
    drop_cr(t);
    return n;
}

tty_t *tty_create(machine *m, const dev_desc *d)
{
    tty_t *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->m = m;
    t->nch = (unsigned)((d->size + 15) / 16);
    if (t->nch == 0)
        t->nch = 1;
    if (t->nch > TTY_MAX_CH)
        t->nch = TTY_MAX_CH;
    for (unsigned i = 0; i < TTY_MAX_CH; i++)
        t->irq[i] = (int)i < d->nirq ? d->irq[i] : -1;
    mmio_region r = {d->base, d->size, "tty", t, tty_read, tty_write};
    bus_add_mmio(m, &r);
    return t;
}
