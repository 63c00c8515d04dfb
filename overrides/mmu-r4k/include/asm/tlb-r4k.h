/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TLB instructions and the small helpers the TLB code shares. The TLB's
 * geometry and field layout come from the generated <asm/mmu-tlb.h>.
 */
#ifndef _ASM_R4K_TLB_R4K_H
#define _ASM_R4K_TLB_R4K_H

#include <asm/cp0.h>
#include <asm/mem-layout.h>
#include <asm/mmu-tlb.h>
#include <asm/pgtable-bits.h>

/* An ASID as a number (the EntryHi field shifted down). */
#define ASID_FIELD_MAX		(ENTRYHI_ASID_MASK >> ENTRYHI_ASID_SHIFT)

/*
 * EntryHi values for invalidated entries: distinct pairs in kseg0,
 * which is never translated, so they can never match an access.
 */
#define UNIQUE_ENTRYHI(idx)	(UNMAPPED_CACHED_BASE + ((idx) << (PAGE_SHIFT + 1)))

#ifndef __ASSEMBLY__

/* The mtc0 before must have taken effect: ehb, then the TLB operation. */
static inline void tlb_probe(void)
{
	__asm__ __volatile__(".set push\n\t.set mips32r2\n\t"
			     "ehb\n\ttlbp\n\tehb\n\t.set pop" : : : "memory");
}

static inline void tlb_write_indexed(void)
{
	__asm__ __volatile__(".set push\n\t.set mips32r2\n\t"
			     "ehb\n\ttlbwi\n\tehb\n\t.set pop" : : : "memory");
}

static inline void tlb_write_random(void)
{
	__asm__ __volatile__(".set push\n\t.set mips32r2\n\t"
			     "ehb\n\ttlbwr\n\tehb\n\t.set pop" : : : "memory");
}

/* Clear the execution hazard of an mtc0 before the next use. */
static inline void mtc0_tlbw_hazard(void)
{
	__asm__ __volatile__(".set push\n\t.set mips32r2\n\t"
			     "ehb\n\t.set pop" : : : "memory");
}

/* The refill handler, at the refill vector (<asm/mmu-hooks.h>). */
extern char tlb_refill[], tlb_refill_end[];

void tlb_init(void);
bool tlb_reload_kernel(unsigned long address);

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_R4K_TLB_R4K_H */
