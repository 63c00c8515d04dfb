// SPDX-License-Identifier: GPL-2.0
/*
 * SoCLib VCI XICU: the interrupt controller and per-CPU timers of TSAR.
 *
 * Registers are at base + (function << 7) + (index << 2). Hardware
 * interrupt inputs (HWI) and programmable timers (PTI) are routed to
 * output lines by per-output masks; output 0 drives CPU 0's interrupt
 * line. One irq domain covers both: hwirq n < 32 is HWI n, hwirq 32 + n
 * is PTI n. The timer is a clockevent on PTI 0.
 */

#include <linux/bitops.h>
#include <linux/clk.h>
#include <linux/clockchips.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq.h>
#include <linux/irqchip.h>
#include <linux/irqdomain.h>
#include <linux/of.h>
#include <linux/of_address.h>
#include <linux/of_irq.h>

#define XICU_REG(func, idx)	(((func) << 7) | ((idx) << 2))

#define WTI_REG(i)		XICU_REG(0, i)
#define PTI_PER(i)		XICU_REG(1, i)
#define PTI_VAL(i)		XICU_REG(2, i)
#define PTI_ACK(i)		XICU_REG(3, i)
#define MSK_PTI(o)		XICU_REG(4, o)
#define MSK_PTI_ENABLE(o)	XICU_REG(5, o)
#define MSK_PTI_DISABLE(o)	XICU_REG(6, o)
#define MSK_HWI(o)		XICU_REG(8, o)
#define MSK_HWI_ENABLE(o)	XICU_REG(9, o)
#define MSK_HWI_DISABLE(o)	XICU_REG(10, o)
#define MSK_WTI(o)		XICU_REG(12, o)
#define MSK_WTI_DISABLE(o)	XICU_REG(14, o)
#define PRIO(o)			XICU_REG(15, o)
#define CONFIG			XICU_REG(16, 0)

#define PRIO_PTI		BIT(0)
#define PRIO_HWI		BIT(1)
#define PRIO_WTI		BIT(2)
#define PRIO_PTI_INDEX(p)	(((p) >> 8) & 0x1f)
#define PRIO_HWI_INDEX(p)	(((p) >> 16) & 0x1f)
#define PRIO_WTI_INDEX(p)	(((p) >> 24) & 0x1f)

#define HWIRQ_PTI_BASE		32
#define XICU_NR_HWIRQ		64

struct xicu {
	void __iomem *base;
	struct irq_domain *domain;
	unsigned int output;	/* the output line wired to this CPU */
};

static struct xicu xicu;

static inline u32 xicu_read(unsigned int reg)
{
	return readl(xicu.base + reg);
}

static inline void xicu_write(unsigned int reg, u32 val)
{
	writel(val, xicu.base + reg);
}

static void xicu_mask(struct irq_data *d)
{
	irq_hw_number_t hw = irqd_to_hwirq(d);

	if (hw >= HWIRQ_PTI_BASE)
		xicu_write(MSK_PTI_DISABLE(xicu.output), BIT(hw - HWIRQ_PTI_BASE));
	else
		xicu_write(MSK_HWI_DISABLE(xicu.output), BIT(hw));
}

static void xicu_unmask(struct irq_data *d)
{
	irq_hw_number_t hw = irqd_to_hwirq(d);

	if (hw >= HWIRQ_PTI_BASE)
		xicu_write(MSK_PTI_ENABLE(xicu.output), BIT(hw - HWIRQ_PTI_BASE));
	else
		xicu_write(MSK_HWI_ENABLE(xicu.output), BIT(hw));
}

static struct irq_chip xicu_chip = {
	.name		= "xicu",
	.irq_mask	= xicu_mask,
	.irq_unmask	= xicu_unmask,
};

static int xicu_map(struct irq_domain *d, unsigned int irq,
		    irq_hw_number_t hw)
{
	/* All inputs are level signals, acknowledged at their source. */
	irq_set_chip_and_handler(irq, &xicu_chip, handle_level_irq);
	irq_set_status_flags(irq, IRQ_LEVEL);
	return 0;
}

static const struct irq_domain_ops xicu_domain_ops = {
	.map	= xicu_map,
	.xlate	= irq_domain_xlate_onecell,
};

/* Serve the active sources of our output, timers first, until idle. */
static void xicu_handle_irq(struct pt_regs *regs)
{
	u32 prio;

	while ((prio = xicu_read(PRIO(xicu.output))) &
	       (PRIO_PTI | PRIO_HWI | PRIO_WTI)) {
		if (prio & PRIO_PTI)
			generic_handle_domain_irq(xicu.domain, HWIRQ_PTI_BASE +
						  PRIO_PTI_INDEX(prio));
		else if (prio & PRIO_HWI)
			generic_handle_domain_irq(xicu.domain,
						  PRIO_HWI_INDEX(prio));
		else	/* no IPIs on one CPU: reading the mailbox clears it */
			xicu_read(WTI_REG(PRIO_WTI_INDEX(prio)));
	}
}

