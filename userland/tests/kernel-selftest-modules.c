// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's self-tests built as modules in the debug variant
 * (STRING_SELFTEST, too slow for every boot, and the module-only
 * TEST_USER_COPY, TEST_BITOPS, TEST_VMALLOC): each one is
 * loaded from /lib/modules with finit_module (its init runs the tests
 * and prints the results the host test reads) and unloaded if it stayed.
 * Prints "kernel-selftest-modules: <module> load <ret> unload <ret>".
 * Exits with the number of modules missing from the initramfs.
 */
#include "libc.h"

static const struct {
	const char *name;
	const char *params;
} modules[] = {
	{ "test_string", "" },
	{ "test_user_copy", "" },
	{ "test_bitops", "" },
	/*
	 * A short run of the tests that exercise page-table code and
	 * expect no failure (not long_busy_list, 15000 vmallocs; not
	 * align_shift, whose failing allocations are meant to warn):
	 * the default is 10^6 loops of each of ten tests.
	 */
	{ "test_vmalloc", "nr_threads=1 run_test_mask=0x3b test_loop_count=50" },
};

int main(void)
{
	char path[64];
	unsigned int i;
	int missing = 0;

	for (i = 0; i < sizeof(modules) / sizeof(modules[0]); i++) {
		long load, unload = -1;
		int fd;

		strcpy(path, "/lib/modules/");
		strcpy(path + strlen(path), modules[i].name);
		strcpy(path + strlen(path), ".ko");
		fd = open(path, O_RDONLY, 0);
		if (fd < 0) {
			printf("kernel-selftest-modules: %s missing (errno %d)\n",
			       modules[i].name, errno);
			missing++;
			continue;
		}
		load = my_syscall3(__NR_finit_module, fd, modules[i].params, 0);
		close(fd);
		if (load == 0)
			unload = my_syscall2(__NR_delete_module, modules[i].name,
					     O_NONBLOCK);
		printf("kernel-selftest-modules: %s load %ld unload %ld\n",
		       modules[i].name, load, unload);
	}
	return missing;
}
