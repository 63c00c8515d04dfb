// SPDX-License-Identifier: GPL-2.0
/*
 * A test module whose init writes through a NULL pointer: the oops must
 * kill only the loading process.
 */
#include <linux/init.h>
#include <linux/kernel.h>
#include <linux/module.h>

static int __init portkit_oops_init(void)
{
	int *volatile p = NULL;

	pr_info("portkit_oops: about to oops\n");
	*p = 1;
	return 0;
}

module_init(portkit_oops_init);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("portkit test module that oopses on load");
