/* QEMU user-mode (qemu-mipsel) crt for the differential tests: run the
   generated sequences, then write(2) the state records to stdout and exit. */
	.set noreorder
	.section .text.start,"ax",@progbits
	.globl _start
_start:
	/* exceptions the generated code may raise on purpose (Ov, Tr/Bp, AdE)
	   arrive as SIGFPE, SIGTRAP, SIGBUS: log them in the current state
	   record (k0) and resume at EPC + 4, like the tsar-emu handler.  The
	   handler runs on an alternate stack since sp is random. */
	la	$4, altstack_desc
	move	$5, $0
	li	$2, 4206		/* sigaltstack */
	syscall
	bnez	$7, 9f
	nop
	li	$4, 8			/* SIGFPE */
	jal	install
	nop
	li	$4, 5			/* SIGTRAP */
	jal	install
	nop
	li	$4, 10			/* SIGBUS */
	jal	install
	nop
	j	seq_start
	nop

install:
	la	$5, sigact
	move	$6, $0
	li	$7, 16			/* sizeof(kernel sigset_t) */
	li	$2, 4194		/* rt_sigaction */
	syscall
	bnez	$7, 9f
	nop
	jr	$31
	nop

/* handler(sig, siginfo *, ucontext *): o32 ucontext: uc_mcontext at 24,
   sc_pc (u64) at +8, sc_regs[n] (u64) at +16 + 8n */
handler:
	lw	$8, 24 + 16 + 8 * 26($6)	/* k0 at the fault: state record */
	lw	$9, 24 + 8($6)			/* pc */
	/* resume at pc + 4, or pc + 8 when pc is a branch (the fault was in
	   its delay slot): opcodes 1-7, 20-23, or SPECIAL jr/jalr */
	lw	$14, 0($9)
	srl	$15, $14, 26
	bnez	$15, 3f
	andi	$16, $14, 0x3E
	xori	$16, $16, 8
	b	4f
	sltiu	$16, $16, 1
3:	li	$17, 0x00F000FE
	sltiu	$18, $15, 32
	srlv	$16, $17, $15
	and	$16, $16, $18
	andi	$16, $16, 1
4:	sll	$16, $16, 2
	addiu	$10, $9, 4
	addu	$10, $10, $16
	sw	$10, 24 + 8($6)
	lw	$11, EXC_OFF($8)
	sltiu	$12, $11, EXC_MAX
	beqz	$12, 1f
	addiu	$13, $11, 1
	sll	$12, $11, 3
	addu	$12, $12, $8
	sw	$4, EXC_OFF + 4($12)		/* signal number (normalised later) */
	sw	$9, EXC_OFF + 8($12)
1:	sw	$13, EXC_OFF($8)
	jr	$31
	nop

	.globl harness_done
harness_done:
	la	$5, seq_state_begin
	la	$6, seq_state_end
	subu	$6, $6, $5
1:	li	$2, 4004		/* write(1, a1, a2) */
	li	$4, 1
	syscall
	bnez	$7, 9f			/* a3 != 0: error */
	nop
	blez	$2, 9f
	nop
	addu	$5, $5, $2
	subu	$6, $6, $2
	bgtz	$6, 1b
	nop
	li	$2, 4001		/* exit(0) */
	li	$4, 0
	syscall
9:	li	$2, 4001		/* exit(2) */
	li	$4, 2
	syscall

	.data
	.align	2
sigact:	.word	0x08000008		/* SA_ONSTACK | SA_SIGINFO */
	.word	handler
	.word	0, 0, 0, 0		/* sa_mask */
altstack_desc:
	.word	altstack, 65536, 0	/* ss_sp, ss_size, ss_flags */
	.bss
	.align	4
altstack: .space 65536
