// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's own torture tests, as modules of a kernel that builds them
 * (variants/debug.config): torture.ko, then each of locktorture,
 * rcutorture and scftorture in turn, loaded with parameters, left running
 * for a bounded time on every CPU, and unloaded. Their reports (ending
 * with "End of test: SUCCESS" or "FAILURE") go to the kernel log, which
 * the host test reads on the console. A test whose module is absent (a
 * kernel without it) is reported as such and counts as a failure.
 */
#include "libc.h"

struct torture {
	const char *name;	/* module name */
	const char *params;
	unsigned int seconds;
};

static const struct torture tests[] = {
	{ "locktorture", "torture_type=spin_lock nwriters_stress=8 stat_interval=3", 6 },
	{ "locktorture", "torture_type=rw_lock nwriters_stress=4 nreaders_stress=4 stat_interval=3", 4 },
	{ "rcutorture", "torture_type=rcu stat_interval=3 nfakewriters=2", 8 },
	{ "scftorture", "nthreads=4 stat_interval=3", 4 },
};

static long load(const char *name, const char *params)
{
	char path[64];
	long ret;
	int fd;

	strcpy(path, "/lib/modules/");
	strcpy(path + strlen(path), name);
	strcpy(path + strlen(path), ".ko");
	fd = open(path, O_RDONLY, 0);
	if (fd < 0)
		return -1000;
	ret = my_syscall3(__NR_finit_module, fd, params, 0);
	close(fd);
	return ret;
}

int main(void)
{
	unsigned int i;
	int fail = 0;
	long ret;

	ret = load("torture", "");
	printf("torture: load torture %ld\n", ret);
	fail |= ret != 0;
	for (i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		ret = load(tests[i].name, tests[i].params);
		printf("torture: load %s %s: %ld\n", tests[i].name,
		       tests[i].params, ret);
		if (ret) {
			fail = 1;
			continue;
		}
		sleep(tests[i].seconds);
		ret = my_syscall2(__NR_delete_module, tests[i].name, O_NONBLOCK);
		printf("torture: unload %s after %us: %ld\n", tests[i].name,
		       tests[i].seconds, ret);
		fail |= ret != 0;
	}
	ret = my_syscall2(__NR_delete_module, "torture", O_NONBLOCK);
	printf("torture: unload torture %ld\n", ret);
	return fail;
}
