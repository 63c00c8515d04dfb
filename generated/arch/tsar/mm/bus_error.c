// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mmu-cp2/mm/bus_error.c: edit that file. */
/*
 * The CP2 walker reports MMU faults as bus errors, with the cause in
 * IETR/DETR and the address in IBVAR/DBVAR: translation misses and
 * permission faults go to the family's page-fault handler (mm/fault.c),
 * real bus errors are fatal or SIGBUS. Called by the family's
 * do_exception() (traps.c).
 */

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/signal.h>
#include <linux/uaccess.h>

#include <asm/cp0.h>
#include <asm/insn-decode.h>
#include <asm/mmu-hooks.h>
#include <asm/pgalloc.h>
#include <asm/ptrace.h>
#include <asm/traps.h>

/*
 * The walker reports "unmapped" faults as reads even for stores. Look at
 * the faulting instruction so a store is handled as a write at once
 * (instead of mapping the page read-only and faulting a second time).
 */
static bool fault_is_store(struct pt_regs *regs)
{
	u32 insn;

	return !exception_insn(regs, &insn) && insn_is_store(insn);
}

/*
 * vmalloc and ioremap mappings are made in swapper_pg_dir; other page
 * directories copy the first-level entry when they first touch it.
 */
static int vmalloc_fault(unsigned long addr)
{
	unsigned int index = pgd_index(addr);
	pgd_t *pgd, *pgd_k;
	pmd_t *pmd_k;
	pte_t *pte_k;

	pgd = (pgd_t *)__va((phys_addr_t)read_c2_ptpr() << PTPR_SHIFT) + index;
	pgd_k = swapper_pg_dir + index;
	pmd_k = pmd_offset(pud_offset(p4d_offset(pgd_k, addr), addr), addr);
	if (pmd_none(*pmd_k) || pmd_bad(*pmd_k))
		return -1;
	WRITE_ONCE(*pgd, *pgd_k);

	pte_k = pte_offset_kernel(pmd_k, addr);
	if (!pte_present(ptep_get(pte_k)))
		return -1;
	return 0;
}

static void do_bus_error(struct pt_regs *regs, bool exec)
{
	/* This CPU's registers, read before interrupts are back on. */
	unsigned long type = exec ? read_c2_ietr() : read_c2_detr();
	unsigned long addr = exec ? read_c2_ibvar() : read_c2_dbvar();
	bool write = !exec && !(type & MMU_FAULT_READ);

	exception_irq_enable(regs);
	if (!exec)
		addr = exact_data_address(regs, addr);

	type &= ~MMU_FAULT_READ;
	switch (type) {
	case MMU_FAULT_PT1_UNMAPPED:
	case MMU_FAULT_PT2_UNMAPPED:
		if (!exec && !write)
			write = fault_is_store(regs);
		/*
		 * Only a missing entry can be a stale page directory; a write
		 * to read-only or a fetch from non-executable kernel memory is
		 * an error (on a mapping that exists, so it must not retry).
		 */
		if (addr >= TASK_SIZE && !user_mode(regs) &&
		    vmalloc_fault(addr) == 0)
			return;
		fallthrough;
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
