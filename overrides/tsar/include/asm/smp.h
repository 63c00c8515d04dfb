/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMP on TSAR: CPUs are told apart by their hardware id (EBase.CPUNum,
 * the "reg" of their device-tree node); inter-processor interrupts go
 * through the XICU's WTI mailboxes, one per CPU.
 */
#ifndef _ASM_TSAR_SMP_H
#define _ASM_TSAR_SMP_H

#include <linux/cpumask.h>
#include <linux/linkage.h>
#include <linux/threads.h>
#include <asm/thread_info.h>

#ifdef CONFIG_SMP
#define raw_smp_processor_id()	(current_thread_info()->cpu)
#endif

/* Hardware id of each logical CPU. */
extern unsigned int __cpu_logical_map[NR_CPUS];
#define cpu_logical_map(cpu)	__cpu_logical_map[cpu]

struct seq_file;
struct pt_regs;

void __init smp_init_cpus(void);
void arch_send_call_function_ipi_mask(const struct cpumask *mask);
void arch_send_call_function_single_ipi(int cpu);
void show_ipi_stats(struct seq_file *p, int prec);
asmlinkage void secondary_start_kernel(void);

/* Board hooks between setup.c, smp.c and the XICU driver. */
void tsar_cpu_init(void);
void tsar_handle_ipi(void);
void xicu_send_ipi(const struct cpumask *mask);
void xicu_starting_cpu(unsigned int cpu);
void xicu_wake_cpu(unsigned int hwid);

#endif /* _ASM_TSAR_SMP_H */
