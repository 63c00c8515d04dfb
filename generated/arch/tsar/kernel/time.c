// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/tsar/kernel/time.c: edit that file. */
/*
 * Time: the clock rate comes from the device tree's fixed-clock, the
 * clockevent from the XICU timer driver (TIMER_OF), the clocksource
 * from CP0 Count (kernel/count_clocksource.c), which advances once per
 * CPU cycle.
 */

#include <linux/clk.h>
#include <linux/clk-provider.h>
#include <linux/clocksource.h>
#include <linux/init.h>
#include <linux/of.h>
#include <linux/of_clk.h>

#include <asm/cp0.h>
#include <asm/setup.h>

/* The CPU's clock: its node's clock-frequency, or the clock it names. */
static u32 __init cpu_clock_rate(void)
{
	struct device_node *cpu = of_get_cpu_node(0, NULL);
	u32 rate = 0;

	if (!cpu)
		panic("No CPU node in the device tree");
	if (of_property_read_u32(cpu, "clock-frequency", &rate)) {
		struct clk *clk = of_clk_get(cpu, 0);

		if (!IS_ERR(clk))
			rate = clk_get_rate(clk);
	}
	of_node_put(cpu);
	if (!rate)
		panic("No CPU clock frequency in the device tree");
	return rate;
}

void __init time_init(void)
{
	u32 rate;

	of_clk_init(NULL);
	rate = cpu_clock_rate();

	count_clocksource_init(rate);

	timer_probe();
}
