// SPDX-License-Identifier: GPL-2.0
/*
 * The software-managed TLB: initialisation, ASID allocation with
 * generation roll-over, the flush routines and update_mmu_cache().
 *
 * Invalidation writes an entry with EntryLo0/1 zero and a unique EntryHi
 * in kseg0 (UNIQUE_ENTRYHI), which no access can ever match since kseg0
 * is not translated, and which never duplicates another entry's VPN2.
 * Everything here runs with interrupts off: the refill handler and the
 * TLB exception fast paths use EntryHi, EntryLo and Index too.
 */

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/seq_file.h>

#include <asm/mmu_context.h>
#include <asm/pgtable.h>
#include <asm/tlb-r4k.h>
#include <asm/tlbflush.h>

/* The pgd the refill handler walks for user addresses (one CPU). */
unsigned long pgd_current = (unsigned long)swapper_pg_dir;

/*
 * ASIDs in use: asid_mask covers the ASID bits (all of EntryHi.ASID, or
 * fewer with r4k_asid_bits=, to exercise roll-over), the generation
 * counts above them. Generation 0 is never current: a new mm's asid 0
 * is always stale.
 */
unsigned long asid_mask = ASID_FIELD_MAX;
unsigned long asid_cache;

static struct {
	unsigned long rollovers;	/* ASID generations started */
	unsigned long asids;		/* ASIDs handed out */
	unsigned long flush_all;	/* whole-TLB flushes */
	unsigned long flush_pages;	/* pairs probed by range/page flushes */
	unsigned long preloads;		/* update_mmu_cache() writes */
} tlb_stats;

static int __init asid_bits_setup(char *arg)
{
	unsigned int bits;

	if (kstrtouint(arg, 0, &bits) || bits < 1 || bits > ASID_BITS)
		return -EINVAL;
	asid_mask = (1UL << bits) - 1;
	return 0;
}
early_param("r4k_asid_bits", asid_bits_setup);

static inline unsigned long entryhi_asid(unsigned long asid)
{
	return (asid & asid_mask) << ENTRYHI_ASID_SHIFT;
}

/* Invalidate entries first..TLB_ENTRIES-1. Interrupts off. */
static void tlb_invalidate_from(unsigned int first)
{
	unsigned long old_entryhi = read_c0_entryhi();
	unsigned int i;

	write_c0_entrylo0(0);
	write_c0_entrylo1(0);
	for (i = first; i < TLB_ENTRIES; i++) {
		write_c0_index(i);
		write_c0_entryhi(UNIQUE_ENTRYHI(i));
		tlb_write_indexed();
	}
	write_c0_entryhi(old_entryhi);
	mtc0_tlbw_hazard();
}

void local_flush_tlb_all(void)
{
	unsigned long flags;

	local_irq_save(flags);
	tlb_stats.flush_all++;
	tlb_invalidate_from(read_c0_wired());
	local_irq_restore(flags);
}

/*
 * Give mm the next ASID. When the ASID bits wrap, a new generation
 * starts: the TLB may hold entries of every ASID of the old one, so it
 * is flushed, and every other mm's ASID becomes stale. Interrupts off.
 */
void get_new_mmu_context(struct mm_struct *mm)
{
	unsigned long asid = asid_cache + 1;

	if (!(asid & asid_mask)) {
		tlb_stats.rollovers++;
		tlb_stats.flush_all++;
		tlb_invalidate_from(read_c0_wired());
		/* The 32-bit counter wrapped: skip generation 0. */
		if (!asid)
			asid = asid_mask + 1;
	}
	tlb_stats.asids++;
	mm->context.asid = asid_cache = asid;
}

/* Make all of mm's TLB entries unreachable by retiring its ASID. */
void local_flush_tlb_mm(struct mm_struct *mm)
{
	unsigned long flags;

	local_irq_save(flags);
	if (!asid_is_stale(mm)) {
		if (mm == current->active_mm) {
			get_new_mmu_context(mm);
			write_c0_entryhi(entryhi_asid(mm->context.asid));
			mtc0_tlbw_hazard();
		} else {
			mm->context.asid = 0;
		}
	}
	local_irq_restore(flags);
}

/*
 * Invalidate the pairs covering [start, end) tagged with entryhi_asid
 * (global entries match any ASID). Interrupts off.
 */
static void tlb_invalidate_pairs(unsigned long start, unsigned long end,
				 unsigned long asid_bits)
{
	unsigned long old_entryhi = read_c0_entryhi();
	unsigned long pairs;
	long idx;

	start &= ENTRYHI_VPN2_MASK;
	/* end may be 0: the range reaches the top of the address space. */
	pairs = ((end - 1 - start) >> (PAGE_SHIFT + 1)) + 1;
	for (; pairs; pairs--, start += 2 * PAGE_SIZE) {
		tlb_stats.flush_pages++;
		write_c0_entryhi(start | asid_bits);
		tlb_probe();
		idx = read_c0_index();
		if (idx < 0)
			continue;
		write_c0_entrylo0(0);
		write_c0_entrylo1(0);
		write_c0_entryhi(UNIQUE_ENTRYHI(idx));
		tlb_write_indexed();
	}
	write_c0_entryhi(old_entryhi);
	mtc0_tlbw_hazard();
}

/* Probing pays while the range is smaller than the TLB. */
static bool range_is_small(unsigned long start, unsigned long end)
{
	return (end - 1 - start) / (2 * PAGE_SIZE) < TLB_ENTRIES;
}

