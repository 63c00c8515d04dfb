/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/string.h: edit that
 * file.
 */
/*
 * Word-at-a-time string routines in assembly (arch/tsar/lib); the rest
 * come from lib/string.c.
 */
#ifndef _ASM_TSAR_STRING_H
#define _ASM_TSAR_STRING_H

#define __HAVE_ARCH_MEMCPY
extern void *memcpy(void *dst, const void *src, __kernel_size_t n);

#define __HAVE_ARCH_MEMMOVE
extern void *memmove(void *dst, const void *src, __kernel_size_t n);

#define __HAVE_ARCH_MEMSET
extern void *memset(void *s, int c, __kernel_size_t n);

#endif /* _ASM_TSAR_STRING_H */
