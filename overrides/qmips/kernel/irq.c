// SPDX-License-Identifier: GPL-2.0
/*
 * The CPU's own interrupt controller: hardware lines 0..5 are Cause.IP2..7,
 * each masked by Status.IM2..7. Devices name a line in the device tree
 * (node compatible "portkit,mips-cpu-intc"); the CP0 timer uses the line
 * IntCtl.IPTI gives. Lines are level-triggered: the source keeps Cause.IP
 * set until the device (or a Compare write) clears it.
 */

#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/irqchip.h>
#include <linux/irqdomain.h>
#include <linux/of.h>

#include <asm/board.h>
#include <asm/cp0.h>
#include <asm/setup.h>

struct irq_domain *cpu_irq_domain;

static inline unsigned long line_im(unsigned long hwirq)
{
	return CAUSE_IP_HW(hwirq);	/* IM(2 + n) sits at the same bit as IP(2 + n) */
}

static void cpu_irq_mask(struct irq_data *d)
{
	unsigned long flags;

	local_irq_save(flags);
	write_c0_status(read_c0_status() & ~line_im(d->hwirq));
	local_irq_restore(flags);
}

static void cpu_irq_unmask(struct irq_data *d)
{
	unsigned long flags;

	local_irq_save(flags);
	write_c0_status(read_c0_status() | line_im(d->hwirq));
	local_irq_restore(flags);
}

static struct irq_chip cpu_irq_chip = {
	.name		= "CPU",
	.irq_mask	= cpu_irq_mask,
	.irq_unmask	= cpu_irq_unmask,
};

/* Top-level handler (entry.S -> do_interrupt): pending lines, lowest first. */
static void cpu_irq_dispatch(struct pt_regs *regs)
{
	unsigned long pending;

	pending = read_c0_cause() & read_c0_status() & ST_IM;
	pending >>= CAUSE_IP_SHIFT + 2;
	/* Nothing pending (masked meanwhile): just return. */
	while (pending) {
		unsigned long line = __ffs(pending);

		generic_handle_domain_irq(cpu_irq_domain, line);
		pending &= ~BIT(line);
	}
}

static int cpu_irq_map(struct irq_domain *d, unsigned int virq,
		       irq_hw_number_t hw)
{
	irq_set_chip_and_handler(virq, &cpu_irq_chip, handle_level_irq);
	return 0;
}

static const struct irq_domain_ops cpu_irq_domain_ops = {
	.map	= cpu_irq_map,
	.xlate	= irq_domain_xlate_onecell,
};

static int __init cpu_intc_of_init(struct device_node *node,
				   struct device_node *parent)
{
	cpu_irq_domain = irq_domain_add_linear(node, CPU_HW_IRQ_LINES,
					       &cpu_irq_domain_ops, NULL);
	if (!cpu_irq_domain)
		panic("%pOF: cannot add the CPU interrupt domain", node);
	irq_set_default_host(cpu_irq_domain);
	return set_handle_irq(cpu_irq_dispatch);
}
IRQCHIP_DECLARE(qmips_cpu_intc, "portkit,mips-cpu-intc", cpu_intc_of_init);

void __init init_IRQ(void)
{
	irqchip_init();
	if (!cpu_irq_domain)
		panic("No CPU interrupt controller in the device tree");
}
