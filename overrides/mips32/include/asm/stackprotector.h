/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The stack protector (HAVE_STACKPROTECTOR). GCC's MIPS code compares
 * each protected frame's copy of the global __stack_chk_guard with it on
 * return. Every task draws a canary (fork); the boot task's is drawn
 * here, early in start_kernel, which never returns. A UP kernel makes
 * the incoming task's canary the global one at each switch (__switch_to
 * in entry.S); an SMP kernel keeps the boot one for every task, as the
 * CPUs share the global.
 */
#ifndef _ASM_MIPS32_STACKPROTECTOR_H
#define _ASM_MIPS32_STACKPROTECTOR_H

#include <linux/random.h>
#include <linux/sched.h>

extern unsigned long __stack_chk_guard;

static __always_inline void boot_init_stack_canary(void)
{
	unsigned long canary = get_random_canary();

	current->stack_canary = canary;
	__stack_chk_guard = canary;
}

#endif /* _ASM_MIPS32_STACKPROTECTOR_H */
