// SPDX-License-Identifier: GPL-2.0
/*
 * SMP bring-up and inter-processor interrupts.
 *
 * Boot protocol (hw ref 5): every CPU starts at kernel_entry with the MMU
 * off. The boot CPU (EBase.CPUNum 0) runs start_kernel; the others wait
 * in head.S (with "wait", so they cost nothing) until secondary_boot
 * names them and their XICU WTI mailbox interrupt wakes them. They then
 * turn the MMU on through idmap_pg_dir (the kernel map plus an identity
 * map of head.S), switch to swapper_pg_dir and enter
 * secondary_start_kernel() on their idle thread's stack.
 *
 * IPIs: the sender sets the message bit in the target's ipi_pending word,
 * then writes the target's WTI mailbox, which raises its XICU output.
 */

#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/of.h>
#include <linux/sched/mm.h>
#include <linux/sched/task_stack.h>
#include <linux/seq_file.h>
#include <linux/smp.h>

#include <asm/cp0.h>
#include <asm/mmu-cp2.h>
#include <asm/pgtable.h>
#include <asm/ptrace.h>
#include <asm/sections.h>
#include <asm/smp.h>

unsigned int __cpu_logical_map[NR_CPUS];

/*
 * Read by head.S with the MMU off, at its physical address: the hardware
 * id of the CPU allowed to start, the PTPR value to start with, and its
 * idle thread's thread_info.
 */
struct secondary_boot {
	unsigned long hwid;
	unsigned long ptpr;
	unsigned long thread_info;
};
struct secondary_boot secondary_boot = { .hwid = ~0UL };

/* The kernel map plus an identity map of the big page holding head.S. */
static pgd_t idmap_pg_dir[PTRS_PER_PGD] __aligned(PTRS_PER_PGD * sizeof(pgd_t));

static DECLARE_COMPLETION(cpu_running);

enum ipi_message {
	IPI_RESCHEDULE,
	IPI_CALL_FUNC,
	IPI_CPU_STOP,
	IPI_IRQ_WORK,
	IPI_MAX
};

static const char * const ipi_names[IPI_MAX] = {
	[IPI_RESCHEDULE]	= "Rescheduling interrupts",
	[IPI_CALL_FUNC]		= "Function call interrupts",
	[IPI_CPU_STOP]		= "CPU stop interrupts",
	[IPI_IRQ_WORK]		= "IRQ work interrupts",
};

static DEFINE_PER_CPU(unsigned long, ipi_pending);
static DEFINE_PER_CPU(unsigned int [IPI_MAX], ipi_count);

/* The CPUs of the device tree; the boot CPU is logical CPU 0. */
void __init smp_init_cpus(void)
{
	unsigned int boot_hwid = read_c0_ebase() & EBASE_CPUNUM;
	struct device_node *dn;
	unsigned int cpu = 1;

	__cpu_logical_map[0] = boot_hwid;
	for_each_of_cpu_node(dn) {
		u64 hwid = of_get_cpu_hwid(dn, 0);

		if (hwid == OF_BAD_ADDR || hwid > EBASE_CPUNUM) {
			pr_warn("%pOF: bad CPU id, ignored\n", dn);
			continue;
		}
		if (hwid == boot_hwid)
			continue;
		if (cpu >= NR_CPUS) {
			pr_warn("%pOF: more CPUs than NR_CPUS (%d), ignored\n",
				dn, NR_CPUS);
			continue;
		}
		__cpu_logical_map[cpu] = hwid;
		set_cpu_possible(cpu, true);
		set_cpu_present(cpu, true);
		cpu++;
	}
}

void __init smp_prepare_boot_cpu(void)
{
}

void __init smp_prepare_cpus(unsigned int max_cpus)
{
	phys_addr_t head = __pa_symbol(_stext) & PGDIR_MASK;
	unsigned int slot = pgd_index(head);

	/*
	 * The secondaries turn the MMU on while running at physical
	 * addresses: map head.S's big page there too. Not global, so the
	 * switch to swapper_pg_dir drops it from the TLBs.
	 */
	BUG_ON(head >= PAGE_OFFSET);
	memcpy(idmap_pg_dir, swapper_pg_dir, sizeof(idmap_pg_dir));
	idmap_pg_dir[slot] = __pgd(pgd_val(swapper_pg_dir[pgd_index((unsigned long)
				   __va(head))]) & ~_PAGE_GLOBAL);
	WRITE_ONCE(secondary_boot.ptpr, __pa_symbol(idmap_pg_dir) >> PTPR_SHIFT);
}