static int __init xicu_of_init(struct device_node *node,
			       struct device_node *parent)
{
	xicu.base = of_iomap(node, 0);
	if (!xicu.base)
		panic("%pOF: cannot map registers", node);
	xicu.output = 0;

	/* Nothing routed to us until a driver asks for it. */
	xicu_write(MSK_PTI(xicu.output), 0);
	xicu_write(MSK_HWI(xicu.output), 0);
	xicu_write(MSK_WTI(xicu.output), 0);

	xicu.domain = irq_domain_add_linear(node, XICU_NR_HWIRQ,
					    &xicu_domain_ops, NULL);
	if (!xicu.domain)
		panic("%pOF: cannot create irq domain", node);
	irq_set_default_host(xicu.domain);
	set_handle_irq(xicu_handle_irq);

	pr_info("%pOF: %u PTI, %u HWI, %u WTI, %u outputs\n", node,
		xicu_read(CONFIG) & 0xff, (xicu_read(CONFIG) >> 8) & 0xff,
		(xicu_read(CONFIG) >> 16) & 0xff, xicu_read(CONFIG) >> 24);
	return 0;
}
IRQCHIP_DECLARE(tsar_xicu, "soclib,vci_xicu", xicu_of_init);

/*
 * Clockevent on PTI 0. PTI_VAL counts down at the platform clock; when it
 * reaches 1 the timer is pending and VAL reloads from PTI_PER.
 * Periodic: PER = one tick. One-shot: VAL = delta with PER at its maximum
 * so the next expiry is far away; the handler acknowledges with PTI_ACK.
 */
#define XICU_TIMER	0

static int xicu_timer_shutdown(struct clock_event_device *evt)
{
	xicu_write(PTI_PER(XICU_TIMER), 0);
	return 0;
}

static int xicu_timer_next_event(unsigned long delta,
				 struct clock_event_device *evt)
{
	xicu_write(PTI_PER(XICU_TIMER), 0);
	xicu_write(PTI_VAL(XICU_TIMER), delta);
	xicu_write(PTI_PER(XICU_TIMER), U32_MAX);
	return 0;
}

static u32 xicu_timer_rate;

static int xicu_timer_periodic(struct clock_event_device *evt)
{
	xicu_write(PTI_PER(XICU_TIMER), 0);
	xicu_write(PTI_PER(XICU_TIMER), DIV_ROUND_CLOSEST(xicu_timer_rate, HZ));
	return 0;
}

static struct clock_event_device xicu_clockevent = {
	.name			= "xicu-pti",
	.features		= CLOCK_EVT_FEAT_PERIODIC | CLOCK_EVT_FEAT_ONESHOT,
	.rating			= 300,
	.set_next_event		= xicu_timer_next_event,
	.set_state_shutdown	= xicu_timer_shutdown,
	.set_state_oneshot	= xicu_timer_shutdown,
	.set_state_periodic	= xicu_timer_periodic,
};

static irqreturn_t xicu_timer_interrupt(int irq, void *dev_id)
{
	struct clock_event_device *evt = dev_id;

	xicu_read(PTI_ACK(XICU_TIMER));
	evt->event_handler(evt);
	return IRQ_HANDLED;
}

static int __init xicu_timer_init(struct device_node *node)
{
	struct clk *clk;
	unsigned int irq;
	int ret;

	if (!xicu.domain)
		return -EPROBE_DEFER;

	clk = of_clk_get(node, 0);
	if (IS_ERR(clk))
		return PTR_ERR(clk);
	xicu_timer_rate = clk_get_rate(clk);
	if (!xicu_timer_rate)
		return -EINVAL;

	irq = irq_create_mapping(xicu.domain, HWIRQ_PTI_BASE + XICU_TIMER);
	if (!irq)
		return -EINVAL;
	ret = request_irq(irq, xicu_timer_interrupt, IRQF_TIMER, "xicu-timer",
			  &xicu_clockevent);
	if (ret)
		return ret;

	xicu_clockevent.irq = irq;
	xicu_clockevent.cpumask = cpumask_of(0);
	clockevents_config_and_register(&xicu_clockevent, xicu_timer_rate,
					16, U32_MAX);
	return 0;
}
TIMER_OF_DECLARE(tsar_xicu_timer, "soclib,vci_xicu_timer", xicu_timer_init);
