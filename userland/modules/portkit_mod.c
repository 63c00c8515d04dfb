// SPDX-License-Identifier: GPL-2.0
/*
 * A test module: computes with kernel symbols (int_sqrt, a string
 * routine, a kernel variable) and with module-local data and calls, and
 * prints the results for the host to check.
 */
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/math.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

static unsigned long values[] = { 1000000, 65536, 99980001 };
static char buffer[64];

/* A module-local call through a function pointer and a direct call. */
static noinline unsigned long sum_of_roots(unsigned long (*root)(unsigned long))
{
	unsigned long sum = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(values); i++)
		sum += root(values[i]);
	return sum;
}

/*
 * The generic page-table walker on lowmem (big pages, and second-level
 * tables where the kernel image is) and on vmalloc space must find the
 * page the linear map or the allocator says.
 */
static void check_walker(void)
{
	void *low = kmalloc(5000, GFP_KERNEL);
	void *vm = vmalloc(3 * PAGE_SIZE);
	unsigned long off = 3 * PAGE_SIZE + 123;
	struct page *pages[3];
	bool low_ok, vm_ok;
	int i;

	if (!low || !vm) {
		pr_info("portkit_mod: walker no memory\n");
		goto out;
	}
	low_ok = vmalloc_to_page(low) == virt_to_page(low) &&
		 vmalloc_to_pfn(low + 4100) == virt_to_pfn(low + 4100) &&
		 vmalloc_to_page((void *)PAGE_OFFSET + off) ==
		 virt_to_page((void *)PAGE_OFFSET + off) &&
		 vmalloc_to_page(high_memory - off) ==
		 virt_to_page(high_memory - off);
	vm_ok = true;
	for (i = 0; i < 3; i++) {
		pages[i] = vmalloc_to_page(vm + i * PAGE_SIZE);
		vm_ok &= pages[i] && pfn_valid(page_to_pfn(pages[i]));
	}
	/* Written through vmalloc space, read through the linear map. */
	if (vm_ok) {
		memset(vm + PAGE_SIZE, 0x5a, PAGE_SIZE);
		vm_ok = *(u8 *)page_address(pages[1]) == 0x5a;
	}
	pr_info("portkit_mod: walker lowmem %s vmalloc %s\n",
		low_ok ? "ok" : "WRONG", vm_ok ? "ok" : "WRONG");
out:
	kfree(low);
	vfree(vm);
}

static int __init portkit_mod_init(void)
{
	unsigned long sum = sum_of_roots(int_sqrt);

	check_walker();

	memset(buffer, 'x', sizeof(buffer) - 1);
	pr_info("portkit_mod: loaded, sum of int_sqrt = %lu, strlen = %zu, jiffies %s\n",
		sum, strlen(buffer), jiffies ? "running" : "zero");
	return 0;
}

static void __exit portkit_mod_exit(void)
{
	pr_info("portkit_mod: unloaded\n");
}

module_init(portkit_mod_init);
module_exit(portkit_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("portkit test module");
