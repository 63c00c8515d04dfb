// SPDX-License-Identifier: GPL-2.0
/*
 * Power-off, halt, restart and panic end QEMU through semihosting (UHI
 * exit), with an exit status QEMU passes on:
 *
 *   power off / halt             -> 0
 *   reboot(RESTART2, "<n>")      -> n (0-255): init's failure count
 *   any other restart            -> 0
 *   panic                        -> 127
 */

#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/pm.h>
#include <linux/reboot.h>

#include <asm/semihosting.h>

static void uhi_power_off(void)
{
	uhi_exit(0);
}

void machine_power_off(void)
{
	do_kernel_power_off();
	uhi_exit(0);
}

void machine_halt(void)
{
	machine_power_off();
}

void machine_restart(char *cmd)
{
	unsigned int status = 0;

	do_kernel_restart(cmd);
	if (cmd && kstrtouint(cmd, 0, &status))
		status = 0;
	uhi_exit(status & 0xff);
}

static int qmips_panic_exit(struct notifier_block *nb, unsigned long event,
			    void *msg)
{
	uhi_exit(127);
	return NOTIFY_DONE;
}

static struct notifier_block qmips_panic_nb = {
	.notifier_call	= qmips_panic_exit,
	/* Run last, after the panic has been reported. */
	.priority	= INT_MIN,
};

static int __init qmips_reset_init(void)
{
	/* The kernel powers off (rather than halts) only with a handler. */
	pm_power_off = uhi_power_off;
	atomic_notifier_chain_register(&panic_notifier_list, &qmips_panic_nb);
	return 0;
}
early_initcall(qmips_reset_init);