void local_flush_tlb_range(struct vm_area_struct *vma, unsigned long start,
			   unsigned long end)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long flags;

	if (asid_is_stale(mm))
		return;		/* nothing of mm's can be in the TLB */
	if (!range_is_small(start, end)) {
		local_flush_tlb_mm(mm);
		return;
	}
	local_irq_save(flags);
	tlb_invalidate_pairs(start, end, entryhi_asid(mm->context.asid));
	local_irq_restore(flags);
}

void local_flush_tlb_page(struct vm_area_struct *vma, unsigned long page)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long flags;

	if (asid_is_stale(mm))
		return;
	local_irq_save(flags);
	tlb_invalidate_pairs(page, page + PAGE_SIZE,
			     entryhi_asid(mm->context.asid));
	local_irq_restore(flags);
}

/* Kernel (kseg2) entries are global: any ASID finds them. */
void local_flush_tlb_kernel_range(unsigned long start, unsigned long end)
{
	unsigned long flags;

	if (!range_is_small(start, end)) {
		local_flush_tlb_all();
		return;
	}
	local_irq_save(flags);
	tlb_invalidate_pairs(start, end, 0);
	local_irq_restore(flags);
}

/*
 * Write the pair of PTEs holding ptep into the TLB for address, over the
 * entry that maps it if there is one. Interrupts off.
 */
static void tlb_write_pair(unsigned long address, unsigned long asid_bits,
			   pte_t *ptep, unsigned long extra)
{
	pte_t *pair = (pte_t *)((unsigned long)ptep & ~(2 * sizeof(pte_t) - 1));
	unsigned long old_entryhi = read_c0_entryhi();

	write_c0_entryhi((address & ENTRYHI_VPN2_MASK) | asid_bits);
	tlb_probe();
	write_c0_entrylo0((pte_val(pair[0]) >> PTE_TO_ENTRYLO_SHIFT) | extra);
	write_c0_entrylo1((pte_val(pair[1]) >> PTE_TO_ENTRYLO_SHIFT) | extra);
	if ((long)read_c0_index() < 0)
		tlb_write_random();
	else
		tlb_write_indexed();
	write_c0_entryhi(old_entryhi);
	mtc0_tlbw_hazard();
}

/*
 * After a fault made a PTE usable, load it into the TLB right away: the
 * faulting access, retried, then hits instead of taking a refill and
 * (for a page just made valid) no second exception.
 */
void update_mmu_cache(struct vm_area_struct *vma, unsigned long address,
		      pte_t *ptep)
{
	struct mm_struct *mm = vma->vm_mm;
	unsigned long flags;

	if (mm != current->active_mm || asid_is_stale(mm))
		return;
	local_irq_save(flags);
	tlb_stats.preloads++;
	tlb_write_pair(address, entryhi_asid(mm->context.asid), ptep, 0);
	local_irq_restore(flags);
}

/*
 * A kseg2 access hit an entry loaded while its page was not yet mapped
 * (vmalloc maps without flushing): reload it from swapper_pg_dir.
 * Returns false if the page is not mapped there either.
 */
bool tlb_reload_kernel(unsigned long address)
{
	pmd_t *pmd = pmd_off_k(address);
	unsigned long flags;
	pte_t *ptep;

	if (pmd_none(*pmd) || pmd_bad(*pmd))
		return false;
	ptep = pte_offset_kernel(pmd, address);
	if (!(pte_val(*ptep) & _PAGE_VALID))
		return false;
	local_irq_save(flags);
	tlb_write_pair(address, 0, ptep, ENTRYLO_G);
	local_irq_restore(flags);
	return true;
}

/*
 * The TLB at boot: 4 KiB pages, no wired entries, every entry invalid,
 * ASID 0 of the first generation for the kernel.
 */
void __init tlb_init(void)
{
	unsigned int mmu_size = ((read_c0_config1() >> 25) & 0x3f) + 1;

	write_c0_pagemask(PM_DEFAULT);
	write_c0_wired(0);
	write_c0_entryhi(0);
	mtc0_tlbw_hazard();
	tlb_invalidate_from(0);
	asid_cache = asid_mask + 1;
	init_mm.context.asid = asid_cache;
	pgd_current = (unsigned long)swapper_pg_dir;
	if (mmu_size != TLB_ENTRIES)
		pr_warn("TLB: Config1 says %u entries, the spec %u\n",
			mmu_size, TLB_ENTRIES);
}

/* After the command line: r4k_asid_bits= may have narrowed the ASIDs. */
static int __init tlb_report(void)
{
	pr_info("TLB: %u entries, %u-bit ASIDs (%lu in use), refill handler %u bytes\n",
		TLB_ENTRIES, ASID_BITS, asid_mask + 1,
		(unsigned int)(tlb_refill_end - tlb_refill));
	return 0;
}
early_initcall(tlb_report);

#ifdef CONFIG_DEBUG_FS
static int tlb_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "entries %u\n", TLB_ENTRIES);
	seq_printf(m, "asids_per_generation %lu\n", asid_mask + 1);
	seq_printf(m, "asid_generation %lu\n", asid_cache / (asid_mask + 1));
	seq_printf(m, "asid_rollovers %lu\n", tlb_stats.rollovers);
	seq_printf(m, "asids_allocated %lu\n", tlb_stats.asids);
	seq_printf(m, "flush_all %lu\n", tlb_stats.flush_all);
	seq_printf(m, "flush_pairs_probed %lu\n", tlb_stats.flush_pages);
	seq_printf(m, "preloads %lu\n", tlb_stats.preloads);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(tlb_stats);

static int __init tlb_debugfs_init(void)
{
	debugfs_create_file("r4k_tlb", 0444, NULL, NULL, &tlb_stats_fops);
	return 0;
}
late_initcall(tlb_debugfs_init);
#endif
