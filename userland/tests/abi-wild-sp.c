// SPDX-License-Identifier: GPL-2.0
/*
 * System calls made with a wild stack pointer get what MIPS o32 Linux 6.1
 * gives them (arch/mips/kernel/scall32-o32.S, and do_ade for the kernel's
 * misaligned loads), whatever the call, with stack arguments or not:
 *  - sp + 32 (the end of the argument area, modulo 2^32) in kernel space:
 *    EFAULT, the call not run (getpid too);
 *  - otherwise the call runs, and each of the words at sp+16..sp+31 that
 *    cannot be read (unmapped, wholly or in part) is 0; a misaligned sp is
 *    read as it is.
 * No signal in any case. Each sp runs getpid, write (to a pipe, read back)
 * and mmap2, whose fd (sp+16) and offset (sp+20) show which stack words
 * arrived: "map B1" is file B's second 64 KiB (both read), "map B0" the
 * offset was 0, "map Z0" both were 0 (fd 0 is file Z). Then again under
 * a seccomp filter that allows everything (the full syscall entry).
 * Sizes are multiples of 64 KiB, so that any page size works (a stock
 * Malta kernel has 16 KiB pages).
 *
 * Built for TSAR with its nolibc, and for stock MIPS (-DPORTKIT_STOCK_MIPS,
 * the kernel tree's nolibc and o32 numbers) to run under qemu-mipsel
 * (tests/boot/test_wild_sp.py), whose o32 syscall emulation differs from
 * the kernel's for unreadable stack words and a kernel-space sp.
 */
#include <linux/filter.h>
#include <linux/prctl.h>
#include <linux/seccomp.h>

/*
 * Where kernel space starts: kseg0 on MIPS; on the port TASK_SIZE, which
 * the spec's layout sets (libc.h finds it).
 */
#ifdef PORTKIT_STOCK_MIPS
#include "nolibc.h"
#define user_space_end()	0x80000000UL
#else
#include "libc.h"
#endif

static unsigned long kspace;	/* user_space_end() */

#define PAGE		4096UL
#define UNIT		0x10000UL	/* a multiple of any page size */
#define WANT_EFAULT	"err 14"

static int failures;

struct res {
	long ret;
	long err;	/* errno, 0 on success */
};

/*
 * The raw o32 syscall with sp = sp while it runs: arguments 1-4 in a0-a3,
 * 5..8 (if the call has them) at sp+16..; sp restored from s0 after.
 */
static struct res wild_call(unsigned long sp, long nr, long a, long b, long c,
			    long d)
{
	register long v0 __asm__("$2") = nr;
	register long a0 __asm__("$4") = a;
	register long a1 __asm__("$5") = b;
	register long a2 __asm__("$6") = c;
	register long a3 __asm__("$7") = d;
	struct res r;

	__asm__ volatile("move	$16, $sp\n\t"
			 "move	$sp, %5\n\t"
			 "syscall\n\t"
			 "move	$sp, $16"
			 : "+r"(v0), "+r"(a0), "+r"(a1), "+r"(a2), "+r"(a3)
			 : "r"(sp)
			 : "memory", "$1", "$3", "$8", "$9", "$10", "$11", "$12",
			   "$13", "$14", "$15", "$16", "$24", "$25", "hi", "lo");
#ifdef PORTKIT_SYSCALL_NEGATIVE_V0
	r.err = (unsigned long)v0 > -4096UL ? -v0 : 0;
	r.ret = r.err ? -1 : v0;
#else
	r.err = a3 ? v0 : 0;
	r.ret = a3 ? -1 : v0;
#endif
	return r;
}

/* A well-behaved call with up to six arguments, 5 and 6 on a real stack. */
static struct res call6(long nr, long a, long b, long c, long d, long e, long f)
{
	unsigned long frame[8] = { 0, 0, 0, 0, e, f, 0, 0 };

	return wild_call((unsigned long)frame, nr, a, b, c, d);
}

static int fd_b, pipe_r, pipe_w;
static long my_pid;

