// SPDX-License-Identifier: GPL-2.0
/*
 * A parallel workload's speed-up in guest time (SMP figures, `make bench`):
 * W independent CPU-bound processes (an xorshift loop, no memory traffic),
 * each pinned with sched_setaffinity, timed by the guest clock
 * (CLOCK_MONOTONIC) from the first fork to the last wait:
 *   one     every worker pinned to CPU 0 (the work of W on one CPU)
 *   spread  worker i pinned to CPU i mod ncpus
 * Each worker checks it ran on the CPU it was pinned to (getcpu, at the
 * end) and stores its result; every result must be the same.
 *
 * Settings from the kernel command line (/proc/cmdline):
 *   smp_speedup_workers=W   default: the CPUs we may run on
 *   smp_speedup_iters=N     loop iterations per worker (default 100000,
 *                           about 1 M instructions: quick for the tests)
 *   smp_speedup_phases=both|one|spread   default both
 * Output, one line each:
 *   smp-speedup: cpus C workers W iters N
 *   smp-speedup: <phase> <us> us guest, pinned <ok> of W, cpus <mask>
 *   smp-speedup: speedup <x.xx> (one / spread)      (phases=both only)
 * Exit 0 when every worker ran where pinned and all results agree.
 */
#include "settings.h"

#define MAX_WORKERS	32

struct shared {
	unsigned int result[MAX_WORKERS];
	unsigned int cpus;
};

/*
 * A "name=value" setting of the kernel command line. Read from
 * /proc/cmdline rather than the environment: a program only has the
 * environment its parent passes on.
 */
static char cmdline[1024];
static int cmdline_len = -1;

static const char *setting(const char *name)
{
	size_t n = strlen(name);
	int i;

	if (cmdline_len < 0) {
		int fd = open("/proc/cmdline", O_RDONLY), r;

		cmdline_len = 0;
		while (fd >= 0 && (r = read(fd, cmdline + cmdline_len,
					     sizeof(cmdline) - 1 - cmdline_len)) > 0)
			cmdline_len += r;
		if (fd >= 0)
			close(fd);
		for (i = 0; i < cmdline_len; i++)
			if (cmdline[i] == ' ' || cmdline[i] == '\n')
				cmdline[i] = 0;
	}
	for (i = 0; i < cmdline_len; i += strlen(cmdline + i) + 1)
		if (!strncmp(cmdline + i, name, n) && cmdline[i + n] == '=')
			return cmdline + i + n + 1;
	return NULL;
}

/* CPU-bound work with a result that depends on every iteration. */
static unsigned int work(unsigned long iters)
{
	unsigned int x = 2463534242u, sum = 0;
	unsigned long i;

	for (i = 0; i < iters; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		sum += x;
	}
	return sum;
}

static int nth_cpu(unsigned long mask, int n)
{
	int cpu;

	for (cpu = 0; cpu < 32; cpu++)
		if ((mask >> cpu) & 1 && n-- == 0)
			return cpu;
	return -1;
}

/* Run the workers, worker i pinned to cpu_of[i]; returns guest us. */
static unsigned long run_phase(const char *name, struct shared *sh, int workers,
			   const int *cpu_of, unsigned long iters, int *failed)
{
	pid_t pids[MAX_WORKERS];
	long long t0, t1;
	int i, ok = 0;

	memset(sh, 0, sizeof(*sh));
	t0 = now_us();
	for (i = 0; i < workers; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			unsigned int r;
			int cpu;

			if (setaffinity(0, 1UL << cpu_of[i]))
				sys_exit(2);
			r = work(iters);
			cpu = current_cpu();
			sh->result[i] = r;
			__atomic_fetch_or(&sh->cpus, 1U << cpu, __ATOMIC_SEQ_CST);
			sys_exit(cpu == cpu_of[i] ? 0 : 1);
		}
		if (pids[i] < 0) {
			printf("smp-speedup: FAIL fork errno=%d\n", errno);
			*failed = 1;
		}
	}
	for (i = 0; i < workers; i++) {
		int status = -1;

		if (pids[i] > 0 && waitpid(pids[i], &status, 0) == pids[i] &&
		    WIFEXITED(status) && WEXITSTATUS(status) == 0)
			ok++;
	}
	t1 = now_us();
	for (i = 1; i < workers; i++)
		if (sh->result[i] != sh->result[0])
			*failed = 1;
	printf("smp-speedup: %s %lu us guest, pinned %d of %d, cpus %x\n",
	       name, (unsigned long)(t1 - t0), ok, workers, sh->cpus);
	if (ok != workers)
		*failed = 1;
	return t1 - t0;
}

int main(void)
{
	unsigned long mask = getaffinity();
	int ncpus = 0, workers, i, failed = 0;
	unsigned long iters = uint_or(setting("smp_speedup_iters"), 100000);
	const char *phases = setting("smp_speedup_phases");
	int cpu_of[MAX_WORKERS];
	unsigned long one = 0, spread = 0;
	unsigned int first = 0;
	struct shared *sh;

	for (i = 0; i < 32; i++)
		ncpus += (mask >> i) & 1;
	workers = uint_or(setting("smp_speedup_workers"), ncpus);
	if (!phases)
		phases = "both";
	printf("smp-speedup: cpus %d workers %d iters %lu\n", ncpus, workers,
	       iters);
	if (ncpus < 1 || workers < 1 || workers > MAX_WORKERS) {
		printf("smp-speedup: FAIL bad settings\n");
		return 1;
	}
	sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		printf("smp-speedup: FAIL mmap errno=%d\n", errno);
		return 1;
	}

	if (strcmp(phases, "spread")) {
		for (i = 0; i < workers; i++)
			cpu_of[i] = nth_cpu(mask, 0);
		one = run_phase("one", sh, workers, cpu_of, iters, &failed);
		first = sh->result[0];
	}
	if (strcmp(phases, "one")) {
		for (i = 0; i < workers; i++)
			cpu_of[i] = nth_cpu(mask, i % ncpus);
		spread = run_phase("spread", sh, workers, cpu_of, iters,
				   &failed);
		if (!strcmp(phases, "both") && sh->result[0] != first)
			failed = 1;
	}
	/*
	 * 32-bit arithmetic (no libgcc 64-bit division): fine below 40 s.
	 * nolibc's printf has no field width: the hundredths' zero by hand.
	 */
	if (one && spread) {
		unsigned long cents = one % spread * 100 / spread;

		printf("smp-speedup: speedup %lu.%s%lu (one / spread)\n",
		       one / spread, cents < 10 ? "0" : "", cents);
	}
	if (failed)
		printf("smp-speedup: FAIL\n");
	return failed;
}
