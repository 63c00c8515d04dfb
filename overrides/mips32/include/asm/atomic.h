/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 32-bit atomics with ll/sc. Only the relaxed forms are written here;
 * <linux/atomic.h> builds the fully ordered ones by putting
 * smp_mb__before_atomic()/smp_mb__after_atomic() ("sync") around them.
 * 64-bit atomics are the generic spinlock-based ones (GENERIC_ATOMIC64).
 */
#ifndef _ASM_TSAR_ATOMIC_H
#define _ASM_TSAR_ATOMIC_H

#include <linux/types.h>
#include <asm/barrier.h>
#include <asm/cmpxchg.h>

#define arch_atomic_read(v)	READ_ONCE((v)->counter)
#define arch_atomic_set(v, i)	WRITE_ONCE((v)->counter, (i))

#define ATOMIC_OP(op, asm_op)						\
static inline void arch_atomic_##op(int i, atomic_t *v)		\
{									\
	int tmp;							\
									\
	__asm__ __volatile__(						\
		"	.set	push\n"					\
		"	.set	noreorder\n"				\
		"1:	ll	%0, %1\n"				\
		"	" #asm_op "	%0, %0, %2\n"			\
		"	sc	%0, %1\n"				\
		"	beqz	%0, 1b\n"				\
		"	 nop\n"						\
		"	.set	pop\n"					\
		: "=&r" (tmp), "+m" (v->counter)			\
		: "r" (i));						\
}

#define ATOMIC_OP_RETURN(op, asm_op)					\
static inline int arch_atomic_##op##_return_relaxed(int i, atomic_t *v) \
{									\
	int res, tmp;							\
									\
	__asm__ __volatile__(						\
		"	.set	push\n"					\
		"	.set	noreorder\n"				\
		"1:	ll	%1, %2\n"				\
		"	" #asm_op "	%0, %1, %3\n"			\
		"	move	%1, %0\n"				\
		"	sc	%1, %2\n"				\
		"	beqz	%1, 1b\n"				\
		"	 nop\n"						\
		"	.set	pop\n"					\
		: "=&r" (res), "=&r" (tmp), "+m" (v->counter)		\
		: "r" (i));						\
	return res;							\
}

#define ATOMIC_FETCH_OP(op, asm_op)					\
static inline int arch_atomic_fetch_##op##_relaxed(int i, atomic_t *v)	\
{									\
	int old, tmp;							\
									\
	__asm__ __volatile__(						\
		"	.set	push\n"					\
		"	.set	noreorder\n"				\
		"1:	ll	%0, %2\n"				\
		"	" #asm_op "	%1, %0, %3\n"			\
		"	sc	%1, %2\n"				\
		"	beqz	%1, 1b\n"				\
		"	 nop\n"						\
		"	.set	pop\n"					\
		: "=&r" (old), "=&r" (tmp), "+m" (v->counter)		\
		: "r" (i));						\
	return old;							\
}

#define ATOMIC_OPS(op, asm_op)						\
	ATOMIC_OP(op, asm_op)						\
	ATOMIC_OP_RETURN(op, asm_op)					\
	ATOMIC_FETCH_OP(op, asm_op)

ATOMIC_OPS(add, addu)
ATOMIC_OPS(sub, subu)

#undef ATOMIC_OPS
#define ATOMIC_OPS(op, asm_op)						\
	ATOMIC_OP(op, asm_op)						\
	ATOMIC_FETCH_OP(op, asm_op)

ATOMIC_OPS(and, and)
ATOMIC_OPS(or, or)
ATOMIC_OPS(xor, xor)

#undef ATOMIC_OPS
#undef ATOMIC_FETCH_OP
#undef ATOMIC_OP_RETURN
#undef ATOMIC_OP

#define arch_atomic_add_return_relaxed	arch_atomic_add_return_relaxed
#define arch_atomic_sub_return_relaxed	arch_atomic_sub_return_relaxed
#define arch_atomic_fetch_add_relaxed	arch_atomic_fetch_add_relaxed
#define arch_atomic_fetch_sub_relaxed	arch_atomic_fetch_sub_relaxed
#define arch_atomic_fetch_and_relaxed	arch_atomic_fetch_and_relaxed
#define arch_atomic_fetch_or_relaxed	arch_atomic_fetch_or_relaxed
#define arch_atomic_fetch_xor_relaxed	arch_atomic_fetch_xor_relaxed

#define arch_atomic_xchg_relaxed(v, n)	arch_xchg_relaxed(&(v)->counter, (n))
#define arch_atomic_cmpxchg_relaxed(v, o, n) \
	arch_cmpxchg_relaxed(&(v)->counter, (o), (n))

#include <asm-generic/atomic64.h>

#endif /* _ASM_TSAR_ATOMIC_H */
