// SPDX-License-Identifier: GPL-2.0
/*
 * The asm-generic system call table.
 */

#include <linux/syscalls.h>
#include <linux/unistd.h>

#include <asm/syscalls.h>

asmlinkage long sys_set_thread_area(unsigned long tp);

/* 32-bit asm-generic: mmap2 takes its offset in pages. */
#define sys_mmap2	sys_mmap_pgoff

#undef __SYSCALL
#define __SYSCALL(nr, call)	[nr] = (call),

/* The entry.S wrappers of the calls that need a full pt_regs. */
#define FULL_FRAME_SYSCALL(nr, call)	asmlinkage long __full_##call(void);
#include "syscall-wrappers.h"
#undef FULL_FRAME_SYSCALL

void *sys_call_table[__NR_syscalls] = {
	[0 ... __NR_syscalls - 1] = sys_ni_syscall,
#include <asm/unistd.h>
#define FULL_FRAME_SYSCALL(nr, call)	[nr] = __full_##call,
#include "syscall-wrappers.h"
};
