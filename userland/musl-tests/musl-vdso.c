// SPDX-License-Identifier: GPL-2.0
/*
 * musl-vdso: the vDSO (the MIPS32 family layer's vdso/ and kernel/vdso.c)
 * checked from user space, run in the guest as /bin/musl-vdso. Each check
 * prints
 *   musl-vdso: <name>: <details>: ok | FAIL
 * and the program exits with the number of failed checks; the host test
 * (tests/boot/test_vdso.py) reads the lines.
 *
 * - the image: AT_SYSINFO_EHDR points at it, it is mapped as [vdso] (and
 *   its data page as [vvar]) in /proc/self/maps, and it exports
 *   __vdso_clock_gettime, __vdso_gettimeofday and __vdso_clock_getres at
 *   version LINUX_2.6;
 * - its answers: each clock read through the vDSO lies between two reads
 *   through the system call, clock_getres agrees with the system call,
 *   clocks it does not serve are passed on to the system call, bad clock
 *   ids get EINVAL;
 * - monotonic: CLOCK_MONOTONIC never goes backwards over many calls, nor
 *   when the thread moves from CPU to CPU (sched_setaffinity);
 * - no system call: under a seccomp filter that kills the process on
 *   clock_gettime64, clock_getres_time64 (and, as a check of the filter,
 *   the call itself), musl's clock_gettime, gettimeofday and time and the
 *   vDSO's clock_getres still work.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <asm/unistd.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../include/vdso-lookup.h"

#include "portkit-arch.h"	/* PORTKIT_AUDIT_ARCH: seccomp_data.arch of this ABI */

#define CHECK_PROG "musl-vdso"
#include "musl-check.h"

#define NSEC	1000000000LL

typedef int (*cgt_fn)(clockid_t, struct timespec *);
typedef int (*gtod_fn)(struct timeval *, void *);

static cgt_fn vdso_cgt, vdso_getres;
static gtod_fn vdso_gtod;

static long long ns(const struct timespec *ts)
{
	return ts->tv_sec * NSEC + ts->tv_nsec;
}

static int sys_cgt(clockid_t clk, struct timespec *ts)
{
	return syscall(SYS_clock_gettime64, clk, ts);
}

static void check_image(void)
{
	unsigned long ehdr = getauxval(AT_SYSINFO_EHDR);
	char line[256], vdso[32] = "", vvar[32] = "";
	FILE *f;

	check("auxv", ehdr != 0 && (ehdr & 4095) == 0, "AT_SYSINFO_EHDR %#lx", ehdr);
	f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char *nl = strchr(line, '\n');

		if (nl)
			*nl = 0;
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2)
			continue;
		if (strstr(line, "[vdso]") && lo == ehdr)
			snprintf(vdso, sizeof(vdso), "%s", strchr(line, ' ') + 1);
		if (strstr(line, "[vvar]") && hi == ehdr)
			snprintf(vvar, sizeof(vvar), "%.4s", strchr(line, ' ') + 1);
	}
	if (f)
		fclose(f);
	check("maps-vdso", !strncmp(vdso, "r-xp", 4), "[vdso] at AT_SYSINFO_EHDR: %.4s", vdso);
	check("maps-vvar", !strcmp(vvar, "r--p"), "[vvar] just below: %s", vvar);

	vdso_cgt = (cgt_fn)vdso_lookup(ehdr, "LINUX_2.6", "__vdso_clock_gettime");
	vdso_gtod = (gtod_fn)vdso_lookup(ehdr, "LINUX_2.6", "__vdso_gettimeofday");
	vdso_getres = (cgt_fn)vdso_lookup(ehdr, "LINUX_2.6", "__vdso_clock_getres");
	check("symbols", vdso_cgt && vdso_gtod && vdso_getres,
	      "__vdso_clock_gettime %p __vdso_gettimeofday %p __vdso_clock_getres %p",
	      (void *)vdso_cgt, (void *)vdso_gtod, (void *)vdso_getres);
	check("no-other-version", !vdso_lookup(ehdr, "LINUX_5.0", "__vdso_clock_gettime"),
	      "__vdso_clock_gettime@LINUX_5.0 not found");
}

/* sys <= vdso <= sys: the vDSO's reading lies between two system calls. */
static void check_between(const char *name, clockid_t clk)
{
	struct timespec a, v, b;
	int ra, rv, rb;
	int i, ok = 1;

	for (i = 0; i < 100 && ok; i++) {
		ra = sys_cgt(clk, &a);
		rv = vdso_cgt(clk, &v);
		rb = sys_cgt(clk, &b);
		ok = !ra && !rv && !rb && ns(&a) <= ns(&v) && ns(&v) <= ns(&b) &&
		     v.tv_nsec >= 0 && v.tv_nsec < NSEC;
	}
	check(name, ok, "syscall %lld.%09ld <= vdso %lld.%09ld <= syscall %lld.%09ld",
	      (long long)a.tv_sec, a.tv_nsec, (long long)v.tv_sec, v.tv_nsec,
	      (long long)b.tv_sec, b.tv_nsec);
}

