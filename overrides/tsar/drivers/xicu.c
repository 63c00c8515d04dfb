// SPDX-License-Identifier: GPL-2.0
/*
 * SoCLib VCI XICU: the interrupt controller and per-CPU timers of TSAR.
 *
 * Registers are at base + (function << 7) + (index << 2). Hardware
 * interrupt inputs (HWI), programmable timers (PTI) and write-triggered
 * mailboxes (WTI) are routed to output lines by per-output masks; output
 * 4 * i + j drives line j of the CPU with hardware id i (hw ref 3.2), and
 * each CPU uses line "soclib,cpu-irq-line" of its own four. CPU i owns
 * PTI i (its clockevent) and WTI i (its IPI mailbox). One irq domain
 * covers HWIs and PTIs: hwirq n < 32 is HWI n, hwirq 32 + n is PTI n;
 * an HWI goes to one CPU at a time (its affinity), CPU 0 by default.
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
#include <linux/smp.h>

#include <asm/cp0.h>
#include <asm/device-registers.h>

/* Register and field numbers: the board layer's _registers.yaml. */
#define XICU_REG(func, idx)	(((func) << XICU_FUNC_SHIFT) | ((idx) << XICU_INDEX_SHIFT))

#define WTI_REG(i)		XICU_REG(XICU_WTI_REG, i)
#define PTI_PER(i)		XICU_REG(XICU_PTI_PER, i)
#define PTI_VAL(i)		XICU_REG(XICU_PTI_VAL, i)
#define PTI_ACK(i)		XICU_REG(XICU_PTI_ACK, i)
#define MSK_PTI(o)		XICU_REG(XICU_MSK_PTI, o)
#define MSK_PTI_ENABLE(o)	XICU_REG(XICU_MSK_PTI_ENABLE, o)
#define MSK_PTI_DISABLE(o)	XICU_REG(XICU_MSK_PTI_DISABLE, o)
#define MSK_HWI(o)		XICU_REG(XICU_MSK_HWI, o)
#define MSK_HWI_ENABLE(o)	XICU_REG(XICU_MSK_HWI_ENABLE, o)
#define MSK_HWI_DISABLE(o)	XICU_REG(XICU_MSK_HWI_DISABLE, o)
#define MSK_WTI(o)		XICU_REG(XICU_MSK_WTI, o)
#define MSK_WTI_ENABLE(o)	XICU_REG(XICU_MSK_WTI_ENABLE, o)
#define MSK_WTI_DISABLE(o)	XICU_REG(XICU_MSK_WTI_DISABLE, o)
#define PRIO(o)			XICU_REG(XICU_PRIO, o)
#define CONFIG			XICU_REG(XICU_CONFIG, 0)

/* PRIO: which kinds are pending, and the 5-bit index of each */
#define PRIO_PENDING		(XICU_PRIO_PTI | XICU_PRIO_HWI | XICU_PRIO_WTI)
#define PRIO_INDEX(p, shift)	(((p) >> (shift)) & 0x1f)
/* CONFIG: 8-bit resource counts */
#define CONFIG_COUNT(c, shift)	(((c) >> (shift)) & 0xff)

#define HWIRQ_PTI_BASE		32
#define XICU_NR_HWIRQ		64

