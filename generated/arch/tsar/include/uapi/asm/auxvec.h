/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Copied by portkit from overrides/mips32/include/uapi/asm/auxvec.h: edit that
 * file.
 */
#ifndef _UAPI_ASM_MIPS32_AUXVEC_H
#define _UAPI_ASM_MIPS32_AUXVEC_H

/*
 * The auxiliary vector's one arch entry: the address of the vDSO's ELF
 * header (the number every arch with a vDSO uses).
 */
#define AT_SYSINFO_EHDR		33

#define AT_VECTOR_SIZE_ARCH	1

#endif /* _UAPI_ASM_MIPS32_AUXVEC_H */