/* A file of 2 units, unit k starting with tag, k ('Z', 0 -> "Z0"). */
static int make_file(const char *path, char tag)
{
	static char unit[UNIT];
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600), k;

	for (k = 0; k < 2; k++) {
		memset(unit, tag, sizeof(unit));
		unit[1] = '0' + k;
		if (write(fd, unit, sizeof(unit)) != (ssize_t)sizeof(unit))
			return -1;
	}
	return fd;
}

static void report(const char *pass, const char *name, const char *call,
		   const char *got, const char *want)
{
	int ok = !strcmp(got, want);

	printf("abi-wild-sp: %s%s-%s: %s (want %s): %s\n", pass, name, call,
	       got, want, ok ? "ok" : "FAIL");
	failures += !ok;
}

static void append(char *out, const char *s)
{
	strcpy(out + strlen(out), s);
}

static void describe_err(char *out, const struct res *r)
{
	strcpy(out, "err ");
	utoa_r(r->err, out + 4);
}

static void check_sp(const char *pass, const char *name, unsigned long sp,
		     const char *want_map)
{
	/* The rule: sp + 32, modulo 2^32, in kernel space. */
	int kernel = (unsigned long)(sp + 32) >= kspace;
	char got[64], buf[16];
	struct res r;
	long n;

	r = wild_call(sp, __NR_getpid, 0, 0, 0, 0);
	if (r.err)
		describe_err(got, &r);
	else
		strcpy(got, r.ret == my_pid ? "pid" : "another pid");
	report(pass, name, "getpid", got, kernel ? WANT_EFAULT : "pid");

	r = wild_call(sp, __NR_write, pipe_w, (long)"wildsp", 6, 0);
	if (r.err)
		describe_err(got, &r);
	else {
		strcpy(got, "wrote ");
		utoa_r(r.ret, got + strlen(got));
	}
	n = read(pipe_r, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = 0;
		append(got, " read ");
		append(got, buf);
	} else {
		append(got, " pipe empty");
	}
	report(pass, name, "write", got,
	       kernel ? WANT_EFAULT " pipe empty" : "wrote 6 read wildsp");

	if (!want_map)
		return;
	r = wild_call(sp, __NR_mmap2, 0, PAGE, PROT_READ, MAP_PRIVATE);
	if (r.err) {
		describe_err(got, &r);
	} else {
		const char *p = (const char *)r.ret;

		strcpy(got, "map ");
		got[4] = p[0];
		got[5] = p[1];
		got[6] = 0;
		call6(__NR_munmap, r.ret, PAGE, 0, 0, 0, 0);
	}
	report(pass, name, "mmap2", got, kernel ? WANT_EFAULT : want_map);
}

/*
 * The stack arguments of mmap2: fd B at sp+16, at sp+20 the offset of
 * unit 1 (mmap2 counts 4096-byte units on MIPS and on the port).
 */
static void lay_args(unsigned long sp, int words)
{
	long fd = fd_b, pgoff = UNIT / 4096;

	if (words > 0)
		memcpy((void *)(sp + 16), &fd, 4);
	if (words > 1)
		memcpy((void *)(sp + 20), &pgoff, 4);
}

