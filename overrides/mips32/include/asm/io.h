/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_MIPS32_IO_H
#define _ASM_MIPS32_IO_H

#include <linux/types.h>

/*
 * Devices are memory-mapped; there is no I/O port space. ioremap()
 * (mm/ioremap.c) returns the unmapped uncached window's address of
 * registers it reaches, with no mapping to make, and maps anything else
 * uncached in the vmalloc area.
 */
void __iomem *ioremap_prot(phys_addr_t phys_addr, size_t size,
			   unsigned long prot);
void __iomem *ioremap(phys_addr_t phys_addr, size_t size);
#define ioremap ioremap
void iounmap(volatile void __iomem *addr);
#define iounmap iounmap

#include <asm-generic/io.h>

#endif /* _ASM_MIPS32_IO_H */
