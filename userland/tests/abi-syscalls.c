// SPDX-License-Identifier: GPL-2.0
/*
 * System call ABI: invalid numbers give ENOSYS; the thread pointer
 * (set_thread_area, rdhwr $29) across switches, fork, exec and
 * clone(CLONE_SETTLS); kernel accesses to misaligned user pointers.
 */
#include "libc.h"

#include <asm/ioctls.h>
#include <linux/prctl.h>
#include <linux/sched.h>

static int failures;

static void report(const char *what, int ok, const char *fmt, long a, long b)
{
	printf("abi-syscalls: %s: ", what);
	printf(fmt, a, b);
	printf(": %s\n", ok ? "ok" : "FAIL");
	failures += !ok;
}

/* The raw registers after a syscall: v0 and a3 (a3 preset to 0x1234). */
static void raw_syscall(long nr, long *v0, long *a3)
{
	register long r_v0 __asm__("v0") = nr;
	register long r_a3 __asm__("a3") = 0x1234;

	__asm__ volatile("syscall" : "+r"(r_v0), "+r"(r_a3) : : "memory");
	*v0 = r_v0;
	*a3 = r_a3;
}

static void check_enosys(void)
{
	static const long bad[] = { -1, -2, -4096, (long)0x80000000,
				    (long)0x80000001, 0x7fffffff, 452, 1000,
				    4000 /* MIPS o32 base */, 4001 };
	unsigned int i;
	long v0, a3;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		raw_syscall(bad[i], &v0, &a3);
#ifdef TSAR_SYSCALL_NEGATIVE_V0
		int ok = v0 == -ENOSYS && a3 == 0x1234;
#else
		int ok = v0 == ENOSYS && a3 == 1;
#endif
		printf("abi-syscalls: enosys-%lx: v0 %ld a3 %lx: %s\n",
		       bad[i], v0, a3, ok ? "ok" : "FAIL");
		failures += !ok;
	}
}

static unsigned long read_tp(void)
{
	unsigned long tp;

	__asm__ volatile(".set push\n.set mips32r2\nrdhwr %0, $29\n.set pop"
			 : "=r"(tp));
	return tp;
}

static long set_tp(unsigned long tp)
{
	return my_syscall1(__NR_set_thread_area, tp);
}

static void check_tls(const char *self)
{
	unsigned long tp;
	int status, i;
	pid_t pid;
	long ret;

	report("tls-initial", read_tp() == 0, "tp %lx%.0ld", read_tp(), 0);
	ret = set_tp(0x12345670);
	report("tls-set", ret == 0 && read_tp() == 0x12345670,
	       "ret %ld tp %lx", ret, read_tp());

	/* Another process runs in between: UserLocal must be restored. */
	pid = fork();
	if (pid == 0) {
		set_tp(0x0badf00d);
		for (i = 0; i < 200; i++)
			sched_yield();
		exit(read_tp() == 0x0badf00d ? 0 : 1);
	}
	for (i = 0; i < 200; i++)
		sched_yield();
	tp = read_tp();
	waitpid(pid, &status, 0);
	report("tls-context-switch", tp == 0x12345670 && status == 0,
	       "tp %lx child status %x", tp, status);

	pid = fork();
	if (pid == 0)
		exit(read_tp() == 0x12345670 ? 0 : 1);
	waitpid(pid, &status, 0);
	report("tls-fork-inherits", status == 0, "child status %x%.0ld", status, 0);

	pid = fork();
	if (pid == 0) {
		char *argv[] = { (char *)self, "tls-after-exec", NULL };
		char *envp[] = { NULL };

		execve(self, argv, envp);
		exit(2);
	}
	waitpid(pid, &status, 0);
	report("tls-exec-resets", status == 0, "child status %x%.0ld", status, 0);

	/* clone(flags, newsp, parent_tid, tls, child_tid): CLONE_BACKWARDS. */
	pid = my_syscall5(__NR_clone, SIGCHLD | CLONE_SETTLS, 0, 0, 0x5eed0000, 0);
	if (pid == 0)
		exit(read_tp() == 0x5eed0000 ? 0 : 1);
	waitpid(pid, &status, 0);
	report("tls-clone-settls", pid > 0 && status == 0,
	       "pid %ld status %lx", pid, status);
	report("tls-parent-kept", read_tp() == 0x12345670, "tp %lx%.0ld",
	       read_tp(), 0);
}

