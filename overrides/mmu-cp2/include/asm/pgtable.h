/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TSAR page tables, as the CP2 hardware walker reads them:
 * a first-level table (the pgd) of PTD1 or big-page PTE1 words, and
 * second-level tables of two-word PTE2s (flag word, page-number word).
 * The constants come from the generated asm/pgtable-bits.h.
 */
#ifndef _ASM_TSAR_PGTABLE_H
#define _ASM_TSAR_PGTABLE_H

#include <asm/mem-layout.h>
#include <asm/pgtable-bits.h>
#include <asm/page.h>
#include <asm-generic/pgtable-nopmd.h>

#define MAX_POSSIBLE_PHYSMEM_BITS	PHYS_ADDR_BITS

#define FIRST_USER_ADDRESS	0UL
#define USER_PTRS_PER_PGD	(TASK_SIZE / PGDIR_SIZE)

/*
 * vmalloc lives above the linear map, after a guard gap, and ends two
 * pages below the fixmap. The fixmap's second-level table covers the
 * last big-page region, so vmalloc stops at that region's start.
 */
#define VMALLOC_START	(((unsigned long)high_memory + VMALLOC_OFFSET) & \
			 ~(VMALLOC_OFFSET - 1))
#define VMALLOC_END	((FIXADDR_TOP & PGDIR_MASK) - 2 * PAGE_SIZE)

/* Protections. Hardware-set bits (L, R, D) are never requested here. */
#define _PAGE_BASE	(_PAGE_PRESENT | _PAGE_ACCESSED | _PAGE_CACHEABLE)
#define _PAGE_KERNEL	(_PAGE_BASE | _PAGE_GLOBAL | _PAGE_DIRTY | \
			 _PAGE_WRITABLE)

#define PAGE_NONE	__pgprot(_PAGE_PROTNONE | _PAGE_ACCESSED)
#define PAGE_SHARED	__pgprot(_PAGE_BASE | _PAGE_USER | _PAGE_WRITABLE)
#define PAGE_SHARED_EXEC __pgprot(_PAGE_BASE | _PAGE_USER | _PAGE_WRITABLE | \
				  _PAGE_EXECUTABLE)
#define PAGE_READONLY	__pgprot(_PAGE_BASE | _PAGE_USER)
#define PAGE_READONLY_EXEC __pgprot(_PAGE_BASE | _PAGE_USER | _PAGE_EXECUTABLE)
/* Private writable mappings start read-only: the write fault copies. */
#define PAGE_COPY	PAGE_READONLY
#define PAGE_COPY_EXEC	PAGE_READONLY_EXEC

#define PAGE_KERNEL		__pgprot(_PAGE_KERNEL)
#define PAGE_KERNEL_EXEC	__pgprot(_PAGE_KERNEL | _PAGE_EXECUTABLE)
#define PAGE_KERNEL_RO		__pgprot(_PAGE_BASE | _PAGE_GLOBAL)
#define PAGE_KERNEL_NOCACHE	__pgprot(_PAGE_KERNEL & ~_PAGE_CACHEABLE)
#define _PAGE_IOREMAP		(_PAGE_KERNEL & ~_PAGE_CACHEABLE)
/* ioremap_prot(): kernel memory (no _PAGE_USER) with the caller's caching. */
#define ioremap_kernel_prot(prot) \
	(_PAGE_IOREMAP | ((prot) & _PAGE_CACHEABLE))

/* Bits pte_modify() keeps: what the hardware and the kernel track. */
#define _PAGE_CHG_MASK	(_PAGE_ACCESSED | _PAGE_LOCAL | _PAGE_REMOTE | \
			 _PAGE_DIRTY | _PAGE_SPECIAL)
/* The walker's L/R bits say the page was used, like _PAGE_ACCESSED. */
#define _PAGE_YOUNG	(_PAGE_ACCESSED | _PAGE_LOCAL | _PAGE_REMOTE)

#ifndef __ASSEMBLY__

