/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/fixmap.h: edit that
 * file.
 */
/*
 * Compile-time virtual addresses below FIXADDR_TOP (in the mapped kernel
 * region), mapped through one statically allocated page of PTEs that
 * each MMU layer's mm/init.c sets up (early_fixmap_init, __set_fixmap),
 * so that they work before the page allocator does.
 */
#ifndef _ASM_MIPS32_FIXMAP_H
#define _ASM_MIPS32_FIXMAP_H

#include <asm/mem-layout.h>
#include <asm/page.h>

#ifndef __ASSEMBLY__

#include <linux/threads.h>
#include <asm/kmap_size.h>
#include <asm/pgtable.h>

enum fixed_addresses {
	FIX_HOLE,
	/* The early console's registers, until its driver ioremaps them. */
	FIX_EARLYCON_MEM_BASE,
	/* A writable alias of a page of read-only text (kernel/patch.c). */
	FIX_TEXT_POKE,
#ifdef CONFIG_HIGHMEM
	/* kmap_local_page(): KM_MAX_IDX slots for each CPU. */
	FIX_KMAP_BEGIN,
	FIX_KMAP_END = FIX_KMAP_BEGIN + KM_MAX_IDX * NR_CPUS - 1,
#endif
	__end_of_fixed_addresses
};

#define FIXADDR_SIZE		(__end_of_fixed_addresses << PAGE_SHIFT)
#define FIXADDR_START		(FIXADDR_TOP - FIXADDR_SIZE)

#define FIXMAP_PAGE_IO		PAGE_KERNEL_NOCACHE

void __set_fixmap(enum fixed_addresses idx, phys_addr_t phys, pgprot_t prot);
void early_fixmap_init(void);

#include <asm-generic/fixmap.h>

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_MIPS32_FIXMAP_H */
