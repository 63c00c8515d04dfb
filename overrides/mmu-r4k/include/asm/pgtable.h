/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Page tables for an R4K-style software-refilled TLB.
 *
 * Two levels walked only by software (the refill and TLB exception
 * handlers in mm/tlbex.S, with their layout in asm/pgtable-bits.h).
 * Lowmem is reached through the unmapped kseg0 window and needs no
 * page-table entries; the page tables map user space (0..TASK_SIZE) per
 * process and kseg2 (vmalloc, ioremap above the unmapped windows, the
 * fixmap) in swapper_pg_dir, whose entries the refill handler loads as
 * global TLB entries for any process.
 */
#ifndef _ASM_R4K_PGTABLE_H
#define _ASM_R4K_PGTABLE_H

#include <asm/mem-layout.h>
#include <asm/pgtable-bits.h>
#include <asm/page.h>
#include <asm/tlb-r4k.h>
#include <asm-generic/pgtable-nopmd.h>

#if PAGE_OFFSET != UNMAPPED_CACHED_BASE
#error "mmu-r4k maps lowmem through kseg0: layout.page_offset must be its base"
#endif
#if PTE_TO_ENTRYLO_SHIFT != PAGE_SHIFT - ENTRYLO_PFN_SHIFT
#error "a PTE must become EntryLo with one shift (see mmu.pte_bits)"
#endif

#define MAX_POSSIBLE_PHYSMEM_BITS	32

#define FIRST_USER_ADDRESS	0UL
#define USER_PTRS_PER_PGD	(TASK_SIZE / PGDIR_SIZE)

/*
 * vmalloc (and ioremap of addresses the unmapped windows cannot reach)
 * starts at the mapped kernel window (VMALLOC_START, <asm/mem-layout.h>)
 * and stops two pages below the region whose page of PTEs the fixmap
 * uses from early boot (mm/init.c).
 */
#define VMALLOC_END		((FIXADDR_TOP & PGDIR_MASK) - 2 * PAGE_SIZE)

/*
 * The hardware bits cache the software ones: V = present && accessed,
 * D = V && writable && modified. User pages start with V and D clear:
 * the first access takes a TLB invalid (or modified) exception, whose
 * fast path (mm/tlbex.S) sets accessed (and modified) with V (and D).
 * PROT_NONE pages are _PAGE_PROTNONE, not _PAGE_PRESENT: never valid.
 */
#define _PAGE_CACHE_DEFAULT	_CACHE_CACHED
#define _PAGE_USER_BASE		(_PAGE_PRESENT | _PAGE_CACHE_DEFAULT)

#define PAGE_NONE		__pgprot(_PAGE_PROTNONE | _PAGE_CACHE_DEFAULT)
#define PAGE_SHARED		__pgprot(_PAGE_USER_BASE | _PAGE_WRITABLE)
#define PAGE_SHARED_EXEC	PAGE_SHARED
#define PAGE_READONLY		__pgprot(_PAGE_USER_BASE)
#define PAGE_READONLY_EXEC	PAGE_READONLY
/* Private writable mappings start read-only: the write fault copies. */
#define PAGE_COPY		PAGE_READONLY
#define PAGE_COPY_EXEC		PAGE_READONLY

/* Kernel pages are valid and writable from the start, and global. */
#define _PAGE_KERNEL_BASE	(_PAGE_PRESENT | _PAGE_WRITABLE | \
				 _PAGE_ACCESSED | _PAGE_MODIFIED | \
				 _PAGE_VALID | _PAGE_DIRTY | _PAGE_GLOBAL)
#define _PAGE_KERNEL		(_PAGE_KERNEL_BASE | _PAGE_CACHE_DEFAULT)
#define PAGE_KERNEL		__pgprot(_PAGE_KERNEL)
#define PAGE_KERNEL_EXEC	PAGE_KERNEL
#define PAGE_KERNEL_RO		__pgprot((_PAGE_KERNEL & ~(_PAGE_WRITABLE | _PAGE_DIRTY)))
#define PAGE_KERNEL_NOCACHE	__pgprot(_PAGE_KERNEL_BASE | _CACHE_UNCACHED)
#define _PAGE_IOREMAP		(_PAGE_KERNEL_BASE | _CACHE_UNCACHED)
/* ioremap_prot(): kernel memory with the caller's cache attribute. */
#define ioremap_kernel_prot(prot) \
	(_PAGE_KERNEL_BASE | ((prot) & _PAGE_CACHE_MASK))

