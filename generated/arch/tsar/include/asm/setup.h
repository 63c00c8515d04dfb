/* SPDX-License-Identifier: GPL-2.0 */
/* Copied by portkit from overrides/mips32/include/asm/setup.h: edit that file. */
#ifndef _ASM_TSAR_SETUP_H
#define _ASM_TSAR_SETUP_H

#include <uapi/asm/setup.h>

#ifndef __ASSEMBLY__

extern unsigned long boot_dtb_phys;

/* Called from start_kernel(), which declares them privately. */
void init_IRQ(void);
void time_init(void);

void paging_init(void);

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_TSAR_SETUP_H */
