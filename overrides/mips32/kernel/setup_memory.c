// SPDX-License-Identifier: GPL-2.0
/*
 * The part of setup_arch() every board of the family shares, once the
 * board has found its device tree (early_init_dt_scan()) and command
 * line: the early fixmap, early parameters, memblock reservations and
 * the MMU layer's paging_init().
 */

#include <linux/init.h>
#include <linux/memblock.h>
#include <linux/mm.h>
#include <linux/of_fdt.h>

#include <asm/fixmap.h>
#include <asm/sections.h>
#include <asm/setup.h>

void __init setup_memory(char **cmdline_p)
{
	setup_initial_init_mm(_stext, _etext, _edata, _end);
	*cmdline_p = boot_command_line;

	/*
	 * Before anything maps a device: earlycon (from the command line)
	 * uses the fixmap, and on a software-refilled TLB this also puts
	 * the TLB in a known state.
	 */
	early_fixmap_init();
	parse_early_param();

	memblock_reserve(__pa_symbol(_text), _end - _text);
	/* A device tree outside the kernel image (a built-in one is inside). */
	early_init_fdt_reserve_self();
	early_init_fdt_scan_reserved_mem();

	paging_init();
}
