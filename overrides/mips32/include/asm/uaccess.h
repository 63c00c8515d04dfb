/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User memory access. A user access that faults arrives as a data bus
 * error from the MMU; the fault handler finds the faulting instruction
 * in __ex_table and resumes at its fixup, which reports -EFAULT.
 */
#ifndef _ASM_TSAR_UACCESS_H
#define _ASM_TSAR_UACCESS_H

#include <linux/errno.h>
#include <linux/types.h>
#include <asm/extable.h>
#include <asm-generic/access_ok.h>

/* One __ex_table entry: the access at label 1 resumes at label 3. */
#define __UA_EXTABLE(from, to)						\
	"	.section __ex_table, \"a\"\n"				\
	"	.word	" #from ", " #to "\n"				\
	"	.previous\n"

#define __get_user_asm(insn, x, addr, err)				\
	__asm__ __volatile__(						\
	"1:	" insn "	%1, %2\n"				\
	"2:\n"								\
	"	.section .fixup, \"ax\"\n"				\
	"3:	li	%0, %3\n"					\
	"	move	%1, $0\n"					\
	"	j	2b\n"						\
	"	.previous\n"						\
	__UA_EXTABLE(1b, 3b)						\
	: "+r" (err), "=&r" (x)						\
	: "m" (*(addr)), "i" (-EFAULT))

/*
 * 64-bit values are two word accesses, each with its own fixup; %D names
 * the second register of a register pair (the high word, little-endian).
 */
#define __get_user_asm_dword(x, addr, err)				\
	__asm__ __volatile__(						\
	"1:	lw	%1, %2\n"					\
	"2:	lw	%D1, %3\n"					\
	"3:\n"								\
	"	.section .fixup, \"ax\"\n"				\
	"4:	li	%0, %4\n"					\
	"	move	%1, $0\n"					\
	"	move	%D1, $0\n"					\
	"	j	3b\n"						\
	"	.previous\n"						\
	__UA_EXTABLE(1b, 4b)						\
	__UA_EXTABLE(2b, 4b)						\
	: "+r" (err), "=&r" (x)						\
	: "m" (((u32 *)(addr))[0]), "m" (((u32 *)(addr))[1]),		\
	  "i" (-EFAULT))

#define __get_user_nocheck(x, ptr, err)					\
do {									\
	switch (sizeof(*(ptr))) {					\
	case 1: {							\
		u8 __gu_v;						\
		__get_user_asm("lbu", __gu_v, (ptr), err);		\
		(x) = (__force __typeof__(*(ptr)))(unsigned long)__gu_v;		\
		break;							\
	}								\
	case 2: {							\
		u16 __gu_v;						\
		__get_user_asm("lhu", __gu_v, (ptr), err);		\
		(x) = (__force __typeof__(*(ptr)))(unsigned long)__gu_v;		\
		break;							\
	}								\
	case 4: {							\
		u32 __gu_v;						\
		__get_user_asm("lw", __gu_v, (ptr), err);		\
		(x) = (__force __typeof__(*(ptr)))(unsigned long)__gu_v;		\
		break;							\
	}								\
	case 8: {							\
		union {							\
			__typeof__(*(ptr)) t;				\
			u64 l;						\
		} __gu_d;						\
		__get_user_asm_dword(__gu_d.l, (ptr), err);		\
		(x) = __gu_d.t;						\
		break;							\
	}								\
	default:							\
		BUILD_BUG();						\
	}								\
} while (0)

#define __put_user_asm(insn, x, addr, err)				\
	__asm__ __volatile__(						\
	"1:	" insn "	%z2, %1\n"				\
	"2:\n"								\
	"	.section .fixup, \"ax\"\n"				\
	"3:	li	%0, %3\n"					\
	"	j	2b\n"						\
	"	.previous\n"						\
	__UA_EXTABLE(1b, 3b)						\
	: "+r" (err), "=m" (*(addr))					\
	: "Jr" (x), "i" (-EFAULT))

