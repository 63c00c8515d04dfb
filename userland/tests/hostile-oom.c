// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile user space, part 3: a child allocates and touches anonymous
 * memory beyond RAM; the OOM killer must kill it (SIGKILL) and the
 * kernel, and this parent, carry on.
 */
#include "libc.h"

#define CHUNK	(8 << 20)

int main(void)
{
	struct sysinfo si;
	int status = 0, fd;
	pid_t pid;

	sysinfo(&si);
	printf("hostile-oom: %lu KiB RAM, %lu KiB free\n",
	       si.totalram * si.mem_unit / 1024, si.freeram * si.mem_unit / 1024);
	pid = fork();
	if (pid == 0) {
		unsigned long touched = 0;

		/* Make sure this is the process the OOM killer picks. */
		fd = open("/proc/self/oom_score_adj", O_WRONLY);
		write(fd, "1000", 4);
		close(fd);
		for (;;) {
			char *p = mmap(NULL, CHUNK, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			unsigned long i;

			if (p == MAP_FAILED) {
				printf("hostile-oom: mmap failed after %lu MiB\n",
				       touched >> 20);
				exit(1);
			}
			for (i = 0; i < CHUNK; i += 4096)
				p[i] = 1;
			touched += CHUNK;
		}
	}
	waitpid(pid, &status, 0);
	printf("hostile-oom: child status %x (%s)\n", status,
	       WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ?
	       "killed by SIGKILL" : "not OOM-killed");
	sysinfo(&si);
	printf("hostile-oom: %lu KiB free afterwards\n",
	       si.freeram * si.mem_unit / 1024);
	return !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
}