/* Kernel-mode accesses to misaligned user addresses work as on MIPS. */
static void check_misaligned_uaccess(void)
{
	static unsigned int words[4];
	char *buf = (char *)words;
	int status, fds[2];
	long ret, flags;
	pid_t pid;

	/* waitid()'s siginfo at an odd address (wait4 is a time32 call). */
	pid = fork();
	if (pid == 0)
		exit(7);
	{
		static unsigned int info_words[36];
		char *info = (char *)info_words;
		int signo, code, cpid, cstatus;

		ret = my_syscall5(__NR_waitid, 1 /* P_PID */, pid, info + 1,
				  4 /* WEXITED */, 0);
		memcpy(&signo, info + 1, 4);
		memcpy(&code, info + 1 + 8, 4);
		memcpy(&cpid, info + 1 + 12, 4);
		memcpy(&cstatus, info + 1 + 20, 4);
		report("waitid-misaligned-info",
		       ret == 0 && signo == SIGCHLD && code == 1 /* CLD_EXITED */ &&
		       cpid == pid && cstatus == 7,
		       "ret %ld status %ld", ret, cstatus);
	}

	/* put_user() of an int (prctl) to an odd address. */
	my_syscall2(__NR_prctl, PR_SET_PDEATHSIG, SIGUSR1);
	memset(buf, 0, sizeof(words));
	ret = my_syscall2(__NR_prctl, PR_GET_PDEATHSIG, buf + 3);
	memcpy(&status, buf + 3, sizeof(status));
	report("put-user-misaligned", ret == 0 && status == SIGUSR1,
	       "ret %ld value %ld", ret, status);

	/* get_user() of an int (ioctl FIONBIO) from an odd address. */
	pipe(fds);
	status = 1;
	memcpy(buf + 5, &status, sizeof(status));
	ret = ioctl(fds[0], FIONBIO, buf + 5);
	flags = my_syscall3(__NR_fcntl64, fds[0], F_GETFL, 0);
	report("get-user-misaligned", ret == 0 && (flags & O_NONBLOCK),
	       "ret %ld flags %lx", ret, flags);

	/* Misaligned and unmapped: EFAULT, nothing worse. */
	ret = my_syscall2(__NR_prctl, PR_GET_PDEATHSIG, 0x1001);
	report("put-user-misaligned-unmapped", ret == -EFAULT, "ret %ld%.0ld",
	       ret, 0);
}

/*
 * Every register but v0 and a3 survives a system call: each gets a known
 * value, the call runs, and all are stored and compared (the kernel's
 * fast way out does not reload s0-s7/fp, which its C code preserves).
 * out[r] = $r after the call (r = 1..31, sp not stored), out[32] = hi,
 * out[33] = lo.
 */
