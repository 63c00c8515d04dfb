/* The bench's TSAR platform part: main() for the runtime's crt0
 * (emulator/runtime; bench.py links crt0.o lib.o with it, the runtime's
 * link.ld, RT_TEXT = BENCH_TEXT, RT_DATA = BENCH_DATA, RT_PT = BENCH_PT):
 * kernel mode with the MMU ON, a PT1 with big PTE1 pages, identity
 * (-DPAGES4K=1: code and data through PT2s of small pages instead):
 *   BENCH_TEXT code  V|C|X|G      BENCH_DATA data (and crt0's stack) V|C|W|G
 *   TTY, simhelper: V|W|G (uncached)
 * then bench_main, its checksum on the TTY, exit 0 through the simhelper.
 * Addresses, PTE bits and CP2 numbers: hwdesc.h (the spec), via runtime.h. */
#include "runtime.h"
#ifndef PAGES4K
#define PAGES4K 0
#endif
	.set noreorder
	.text
	.globl main
main:
	la	$8, pt1
	zero	$8, $9, PT1_ENTRIES * PT1_ENTRY_BYTES
	la	$8, pt1
#if PAGES4K
	/* code and data through PT2s of small pages */
	la	$10, pt2
	ptd1	$8, $10, $9, $13, BENCH_TEXT
	pt2_fill $10, PTE_V | PTE_C | PTE_X | PTE_G, BENCH_TEXT >> MMU_PAGE_SHIFT, $11, $12, $14
	la	$10, pt2 + PT2_ENTRIES * PT2_ENTRY_BYTES
	ptd1	$8, $10, $9, $13, BENCH_DATA
	pt2_fill $10, PTE_V | PTE_C | PTE_W | PTE_G, BENCH_DATA >> MMU_PAGE_SHIFT, $11, $12, $14
#else
	pte1	$8, $9, BENCH_TEXT, BENCH_TEXT, PTE_V | PTE_C | PTE_X | PTE_G
	pte1	$8, $9, BENCH_DATA, BENCH_DATA, PTE_V | PTE_C | PTE_W | PTE_G
#endif
	pte1	$8, $9, TTY_BASE, TTY_BASE, PTE_V | PTE_W | PTE_G
	pte1	$8, $9, SIMHELPER_BASE, SIMHELPER_BASE, PTE_V | PTE_W | PTE_G
	mmu_on	$8, MMU_MODE_ALL
	jal	bench_main
	nop
	move	$16, $2
	la	$17, msg
	jal	fmt_chk
	nop
	li	$8, TTY_BASE
1:	lbu	$9, 0($17)
	beqz	$9, 2f
	nop
	sw	$9, TTY_WRITE($8)
	b	1b
	addiu	$17, $17, 1
2:	li	$8, SIMHELPER_BASE
	sw	$0, SIMHELPER_END_WITH_RETVAL($8)
	b	.
	nop

	.section .pt,"aw",@nobits
	.align	13
pt1:	.space	PT1_ENTRIES * PT1_ENTRY_BYTES
pt2:	.space	2 * PT2_ENTRIES * PT2_ENTRY_BYTES