static void run_cases(const char *pass, unsigned long page)
{
	unsigned long hole = page + UNIT;	/* unmapped */

	lay_args(page + 0x100, 2);
	check_sp(pass, "aligned", page + 0x100, "map B1");
	lay_args(page + 0x201, 2);
	check_sp(pass, "misaligned-1", page + 0x201, "map B1");
	lay_args(page + 0x302, 2);
	check_sp(pass, "misaligned-2", page + 0x302, "map B1");
	lay_args(page + 0x403, 2);
	check_sp(pass, "misaligned-3", page + 0x403, "map B1");
	/* Nothing readable: fd 0 (file Z), offset 0. */
	check_sp(pass, "unmapped", hole + 0x100, "map Z0");
	check_sp(pass, "unmapped-misaligned", hole + 0x102, "map Z0");
	check_sp(pass, "null", 0, "map Z0");
	/* sp+16 readable, sp+20 in the hole (wholly, then in part). */
	lay_args(hole - 20, 1);
	check_sp(pass, "straddle", hole - 20, "map B0");
	lay_args(hole - 22, 1);
	check_sp(pass, "straddle-misaligned", hole - 22, "map B0");
	/* sp + 32 at or past the start of kernel space: EFAULT. */
	check_sp(pass, "kernel", kspace, "-");
	check_sp(pass, "kernel-misaligned", kspace + 0x1001, "-");
	check_sp(pass, "kernel-top-page", 0xfffff000UL, "-");
	check_sp(pass, "user-top-32", kspace - 32, "-");
	/* sp + 32 one byte below: the call runs (the words are the stack's). */
	check_sp(pass, "user-top-33", kspace - 33, NULL);
	/*
	 * sp + 32 wraps past 2^32 to a small value: the call runs, the words
	 * at the top of the address space (never mapped) or at page 0 are 0.
	 */
	check_sp(pass, "wrap-16", 0xfffffff0UL, "map Z0");
	check_sp(pass, "wrap-32", 0xffffffe0UL, "map Z0");
	check_sp(pass, "wrap-misaligned", 0xffffffe2UL, "map Z0");
}

static int install_allow_all_filter(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 1, .filter = filter };

	if (call6(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0).err)
		return -1;
	if (call6(__NR_prctl, PR_SET_SECCOMP, SECCOMP_MODE_FILTER,
		  (long)&prog, 0, 0, 0).err)
		return -1;
	return call6(__NR_prctl, PR_GET_SECCOMP, 0, 0, 0, 0, 0).ret ==
		SECCOMP_MODE_FILTER ? 0 : -1;
}

int main(void)
{
	int fds[2], fd_z, status = 0;
	struct res r;
	unsigned long page;
	pid_t pid;

#ifndef PORTKIT_STOCK_MIPS
	chdir("/tmp");		/* stock: the directory qemu-mipsel runs in */
#endif
	my_pid = getpid();
	kspace = user_space_end();
	printf("abi-wild-sp: kernel space from %lx\n", kspace);
	fd_z = make_file("wild-sp-z", 'Z');
	fd_b = make_file("wild-sp-b", 'B');
	/* File Z becomes fd 0, what a zero fd argument names. */
	close(0);
	if (fd_z < 0 || fd_b < 0 || call6(__NR_dup3, fd_z, 0, 0, 0, 0, 0).ret != 0) {
		printf("abi-wild-sp: setup: files %d %d: FAIL\n", fd_z, fd_b);
		return 1;
	}
	close(fd_z);
	if (call6(__NR_pipe2, (long)fds, O_NONBLOCK, 0, 0, 0, 0).err) {
		printf("abi-wild-sp: setup: pipe2: FAIL\n");
		return 1;
	}
	pipe_r = fds[0];
	pipe_w = fds[1];
	/* A unit for the stack words, and the unmapped unit after it. */
	r = call6(__NR_mmap2, 0, 2 * UNIT, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (r.err) {
		printf("abi-wild-sp: setup: mmap2: FAIL\n");
		return 1;
	}
	page = r.ret;
	if (call6(__NR_munmap, page + UNIT, UNIT, 0, 0, 0, 0).err) {
		printf("abi-wild-sp: setup: munmap: FAIL\n");
		return 1;
	}

	run_cases("", page);

	/* Syscall work (seccomp): the full entry path copies them too. */
	pid = fork();
	if (pid == 0) {
		failures = 0;
		my_pid = getpid();
		if (install_allow_all_filter()) {
			printf("abi-wild-sp: seccomp: unavailable\n");
			exit(2);
		}
		run_cases("seccomp-", page);
		exit(failures != 0);
	}
	waitpid(pid, &status, 0);
	printf("abi-wild-sp: seccomp-pass: status %x\n", status);
	failures += status != 0;

	unlink("wild-sp-z");
	unlink("wild-sp-b");
	printf("abi-wild-sp: %d failures\n", failures);
	return failures != 0;
}
