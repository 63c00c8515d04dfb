/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * TSAR support for the kernel tree's nolibc (tools/include/nolibc).
 *
 * The userland build copies nolibc's headers into a sysroot and puts this
 * file there as "arch.h" (nolibc.h includes it before sys.h). TSAR runs the
 * MIPS o32 register convention on the asm-generic system call numbers:
 *   number in v0, arguments in a0-a3 then at 16(sp).. on the stack,
 *   result in v0, errors as a3 = 1 with a positive errno in v0
 *   (or -errno in v0 when built with -DTSAR_SYSCALL_NEGATIVE_V0).
 * It also steers nolibc 6.1's sys.h towards the calls a 32-bit asm-generic
 * ABI has, and routes lseek to llseek; libc.h adds calls nolibc lacks.
 */
#ifndef _NOLIBC_ARCH_TSAR_H
#define _NOLIBC_ARCH_TSAR_H

#include <asm/fcntl.h>	/* O_* flags: nolibc 6.1 expects them from arch.h */
#include <asm/unistd.h>

#define __tsar_str(x)		#x
#define __stringify_nr(x)	__tsar_str(x)

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

/* Calls nolibc 6.1 looks for under other names. */
#define __NR_newfstatat		__NR_fstatat64
#define __ARCH_WANT_SYS_PSELECT6
/*
 * No plain lseek on this ABI, only llseek (offset in two halves, result
 * through a pointer). nolibc 6.1 calls my_syscall3(__NR_lseek, ...), so
 * __NR_lseek is a number no system call uses and my_syscall3 turns it
 * into __tsar_lseek() (below).
 */
#define __NR_lseek		(-1)

#ifdef TSAR_SYSCALL_NEGATIVE_V0
#define __TSAR_SYSCALL_RESULT(v0, a3)	(v0)
#else
#define __TSAR_SYSCALL_RESULT(v0, a3)	((a3) ? -(v0) : (v0))
#endif

/* The kernel preserves every register but v0 and a3. */
#define __TSAR_SYSCALL_CLOBBERS	"memory"

#define my_syscall0(num)						\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a3 __asm__("a3");				\
									\
	__asm__ volatile("syscall"					\
			 : "+r"(_num), "=r"(_a3)			\
			 :						\
			 : __TSAR_SYSCALL_CLOBBERS);			\
	__TSAR_SYSCALL_RESULT(_num, _a3);				\
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
			 : __TSAR_SYSCALL_CLOBBERS);			\
	__TSAR_SYSCALL_RESULT(_num, _a3);				\
})

#define my_syscall2(num, arg1, arg2)					\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a0 __asm__("a0") = (long)(arg1);			\
	register long _a1 __asm__("a1") = (long)(arg2);			\
	register long _a3 __asm__("a3");				\
									\
	__asm__ volatile("syscall"					\
			 : "+r"(_num), "=r"(_a3)			\
			 : "r"(_a0), "r"(_a1)				\
			 : __TSAR_SYSCALL_CLOBBERS);			\
	__TSAR_SYSCALL_RESULT(_num, _a3);				\
})

#define my_syscall3(num, arg1, arg2, arg3)				\
	((num) == __NR_lseek ?						\
	 __tsar_lseek((long)(arg1), (long)(arg2), (long)(arg3)) :	\
	 __tsar_syscall3(num, arg1, arg2, arg3))

#define __tsar_syscall3(num, arg1, arg2, arg3)				\
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
			 : __TSAR_SYSCALL_CLOBBERS);			\
	__TSAR_SYSCALL_RESULT(_num, _a3);				\
})

#define my_syscall4(num, arg1, arg2, arg3, arg4)			\
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
			 : __TSAR_SYSCALL_CLOBBERS);			\
	__TSAR_SYSCALL_RESULT(_num, _a3);				\
})

/* Arguments 5 and 6 go to 16(sp) and 20(sp) of a 32-byte o32 frame. */
#define my_syscall5(num, arg1, arg2, arg3, arg4, arg5)			\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a0 __asm__("a0") = (long)(arg1);			\
	register long _a1 __asm__("a1") = (long)(arg2);			\
	register long _a2 __asm__("a2") = (long)(arg3);			\
	register long _a3 __asm__("a3") = (long)(arg4);			\
	long _a4 = (long)(arg5);					\
									\
	__asm__ volatile("addiu	$sp, $sp, -32\n\t"			\
			 "sw	%5, 16($sp)\n\t"			\
			 "syscall\n\t"					\
			 "addiu	$sp, $sp, 32"				\
			 : "+r"(_num), "+r"(_a3)			\
			 : "r"(_a0), "r"(_a1), "r"(_a2), "r"(_a4)	\
			 : __TSAR_SYSCALL_CLOBBERS);			\
	__TSAR_SYSCALL_RESULT(_num, _a3);				\
})

#define my_syscall6(num, arg1, arg2, arg3, arg4, arg5, arg6)		\
({									\
	register long _num __asm__("v0") = (num);			\
	register long _a0 __asm__("a0") = (long)(arg1);			\
	register long _a1 __asm__("a1") = (long)(arg2);			\
	register long _a2 __asm__("a2") = (long)(arg3);			\
	register long _a3 __asm__("a3") = (long)(arg4);			\
	long _a4 = (long)(arg5);					\
	long _a5 = (long)(arg6);					\
									\
	__asm__ volatile("addiu	$sp, $sp, -32\n\t"			\
			 "sw	%5, 16($sp)\n\t"			\
			 "sw	%6, 20($sp)\n\t"			\
			 "syscall\n\t"					\
			 "addiu	$sp, $sp, 32"				\
			 : "+r"(_num), "+r"(_a3)			\
			 : "r"(_a0), "r"(_a1), "r"(_a2), "r"(_a4),	\
			   "r"(_a5)					\
			 : __TSAR_SYSCALL_CLOBBERS);			\
	__TSAR_SYSCALL_RESULT(_num, _a3);				\
})

static __attribute__((unused))
long __tsar_lseek(long fd, long offset, long whence)
{
	long long result;
	long ret;

	ret = my_syscall5(__NR_llseek, fd, offset < 0 ? -1L : 0L, offset,
			  &result, whence);
	return ret < 0 ? ret : (long)result;
}

/*
 * Process entry: sp -> argc, argv[], NULL, envp[], NULL. Call
 * main(argc, argv, envp) on an 8-byte aligned stack with the 16-byte o32
 * argument area, then exit with its result.
 */
__asm__(".section .text\n"
	".globl	__start\n"
	".set	push\n"
	".set	noreorder\n"
	".option pic0\n"		/* jal main, not a GOT call: no $gp yet */
	".ent	__start\n"
	"__start:\n"
	"	move	$fp, $zero\n"
	"	lw	$a0, 0($sp)\n"
	"	addiu	$a1, $sp, 4\n"
	"	sll	$a2, $a0, 2\n"
	"	addu	$a2, $a2, $a1\n"
	"	addiu	$a2, $a2, 4\n"
	"	li	$t0, -8\n"
	"	and	$sp, $sp, $t0\n"
	"	addiu	$sp, $sp, -16\n"
	"	jal	main\n"
	"	 nop\n"
	"	move	$a0, $v0\n"
	"	li	$v0, " __stringify_nr(__NR_exit) "\n"
	"	syscall\n"
	".end	__start\n"
	".set	pop\n");

#endif /* _NOLIBC_ARCH_TSAR_H */
