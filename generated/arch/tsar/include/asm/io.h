/* SPDX-License-Identifier: GPL-2.0 */
/* Copied by portkit from overrides/mmu-cp2/include/asm/io.h: edit that file. */
#ifndef _ASM_TSAR_IO_H
#define _ASM_TSAR_IO_H

#include <linux/types.h>
#include <asm/pgtable.h>

/*
 * Devices are memory-mapped and reached through ioremap() (generic
 * ioremap with uncached kernel pages). There is no I/O port space.
 */
#include <asm-generic/io.h>

#endif /* _ASM_TSAR_IO_H */
