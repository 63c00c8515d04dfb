/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Copied by portkit from overrides/mips32/include/uapi/asm/perf_regs.h: edit
 * that file.
 */
/*
 * Register numbers of perf's PERF_SAMPLE_REGS_USER / _INTR masks: the PC,
 * then general registers $1-$31 by number ($0 is always zero). The same
 * numbering as stock MIPS, so perf and other tools read samples unchanged.
 */
#ifndef _UAPI_ASM_PERF_REGS_H
#define _UAPI_ASM_PERF_REGS_H

enum perf_event_mips_regs {
	PERF_REG_MIPS_PC,
	PERF_REG_MIPS_R1,
	PERF_REG_MIPS_R2,
	PERF_REG_MIPS_R3,
	PERF_REG_MIPS_R4,
	PERF_REG_MIPS_R5,
	PERF_REG_MIPS_R6,
	PERF_REG_MIPS_R7,
	PERF_REG_MIPS_R8,
	PERF_REG_MIPS_R9,
	PERF_REG_MIPS_R10,
	PERF_REG_MIPS_R11,
	PERF_REG_MIPS_R12,
	PERF_REG_MIPS_R13,
	PERF_REG_MIPS_R14,
	PERF_REG_MIPS_R15,
	PERF_REG_MIPS_R16,
	PERF_REG_MIPS_R17,
	PERF_REG_MIPS_R18,
	PERF_REG_MIPS_R19,
	PERF_REG_MIPS_R20,
	PERF_REG_MIPS_R21,
	PERF_REG_MIPS_R22,
	PERF_REG_MIPS_R23,
	PERF_REG_MIPS_R24,
	PERF_REG_MIPS_R25,
	PERF_REG_MIPS_R26,
	PERF_REG_MIPS_R27,
	PERF_REG_MIPS_R28,
	PERF_REG_MIPS_R29,
	PERF_REG_MIPS_R30,
	PERF_REG_MIPS_R31,
	PERF_REG_MIPS_MAX,
};

#endif /* _UAPI_ASM_PERF_REGS_H */