static void check_values(void)
{
	struct timespec r1, r2, ts;
	struct timeval tv;
	long long a, b;
	int r;

	check_between("realtime", CLOCK_REALTIME);
	check_between("monotonic", CLOCK_MONOTONIC);
	check_between("boottime", CLOCK_BOOTTIME);
	check_between("monotonic-raw", CLOCK_MONOTONIC_RAW);
	check_between("tai", CLOCK_TAI);
	check_between("realtime-coarse", CLOCK_REALTIME_COARSE);
	check_between("monotonic-coarse", CLOCK_MONOTONIC_COARSE);

	/* A 64-bit tv_sec: a date past 2038 would not fit in 32 bits. */
	sys_cgt(CLOCK_REALTIME, &r1);
	r = vdso_gtod(&tv, NULL);
	sys_cgt(CLOCK_REALTIME, &r2);
	a = ns(&r1) / 1000;
	b = ns(&r2) / 1000;
	check("gettimeofday", !r && a <= tv.tv_sec * 1000000LL + tv.tv_usec &&
	      tv.tv_sec * 1000000LL + tv.tv_usec <= b && tv.tv_usec < 1000000,
	      "%lld.%06lld within [%lld, %lld] us", (long long)tv.tv_sec,
	      (long long)tv.tv_usec, a, b);

	{
		static const struct { clockid_t clk; const char *name; } res[] = {
			{ CLOCK_REALTIME, "getres-realtime" },
			{ CLOCK_MONOTONIC, "getres-monotonic" },
			{ CLOCK_BOOTTIME, "getres-boottime" },
			{ CLOCK_MONOTONIC_COARSE, "getres-monotonic-coarse" },
		};
		unsigned int i;

		for (i = 0; i < sizeof(res) / sizeof(res[0]); i++) {
			int rs = syscall(SYS_clock_getres_time64, res[i].clk, &r1);
			int rv = vdso_getres(res[i].clk, &r2);

			check(res[i].name, !rs && !rv && r1.tv_sec == r2.tv_sec &&
			      r1.tv_nsec == r2.tv_nsec && ns(&r2) > 0,
			      "syscall %lld.%09ld vdso %lld.%09ld", (long long)r1.tv_sec,
			      r1.tv_nsec, (long long)r2.tv_sec, r2.tv_nsec);
		}
	}

	/* Clocks outside the data page: the vDSO makes the system call. */
	r = vdso_cgt(CLOCK_PROCESS_CPUTIME_ID, &ts);
	check("fallback-cputime", !r && ns(&ts) > 0, "CLOCK_PROCESS_CPUTIME_ID %d %lld.%09ld",
	      r, (long long)ts.tv_sec, ts.tv_nsec);
	r = vdso_cgt(12345, &ts);
	check("bad-clock", r == -EINVAL, "clock 12345: %d", r);
	r = vdso_getres(12345, &ts);
	check("bad-clock-getres", r == -EINVAL, "clock 12345: %d", r);
}

static void check_monotonic(void)
{
	struct timespec ts;
	long long last = 0, now, back = 0;
	int i, cpu, ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), moved = 0;
	cpu_set_t set;

	for (i = 0; i < 20000; i++) {
		vdso_cgt(CLOCK_MONOTONIC, &ts);
		now = ns(&ts);
		if (now < last)
			back++;
		last = now;
	}
	check("monotonic-calls", back == 0, "20000 calls, %lld went backwards, last %lld ns",
	      back, last);

	/* Read, move to the next CPU, read again: never earlier. */
	for (i = 0; i < 200; i++) {
		cpu = i % ncpu;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			break;
		if (sched_getcpu() == cpu)
			moved++;
		vdso_cgt(CLOCK_MONOTONIC, &ts);
		now = ns(&ts);
		if (now < last)
			back++;
		last = now;
		vdso_cgt(CLOCK_MONOTONIC_COARSE, &ts);
	}
	check("monotonic-across-cpus", i == 200 && back == 0 && moved == 200,
	      "%d CPUs, %d moves landed, %lld went backwards", ncpu, moved, back);
	CPU_ZERO(&set);
	for (cpu = 0; cpu < ncpu; cpu++)
		CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Kill the process on any of the time system calls. */
static int deny_clock_syscalls(void)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PORTKIT_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clock_gettime64, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clock_getres_time64, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
	};
	struct sock_fprog prog = { .len = sizeof(insns) / sizeof(insns[0]), .filter = insns };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* Run fn in a child under the filter: its exit status, or 1000 + signal. */
static int under_filter(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (deny_clock_syscalls())
			_exit(99);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSIGNALED(status) ? 1000 + WTERMSIG(status) : WEXITSTATUS(status);
}

static int libc_clocks(void)
{
	struct timespec a, b, res;
	struct timeval tv;
	time_t t;
	int i;

	for (i = 0; i < 1000; i++) {
		if (clock_gettime(CLOCK_MONOTONIC, &a) || clock_gettime(CLOCK_MONOTONIC, &b) ||
		    ns(&b) < ns(&a))
			return 1;
		if (clock_gettime(CLOCK_REALTIME, &a) || clock_gettime(CLOCK_BOOTTIME, &a) ||
		    clock_gettime(CLOCK_MONOTONIC_COARSE, &a))
			return 2;
	}
	if (gettimeofday(&tv, NULL) || tv.tv_sec < 1)
		return 3;
	t = time(NULL);
	if (t < 1)
		return 4;
	if (vdso_getres(CLOCK_MONOTONIC, &res) || !ns(&res))
		return 5;
	return 0;
}

static int syscall_clock(void)
{
	struct timespec ts;

	sys_cgt(CLOCK_MONOTONIC, &ts);
	return 0;
}

static void check_no_syscall(void)
{
	int st = under_filter(syscall_clock);

	check("seccomp-kills-syscall", st == 1000 + SIGSYS,
	      "clock_gettime64 under the filter: status %d (want signal %d)", st, SIGSYS);
	st = under_filter(libc_clocks);
	check("musl-no-syscall", st == 0,
	      "musl clock_gettime x3000, gettimeofday, time, vDSO getres under the filter: "
	      "status %d", st);
}

int main(void)
{
	check_image();
	if (!vdso_cgt || !vdso_gtod || !vdso_getres) {
		return check_summary();
	}
	check_values();
	check_monotonic();
	check_no_syscall();
	return check_summary();
}
