/* tsar-emu bare-metal crt for the differential tests.
 *
 *   TSAR_MMU=0 TSAR_USER=0   kernel mode, MMU off (VA = PA)
 *   TSAR_MMU=1 TSAR_USER=0   kernel mode, MMU on, identity page table
 *   TSAR_MMU=1 TSAR_USER=1   user mode, MMU on; the end is a syscall
 *
 * Page table (tsar-hardware.md 2.3): PT1 (PT1_ENTRIES words, PT1_ALIGN
 * aligned). Identity mappings: CRT_DATA (crt data, kernel only) and
 * INIT_BASE (init records, read-only) as big PTE1 pages; CRT_TEXT (code,
 * read-only + exec) as a PTE1 in the kernel variants and through a PT2 of
 * small pages in the user variant; STATE_BASE (state records, writable and
 * executable) through a PT2 with D clear (the walker must set it); TTY and
 * simhelper uncached, kernel only. CRT_DATA, CRT_TEXT, INIT_BASE and
 * STATE_BASE are the layout of gen.py (rundiff.py passes them).
 *
 * After the sequences, the state records are printed on the TTY as hex
 * words between "BEGIN" and "END" lines, then the simhelper ends the run
 * with exit status 0.  An unexpected exception prints its Cause/EPC/BadVAddr
 * and CP2 error registers and exits with status 3.
 */
#ifndef TSAR_MMU
#define TSAR_MMU 0
#endif
#ifndef TSAR_USER
#define TSAR_USER 0
#endif
#ifndef EXC_OFF
#error EXC_OFF, EXC_MAX and the layout come from gen.py (rundiff.py passes them)
#endif

/* The runtime (emulator/runtime: crt0's start-up and vector, link.ld,
 * runtime.h's MMU helpers; hwdesc.h for the addresses, PTE bits and CP2/CP0
 * numbers) runs first: crt0 calls main() below in kernel mode, MMU off,
 * EBase = _start (the start of .text, CRT_TEXT), and its vector jumps to
 * rt_exception below. */
#include "runtime.h"

	.set noreorder
	.set noat

	.text
	.globl main
main:
#if TSAR_MMU
	/* clear PT1 and PT2 */
	la	$8, pt1
	zero	$8, $9, PT1_ENTRIES * PT1_ENTRY_BYTES + 2 * PT2_ENTRIES * PT2_ENTRY_BYTES
	la	$8, pt1
	/* big pages: PT1[VA >> big shift] = flags | (PA >> big shift) */
	pte1	$8, $9, 0, 0, PTE_V | PTE_C | PTE_W | PTE_G	/* page 0: handler scratch */
	pte1	$8, $9, CRT_DATA, CRT_DATA, PTE_V | PTE_C | PTE_W | PTE_G
#if TSAR_USER
	/* user variant: code through a PT2 of small pages (V|C|X|U|G) */
	la	$10, pt2c
	ptd1	$8, $10, $9, $11, CRT_TEXT
	pt2_fill $10, PTE_V | PTE_C | PTE_X | PTE_U | PTE_G, CRT_TEXT >> MMU_PAGE_SHIFT, $11, $12, $13
#else
	/* kernel variant: code in one big PTE1 page */
	pte1	$8, $9, CRT_TEXT, CRT_TEXT, PTE_V | PTE_C | PTE_X | PTE_U | PTE_G
#endif
	pte1	$8, $9, INIT_BASE, INIT_BASE, PTE_V | PTE_C | PTE_U | PTE_G
	pte1	$8, $9, TTY_BASE, TTY_BASE, PTE_V | PTE_W | PTE_G
	pte1	$8, $9, SIMHELPER_BASE, SIMHELPER_BASE, PTE_V | PTE_W | PTE_G
	/* state records: a PT2 of small pages, identity, D clear (the walker sets it) */
	la	$10, pt2
	ptd1	$8, $10, $9, $11, STATE_BASE
	pt2_fill $10, PTE_V | PTE_C | PTE_W | PTE_X | PTE_U | PTE_G, STATE_BASE >> MMU_PAGE_SHIFT, $11, $12, $13
	/* PTPR = PA(pt1) >> PTPR shift, then MODE = ITLB|DTLB|I$|D$ */
	la	$8, pt1
	mmu_on	$8, MMU_MODE_ALL
#endif
#if TSAR_USER
	li	$8, CP0_STATUS_UM | CP0_STATUS_EXL	/* user mode, EXL = 1 for eret */
	mtc0n	$8, CP0(STATUS)
	la	$8, seq_start
	mtc0n	$8, CP0(EPC)
	ehb
	eret
	nop
#else
	j	seq_start
	nop
#endif

	.globl harness_done
harness_done:
#if TSAR_USER
	syscall
	b	.			/* not reached */
	nop
#endif
dump:
	la	$4, s_begin
	jal	puts
	nop
	la	$16, seq_state_begin
	la	$17, seq_state_end
	li	$18, 0
3:	lw	$4, 0($16)
	jal	puthex
	nop
	addiu	$18, $18, 1
	andi	$8, $18, 7
	li	$4, ' '
	bnez	$8, 4f
	nop
	li	$4, '\n'
