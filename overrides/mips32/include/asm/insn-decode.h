/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MIPS32 instruction fields and the decoding that kprobes and uprobes
 * share (kernel/kprobes.c, kernel/uprobes.c): which words are branches
 * or jumps, i.e. have a delay slot, and which cannot run out of line.
 */
#ifndef _ASM_MIPS32_INSN_DECODE_H
#define _ASM_MIPS32_INSN_DECODE_H

#include <linux/types.h>

/* Major opcodes (bits 31..26) and fields of the instructions decoded here. */
#define OP_SPECIAL	0x00
#define OP_REGIMM	0x01
#define OP_J		0x02
#define OP_JAL		0x03
#define OP_BEQ		0x04
#define OP_BNE		0x05
#define OP_BLEZ		0x06
#define OP_BGTZ		0x07
#define OP_COP0		0x10
#define OP_COP1		0x11
#define OP_COP2		0x12
#define OP_BEQL		0x14
#define OP_BNEL		0x15
#define OP_BLEZL	0x16
#define OP_BGTZL	0x17
/* loads and stores */
#define OP_LB		0x20
#define OP_LH		0x21
#define OP_LWL		0x22
#define OP_LW		0x23
#define OP_LBU		0x24
#define OP_LHU		0x25
#define OP_LWR		0x26
#define OP_SB		0x28
#define OP_SH		0x29
#define OP_SWL		0x2a
#define OP_SW		0x2b
#define OP_SWR		0x2e
#define OP_LL		0x30
#define OP_SC		0x38

#define FN_JR		0x08
#define FN_JALR		0x09
#define FN_SYSCALL	0x0c
#define FN_BREAK	0x0d
#define FN_ERET		0x18
#define FN_DERET	0x1f

#define RS_BC		0x08	/* COP1/COP2 rs field: bc1x/bc2x branches */
#define RS_CO		0x10	/* COP0 rs field with the CO bit: eret & co */

/* "break code": code in bits 25..6, SPECIAL function 0x0d. */
#define MIPS32_BREAK(code)	(((code) << 6) | FN_BREAK)

static inline unsigned int insn_op(u32 insn)
{
	return insn >> 26;
}

static inline unsigned int insn_rs(u32 insn)
{
	return (insn >> 21) & 0x1f;
}

static inline unsigned int insn_rt(u32 insn)
{
	return (insn >> 16) & 0x1f;
}

static inline unsigned int insn_fn(u32 insn)
{
	return insn & 0x3f;
}

static inline bool insn_is_break(u32 insn)
{
	return insn_op(insn) == OP_SPECIAL && insn_fn(insn) == FN_BREAK;
}

/* Branches and jumps: every instruction that has a delay slot. */
static inline bool insn_has_delay_slot(u32 insn)
{
	switch (insn_op(insn)) {
	case OP_SPECIAL:
		return insn_fn(insn) == FN_JR || insn_fn(insn) == FN_JALR;
	case OP_REGIMM:
		/* bltz, bgez, bltzl, bgezl; bltzal, bgezal, bltzall, bgezall */
		return (insn_rt(insn) & ~0x13u) == 0;
	case OP_J ... OP_BGTZ:
	case OP_BEQL ... OP_BGTZL:
		return true;
	case OP_COP1:
	case OP_COP2:
		return insn_rs(insn) == RS_BC;
	default:
		return false;
	}
}

/* Stores, sc included: what writes memory. */
static inline bool insn_is_store(u32 insn)
{
	unsigned int op = insn_op(insn);

	return (op >= OP_SB && op <= OP_SW) || op == OP_SWR || op == OP_SC;
}

/*
 * ll and sc: the exception that ends a single step out of line clears
 * LLbit, so an sc after it fails, and its retry loop would never end.
 */
static inline bool insn_is_llsc(u32 insn)
{
	return insn_op(insn) == OP_LL || insn_op(insn) == OP_SC;
}

#endif /* _ASM_MIPS32_INSN_DECODE_H */
