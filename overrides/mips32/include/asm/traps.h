/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_TSAR_TRAPS_H
#define _ASM_TSAR_TRAPS_H

#include <linux/types.h>

struct pt_regs;

void __noreturn die(const char *str, struct pt_regs *regs, long err);
int fixup_exception(struct pt_regs *regs);
void do_page_fault(struct pt_regs *regs, unsigned long addr,
		   unsigned long type, bool write, bool exec);

asmlinkage void do_exception(struct pt_regs *regs);
asmlinkage void do_work_pending(struct pt_regs *regs, unsigned long flags);
asmlinkage long syscall_trace_enter(struct pt_regs *regs);
asmlinkage void syscall_trace_leave(struct pt_regs *regs);

#endif /* _ASM_TSAR_TRAPS_H */