#include <linux/mm_types.h>
#include <asm/cmpxchg.h>

extern pgd_t swapper_pg_dir[PTRS_PER_PGD];

extern unsigned long empty_zero_page[PAGE_SIZE / sizeof(unsigned long)];
#define ZERO_PAGE(vaddr)	(virt_to_page(empty_zero_page))

#define pte_ERROR(e) \
	pr_err("%s:%d: bad pte %016llx.\n", __FILE__, __LINE__, pte_val(e))
#define pgd_ERROR(e) \
	pr_err("%s:%d: bad pgd %08lx.\n", __FILE__, __LINE__, pgd_val(e))

/*
 * Second-level entries. The walker may set L and D in the flag word at
 * any time, so the page number is written first and the flag word
 * (which holds V) last, and cleared in the opposite order.
 */
static inline void set_pte(pte_t *ptep, pte_t pte)
{
	WRITE_ONCE(ptep->pte_ppn, pte.pte_ppn);
	smp_wmb();
	WRITE_ONCE(ptep->pte_flags, pte.pte_flags);
}

static inline void set_pte_at(struct mm_struct *mm, unsigned long addr,
			      pte_t *ptep, pte_t pte)
{
	set_pte(ptep, pte);
}

static inline void pte_clear(struct mm_struct *mm, unsigned long addr,
			     pte_t *ptep)
{
	WRITE_ONCE(ptep->pte_flags, 0);
	smp_wmb();
	WRITE_ONCE(ptep->pte_ppn, 0);
}

#define __HAVE_ARCH_PTEP_GET
static inline pte_t ptep_get(pte_t *ptep)
{
	pte_t pte;

	pte.pte_flags = READ_ONCE(ptep->pte_flags);
	pte.pte_ppn = READ_ONCE(ptep->pte_ppn);
	return pte;
}

/*
 * Read-modify-write of a live PTE. The walker of any CPU may set L (on a
 * TLB refill) or D (on the first store through the entry) in the flag
 * word at any time, with an atomic update of its own, while the kernel
 * holds the page-table lock; a plain load/modify/store could undo it
 * (losing a dirty bit means losing data). So the kernel's updates of
 * present entries go through ll/sc on the flag word too. Returns the old
 * flags.
 */
static inline u32 pte_flags_update(pte_t *ptep, u32 clear, u32 set)
{
	u32 old, new;

	do {
		old = READ_ONCE(ptep->pte_flags);
		new = (old & ~clear) | set;
	} while (arch_cmpxchg_relaxed(&ptep->pte_flags, old, new) != old);
	return old;
}

#define __HAVE_ARCH_PTEP_GET_AND_CLEAR
static inline pte_t ptep_get_and_clear(struct mm_struct *mm,
				       unsigned long addr, pte_t *ptep)
{
	pte_t pte;

	/* V goes first, with whatever L/D the walkers had set by then. */
	pte.pte_flags = arch_xchg_relaxed(&ptep->pte_flags, 0);
	smp_mb();
	pte.pte_ppn = READ_ONCE(ptep->pte_ppn);
	WRITE_ONCE(ptep->pte_ppn, 0);
	return pte;
}

#define __HAVE_ARCH_PTEP_SET_WRPROTECT
static inline void ptep_set_wrprotect(struct mm_struct *mm,
				      unsigned long addr, pte_t *ptep)
{
	pte_flags_update(ptep, _PAGE_WRITABLE, 0);
}

#define __HAVE_ARCH_PTEP_TEST_AND_CLEAR_YOUNG
static inline int ptep_test_and_clear_young(struct vm_area_struct *vma,
					    unsigned long addr, pte_t *ptep)
{
	if (!(READ_ONCE(ptep->pte_flags) & _PAGE_YOUNG))
		return 0;
	return !!(pte_flags_update(ptep, _PAGE_YOUNG, 0) & _PAGE_YOUNG);
}

