// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/kernel/perf_event.c: edit that file. */
/*
 * The core's performance counters as a perf PMU ("cpu"): PMU_COUNTERS
 * PerfCtl/PerfCnt pairs (asm/cp0.h, from the spec's isa.cp0.pmu), any of
 * which counts any event, in the modes the event does not exclude. A
 * counter interrupts when bit 31 sets, so a period of n starts it at
 * 2^31 - n; counting events use the same interrupt to fold the 32-bit
 * counter into their 64-bit count before it wraps.
 */
#include <linux/bitops.h>
#include <linux/cpuhotplug.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irqflags.h>
#include <linux/percpu.h>
#include <linux/perf_event.h>

#include <asm/cp0.h>
#include <asm/perf_event.h>

#define COUNTER_OVERFLOW	BIT(31)
#define MAX_PERIOD		(COUNTER_OVERFLOW - 1)
#define COUNTER_MASK		0xffffffffULL

struct cpu_hw_events {
	struct perf_event *events[PMU_COUNTERS];
	unsigned long used_mask;
};

static DEFINE_PER_CPU(struct cpu_hw_events, cpu_hw_events);

/* Generic hardware events the counters count exactly; the rest are not. */
static int hw_event(u64 config)
{
	switch (config) {
	case PERF_COUNT_HW_CPU_CYCLES:
	case PERF_COUNT_HW_REF_CPU_CYCLES:
		return PMU_EVENT_CYCLES;
	case PERF_COUNT_HW_INSTRUCTIONS:
		return PMU_EVENT_INSTRUCTIONS;
	}
	return config < PERF_COUNT_HW_MAX ? -EOPNOTSUPP : -EINVAL;
}

/* Raw events (perf -e rN): the event numbers the spec names. */
static const u8 raw_events[] = {
	PMU_EVENT_CYCLES, PMU_EVENT_INSTRUCTIONS, PMU_EVENT_EXCEPTIONS,
	PMU_EVENT_INTERRUPTS,
};

/* $25 select 2n is PerfCtl n, 2n + 1 PerfCnt n; mtc0 needs constants. */
static u32 read_counter(int idx)
{
	switch (idx) {
	case 0:
		return read_c0_perfcnt0();
#if PMU_COUNTERS > 1
	case 1:
		return read_c0_perfcnt1();
#endif
	}
	return 0;
}

static void write_counter(int idx, u32 val)
{
	switch (idx) {
	case 0:
		write_c0_perfcnt0(val);
		break;
#if PMU_COUNTERS > 1
	case 1:
		write_c0_perfcnt1(val);
		break;
#endif
	}
}

static void write_control(int idx, u32 val)
{
	switch (idx) {
	case 0:
		write_c0_perfctl0(val);
		break;
#if PMU_COUNTERS > 1
	case 1:
		write_c0_perfctl1(val);
		break;
#endif
	}
}

/* Fold what the counter counted since the last update into the event. */
static u64 pmu_event_update(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u64 prev, now, delta;

	do {
		prev = local64_read(&hwc->prev_count);
		now = read_counter(hwc->idx);
	} while (local64_cmpxchg(&hwc->prev_count, prev, now) != prev);

	delta = (now - prev) & COUNTER_MASK;
	local64_add(delta, &event->count);
	local64_sub(delta, &hwc->period_left);
	return now;
}

/*
 * Start the counter so that it overflows after the period's remainder;
 * true when a period ended (a sample is due).
 */
static bool pmu_event_set_period(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	s64 left = local64_read(&hwc->period_left);
	s64 period = hwc->sample_period;
	bool ended = false;
	u32 start;

	if (unlikely(left <= -period)) {
		left = period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
		ended = true;
	}
	if (unlikely(left <= 0)) {
		left += period;
		local64_set(&hwc->period_left, left);
		hwc->last_period = period;
		ended = true;
	}
	if (left > MAX_PERIOD)
		left = MAX_PERIOD;

	start = COUNTER_OVERFLOW - (u32)left;
	local64_set(&hwc->prev_count, start);
	write_counter(hwc->idx, start);
	perf_event_update_userpage(event);
	return ended;
}

static void pmu_start(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (WARN_ON_ONCE(!(hwc->state & PERF_HES_STOPPED)))
		return;
	if (flags & PERF_EF_RELOAD)
		WARN_ON_ONCE(!(hwc->state & PERF_HES_UPTODATE));
	hwc->state = 0;
	pmu_event_set_period(event);
	write_control(hwc->idx, hwc->config_base);
}

static void pmu_stop(struct perf_event *event, int flags)
{
	struct hw_perf_event *hwc = &event->hw;

	if (!(hwc->state & PERF_HES_STOPPED)) {
		write_control(hwc->idx, 0);
		hwc->state |= PERF_HES_STOPPED;
	}
	if ((flags & PERF_EF_UPDATE) && !(hwc->state & PERF_HES_UPTODATE)) {
		pmu_event_update(event);
		hwc->state |= PERF_HES_UPTODATE;
	}
}