4:	jal	putc
	nop
	addiu	$16, $16, 4
	bne	$16, $17, 3b
	nop
	la	$4, s_end
	jal	puts
	nop
	li	$4, 0
exit:	li	$8, SIMHELPER_BASE
	sw	$4, SIMHELPER_END_WITH_RETVAL($8)
	b	.
	nop

/* putc(a0): clobbers $8 */
putc:
	li	$8, TTY_BASE
	jr	$31
	sw	$4, TTY_WRITE($8)

/* puts(a0): clobbers $4, $8, $9, $10 */
puts:
	move	$10, $31
	move	$9, $4
1:	lbu	$4, 0($9)
	beqz	$4, 2f
	nop
	jal	putc
	addiu	$9, $9, 1
	b	1b
	nop
2:	jr	$10
	nop

/* puthex(a0): 8 hex digits; clobbers $4, $8, $9, $10, $11 */
puthex:
	move	$10, $31
	move	$9, $4
	li	$11, 28
1:	srlv	$4, $9, $11
	andi	$4, $4, 0xF
	la	$8, hexdigits
	addu	$8, $8, $4
	lbu	$4, 0($8)
	jal	putc
	nop
	bnez	$11, 1b
	addiu	$11, $11, -4
	jr	$10
	nop

	/* the exception handler: crt0's vector (EBase + 0x180) jumps here */
	.globl	rt_exception
rt_exception:
	/* Ov, Tr, Bp, AdEL, AdES: the generated code raises them on purpose;
	   log (ExcCode, EPC) in the current state record (k0) and resume at
	   EPC + 4, or EPC + 8 in a delay slot (Cause.BD: EPC = the branch).
	   $1-$4 are saved in low memory ($0-relative). */
	sw	$1, 0x100($0)
	sw	$2, 0x104($0)
	sw	$3, 0x108($0)
	sw	$4, 0x10C($0)
	mfc0n	$4, CP0(CAUSE)
	andi	$2, $4, CP0_CAUSE_EXCCODE
	srl	$2, $2, CP0_CAUSE_EXCCODE_SHIFT
#if TSAR_USER
	li	$3, CP0_EXC_SYS		/* end of the user-mode run */
	beq	$2, $3, dump
	nop
#endif
	li	$3, CP0_EXC_OV
	beq	$2, $3, log_exc
	li	$3, CP0_EXC_TR
	beq	$2, $3, log_exc
	li	$3, CP0_EXC_BP
	beq	$2, $3, log_exc
	li	$3, CP0_EXC_ADEL
	beq	$2, $3, log_exc
	li	$3, CP0_EXC_ADES
	beq	$2, $3, log_exc
	nop
	b	unexpected
	nop
log_exc:
	lw	$3, EXC_OFF($26)
	sltiu	$1, $3, EXC_MAX
	beqz	$1, 1f
	sll	$1, $3, 3
	addu	$1, $1, $26
	sw	$2, EXC_OFF + 4($1)
	mfc0n	$2, CP0(EPC)
	sw	$2, EXC_OFF + 8($1)
1:	addiu	$3, $3, 1
	sw	$3, EXC_OFF($26)
	mfc0n	$1, CP0(EPC)
	bgez	$4, 2f			/* BD clear: skip one instruction */
	addiu	$1, $1, 4
	addiu	$1, $1, 4		/* BD: skip the branch and its slot */
2:	mtc0n	$1, CP0(EPC)
	lw	$1, 0x100($0)
	lw	$2, 0x104($0)
	lw	$3, 0x108($0)
	lw	$4, 0x10C($0)
	eret
	nop
unexpected:
	la	$4, s_exc
	jal	puts
	nop
	mfc0n	$4, CP0(CAUSE)
	jal	puthex
	nop
	la	$4, s_epc
	jal	puts
	nop
	mfc0n	$4, CP0(EPC)
	jal	puthex
	nop
	la	$4, s_bad
	jal	puts
	nop
	mfc0n	$4, CP0(BADVADDR)
	jal	puthex
	nop
#if TSAR_MMU
	la	$4, s_detr
	jal	puts
	nop
	mfc2n	$4, CP2_DETR
	jal	puthex
	nop
	la	$4, s_dbvar
	jal	puts
	nop
	mfc2n	$4, CP2_DBVAR
	jal	puthex
	nop
	la	$4, s_ietr
	jal	puts
	nop
	mfc2n	$4, CP2_IETR
	jal	puthex
	nop
#endif
	li	$4, '\n'
	jal	putc
	nop
	b	exit
	li	$4, 3

	.section .rodata
hexdigits: .ascii "0123456789abcdef"
s_begin: .asciz "BEGIN\n"
s_end:	.asciz "END\n"
s_exc:	.asciz "\nUNEXPECTED EXCEPTION cause="
s_epc:	.asciz " epc="
s_bad:	.asciz " badvaddr="
s_detr:	.asciz " detr="
s_dbvar: .asciz " dbvar="
s_ietr:	.asciz " ietr="

#if TSAR_MMU
	.section .bss
	.align	13
pt1:	.space	PT1_ENTRIES * PT1_ENTRY_BYTES
pt2:	.space	PT2_ENTRIES * PT2_ENTRY_BYTES
pt2c:	.space	PT2_ENTRIES * PT2_ENTRY_BYTES
#endif