struct xicu {
	void __iomem *base;
	struct irq_domain *domain;
	unsigned int line;		/* which of its outputs a CPU uses */
	unsigned int hwi_cpu[32];	/* the CPU each HWI is routed to */
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

/* Hardware id of a logical CPU: its PTI, its WTI, its group of outputs. */
static inline unsigned int xicu_cpu_hwid(unsigned int cpu)
{
#ifdef CONFIG_SMP
	return cpu_logical_map(cpu);
#else
	return read_c0_ebase() & EBASE_CPUNUM;
#endif
}

static inline unsigned int xicu_hwid_output(unsigned int hwid)
{
	return XICU_OUTPUTS_PER_CPU * hwid + xicu.line;
}

static inline unsigned int xicu_cpu_output(unsigned int cpu)
{
	return xicu_hwid_output(xicu_cpu_hwid(cpu));
}

static void xicu_mask(struct irq_data *d)
{
	irq_hw_number_t hw = irqd_to_hwirq(d);

	if (hw >= HWIRQ_PTI_BASE)
		xicu_write(MSK_PTI_DISABLE(xicu_hwid_output(hw - HWIRQ_PTI_BASE)),
			   BIT(hw - HWIRQ_PTI_BASE));
	else
		xicu_write(MSK_HWI_DISABLE(xicu_cpu_output(xicu.hwi_cpu[hw])),
			   BIT(hw));
}

static void xicu_unmask(struct irq_data *d)
{
	irq_hw_number_t hw = irqd_to_hwirq(d);

	if (hw >= HWIRQ_PTI_BASE)
		xicu_write(MSK_PTI_ENABLE(xicu_hwid_output(hw - HWIRQ_PTI_BASE)),
			   BIT(hw - HWIRQ_PTI_BASE));
	else
		xicu_write(MSK_HWI_ENABLE(xicu_cpu_output(xicu.hwi_cpu[hw])),
			   BIT(hw));
}

#ifdef CONFIG_SMP
/* Move an HWI to the output of one CPU of the mask. */
static int xicu_set_affinity(struct irq_data *d, const struct cpumask *mask,
			     bool force)
{
	irq_hw_number_t hw = irqd_to_hwirq(d);
	unsigned int cpu;

	cpu = force ? cpumask_first(mask) : cpumask_any_and(mask, cpu_online_mask);
	if (cpu >= nr_cpu_ids || hw >= HWIRQ_PTI_BASE)
		return -EINVAL;
	if (!irqd_irq_masked(d))
		xicu_mask(d);
	xicu.hwi_cpu[hw] = cpu;
	if (!irqd_irq_masked(d))
		xicu_unmask(d);
	irq_data_update_effective_affinity(d, cpumask_of(cpu));
	return IRQ_SET_MASK_OK_DONE;
}
#endif

/* Timers: each belongs to its CPU and cannot move. */
static struct irq_chip xicu_pti_chip = {
	.name		= "xicu-pti",
	.irq_mask	= xicu_mask,
	.irq_unmask	= xicu_unmask,
};

static struct irq_chip xicu_chip = {
	.name		= "xicu",
	.irq_mask	= xicu_mask,
	.irq_unmask	= xicu_unmask,
#ifdef CONFIG_SMP
	.irq_set_affinity = xicu_set_affinity,
#endif
};

static int xicu_map(struct irq_domain *d, unsigned int irq,
		    irq_hw_number_t hw)
{
	/* All inputs are level signals, acknowledged at their source. */
	irq_set_chip_and_handler(irq, hw >= HWIRQ_PTI_BASE ? &xicu_pti_chip :
				 &xicu_chip, handle_level_irq);
	irq_set_status_flags(irq, IRQ_LEVEL);
	return 0;
}

static const struct irq_domain_ops xicu_domain_ops = {
	.map	= xicu_map,
	.xlate	= irq_domain_xlate_onecell,
};

/* Serve the active sources of this CPU's output, timers first, until idle. */
static void xicu_handle_irq(struct pt_regs *regs)
{
	unsigned int output = xicu_cpu_output(smp_processor_id());
	u32 prio;

	while ((prio = xicu_read(PRIO(output))) &
	       PRIO_PENDING) {
		if (prio & XICU_PRIO_PTI) {
			generic_handle_domain_irq(xicu.domain, HWIRQ_PTI_BASE +
						  PRIO_INDEX(prio, XICU_PRIO_PTI_INDEX_SHIFT));
		} else if (prio & XICU_PRIO_HWI) {
			generic_handle_domain_irq(xicu.domain,
						  PRIO_INDEX(prio, XICU_PRIO_HWI_INDEX_SHIFT));
		} else {
			/* Reading the mailbox clears it; the messages are in memory. */
			xicu_read(WTI_REG(PRIO_INDEX(prio, XICU_PRIO_WTI_INDEX_SHIFT)));
#ifdef CONFIG_SMP
			tsar_handle_ipi();
#endif
		}
	}
}

#ifdef CONFIG_SMP
void xicu_send_ipi(const struct cpumask *mask)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		xicu_write(WTI_REG(xicu_cpu_hwid(cpu)), 1);
}

/* Raise the line a CPU waiting in head.S sleeps on: its own WTI. */
void xicu_wake_cpu(unsigned int hwid)
{
	xicu_write(MSK_WTI_ENABLE(xicu_hwid_output(hwid)), BIT(hwid));
	xicu_write(WTI_REG(hwid), 1);
}
#endif

static int __init xicu_of_init(struct device_node *node,
			       struct device_node *parent)
{
	unsigned int out, outputs;
	u32 config, line = 0;

	xicu.base = of_iomap(node, 0);
	if (!xicu.base)
		panic("%pOF: cannot map registers", node);
	of_property_read_u32(node, "soclib,cpu-irq-line", &line);
	if (line >= XICU_OUTPUTS_PER_CPU)
		panic("%pOF: CPU line %u out of range", node, line);
	xicu.line = line;

	/* Nothing routed anywhere until a driver asks for it. */
	config = xicu_read(CONFIG);
	outputs = CONFIG_COUNT(config, XICU_CONFIG_OUT_SHIFT);
	for (out = 0; out < outputs; out++) {
		xicu_write(MSK_PTI(out), 0);
		xicu_write(MSK_HWI(out), 0);
		xicu_write(MSK_WTI(out), 0);
	}
	/* The boot CPU takes IPIs on its mailbox. */
	if (IS_ENABLED(CONFIG_SMP))
		xicu_write(MSK_WTI(xicu_cpu_output(0)), BIT(xicu_cpu_hwid(0)));

	xicu.domain = irq_domain_add_linear(node, XICU_NR_HWIRQ,
					    &xicu_domain_ops, NULL);
	if (!xicu.domain)
		panic("%pOF: cannot create irq domain", node);
	irq_set_default_host(xicu.domain);
	set_handle_irq(xicu_handle_irq);

