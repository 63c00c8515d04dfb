// SPDX-License-Identifier: GPL-2.0
/*
 * System call ABI: invalid numbers give ENOSYS; the thread pointer
 * (set_thread_area, rdhwr $29) across switches, fork, exec and
 * clone(CLONE_SETTLS); kernel accesses to misaligned user pointers;
 * arguments 5 and 6 on the user stack. (Which registers a syscall keeps:
 * abi-clobbers.)
 */
#define CHECK_PROG "abi-syscalls"
#include "checks.h"
#include "settings.h"

#include <asm/ioctls.h>
#include <linux/prctl.h>
#include <linux/sched.h>

/* The raw registers after a syscall: v0 and a3 (a3 preset to 0x1234). */
static void raw_syscall(long nr, long *v0, long *a3)
{
	register long r_v0 __asm__("v0") = nr;
	register long r_a3 __asm__("a3") = 0x1234;

	__asm__ volatile("syscall" : "+r"(r_v0), "+r"(r_a3) : : __PORTKIT_SYSCALL_CLOBBERS);
	*v0 = r_v0;
	*a3 = r_a3;
}

/*
 * Numbers no call has: __NR_syscalls is the first past the series' table
 * (451 on 6.1, 463 on 6.12), reported as "enosys-table-end".
 */
static void check_enosys(void)
{
	static const long bad[] = { -1, -2, -4096, (long)0x80000000,
				    (long)0x80000001, 0x7fffffff, __NR_syscalls,
				    1000, 4000 /* MIPS o32 base */, 4001 };
	unsigned int i;
	char name[16];
	long v0, a3;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		raw_syscall(bad[i], &v0, &a3);
#ifdef PORTKIT_SYSCALL_NEGATIVE_V0
		int ok = v0 == -ENOSYS && a3 == 0x1234;
#else
		int ok = v0 == ENOSYS && a3 == 1;
#endif
		if (bad[i] == __NR_syscalls)
			strcpy(name, "table-end");
		else
			utoh_r(bad[i], name);
		printf("abi-syscalls: enosys-%s: v0 %ld a3 %lx: %s\n",
		       name, v0, a3, ok ? "ok" : "FAIL");
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
 * Arguments 5 and 6 travel on the user stack. Here the fifth is the
 * address of the only local, which the compiler keeps at 0(sp): the
 * syscall macro must store it before it moves sp (nolibc's usleep() is
 * the same call).
 */
static __attribute__((noinline)) long pselect_20ms(void)
{
	struct { long long sec, nsec; } ts = { 0, 20000000 };

	return my_syscall6(__NR_pselect6_time64, 0, 0, 0, 0, &ts, 0);
}

static void check_stack_args_child(void)
{
	long long t0 = now_us();
	long ret = pselect_20ms();
	long us = now_us() - t0;

	report("stack-args-pselect6", ret == 0 && us >= 20000 && us < 500000,
	       "ret %ld, slept %ld us", ret, us);
	t0 = now_us();
	ret = usleep(20000);
	us = now_us() - t0;
	report("stack-args-usleep", ret == 0 && us >= 20000 && us < 500000,
	       "ret %ld, slept %ld us", ret, us);
	exit(failures);
}

/* In a child: a garbage timeout may sleep for good. */
static void check_stack_args(void)
{
	long long t0 = now_us();
	int status = 0;
	pid_t pid = fork();

	if (pid == 0)
		check_stack_args_child();
	while (pid > 0 && waitpid(pid, &status, WNOHANG) == 0) {
		if (now_us() - t0 > 2000000) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			report("stack-args-pselect6", 0, "still asleep after %ld us%.0ld",
			       (long)(now_us() - t0), 0);
			return;
		}
		sched_yield();
	}
	failures += pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status);
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
	check_stack_args();
	measure_null_syscall();
	printf("abi-syscalls: %d failures\n", failures);
	return failures != 0;
}
