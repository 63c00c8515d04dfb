// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace and seccomp on the port's ABI: MIPS register numbering for
 * PTRACE_PEEKUSR/POKEUSR, MIPS's PTRACE_GETREGS layout, the NT_PRSTATUS
 * and thread-pointer regsets, changing and skipping a syscall at the entry
 * stop, the exit stop, PTRACE_GET_SYSCALL_INFO's arch, and a seccomp
 * filter that checks arch + number.
 */
#define CHECK_PROG "abi-ptrace"
#include "checks.h"

#include <linux/audit.h>
#include <linux/elf.h>
#include <linux/filter.h>
#include <linux/prctl.h>
#include <linux/ptrace.h>
#include <linux/seccomp.h>
#include <linux/uio.h>
#include <asm/ptrace.h>
#include <asm/unistd.h>

/* AUDIT_ARCH_<ARCH> and NT_<ARCH>_TLS, whatever the arch is called */
#include "portkit-arch.h"

#ifndef __WALL
#define __WALL	0x40000000	/* linux/wait.h */
#endif

#ifndef PTRACE_GET_SYSCALL_INFO
#define PTRACE_GET_SYSCALL_INFO	0x420e
#endif

static long ptrace(long req, long pid, long addr, long data)
{
	return my_syscall4(__NR_ptrace, req, pid, addr, data);
}

static long set_tp(unsigned long tp)
{
	return my_syscall1(__NR_set_thread_area, tp);
}

static void traced_child(void)
{
	long r1, r2;

	set_tp(0x7150000);
	ptrace(PTRACE_TRACEME, 0, 0, 0);
	kill(getpid(), SIGSTOP);
	/* The tracer turns this getpid into getppid. */
	r1 = my_syscall0(__NR_getpid);
	/* The tracer skips this one and makes it return 4242. */
	r2 = my_syscall0(__NR_getuid);
	exit((r1 == getppid() ? 0 : 1) | (r2 == 4242 ? 0 : 2));
}

static int wait_stop(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
		return -1;
	return (status >> 8) & 0xffff;
}

static void syscall_stop(pid_t pid, int entry, long want_nr,
			 struct ptrace_syscall_info *info)
{
	long ret;
	int sig;

	ptrace(PTRACE_SYSCALL, pid, 0, 0);
	sig = wait_stop(pid);
	memset(info, 0, sizeof(*info));
	ret = ptrace(PTRACE_GET_SYSCALL_INFO, pid, sizeof(*info), (long)info);
	printf("abi-ptrace: %s stop: sig %x op %d arch %x nr %ld rval %ld\n",
	       entry ? "entry" : "exit", sig, info->op, info->arch,
	       entry ? (long)info->entry.nr : want_nr,
	       entry ? 0 : (long)info->exit.rval);
	report(entry ? "syscall-info-entry" : "syscall-info-exit",
	       sig == (SIGTRAP | 0x80) && ret > 0 &&
	       info->op == (entry ? PTRACE_SYSCALL_INFO_ENTRY :
			    PTRACE_SYSCALL_INFO_EXIT) &&
	       info->arch == PORTKIT_AUDIT_ARCH &&
	       (!entry || (long)info->entry.nr == want_nr),
	       "arch %lx nr %ld", info->arch, entry ? (long)info->entry.nr : 0);
}

