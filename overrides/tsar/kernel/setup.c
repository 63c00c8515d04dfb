// SPDX-License-Identifier: GPL-2.0
/*
 * Architecture setup: the device tree the loader passed (or the one built
 * in), memory from its /memory nodes, the early console, page tables.
 */

#include <linux/console.h>
#include <linux/delay.h>
#include <linux/init.h>
#include <linux/memblock.h>
#include <linux/of.h>
#include <linux/of_fdt.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/start_kernel.h>

#include <asm/cp0.h>
#include <asm/fixmap.h>
#include <asm/mmu-cp2.h>
#include <asm/page.h>
#include <asm/sections.h>
#include <asm/setup.h>
#include <asm/smp.h>

/* Physical address of the device tree, stored by head.S. */
unsigned long boot_dtb_phys __initdata;

/*
 * Per-CPU control state: user code may read the RDHWR registers the
 * spec lists (the thread pointer among them); nothing else of CP0.
 */
void tsar_cpu_init(void)
{
	write_c0_hwrena(HWRENA_USER);
	write_c0_userlocal(0);
	/* Unmask all interrupt lines; the XICU masks individual sources. */
	write_c0_status((read_c0_status() & ~ST_IM) | ST_IM);
}

void __init setup_arch(char **cmdline_p)
{
	void *dtb = boot_dtb_phys ? __va(boot_dtb_phys) : NULL;

	tsar_cpu_init();

	if (!dtb || !early_init_dt_scan(dtb))
		panic("No valid device tree at physical %#lx", boot_dtb_phys);

	setup_memory(cmdline_p);

	unflatten_device_tree();
#ifdef CONFIG_SMP
	smp_init_cpus();
#endif

	pr_info("%s: %pa bytes of RAM at %pa, CPU id %lu, MMU release %#lx\n",
		of_flat_dt_get_machine_name() ?: "tsar",
		&memblock.memory.total_size, &memblock.memory.regions[0].base,
		read_c0_ebase() & EBASE_CPUNUM, read_c2_release());
}

/* /proc/cpuinfo */
int show_cpuinfo(struct seq_file *m, void *v)
{
	unsigned long prid = read_c0_prid();
	unsigned long cpu = (unsigned long)v - 1;

	seq_printf(m, "processor\t\t: %lu\n", cpu);
#ifdef CONFIG_SMP
	seq_printf(m, "cpu id\t\t\t: %u\n", cpu_logical_map(cpu));
#endif
	seq_printf(m, "cpu model\t\t: TSAR MIPS32 (PRId %08lx)\n", prid);
	seq_printf(m, "BogoMIPS\t\t: %lu.%02lu\n",
		   loops_per_jiffy / (500000 / HZ),
		   (loops_per_jiffy / (5000 / HZ)) % 100);
	seq_puts(m, "isa\t\t\t: mips32r1 + ext/ins/seb/seh/wsbh/rotr/rdhwr/di/ei\n");
	seq_puts(m, "mmu\t\t\t: tsar-cp2 (hardware page-table walk)\n\n");
	return 0;
}
