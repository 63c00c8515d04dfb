/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_MIPS32_VDSO_CLOCKSOURCE_H
#define _ASM_MIPS32_VDSO_CLOCKSOURCE_H

/*
 * The one counter the vDSO reads: CP0 Count, through "rdhwr $2" (the CC
 * register, which HWREna lets user mode read).
 */
#define VDSO_ARCH_CLOCKMODES	\
	VDSO_CLOCKMODE_COUNT

#endif /* _ASM_MIPS32_VDSO_CLOCKSOURCE_H */