/* What pte_modify() keeps: the frame, the state Linux tracks. */
#define _PFN_SHIFT		PAGE_SHIFT
#define _PFN_MASK		PAGE_MASK
#define _PAGE_CHG_MASK		(_PFN_MASK | _PAGE_ACCESSED | _PAGE_MODIFIED | \
				 _PAGE_SPECIAL)

#ifndef __ASSEMBLY__

#include <linux/mm_types.h>

extern pgd_t swapper_pg_dir[PTRS_PER_PGD];
/* Empty pgd entries point here (all PTEs zero): the refill needs no test. */
extern pte_t invalid_pte_table[PTRS_PER_PTE];

extern unsigned long empty_zero_page[PAGE_SIZE / sizeof(unsigned long)];
#define ZERO_PAGE(vaddr)	(virt_to_page(empty_zero_page))

#define pte_ERROR(e) \
	pr_err("%s:%d: bad pte %08lx.\n", __FILE__, __LINE__, pte_val(e))
#define pgd_ERROR(e) \
	pr_err("%s:%d: bad pgd %08lx.\n", __FILE__, __LINE__, pgd_val(e))

static inline void set_pte(pte_t *ptep, pte_t pte)
{
	WRITE_ONCE(*ptep, pte);
}

static inline void set_pte_at(struct mm_struct *mm, unsigned long addr,
			      pte_t *ptep, pte_t pte)
{
	set_pte(ptep, pte);
}

static inline void pte_clear(struct mm_struct *mm, unsigned long addr,
			     pte_t *ptep)
{
	set_pte(ptep, __pte(0));
}

#define pte_none(pte)		(!pte_val(pte))
/* A PROT_NONE page is present for Linux but never valid in the TLB. */
#define pte_present(pte)	(pte_val(pte) & (_PAGE_PRESENT | _PAGE_PROTNONE))
#define pte_pfn(pte)		(pte_val(pte) >> _PFN_SHIFT)
#define pte_page(pte)		pfn_to_page(pte_pfn(pte))
#define pte_pgprot(pte)		__pgprot(pte_val(pte) & ~_PFN_MASK)

static inline pte_t pfn_pte(unsigned long pfn, pgprot_t prot)
{
	return __pte((pfn << _PFN_SHIFT) | pgprot_val(prot));
}

#define mk_pte(page, prot)	pfn_pte(page_to_pfn(page), prot)

static inline int pte_write(pte_t pte)	{ return pte_val(pte) & _PAGE_WRITABLE; }
static inline int pte_dirty(pte_t pte)	{ return pte_val(pte) & _PAGE_MODIFIED; }
static inline int pte_young(pte_t pte)	{ return pte_val(pte) & _PAGE_ACCESSED; }
static inline int pte_special(pte_t pte) { return pte_val(pte) & _PAGE_SPECIAL; }

static inline pte_t pte_wrprotect(pte_t pte)
{
	return __pte(pte_val(pte) & ~(_PAGE_WRITABLE | _PAGE_DIRTY));
}

static inline pte_t pte_mkclean(pte_t pte)
{
	return __pte(pte_val(pte) & ~(_PAGE_MODIFIED | _PAGE_DIRTY));
}

static inline pte_t pte_mkold(pte_t pte)
{
	return __pte(pte_val(pte) & ~(_PAGE_ACCESSED | _PAGE_VALID | _PAGE_DIRTY));
}

/* The hardware bits that the software state allows (V, then D). */
static inline pte_t pte_mkhw(pte_t pte)
{
	unsigned long v = pte_val(pte);

	if ((v & (_PAGE_ACCESSED | _PAGE_PRESENT)) ==
	    (_PAGE_ACCESSED | _PAGE_PRESENT)) {
		v |= _PAGE_VALID;
		if ((v & (_PAGE_MODIFIED | _PAGE_WRITABLE)) ==
		    (_PAGE_MODIFIED | _PAGE_WRITABLE))
			v |= _PAGE_DIRTY;
	}
	return __pte(v);
}

static inline pte_t pte_mkwrite(pte_t pte)
{
	return pte_mkhw(__pte(pte_val(pte) | _PAGE_WRITABLE));
}

static inline pte_t pte_mkdirty(pte_t pte)
{
	return pte_mkhw(__pte(pte_val(pte) | _PAGE_MODIFIED));
}

