/* tsar-emu bare-metal crt for the differential tests.
 *
 *   TSAR_MMU=0 TSAR_USER=0   kernel mode, MMU off (VA = PA)
 *   TSAR_MMU=1 TSAR_USER=0   kernel mode, MMU on, identity page table
 *   TSAR_MMU=1 TSAR_USER=1   user mode, MMU on; the end is a syscall
 *
 * Page table (tsar-hardware.md 2.3): PT1 of 2048 words, 8 KiB aligned.
 * Identity mappings: 0x00200000 (crt data, kernel only) and 0x01000000
 * (init records, read-only) as 2 MiB PTE1 big pages; 0x00400000 (code,
 * read-only + exec) as a PTE1 in the kernel variants and through a PT2 of
 * 4 KiB pages in the user variant; 0x01800000 (state records, writable and
 * executable) through a PT2 of 4 KiB pages with D clear (the walker must
 * set it); TTY and simhelper uncached, kernel only.
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
#error EXC_OFF and EXC_MAX come from gen.py (rundiff.py passes them)
#endif

#define TTY	0x14000000
#define SIMHELPER 0x1F000000

#define PTE_V	0x80000000
#define PTE_T	0x40000000
#define PTE_C	0x08000000
#define PTE_W	0x04000000
#define PTE_X	0x02000000
#define PTE_U	0x01000000
#define PTE_G	0x00800000

	.set noreorder
	.set noat

	.section .text.start,"ax",@progbits
	.globl _start
_start:
	la	$8, exc_base
	mtc0	$8, $15, 1		/* EBase */
	mtc0	$0, $12			/* Status = 0: kernel, BEV=0, ERL=0, IE=0 */
	ehb
#if TSAR_MMU
	/* clear PT1 and PT2 */
	la	$8, pt1
	addiu	$9, $8, 8192 + 4096 + 4096
1:	sw	$0, 0($8)
	addiu	$8, $8, 4
	bne	$8, $9, 1b
	nop
	la	$8, pt1
	/* 2 MiB big pages: PT1[VA >> 21] = flags | (PA >> 21) */
	li	$9, PTE_V | PTE_C | PTE_W | PTE_G	/* page 0: handler scratch */
	sw	$9, 0($8)
	li	$9, PTE_V | PTE_C | PTE_W | PTE_G | (0x00200000 >> 21)
	sw	$9, (0x00200000 >> 21) * 4($8)
#if TSAR_USER
	/* user variant: code through a PT2 of 4 KiB pages (V|C|X|U|G) */
	la	$10, pt2c
	srl	$9, $10, 12
	li	$11, PTE_V | PTE_T
	or	$9, $9, $11
	sw	$9, (0x00400000 >> 21) * 4($8)
	li	$11, PTE_V | PTE_C | PTE_X | PTE_U | PTE_G
	li	$12, 0x00400000 >> 12
	addiu	$13, $12, 512
5:	sw	$11, 0($10)
	sw	$12, 4($10)
	addiu	$12, $12, 1
	bne	$12, $13, 5b
	addiu	$10, $10, 8
#else
	/* kernel variant: code in one 2 MiB PTE1 big page */
	li	$9, PTE_V | PTE_C | PTE_X | PTE_U | PTE_G | (0x00400000 >> 21)
	sw	$9, (0x00400000 >> 21) * 4($8)
#endif
	li	$9, PTE_V | PTE_C | PTE_U | PTE_G | (0x01000000 >> 21)
	sw	$9, (0x01000000 >> 21) * 4($8)
	li	$9, PTE_V | PTE_W | PTE_G | (TTY >> 21)
	sw	$9, (TTY >> 21) * 4($8)
	li	$9, PTE_V | PTE_W | PTE_G | (SIMHELPER >> 21)
	sw	$9, (SIMHELPER >> 21) * 4($8)
	/* PTD1 for 0x01800000 -> pt2 */
	la	$10, pt2
	srl	$9, $10, 12
	li	$11, PTE_V | PTE_T
	or	$9, $9, $11
	sw	$9, (0x01800000 >> 21) * 4($8)
	/* PT2: 512 x {flags, PPN}, identity for 0x01800000 + 4K*i */
	li	$11, PTE_V | PTE_C | PTE_W | PTE_X | PTE_U | PTE_G
	li	$12, 0x01800000 >> 12
	addiu	$13, $12, 512
2:	sw	$11, 0($10)
	sw	$12, 4($10)
	addiu	$12, $12, 1
	bne	$12, $13, 2b
	addiu	$10, $10, 8
	/* PTPR = PA(pt1) >> 13, then MODE = ITLB|DTLB|I$|D$ */
	sync
	la	$8, pt1
	srl	$8, $8, 13
	mtc2	$8, $0
	li	$8, 0xF
	mtc2	$8, $1
	nop
	nop
#endif
#if TSAR_USER
	li	$8, 0x12		/* KSU = user, EXL = 1 */
	mtc0	$8, $12
	la	$8, seq_start
	mtc0	$8, $14			/* EPC */
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
exit:	li	$8, SIMHELPER
	sw	$4, 4($8)		/* END_WITH_RETVAL */
	b	.
	nop

/* putc(a0): clobbers $8 */
putc:
	li	$8, TTY
	jr	$31
	sw	$4, 0($8)

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

	/* exception vector: EBase + 0x180 */
	.section .text.vec,"ax",@progbits
	.align	12
exc_base:
	.space	0x180
	/* Ov, Tr, Bp, AdEL, AdES: the generated code raises them on purpose;
	   log (ExcCode, EPC) in the current state record (k0) and resume at
	   EPC + 4, or EPC + 8 in a delay slot (Cause.BD: EPC = the branch).
	   $1-$4 are saved in low memory ($0-relative). */
	sw	$1, 0x100($0)
	sw	$2, 0x104($0)
	sw	$3, 0x108($0)
	sw	$4, 0x10C($0)
	mfc0	$4, $13			/* Cause */
	andi	$2, $4, 0x7C
	srl	$2, $2, 2		/* ExcCode */
#if TSAR_USER
	li	$3, 8			/* Sys: end of the user-mode run */
	beq	$2, $3, dump
	nop
#endif
	li	$3, 12
	beq	$2, $3, log_exc
	li	$3, 13
	beq	$2, $3, log_exc
	li	$3, 9
	beq	$2, $3, log_exc
	li	$3, 4
	beq	$2, $3, log_exc
	li	$3, 5
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
	mfc0	$2, $14
	sw	$2, EXC_OFF + 8($1)
1:	addiu	$3, $3, 1
	sw	$3, EXC_OFF($26)
	mfc0	$1, $14
	bgez	$4, 2f			/* BD clear: skip one instruction */
	addiu	$1, $1, 4
	addiu	$1, $1, 4		/* BD: skip the branch and its slot */
2:	mtc0	$1, $14
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
	mfc0	$4, $13
	jal	puthex
	nop
	la	$4, s_epc
	jal	puts
	nop
	mfc0	$4, $14
	jal	puthex
	nop
	la	$4, s_bad
	jal	puts
	nop
	mfc0	$4, $8
	jal	puthex
	nop
#if TSAR_MMU
	la	$4, s_detr
	jal	puts
	nop
	mfc2	$4, $12
	jal	puthex
	nop
	la	$4, s_dbvar
	jal	puts
	nop
	mfc2	$4, $14
	jal	puthex
	nop
	la	$4, s_ietr
	jal	puts
	nop
	mfc2	$4, $11
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
pt1:	.space	8192
pt2:	.space	4096
pt2c:	.space	4096
#endif
