// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/cpuinfo: one record per online CPU, each printed by the board's
 * show_cpuinfo() (the CPU model and what it has are the board's facts).
 */

#include <linux/cpumask.h>
#include <linux/seq_file.h>

#include <asm/setup.h>

/* The record's cookie is the CPU number + 1 (NULL ends the walk). */
static void *c_start(struct seq_file *m, loff_t *pos)
{
	*pos = cpumask_next(*pos - 1, cpu_online_mask);
	return *pos < nr_cpu_ids ? (void *)(unsigned long)(*pos + 1) : NULL;
}

static void *c_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return c_start(m, pos);
}

static void c_stop(struct seq_file *m, void *v)
{
}

const struct seq_operations cpuinfo_op = {
	.start	= c_start,
	.next	= c_next,
	.stop	= c_stop,
	.show	= show_cpuinfo,
};