static inline pte_t pte_mkyoung(pte_t pte)
{
	return pte_mkhw(__pte(pte_val(pte) | _PAGE_ACCESSED));
}

static inline pte_t pte_mkspecial(pte_t pte)
{
	return __pte(pte_val(pte) | _PAGE_SPECIAL);
}

static inline pte_t pte_modify(pte_t pte, pgprot_t newprot)
{
	return pte_mkhw(__pte((pte_val(pte) & _PAGE_CHG_MASK) |
			      (pgprot_val(newprot) & ~_PAGE_CHG_MASK)));
}

#define pgprot_noncached(prot) \
	__pgprot((pgprot_val(prot) & ~_PAGE_CACHE_MASK) | _CACHE_UNCACHED)
#define pgprot_writecombine	pgprot_noncached

/*
 * First-level entries, seen through the folded pmd: the kseg0 address of
 * a page of PTEs, or invalid_pte_table for none.
 */
#define pmd_none(pmd)		(pmd_val(pmd) == (unsigned long)invalid_pte_table)
#define pmd_present(pmd)	(!pmd_none(pmd))
#define pmd_bad(pmd)		(pmd_val(pmd) & ~PAGE_MASK)
#define pmd_leaf(pmd)		0

static inline unsigned long pmd_page_vaddr(pmd_t pmd)
{
	return pmd_val(pmd);
}

#define pmd_pfn(pmd)		virt_to_pfn(pmd_val(pmd))
#define pmd_page(pmd)		virt_to_page(pmd_val(pmd))
#define pmd_pgtable(pmd)	pmd_page(pmd)

static inline void set_pmd(pmd_t *pmdp, pmd_t pmd)
{
	WRITE_ONCE(*pmdp, pmd);
}

static inline void pmd_clear(pmd_t *pmdp)
{
	set_pmd(pmdp, __pmd((unsigned long)invalid_pte_table));
}

/*
 * Swap and migration entries: present, protnone, global and valid clear
 * (the refill handler copies any PTE into the TLB: this one must make an
 * invalid entry, and the fast paths of mm/tlbex.S need present). The
 * type (MAX_SWAPFILES_SHIFT bits) sits just above V, the offset above it
 * (19 bits: 2 GiB of swap per device).
 */
#define __SWP_TYPE_SHIFT	(__builtin_ctz(_PAGE_VALID) + 1)
#define __SWP_TYPE_BITS		5
#define __SWP_TYPE_MASK		((1UL << __SWP_TYPE_BITS) - 1)
#define __SWP_OFFSET_SHIFT	(__SWP_TYPE_SHIFT + __SWP_TYPE_BITS)
#define __swp_type(x)		(((x).val >> __SWP_TYPE_SHIFT) & __SWP_TYPE_MASK)
#define __swp_offset(x)		((x).val >> __SWP_OFFSET_SHIFT)
#define __swp_entry(type, offset) \
	((swp_entry_t) { (((type) & __SWP_TYPE_MASK) << __SWP_TYPE_SHIFT) | \
			 ((offset) << __SWP_OFFSET_SHIFT) })
#define __pte_to_swp_entry(pte)	((swp_entry_t) { pte_val(pte) })
#define __swp_entry_to_pte(x)	((pte_t) { (x).val })

/*
 * An anonymous page's exclusive state, kept in its swap PTE so swap-in
 * can map it writable again without a copy: a software bit below the
 * type that a non-present entry does not use otherwise.
 */
#define _PAGE_SWP_EXCLUSIVE	_PAGE_ACCESSED

#define __HAVE_ARCH_PTE_SWP_EXCLUSIVE
static inline int pte_swp_exclusive(pte_t pte)
{
	return pte_val(pte) & _PAGE_SWP_EXCLUSIVE;
}

static inline pte_t pte_swp_mkexclusive(pte_t pte)
{
	return __pte(pte_val(pte) | _PAGE_SWP_EXCLUSIVE);
}

static inline pte_t pte_swp_clear_exclusive(pte_t pte)
{
	return __pte(pte_val(pte) & ~_PAGE_SWP_EXCLUSIVE);
}

/* Loads the new translation into the TLB (mm/tlb.c). */
void update_mmu_cache(struct vm_area_struct *vma, unsigned long address,
		      pte_t *ptep);

#define kern_addr_valid(addr)	(1)

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_R4K_PGTABLE_H */