/*
 * The fault path only adds access rights here (young, dirty, writable):
 * add the missing ones, keeping what the walkers set meanwhile.
 */
#define __HAVE_ARCH_PTEP_SET_ACCESS_FLAGS
static inline int ptep_set_access_flags(struct vm_area_struct *vma,
					unsigned long addr, pte_t *ptep,
					pte_t entry, int dirty)
{
	u32 set = entry.pte_flags & ~READ_ONCE(ptep->pte_flags);

	if (!set)
		return 0;
	pte_flags_update(ptep, 0, set);
	return 1;
}

#define pte_none(pte)		(!(pte).pte_flags && !(pte).pte_ppn)
/* A PROT_NONE page is present for Linux but invalid for the walker. */
#define pte_present(pte)	((pte).pte_flags & (_PAGE_PRESENT | _PAGE_PROTNONE))
#define pte_pfn(pte)		(((pte).pte_ppn & PTE2_PPN_MASK) >> PTE2_PPN_SHIFT)
#define pte_page(pte)		pfn_to_page(pte_pfn(pte))
#define pte_pgprot(pte)		__pgprot((pte).pte_flags)

#define pte_same(a, b)		((a).pte_flags == (b).pte_flags && \
				 (a).pte_ppn == (b).pte_ppn)
#define __HAVE_ARCH_PTE_SAME

static inline pte_t pfn_pte(unsigned long pfn, pgprot_t prot)
{
	pte_t pte;

	pte.pte_flags = pgprot_val(prot);
	pte.pte_ppn = (pfn << PTE2_PPN_SHIFT) & PTE2_PPN_MASK;
	return pte;
}

#define mk_pte(page, prot)	pfn_pte(page_to_pfn(page), prot)

static inline int pte_write(pte_t pte)	{ return pte.pte_flags & _PAGE_WRITABLE; }
static inline int pte_dirty(pte_t pte)	{ return pte.pte_flags & _PAGE_DIRTY; }
static inline int pte_young(pte_t pte)	{ return pte.pte_flags & _PAGE_YOUNG; }
static inline int pte_exec(pte_t pte)	{ return pte.pte_flags & _PAGE_EXECUTABLE; }
static inline int pte_special(pte_t pte) { return pte.pte_flags & _PAGE_SPECIAL; }

#define PTE_FLAGS_OP(name, op)						\
static inline pte_t name(pte_t pte)					\
{									\
	pte.pte_flags op;						\
	return pte;							\
}

PTE_FLAGS_OP(pte_wrprotect, &= ~_PAGE_WRITABLE)
PTE_FLAGS_OP(pte_mkwrite, |= _PAGE_WRITABLE)
PTE_FLAGS_OP(pte_mkclean, &= ~_PAGE_DIRTY)
PTE_FLAGS_OP(pte_mkdirty, |= _PAGE_DIRTY)
PTE_FLAGS_OP(pte_mkold, &= ~_PAGE_YOUNG)
PTE_FLAGS_OP(pte_mkyoung, |= _PAGE_ACCESSED)
PTE_FLAGS_OP(pte_mkexec, |= _PAGE_EXECUTABLE)
PTE_FLAGS_OP(pte_exprotect, &= ~_PAGE_EXECUTABLE)
PTE_FLAGS_OP(pte_mkspecial, |= _PAGE_SPECIAL)

static inline pte_t pte_modify(pte_t pte, pgprot_t newprot)
{
	pte.pte_flags = (pte.pte_flags & _PAGE_CHG_MASK) |
			(pgprot_val(newprot) & ~_PAGE_CHG_MASK);
	return pte;
}

#define pgprot_noncached(prot) \
	__pgprot(pgprot_val(prot) & ~_PAGE_CACHEABLE)
#define pgprot_writecombine	pgprot_noncached

/*
 * First-level entries seen through the folded pmd: a PTD (V|T) points to
 * a second-level table, V without T is a kernel big page.
 */
#define _PMD_TABLE	(_PAGE_PRESENT | _PAGE_PTD)

