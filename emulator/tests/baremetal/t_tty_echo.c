/*
 * t_tty_echo: TTY input (reference 4.1).  Phase 1 polls STATUS and echoes
 * one line in upper case; phase 2 is interrupt driven (HWI 0 -> XICU output
 * 0 -> IP2, CPU sleeping in `wait`) and echoes characters until 'q'.
 * The host feeds e.g. "hel\rlo\nworld q": 0x0D is skipped by the TTY.
 */
#include "test.h"

#define X_HWI_EN(o) XICU_REG(XICU_MSK_HWI_ENABLE, o)
#define X_HWI_ACTIVE(o) XICU_REG(XICU_MSK_HWI_DISABLE, o)
#define X_PRIO(o) XICU_REG(XICU_PRIO, o)

static volatile int done, nirq;

static void rx_irq(exc_frame *f, uint32_t cause)
{
    (void)f;
    (void)cause;
    nirq++;
    uint32_t prio = REG32(X_PRIO(0));
    if ((prio & 0xFF) != 2 || ((prio >> 16) & 31) != 0)
        fail(20, "PRIO for TTY RX", prio, 2);
    while (REG32(TTY_BASE + TTY_STATUS) & 1) {
        int c = (int)(REG32(TTY_BASE + TTY_READ) & 0xFF);
        if (c == 'q')
            done = 1;
        putch(c);
    }
}

int main(void)
{
    /* nothing pending yet: READ returns 0 */
    if (!(REG32(TTY_BASE + TTY_STATUS) & 1))
        CHECK_EQ(1, REG32(TTY_BASE + TTY_READ), 0);
    puts_("line: ");
    for (;;) {
        while (!(REG32(TTY_BASE + TTY_STATUS) & 1))
            ;
        int c = (int)(REG32(TTY_BASE + TTY_READ) & 0xFF);
        CHECK(2, c != '\r');
        if (c >= 'a' && c <= 'z')
            c -= 32;
        putch(c);
        if (c == '\n')
            break;
    }
    /* phase 2: interrupts; a character is already pending */
    REG32(X_HWI_EN(0)) = 1;
    while (!(REG32(TTY_BASE + TTY_STATUS) & 1))
        ;
    CHECK_EQ(3, REG32(X_HWI_ACTIVE(0)), 1);
    CHECK_EQ(4, MFC0(13, 0) & 0x400, 0x400);
    irq_hook = rx_irq;
    puts_("irq: ");
    MTC0(12, 0, 0x0401);
    while (!done)
        __asm__ volatile("wait" ::: "memory");
    MTC0(12, 0, 0);
    CHECK(5, nirq >= 1);
    putch('\n');
    return 0;
}
