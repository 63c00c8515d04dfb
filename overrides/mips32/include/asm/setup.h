/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_TSAR_SETUP_H
#define _ASM_TSAR_SETUP_H

#include <uapi/asm/setup.h>

#ifndef __ASSEMBLY__

#include <linux/types.h>

extern unsigned long boot_dtb_phys;

/* Called from start_kernel(), which declares them privately. */
void init_IRQ(void);
void time_init(void);

void paging_init(void);

/* The family's shared code (kernel/, mm/) that boards and MMU layers call. */
void setup_memory(char **cmdline_p);
void zones_init(phys_addr_t lowmem_end);
void count_clocksource_init(u32 rate);

/* The board's /proc/cpuinfo record for one CPU (kernel/cpuinfo.c). */
struct seq_file;
int show_cpuinfo(struct seq_file *m, void *v);

#endif /* !__ASSEMBLY__ */

#endif /* _ASM_TSAR_SETUP_H */
