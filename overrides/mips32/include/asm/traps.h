/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_TSAR_TRAPS_H
#define _ASM_TSAR_TRAPS_H

#include <linux/types.h>

struct pt_regs;

void __noreturn die(const char *str, struct pt_regs *regs, long err);
int fixup_exception(struct pt_regs *regs);
void trap_or_die(struct pt_regs *regs, int signo, int code,
		 unsigned long addr, const char *str);
/* The instruction that raised the exception (the delay slot's if Cause.BD): 0 or -EFAULT. */
int exception_insn(struct pt_regs *regs, u32 *insn);
/* The exact byte address of the faulting load/store (BadVAddr may hold the word). */
unsigned long exact_data_address(struct pt_regs *regs, unsigned long addr);
/*
 * Each MMU layer's exception hook (asm/mmu-hooks.h): true when it handled
 * code. It is called with interrupts off and calls exception_irq_enable()
 * once it has read its per-CPU fault state: an interrupt could otherwise
 * preempt and migrate the task, or fault on this CPU, first.
 */
bool mmu_exception(struct pt_regs *regs, unsigned int exccode);
void exception_irq_enable(struct pt_regs *regs);
void do_page_fault(struct pt_regs *regs, unsigned long addr,
		   unsigned long type, bool write, bool exec);

/* The general registers' o32 names, by number (kernel/ptrace.c). */
extern const char * const gpr_names[32];

/* The vector page (entry.S), at EBase. */
extern char exception_vectors[];

asmlinkage void do_exception(struct pt_regs *regs);
asmlinkage void do_interrupt(struct pt_regs *regs);
asmlinkage void do_work_pending(struct pt_regs *regs, unsigned long flags);
asmlinkage long syscall_trace_enter(struct pt_regs *regs);
asmlinkage void syscall_trace_leave(struct pt_regs *regs);

#endif /* _ASM_TSAR_TRAPS_H */
