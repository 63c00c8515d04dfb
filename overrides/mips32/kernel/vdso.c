// SPDX-License-Identifier: GPL-2.0
/*
 * The vDSO (vdso/): its data page, which the timekeeping core keeps up to
 * date (GENERIC_TIME_VSYSCALL, <asm/vdso/vsyscall.h>), and the image, both
 * mapped into every process at exec by vdso_map(): the data page read-only
 * as [vvar], the image just above it as [vdso], whose address the ELF
 * auxiliary vector passes as AT_SYSINFO_EHDR (<asm/elf.h>).
 */

#include <linux/binfmts.h>
#include <linux/elf.h>
#include <linux/err.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include <asm/page.h>
#include <asm/vdso.h>
#include <vdso/datapage.h>

static union {
	struct vdso_data data[CS_BASES];
	u8 page[PAGE_SIZE];
} vdso_data_store __page_aligned_data;

struct vdso_data *vdso_data = vdso_data_store.data;

static struct page *vvar_pages[1];

static struct vm_special_mapping vvar_mapping = {
	.name	= "[vvar]",
	.pages	= vvar_pages,
};

static struct vm_special_mapping vdso_mapping = {
	.name	= "[vdso]",
};

static unsigned long vdso_pages;

static int __init vdso_init(void)
{
	struct page **pages;
	unsigned long i;

	if (memcmp(vdso_start, ELFMAG, SELFMAG)) {
		pr_err("vDSO image is not an ELF object\n");
		return -EINVAL;
	}
	vdso_pages = (vdso_end - vdso_start) >> PAGE_SHIFT;
	pages = kcalloc(vdso_pages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < vdso_pages; i++)
		pages[i] = virt_to_page(vdso_start + i * PAGE_SIZE);
	vdso_mapping.pages = pages;
	vvar_pages[0] = virt_to_page(vdso_data_store.page);
	return 0;
}
arch_initcall(vdso_init);

/* Called with the mmap lock held for writing. */
int vdso_map(struct mm_struct *mm)
{
	unsigned long size = (1 + vdso_pages) << PAGE_SHIFT;
	struct vm_area_struct *vma;
	unsigned long addr;

	if (!vdso_pages)
		return -ENOMEM;
	addr = get_unmapped_area(NULL, 0, size, 0, 0);
	if (IS_ERR_VALUE(addr))
		return addr;
	vma = _install_special_mapping(mm, addr, PAGE_SIZE,
				       VM_READ | VM_MAYREAD, &vvar_mapping);
	if (IS_ERR(vma))
		return PTR_ERR(vma);
	vma = _install_special_mapping(mm, addr + PAGE_SIZE, size - PAGE_SIZE,
				       VM_READ | VM_EXEC | VM_MAYREAD |
				       VM_MAYWRITE | VM_MAYEXEC,
				       &vdso_mapping);
	if (IS_ERR(vma)) {
		do_munmap(mm, addr, PAGE_SIZE, NULL);
		return PTR_ERR(vma);
	}
	mm->context.vdso = addr + PAGE_SIZE;
	return 0;
}