static void syscall_all_regs(long nr, unsigned long out[34])
{
	__asm__ volatile(
		".set\tpush\n\t.set\tnoreorder\n\t.set\tnoat\n\t"
		"addiu\t$sp, $sp, -192\n\t"
		"sw\t$16, 0($sp)\n\t"
		"sw\t$17, 4($sp)\n\t"
		"sw\t$18, 8($sp)\n\t"
		"sw\t$19, 12($sp)\n\t"
		"sw\t$20, 16($sp)\n\t"
		"sw\t$21, 20($sp)\n\t"
		"sw\t$22, 24($sp)\n\t"
		"sw\t$23, 28($sp)\n\t"
		"sw\t$28, 32($sp)\n\t"
		"sw\t$30, 36($sp)\n\t"
		"sw\t$31, 40($sp)\n\t"
		"sw\t%0, 44($sp)\n\t"
		"move\t$2, %1\n\t"
		"li\t$7, 0x7777\n\t"
		"li\t$1, 0x5a0a0a0a\n\t"  /* hi and lo */
		"mthi\t$1\n\t"
		"li\t$1, 0x5a0b0b0b\n\t"
		"mtlo\t$1\n\t"
		"li\t$1, 0x5a010101\n\t"
		"li\t$3, 0x5a030303\n\t"
		"li\t$4, 0x5a040404\n\t"
		"li\t$5, 0x5a050505\n\t"
		"li\t$6, 0x5a060606\n\t"
		"li\t$8, 0x5a080808\n\t"
		"li\t$9, 0x5a090909\n\t"
		"li\t$10, 0x5a0a0a0a\n\t"
		"li\t$11, 0x5a0b0b0b\n\t"
		"li\t$12, 0x5a0c0c0c\n\t"
		"li\t$13, 0x5a0d0d0d\n\t"
		"li\t$14, 0x5a0e0e0e\n\t"
		"li\t$15, 0x5a0f0f0f\n\t"
		"li\t$16, 0x5a101010\n\t"
		"li\t$17, 0x5a111111\n\t"
		"li\t$18, 0x5a121212\n\t"
		"li\t$19, 0x5a131313\n\t"
		"li\t$20, 0x5a141414\n\t"
		"li\t$21, 0x5a151515\n\t"
		"li\t$22, 0x5a161616\n\t"
		"li\t$23, 0x5a171717\n\t"
		"li\t$24, 0x5a181818\n\t"
		"li\t$25, 0x5a191919\n\t"
		"li\t$28, 0x5a1c1c1c\n\t"
		"li\t$30, 0x5a1e1e1e\n\t"
		"li\t$31, 0x5a1f1f1f\n\t"
		"syscall\n\t"
		"sw\t$1, 52($sp)\n\t"
		"sw\t$2, 56($sp)\n\t"
		"sw\t$3, 60($sp)\n\t"
		"sw\t$4, 64($sp)\n\t"
		"sw\t$5, 68($sp)\n\t"
		"sw\t$6, 72($sp)\n\t"
		"sw\t$7, 76($sp)\n\t"
		"sw\t$8, 80($sp)\n\t"
		"sw\t$9, 84($sp)\n\t"
		"sw\t$10, 88($sp)\n\t"
		"sw\t$11, 92($sp)\n\t"
		"sw\t$12, 96($sp)\n\t"
		"sw\t$13, 100($sp)\n\t"
		"sw\t$14, 104($sp)\n\t"
		"sw\t$15, 108($sp)\n\t"
		"sw\t$16, 112($sp)\n\t"
		"sw\t$17, 116($sp)\n\t"
		"sw\t$18, 120($sp)\n\t"
		"sw\t$19, 124($sp)\n\t"
		"sw\t$20, 128($sp)\n\t"
		"sw\t$21, 132($sp)\n\t"
		"sw\t$22, 136($sp)\n\t"
		"sw\t$23, 140($sp)\n\t"
		"sw\t$24, 144($sp)\n\t"
		"sw\t$25, 148($sp)\n\t"
		"sw\t$26, 152($sp)\n\t"
		"sw\t$27, 156($sp)\n\t"
		"sw\t$28, 160($sp)\n\t"
		"sw\t$30, 168($sp)\n\t"
		"sw\t$31, 172($sp)\n\t"
		"mfhi\t$1\n\t"
		"sw\t$1, 176($sp)\n\t"
		"mflo\t$1\n\t"
		"sw\t$1, 180($sp)\n\t"
		"lw\t$8, 44($sp)\n\t"
		"addiu\t$9, $sp, 48\n\t"
		"addiu\t$10, $sp, 184\n"
		"1:\tlw\t$11, 0($9)\n\t"
		"addiu\t$9, $9, 4\n\t"
		"sw\t$11, 0($8)\n\t"
		"bne\t$9, $10, 1b\n\t"
		" addiu\t$8, $8, 4\n\t"
		"lw\t$16, 0($sp)\n\t"
		"lw\t$17, 4($sp)\n\t"
		"lw\t$18, 8($sp)\n\t"
		"lw\t$19, 12($sp)\n\t"
		"lw\t$20, 16($sp)\n\t"
		"lw\t$21, 20($sp)\n\t"
		"lw\t$22, 24($sp)\n\t"
		"lw\t$23, 28($sp)\n\t"
		"lw\t$28, 32($sp)\n\t"
		"lw\t$30, 36($sp)\n\t"
		"lw\t$31, 40($sp)\n\t"
		"addiu\t$sp, $sp, 192\n\t"
		".set\tpop"
		: : "r"(out), "r"(nr)
		: "$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "$10",
		  "$11", "$12", "$13", "$14", "$15", "$24", "$25", "hi", "lo",
		  "memory");
}

static void check_regs_preserved(const char *name, long nr, long v0, long a3)
{
	unsigned long out[34];
	int r, bad = -1;

	memset(out, 0, sizeof(out));
	syscall_all_regs(nr, out);
	for (r = 1; r < 32; r++) {
		if (r == 2 || r == 7 || r == 26 || r == 27 || r == 29)
			continue;
		if (out[r] != 0x5a000000 + r * 0x10101UL && bad < 0)
			bad = r;
	}
	if (out[32] != 0x5a0a0a0a)
		bad = 32;
	if (out[33] != 0x5a0b0b0b)
		bad = 33;
	report(name, bad < 0 && (long)out[2] == v0 && (long)out[7] == a3,
	       "first changed register %ld, v0 %ld", bad, (long)out[2]);
}

/* Guest instructions per getpid() (Count ticks once per instruction). */
static void measure_null_syscall(void)
{
	unsigned long t0, t1, best = ~0UL;
	int round, i;

	for (round = 0; round < 5; round++) {
		__asm__ volatile(".set push\n.set mips32r2\nrdhwr %0, $2\n.set pop" : "=r"(t0));
		for (i = 0; i < 1000; i++)
			my_syscall0(__NR_getpid);
		__asm__ volatile(".set push\n.set mips32r2\nrdhwr %0, $2\n.set pop" : "=r"(t1));
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	printf("abi-syscalls: null syscall (getpid): %lu instructions\n",
	       best / 1000);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "tls-after-exec"))
		return read_tp() != 0;

	check_enosys();
	check_tls(argv[0]);
	check_misaligned_uaccess();
	/* getppid: success; close(-1): EBADF (9) with the a3 flag. */
	check_regs_preserved("regs-preserved-ok", __NR_getppid, getppid(), 0);
	check_regs_preserved("regs-preserved-error", __NR_close, 9, 1);
	measure_null_syscall();
	printf("abi-syscalls: %d failures\n", failures);
	return failures != 0;
}