static void check_ptrace(void)
{
	struct ptrace_syscall_info info;
	struct user_regs_struct regs;
	struct user_regs_mips mregs;
	struct iovec iov;
	unsigned long val, tp = 0;
	long ret;
	int status;
	pid_t pid = fork();

	if (pid == 0)
		traced_child();
	report("stopped", wait_stop(pid) == SIGSTOP, "pid %ld%.0ld", pid, 0);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD);

	iov.iov_base = &regs;
	iov.iov_len = sizeof(regs);
	ret = ptrace(PTRACE_GETREGSET, pid, NT_PRSTATUS, (long)&iov);
	report("getregset-prstatus", ret == 0 && iov.iov_len == sizeof(regs) &&
	       regs.regs[29] != 0, "ret %ld sp %lx", ret, regs.regs[29]);

	ret = ptrace(PTRACE_PEEKUSR, pid, 29, (long)&val);
	report("peekusr-sp", ret == 0 && val == regs.regs[29], "ret %ld sp %lx", ret, val);
	ret = ptrace(PTRACE_PEEKUSR, pid, PTRACE_USR_PC, (long)&val);
	report("peekusr-pc", ret == 0 && val == regs.epc, "ret %ld pc %lx", ret, val);
	ret = ptrace(PTRACE_PEEKUSR, pid, PTRACE_USR_MMLO, (long)&val);
	report("peekusr-lo", ret == 0 && val == regs.lo, "ret %ld lo %lx", ret, val);
	ret = ptrace(PTRACE_PEEKUSR, pid, PTRACE_USR_CAUSE, (long)&val);
	report("peekusr-cause", ret == 0 && val == regs.cause, "ret %ld cause %lx", ret, val);
	ret = ptrace(PTRACE_PEEKUSR, pid, 32, (long)&val);
	report("peekusr-fpr-eio", ret == -EIO, "ret %ld%.0ld", ret, 0);
	ret = ptrace(PTRACE_POKEUSR, pid, 16, 0x5a5a);
	ptrace(PTRACE_PEEKUSR, pid, 16, (long)&val);
	report("pokeusr-s0", ret == 0 && val == 0x5a5a, "ret %ld s0 %lx", ret, val);
	ret = ptrace(PTRACE_POKEUSR, pid, PTRACE_USR_CAUSE, 0);
	report("pokeusr-cause-eio", ret == -EIO, "ret %ld%.0ld", ret, 0);

	ret = ptrace(PTRACE_GETREGS, pid, 0, (long)&mregs);
	report("getregs-mips-layout", ret == 0 &&
	       mregs.regs[29] == (unsigned long long)(long)regs.regs[29] &&
	       mregs.cp0_epc == (unsigned long long)(long)regs.epc &&
	       mregs.regs[16] == 0x5a5a,
	       "ret %ld epc %lx", ret, (long)mregs.cp0_epc);
	mregs.regs[17] = 0x1234;
	ret = ptrace(PTRACE_SETREGS, pid, 0, (long)&mregs);
	ptrace(PTRACE_PEEKUSR, pid, 17, (long)&val);
	report("setregs-mips-layout", ret == 0 && val == 0x1234, "ret %ld s1 %lx", ret, val);

	iov.iov_base = &tp;
	iov.iov_len = sizeof(tp);
	ret = ptrace(PTRACE_GETREGSET, pid, PORTKIT_NT_TLS, (long)&iov);
	report("getregset-tls", ret == 0 && tp == 0x7150000, "ret %ld tp %lx", ret, tp);
	val = 0;
	ret = ptrace(PTRACE_GET_THREAD_AREA, pid, 0, (long)&val);
	report("get-thread-area", ret == 0 && val == 0x7150000, "ret %ld tp %lx", ret, val);

	/* getpid -> getppid, through v0 at the entry stop (as on MIPS). */
	syscall_stop(pid, 1, __NR_getpid, &info);
	ptrace(PTRACE_POKEUSR, pid, 2, __NR_getppid);
	syscall_stop(pid, 0, __NR_getppid, &info);
	report("changed-call-result", info.exit.rval == getpid(),
	       "rval %ld want %ld", (long)info.exit.rval, getpid());

	/* getuid skipped with -1; the exit stop still comes. */
	syscall_stop(pid, 1, __NR_getuid, &info);
	ptrace(PTRACE_POKEUSR, pid, 2, -1);
	syscall_stop(pid, 0, -1, &info);
	ptrace(PTRACE_POKEUSR, pid, 2, 4242);
	ptrace(PTRACE_POKEUSR, pid, 7, 0);

	ptrace(PTRACE_CONT, pid, 0, 0);
	waitpid(pid, &status, 0);
	report("tracee-saw-results", WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "status %lx%.0ld", status, 0);
}

static void check_seccomp(void)
{
	struct sock_filter filter[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PORTKIT_AUDIT_ARCH, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_getppid, 2, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 99),	/* wrong arch */
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | 123),
	};
	struct sock_fprog prog = { sizeof(filter) / sizeof(filter[0]), filter };
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		long r0, r1, r2;

		r0 = my_syscall5(__NR_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		r0 |= my_syscall3(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog);
		r1 = my_syscall0(__NR_getppid);
		r2 = my_syscall0(__NR_getpid);
		printf("abi-ptrace: seccomp: install %ld getppid %ld getpid %ld\n",
		       r0, r1, r2 == getpid() ? 0 : r2);
		exit(!(r0 == 0 && r1 == -123 && r2 > 0));
	}
	waitpid(pid, &status, 0);
	report("seccomp-arch-and-nr", status == 0, "status %lx arch %lx",
	       status, PORTKIT_AUDIT_ARCH);
	report("audit-arch-not-o32", PORTKIT_AUDIT_ARCH != AUDIT_ARCH_MIPSEL,
	       PORTKIT_ARCH_NAME " %lx mipsel %lx", PORTKIT_AUDIT_ARCH, AUDIT_ARCH_MIPSEL);
}