static int pmu_add(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	struct hw_perf_event *hwc = &event->hw;
	int idx;

	idx = find_first_zero_bit(&cpuc->used_mask, PMU_COUNTERS);
	if (idx >= PMU_COUNTERS)
		return -EAGAIN;
	__set_bit(idx, &cpuc->used_mask);
	cpuc->events[idx] = event;
	hwc->idx = idx;
	hwc->state = PERF_HES_STOPPED | PERF_HES_UPTODATE;
	if (flags & PERF_EF_START)
		pmu_start(event, PERF_EF_RELOAD);
	perf_event_update_userpage(event);
	return 0;
}

static void pmu_del(struct perf_event *event, int flags)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	struct hw_perf_event *hwc = &event->hw;

	pmu_stop(event, PERF_EF_UPDATE);
	cpuc->events[hwc->idx] = NULL;
	__clear_bit(hwc->idx, &cpuc->used_mask);
	perf_event_update_userpage(event);
}

static void pmu_read(struct perf_event *event)
{
	pmu_event_update(event);
}

static int pmu_event_number(struct perf_event *event)
{
	u64 config = event->attr.config;
	int i;

	switch (event->attr.type) {
	case PERF_TYPE_HARDWARE:
		return hw_event(config);
	case PERF_TYPE_RAW:
		for (i = 0; i < ARRAY_SIZE(raw_events); i++)
			if (config == raw_events[i])
				return raw_events[i];
		return -EINVAL;
	default:
		return -ENOENT;
	}
}

static int pmu_event_init(struct perf_event *event)
{
	struct hw_perf_event *hwc = &event->hw;
	u32 modes = 0;
	int ev;

	ev = pmu_event_number(event);
	if (ev < 0)
		return ev;
	if (!event->attr.exclude_user)
		modes |= PERFCTL_U;
	if (!event->attr.exclude_kernel)
		modes |= PERFCTL_K | PERFCTL_EXL;
	if (!modes)
		return -EINVAL;

	hwc->config_base = modes | PERFCTL_IE | (ev << PERFCTL_EVENT_SHIFT);
	hwc->idx = -1;
	if (!is_sampling_event(event)) {
		/* Counting: overflow interrupts only fold the counter. */
		hwc->sample_period = MAX_PERIOD;
		hwc->last_period = hwc->sample_period;
		local64_set(&hwc->period_left, hwc->sample_period);
	}
	return 0;
}

static void pmu_enable(struct pmu *pmu)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	int idx;

	for_each_set_bit(idx, &cpuc->used_mask, PMU_COUNTERS) {
		struct perf_event *event = cpuc->events[idx];

		if (!(event->hw.state & PERF_HES_STOPPED))
			write_control(idx, event->hw.config_base);
	}
}

static void pmu_disable(struct pmu *pmu)
{
	int idx;

	for (idx = 0; idx < PMU_COUNTERS; idx++)
		write_control(idx, 0);
}

static struct pmu mips32_pmu = {
	.module		= THIS_MODULE,
	.task_ctx_nr	= perf_hw_context,
	.pmu_enable	= pmu_enable,
	.pmu_disable	= pmu_disable,
	.event_init	= pmu_event_init,
	.add		= pmu_add,
	.del		= pmu_del,
	.start		= pmu_start,
	.stop		= pmu_stop,
	.read		= pmu_read,
};

/*
 * The overflow interrupt (Cause.PCI, from the interrupt entry): every
 * counter past bit 31 is folded and restarted, which lowers the line, and
 * a sampling event whose period ended takes its sample.
 */
void mips32_pmu_handle_irq(struct pt_regs *regs)
{
	struct cpu_hw_events *cpuc = this_cpu_ptr(&cpu_hw_events);
	struct perf_sample_data data;
	int idx;

	pmu_disable(&mips32_pmu);
	for (idx = 0; idx < PMU_COUNTERS; idx++) {
		struct perf_event *event = cpuc->events[idx];
		struct hw_perf_event *hwc;

		if (!(read_counter(idx) & COUNTER_OVERFLOW))
			continue;
		if (!event || !test_bit(idx, &cpuc->used_mask)) {
			write_counter(idx, 0);	/* a leftover: lower the line */
			continue;
		}
		hwc = &event->hw;
		pmu_event_update(event);
		perf_sample_data_init(&data, 0, hwc->last_period);
		if (!pmu_event_set_period(event))
			continue;
		if (is_sampling_event(event) && perf_event_overflow(event, &data, regs))
			pmu_stop(event, 0);
	}
	pmu_enable(&mips32_pmu);
}

/* A CPU coming up starts with its counters stopped and cleared. */
static int pmu_cpu_online(unsigned int cpu)
{
	int idx;

	for (idx = 0; idx < PMU_COUNTERS; idx++) {
		write_control(idx, 0);
		write_counter(idx, 0);
	}
	return 0;
}

static int __init mips32_pmu_init(void)
{
	int ret;

	if (!(read_c0_config1() & CONFIG1_PC)) {
		pr_info("perf: no performance counters (Config1.PC = 0)\n");
		return 0;
	}
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perf/mips32:online",
				pmu_cpu_online, NULL);
	if (ret < 0)
		return ret;
	ret = perf_pmu_register(&mips32_pmu, "cpu", PERF_TYPE_RAW);
	if (ret)
		return ret;
	pr_info("perf: %d counters, overflow on CPU line %d\n", PMU_COUNTERS,
		PMU_IRQ_LINE);
	return 0;
}
early_initcall(mips32_pmu_init);
