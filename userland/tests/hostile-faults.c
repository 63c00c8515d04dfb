// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile user space, part 1: each case runs in a child and must end in
 * the signal (and si_code) or errno MIPS Linux gives, with the kernel
 * carrying on: kernel addresses, read-only, unmapped and non-executable
 * pages, privileged instructions, bad syscall numbers and pointers,
 * corrupt signal frames and a stack overflow.
 */
#include "libc.h"

#include <linux/time.h>

#define KADDR	0xc0000000UL	/* PAGE_OFFSET: the kernel's linear map */

static int failures;
static volatile unsigned long ro_page, nx_page, unmapped_page;

static void expect_signal(const char *what, void (*fn)(void), int signo,
			  int code, int check_addr, unsigned long addr)
{
	struct fault_report r;
	int ret = catch_fault(fn, &r);
	int ok = ret == 1 && r.signo == signo && (code < 0 || r.code == code) &&
		 (!check_addr || r.addr == addr);

	printf("hostile: %s: sig %d code %d addr %lx (want %d %d %lx): %s\n",
	       what, r.signo, r.code, r.addr, signo, code, addr,
	       ok ? "ok" : "FAIL");
	failures += !ok;
}

/* The wait status of a child that runs fn and then exits 0. */
static int run_child(void (*fn)(void))
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		fn();
		exit(0);
	}
	waitpid(pid, &status, 0);
	return status;
}

/* Without handlers: the child must die of this signal. */
static void expect_death(const char *what, void (*fn)(void), int signo)
{
	int status = run_child(fn);
	int ok = WIFSIGNALED(status) && WTERMSIG(status) == signo;

	printf("hostile: %s: status %x (want signal %d): %s\n", what, status,
	       signo, ok ? "ok" : "FAIL");
	failures += !ok;
}

/* Without handlers: the child must exit with this status. */
static void expect_exit(const char *what, void (*fn)(void), int code)
{
	int status = run_child(fn);
	int ok = !WIFSIGNALED(status) && ((status >> 8) & 0xff) == code;

	printf("hostile: %s: status %x (want exit %d): %s\n", what, status,
	       code, ok ? "ok" : "FAIL");
	failures += !ok;
}

static void load_kernel(void)  { (void)*(volatile int *)(KADDR + 0x100); }
static void store_kernel(void) { *(volatile int *)(KADDR + 0x204) = 1; }
static void jump_kernel(void)  { ((void (*)(void))(KADDR + 0x180))(); }
static void store_ro(void)     { *(volatile char *)(ro_page + 0x31) = 1; }
static void load_unmapped(void) { (void)*(volatile char *)(unmapped_page + 0x42); }
static void exec_nx(void)      { ((void (*)(void))nx_page)(); }
static void store_text(void)
{
	__asm__ volatile("sw $zero, 0(%0)" : : "r"(store_text) : "memory");
}
static void null_call(void)    { ((void (*)(void))0)(); }

/* Privileged instructions: coprocessor 0 is unusable in user mode. */
#define PRIV_FN(name, insn)						\
	static void name(void)						\
	{								\
		__asm__ volatile(".set push\n.set mips32r2\n" insn	\
				 "\n.set pop" : : : "memory");		\
	}
PRIV_FN(priv_mfc0, "mfc0 $t0, $12")
PRIV_FN(priv_mtc0, "mtc0 $zero, $12")
PRIV_FN(priv_eret, "eret")
PRIV_FN(priv_cache, "cache 0, 0($sp)")
PRIV_FN(priv_di, "di")
PRIV_FN(priv_wait, "wait")
PRIV_FN(priv_tlbwi, "tlbwi")
PRIV_FN(priv_mtc2, "mtc2 $zero, $1")	/* CP2: the MMU's MODE register */
PRIV_FN(priv_mfc2, "mfc2 $t0, $0")	/* CP2: the page table pointer */

/* rt_sigreturn with sp at a frame that is not one. */
static unsigned int garbage_frame[512];

