/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/clocksource.h: edit that
 * file.
 */
#ifndef _ASM_MIPS32_CLOCKSOURCE_H
#define _ASM_MIPS32_CLOCKSOURCE_H

#include <asm/vdso/clocksource.h>

#endif /* _ASM_MIPS32_CLOCKSOURCE_H */
