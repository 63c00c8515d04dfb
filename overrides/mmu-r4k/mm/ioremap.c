// SPDX-License-Identifier: GPL-2.0
/*
 * ioremap for MIPS32's fixed windows: a physical range that kseg1 reaches
 * needs no mapping (uncached, unmapped); anything above is mapped in the
 * vmalloc area of kseg2.
 */

#include <linux/export.h>
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include <asm/pgtable.h>

void __iomem *ioremap_prot(phys_addr_t phys_addr, size_t size,
			   unsigned long prot)
{
	phys_addr_t last = phys_addr + size - 1;
	unsigned long offset, vaddr;
	struct vm_struct *area;

	if (!size || last < phys_addr)
		return NULL;
	if (last < KSEG1_SIZE &&
	    (prot & _PAGE_CACHE_MASK) == _CACHE_UNCACHED)
		return (void __iomem *)(UNMAPPED_UNCACHED_BASE +
					(unsigned long)phys_addr);

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

/* kseg1 addresses were never mapped: only kseg2 ones are unmapped. */
void iounmap(volatile void __iomem *addr)
{
	void *vaddr = (void *)((unsigned long)addr & PAGE_MASK);

	if (is_vmalloc_addr(vaddr))
		vunmap(vaddr);
}
EXPORT_SYMBOL(iounmap);
