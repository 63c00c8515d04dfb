// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/tsar/kernel/reset.c: edit that file. */
/*
 * Power-off, halt and restart go to the handlers the platform drivers
 * registered (the simulation helper ends the simulation); if none acts,
 * stop the CPU with interrupts off.
 */

#include <linux/kernel.h>
#include <linux/pm.h>
#include <linux/reboot.h>

static void __noreturn stop_cpu(void)
{
	local_irq_disable();
	for (;;)
		__asm__ __volatile__(
			"	.set	push\n"
			"	.set	mips32r2\n"
			"	wait\n"
			"	.set	pop\n");
}

void machine_power_off(void)
{
	do_kernel_power_off();
	pr_emerg("Power off failed: system halted\n");
	stop_cpu();
}

void machine_halt(void)
{
	machine_power_off();
}

void machine_restart(char *cmd)
{
	do_kernel_restart(cmd);
	pr_emerg("Restart failed: system halted\n");
	stop_cpu();
}
