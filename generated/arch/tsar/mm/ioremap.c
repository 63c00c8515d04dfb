// SPDX-License-Identifier: GPL-2.0
/* Copied by portkit from overrides/mips32/mm/ioremap.c: edit that file. */
/*
 * ioremap for the MIPS32 family. A physical range that an unmapped
 * uncached window reaches (kseg1, when the layout has one) needs no
 * mapping; anything else is mapped in the vmalloc area as kernel memory.
 *
 * The caller's protection only chooses the cache attribute (as on stock
 * MIPS): generic_access_phys() passes the protection of a user mapping
 * of /dev/mem, and the kernel's own mapping of that range must not be
 * user-accessible. The MMU layer's ioremap_kernel_prot() makes that
 * kernel protection.
 */

#include <linux/export.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include <asm/mem-layout.h>
#include <asm/pgtable.h>

void __iomem *ioremap_prot(phys_addr_t phys_addr, size_t size,
			   unsigned long prot)
{
	phys_addr_t last = phys_addr + size - 1;
	unsigned long offset, vaddr;
	struct vm_struct *area;

	if (!size || last < phys_addr)
		return NULL;
	prot = ioremap_kernel_prot(prot);
#ifdef UNMAPPED_UNCACHED_BASE
	if (last < UNMAPPED_UNCACHED_SIZE &&
	    pgprot_val(pgprot_noncached(__pgprot(prot))) == prot)
		return (void __iomem *)(UNMAPPED_UNCACHED_BASE +
					(unsigned long)phys_addr);
#endif

	offset = phys_addr & ~PAGE_MASK;
	phys_addr -= offset;
	size = PAGE_ALIGN(size + offset);
	area = get_vm_area_caller(size, VM_IOREMAP, __builtin_return_address(0));
	if (!area)
		return NULL;
	vaddr = (unsigned long)area->addr;
	area->phys_addr = phys_addr;
	if (ioremap_page_range(vaddr, vaddr + size, phys_addr, __pgprot(prot))) {
		free_vm_area(area);
		return NULL;
	}
	return (void __iomem *)(vaddr + offset);
}
EXPORT_SYMBOL(ioremap_prot);

void __iomem *ioremap(phys_addr_t phys_addr, size_t size)
{
	return ioremap_prot(phys_addr, size, _PAGE_IOREMAP);
}
EXPORT_SYMBOL(ioremap);

/* Addresses in an unmapped window were never mapped: only vmalloc ones are. */
void iounmap(volatile void __iomem *addr)
{
	void *vaddr = (void *)((unsigned long)addr & PAGE_MASK);

	if (is_vmalloc_addr(vaddr))
		vunmap(vaddr);
}
EXPORT_SYMBOL(iounmap);
