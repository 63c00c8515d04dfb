/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_MIPS32_CLOCKSOURCE_H
#define _ASM_MIPS32_CLOCKSOURCE_H

#include <asm/vdso/clocksource.h>

#endif /* _ASM_MIPS32_CLOCKSOURCE_H */
