/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * The C library of portkit's TSAR userland: the kernel tree's nolibc
 * (with the TSAR arch.h, which also routes lseek to llseek) plus calls
 * nolibc lacks, in 6.1's tree or in both (6.1 and 6.12).
 */
#ifndef _PORTKIT_LIBC_H
#define _PORTKIT_LIBC_H

#include "nolibc.h"

#include <linux/sysinfo.h>

#ifndef LINUX_REBOOT_CMD_RESTART2
#define LINUX_REBOOT_CMD_RESTART2	0xA1B2C3D4	/* restart with a command string */
#endif

/*
 * Wait status decoding nolibc lacks. 6.12's has a WIFSIGNALED,
 * ((status) - 1 < 0xff), that an int status of 0 (exit 0) passes: this
 * one replaces it.
 */
#ifndef WTERMSIG
#define WTERMSIG(status)	((status) & 0x7f)
#endif
#undef WIFSIGNALED
#define WIFSIGNALED(status)	(((status) & 0x7f) != 0 && ((status) & 0x7f) != 0x7f)
#ifndef WIFSTOPPED
#define WIFSTOPPED(status)	(((status) & 0xff) == 0x7f)
#endif
#ifndef WSTOPSIG
#define WSTOPSIG(status)	(((status) >> 8) & 0xff)
#endif

/*
 * uname(), pipe() and rmdir(), which 6.1's nolibc lacks: the nolibc that has
 * crt.h (6.12's) has them.
 */
#ifndef _NOLIBC_CRT_H
struct utsname {
	char sysname[65];
	char nodename[65];
	char release[65];
	char version[65];
	char machine[65];
	char domainname[65];
};

static __attribute__((unused))
int uname(struct utsname *buf)
{
	long ret = my_syscall1(__NR_uname, buf);

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return 0;
}

static __attribute__((unused))
int pipe(int fds[2])
{
	long ret = my_syscall2(__NR_pipe2, fds, 0);

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return 0;
}

#ifndef AT_REMOVEDIR
#define AT_REMOVEDIR	0x200
#endif

static __attribute__((unused))
int rmdir(const char *path)
{
	long ret = my_syscall3(__NR_unlinkat, AT_FDCWD, path, AT_REMOVEDIR);

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return 0;
}
#endif /* !_NOLIBC_CRT_H */

static __attribute__((unused))
int sysinfo(struct sysinfo *info)
{
	long ret = my_syscall1(__NR_sysinfo, info);

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return 0;
}

/* The kernel's struct sigaction on asm-generic ABIs (no sa_restorer:
 * the kernel returns from handlers through its signal-return page). */
struct kernel_sigaction {
	void (*handler)(int);
	unsigned long flags;
	unsigned long mask[2];
};

static __attribute__((unused))
int sigaction_simple(int sig, void (*handler)(int), unsigned long flags)
{
	struct kernel_sigaction act = { .handler = handler, .flags = flags };
	long ret = my_syscall4(__NR_rt_sigaction, sig, &act, 0,
			       sizeof(act.mask));

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return 0;
}

/* siginfo and ucontext as the kernel lays them out in a signal frame. */
#include <asm/siginfo.h>
#include <asm/sigcontext.h>
#include <asm/ucontext.h>

static __attribute__((unused))
int sigaction_info(int sig, void (*handler)(int, siginfo_t *, void *),
		   unsigned long flags)
{
	return sigaction_simple(sig, (void (*)(int))(void *)handler,
				flags | SA_SIGINFO);
}

/*
 * What the first fatal signal of a child run by catch_fault() said: the
 * handler stores it in a shared page the parent reads.
 */
struct fault_report {
	int signo;
	int code;
	unsigned long addr;
	unsigned long epc;	/* from the handler's ucontext */
};

static struct fault_report *fault_shared;

static void fault_record(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;

	fault_shared->signo = sig;
	fault_shared->code = si->si_code;
	fault_shared->addr = (unsigned long)si->si_addr;
#ifdef PORTKIT_STOCK_MIPS	/* built for stock arch/mips (make bench-sister) */
	fault_shared->epc = uc->uc_mcontext.sc_pc;
#else
	fault_shared->epc = uc->uc_mcontext.regs.epc;
#endif
	sys_exit(0);
}

/*
 * Maps the shared report page; call it before making holes in the address
 * space that a later mmap() could fill.
 */
static __attribute__((unused))
int catch_fault_init(void)
{
	fault_shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return fault_shared == MAP_FAILED ? -1 : 0;
}

/*
 * Runs fn() in a child that catches SIGSEGV, SIGBUS, SIGILL, SIGFPE,
 * SIGTRAP and SIGSYS. Returns 1 with *r filled when a signal came, 0 when
 * fn() returned, -1 when the child ended some other way.
 */
