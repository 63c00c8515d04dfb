/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * TSAR support for the kernel tree's nolibc (tools/include/nolibc).
 *
 * The userland build copies nolibc's headers into a sysroot and puts this
 * file there as "arch.h" (nolibc.h includes it before sys.h). TSAR runs the
 * MIPS o32 register convention on the asm-generic system call numbers:
 *   number in v0, arguments in a0-a3 then at 16(sp).. on the stack,
 *   result in v0, errors as a3 = 1 with a positive errno in v0
 *   (or -errno in v0 when built with -DPORTKIT_SYSCALL_NEGATIVE_V0);
 *   at, v1, t0-t9, hi and lo are clobbered (zeroed), as o32's calls may.
 * It also steers nolibc's sys.h towards the calls a 32-bit asm-generic ABI
 * has, and routes lseek to llseek; libc.h adds calls nolibc lacks.
 *
 * One file serves the nolibc of both kernel series. 6.12's has crt.h, whose
 * _start_c(sp) finds argv, environ and the auxiliary vector, runs the
 * constructors and calls main(); its arch headers include crt.h, and their
 * start code only hands sp to _start_c. 6.1's has no crt.h: its start code
 * calls main() itself. __start below does one or the other, as crt.h is
 * there or not.
 *
 * When the kernel has only the y2038-safe calls (spec
 * abi.syscall.time32_syscalls: false, as riscv32: no wait4, gettimeofday,
 * pselect6, ppoll with 32-bit time, no fstatat64), the calls nolibc makes
 * are routed to their replacements here: wait4 -> waitid,
 * gettimeofday -> clock_gettime64, pselect6/ppoll -> the _time64 calls,
 * fstatat64 -> statx (6.12's nolibc calls statx itself).
 */
#ifndef _NOLIBC_ARCH_TSAR_H
#define _NOLIBC_ARCH_TSAR_H

#include <asm/fcntl.h>	/* O_* flags: nolibc 6.1 expects them from arch.h */
#include <asm/unistd.h>

/* A nolibc whose start code is _start_c() (6.12's): see above. */
#if __has_include("crt.h")
#include "compiler.h"
#include "crt.h"
#define __PORTKIT_START_C
#endif

#define __portkit_str(x)		#x
#define __stringify_nr(x)	__portkit_str(x)

/* The layout of struct stat64 (asm-generic, 32-bit), which fstatat64 fills. */
struct sys_stat_struct {
	unsigned long long	st_dev;
	unsigned long long	st_ino;
	unsigned int		st_mode;
	unsigned int		st_nlink;
	unsigned int		st_uid;
	unsigned int		st_gid;
	unsigned long long	st_rdev;
	unsigned long long	__pad1;
	long long		st_size;
	int			st_blksize;
	int			__pad2;
	long long		st_blocks;
	int			st_atime;
	unsigned int		st_atime_nsec;
	int			st_mtime;
	unsigned int		st_mtime_nsec;
	int			st_ctime;
	unsigned int		st_ctime_nsec;
	unsigned int		__unused4;
	unsigned int		__unused5;
};

/*
 * Calls nolibc looks for under other names (newfstatat: 6.1's stat()). A
 * call this ABI lacks gets a negative number no system call uses, which the
 * my_syscallN macros below turn into a call of the routing function.
 */
#ifdef __NR_fstatat64
#define __NR_newfstatat		__NR_fstatat64
#else
#define __NR_newfstatat		(-2)	/* -> statx */
#endif
#define __ARCH_WANT_SYS_PSELECT6
#ifndef __NR_pselect6
#define __NR_pselect6		(-3)	/* -> pselect6_time64 */
#endif
#ifndef __NR_ppoll
#define __NR_ppoll		(-4)	/* -> ppoll_time64 */
#endif
#ifndef __NR_wait4
#define __NR_wait4		(-5)	/* -> waitid */
#endif
#ifndef __NR_gettimeofday
#define __NR_gettimeofday	(-6)	/* -> clock_gettime64 */
#endif
/*
 * No plain lseek on this ABI, only llseek (offset in two halves, result
 * through a pointer). nolibc calls my_syscall3(__NR_lseek, ...) (6.12's
 * only when __NR_lseek is defined, else it fails with ENOSYS), so
 * __NR_lseek is a number no system call uses and my_syscall3 turns it
 * into __portkit_lseek() (below).
 */
#define __NR_lseek		(-1)

/* The routing functions (defined below) the my_syscallN macros call. */
struct __portkit_timepair;
static long __portkit_gettimeofday(void *tv, void *tz);
static long __portkit_fstatat(long dirfd, const char *path,
			   struct sys_stat_struct *st, long flags);
static long __portkit_ppoll(void *fds, long nfds, struct __portkit_timepair *ts,
			 void *sigmask, long sigsetsize);
static long __portkit_wait4(long pid, int *status, long options, void *rusage);
static long __portkit_pselect6(long nfds, void *r, void *w, void *e,
			    struct __portkit_timepair *ts, void *sigmask);
static long __portkit_lseek(long fd, long offset, long whence);

#ifdef PORTKIT_SYSCALL_NEGATIVE_V0
#define __PORTKIT_SYSCALL_RESULT(v0, a3)	(v0)
#else
#define __PORTKIT_SYSCALL_RESULT(v0, a3)	((a3) ? -(v0) : (v0))
#endif

/*
 * What the syscall instruction clobbers (spec abi.syscall.clobbers, MIPS
 * o32's caller-saved registers, as musl's MIPS port declares them): the
 * kernel returns them zeroed. s0-s7, fp, gp, sp, ra and a0-a2 come back as
 * they were; v0 is the result and a3 the error flag.
 */
#define __PORTKIT_SYSCALL_CLOBBERS						\
	"$8", "$9", __PORTKIT_SYSCALL_CLOBBERS_BUT_T0_T1

/* The same but t0 and t1, which the 5- and 6-argument calls pass in. */
#define __PORTKIT_SYSCALL_CLOBBERS_BUT_T0_T1				\
	"memory", "$1", "$3", "$10", "$11", "$12", "$13",		\
	"$14", "$15", "$24", "$25", "hi", "lo"

#define my_syscall0(num)						\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a3 __asm__("a3");				\
									\
	__asm__ volatile("syscall"					\
			 : "+r"(_num), "=r"(_a3)			\
			 :						\
			 : __PORTKIT_SYSCALL_CLOBBERS);			\
	__PORTKIT_SYSCALL_RESULT(_num, _a3);				\
})

