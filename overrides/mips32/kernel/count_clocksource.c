// SPDX-License-Identifier: GPL-2.0
/*
 * CP0 Count, which every MIPS32 core has, as the clocksource and
 * sched_clock; the board's time_init() knows its rate (the CPU clock,
 * or a fraction of it) and registers it here.
 */

#include <linux/clocksource.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/sched_clock.h>

#include <asm/cp0.h>
#include <asm/setup.h>

static u64 count_read(struct clocksource *cs)
{
	return read_c0_count();
}

static struct clocksource count_clocksource = {
	.name	= "cp0-count",
	.rating	= 300,
	.read	= count_read,
	.mask	= CLOCKSOURCE_MASK(32),
	.flags	= CLOCK_SOURCE_IS_CONTINUOUS,
	/* The vDSO reads the same register with rdhwr (asm/vdso/gettimeofday.h). */
	.vdso_clock_mode = VDSO_CLOCKMODE_COUNT,
};

static u64 notrace count_sched_clock(void)
{
	return read_c0_count();
}

/* rate: Count's frequency in Hz. */
void __init count_clocksource_init(u32 rate)
{
	clocksource_register_hz(&count_clocksource, rate);
	sched_clock_register(count_sched_clock, 32, rate);
	lpj_fine = rate / HZ;
}
