// SPDX-License-Identifier: GPL-2.0
/*
 * Architecture setup on QEMU's mipssim: the device tree built into the
 * kernel (QEMU passes none), the command line from QEMU's -append through
 * semihosting, memory from the device tree, then the MMU layer's TLB and
 * page tables.
 */

#include <linux/delay.h>
#include <linux/init.h>
#include <linux/memblock.h>
#include <linux/of.h>
#include <linux/of_fdt.h>
#include <linux/seq_file.h>
#include <linux/string.h>

#include <asm/board.h>
#include <asm/cp0.h>
#include <asm/mmu-tlb.h>
#include <asm/page.h>
#include <asm/semihosting.h>
#include <asm/setup.h>

/* The device tree generated from the spec, linked in (boot/dts/Makefile). */
extern char __dtb_start[];

static char uhi_arg[COMMAND_LINE_SIZE] __initdata;

/*
 * QEMU hands -append to semihosting as argv[1..] (argv[0] is the kernel
 * file name): when present, it replaces the device tree's bootargs.
 */
static void __init cmdline_from_host(void)
{
	long argc = uhi_call(UHI_ARGC, 0, 0);
	size_t len = 0;
	long i, n;

	if (argc < 2)
		return;
	boot_command_line[0] = '\0';
	for (i = 1; i < argc; i++) {
		n = uhi_call(UHI_ARGNLEN, i, 0);
		if (n < 0 || len + n + 2 > COMMAND_LINE_SIZE)
			break;
		uhi_call(UHI_ARGN, i, (long)uhi_arg);
		if (len)
			boot_command_line[len++] = ' ';
		memcpy(boot_command_line + len, uhi_arg, n);
		len += n;
		boot_command_line[len] = '\0';
	}
}

/*
 * User code may read the RDHWR registers the spec lists; the thread
 * pointer (rdhwr $29) is emulated, the 24Kc having no UserLocal.
 * Interrupt lines stay masked until the irqchip driver enables them.
 */
static void __init qmips_cpu_init(void)
{
	write_c0_hwrena(HWRENA_USER);
	write_c0_status(read_c0_status() & ~ST_IM);
}

void __init setup_arch(char **cmdline_p)
{
	early_uart_init();
	qmips_cpu_init();

	if (!early_init_dt_scan(__dtb_start))
		panic("The built-in device tree is not valid");
	cmdline_from_host();

	/* The TLB, the fixmap and the page tables: before any kseg2 access. */
	setup_memory(cmdline_p);

	unflatten_device_tree();

	pr_info("%s: %pa bytes of RAM at %pa, PRId %08lx, %d TLB entries\n",
		of_flat_dt_get_machine_name() ?: "qmips",
		&memblock.memory.total_size, &memblock.memory.regions[0].base,
		read_c0_prid(), TLB_ENTRIES);
}

/* /proc/cpuinfo */
int show_cpuinfo(struct seq_file *m, void *v)
{
	seq_printf(m, "processor\t\t: %lu\n", (unsigned long)v - 1);
	seq_printf(m, "cpu model\t\t: MIPS 24Kc (PRId %08lx)\n", read_c0_prid());
	seq_printf(m, "BogoMIPS\t\t: %lu.%02lu\n",
		   loops_per_jiffy / (500000 / HZ),
		   (loops_per_jiffy / (5000 / HZ)) % 100);
	seq_puts(m, "isa\t\t\t: mips32r2\n");
	seq_printf(m, "mmu\t\t\t: r4k software-refilled TLB, %d entries\n\n",
		   TLB_ENTRIES);
	return 0;
}
