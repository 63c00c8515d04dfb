// SPDX-License-Identifier: GPL-2.0
/*
 * kmemleak (a boot with kmemleak=on): a child loads the kernel's leaking
 * test module (/lib/modules/kmemleak-test.ko, DEBUG_KMEMLEAK_TEST), waits
 * until its objects are older than kmemleak's minimum age (5 s), asks
 * for two scans through /debug/kmemleak and prints the report, each line
 * prefixed "kmemleak: | ". The host test matches the unreferenced
 * objects against the pointers the module printed. Without kmemleak (off
 * by default) it prints "kmemleak: off" and exits 0.
 */
#include "libc.h"

#define CTL	"/debug/kmemleak"

struct kts {
	long long tv_sec;
	long long tv_nsec;
};

static char buf[4096];

int main(void)
{
	struct kts ts = { 6, 0 };
	char line[256];
	long ret;
	int fd, n, len = 0, i, pid, status = -1;

	debugfs_mount();

	/*
	 * Without kmemleak=on the file may still be there, but every command
	 * other than "clear" fails with EPERM. "scan=off" (no scan thread) is
	 * what this test wants anyway.
	 */
	fd = open(CTL, O_WRONLY, 0);
	ret = fd < 0 ? -1 : write(fd, "scan=off", 8);
	if (ret != 8) {
		printf("kmemleak: off (errno %d)\n", errno);
		return 0;
	}
	/*
	 * No task stacks scanned: a stale copy of a leaked pointer in a
	 * reused stack would hide that leak. Objects only a live stack refers
	 * to may be reported in exchange; the host test looks for the
	 * module's own.
	 */
	ret = write(fd, "stack=off", 9);
	close(fd);
	printf("kmemleak: stack=off %ld\n", ret);

	/*
	 * The module is loaded by a child that then exits: its kernel stack,
	 * which still holds the pointers the module's init printed, is freed
	 * instead of scanned as a live task's stack.
	 */
	pid = fork();
	if (pid == 0) {
		fd = open("/lib/modules/kmemleak-test.ko", O_RDONLY, 0);
		if (fd < 0) {
			printf("kmemleak: no kmemleak-test.ko (errno %d)\n", errno);
			exit(1);
		}
		ret = my_syscall3(__NR_finit_module, fd, "", 0);
		printf("kmemleak: kmemleak-test load %ld\n", ret);
		exit(ret != 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status != 0)
		return 1;
	my_syscall4(__NR_clock_nanosleep_time64, 1 /* MONOTONIC */, 0, &ts, NULL);

	/*
	 * Two scans: the first greys every object whose contents changed
	 * since it was allocated (a new object's checksum starts at 0, and
	 * SLUB debugging poisons it), so only the second reports them.
	 */
	for (i = 1; i <= 2; i++) {
		fd = open(CTL, O_WRONLY, 0);
		ret = fd < 0 ? -errno : write(fd, "scan", 4);
		close(fd);
		printf("kmemleak: scan %d: %ld\n", i, ret);
		if (ret != 4)
			return 1;
	}

	fd = open(CTL, O_RDONLY, 0);
	if (fd < 0)
		return 1;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (i = 0; i < n; i++) {
			if (buf[i] == '\n' || len == (int)sizeof(line) - 1) {
				line[len] = 0;
				printf("kmemleak: | %s\n", line);
				len = 0;
			} else {
				line[len++] = buf[i];
			}
		}
	}
	close(fd);
	printf("kmemleak: report end\n");
	return 0;
}
