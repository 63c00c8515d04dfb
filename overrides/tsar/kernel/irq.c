// SPDX-License-Identifier: GPL-2.0
/*
 * Interrupts come from the XICU through one CPU line; the irqchip driver
 * found in the device tree installs the top-level handler.
 */

#include <linux/init.h>
#include <linux/irqchip.h>

#include <asm/setup.h>

void __init init_IRQ(void)
{
	irqchip_init();
}
