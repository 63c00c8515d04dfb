/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Futex atomics on user memory: ll/sc loops whose ll and sc may fault
 * (a user page absent, or read-only for copy-on-write); the fault
 * handler then resumes at the fixup, which returns -EFAULT, and the
 * futex code faults the page in and retries.
 */
#ifndef _ASM_TSAR_FUTEX_H
#define _ASM_TSAR_FUTEX_H

#include <linux/futex.h>
#include <linux/uaccess.h>
#include <asm/barrier.h>
#include <asm/errno.h>

#define __futex_atomic_op(insn, ret, oldval, uaddr, oparg)		\
	__asm__ __volatile__(						\
		"	.set	push\n"					\
		"	.set	noreorder\n"				\
		"	.set	noat\n"					\
		"1:	ll	%1, %2\n"				\
		"	" insn "\n"					\
		"2:	sc	$1, %2\n"				\
		"	beqz	$1, 1b\n"				\
		"	 nop\n"						\
		"3:\n"							\
		"	.set	pop\n"					\
		"	.section .fixup, \"ax\"\n"			\
		"4:	li	%0, %4\n"				\
		"	j	3b\n"					\
		"	.previous\n"					\
		__UA_EXTABLE(1b, 4b)					\
		__UA_EXTABLE(2b, 4b)					\
		: "+r" (ret), "=&r" (oldval), "+m" (*(uaddr))		\
		: "r" (oparg), "i" (-EFAULT)				\
		: "memory")

static inline int arch_futex_atomic_op_inuser(int op, int oparg, int *oval,
					      u32 __user *uaddr)
{
	int oldval = 0, ret = 0;

	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;

	smp_mb();	/* fully ordered, like the other futex primitives */
	switch (op) {
	case FUTEX_OP_SET:
		__futex_atomic_op("move	$1, %3", ret, oldval, uaddr, oparg);
		break;
	case FUTEX_OP_ADD:
		__futex_atomic_op("addu	$1, %1, %3", ret, oldval, uaddr, oparg);
		break;
	case FUTEX_OP_OR:
		__futex_atomic_op("or	$1, %1, %3", ret, oldval, uaddr, oparg);
		break;
	case FUTEX_OP_ANDN:
		__futex_atomic_op("and	$1, %1, %3", ret, oldval, uaddr, ~oparg);
		break;
	case FUTEX_OP_XOR:
		__futex_atomic_op("xor	$1, %1, %3", ret, oldval, uaddr, oparg);
		break;
	default:
		ret = -ENOSYS;
	}
	smp_mb();	/* see above */

	if (!ret)
		*oval = oldval;
	return ret;
}

static inline int futex_atomic_cmpxchg_inatomic(u32 *uval, u32 __user *uaddr,
						u32 oldval, u32 newval)
{
	int ret = 0;
	u32 val, tmp;

	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;

	smp_mb();	/* fully ordered: the waker's stores come before */
	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	noreorder\n"
		"1:	ll	%1, %3\n"
		"	bne	%1, %4, 3f\n"
		"	 move	%2, %5\n"
		"2:	sc	%2, %3\n"
		"	beqz	%2, 1b\n"
		"	 nop\n"
		"3:\n"
		"	.set	pop\n"
		"	.section .fixup, \"ax\"\n"
		"4:	li	%0, %6\n"
		"	j	3b\n"
		"	.previous\n"
		__UA_EXTABLE(1b, 4b)
		__UA_EXTABLE(2b, 4b)
		: "+r" (ret), "=&r" (val), "=&r" (tmp), "+m" (*uaddr)
		: "r" (oldval), "r" (newval), "i" (-EFAULT)
		: "memory");
	smp_mb();	/* and the later accesses after */

	*uval = val;
	return ret;
}

#endif /* _ASM_TSAR_FUTEX_H */
