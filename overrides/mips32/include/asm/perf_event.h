/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf on a MIPS32 core: software events and tracepoints everywhere; the
 * core's performance counters where the spec has them (kernel/perf_event.c).
 */
#ifndef _ASM_MIPS32_PERF_EVENT_H
#define _ASM_MIPS32_PERF_EVENT_H

#include <asm/ptrace.h>

/*
 * The registers of a software event raised from kernel code (a
 * tracepoint, a context switch): where it was raised, this frame's stack
 * pointer, and a Status with UM clear (user_mode() is false).
 */
#define perf_arch_fetch_caller_regs(regs, __ip) do {			\
	(regs)->epc = (__ip);						\
	(regs)->regs[29] = (unsigned long)__builtin_frame_address(0);	\
	(regs)->regs[31] = (unsigned long)__builtin_return_address(0);	\
	(regs)->status = 0;						\
} while (0)

/* The counters' overflow interrupt (kernel/perf_event.c). */
void mips32_pmu_handle_irq(struct pt_regs *regs);

#endif /* _ASM_MIPS32_PERF_EVENT_H */