#define my_syscall1(num, arg1)						\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a0 __asm__("a0") = (long)(arg1);			\
	register long _a3 __asm__("a3");				\
									\
	__asm__ volatile("syscall"					\
			 : "+r"(_num), "=r"(_a3)			\
			 : "r"(_a0)					\
			 : __PORTKIT_SYSCALL_CLOBBERS);			\
	__PORTKIT_SYSCALL_RESULT(_num, _a3);				\
})

#define my_syscall2(num, arg1, arg2)					\
	((num) == -6 ?							\
	 __portkit_gettimeofday((void *)(arg1), (void *)(arg2)) :		\
	 __portkit_syscall2(num, arg1, arg2))

#define __portkit_syscall2(num, arg1, arg2)				\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a0 __asm__("a0") = (long)(arg1);			\
	register long _a1 __asm__("a1") = (long)(arg2);			\
	register long _a3 __asm__("a3");				\
									\
	__asm__ volatile("syscall"					\
			 : "+r"(_num), "=r"(_a3)			\
			 : "r"(_a0), "r"(_a1)				\
			 : __PORTKIT_SYSCALL_CLOBBERS);			\
	__PORTKIT_SYSCALL_RESULT(_num, _a3);				\
})

#define my_syscall3(num, arg1, arg2, arg3)				\
	((num) == __NR_lseek ?						\
	 __portkit_lseek((long)(arg1), (long)(arg2), (long)(arg3)) :	\
	 __portkit_syscall3(num, arg1, arg2, arg3))

#define __portkit_syscall3(num, arg1, arg2, arg3)				\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a0 __asm__("a0") = (long)(arg1);			\
	register long _a1 __asm__("a1") = (long)(arg2);			\
	register long _a2 __asm__("a2") = (long)(arg3);			\
	register long _a3 __asm__("a3");				\
									\
	__asm__ volatile("syscall"					\
			 : "+r"(_num), "=r"(_a3)			\
			 : "r"(_a0), "r"(_a1), "r"(_a2)			\
			 : __PORTKIT_SYSCALL_CLOBBERS);			\
	__PORTKIT_SYSCALL_RESULT(_num, _a3);				\
})

