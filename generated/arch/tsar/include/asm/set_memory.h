/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mmu-cp2/include/asm/set_memory.h: edit that
 * file.
 */
/*
 * Changing the protection of kernel pages mapped with second-level
 * tables: vmalloc and module space, and the kernel image (mm/pageattr.c).
 */
#ifndef _ASM_TSAR_SET_MEMORY_H
#define _ASM_TSAR_SET_MEMORY_H

#include <asm-generic/set_memory.h>

#endif /* _ASM_TSAR_SET_MEMORY_H */
