/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copied by portkit from overrides/mips32/include/asm/kprobes.h: edit that
 * file.
 */
/*
 * Kprobes on MIPS32 (kernel/kprobes.c): a probe is a break instruction
 * written over the probed word; the original instruction runs out of
 * line in an instruction slot followed by a second break, after which
 * execution resumes at the word after the probe.
 */
#ifndef _ASM_MIPS32_KPROBES_H
#define _ASM_MIPS32_KPROBES_H

#include <asm-generic/kprobes.h>

#ifdef CONFIG_KPROBES
#include <linux/types.h>
#include <linux/ptrace.h>
#include <linux/percpu.h>

#define __ARCH_WANT_KPROBES_INSN_SLOT
/* The probed instruction and the break that ends its single step. */
#define MAX_INSN_SIZE			2

typedef u32 kprobe_opcode_t;

#define flush_insn_slot(p)		do { } while (0)
#define kretprobe_blacklist_size	0

struct arch_specific_insn {
	kprobe_opcode_t *insn;		/* out-of-line slot, MAX_INSN_SIZE words */
};

struct prev_kprobe {
	struct kprobe *kp;
	unsigned int status;
	unsigned long saved_ie;
};

/* Per-CPU state of the probe being handled. */
struct kprobe_ctlblk {
	unsigned int kprobe_status;
	unsigned long saved_ie;		/* Status.IE of the probed context */
	struct prev_kprobe prev_kprobe;
};

void arch_remove_kprobe(struct kprobe *p);
int kprobe_fault_handler(struct pt_regs *regs, unsigned int trapnr);
bool kprobe_break_handler(struct pt_regs *regs);
void __kretprobe_trampoline(void);
void *trampoline_probe_handler(struct pt_regs *regs);

#else /* !CONFIG_KPROBES */
struct pt_regs;

static inline bool kprobe_break_handler(struct pt_regs *regs)
{
	return false;
}
#endif /* CONFIG_KPROBES */
#endif /* _ASM_MIPS32_KPROBES_H */