#define my_syscall4(num, arg1, arg2, arg3, arg4)			\
	((num) == -2 ?							\
	 __portkit_fstatat((long)(arg1), (void *)(arg2), (void *)(arg3),	\
			(long)(arg4)) :					\
	 (num) == -4 ?							\
	 __portkit_ppoll((void *)(arg1), (long)(arg2), (void *)(arg3),	\
		      (void *)(arg4), 0) :				\
	 (num) == -5 ?							\
	 __portkit_wait4((long)(arg1), (void *)(arg2), (long)(arg3),	\
		      (void *)(arg4)) :					\
	 __portkit_syscall4(num, arg1, arg2, arg3, arg4))

#define __portkit_syscall4(num, arg1, arg2, arg3, arg4)			\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a0 __asm__("a0") = (long)(arg1);			\
	register long _a1 __asm__("a1") = (long)(arg2);			\
	register long _a2 __asm__("a2") = (long)(arg3);			\
	register long _a3 __asm__("a3") = (long)(arg4);			\
									\
	__asm__ volatile("syscall"					\
			 : "+r"(_num), "+r"(_a3)			\
			 : "r"(_a0), "r"(_a1), "r"(_a2)			\
			 : __PORTKIT_SYSCALL_CLOBBERS);			\
	__PORTKIT_SYSCALL_RESULT(_num, _a3);				\
})

/* ppoll: 6.1's nolibc passes 4 arguments, 6.12's 5 (with sigsetsize). */
#define my_syscall5(num, arg1, arg2, arg3, arg4, arg5)			\
	((num) == -4 ?							\
	 __portkit_ppoll((void *)(arg1), (long)(arg2), (void *)(arg3),	\
		      (void *)(arg4), (long)(arg5)) :			\
	 __portkit_syscall5(num, arg1, arg2, arg3, arg4, arg5))

/*
 * Arguments 5 and 6 go to 16(sp) and 20(sp) of a 32-byte o32 frame. They
 * reach the asm in t0 and t1: in a register of the compiler's choice, an
 * argument equal to sp (the address of a local at 0(sp), say) could come
 * in sp itself, which the asm moves before storing it.
 */
#define __portkit_syscall5(num, arg1, arg2, arg3, arg4, arg5)		\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a0 __asm__("a0") = (long)(arg1);			\
	register long _a1 __asm__("a1") = (long)(arg2);			\
	register long _a2 __asm__("a2") = (long)(arg3);			\
	register long _a3 __asm__("a3") = (long)(arg4);			\
	register long _a4 __asm__("t0") = (long)(arg5);			\
									\
	__asm__ volatile("addiu	$sp, $sp, -32\n\t"			\
			 "sw	%2, 16($sp)\n\t"			\
			 "syscall\n\t"					\
			 "addiu	$sp, $sp, 32"				\
			 : "+r"(_num), "+r"(_a3), "+r"(_a4)		\
			 : "r"(_a0), "r"(_a1), "r"(_a2)			\
			 : "$9", __PORTKIT_SYSCALL_CLOBBERS_BUT_T0_T1);	\
	__PORTKIT_SYSCALL_RESULT(_num, _a3);				\
})

#define my_syscall6(num, arg1, arg2, arg3, arg4, arg5, arg6)		\
	((num) == -3 ?							\
	 __portkit_pselect6((long)(arg1), (void *)(arg2), (void *)(arg3),	\
			 (void *)(arg4), (void *)(arg5), (void *)(arg6)) : \
	 __portkit_syscall6(num, arg1, arg2, arg3, arg4, arg5, arg6))

#define __portkit_syscall6(num, arg1, arg2, arg3, arg4, arg5, arg6)	\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a0 __asm__("a0") = (long)(arg1);			\
	register long _a1 __asm__("a1") = (long)(arg2);			\
	register long _a2 __asm__("a2") = (long)(arg3);			\
	register long _a3 __asm__("a3") = (long)(arg4);			\
	register long _a4 __asm__("t0") = (long)(arg5);			\
	register long _a5 __asm__("t1") = (long)(arg6);			\
									\
	__asm__ volatile("addiu	$sp, $sp, -32\n\t"			\
			 "sw	%2, 16($sp)\n\t"			\
			 "sw	%3, 20($sp)\n\t"			\
			 "syscall\n\t"					\
			 "addiu	$sp, $sp, 32"				\
			 : "+r"(_num), "+r"(_a3), "+r"(_a4), "+r"(_a5)	\
			 : "r"(_a0), "r"(_a1), "r"(_a2)			\
			 : __PORTKIT_SYSCALL_CLOBBERS_BUT_T0_T1);	\
	__PORTKIT_SYSCALL_RESULT(_num, _a3);				\
})

