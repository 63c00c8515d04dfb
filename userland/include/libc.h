/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * The C library of portkit's TSAR userland: the kernel tree's nolibc
 * (with the TSAR arch.h, which also routes lseek to llseek) plus calls
 * nolibc 6.1 lacks.
 */
#ifndef _PORTKIT_LIBC_H
#define _PORTKIT_LIBC_H

#include "nolibc.h"

#include <linux/sysinfo.h>
#include <linux/utsname.h>

#ifndef LINUX_REBOOT_CMD_RESTART2
#define LINUX_REBOOT_CMD_RESTART2	0xA1B2C3D4	/* restart with a command string */
#endif

/* Wait status decoding nolibc 6.1 lacks. */
#ifndef WIFSIGNALED
#define WTERMSIG(status)	((status) & 0x7f)
#define WIFSIGNALED(status)	(((status) & 0x7f) != 0 && ((status) & 0x7f) != 0x7f)
#endif

static __attribute__((unused))
int uname(struct new_utsname *buf)
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

#endif /* _PORTKIT_LIBC_H */
