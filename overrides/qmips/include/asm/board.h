/* SPDX-License-Identifier: GPL-2.0 */
/* What the qmips board files share. */
#ifndef _ASM_QMIPS_BOARD_H
#define _ASM_QMIPS_BOARD_H

#include <linux/init.h>

struct irq_domain;

/* kernel/early_console.c: print through kseg1 until ttyS0 exists. */
void __init early_uart_init(void);

/* kernel/irq.c: the CPU's interrupt lines (hwirq n = Cause.IP(2 + n)). */
extern struct irq_domain *cpu_irq_domain;

#endif /* _ASM_QMIPS_BOARD_H */
