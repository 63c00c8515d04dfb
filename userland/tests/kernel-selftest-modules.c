// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's self-tests built as modules in the debug variant
 * (STRING_SELFTEST, too slow for every boot, and the module-only
 * TEST_USER_COPY, TEST_BITOPS, TEST_VMALLOC, TEST_STATIC_KEYS): each one
 * is loaded from /lib/modules with finit_module (its init runs the tests
 * and prints the results the host test reads, or fails with -EINVAL as
 * test_static_keys does) and unloaded if it stayed. A module another one
 * needs (test_static_key_base, whose keys test_static_keys flips) stays
 * until the end and is unloaded last. Where a self-test became a KUnit
 * suite (6.12: string_kunit, usercopy_kunit), the module of that name is
 * loaded instead; its init runs the suite, whose KTAP the host test reads.
 * Prints "kernel-selftest-modules: <module> load <ret> unload <ret>".
 * Exits with the number of modules missing from the initramfs.
 */
#include "libc.h"

static const struct {
	const char *name;
	const char *kunit_name;	/* the KUnit suite it became, if any */
	const char *params;
	int needed;	/* by a later module: unloaded at the end */
} modules[] = {
	{ "test_string", "string_kunit", "", 0 },
	{ "test_user_copy", "usercopy_kunit", "", 0 },
	{ "test_bitops", NULL, "", 0 },
	/*
	 * A short run of the tests that exercise page-table code and
	 * expect no failure (not long_busy_list, 15000 vmallocs; not
	 * align_shift, whose failing allocations are meant to warn):
	 * the default is 10^6 loops of each of ten tests.
	 */
	{ "test_vmalloc", NULL, "nr_threads=1 run_test_mask=0x3b test_loop_count=50", 0 },
	/* Static keys in the kernel and in both modules, patched in place. */
	{ "test_static_key_base", NULL, "", 1 },
	{ "test_static_keys", NULL, "", 0 },
};

#define NR_MODULES (sizeof(modules) / sizeof(modules[0]))

static int open_module(const char *name)
{
	char path[64];

	strcpy(path, "/lib/modules/");
	strcpy(path + strlen(path), name);
	strcpy(path + strlen(path), ".ko");
	return open(path, O_RDONLY, 0);
}

int main(void)
{
	long loaded[NR_MODULES];
	unsigned int i;
	int missing = 0;

	for (i = 0; i < NR_MODULES; i++) {
		const char *name = modules[i].name;
		long load, unload = -1;
		int fd;

		loaded[i] = 1;	/* not there: no line at the end either */

		fd = open_module(name);
		if (fd < 0 && modules[i].kunit_name) {
			name = modules[i].kunit_name;
			fd = open_module(name);
		}
		if (fd < 0) {
			printf("kernel-selftest-modules: %s missing (errno %d)\n",
			       modules[i].name, errno);
			missing++;
			continue;
		}
		load = my_syscall3(__NR_finit_module, fd, modules[i].params, 0);
		close(fd);
		loaded[i] = load;
		if (modules[i].needed)
			continue;
		if (load == 0)
			unload = my_syscall2(__NR_delete_module, name, O_NONBLOCK);
		printf("kernel-selftest-modules: %s load %ld unload %ld\n",
		       name, load, unload);
	}
	for (i = NR_MODULES; i-- > 0;) {
		long unload = -1;

		if (!modules[i].needed || loaded[i] == 1)
			continue;
		if (loaded[i] == 0)
			unload = my_syscall2(__NR_delete_module, modules[i].name,
					     O_NONBLOCK);
		printf("kernel-selftest-modules: %s load %ld unload %ld\n",
		       modules[i].name, loaded[i], unload);
	}
	return missing;
}
