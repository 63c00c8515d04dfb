/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * getcontext/setcontext/swapcontext/makecontext for MIPS o32 (soft-float),
 * as a libc provides them: a context is the callee-saved registers, the
 * stack and return addresses, the resume PC, four argument registers and
 * the signal mask. Contexts are user-level only (not the kernel's signal
 * ucontext), like glibc's on MIPS.
 */
#ifndef _KST_UCONTEXT_H
#define _KST_UCONTEXT_H

/* regs[]: s0-s7, sp, fp, ra, gp, pc, a0-a3 */
enum { KST_SP = 8, KST_RA = 10, KST_PC = 12, KST_A0 = 13, KST_NREGS = 17 };

typedef struct kst_ucontext {
	unsigned long uc_flags;
	struct kst_ucontext *uc_link;
	stack_t uc_stack;
	kst_sigset_t uc_sigmask;
	unsigned long kst_regs[KST_NREGS];
} ucontext_t;

int getcontext(ucontext_t *ucp);
int swapcontext(ucontext_t *oucp, const ucontext_t *ucp);
void kst_ctx_jump(const unsigned long *regs) __attribute__((noreturn));
void kst_ctx_trampoline(void);

/* Save the caller's state, resume PC = its return address; then the C
 * part stores the signal mask (tail call: it returns 0 to our caller). */
__asm__(".text\n"
	".set push\n.set noreorder\n"
	".macro kst_ctx_save base\n"
	"	sw $16, 0(\\base)\n	sw $17, 4(\\base)\n	sw $18, 8(\\base)\n"
	"	sw $19, 12(\\base)\n	sw $20, 16(\\base)\n	sw $21, 20(\\base)\n"
	"	sw $22, 24(\\base)\n	sw $23, 28(\\base)\n	sw $29, 32(\\base)\n"
	"	sw $30, 36(\\base)\n	sw $31, 40(\\base)\n	sw $28, 44(\\base)\n"
	"	sw $31, 48(\\base)\n"
	".endm\n"
	".globl getcontext\n.type getcontext, @function\n"
	"getcontext:\n"
	"	addiu $8, $4, 28\n"		/* &ucp->kst_regs */
	"	kst_ctx_save $8\n"
	"	j kst_getcontext_mask\n"
	"	nop\n"
	".size getcontext, .-getcontext\n"
	".globl swapcontext\n.type swapcontext, @function\n"
	"swapcontext:\n"
	"	addiu $8, $4, 28\n"
	"	kst_ctx_save $8\n"
	"	j kst_swapcontext_rest\n"
	"	nop\n"
	".size swapcontext, .-swapcontext\n"
	".globl kst_ctx_jump\n.type kst_ctx_jump, @function\n"
	"kst_ctx_jump:\n"
	"	move $8, $4\n"
	"	lw $16, 0($8)\n	lw $17, 4($8)\n	lw $18, 8($8)\n	lw $19, 12($8)\n"
	"	lw $20, 16($8)\n	lw $21, 20($8)\n	lw $22, 24($8)\n	lw $23, 28($8)\n"
	"	lw $29, 32($8)\n	lw $30, 36($8)\n	lw $31, 40($8)\n	lw $28, 44($8)\n"
	"	lw $25, 48($8)\n"
	"	lw $4, 52($8)\n	lw $5, 56($8)\n	lw $6, 60($8)\n	lw $7, 64($8)\n"
	"	jr $25\n"
	"	move $2, $0\n"
	".size kst_ctx_jump, .-kst_ctx_jump\n"
	/* A makecontext function returned: s0 holds its context. */
	".globl kst_ctx_trampoline\n.type kst_ctx_trampoline, @function\n"
	"kst_ctx_trampoline:\n"
	"	move $4, $16\n"
	"	jal kst_ctx_end\n"
	"	nop\n"
	".size kst_ctx_trampoline, .-kst_ctx_trampoline\n"
	".set pop\n");

_Static_assert(offsetof(ucontext_t, kst_regs) == 28,
	       "the assembly above assumes kst_regs at offset 28");

int kst_getcontext_mask(ucontext_t *ucp)
{
	ucp->kst_regs[KST_A0] = 0;
	return sigprocmask(SIG_BLOCK, NULL, &ucp->uc_sigmask);
}

int setcontext(const ucontext_t *ucp)
{
	if (sigprocmask(SIG_SETMASK, &ucp->uc_sigmask, NULL))
		return -1;
	kst_ctx_jump(ucp->kst_regs);
}

int kst_swapcontext_rest(ucontext_t *oucp, const ucontext_t *ucp)
{
	if (sigprocmask(SIG_SETMASK, &ucp->uc_sigmask, &oucp->uc_sigmask))
		return -1;
	kst_ctx_jump(ucp->kst_regs);
}

void kst_ctx_end(ucontext_t *ucp)
{
	if (ucp->uc_link)
		setcontext(ucp->uc_link);
	exit(0);
}

/* Up to four int arguments (the o32 argument registers). */
void makecontext(ucontext_t *ucp, void (*func)(void), int argc, ...)
{
	unsigned long top = (unsigned long)ucp->uc_stack.ss_sp + ucp->uc_stack.ss_size;
	va_list ap;
	int i;

	va_start(ap, argc);
	for (i = 0; i < argc && i < 4; i++)
		ucp->kst_regs[KST_A0 + i] = va_arg(ap, unsigned long);
	va_end(ap);
	/* 8-byte aligned, with the callee's 16-byte argument save area. */
	ucp->kst_regs[KST_SP] = (top & ~7UL) - 16;
	ucp->kst_regs[KST_PC] = (unsigned long)func;
	ucp->kst_regs[KST_RA] = (unsigned long)kst_ctx_trampoline;
	ucp->kst_regs[0] = (unsigned long)ucp;	/* s0, for the trampoline */
}

#endif /* _KST_UCONTEXT_H */
