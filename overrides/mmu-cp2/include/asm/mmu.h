/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_TSAR_MMU_H
#define _ASM_TSAR_MMU_H

/*
 * No address-space identifiers: switching PTPR drops the non-global
 * TLB entries, so a context needs no MMU state; it only remembers where
 * the signal-return page and the vDSO are mapped.
 */
typedef struct {
	unsigned long sigpage;
	unsigned long vdso;
} mm_context_t;

#endif /* _ASM_TSAR_MMU_H */
