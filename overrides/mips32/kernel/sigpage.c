// SPDX-License-Identifier: GPL-2.0
/*
 * The signal-return page: one read+exec page mapped into every process
 * at exec, holding "li v0, __NR_rt_sigreturn; syscall". Signal handlers
 * return to it, so user stacks never need to be executable.
 * arch_setup_additional_pages() maps it and the vDSO (kernel/vdso.c).
 */

#include <linux/binfmts.h>
#include <linux/elf.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>

#include <asm/syscall.h>
#include <asm/unistd.h>
#include <asm/vdso.h>

#define INSN_ADDIU(rt, imm)	((0x09u << 26) | ((rt) << 16) | ((imm) & 0xffff))
#define INSN_SYSCALL		0x0000000cu

static struct page *sigpage_pages[1];

static const struct vm_special_mapping sigpage_mapping = {
	.name	= "[sigpage]",
	.pages	= sigpage_pages,
};

static int __init sigpage_init(void)
{
	struct page *page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	u32 *code;

	if (!page)
		return -ENOMEM;
	code = page_address(page);
	code[0] = INSN_ADDIU(SYSCALL_NR_REG, __NR_rt_sigreturn);
	code[1] = INSN_SYSCALL;
	sigpage_pages[0] = page;
	return 0;
}
arch_initcall(sigpage_init);

int arch_setup_additional_pages(struct linux_binprm *bprm, int uses_interp)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	unsigned long addr;
	int ret = 0;

	if (mmap_write_lock_killable(mm))
		return -EINTR;

	addr = get_unmapped_area(NULL, 0, PAGE_SIZE, 0, 0);
	if (IS_ERR_VALUE(addr)) {
		ret = addr;
		goto out;
	}
	vma = _install_special_mapping(mm, addr, PAGE_SIZE,
				       VM_READ | VM_EXEC | VM_MAYREAD | VM_MAYEXEC,
				       &sigpage_mapping);
	if (IS_ERR(vma)) {
		ret = PTR_ERR(vma);
		goto out;
	}
	mm->context.sigpage = addr;
	ret = vdso_map(mm);
out:
	mmap_write_unlock(mm);
	return ret;
}
