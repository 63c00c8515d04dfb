// SPDX-License-Identifier: GPL-2.0
/*
 * Guest instruction costs of kernel paths, timed with rdhwr $2 (CP0
 * Count: one per instruction in the emulator). Figures, not checks:
 * prints "kcost: <what> <instructions per operation>" and exits 0 when
 * every measured operation worked.
 */
#include "libc.h"

static inline unsigned int cycles(void)
{
	unsigned int c;

	__asm__ __volatile__(".set push\n.set mips32r2\nrdhwr %0, $2\n.set pop"
			     : "=r" (c));
	return c;
}

#define ROUNDS	200
#define PAGES	64

int main(void)
{
	unsigned int t0, t1;
	int i, status, fds[2], back[2];
	char *map, c = 0;

	t0 = cycles();
	for (i = 0; i < ROUNDS; i++)
		my_syscall0(__NR_getppid);
	t1 = cycles();
	printf("kcost: null-syscall %u\n", (t1 - t0) / ROUNDS);

	map = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return 1;
	t0 = cycles();
	for (i = 0; i < PAGES; i++)
		map[i * 4096] = 1;
	t1 = cycles();
	printf("kcost: anon-write-fault %u\n", (t1 - t0) / PAGES);

	t0 = cycles();
	for (i = 0; i < 20; i++) {
		int pid = fork();

		if (pid == 0)
			exit(0);
		if (pid < 0 || waitpid(pid, &status, 0) != pid)
			return 2;
	}
	t1 = cycles();
	printf("kcost: fork-exit-wait %u\n", (t1 - t0) / 20);

	if (pipe(fds) || pipe(back))
		return 3;
	if (fork() == 0) {
		for (i = 0; i < ROUNDS; i++) {
			read(fds[0], &c, 1);
			write(back[1], &c, 1);
		}
		exit(0);
	}
	t0 = cycles();
	for (i = 0; i < ROUNDS; i++) {
		write(fds[1], &c, 1);
		read(back[0], &c, 1);
	}
	t1 = cycles();
	wait4(-1, &status, 0, NULL);
	/* Two switches and two reads and writes per round trip. */
	printf("kcost: pipe-round-trip %u\n", (t1 - t0) / ROUNDS);
	return 0;
}
