/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included first in the kernel selftests built with musl (../kst-tests.mk),
 * for the glibc interfaces they use under glibc's names.
 */
#ifndef _KST_GLIBC_NAMES_H
#define _KST_GLIBC_NAMES_H

/* As the selftests ask for it, before any header is read. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/*
 * The thread a SIGEV_THREAD_ID timer signals, glibc's sev._sigev_un._tid:
 * musl's member is __sev_fields.sigev_notify_thread_id, which its
 * <signal.h> also offers as the macro sigev_notify_thread_id; that macro
 * gives way to these names.
 */
#undef sigev_notify_thread_id
#define _sigev_un	__sev_fields
#define _tid		sigev_notify_thread_id

/* GNU strerror_r (_GNU_SOURCE) returns the message; musl's is XSI's (int). */
static inline char *kst_gnu_strerror_r(int err, char *buf, size_t len)
{
	return strerror(err);
}
#define strerror_r	kst_gnu_strerror_r

/*
 * glibc's brk() moves the break; musl's always fails with ENOMEM (its
 * malloc owns the break). posix_timers' ITIMER_PROF check spends system
 * time moving the break up a page and back until the timer fires: with
 * musl's it stopped at once. mallocng only grows the break, and this
 * leaves it where it found it.
 */
static inline int kst_brk(void *end)
{
	if ((void *)syscall(SYS_brk, end) != end) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}
#define brk		kst_brk

#endif /* _KST_GLIBC_NAMES_H */
