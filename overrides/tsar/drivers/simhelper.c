// SPDX-License-Identifier: GPL-2.0
/*
 * SoCLib simulation helper: power-off, reboot and panic end the
 * simulation, with an exit status the simulator passes on.
 *
 *   power off / halt             -> END_WITH_RETVAL 0
 *   reboot(RESTART2, "<n>")      -> END_WITH_RETVAL n (0-255)
 *   any other restart            -> END_WITH_RETVAL 0
 *   panic                        -> EXCEPT_WITH_VAL 1 (a failure)
 */

#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/mod_devicetable.h>
#include <linux/notifier.h>
#include <linux/panic_notifier.h>
#include <linux/platform_device.h>
#include <linux/pm.h>
#include <linux/reboot.h>

#include <asm/device-registers.h>

static void __iomem *simhelper_base;

static void simhelper_end(unsigned int reg, u32 value)
{
	writel(value, simhelper_base + reg);
	/* The simulator stops on the write; never return meanwhile. */
	for (;;)
		cpu_relax();
}

static void simhelper_power_off(void)
{
	simhelper_end(SIMHELPER_END_WITH_RETVAL, 0);
}

static int simhelper_restart(struct notifier_block *nb, unsigned long mode,
			     void *cmd)
{
	unsigned int status = 0;

	if (cmd && kstrtouint(cmd, 0, &status))
		status = 0;
	simhelper_end(SIMHELPER_END_WITH_RETVAL, status & 0xff);
	return NOTIFY_DONE;
}

static struct notifier_block simhelper_restart_nb = {
	.notifier_call	= simhelper_restart,
	.priority	= 192,
};

static int simhelper_panic(struct notifier_block *nb, unsigned long event,
			   void *msg)
{
	simhelper_end(SIMHELPER_EXCEPT_WITH_VAL, 1);
	return NOTIFY_DONE;
}

static struct notifier_block simhelper_panic_nb = {
	.notifier_call	= simhelper_panic,
	/* Run last, after the panic has been reported. */
	.priority	= INT_MIN,
};

static int simhelper_probe(struct platform_device *pdev)
{
	simhelper_base = devm_platform_ioremap_resource(pdev, 0);
	if (IS_ERR(simhelper_base))
		return PTR_ERR(simhelper_base);

	pm_power_off = simhelper_power_off;
	register_restart_handler(&simhelper_restart_nb);
	atomic_notifier_chain_register(&panic_notifier_list,
				       &simhelper_panic_nb);
	return 0;
}

static const struct of_device_id simhelper_of_match[] = {
	{ .compatible = "soclib,vci_simhelper" },
	{ }
};

static struct platform_driver simhelper_driver = {
	.probe	= simhelper_probe,
	.driver	= {
		.name			= "simhelper",
		.of_match_table		= simhelper_of_match,
		.suppress_bind_attrs	= true,
	},
};
builtin_platform_driver(simhelper_driver);
