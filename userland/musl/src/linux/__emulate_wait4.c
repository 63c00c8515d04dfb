/*
 * wait4 for ABIs without it (TSAR's y2038-safe asm-generic set): waitid,
 * whose siginfo gives the status and whose fifth argument takes the
 * kernel's struct rusage (long fields; wait4.c converts the times).
 */
#define _GNU_SOURCE
#include <sys/wait.h>
#include <signal.h>
#include <string.h>
#include <errno.h>
#include "syscall.h"

#ifndef SYS_wait4
hidden long __emulate_wait4(int pid, int *status, int options, void *kru, int cp)
{
	idtype_t t;
	siginfo_t info;
	long r;

	if (pid < -1) {
		t = P_PGID;
		pid = -pid;
	} else if (pid == -1) {
		t = P_ALL;
	} else if (pid == 0) {
		t = P_PGID;	/* id 0: the caller's process group (Linux 5.4) */
	} else {
		t = P_PID;
	}
	options |= WEXITED;
	if (options & WUNTRACED) {
		options &= ~WUNTRACED;
		options |= WSTOPPED;
	}
	info.si_pid = 0;
	if (cp)
		r = __syscall_cp(SYS_waitid, t, pid, &info, options, kru);
	else
		r = __syscall(SYS_waitid, t, pid, &info, options, kru);
	if (r < 0)
		return r;
	if (!info.si_pid)
		return 0;	/* WNOHANG and nothing to report */
	if (status) {
		int s = 0;
		switch (info.si_code) {
		case CLD_EXITED:
			s = (info.si_status & 0xff) << 8;
			break;
		case CLD_KILLED:
			s = info.si_status & 0x7f;
			break;
		case CLD_DUMPED:
			s = (info.si_status & 0x7f) | 0x80;
			break;
		case CLD_STOPPED:
		case CLD_TRAPPED:
			/* ptrace event stops carry the event above the signal */
			s = (info.si_status << 8) | 0x7f;
			break;
		case CLD_CONTINUED:
			s = 0xffff;
			break;
		}
		*status = s;
	}
	return info.si_pid;
}
#endif