struct __portkit_timespec64 {
	long long tv_sec;
	long long tv_nsec;
};

/* The 32-bit-time timespec/timeval nolibc uses (two longs each). */
struct __portkit_timepair {
	long sec;
	long frac;
};

/*
 * Stores len bytes at a user-supplied address through the kernel (a pipe),
 * so a bad address gives EFAULT as the real call would, not a fault.
 */
static __attribute__((unused))
long __portkit_copy_out(void *dst, const void *src, long len)
{
	int fds[2];
	long ret;

	ret = my_syscall2(__NR_pipe2, fds, 0);
	if (ret < 0)
		return ret;
	ret = my_syscall3(__NR_write, fds[1], src, len);
	if (ret >= 0)
		ret = my_syscall3(__NR_read, fds[0], dst, len);
	my_syscall1(__NR_close, fds[0]);
	my_syscall1(__NR_close, fds[1]);
	return ret < 0 ? ret : 0;
}

static __attribute__((unused))
long __portkit_gettimeofday(void *tv, void *tz)
{
	static const struct __portkit_timepair no_tz;	/* UTC, no DST */
	struct __portkit_timespec64 ts;
	struct __portkit_timepair tv32;
	long ret;

	if (tv) {
		ret = __portkit_syscall2(__NR_clock_gettime64, 0 /* CLOCK_REALTIME */, &ts);
		if (ret < 0)
			return ret;
		tv32.sec = (long)ts.tv_sec;
		tv32.frac = (long)(ts.tv_nsec / 1000);
		ret = __portkit_copy_out(tv, &tv32, sizeof(tv32));
		if (ret < 0)
			return ret;
	}
	return tz ? __portkit_copy_out(tz, &no_tz, sizeof(no_tz)) : 0;
}

static __attribute__((unused))
struct __portkit_timespec64 *__portkit_ts64(struct __portkit_timespec64 *out,
				      const struct __portkit_timepair *ts)
{
	if (!ts)
		return (struct __portkit_timespec64 *)0;
	out->tv_sec = ts->sec;
	out->tv_nsec = ts->frac;
	return out;
}

static __attribute__((unused))
long __portkit_pselect6(long nfds, void *r, void *w, void *e,
		     struct __portkit_timepair *ts, void *sigmask)
{
	struct __portkit_timespec64 ts64;

	return __portkit_syscall6(__NR_pselect6_time64, nfds, r, w, e,
			       __portkit_ts64(&ts64, ts), sigmask);
}

static __attribute__((unused))
long __portkit_ppoll(void *fds, long nfds, struct __portkit_timepair *ts,
		  void *sigmask, long sigsetsize)
{
	struct __portkit_timespec64 ts64;

	return __portkit_syscall5(__NR_ppoll_time64, fds, nfds,
			       __portkit_ts64(&ts64, ts), sigmask, sigsetsize);
}

/* wait4() on waitid(): the status word rebuilt from the siginfo. */
static __attribute__((unused))
long __portkit_wait4(long pid, int *status, long options, void *rusage)
{
	/* siginfo: signo, errno, code, then pid, uid, status for SIGCHLD. */
	int info[32];
	long idtype = 1 /* P_PID */, ret;
	int st;

	/* wait4()'s own checks: WNOHANG WUNTRACED WCONTINUED __WNOTHREAD __WCLONE __WALL */
	if (options & ~(0x1 | 0x2 | 0x8 | 0x20000000 | 0x80000000 | 0x40000000))
		return -22;	/* EINVAL */
	if (pid == (-2147483647 - 1))
		return -3;	/* ESRCH: -INT_MIN is no process group */
	if (pid == -1)
		idtype = 0;	/* P_ALL */
	else if (pid <= 0)
		idtype = 2;	/* P_PGID (0: the caller's group) */
	info[3] = 0;
	ret = my_syscall5(__NR_waitid, idtype, pid < -1 ? -pid : (pid == -1 ? 0 : pid),
			  info, options | 4 /* WEXITED */, rusage);
	if (ret < 0 || !info[3])
		return ret < 0 ? ret : 0;
	switch (info[2]) {
	case 1:	/* CLD_EXITED */
		st = (info[5] & 0xff) << 8;
		break;
	case 2:	/* CLD_KILLED */
		st = info[5] & 0x7f;
		break;
	case 3:	/* CLD_DUMPED */
		st = (info[5] & 0x7f) | 0x80;
		break;
	case 6:	/* CLD_CONTINUED */
		st = 0xffff;
		break;
	default: /* CLD_TRAPPED, CLD_STOPPED: the stop code */
		st = (info[5] << 8) | 0x7f;
	}
	if (status)
		*status = st;
	return info[3];
}