#define __put_user_asm_dword(x, addr, err)				\
	__asm__ __volatile__(						\
	"1:	sw	%3, %1\n"					\
	"2:	sw	%D3, %2\n"					\
	"3:\n"								\
	"	.section .fixup, \"ax\"\n"				\
	"4:	li	%0, %4\n"					\
	"	j	3b\n"						\
	"	.previous\n"						\
	__UA_EXTABLE(1b, 4b)						\
	__UA_EXTABLE(2b, 4b)						\
	: "+r" (err), "=m" (((u32 *)(addr))[0]),			\
	  "=m" (((u32 *)(addr))[1])					\
	: "r" (x), "i" (-EFAULT))

#define __put_user_nocheck(x, ptr, err)					\
do {									\
	__typeof__(*(ptr)) __pu_v = (x);				\
									\
	switch (sizeof(*(ptr))) {					\
	case 1:								\
		__put_user_asm("sb", __pu_v, (ptr), err);		\
		break;							\
	case 2:								\
		__put_user_asm("sh", __pu_v, (ptr), err);		\
		break;							\
	case 4:								\
		__put_user_asm("sw", __pu_v, (ptr), err);		\
		break;							\
	case 8:								\
		__put_user_asm_dword(__pu_v, (ptr), err);		\
		break;							\
	default:							\
		BUILD_BUG();						\
	}								\
} while (0)

#define __get_user(x, ptr)						\
({									\
	long __gu_err = 0;						\
									\
	__chk_user_ptr(ptr);						\
	__get_user_nocheck((x), (ptr), __gu_err);			\
	__gu_err;							\
})

#define get_user(x, ptr)						\
({									\
	const __typeof__(*(ptr)) __user *__gu_p = (ptr);		\
	long __gu_ret = -EFAULT;					\
									\
	might_fault();							\
	if (likely(access_ok(__gu_p, sizeof(*__gu_p))))			\
		__gu_ret = __get_user((x), __gu_p);			\
	else								\
		(x) = (__typeof__(*(ptr)))0;				\
	__gu_ret;							\
})

#define __put_user(x, ptr)						\
({									\
	long __pu_err = 0;						\
									\
	__chk_user_ptr(ptr);						\
	__put_user_nocheck((x), (ptr), __pu_err);			\
	__pu_err;							\
})

#define put_user(x, ptr)						\
({									\
	__typeof__(*(ptr)) __user *__pu_p = (ptr);			\
	long __pu_ret = -EFAULT;					\
									\
	might_fault();							\
	if (likely(access_ok(__pu_p, sizeof(*__pu_p))))			\
		__pu_ret = __put_user((x), __pu_p);			\
	__pu_ret;							\
})

/* Kernel accesses that may fault (copy_from_kernel_nofault and co). */
#define __get_kernel_nofault(dst, src, type, err_label)			\
do {									\
	long __kr_err = 0;						\
									\
	__get_user_nocheck(*((type *)(dst)), (type *)(src), __kr_err);	\
	if (unlikely(__kr_err))						\
		goto err_label;						\
} while (0)

#define __put_kernel_nofault(dst, src, type, err_label)			\
do {									\
	long __kr_err = 0;						\
									\
	__put_user_nocheck(*((type *)(src)), (type *)(dst), __kr_err);	\
	if (unlikely(__kr_err))						\
		goto err_label;						\
} while (0)

/* Return the number of bytes NOT copied, as the generic code expects. */
unsigned long __copy_user(void *to, const void *from, unsigned long n);

static inline unsigned long
raw_copy_from_user(void *to, const void __user *from, unsigned long n)
{
	return __copy_user(to, (__force const void *)from, n);
}

static inline unsigned long
raw_copy_to_user(void __user *to, const void *from, unsigned long n)
{
	return __copy_user((__force void *)to, from, n);
}
#define INLINE_COPY_FROM_USER
#define INLINE_COPY_TO_USER

unsigned long __clear_user(void __user *addr, unsigned long n);

static inline unsigned long clear_user(void __user *to, unsigned long n)
{
	might_fault();
	if (!access_ok(to, n))
		return n;
	return __clear_user(to, n);
}

long strncpy_from_user(char *dst, const char __user *src, long count);
long strnlen_user(const char __user *str, long n);

#endif /* _ASM_TSAR_UACCESS_H */
