// SPDX-License-Identifier: GPL-2.0
/*
 * Writing an instruction into kernel or module text. With
 * STRICT_KERNEL_RWX and STRICT_MODULE_RWX the text is mapped read-only,
 * so the word is written through a writable alias of its page: the
 * FIX_TEXT_POKE fixmap slot, set to the page's physical address for the
 * write and cleared after it. The same path serves text that is still
 * writable (no RWX, early boot, a module being loaded).
 *
 * A naturally aligned word store is atomic: a CPU running the code sees
 * the old or the new instruction, never a mix. flush_icache_range() then
 * makes the new word visible to instruction fetch on every CPU; where the
 * instruction caches are coherent with stores (the board's MMU layer has
 * no asm/cacheflush.h of its own) it is asm-generic's empty one.
 */

#include <linux/mm.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <asm/cacheflush.h>
#include <asm/fixmap.h>
#include <asm/patch.h>

/* One writer of the FIX_TEXT_POKE slot at a time. */
static DEFINE_RAW_SPINLOCK(patch_lock);

/* The physical address of a word of kernel image or module text. */
static phys_addr_t text_to_phys(void *addr)
{
	if (is_vmalloc_or_module_addr(addr))
		return page_to_phys(vmalloc_to_page(addr)) + offset_in_page(addr);
	return __pa(addr);
}

int patch_insn_write(void *addr, u32 insn)
{
	unsigned long flags;
	u32 *alias;
	int ret;

	if (WARN_ON(!IS_ALIGNED((unsigned long)addr, sizeof(insn))))
		return -EINVAL;

	raw_spin_lock_irqsave(&patch_lock, flags);
	__set_fixmap(FIX_TEXT_POKE, text_to_phys(addr) & PAGE_MASK, PAGE_KERNEL);
	alias = (u32 *)(__fix_to_virt(FIX_TEXT_POKE) + offset_in_page(addr));
	ret = copy_to_kernel_nofault(alias, &insn, sizeof(insn));
	clear_fixmap(FIX_TEXT_POKE);
	raw_spin_unlock_irqrestore(&patch_lock, flags);

	flush_icache_range((unsigned long)addr, (unsigned long)addr + sizeof(insn));
	return ret;
}
