// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mmu-cp2/mm/bus_error.c: edit that file. */
/*
 * The CP2 walker reports MMU faults as bus errors, with the cause in
 * IETR/DETR and the address in IBVAR/DBVAR: translation misses and
 * permission faults go to the page-fault handler, real bus errors are
 * fatal or SIGBUS. Called by the family's do_exception() (traps.c).
 */

#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/signal.h>

#include <asm/cp0.h>
#include <asm/mmu-hooks.h>
#include <asm/ptrace.h>
#include <asm/traps.h>

static void do_bus_error(struct pt_regs *regs, bool exec)
{
	unsigned long type = exec ? read_c2_ietr() : read_c2_detr();
	unsigned long addr = exec ? read_c2_ibvar() : read_c2_dbvar();
	bool write = !exec && !(type & MMU_FAULT_READ);

	if (!exec)
		addr = exact_data_address(regs, addr);

	type &= ~MMU_FAULT_READ;
	switch (type) {
	case MMU_FAULT_PT1_UNMAPPED:
	case MMU_FAULT_PT2_UNMAPPED:
	case MMU_FAULT_ACCESS_VIOLATION:
	case MMU_FAULT_EXEC_VIOLATION:
	case MMU_FAULT_PRIVILEGE_VIOLATION:
		do_page_fault(regs, addr, type, write, exec);
		return;
	default:
		pr_alert("%s bus error at %08lx (type %#lx), epc %08lx\n",
			 exec ? "instruction" : "data", addr, type, regs->epc);
		trap_or_die(regs, SIGBUS, BUS_ADRERR, addr, "Bus error");
	}
}

bool mmu_exception(struct pt_regs *regs, unsigned int exccode)
{
	switch (exccode) {
	case EXC_IBE:
		do_bus_error(regs, true);
		return true;
	case EXC_DBE:
		do_bus_error(regs, false);
		return true;
	}
	return false;
}
