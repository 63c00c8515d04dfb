/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_R4K_IO_H
#define _ASM_R4K_IO_H

#include <linux/types.h>

/*
 * Devices are memory-mapped; there is no I/O port space. ioremap()
 * (mm/ioremap.c) returns the uncached kseg1 address of registers in the
 * low 512 MiB of the physical space, with no mapping to make, and maps
 * anything above uncached in kseg2.
 */
void __iomem *ioremap_prot(phys_addr_t phys_addr, size_t size,
			   unsigned long prot);
void __iomem *ioremap(phys_addr_t phys_addr, size_t size);
#define ioremap ioremap
void iounmap(volatile void __iomem *addr);
#define iounmap iounmap

#include <asm-generic/io.h>

#endif /* _ASM_R4K_IO_H */