static __attribute__((unused))
int catch_fault(void (*fn)(void), struct fault_report *r)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS };
	int status = 0;
	unsigned int i;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	if (!fault_shared && catch_fault_init())
		return -1;
	memset(fault_shared, 0, sizeof(*fault_shared));
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			sigaction_info(sigs[i], fault_record, 0);
		fn();
		sys_exit(42);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	*r = *fault_shared;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 42)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && r->signo)
		return 1;
	return -1;
}

/* CPU affinity of a process (the first 32 CPUs), and the CPU running it. */
static __attribute__((unused))
long setaffinity(pid_t pid, unsigned long mask)
{
	return my_syscall3(__NR_sched_setaffinity, pid, sizeof(mask), &mask);
}

static __attribute__((unused))
unsigned long getaffinity(void)
{
	unsigned long mask[4] = { 0 };

	if (my_syscall3(__NR_sched_getaffinity, 0, sizeof(mask), mask) < 0)
		return 0;
	return mask[0];
}

static __attribute__((unused))
int current_cpu(void)
{
	unsigned int cpu = ~0U, node;

	if (my_syscall3(__NR_getcpu, &cpu, &node, 0) < 0)
		return -1;
	return cpu;
}

/* File-system calls nolibc lacks: sync, pread/pwrite. */
static __attribute__((unused))
void sync(void)
{
	my_syscall0(__NR_sync);
}

static __attribute__((unused))
ssize_t pread(int fd, void *buf, size_t count, off_t offset)
{
	/* o32 passes a 64-bit argument in an even/odd register pair. */
	long ret = my_syscall6(__NR_pread64, fd, buf, count, 0,
			       (unsigned long)offset, offset < 0 ? -1L : 0L);

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return ret;
}

static __attribute__((unused))
ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset)
{
	long ret = my_syscall6(__NR_pwrite64, fd, buf, count, 0,
			       (unsigned long)offset, offset < 0 ? -1L : 0L);

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return ret;
}

/*
 * Where user space ends (TASK_SIZE: the port's kernel space starts there,
 * 0xc0000000 or 0x80000000 as the spec's layout says): the lowest page
 * that mmap(MAP_FIXED_NOREPLACE) refuses with ENOMEM, found by bisection
 * (below it a page maps, or is taken: EEXIST).
 */
static __attribute__((unused))
unsigned long user_space_end(void)
{
	unsigned long below = 0x10000000UL, end = 0xfffff000UL, mid;
	long ret;

	while (end - below > 4096) {
		mid = (below + (end - below) / 2) & ~4095UL;
		ret = my_syscall6(__NR_mmap2, mid, 4096, PROT_NONE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
				  -1, 0);
		if (ret == -ENOMEM) {
			end = mid;
			continue;
		}
		if ((unsigned long)ret < -4095UL)
			my_syscall2(__NR_munmap, ret, 4096);
		below = mid;
	}
	return end;
}

/* More file-system calls nolibc lacks, for the power-cut workload. */
static __attribute__((unused))
int fdatasync(int fd)
{
	long ret = my_syscall1(__NR_fdatasync, fd);

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return 0;
}

static __attribute__((unused))
int ftruncate(int fd, off_t length)
{
	/* ftruncate64: the 64-bit length in the a2/a3 pair, as o32 aligns it */
	long ret = my_syscall4(__NR_ftruncate64, fd, 0, (unsigned long)length,
			       length < 0 ? -1L : 0L);

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return 0;
}

static __attribute__((unused))
int rename(const char *old, const char *new)
{
	long ret = my_syscall5(__NR_renameat2, AT_FDCWD, old, AT_FDCWD, new, 0);

	if (ret < 0) {
		SET_ERRNO(-ret);
		return -1;
	}
	return 0;
}

/* A whole (small) file into buf, NUL-terminated: its length, or -1. */
static __attribute__((unused))
long read_file(const char *path, char *buf, long size)
{
	int fd = open(path, O_RDONLY, 0);
	long n, len = 0;

	if (fd < 0)
		return -1;
	while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return len;
}

/* strstr(), which neither series' nolibc has. */
static __attribute__((unused))
char *strstr(const char *h, const char *n)
{
	size_t l = strlen(n);

	for (; *h; h++)
		if (!strncmp(h, n, l))
			return (char *)h;
	return l ? NULL : (char *)h;
}

/* debugfs at /debug: /init mounts it only for its crash tests. */
static __attribute__((unused))
void debugfs_mount(void)
{
	mkdir("/debug", 0700);
	mount("debugfs", "/debug", "debugfs", 0, NULL);
}

#endif /* _PORTKIT_LIBC_H */
