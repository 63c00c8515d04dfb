/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/cmpxchg.h: edit that
 * file.
 */
/*
 * xchg and cmpxchg with ll/sc on 32-bit words. Any store to the word by
 * another CPU (or by DMA) clears the reservation, so sc fails and the
 * loop retries. These are the _relaxed forms; <linux/atomic.h> adds the
 * full barriers ("sync") around them for the ordered forms.
 */
#ifndef _ASM_TSAR_CMPXCHG_H
#define _ASM_TSAR_CMPXCHG_H

#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/types.h>

static inline unsigned long __xchg_u32(volatile u32 *p, unsigned long val)
{
	unsigned long old, tmp;

	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	noreorder\n"
		"1:	ll	%0, %2\n"
		"	move	%1, %3\n"
		"	sc	%1, %2\n"
		"	beqz	%1, 1b\n"
		"	 nop\n"
		"	.set	pop\n"
		: "=&r" (old), "=&r" (tmp), "+m" (*p)
		: "r" (val)
		: "memory");
	return old;
}

static inline unsigned long __cmpxchg_u32(volatile u32 *p, unsigned long old,
					  unsigned long new)
{
	unsigned long prev, tmp;

	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	noreorder\n"
		"1:	ll	%0, %2\n"
		"	bne	%0, %3, 2f\n"
		"	 move	%1, %4\n"
		"	sc	%1, %2\n"
		"	beqz	%1, 1b\n"
		"	 nop\n"
		"2:\n"
		"	.set	pop\n"
		: "=&r" (prev), "=&r" (tmp), "+m" (*p)
		: "r" (old), "r" (new)
		: "memory");
	return prev;
}

/*
 * Bytes and halfwords: ll/sc on the aligned word around them, replacing
 * only their bits (little-endian lane positions).
 */
static inline unsigned long __cmpxchg_small(volatile void *p, unsigned long old,
					    unsigned long new, int size)
{
	volatile u32 *wp = (volatile u32 *)((unsigned long)p & ~3UL);
	unsigned int shift = ((unsigned long)p & 3) * 8;
	u32 mask = (size == 1 ? 0xffU : 0xffffU) << shift;
	u32 w, cur;

	old = (old << shift) & mask;
	new = (new << shift) & mask;
	for (;;) {
		w = READ_ONCE(*wp);
		cur = w & mask;
		if (cur != old)
			return cur >> shift;
		if (__cmpxchg_u32(wp, w, (w & ~mask) | new) == w)
			return old >> shift;
	}
}

static inline unsigned long __xchg_small(volatile void *p, unsigned long val,
					 int size)
{
	volatile u32 *wp = (volatile u32 *)((unsigned long)p & ~3UL);
	unsigned int shift = ((unsigned long)p & 3) * 8;
	u32 mask = (size == 1 ? 0xffU : 0xffffU) << shift;
	u32 w;

	val = (val << shift) & mask;
	do {
		w = READ_ONCE(*wp);
	} while (__cmpxchg_u32(wp, w, (w & ~mask) | val) != w);
	return (w & mask) >> shift;
}

extern void __xchg_called_with_bad_size(void);
extern void __cmpxchg_called_with_bad_size(void);

static __always_inline unsigned long
__arch_xchg(volatile void *p, unsigned long val, int size)
{
	if (size == 4)
		return __xchg_u32(p, val);
	if (size == 1 || size == 2)
		return __xchg_small(p, val, size);
	__xchg_called_with_bad_size();
	return 0;
}

static __always_inline unsigned long
__arch_cmpxchg(volatile void *p, unsigned long old, unsigned long new, int size)
{
	if (size == 4)
		return __cmpxchg_u32(p, old, new);
	if (size == 1 || size == 2)
		return __cmpxchg_small(p, old, new, size);
	__cmpxchg_called_with_bad_size();
	return old;
}

#define arch_xchg_relaxed(ptr, x)					\
	((__typeof__(*(ptr)))__arch_xchg((ptr), (unsigned long)(x),	\
					 sizeof(*(ptr))))

#define arch_cmpxchg_relaxed(ptr, o, n)					\
	((__typeof__(*(ptr)))__arch_cmpxchg((ptr), (unsigned long)(o),	\
					    (unsigned long)(n),		\
					    sizeof(*(ptr))))

#define arch_cmpxchg_local(ptr, o, n)	arch_cmpxchg_relaxed((ptr), (o), (n))

#include <asm-generic/cmpxchg-local.h>
#define arch_cmpxchg64_local(ptr, o, n)	__generic_cmpxchg64_local((ptr), (o), (n))

#endif /* _ASM_TSAR_CMPXCHG_H */
