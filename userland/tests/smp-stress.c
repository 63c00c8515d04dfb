// SPDX-License-Identifier: GPL-2.0
/*
 * SMP stress: the CPUs the kernel brought up, affinity pinning, and
 * concurrent work whose result is checked:
 *   cpus      sched_getaffinity (nproc) and /proc/cpuinfo agree
 *   pin       a task pinned to each CPU runs there (getcpu)
 *   forkexec  parallel fork/exec/exit, every child's status checked
 *   futex     threads (CLONE_VM) contend on a futex-based mutex; the
 *             counter it protects must be exact
 *   pipe      token ping-pong between tasks pinned to different CPUs
 *   faults    threads on every CPU fault in the same fresh mapping
 *   tlb       a thread on another CPU stores to a page in a loop while
 *             this one mprotects it read-only, then munmaps a second
 *             one: its next store after the call returns must fault
 *             (no stale translation may survive; TSAR has no TLB
 *             shootdown, the hardware keeps the TLBs coherent)
 * One line per check with the measured values; exit 0 when all pass.
 */
#include "libc.h"

#ifndef CLONE_VM
#define CLONE_VM	0x00000100
#endif
#define FUTEX_WAIT_PRIVATE	128
#define FUTEX_WAKE_PRIVATE	129

static int failures;

/* What nolibc 6.1 lacks. */
static int mprotect(void *addr, size_t len, int prot)
{
	return my_syscall3(__NR_mprotect, addr, len, prot);
}

static void check(int ok, const char *what)
{
	if (!ok) {
		printf("smp-stress: FAIL %s\n", what);
		failures++;
	}
}

/* The CPU this code runs on, as the hardware says (EBase.CPUNum). */
static int hw_cpu(void)
{
	unsigned int hw;

	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	mips32r2\n"
		"	rdhwr	%0, $0\n"
		"	.set	pop\n"
		: "=r" (hw));
	return hw;
}