static void sigreturn_at(unsigned long sp)
{
	__asm__ volatile("move $sp, %0\n"
			 "li $v0, %1\n"
			 "syscall\n"
			 : : "r"(sp), "i"(__NR_rt_sigreturn)
			 : "$2", __PORTKIT_SYSCALL_CLOBBERS);
}

/* The same with sp back as it was after the call: its result. */
static long sigreturn_at_and_back(unsigned long sp)
{
	register long v0 __asm__("$2") = __NR_rt_sigreturn;
	register long a3 __asm__("$7");

	__asm__ volatile("move $16, $sp\n"
			 "move $sp, %2\n"
			 "syscall\n"
			 "move $sp, $16\n"
			 : "+r"(v0), "=r"(a3) : "r"(sp)
			 : "$16", __PORTKIT_SYSCALL_CLOBBERS);
	return __PORTKIT_SYSCALL_RESULT(v0, a3);
}

static void sigreturn_null(void)    { sigreturn_at(0); }
/*
 * sp + 32 in kernel space: as on MIPS the syscall entry refuses any call
 * (EFAULT) before rt_sigreturn runs, and sends no signal
 * (userland/tests/abi-wild-sp.c).
 */
static void sigreturn_kernel(void)
{
	exit(sigreturn_at_and_back(KADDR) == -EFAULT ? 0 : 1);
}
/* A frame from just below the end of user space, running past it. */
static void sigreturn_top(void)     { sigreturn_at(user_space_end() - 64); }
static void sigreturn_zeros(void)
{
	memset(garbage_frame, 0, sizeof(garbage_frame));
	sigreturn_at((unsigned long)garbage_frame);
}
static void sigreturn_kernel_pc(void)
{
	unsigned int i;

	/* Every word, including the saved pc and Status, a kernel address. */
	for (i = 0; i < 512; i++)
		garbage_frame[i] = KADDR + 0x1000;
	sigreturn_at((unsigned long)garbage_frame);
}

static volatile int keep_recursing = 1;

static int recurse(int depth)
{
	volatile char pad[1024];

	pad[0] = depth;
	if (!keep_recursing)
		return 0;
	return recurse(depth + 1) + pad[0];
}

static void stack_overflow(void)
{
	recurse(0);
}

static void expect_errno(const char *what, long ret, long want)
{
	int ok = ret == want;

	printf("hostile: %s: ret %ld (want %ld): %s\n", what, ret, want,
	       ok ? "ok" : "FAIL");
	failures += !ok;
}

static void check_bad_syscalls(void)
{
	struct __kernel_timespec *kts = (void *)KADDR;
	int fds[2];

	expect_errno("syscall-nr-minus-1", my_syscall0(-1), -ENOSYS);
	expect_errno("syscall-nr-bit31", my_syscall0(0x80000000), -ENOSYS);
	expect_errno("syscall-nr-huge", my_syscall0(100000), -ENOSYS);
	expect_errno("read-into-kernel", my_syscall3(__NR_read, 0, KADDR, 16), -EFAULT);
	pipe(fds);
	my_syscall3(__NR_write, fds[1], "abcdefgh", 8);
	expect_errno("read-pipe-into-kernel", my_syscall3(__NR_read, fds[0], KADDR, 8), -EFAULT);
	expect_errno("read-pipe-into-readonly", my_syscall3(__NR_read, fds[0], ro_page, 8), -EFAULT);
	expect_errno("write-from-kernel", my_syscall3(__NR_write, fds[1], KADDR, 16), -EFAULT);
	expect_errno("write-from-unmapped", my_syscall3(__NR_write, fds[1], unmapped_page, 16), -EFAULT);
	expect_errno("openat-kernel-path", my_syscall4(__NR_openat, -100, KADDR, 0, 0), -EFAULT);
	expect_errno("clock-gettime-kernel", my_syscall2(__NR_clock_gettime64, 0, kts), -EFAULT);
	expect_errno("uname-odd-pointer", my_syscall1(__NR_uname, 1), -EFAULT);
	expect_errno("pipe2-readonly", my_syscall2(__NR_pipe2, ro_page, 0), -EFAULT);
	{
		pid_t pid = fork();

		if (pid == 0)
			exit(0);
		expect_errno("waitid-info-kernel",
			     my_syscall5(__NR_waitid, 1 /* P_PID */, pid, KADDR,
					 4 /* WEXITED */, 0), -EFAULT);
	}
	expect_errno("rt-sigaction-kernel",
		     my_syscall4(__NR_rt_sigaction, SIGUSR1, KADDR, 0, 8), -EFAULT);
	expect_errno("mmap-kernel-fixed",
		     (long)my_syscall6(__NR_mmap2, KADDR, 4096, 3, 0x32 /* PRIVATE|ANON|FIXED */, -1, 0),
		     -ENOMEM);
	expect_errno("munmap-kernel", my_syscall2(__NR_munmap, KADDR, 4096), -EINVAL);
	expect_errno("mprotect-kernel", my_syscall3(__NR_mprotect, KADDR, 4096, 7), -ENOMEM);
}

