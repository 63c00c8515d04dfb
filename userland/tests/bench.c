// SPDX-License-Identifier: GPL-2.0
/*
 * Guest speed figures for `make bench` (scripts/bench-guest.py): guest
 * instructions per kernel operation, read from the CP0 cycle counter with
 * `rdhwr $2` (user access enabled by HWREna). In tsar-emu the counter
 * advances once per executed instruction (plus skipped idle time, which a
 * busy loop never has), so a cycle delta is an instruction count.
 *
 * Each figure is the smallest of ROUNDS averages of N iterations, which
 * keeps a timer tick out of it. One line per figure:
 *   bench: <name> <instructions> per <unit> (<how>)
 * Run with an argument "--exit" it exits at once (the fork+exec child).
 */
#include "libc.h"
#include "vdso-lookup.h"

#define ROUNDS	5

static inline unsigned int cycles(void)
{
	unsigned int c;

	__asm__ volatile(".set push\n\t.set mips32r2\n\t"
			 "rdhwr %0, $2\n\t.set pop" : "=r"(c) : : "memory");
	return c;
}

static unsigned int best;
static int failed;

static void report(const char *name, unsigned int total, unsigned int n,
		   const char *unit, const char *how)
{
	printf("bench: %s %u per %s (%s, best of %d x %u)\n", name,
	       (total + n / 2) / n, unit, how, ROUNDS, n);
}

static void fail(const char *what)
{
	printf("bench: FAIL %s errno=%d\n", what, errno);
	failed = 1;
}

static void take(unsigned int delta)
{
	if (!best || delta < best)
		best = delta;
}

/* The cost of reading the counter twice, subtracted from nothing: shown
 * so the reader knows the noise floor. */
static void bench_counter(void)
{
	unsigned int n = 1000, i, t;
	int r;

	best = 0;
	for (r = 0; r < ROUNDS; r++) {
		t = cycles();
		for (i = 0; i < n; i++)
			__asm__ volatile("" : : : "memory");
		take(cycles() - t);
	}
	report("empty_loop", best, n, "iteration", "loop overhead");
}

static void bench_null_syscall(void)
{
	unsigned int n = 10000, i, t;
	int r;

	best = 0;
	for (r = 0; r < ROUNDS; r++) {
		t = cycles();
		for (i = 0; i < n; i++)
			my_syscall0(__NR_getppid);
		take(cycles() - t);
	}
	report("null_syscall", best, n, "call", "getppid loop");
}

/* clock_gettime(CLOCK_MONOTONIC) through the vDSO (no kernel entry: the
 * counter and the data page are read in user mode) next to the system
 * call clock_gettime64, in the same run. */
static void bench_clock_gettime(char **envp)
{
	int (*vdso_cgt)(int, struct __kernel_timespec *) =
		vdso_lookup(vl_getauxval(envp, VL_AT_SYSINFO_EHDR), "LINUX_2.6",
			    "__vdso_clock_gettime");
	struct __kernel_timespec ts;
	unsigned int n = 2000, i, t;
	int r;

	if (!vdso_cgt) {
		fail("no __vdso_clock_gettime in the vDSO");
		return;
	}
	best = 0;
	for (r = 0; r < ROUNDS; r++) {
		t = cycles();
		for (i = 0; i < n; i++)
			vdso_cgt(CLOCK_MONOTONIC, &ts);
		take(cycles() - t);
	}
	report("clock_gettime_vdso", best, n, "call", "CLOCK_MONOTONIC, vDSO");
	best = 0;
	for (r = 0; r < ROUNDS; r++) {
		t = cycles();
		for (i = 0; i < n; i++)
			my_syscall2(__NR_clock_gettime64, CLOCK_MONOTONIC, &ts);
		take(cycles() - t);
	}
	report("clock_gettime_syscall", best, n, "call",
	       "CLOCK_MONOTONIC, clock_gettime64 syscall");
}

/* One byte bounced between two processes through two pipes: each round
 * trip is two context switches, each with a write and a read. */
static void bench_pipe_pingpong(void)
{
	unsigned int n = 2000, i, t;
	int ab[2], ba[2], r, status;
	char c = 0;
	pid_t pid;

	if (pipe(ab) || pipe(ba))
		return fail("pipe");
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		close(ab[1]);
		close(ba[0]);
		while (read(ab[0], &c, 1) == 1)
			if (write(ba[1], &c, 1) != 1)
				break;
		exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	/* Let the child run once before timing. */
	if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
		return fail("pipe warm-up");
	best = 0;
	for (r = 0; r < ROUNDS; r++) {
		t = cycles();
		for (i = 0; i < n; i++)
			if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
				return fail("pipe ping-pong");
		take(cycles() - t);
	}
	close(ab[1]);
	close(ba[0]);
	waitpid(pid, &status, 0);
	report("pipe_switch", best, 2 * n, "switch",
	       "pipe ping-pong, write+read+switch, round trip / 2");
}

/*
 * ROUNDS of a child and the parent each calling sched_yield n times (the
 * child 50 more, so that the parent never yields alone); the best round
 * goes to take(). Returns what failed, or NULL.
 */
