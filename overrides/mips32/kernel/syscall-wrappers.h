/* SPDX-License-Identifier: GPL-2.0 */
/*
 * System calls that need the whole user context in struct pt_regs: the
 * syscall fast path (entry.S) saves only what the C code may clobber and
 * the ABI keeps, so these go through a wrapper that first saves the rest
 * (s0-s7/fp, the clobbered registers as zeroes) and returns the full way
 * out, as arch/mips does with save_static. They copy the context (clone,
 * clone3), replace it (execve, execveat, rt_sigreturn) or may stop for a
 * tracer that reads or writes it (the fork, exec and exit events).
 * Signals and syscall tracing take the full path by themselves.
 *
 * FULL_FRAME_SYSCALL(number, function): the includer defines it (entry.S
 * emits the wrapper, syscall_table.c points the table entry at it).
 */
FULL_FRAME_SYSCALL(__NR_clone, sys_clone)
#ifdef __NR_clone3
FULL_FRAME_SYSCALL(__NR_clone3, sys_clone3)
#endif
FULL_FRAME_SYSCALL(__NR_execve, sys_execve)
FULL_FRAME_SYSCALL(__NR_execveat, sys_execveat)
FULL_FRAME_SYSCALL(__NR_exit, sys_exit)
FULL_FRAME_SYSCALL(__NR_exit_group, sys_exit_group)
FULL_FRAME_SYSCALL(__NR_rt_sigreturn, sys_rt_sigreturn)