#define pmd_none(pmd)		(!pmd_val(pmd))
#define pmd_present(pmd)	(pmd_val(pmd) & _PAGE_PRESENT)
#define pmd_leaf(pmd)		((pmd_val(pmd) & _PMD_TABLE) == _PAGE_PRESENT)
/* As on other arches, anything but a table pointer is "bad", leaves too. */
#define pmd_bad(pmd)		((pmd_val(pmd) & _PMD_TABLE) != _PMD_TABLE)

/*
 * A PTD holds the page number of its table in PTPN; a big page holds
 * PA >> PGDIR_SHIFT in PPN1, below its flag bits.
 */
static inline unsigned long pmd_pfn(pmd_t pmd)
{
	if (pmd_leaf(pmd))
		return ((pmd_val(pmd) & PTE1_PPN_MASK) >> PTE1_PPN_SHIFT) <<
		       (PGDIR_SHIFT - PAGE_SHIFT);
	return (pmd_val(pmd) & PTD1_PTPN_MASK) >> PTD1_PTPN_SHIFT;
}
#define pmd_page(pmd)		pfn_to_page(pmd_pfn(pmd))
#define pmd_pgtable(pmd)	pmd_page(pmd)

static inline unsigned long pmd_page_vaddr(pmd_t pmd)
{
	return (unsigned long)pfn_to_virt(pmd_pfn(pmd));
}

static inline void set_pmd(pmd_t *pmdp, pmd_t pmd)
{
	WRITE_ONCE(*pmdp, pmd);
}

static inline void pmd_clear(pmd_t *pmdp)
{
	set_pmd(pmdp, __pmd(0));
}

#define __pmd_table(pfn)	__pmd(_PMD_TABLE | ((pfn) << PTD1_PTPN_SHIFT))

/*
 * Swap and migration entries live in non-present PTEs: the flag word
 * holds _PAGE_SWAP (V and PROTNONE clear: the walker raises PT2_UNMAPPED
 * and reads nothing else), the page-number word holds the whole entry:
 * the type in the low 5 bits (MAX_SWAPFILES_SHIFT), the offset in the
 * 27 above it (512 GiB of swap per device).
 */
#define __SWP_TYPE_BITS		5
#define __SWP_TYPE_MASK		((1UL << __SWP_TYPE_BITS) - 1)
#define __swp_type(x)		((x).val & __SWP_TYPE_MASK)
#define __swp_offset(x)		((x).val >> __SWP_TYPE_BITS)
#define __swp_entry(type, offset) \
	((swp_entry_t) { ((type) & __SWP_TYPE_MASK) | ((offset) << __SWP_TYPE_BITS) })
#define __pte_to_swp_entry(pte)	((swp_entry_t) { (pte).pte_ppn })
#define __swp_entry_to_pte(x)	((pte_t) { .pte_flags = _PAGE_SWAP, .pte_ppn = (x).val })

/*
 * An anonymous page's exclusive state, kept in its swap PTE so swap-in
 * can map it writable again without a copy. The accessed bit means
 * nothing in a non-present entry and the walker never looks at it.
 */
#define _PAGE_SWP_EXCLUSIVE	_PAGE_ACCESSED

#define __HAVE_ARCH_PTE_SWP_EXCLUSIVE
static inline int pte_swp_exclusive(pte_t pte)
{
	return pte.pte_flags & _PAGE_SWP_EXCLUSIVE;
}

PTE_FLAGS_OP(pte_swp_mkexclusive, |= _PAGE_SWP_EXCLUSIVE)
PTE_FLAGS_OP(pte_swp_clear_exclusive, &= ~_PAGE_SWP_EXCLUSIVE)

/* The MMU is coherent with page-table stores: nothing to do here. */
static inline void update_mmu_cache(struct vm_area_struct *vma,
				    unsigned long address, pte_t *ptep)
{
}

#define kern_addr_valid(addr)	(1)

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_TSAR_PGTABLE_H */
