/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_R4K_IO_H
#define _ASM_R4K_IO_H

#include <linux/types.h>
#include <asm/pgtable.h>
#include <asm/tlb-r4k.h>

/*
 * Devices are memory-mapped; there is no I/O port space. Registers in
 * the low 512 MiB of the physical space are reached through the
 * unmapped, uncached kseg1 window at no cost; anything above goes
 * through uncached kseg2 mappings (generic ioremap_prot()). iounmap()
 * only unmaps kseg2 (vmalloc) addresses, so it leaves kseg1 ones alone.
 */
void __iomem *ioremap_prot(phys_addr_t phys_addr, size_t size,
			   unsigned long prot);

static inline void __iomem *ioremap(phys_addr_t addr, size_t size)
{
	if (size && addr + size - 1 < UNMAPPED_UNCACHED_SIZE &&
	    addr + size - 1 >= addr)
		return (void __iomem *)(UNMAPPED_UNCACHED_BASE +
					(unsigned long)addr);
	return ioremap_prot(addr, size, _PAGE_IOREMAP);
}
#define ioremap ioremap

#include <asm-generic/io.h>

#endif /* _ASM_R4K_IO_H */
