/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_MIPS32_VDSO_VSYSCALL_H
#define _ASM_MIPS32_VDSO_VSYSCALL_H

#ifndef __ASSEMBLY__

#include <vdso/datapage.h>

/* The kernel's view of the data page (kernel/vdso.c). */
extern struct vdso_data *vdso_data;

static __always_inline struct vdso_data *__mips32_get_k_vdso_data(void)
{
	return vdso_data;
}
#define __arch_get_k_vdso_data __mips32_get_k_vdso_data

/* After the definitions above: the generic header uses them. */
#include <asm-generic/vdso/vsyscall.h>

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_MIPS32_VDSO_VSYSCALL_H */