/* A core dump carries the thread pointer in an NT_<ARCH>_TLS note. */
static void check_core_note(void)
{
	static unsigned char core[65536];
	unsigned long long lim[2] = { ~0ULL, ~0ULL };
	unsigned long tp = 0, machine = 0;
	int status = 0, fd, n, i, prstatus = 0;
	Elf32_Ehdr *eh = (Elf32_Ehdr *)core;
	pid_t pid = fork();

	if (pid == 0) {
		my_syscall4(__NR_prlimit64, 0, 4 /* RLIMIT_CORE */, lim, 0);
		chdir("/tmp");
		set_tp(0x7c0de000);
		*(volatile int *)0 = 0;
		exit(1);
	}
	waitpid(pid, &status, 0);
	fd = open("/tmp/core", O_RDONLY);
	n = fd < 0 ? 0 : read(fd, core, sizeof(core));
	close(fd);
	if (n > (int)sizeof(*eh)) {
		machine = eh->e_machine;
		for (i = 0; i < eh->e_phnum; i++) {
			Elf32_Phdr *ph = (Elf32_Phdr *)(core + eh->e_phoff) + i;
			unsigned int off = ph->p_offset;

			if (ph->p_type != PT_NOTE)
				continue;
			while (off + 12 <= ph->p_offset + ph->p_filesz && off + 12 <= (unsigned int)n) {
				Elf32_Nhdr *nh = (Elf32_Nhdr *)(core + off);
				unsigned int desc = off + 12 + ((nh->n_namesz + 3) & ~3);

				if (nh->n_type == NT_PRSTATUS)
					prstatus = 1;
				if (nh->n_type == PORTKIT_NT_TLS && desc + 4 <= (unsigned int)n)
					memcpy(&tp, core + desc, 4);
				off = desc + ((nh->n_descsz + 3) & ~3);
			}
		}
	}
	report("core-dump-tls-note",
	       (status & 0x80) && machine == EM_MIPS && prstatus && tp == 0x7c0de000,
	       "status %lx tp %lx", status, tp);
}

/*
 * clone(SIGCHLD) with s0 = 0x1111 around the syscall; returns the result
 * and s0 as the tracee sees it afterwards.
 */
static long clone_with_s0(long *s0_after)
{
	register long v0 __asm__("v0") = __NR_clone;
	register long a0 __asm__("a0") = SIGCHLD;
	register long a1 __asm__("a1") = 0;
	register long a2 __asm__("a2") = 0;
	register long a3 __asm__("a3") = 0;
	register long s0 __asm__("s0") = 0x1111;

	/* The fifth argument (child_tid) is on the stack: 0. */
	__asm__ volatile("addiu	$sp, $sp, -32\n\t"
			 "sw	$0, 16($sp)\n\t"
			 "syscall\n\t"
			 "addiu	$sp, $sp, 32"
			 : "+r"(v0), "+r"(a3), "+r"(s0)
			 : "r"(a0), "r"(a1), "r"(a2)
			 : __PORTKIT_SYSCALL_CLOBBERS);
	*s0_after = s0;
	return a3 ? -v0 : v0;
}

static void fork_event_tracee(void)
{
	long pid, s0;

	ptrace(PTRACE_TRACEME, 0, 0, 0);
	kill(getpid(), SIGSTOP);
	pid = clone_with_s0(&s0);
	if (pid == 0)
		my_syscall1(__NR_exit, 0);
	exit(pid > 0 && s0 == 0x2222 ? 0 : 1);
}

/*
 * A tracer's change to a callee-saved register at a PTRACE_EVENT_FORK
 * stop, resumed with PTRACE_CONT (no syscall-exit stop), reaches the
 * tracee: the syscall's fast way out, which does not reload s0-s7/fp,
 * must not be taken then.
 */
static void check_fork_event_regs(void)
{
	unsigned long s0 = 0, gc = 0;
	int sig, status = -1;
	pid_t pid = fork();

	if (pid == 0)
		fork_event_tracee();
	wait_stop(pid);
	ptrace(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACEFORK);
	ptrace(PTRACE_CONT, pid, 0, 0);
	sig = wait_stop(pid);
	ptrace(PTRACE_PEEKUSR, pid, 16, (long)&s0);
	report("fork-event-peekusr-s0",
	       sig == (SIGTRAP | (PTRACE_EVENT_FORK << 8)) && s0 == 0x1111,
	       "stop %x s0 %lx", sig, s0);
	ptrace(PTRACE_POKEUSR, pid, 16, 0x2222);
	ptrace(PTRACE_GETEVENTMSG, pid, 0, (long)&gc);
	ptrace(PTRACE_CONT, pid, 0, 0);
	/* The new child starts traced, stopped: let it exit. */
	if (gc && waitpid(gc, &status, __WALL) == (pid_t)gc && WIFSTOPPED(status))
		ptrace(PTRACE_CONT, gc, 0, 0);
	if (gc)
		waitpid(gc, &status, __WALL);
	/*
	 * Its child's exit may reach the tracee before its own: a SIGCHLD
	 * signal-delivery stop, passed on.
	 */
	status = -1;
	while (waitpid(pid, &status, 0) == pid && WIFSTOPPED(status))
		ptrace(PTRACE_CONT, pid, 0, WSTOPSIG(status));
	report("fork-event-pokeusr-s0", WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "status %x%.0ld", status, 0);
}

int main(void)
{
	check_ptrace();
	check_seccomp();
	check_core_note();
	check_fork_event_regs();
	printf("abi-ptrace: %d failures\n", failures);
	return failures != 0;
}
