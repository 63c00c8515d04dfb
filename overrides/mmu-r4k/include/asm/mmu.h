/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_R4K_MMU_H
#define _ASM_R4K_MMU_H

/*
 * asid: the address space's ASID in the low bits, the generation it was
 * handed out in above them (0: none yet); see asm/mmu_context.h.
 * sigpage: where the signal-return page is mapped.
 * vdso: where the vDSO image is mapped (AT_SYSINFO_EHDR).
 */
typedef struct {
	unsigned long asid;
	unsigned long sigpage;
	unsigned long vdso;
} mm_context_t;

#endif /* _ASM_R4K_MMU_H */
