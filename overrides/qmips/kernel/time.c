// SPDX-License-Identifier: GPL-2.0
/*
 * Time from the CP0 Count/Compare pair: Count is the clocksource and
 * sched_clock, Compare the one-shot clockevent. Count advances once every
 * CCRes CPU cycles (RDHWR register 3: 2 on the 24Kc), the CPU clock being
 * the device tree's cpu clock-frequency. The timer interrupt is the CPU
 * line IntCtl.IPTI names; writing Compare acknowledges it.
 */

#include <linux/clockchips.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/of.h>

#include <asm/board.h>
#include <asm/cp0.h>
#include <asm/setup.h>

/* IntCtl.IPTI: the Cause.IP bit the timer raises (2..7). */
#define INTCTL_IPTI_SHIFT	29

static int compare_set_next_event(unsigned long delta,
				  struct clock_event_device *evt)
{
	u32 target = read_c0_count() + delta;

	write_c0_compare(target);
	/* Count may have passed the target already: the interrupt is lost. */
	return (s32)(read_c0_count() - target) >= 0 ? -ETIME : 0;
}

static struct clock_event_device compare_clockevent = {
	.name		= "cp0-compare",
	.features	= CLOCK_EVT_FEAT_ONESHOT,
	.rating		= 300,
	.set_next_event	= compare_set_next_event,
};

static irqreturn_t compare_interrupt(int irq, void *dev_id)
{
	struct clock_event_device *evt = dev_id;

	write_c0_compare(read_c0_compare());	/* acknowledge */
	evt->event_handler(evt);
	return IRQ_HANDLED;
}

/* Count's rate: the CPU clock from the device tree over CCRes. */
static u32 __init count_rate(void)
{
	struct device_node *cpu = of_get_cpu_node(0, NULL);
	unsigned long ccres;
	u32 clock = 0;

	if (!cpu || of_property_read_u32(cpu, "clock-frequency", &clock) || !clock)
		panic("No CPU clock-frequency in the device tree");
	of_node_put(cpu);
	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	mips32r2\n"
		"	rdhwr	%0, $3\n"
		"	.set	pop\n"
		: "=r" (ccres));
	return clock / (ccres ? ccres : 1);
}

void __init time_init(void)
{
	unsigned int line, irq;
	u32 rate = count_rate();

	count_clocksource_init(rate);

	line = (read_c0_intctl() >> INTCTL_IPTI_SHIFT) - 2;
	irq = irq_create_mapping(cpu_irq_domain, line);
	if (!irq || request_irq(irq, compare_interrupt, IRQF_TIMER,
				"cp0-compare", &compare_clockevent))
		panic("Cannot get the CP0 timer interrupt (CPU line %u)", line);
	compare_clockevent.irq = irq;
	compare_clockevent.cpumask = cpumask_of(0);
	clockevents_config_and_register(&compare_clockevent, rate, 0x100,
					0x7fffffff);
	pr_info("cp0-compare: Count at %u Hz, timer on CPU line %u (irq %u)\n",
		rate, line, irq);
}
