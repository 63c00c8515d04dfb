// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile user space, part 2: a bounded fork storm. 32 children each fork
 * 7 grandchildren as fast as they can, all of them alive at once (they
 * wait on a pipe), then everything is released and reaped. The kernel
 * must keep up and account for every process.
 */
#include "libc.h"

#define CHILDREN	32
#define GRANDCHILDREN	7

static int gate[2], ready[2];

static void wait_gate(void)
{
	char c;

	/* Blocks until the parent closes the write end. */
	read(gate[0], &c, 1);
}

static int child(void)
{
	int i, n = 0, status;

	close(gate[1]);
	for (i = 0; i < GRANDCHILDREN; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			wait_gate();
			exit(0);
		}
		n += pid > 0;
	}
	/* Tell the parent this subtree is complete. */
	write(ready[1], "r", 1);
	wait_gate();
	for (i = 0; i < n; i++)
		if (wait4(-1, &status, 0, NULL) > 0 && status == 0)
			continue;
		else
			return 100;
	return n;
}

int main(void)
{
	int i, n = 0, total = 0, status;
	struct sysinfo si;

	pipe(gate);
	pipe(ready);
	for (i = 0; i < CHILDREN; i++) {
		pid_t pid = fork();

		if (pid == 0)
			exit(child());
		n += pid > 0;
	}
	/* Once every child has forked its subtree, count the processes. */
	for (i = 0; i < n; i++) {
		char c;

		read(ready[0], &c, 1);
	}
	sysinfo(&si);
	printf("hostile-forkstorm: %d children forked, %u processes running\n",
	       n, si.procs);
	close(gate[1]);
	for (i = 0; i < n; i++) {
		if (wait4(-1, &status, 0, NULL) <= 0 || !WIFEXITED(status))
			continue;
		total += 1 + WEXITSTATUS(status);
	}
	printf("hostile-forkstorm: reaped %d processes (want %d)\n", total,
	       CHILDREN * (1 + GRANDCHILDREN));
	return total != CHILDREN * (1 + GRANDCHILDREN);
}
