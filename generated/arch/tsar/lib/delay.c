// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/lib/delay.c: edit that file. */
/*
 * Busy-wait delays on CP0 Count: loops_per_jiffy is set to Count cycles
 * per jiffy by time_init(), so a "loop" is one cycle.
 */

#include <linux/delay.h>
#include <linux/export.h>
#include <linux/timex.h>

void __delay(unsigned long cycles)
{
	cycles_t start = get_cycles();

	while ((get_cycles() - start) < cycles)
		cpu_relax();
}
EXPORT_SYMBOL(__delay);

/* xloops = microseconds * 2^32 / 10^6 */
void __const_udelay(unsigned long xloops)
{
	u64 loops = (u64)xloops * loops_per_jiffy * HZ;

	__delay(loops >> 32);
}
EXPORT_SYMBOL(__const_udelay);

void __udelay(unsigned long usecs)
{
	__const_udelay(usecs * 0x10C7UL);
}
EXPORT_SYMBOL(__udelay);

void __ndelay(unsigned long nsecs)
{
	__const_udelay(nsecs * 0x5UL);
}
EXPORT_SYMBOL(__ndelay);