int main(void)
{
	unsigned long u;

	catch_fault_init();
	ro_page = (unsigned long)mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	nx_page = (unsigned long)mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	*(volatile unsigned int *)nx_page = 0x03e00008;	/* jr ra */
	u = (unsigned long)mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap((void *)u, 4096);
	unmapped_page = u;

	expect_signal("load-kernel-address", load_kernel, SIGSEGV, -1, 1, KADDR + 0x100);
	expect_signal("store-kernel-address", store_kernel, SIGSEGV, -1, 1, KADDR + 0x204);
	expect_signal("jump-kernel-address", jump_kernel, SIGSEGV, -1, 1, KADDR + 0x180);
	expect_signal("store-readonly", store_ro, SIGSEGV, SEGV_ACCERR, 1, ro_page + 0x31);
	expect_signal("load-unmapped", load_unmapped, SIGSEGV, SEGV_MAPERR, 1, unmapped_page + 0x42);
	expect_signal("exec-non-executable", exec_nx, SIGSEGV, SEGV_ACCERR, 1, nx_page);
	expect_signal("store-text", store_text, SIGSEGV, SEGV_ACCERR, 1, (unsigned long)store_text);
	expect_signal("call-null", null_call, SIGSEGV, SEGV_MAPERR, 1, 0);

	expect_signal("mfc0", priv_mfc0, SIGILL, -1, 0, 0);
	expect_signal("mtc0", priv_mtc0, SIGILL, -1, 0, 0);
	expect_signal("eret", priv_eret, SIGILL, -1, 0, 0);
	expect_signal("cache", priv_cache, SIGILL, -1, 0, 0);
	expect_signal("di", priv_di, SIGILL, -1, 0, 0);
	expect_signal("wait", priv_wait, SIGILL, -1, 0, 0);
	expect_signal("tlbwi", priv_tlbwi, SIGILL, -1, 0, 0);
	expect_signal("mtc2", priv_mtc2, SIGILL, -1, 0, 0);
	expect_signal("mfc2", priv_mfc2, SIGILL, -1, 0, 0);

	check_bad_syscalls();

	/* A bad frame, or a frame whose context cannot run: SIGSEGV. */
	expect_death("sigreturn-null-frame", sigreturn_null, SIGSEGV);
	expect_exit("sigreturn-kernel-frame", sigreturn_kernel, 0);
	expect_death("sigreturn-frame-past-stack-top", sigreturn_top, SIGSEGV);
	expect_death("sigreturn-zero-frame", sigreturn_zeros, SIGSEGV);
	expect_death("sigreturn-kernel-pc", sigreturn_kernel_pc, SIGSEGV);
	/* No alternate stack: the overflow kills the child. */
	expect_death("stack-overflow", stack_overflow, SIGSEGV);

	printf("hostile: %d failures\n", failures);
	return failures != 0;
}