	pr_info("%pOF: %u PTI, %u HWI, %u WTI, %u outputs, CPU line %u\n", node,
		CONFIG_COUNT(config, XICU_CONFIG_PTI_SHIFT),
		CONFIG_COUNT(config, XICU_CONFIG_HWI_SHIFT),
		CONFIG_COUNT(config, XICU_CONFIG_WTI_SHIFT), outputs, line);
	return 0;
}
IRQCHIP_DECLARE(tsar_xicu, "soclib,vci_xicu", xicu_of_init);

/*
 * Per-CPU clockevents, CPU i on PTI i. PTI_VAL counts down at the
 * platform clock; when it reaches 1 the timer is pending and VAL reloads
 * from PTI_PER. Periodic: PER = one tick. One-shot: VAL = delta with PER
 * at its maximum so the next expiry is far away; the handler
 * acknowledges with PTI_ACK. The callbacks run on the timer's own CPU.
 */
struct xicu_timer {
	struct clock_event_device evt;
	unsigned int pti;
};

static DEFINE_PER_CPU(struct xicu_timer, xicu_timer);
static u32 xicu_timer_rate;

static inline unsigned int evt_pti(struct clock_event_device *evt)
{
	return container_of(evt, struct xicu_timer, evt)->pti;
}

static int xicu_timer_shutdown(struct clock_event_device *evt)
{
	xicu_write(PTI_PER(evt_pti(evt)), 0);
	return 0;
}

static int xicu_timer_next_event(unsigned long delta,
				 struct clock_event_device *evt)
{
	unsigned int pti = evt_pti(evt);

	xicu_write(PTI_PER(pti), 0);
	xicu_write(PTI_VAL(pti), delta);
	xicu_write(PTI_PER(pti), U32_MAX);
	return 0;
}

static int xicu_timer_periodic(struct clock_event_device *evt)
{
	unsigned int pti = evt_pti(evt);

	xicu_write(PTI_PER(pti), 0);
	xicu_write(PTI_PER(pti), DIV_ROUND_CLOSEST(xicu_timer_rate, HZ));
	return 0;
}

static irqreturn_t xicu_timer_interrupt(int irq, void *dev_id)
{
	struct xicu_timer *t = dev_id;

	xicu_read(PTI_ACK(t->pti));
	t->evt.event_handler(&t->evt);
	return IRQ_HANDLED;
}

/* Register the calling CPU's clockevent (its timer irq is requested). */
static void xicu_timer_start(unsigned int cpu)
{
	struct xicu_timer *t = per_cpu_ptr(&xicu_timer, cpu);

	if (!t->evt.irq)
		return;
	t->evt.cpumask = cpumask_of(cpu);
	clockevents_config_and_register(&t->evt, xicu_timer_rate, 16, U32_MAX);
}

#ifdef CONFIG_SMP
/* A secondary CPU comes up: its mailbox, then its timer. */
void xicu_starting_cpu(unsigned int cpu)
{
	unsigned int hwid = xicu_cpu_hwid(cpu);

	xicu_read(WTI_REG(hwid));	/* the wake-up from head.S */
	xicu_write(MSK_WTI(xicu_hwid_output(hwid)), BIT(hwid));
	xicu_timer_start(cpu);
}
#endif

static int __init xicu_timer_init(struct device_node *node)
{
	unsigned int cpu, npti;
	struct clk *clk;
	int ret;

	if (!xicu.domain)
		return -EPROBE_DEFER;

	clk = of_clk_get(node, 0);
	if (IS_ERR(clk))
		return PTR_ERR(clk);
	xicu_timer_rate = clk_get_rate(clk);
	if (!xicu_timer_rate)
		return -EINVAL;

	npti = CONFIG_COUNT(xicu_read(CONFIG), XICU_CONFIG_PTI_SHIFT);
	for_each_possible_cpu(cpu) {
		struct xicu_timer *t = per_cpu_ptr(&xicu_timer, cpu);
		unsigned int irq;

		t->pti = xicu_cpu_hwid(cpu);
		if (t->pti >= npti) {
			pr_err("%pOF: no PTI %u for CPU%u\n", node, t->pti, cpu);
			continue;
		}
		irq = irq_create_mapping(xicu.domain, HWIRQ_PTI_BASE + t->pti);
		if (!irq)
			return -EINVAL;
		t->evt.name = "xicu-pti";
		t->evt.features = CLOCK_EVT_FEAT_PERIODIC | CLOCK_EVT_FEAT_ONESHOT;
		t->evt.rating = 300;
		t->evt.set_next_event = xicu_timer_next_event;
		t->evt.set_state_shutdown = xicu_timer_shutdown;
		t->evt.set_state_oneshot = xicu_timer_shutdown;
		t->evt.set_state_periodic = xicu_timer_periodic;
		t->evt.irq = irq;
		ret = request_irq(irq, xicu_timer_interrupt,
				  IRQF_TIMER | IRQF_NOBALANCING, "xicu-timer", t);
		if (ret)
			return ret;
	}

	xicu_timer_start(smp_processor_id());
	return 0;
}
TIMER_OF_DECLARE(tsar_xicu_timer, "soclib,vci_xicu_timer", xicu_timer_init);
