/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mmu_gather: the TLB flushes are empty (asm/tlbflush.h); with SMP the
 * second-level tables are freed through RCU (MMU_GATHER_RCU_TABLE_FREE,
 * see __pte_free_tlb in asm/pgalloc.h), this is their final free.
 */
#ifndef _ASM_TSAR_TLB_H
#define _ASM_TSAR_TLB_H

#include <asm-generic/tlb.h>
#include <asm/pgalloc.h>

#ifdef CONFIG_MMU_GATHER_RCU_TABLE_FREE
static inline void __tlb_remove_table(void *table)
{
	pte_free(NULL, table);
}
#endif

#endif /* _ASM_TSAR_TLB_H */
