/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QEMU's semihosting through MIPS UHI ("Unified Hosting Interface"):
 * "sdbbp 1" with the operation number in t9 ($25), arguments in a0..a3,
 * the result in v0. QEMU must run with -semihosting; without it the
 * instruction raises a debug exception, so the board calls it only for
 * what needs the host (command line, exit status).
 */
#ifndef _ASM_SEMIHOSTING_H
#define _ASM_SEMIHOSTING_H

#define UHI_EXIT	1	/* a0 = exit status; does not return */
#define UHI_ARGC	9	/* v0 = argc */
#define UHI_ARGNLEN	10	/* a0 = n; v0 = strlen(argv[n]) or -1 */
#define UHI_ARGN	11	/* a0 = n, a1 = buffer; copies argv[n] with its NUL */

static inline long uhi_call(long op, long arg0, long arg1)
{
	register long t9 __asm__("$25") = op;
	register long a0 __asm__("$4") = arg0;
	register long a1 __asm__("$5") = arg1;
	register long v0 __asm__("$2");

	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	mips32r2\n"
		"	sdbbp	1\n"
		"	.set	pop\n"
		: "=r" (v0), "+r" (a0), "+r" (a1)
		: "r" (t9)
		: "$3", "memory");
	return v0;
}

static inline void __noreturn uhi_exit(int status)
{
	uhi_call(UHI_EXIT, status, 0);
	for (;;)
		;
}

#endif /* _ASM_SEMIHOSTING_H */
