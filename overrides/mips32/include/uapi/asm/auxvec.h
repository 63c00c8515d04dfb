/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
#ifndef _UAPI_ASM_MIPS32_AUXVEC_H
#define _UAPI_ASM_MIPS32_AUXVEC_H

/*
 * The auxiliary vector's one arch entry: AT_SYSINFO_EHDR, the address of
 * the vDSO's ELF header.
 */
#define AT_VECTOR_SIZE_ARCH	1

#endif /* _UAPI_ASM_MIPS32_AUXVEC_H */