/* fstatat64() on statx(), filling the struct stat64 layout above. */
static __attribute__((unused))
long __portkit_fstatat(long dirfd, const char *path, struct sys_stat_struct *st,
		    long flags)
{
	struct {
		unsigned int mask, blksize;
		unsigned long long attributes;
		unsigned int nlink, uid, gid;
		unsigned short mode, pad1;
		unsigned long long ino, size, blocks, attributes_mask;
		struct { long long sec; unsigned int nsec; int pad; }
			atime, btime, ctime, mtime;
		unsigned int rdev_major, rdev_minor, dev_major, dev_minor;
		unsigned long long spare[14];
	} sx;
	long ret;

	__builtin_memset(st, 0, sizeof(*st));
	ret = my_syscall5(__NR_statx, dirfd, path, flags,
			  0x7ff /* STATX_BASIC_STATS */, &sx);
	if (ret < 0)
		return ret;
	/* The kernel's new_encode_dev(). */
	st->st_dev = (sx.dev_minor & 0xff) | (sx.dev_major << 8) |
		     ((unsigned long long)(sx.dev_minor & ~0xffu) << 12);
	st->st_rdev = (sx.rdev_minor & 0xff) | (sx.rdev_major << 8) |
		      ((unsigned long long)(sx.rdev_minor & ~0xffu) << 12);
	st->st_ino = sx.ino;
	st->st_mode = sx.mode;
	st->st_nlink = sx.nlink;
	st->st_uid = sx.uid;
	st->st_gid = sx.gid;
	st->st_size = sx.size;
	st->st_blksize = sx.blksize;
	st->st_blocks = sx.blocks;
	st->st_atime = sx.atime.sec;
	st->st_atime_nsec = sx.atime.nsec;
	st->st_mtime = sx.mtime.sec;
	st->st_mtime_nsec = sx.mtime.nsec;
	st->st_ctime = sx.ctime.sec;
	st->st_ctime_nsec = sx.ctime.nsec;
	return 0;
}

static __attribute__((unused))
long __portkit_lseek(long fd, long offset, long whence)
{
	long long result;
	long ret;

	ret = my_syscall5(__NR_llseek, fd, offset < 0 ? -1L : 0L, offset,
			  &result, whence);
	return ret < 0 ? ret : (long)result;
}

/*
 * Process entry: sp -> argc, argv[], NULL, envp[], NULL, auxv. With crt.h,
 * call _start_c(sp); without, main(argc, argv, envp) and exit with its
 * result. Either on an 8-byte aligned stack with the 16-byte o32 argument
 * area; neither returns. Non-PIC code (no $gp is set up): jal, not a GOT call.
 */
#ifdef __PORTKIT_START_C
#define __PORTKIT_START_CALL						\
	"	move	$a0, $sp\n"					\
	"	li	$t0, -8\n"					\
	"	and	$sp, $sp, $t0\n"				\
	"	addiu	$sp, $sp, -16\n"				\
	"	jal	_start_c\n"					\
	"	 nop\n"							\
	"	break\n"	/* _start_c() ends in exit() */
#else
#define __PORTKIT_START_CALL						\
	"	lw	$a0, 0($sp)\n"					\
	"	addiu	$a1, $sp, 4\n"					\
	"	sll	$a2, $a0, 2\n"					\
	"	addu	$a2, $a2, $a1\n"				\
	"	addiu	$a2, $a2, 4\n"					\
	"	li	$t0, -8\n"					\
	"	and	$sp, $sp, $t0\n"				\
	"	addiu	$sp, $sp, -16\n"				\
	"	jal	main\n"						\
	"	 nop\n"							\
	"	move	$a0, $v0\n"					\
	"	li	$v0, " __stringify_nr(__NR_exit) "\n"		\
	"	syscall\n"
#endif

/* Weak: every unit that includes nolibc has one (6.12's nolibc-test has two). */
__asm__(".section .text\n"
	".weak	__start\n"
	".set	push\n"
	".set	noreorder\n"
	".option pic0\n"
	".ent	__start\n"
	"__start:\n"
	"	move	$fp, $zero\n"
	__PORTKIT_START_CALL
	".end	__start\n"
	".set	pop\n");

#endif /* _NOLIBC_ARCH_TSAR_H */