int __cpu_up(unsigned int cpu, struct task_struct *tidle)
{
	unsigned int hwid = cpu_logical_map(cpu);

	task_thread_info(tidle)->cpu = cpu;
	WRITE_ONCE(secondary_boot.thread_info,
		   (unsigned long)task_thread_info(tidle));
	/* The data before the id that releases the CPU, both before the IPI. */
	smp_wmb();
	WRITE_ONCE(secondary_boot.hwid, hwid);
	smp_mb();	/* the write buffer drained before the mailbox write */
	xicu_wake_cpu(hwid);

	wait_for_completion_timeout(&cpu_running, msecs_to_jiffies(1000));
	if (!cpu_online(cpu)) {
		pr_crit("CPU%u (hardware id %u): failed to come online\n",
			cpu, hwid);
		return -EIO;
	}
	return 0;
}

void __init smp_cpus_done(unsigned int max_cpus)
{
}

/* C entry of a secondary CPU, from head.S, on its idle thread's stack. */
asmlinkage void secondary_start_kernel(void)
{
	unsigned int cpu = smp_processor_id();
	struct mm_struct *mm = &init_mm;

	WRITE_ONCE(secondary_boot.hwid, ~0UL);
	tsar_cpu_init();

	mmgrab(mm);
	current->active_mm = mm;
	cpumask_set_cpu(cpu, mm_cpumask(mm));

	xicu_starting_cpu(cpu);
	notify_cpu_starting(cpu);
	calibrate_delay();
	set_cpu_online(cpu, true);
	complete(&cpu_running);

	local_irq_enable();
	cpu_startup_entry(CPUHP_AP_ONLINE_IDLE);
}

static void send_ipi_mask(const struct cpumask *mask, enum ipi_message msg)
{
	unsigned int cpu;

	for_each_cpu(cpu, mask)
		set_bit(msg, &per_cpu(ipi_pending, cpu));
	/* The message is visible before the mailbox write raises the line. */
	smp_mb();
	xicu_send_ipi(mask);
}

static void ipi_stop(void)
{
	set_cpu_online(smp_processor_id(), false);
	local_irq_disable();
	while (1)
		__asm__ __volatile__("wait");
}

/* From the XICU handler, in hard interrupt context. */
void tsar_handle_ipi(void)
{
	unsigned long *pending = this_cpu_ptr(&ipi_pending);
	unsigned long ops;

	while ((ops = xchg(pending, 0))) {
		if (ops & BIT(IPI_RESCHEDULE)) {
			this_cpu_inc(ipi_count[IPI_RESCHEDULE]);
			scheduler_ipi();
		}
		if (ops & BIT(IPI_CALL_FUNC)) {
			this_cpu_inc(ipi_count[IPI_CALL_FUNC]);
			generic_smp_call_function_interrupt();
		}
		if (ops & BIT(IPI_IRQ_WORK)) {
			this_cpu_inc(ipi_count[IPI_IRQ_WORK]);
			irq_work_run();
		}
		if (ops & BIT(IPI_CPU_STOP)) {
			this_cpu_inc(ipi_count[IPI_CPU_STOP]);
			ipi_stop();
		}
	}
}

void arch_send_call_function_ipi_mask(const struct cpumask *mask)
{
	send_ipi_mask(mask, IPI_CALL_FUNC);
}

void arch_send_call_function_single_ipi(int cpu)
{
	send_ipi_mask(cpumask_of(cpu), IPI_CALL_FUNC);
}

void smp_send_reschedule(int cpu)
{
	send_ipi_mask(cpumask_of(cpu), IPI_RESCHEDULE);
}

#ifdef CONFIG_IRQ_WORK
void arch_irq_work_raise(void)
{
	send_ipi_mask(cpumask_of(smp_processor_id()), IPI_IRQ_WORK);
}
#endif

void smp_send_stop(void)
{
	struct cpumask mask;
	unsigned long timeout;

	cpumask_copy(&mask, cpu_online_mask);
	cpumask_clear_cpu(smp_processor_id(), &mask);
	if (cpumask_empty(&mask))
		return;
	send_ipi_mask(&mask, IPI_CPU_STOP);

	timeout = USEC_PER_SEC;
	while (num_online_cpus() > 1 && timeout--)
		udelay(1);
	if (num_online_cpus() > 1)
		pr_warn("SMP: failed to stop secondary CPUs %*pbl\n",
			cpumask_pr_args(cpu_online_mask));
}

/* The IPI lines of /proc/interrupts. */
void show_ipi_stats(struct seq_file *p, int prec)
{
	unsigned int cpu, i;

	for (i = 0; i < IPI_MAX; i++) {
		seq_printf(p, "%*s%u:%s", prec - 1, "IPI", i,
			   prec >= 4 ? " " : "");
		for_each_online_cpu(cpu)
			seq_printf(p, "%10u ", per_cpu(ipi_count, cpu)[i]);
		seq_printf(p, " %s\n", ipi_names[i]);
	}
}

int arch_show_interrupts(struct seq_file *p, int prec)
{
	show_ipi_stats(p, prec);
	return 0;
}