static int popcount(unsigned long v)
{
	int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static void *map_shared(size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * A task sharing our address space (a thread without the libc part),
 * running fn(arg) on stack_top, then exiting with its return value;
 * SIGCHLD tells the parent, which reaps it with waitpid. Returns its pid.
 */
static long spawn_vm(int (*fn)(void *), void *arg, void *stack_top)
{
	register long v0 __asm__("$2") = __NR_clone;
	register long a0 __asm__("$4") = CLONE_VM | SIGCHLD;
	register long a1 __asm__("$5") = (long)stack_top;
	register long a2 __asm__("$6") = 0;
	register long a3 __asm__("$7") = 0;
	register long s0 __asm__("$16") = (long)fn;
	register long s1 __asm__("$17") = (long)arg;

	__asm__ __volatile__(
		"	.set	push\n"
		"	.set	noreorder\n"
		"	addiu	$sp, $sp, -32\n"
		"	sw	$0, 16($sp)\n"
		"	syscall\n"
		"	bnez	$7, 1f\n"
		"	 nop\n"
		"	bnez	$2, 2f\n"
		"	 nop\n"
		/* the child, on its own stack, with an o32 argument area */
		"	addiu	$sp, $sp, -32\n"
		"	jalr	$16\n"
		"	 move	$4, $17\n"
		"	move	$4, $2\n"
		"	li	$2, %7\n"
		"	syscall\n"
		"1:	subu	$2, $0, $2\n"
		"2:	addiu	$sp, $sp, 32\n"
		"	.set	pop\n"
		: "+r" (v0), "+r" (a0), "+r" (a1), "+r" (a2), "+r" (a3),
		  "+r" (s0), "+r" (s1)
		: "i" (__NR_exit)
		: "memory", "$1", "$3", "$8", "$9", "$10", "$11", "$12",
		  "$13", "$14", "$15", "$24", "$25", "$31", "hi", "lo");
	return v0;
}

#define STACK_SIZE	16384

static long spawn_thread(int (*fn)(void *), void *arg)
{
	char *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (stack == MAP_FAILED)
		return -1;
	return spawn_vm(fn, arg, stack + STACK_SIZE);
}

static int reap(pid_t pid)
{
	int status = 0;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

/* ------------------------------------------------------------ cpus */

static int ncpus;

static void test_cpus(void)
{
	unsigned long mask = getaffinity();
	char buf[4096];
	int fd, n, len = 0, procs = 0;
	char *p;

	fd = open("/proc/cpuinfo", O_RDONLY);
	if (fd >= 0) {
		while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
			len += n;
		close(fd);
	}
	buf[len] = 0;
	for (p = buf; (p = strstr(p, "processor")); p++)
		procs++;
	ncpus = popcount(mask);
	printf("smp-stress: cpus affinity %d cpuinfo %d mask %lx\n",
	       ncpus, procs, mask);
	check(ncpus == procs && ncpus >= 1, "cpus");
}

/* ------------------------------------------------------------ pin */

static void test_pin(void)
{
	int cpu, ok = 0;

	for (cpu = 0; cpu < ncpus; cpu++) {
		pid_t pid = fork();

		if (pid == 0) {
			int i, bad = 0;

			if (setaffinity(0, 1UL << cpu))
				sys_exit(2);
			for (i = 0; i < 20; i++) {
				if (current_cpu() != cpu || hw_cpu() != cpu)
					bad++;
				sched_yield();
			}
			sys_exit(bad ? 1 : 0);
		}
		if (reap(pid) == 0)
			ok++;
	}
	printf("smp-stress: pin %d of %d cpus honoured\n", ok, ncpus);
	check(ok == ncpus, "pin");
}

/* ------------------------------------------------------------ forkexec */

#define FE_WORKERS	8
#define FE_ROUNDS	6

static void test_forkexec(const char *self)
{
	int w, good = 0, total = 0, status;
	pid_t workers[FE_WORKERS];
	unsigned long cpus_seen = 0;
	int *seen = map_shared(4096);

	for (w = 0; w < FE_WORKERS; w++) {
		workers[w] = fork();
		if (workers[w] == 0) {
			int r, n = 0;

			for (r = 0; r < FE_ROUNDS; r++) {
				pid_t c = fork();

				if (c == 0) {
					char code[8];
					char *argv[] = { (char *)self, "exit-with",
							 code, NULL };
					char *envp[] = { NULL };

					code[0] = '0' + (w + r) % 10;
					code[1] = 0;
					execve(self, argv, envp);
					sys_exit(99);
				}
				if (reap(c) == (w + r) % 10)
					n++;
			}
			__atomic_fetch_or(&seen[0], 1 << current_cpu(),
					  __ATOMIC_SEQ_CST);
			sys_exit(n);
		}
	}
	for (w = 0; w < FE_WORKERS; w++) {
		status = reap(workers[w]);
		total += FE_ROUNDS;
		if (status >= 0 && status <= FE_ROUNDS)
			good += status;
	}
	cpus_seen = seen[0];
	printf("smp-stress: forkexec %d of %d children exited right, workers ran on cpus %lx\n",
	       good, total, cpus_seen);
	check(good == total, "forkexec");
}

/* ------------------------------------------------------------ futex */

#define FX_THREADS	6
#define FX_ROUNDS	1000

struct futex_test {
	int lock;		/* 0 free, 1 locked, 2 locked with waiters */
	int counter;
	int waits;
	int running;
	unsigned long cpus;
};

static void futex_lock(struct futex_test *t)
{
	int c = 0;

	if (__atomic_compare_exchange_n(&t->lock, &c, 1, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&t->lock, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		__atomic_fetch_add(&t->waits, 1, __ATOMIC_RELAXED);
		my_syscall6(__NR_futex_time64, &t->lock, FUTEX_WAIT_PRIVATE, 2,
			    0, 0, 0);
		c = __atomic_exchange_n(&t->lock, 2, __ATOMIC_ACQUIRE);
	}
}

static void futex_unlock(struct futex_test *t)
{
	if (__atomic_exchange_n(&t->lock, 0, __ATOMIC_RELEASE) == 2)
		my_syscall6(__NR_futex_time64, &t->lock, FUTEX_WAKE_PRIVATE, 1,
			    0, 0, 0);
}

static int futex_worker(void *arg)
{
	struct futex_test *t = arg;
	volatile int spin, d;
	int i;

	__atomic_fetch_add(&t->running, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&t->running, __ATOMIC_SEQ_CST) < FX_THREADS)
		;
	for (i = 0; i < FX_ROUNDS; i++) {
		futex_lock(t);
		/* a non-atomic update inside the lock, with a window of about
		 * half the emulator's 1000-instruction slot, so that the other
		 * CPUs find the lock taken and sleep in the kernel */
		spin = t->counter;
		for (d = 0; d < 60; d++)
			;
		t->counter = spin + 1;
		futex_unlock(t);
	}
	__atomic_fetch_or(&t->cpus, 1UL << current_cpu(), __ATOMIC_SEQ_CST);
	return 0;
}

static void test_futex(void)
{
	struct futex_test *t = map_shared(4096);
	pid_t pids[FX_THREADS];
	int i, bad = 0;

	for (i = 0; i < FX_THREADS; i++)
		pids[i] = spawn_thread(futex_worker, t);
	for (i = 0; i < FX_THREADS; i++) {
		int st = pids[i] > 0 ? reap(pids[i]) : -2;

		if (st) {
			printf("smp-stress: futex thread %d pid %d status %d\n",
			       i, pids[i], st);
			bad++;
		}
	}
	printf("smp-stress: futex counter %d expected %d waits %d cpus %lx\n",
	       t->counter, FX_THREADS * FX_ROUNDS, t->waits, t->cpus);
	check(!bad && t->counter == FX_THREADS * FX_ROUNDS, "futex");
}

/* ------------------------------------------------------------ pipe */

#define PIPE_ROUNDS	2000

static void test_pipe(void)
{
	int ab[2], ba[2], good = 0, i, other = ncpus > 1 ? 1 : 0;
	int child_cpu_ok;
	pid_t pid;
	unsigned int v;

	if (pipe(ab) || pipe(ba)) {
		check(0, "pipe");
		return;
	}
	pid = fork();
	if (pid == 0) {
		int bad = 0;

		setaffinity(0, 1UL << other);
		for (i = 0; i < PIPE_ROUNDS; i++) {
			if (read(ab[0], &v, sizeof(v)) != sizeof(v))
				sys_exit(3);
			v = v * 3 + 1;
			if (write(ba[1], &v, sizeof(v)) != sizeof(v))
				sys_exit(3);
		}
		if (current_cpu() != other)
			bad = 1;
		sys_exit(bad);
	}
	setaffinity(0, 1UL << 0);
	for (i = 0; i < PIPE_ROUNDS; i++) {
		unsigned int sent = i * 7 + 5;

		v = sent;
		if (write(ab[1], &v, sizeof(v)) != sizeof(v))
			break;
		if (read(ba[0], &v, sizeof(v)) != sizeof(v))
			break;
		if (v == sent * 3 + 1)
			good++;
	}
	child_cpu_ok = reap(pid) == 0;
	setaffinity(0, ~0UL);
	printf("smp-stress: pipe %d of %d round trips right between cpu 0 and cpu %d, peer pinned %s\n",
	       good, PIPE_ROUNDS, other, child_cpu_ok ? "ok" : "wrong");
	check(good == PIPE_ROUNDS && child_cpu_ok, "pipe");
}

/* ------------------------------------------------------------ faults */

#define FAULT_PAGES	64

struct fault_test {
	char *area;
	int nthreads;
	int started;
	int idx;
};

/* Each thread writes its own word of every page, racing the others' first touches. */
static int fault_worker(void *arg)
{
	struct fault_test *t = arg;
	int me = __atomic_fetch_add(&t->idx, 1, __ATOMIC_SEQ_CST);
	int p;

	setaffinity(0, 1UL << (me % ncpus));
	__atomic_fetch_add(&t->started, 1, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&t->started, __ATOMIC_SEQ_CST) < t->nthreads)
		;
	for (p = 0; p < FAULT_PAGES; p++) {
		int page = (p + me * 7) % FAULT_PAGES;
		int *w = (int *)(t->area + page * 4096) + me;

		*w = page * 100 + me;
	}
	return 0;
}

static void test_faults(void)
{
	struct fault_test *t = map_shared(4096);
	pid_t pids[8];
	int i, p, good = 0, n = ncpus * 2 > 8 ? 8 : ncpus * 2;

	t->area = mmap(NULL, FAULT_PAGES * 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	t->nthreads = n;
	for (i = 0; i < n; i++)
		pids[i] = spawn_thread(fault_worker, t);
	for (i = 0; i < n; i++)
		reap(pids[i]);
	for (p = 0; p < FAULT_PAGES; p++)
		for (i = 0; i < n; i++)
			if (((int *)(t->area + p * 4096))[i] == p * 100 + i)
				good++;
	printf("smp-stress: faults %d of %d words right, %d threads on %d cpus\n",
	       good, FAULT_PAGES * n, n, ncpus);
	check(good == FAULT_PAGES * n, "faults");
}

/* ------------------------------------------------------------ tlb */

struct tlb_test {
	volatile unsigned int *page;	/* where the writer stores */
	volatile unsigned int written;	/* its last completed store */
	int cpu;			/* where it ran */
	int aff;			/* sched_setaffinity's result */
	unsigned long hwseen, swseen;
	unsigned long mask;
	int fault_sig;
	int fault_code;
	unsigned long fault_addr;
};

static struct tlb_test *tlb;

static void tlb_fault(int sig, siginfo_t *si, void *uc)
{
	tlb->fault_sig = sig;
	tlb->fault_code = si->si_code;
	tlb->fault_addr = (unsigned long)si->si_addr;
	my_syscall1(__NR_exit, 0);
}

static int tlb_writer(void *arg)
{
	unsigned int i;

	tlb->aff = setaffinity(0, 1UL << 1);
	tlb->cpu = current_cpu();
	tlb->hwseen = 1UL << hw_cpu();
	tlb->mask = getaffinity();
	for (i = 0; i < 20; i++) {
		sched_yield();
		tlb->hwseen |= 1UL << hw_cpu();
		tlb->swseen |= 1UL << current_cpu();
	}
	for (i = 1; ; i++) {
		tlb->page[0] = i;
		tlb->written = i;
	}
	return 1;
}

static void spin_wait(unsigned int loops)
{
	while (loops--)
		__asm__ __volatile__("" ::: "memory");
}

/*
 * The writer stores through `target` on CPU 1 while change() runs here
 * on CPU 0; `observe` sees the same memory. No store may land after
 * change() returned, and the writer must get SIGSEGV (code `code`) on
 * the page.
 */
static void tlb_round(const char *name, int (*change)(void),
		      volatile unsigned int *target,
		      volatile unsigned int *observe, int code)
{
	unsigned int before, after, at_return;
	pid_t pid;
	int status;

	memset(tlb, 0, sizeof(*tlb));
	tlb->page = target;
	pid = spawn_thread(tlb_writer, NULL);
	while (tlb->written < 2000)
		;
	before = tlb->written;
	status = change();
	at_return = observe[0];
	spin_wait(200000);		/* the writer keeps running meanwhile */
	after = observe[0];
	status |= reap(pid);
	printf("smp-stress: tlb %s writer pinned %d mask %lx ran on cpus %lx (hardware %lx)\n",
	       name, tlb->aff, tlb->mask, tlb->swseen, tlb->hwseen);
	printf("smp-stress: tlb %s writer on cpu %d, %u stores before, value at return %u, later %u, signal %d code %d at %s\n",
	       name, tlb->cpu, before, at_return, after, tlb->fault_sig,
	       tlb->fault_code,
	       tlb->fault_addr == (unsigned long)target ? "page" : "elsewhere");
	check(!tlb->aff && tlb->mask == 2 && tlb->swseen == 2 && tlb->hwseen == 2,
	      "tlb pinning");
	check(!status && tlb->cpu == 1 && before >= 2000 && after == at_return &&
	      tlb->fault_sig == SIGSEGV && tlb->fault_code == code &&
	      tlb->fault_addr == (unsigned long)target, name);
}

static volatile unsigned int *tlb_target;

static int do_mprotect(void)
{
	return mprotect((void *)tlb_target, 4096, PROT_READ);
}

static int do_munmap(void)
{
	return munmap((void *)tlb_target, 4096);
}

static void test_tlb(void)
{
	static char zero[4096];
	volatile unsigned int *view;
	int fd;

	if (ncpus < 2) {
		printf("smp-stress: tlb skipped, one cpu\n");
		return;
	}
	tlb = map_shared(4096);
	sigaction_info(SIGSEGV, tlb_fault, 0);
	setaffinity(0, 1UL << 0);

	/* mprotect: the writer's page becomes read-only */
	tlb_target = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	tlb_round("mprotect", do_mprotect, tlb_target, tlb_target, SEGV_ACCERR);

	/* munmap: two mappings of one memfd page; the writer's goes away */
	fd = my_syscall2(__NR_memfd_create, "smp-tlb", 0);
	if (fd < 0 || write(fd, zero, sizeof(zero)) != sizeof(zero)) {
		check(0, "memfd");
		return;
	}
	view = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	tlb_target = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	tlb_round("munmap", do_munmap, tlb_target, view, SEGV_MAPERR);
	setaffinity(0, ~0UL);
}

/* Sum of the per-CPU counts on the /proc/interrupts line naming `what`. */
static unsigned long ipi_count(const char *buf, const char *what)
{
	const char *end = strstr(buf, what), *p;
	unsigned long sum = 0, v;

	if (!end)
		return 0;
	for (p = end; p > buf && p[-1] != '\n'; p--)
		;
	p = strchr(p, ':');
	while (p && ++p < end) {
		if (*p < '0' || *p > '9')
			continue;
		for (v = 0; *p >= '0' && *p <= '9'; p++)
			v = v * 10 + *p - '0';
		sum += v;
	}
	return sum;
}

static void report_ipis(void)
{
	static char buf[8192];
	int fd, n, len = 0;

	fd = open("/proc/interrupts", O_RDONLY);
	if (fd < 0)
		return;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	printf("smp-stress: ipi resched %lu call %lu\n",
	       ipi_count(buf, "Rescheduling interrupts"),
	       ipi_count(buf, "Function call interrupts"));
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "exit-with"))
		return argv[2][0] - '0';

	test_cpus();
	test_pin();
	test_forkexec(argv[0]);
	test_futex();
	test_pipe();
	test_faults();
	test_tlb();
	report_ipis();
	printf("smp-stress: %d failures\n", failures);
	return failures ? 1 : 0;
}
