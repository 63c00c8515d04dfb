/* SPDX-License-Identifier: GPL-2.0 */
/* Copied by portkit from overrides/mips32/kernel/mcount.S: edit that file. */
/*
 * The function tracer's entry points (asm/ftrace.h has the call site).
 *
 * _mcount is what the sites call until ftrace_init() (or, for a module,
 * ftrace_module_init()) turns them off: it only undoes the site's
 * "addiu sp, sp, -8" and returns with ra back to the caller's value.
 *
 * ftrace_caller is what an enabled site calls. It undoes the site's
 * "addiu sp, sp, -8" first (the slot is never patched), then saves
 * a struct pt_regs (all the registers: gcc counts on _mcount to keep
 * everything but at, t4 and, at a module's site, v1), calls the tracer
 * in ftrace_call_func with (ip, parent ip, function_trace_op, NULL), then
 * the function graph tracer's entry if it is on, and returns to the site
 * with ra = at, the traced function's return address, which the graph
 * tracer may have replaced with return_to_handler (a leaf keeps it in ra;
 * a function that saved it has it in its frame, where t4 points).
 * regs[31] of the frame is the site's return address, so the unwinder
 * steps out of ftrace_caller like out of a C function (kernel/stacktrace.c).
 */

#include <linux/linkage.h>
#include <asm/asm-offsets.h>
#include <asm/export.h>
#include <asm/regdef.h>
#include <asm/stackframe.h>

#ifndef CONFIG_DYNAMIC_FTRACE
#error "the MIPS32 family's function tracer needs DYNAMIC_FTRACE"
#endif

/* The call of a module's site: its lui is 24 bytes before the return. */
#define INSN_JALR_V1	0x0060f809

	.set	noreorder
	.set	noat
	.text

SYM_FUNC_START(ftrace_stub)
	jr	ra
	 nop
SYM_FUNC_END(ftrace_stub)

SYM_FUNC_START(_mcount)
	addiu	sp, sp, 8
	jr	ra
	 move	ra, at
SYM_FUNC_END(_mcount)
EXPORT_SYMBOL(_mcount)

SYM_CODE_START(ftrace_caller)
	addiu	sp, sp, 8 - PT_SIZE
	sw	zero, PT_R0(sp)
	SAVE_GPRS t0
	addiu	t0, sp, PT_SIZE
	sw	t0, PT_R29(sp)

	/* ip: the recorded word, the jal of kernel text, a module's lui. */
	lw	t0, -8(ra)
	li	t1, INSN_JALR_V1
	bne	t0, t1, 1f
	 addiu	s0, ra, -8
	addiu	s0, ra, -24
1:	move	a0, s0
	move	a1, at
	lw	a2, function_trace_op
	lw	t9, ftrace_call_func
	jalr	t9
	 move	a3, zero

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	lw	t0, ftrace_graph_on
	beqz	t0, 2f
	 nop
	/* Where the return address is: the function's slot, else at. */
	lw	a0, PT_R12(sp)
	bnez	a0, 3f
	 nop
	addiu	a0, sp, PT_R1
3:	jal	prepare_ftrace_return
	 move	a1, s0
2:
#endif

	RESTORE_GPRS t0
	addiu	sp, sp, PT_SIZE
	jr	ra
	 move	ra, at
SYM_CODE_END(ftrace_caller)

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
/*
 * A traced function whose return address prepare_ftrace_return()
 * replaced returns here: its results (v0, v1) are kept while the graph
 * tracer records the return and gives back the real return address.
 */
SYM_CODE_START(return_to_handler)
	addiu	sp, sp, -24
	sw	v0, 16(sp)
	sw	v1, 20(sp)
	jal	ftrace_return_to_handler
	 move	a0, zero
	move	ra, v0
	lw	v0, 16(sp)
	lw	v1, 20(sp)
	jr	ra
	 addiu	sp, sp, 24
SYM_CODE_END(return_to_handler)
#endif