static const char *yield_rounds(unsigned int n)
{
	unsigned int i, t;
	int go[2], r, status;
	char c = 0;
	pid_t pid;

	best = 0;
	for (r = 0; r < ROUNDS; r++) {
		if (pipe(go))
			return "pipe";
		pid = fork();
		if (pid < 0)
			return "fork";
		if (pid == 0) {
			close(go[0]);
			if (write(go[1], &c, 1) != 1)
				exit(1);
			for (i = 0; i < n + 50; i++)
				sched_yield();
			exit(0);
		}
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			return "yield child start";
		close(go[0]);
		t = cycles();
		for (i = 0; i < n; i++)
			sched_yield();
		take(cycles() - t);
		waitpid(pid, &status, 0);
	}
	return NULL;
}

/* Two processes calling sched_yield, a pair being one yield by each. Under
 * CFS most yields return to the caller (see bench_fifo_yield). */
static void bench_sched_yield(void)
{
	const char *failed = yield_rounds(2000);

	if (failed)
		return fail(failed);
	report("sched_yield_pair", best, 2000, "pair",
	       "two processes yielding in turn");
}

/*
 * The same with both processes SCHED_FIFO at one priority: a yield always
 * hands the CPU to the other (under CFS a yield mostly returns to the
 * caller, the other task's vruntime being ahead), so each yield is one
 * syscall and one context switch.
 */
static int set_fifo(int prio)
{
	int param = prio;	/* struct sched_param */

	return my_syscall3(__NR_sched_setscheduler, 0,
			   prio ? 1 /* SCHED_FIFO */ : 0 /* SCHED_OTHER */,
			   &param);
}

static void bench_fifo_yield(void)
{
	const char *failed;

	if (set_fifo(1))
		return fail("sched_setscheduler");
	failed = yield_rounds(2000);
	set_fifo(0);
	if (failed)
		return fail(failed);
	report("fifo_yield_switch", best, 2 * 2000, "switch",
	       "two SCHED_FIFO processes yielding in turn, per yield");
}

static void bench_fork(void)
{
	unsigned int n = 40, i, t;
	int r, status;
	pid_t pid;

	best = 0;
	for (r = 0; r < ROUNDS; r++) {
		t = cycles();
		for (i = 0; i < n; i++) {
			pid = fork();
			if (pid == 0)
				exit(0);
			if (pid < 0 || waitpid(pid, &status, 0) != pid)
				return fail("fork+wait");
		}
		take(cycles() - t);
	}
	report("fork_exit_wait", best, n, "fork", "fork, child _exit(0), waitpid");
}

static void bench_fork_exec(void)
{
	char *const argv[] = { "/bin/bench", "--exit", NULL };
	char *const envp[] = { NULL };
	unsigned int n = 20, i, t;
	int r, status;
	pid_t pid;

	best = 0;
	for (r = 0; r < ROUNDS; r++) {
		t = cycles();
		for (i = 0; i < n; i++) {
			pid = fork();
			if (pid == 0) {
				execve(argv[0], argv, envp);
				exit(127);
			}
			if (pid < 0 || waitpid(pid, &status, 0) != pid ||
			    status != 0)
				return fail("fork+exec+wait");
		}
		take(cycles() - t);
	}
	report("fork_exec_exit_wait", best, n, "fork",
	       "fork, child execve(/bin/bench --exit), waitpid");
}

/*
 * ROUNDS of touching each of n pages of a fresh anonymous mapping once, by
 * a write or a read; the best round goes to take(). Returns what failed.
 */
static const char *fault_rounds(unsigned int n, int write)
{
	long page = 4096;
	unsigned int i, t;
	char *p;
	int r;

	best = 0;
	for (r = 0; r < ROUNDS; r++) {
		p = mmap(NULL, n * page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return "mmap";
		t = cycles();
		for (i = 0; i < n; i++) {
			if (write)
				((volatile char *)p)[i * page] = 1;
			else
				(void)((volatile char *)p)[i * page];
		}
		take(cycles() - t);
		munmap(p, n * page);
	}
	return NULL;
}

/* First write to each page: a page fault that allocates and clears a page. */
static void bench_write_fault(void)
{
	const char *failed = fault_rounds(128, 1);

	if (failed)
		return fail(failed);
	report("anon_write_fault", best, 128, "page",
	       "first write to a fresh anonymous page");
}

/* First read of each page: maps the shared zero page, no clearing. */
static void bench_read_fault(void)
{
	const char *failed = fault_rounds(128, 0);

	if (failed)
		return fail(failed);
	report("anon_read_fault", best, 128, "page",
	       "first read of a fresh anonymous page");
}

int main(int argc, char **argv, char **envp)
{
	if (argc > 1 && !strcmp(argv[1], "--exit"))
		return 0;
	bench_counter();
	bench_null_syscall();
	bench_clock_gettime(envp);
	bench_pipe_pingpong();
	bench_sched_yield();
	bench_fifo_yield();
	bench_fork();
	bench_fork_exec();
	bench_write_fault();
	bench_read_fault();
	printf("bench: done\n");
	return failed;
}
