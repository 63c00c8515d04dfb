/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/vdso/processor.h: edit
 * that file.
 */
#ifndef _ASM_MIPS32_VDSO_PROCESSOR_H
#define _ASM_MIPS32_VDSO_PROCESSOR_H

#ifndef __ASSEMBLY__

/* The seqcount retry loop of the vDSO: nothing to yield to. */
#ifndef cpu_relax
#define cpu_relax()	barrier()
#endif

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_MIPS32_VDSO_PROCESSOR_H */
