/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * What the kernel tree's selftests (kselftest.h, kselftest_harness.h and
 * the tests themselves) expect from a C library, on top of portkit's
 * nolibc-based libc.h. Every libc header name in this directory includes
 * this file, so a selftest builds unchanged with -nostdinc. Missing on
 * purpose: threads, ucontext, stdio buffering, locales.
 *
 * The functions here that a newer nolibc has as well (6.12's: strerror,
 * fflush, setvbuf, syscall, getpagesize, strtol, getauxval) are defined
 * as kst_<name> with a macro naming them <name>: the selftests call the
 * same code on either kernel series.
 */
#ifndef _KST_LIBC_H
#define _KST_LIBC_H

/* gcc's freestanding limits.h, not the cross glibc's. */
#define _LIBC_LIMITS_H_
#include <limits.h>
#include <stdbool.h>


#include "libc.h"
#include <asm/siginfo.h>
#include <linux/signal.h>
#include <linux/futex.h>
#include <linux/mman.h>
#include <linux/ptrace.h>
#include <linux/timex.h>
#include <linux/auxvec.h>
#include <kst_syscall_names.h>

/* Without time32 calls the futex selftests' SYS_futex is futex_time64;
 * syscall() converts their (32-bit) timespec timeouts for it. Still
 * needed with nolibc/arch.h's routing of time32 calls: that covers only
 * the calls nolibc itself makes, and futex is not one of them; the UAPI
 * struct timespec the selftests use keeps a 32-bit tv_sec, which
 * futex_time64 would read with the tv_nsec word as its high half. */
#if !defined(SYS_futex) && defined(__NR_futex_time64)
#define SYS_futex	__NR_futex_time64
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif
#ifndef offsetof
#define offsetof(type, member)	__builtin_offsetof(type, member)
#endif

typedef long off64_t;
typedef uint8_t u_int8_t;
typedef uint16_t u_int16_t;
typedef uint32_t u_int32_t;
typedef uint64_t u_int64_t;
typedef unsigned int useconds_t;
typedef long long intmax_t;
typedef unsigned long long uintmax_t;

/* ---- errors -------------------------------------------------------- */

static __attribute__((unused)) char *kst_strerror(int err)
{
	static char buf[24];

	strcpy(buf, "errno ");
	itoa_r(err, buf + 6);
	return buf;
}
#define strerror	kst_strerror

/* ---- formatted output ------------------------------------------------ */

/* vsnprintf with flags (-, 0, +, space, #), width and precision (also *),
 * length modifiers hh h l ll z j t, conversions d i u x X o c s p %. */
static __attribute__((unused))
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t n = 0;

#define KST_PUT(ch) do { if (n + 1 < size) buf[n] = (ch); n++; } while (0)
	while (*fmt) {
		char flag_minus = 0, flag_zero = 0, flag_plus = 0, flag_space = 0;
		char flag_alt = 0, lng = 0, tmp[24], *s;
		int width = 0, prec = -1, len, i, neg = 0, base = 10, upper = 0;
		unsigned long long v;
		const char *prefix = "";

		if (*fmt != '%') {
			KST_PUT(*fmt++);
			continue;
		}
		fmt++;
		for (;; fmt++) {
			if (*fmt == '-') flag_minus = 1;
			else if (*fmt == '0') flag_zero = 1;
			else if (*fmt == '+') flag_plus = 1;
			else if (*fmt == ' ') flag_space = 1;
			else if (*fmt == '#') flag_alt = 1;
			else break;
		}
		if (*fmt == '*') {
			width = va_arg(ap, int);
			if (width < 0) {
				flag_minus = 1;
				width = -width;
			}
			fmt++;
		}
		while (*fmt >= '0' && *fmt <= '9')
			width = width * 10 + *fmt++ - '0';
		if (*fmt == '.') {
			fmt++;
			prec = 0;
			if (*fmt == '*') {
				prec = va_arg(ap, int);
				fmt++;
			}
			while (*fmt >= '0' && *fmt <= '9')
				prec = prec * 10 + *fmt++ - '0';
		}
		for (;; fmt++) {
			if (*fmt == 'l') lng++;
			else if (*fmt == 'h') ;
			else if (*fmt == 'z' || *fmt == 't') lng = 1;
			else if (*fmt == 'j') lng = 2;
			else break;
		}
		switch (*fmt) {
		case 'c':
			tmp[0] = (char)va_arg(ap, int);
			tmp[1] = 0;
			s = tmp;
			len = 1;
			goto out_str;
		case 's':
			s = va_arg(ap, char *);
			if (!s)
				s = "(null)";
			len = strlen(s);
			if (prec >= 0 && len > prec)
				len = prec;
			goto out_str;
		case '%':
			KST_PUT('%');
			fmt++;
			continue;
		case 'd': case 'i':
			if (lng >= 2)
				v = va_arg(ap, long long);
			else if (lng == 1)
				v = va_arg(ap, long);
			else
				v = va_arg(ap, int);
			if ((long long)v < 0) {
				neg = 1;
				v = -v;
			}
			break;
		case 'p':
			v = (unsigned long)va_arg(ap, void *);
			base = 16;
			prefix = "0x";
			break;
		case 'x': case 'X': case 'o': case 'u':
			if (lng >= 2)
				v = va_arg(ap, unsigned long long);
			else if (lng == 1)
				v = va_arg(ap, unsigned long);
			else
				v = va_arg(ap, unsigned int);
			base = *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16;
			upper = *fmt == 'X';
			if (flag_alt && base == 16 && v)
				prefix = upper ? "0X" : "0x";
			break;
		default:	/* unsupported: print it as is */
			KST_PUT('%');
			if (*fmt)
				KST_PUT(*fmt++);
			continue;
		}
		/* number: digits in reverse into tmp */
		i = 0;
		do {
			int d = v % base;

			tmp[i++] = d < 10 ? '0' + d : (upper ? 'A' : 'a') + d - 10;
			v /= base;
		} while (v);
		if (prec == 0 && i == 1 && tmp[0] == '0')
			i = 0;
		{
			int digits = i > prec ? i : prec;
			char sign = neg ? '-' : flag_plus ? '+' : flag_space ? ' ' : 0;
			int total = digits + (sign ? 1 : 0) + strlen(prefix);
			int pad = width > total ? width - total : 0;
			const char *p;

			if (!flag_minus && !(flag_zero && prec < 0))
				while (pad-- > 0)
					KST_PUT(' ');
			if (sign)
				KST_PUT(sign);
			for (p = prefix; *p; p++)
				KST_PUT(*p);
			if (!flag_minus && flag_zero && prec < 0)
				while (pad-- > 0)
					KST_PUT('0');
			while (digits-- > i)
				KST_PUT('0');
			while (i > 0)
				KST_PUT(tmp[--i]);
			while (flag_minus && pad-- > 0)
				KST_PUT(' ');
		}
		fmt++;
		continue;
out_str:
		if (!flag_minus)
			for (i = len; i < width; i++)
				KST_PUT(' ');
		for (i = 0; i < len; i++)
			KST_PUT(s[i]);
		if (flag_minus)
			for (i = len; i < width; i++)
				KST_PUT(' ');
		fmt++;
	}
	if (size)
		buf[n < size ? n : size - 1] = 0;
#undef KST_PUT
	return n;
}

static __attribute__((unused, format(printf, 3, 4)))
int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return ret;
}

static __attribute__((unused))
int vsprintf(char *buf, const char *fmt, va_list ap)
{
	return vsnprintf(buf, 1 << 20, fmt, ap);
}

static __attribute__((unused, format(printf, 2, 3)))
int sprintf(char *buf, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vsnprintf(buf, 1 << 20, fmt, ap);
	va_end(ap);
	return ret;
}

static __attribute__((unused))
int kst_vdprintf(int fd, const char *fmt, va_list ap)
{
	char buf[1024];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	return write(fd, buf, n);
}

static __attribute__((unused))
int kst_vfprintf(FILE *stream, const char *fmt, va_list ap)
{
	return kst_vdprintf(stream == stderr ? 2 : 1, fmt, ap);
}

static __attribute__((unused, format(printf, 2, 3)))
int kst_fprintf(FILE *stream, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = kst_vfprintf(stream, fmt, ap);
	va_end(ap);
	return ret;
}

static __attribute__((unused, format(printf, 1, 2)))
int kst_printf(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = kst_vdprintf(1, fmt, ap);
	va_end(ap);
	return ret;
}

static __attribute__((unused, format(printf, 2, 3)))
int dprintf(int fd, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = kst_vdprintf(fd, fmt, ap);
	va_end(ap);
	return ret;
}

/* nolibc's printf family knows no width or precision: use the above. */
#define vfprintf	kst_vfprintf
#define fprintf		kst_fprintf
#define printf		kst_printf
#define vprintf(fmt, ap) kst_vdprintf(1, fmt, ap)
#define vdprintf	kst_vdprintf

/* Output is unbuffered (every printf is a write). */
static __attribute__((unused)) int kst_fflush(FILE *stream) { return 0; }
#define fflush		kst_fflush
#define _IONBF 2
#define _IOLBF 1
#define _IOFBF 0
static __attribute__((unused)) void kst_setbuf(FILE *stream, char *buf) { }
static __attribute__((unused))
int kst_setvbuf(FILE *stream, char *buf, int mode, size_t size)
{
	return mode == _IONBF || mode == _IOLBF || mode == _IOFBF ? 0 : -1;
}
#define setbuf		kst_setbuf
#define setvbuf		kst_setvbuf

static __attribute__((unused)) int abs(int v) { return v < 0 ? -v : v; }
static __attribute__((unused)) long labs(long v) { return v < 0 ? -v : v; }
static __attribute__((unused)) long long llabs(long long v) { return v < 0 ? -v : v; }

/* ---- process ---------------------------------------------------------- */

static __attribute__((unused, noreturn)) void _exit(int status)
{
	sys_exit(status);
	__builtin_unreachable();
}

static __attribute__((unused)) int setpgrp(void) { return setpgid(0, 0); }

#ifndef __WALL
#define WSTOPPED	2
#define WEXITED		4
#define WCONTINUED	8
#define WNOWAIT		0x01000000
#define __WNOTHREAD	0x20000000
#define __WALL		0x40000000
#define __WCLONE	0x80000000
#endif
#ifndef WIFSTOPPED
#define WIFSTOPPED(status)	(((status) & 0xff) == 0x7f)
#endif
#ifndef WSTOPSIG
#define WSTOPSIG(status)	WEXITSTATUS(status)
#endif
#ifndef WCOREDUMP
#define WCOREDUMP(status)	((status) & 0x80)
#endif

/* syscall(2) as in glibc: -1 and errno on error (6.12's nolibc has a macro). */
#define KST_SYSCALL_RET(r) \
	({ long __r = (r); if (__r < 0 && __r > -4096) { SET_ERRNO(-__r); __r = -1; } __r; })
static __attribute__((unused))
long kst_syscall(long nr, ...)
{
	va_list ap;
	long a, b, c, d, e, f;

	va_start(ap, nr);
	a = va_arg(ap, long);
	b = va_arg(ap, long);
	c = va_arg(ap, long);
	d = va_arg(ap, long);
	e = va_arg(ap, long);
	f = va_arg(ap, long);
	va_end(ap);
#if !defined(__NR_futex) && defined(__NR_futex_time64)
	/* The waiting futex operations take a timespec in the 4th argument. */
	if (nr == __NR_futex_time64 && d) {
		switch (b & FUTEX_CMD_MASK) {
		case FUTEX_WAIT: case FUTEX_WAIT_BITSET: case FUTEX_LOCK_PI:
		case FUTEX_LOCK_PI2: case FUTEX_WAIT_REQUEUE_PI: {
			const struct timespec *old = (const struct timespec *)d;
			struct __kernel_timespec t64 = {
				.tv_sec = old->tv_sec, .tv_nsec = old->tv_nsec,
			};

			return KST_SYSCALL_RET(my_syscall6(nr, a, b, c, (long)&t64, e, f));
		}
		}
	}
#endif
	return KST_SYSCALL_RET(my_syscall6(nr, a, b, c, d, e, f));
}
#undef syscall
#define syscall		kst_syscall

/* ptrace(2) as in glibc: PEEK requests return the word read. */
static __attribute__((unused))
long ptrace(int req, ...)
{
	va_list ap;
	long pid, addr, data, word, ret;

	va_start(ap, req);
	pid = va_arg(ap, long);
	addr = va_arg(ap, long);
	data = va_arg(ap, long);
	va_end(ap);
	if (req >= PTRACE_PEEKTEXT && req <= PTRACE_PEEKUSR) {
		ret = my_syscall4(__NR_ptrace, req, pid, addr, &word);
		if (ret < 0) {
			SET_ERRNO(-ret);
			return -1;
		}
		SET_ERRNO(0);
		return word;
	}
	return KST_SYSCALL_RET(my_syscall4(__NR_ptrace, req, pid, addr, data));
}

static __attribute__((unused)) pid_t kst_gettid(void) { return my_syscall0(__NR_gettid); }

/* ---- signals ---------------------------------------------------------- */

/* The kernel's 64-signal set and sigaction layout (asm-generic, no
 * sa_restorer), under the names programs use. */
typedef struct { unsigned long sig[2]; } kst_sigset_t;
#define sigset_t kst_sigset_t

typedef void (*kst_sighandler_t)(int);
struct kst_sigaction {
	union {
		void (*sa_handler)(int);
		void (*sa_sigaction)(int, siginfo_t *, void *);
	};
	unsigned long sa_flags;
	kst_sigset_t sa_mask;
};
#undef sa_handler
#undef sa_sigaction
#define sigaction kst_sigaction
#define sighandler_t kst_sighandler_t

static __attribute__((unused))
int kst_sigaction(int sig, const struct kst_sigaction *act, struct kst_sigaction *old)
{
	return KST_SYSCALL_RET(my_syscall4(__NR_rt_sigaction, sig, act, old,
					   sizeof(kst_sigset_t)));
}

static __attribute__((unused)) int sigemptyset(kst_sigset_t *s)
{ s->sig[0] = s->sig[1] = 0; return 0; }
static __attribute__((unused)) int sigfillset(kst_sigset_t *s)
{ s->sig[0] = s->sig[1] = ~0UL; return 0; }
static __attribute__((unused)) int sigaddset(kst_sigset_t *s, int sig)
{ s->sig[(sig - 1) / 32] |= 1UL << ((sig - 1) % 32); return 0; }
static __attribute__((unused)) int sigdelset(kst_sigset_t *s, int sig)
{ s->sig[(sig - 1) / 32] &= ~(1UL << ((sig - 1) % 32)); return 0; }
static __attribute__((unused)) int sigismember(const kst_sigset_t *s, int sig)
{ return !!(s->sig[(sig - 1) / 32] & (1UL << ((sig - 1) % 32))); }

static __attribute__((unused))
int sigprocmask(int how, const kst_sigset_t *set, kst_sigset_t *old)
{
	return KST_SYSCALL_RET(my_syscall4(__NR_rt_sigprocmask, how, set, old,
					   sizeof(kst_sigset_t)));
}

static __attribute__((unused))
kst_sighandler_t signal(int sig, kst_sighandler_t handler)
{
	struct kst_sigaction act = { .sa_handler = handler, .sa_flags = SA_RESTART };
	struct kst_sigaction old;

	if (kst_sigaction(sig, &act, &old) < 0)
		return (kst_sighandler_t)SIG_ERR;
	return old.sa_handler;
}

static __attribute__((unused)) int sigaltstack(const stack_t *ss, stack_t *old)
{
	return KST_SYSCALL_RET(my_syscall2(__NR_sigaltstack, ss, old));
}

static __attribute__((unused)) int pause(void)
{
	kst_sigset_t none = { { 0, 0 } };

	return KST_SYSCALL_RET(my_syscall2(__NR_rt_sigsuspend, &none, sizeof(none)));
}

static __attribute__((unused)) char *strsignal(int sig)
{
	static char buf[24];

	strcpy(buf, "signal ");
	itoa_r(sig, buf + 7);
	return buf;
}

/* ---- setjmp ------------------------------------------------------------ */

/* s0-s7, sp, fp (s8), ra, gp: the o32 callee-saved state (soft-float). */
typedef unsigned long jmp_buf[12];
typedef jmp_buf sigjmp_buf;
int setjmp(jmp_buf env);
void longjmp(jmp_buf env, int val) __attribute__((noreturn));
__asm__(".text\n"
	".globl setjmp\n"
	".type setjmp, @function\n"
	".set push\n.set noreorder\n"
	"setjmp:\n"
	"	sw $16, 0($4)\n	sw $17, 4($4)\n	sw $18, 8($4)\n	sw $19, 12($4)\n"
	"	sw $20, 16($4)\n	sw $21, 20($4)\n	sw $22, 24($4)\n	sw $23, 28($4)\n"
	"	sw $29, 32($4)\n	sw $30, 36($4)\n	sw $31, 40($4)\n	sw $28, 44($4)\n"
	"	jr $31\n"
	"	move $2, $0\n"
	".size setjmp, .-setjmp\n"
	".globl longjmp\n"
	".type longjmp, @function\n"
	"longjmp:\n"
	"	lw $16, 0($4)\n	lw $17, 4($4)\n	lw $18, 8($4)\n	lw $19, 12($4)\n"
	"	lw $20, 16($4)\n	lw $21, 20($4)\n	lw $22, 24($4)\n	lw $23, 28($4)\n"
	"	lw $29, 32($4)\n	lw $30, 36($4)\n	lw $31, 40($4)\n	lw $28, 44($4)\n"
	"	move $2, $5\n"
	"	bnez $2, 1f\n"
	"	nop\n"
	"	li $2, 1\n"
	"1:	jr $31\n"
	"	nop\n"
	".size longjmp, .-longjmp\n"
	".set pop\n");
#define sigsetjmp(env, savemask)	setjmp(env)
#define siglongjmp			longjmp

/* ---- time -------------------------------------------------------------- */

#ifndef CLOCK_REALTIME
#include <linux/time.h>
#endif
typedef int clockid_t;
typedef int timer_t;

/*
 * The time32 calls when the port has them, else their _time64 versions
 * (a y2038-safe ABI as riscv32's), converting from the 32-bit struct
 * timespec of nolibc's UAPI headers. -DKST_FORCE_TIME64 tries that path
 * on a port that has both.
 */
#if !defined(__NR_clock_gettime) || defined(KST_FORCE_TIME64)
#define KST_TIME64 1
static void kst_ts64(struct __kernel_timespec *d, const struct timespec *s)
{
	d->tv_sec = s->tv_sec;
	d->tv_nsec = s->tv_nsec;
}

static void kst_ts32(struct timespec *d, const struct __kernel_timespec *s)
{
	d->tv_sec = s->tv_sec;
	d->tv_nsec = s->tv_nsec;
}
#endif

static __attribute__((unused))
int clock_gettime(clockid_t clk, struct timespec *ts)
{
#ifdef KST_TIME64
	struct __kernel_timespec t;
	long ret = my_syscall2(__NR_clock_gettime64, clk, &t);

	if (!ret && ts)
		kst_ts32(ts, &t);
	return KST_SYSCALL_RET(ret);
#else
	return KST_SYSCALL_RET(my_syscall2(__NR_clock_gettime, clk, ts));
#endif
}

static __attribute__((unused))
int clock_getres(clockid_t clk, struct timespec *ts)
{
#ifdef KST_TIME64
	struct __kernel_timespec t;
	long ret = my_syscall2(__NR_clock_getres_time64, clk, &t);

	if (!ret && ts)
		kst_ts32(ts, &t);
	return KST_SYSCALL_RET(ret);
#else
	return KST_SYSCALL_RET(my_syscall2(__NR_clock_getres, clk, ts));
#endif
}

static __attribute__((unused))
int clock_settime(clockid_t clk, const struct timespec *ts)
{
#ifdef KST_TIME64
	struct __kernel_timespec t;

	kst_ts64(&t, ts);
	return KST_SYSCALL_RET(my_syscall2(__NR_clock_settime64, clk, &t));
#else
	return KST_SYSCALL_RET(my_syscall2(__NR_clock_settime, clk, ts));
#endif
}

/* Returns the error number, as POSIX says. */
static __attribute__((unused))
int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
		    struct timespec *rem)
{
#ifdef KST_TIME64
	struct __kernel_timespec r, m;
	long ret;

	kst_ts64(&r, req);
	ret = my_syscall4(__NR_clock_nanosleep_time64, clk, flags, &r, rem ? &m : NULL);
	if (ret == -EINTR && rem)
		kst_ts32(rem, &m);
	return -ret;
#else
	return -my_syscall4(__NR_clock_nanosleep, clk, flags, req, rem);
#endif
}

static __attribute__((unused))
int nanosleep(const struct timespec *req, struct timespec *rem)
{
#ifdef KST_TIME64
	int err = clock_nanosleep(CLOCK_REALTIME, 0, req, rem);

	if (err) {
		SET_ERRNO(err);
		return -1;
	}
	return 0;
#else
	return KST_SYSCALL_RET(my_syscall2(__NR_nanosleep, req, rem));
#endif
}

static __attribute__((unused))
int setitimer(int which, const struct itimerval *val, struct itimerval *old)
{
	return KST_SYSCALL_RET(my_syscall3(__NR_setitimer, which, val, old));
}

static __attribute__((unused))
int getitimer(int which, struct itimerval *val)
{
	return KST_SYSCALL_RET(my_syscall2(__NR_getitimer, which, val));
}

static __attribute__((unused)) unsigned int alarm(unsigned int secs)
{
	struct itimerval it = { .it_value = { .tv_sec = secs } }, old;

	setitimer(ITIMER_REAL, &it, &old);
	return old.it_value.tv_sec + (old.it_value.tv_usec ? 1 : 0);
}

static __attribute__((unused))
int timer_create(clockid_t clk, struct sigevent *sev, timer_t *id)
{
	return KST_SYSCALL_RET(my_syscall3(__NR_timer_create, clk, sev, id));
}

static __attribute__((unused))
int timer_settime(timer_t id, int flags, const struct itimerspec *val,
		  struct itimerspec *old)
{
#ifdef KST_TIME64
	struct __kernel_itimerspec v, o;
	long ret;

	kst_ts64(&v.it_interval, &val->it_interval);
	kst_ts64(&v.it_value, &val->it_value);
	ret = my_syscall4(__NR_timer_settime64, id, flags, &v, old ? &o : NULL);
	if (!ret && old) {
		kst_ts32(&old->it_interval, &o.it_interval);
		kst_ts32(&old->it_value, &o.it_value);
	}
	return KST_SYSCALL_RET(ret);
#else
	return KST_SYSCALL_RET(my_syscall4(__NR_timer_settime, id, flags, val, old));
#endif
}

static __attribute__((unused))
int timer_gettime(timer_t id, struct itimerspec *val)
{
#ifdef KST_TIME64
	struct __kernel_itimerspec v;
	long ret = my_syscall2(__NR_timer_gettime64, id, &v);

	if (!ret) {
		kst_ts32(&val->it_interval, &v.it_interval);
		kst_ts32(&val->it_value, &v.it_value);
	}
	return KST_SYSCALL_RET(ret);
#else
	return KST_SYSCALL_RET(my_syscall2(__NR_timer_gettime, id, val));
#endif
}

static __attribute__((unused)) int timer_delete(timer_t id)
{
	return KST_SYSCALL_RET(my_syscall1(__NR_timer_delete, id));
}

#ifdef __NR_adjtimex
static __attribute__((unused)) int adjtimex(struct timex *tx)
{
	return KST_SYSCALL_RET(my_syscall1(__NR_adjtimex, tx));
}
#endif

/* ---- memory and files ---------------------------------------------- */

static __attribute__((unused)) int madvise(void *addr, size_t len, int advice)
{
	return KST_SYSCALL_RET(my_syscall3(__NR_madvise, addr, len, advice));
}

static __attribute__((unused)) int mincore(void *addr, size_t len, unsigned char *vec)
{
	return KST_SYSCALL_RET(my_syscall3(__NR_mincore, addr, len, vec));
}

static __attribute__((unused)) int mlock(const void *addr, size_t len)
{
	return KST_SYSCALL_RET(my_syscall2(__NR_mlock, addr, len));
}

static __attribute__((unused)) int munlock(const void *addr, size_t len)
{
	return KST_SYSCALL_RET(my_syscall2(__NR_munlock, addr, len));
}

static __attribute__((unused)) int mprotect(void *addr, size_t len, int prot)
{
	return KST_SYSCALL_RET(my_syscall3(__NR_mprotect, addr, len, prot));
}

/* o32: 64-bit arguments in aligned register pairs, little-endian halves. */
static __attribute__((unused))
int fallocate(int fd, int mode, long long off, long long len)
{
	return KST_SYSCALL_RET(my_syscall6(__NR_fallocate, fd, mode,
					   (unsigned long)off, (unsigned long)(off >> 32),
					   (unsigned long)len, (unsigned long)(len >> 32)));
}

static __attribute__((unused))
ssize_t readlink(const char *path, char *buf, size_t size)
{
	return KST_SYSCALL_RET(my_syscall4(__NR_readlinkat, AT_FDCWD, path, buf, size));
}

/* No shell in this userland: what a shell-less libc's system() says. */
static __attribute__((unused)) int system(const char *cmd)
{
	return cmd ? 127 << 8 : 0;
}

#ifndef STDIN_FILENO
#define STDIN_FILENO	0
#define STDOUT_FILENO	1
#define STDERR_FILENO	2
#endif
#ifndef MAP_ANON
#define MAP_ANON	MAP_ANONYMOUS
#endif

/* ---- misc -------------------------------------------------------------- */

static __attribute__((unused)) long sysconf(int name)
{
	return name == 30 /* _SC_PAGESIZE */ ? 4096 : -1;
}
#define _SC_PAGESIZE	30
#define _SC_PAGE_SIZE	30
static __attribute__((unused)) int kst_getpagesize(void) { return 4096; }
#define getpagesize	kst_getpagesize

static __attribute__((unused)) long kst_strtol(const char *s, char **end, int base)
{
	long v = 0;
	int neg = 0;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	} else if (base == 0) {
		base = *s == '0' ? 8 : 10;
	}
	for (;; s++) {
		int d = *s >= '0' && *s <= '9' ? *s - '0' :
			*s >= 'a' && *s <= 'z' ? *s - 'a' + 10 :
			*s >= 'A' && *s <= 'Z' ? *s - 'A' + 10 : 99;
		if (d >= base)
			break;
		v = v * base + d;
	}
	if (end)
		*end = (char *)s;
	return neg ? -v : v;
}
#define strtol			kst_strtol
#define strtoul(s, e, b)	((unsigned long)kst_strtol(s, e, b))
#define strtoll(s, e, b)	((long long)kst_strtol(s, e, b))
#define strtoull(s, e, b)	((unsigned long long)kst_strtol(s, e, b))

/* ctype.h: the ASCII case mappings, which nolibc lacks. */
static __attribute__((unused)) int kst_tolower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

static __attribute__((unused)) int kst_toupper(int c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}
#define tolower		kst_tolower
#define toupper		kst_toupper

static __attribute__((unused))
void *memmem(const void *h, size_t hl, const void *n, size_t nl)
{
	const char *p = h;

	for (; hl >= nl; hl--, p++)
		if (!memcmp(p, n, nl))
			return (void *)p;
	return NULL;
}

static __attribute__((unused)) void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

/* getopt: short options only, as the selftests use them. */
static char *optarg;
static int optind = 1, opterr = 1, optopt;
static __attribute__((unused))
int getopt(int argc, char *const argv[], const char *opts)
{
	static int pos = 1;
	const char *o;
	char c;

	if (optind >= argc || argv[optind][0] != '-' || !argv[optind][1])
		return -1;
	if (!strcmp(argv[optind], "--")) {
		optind++;
		return -1;
	}
	c = argv[optind][pos];
	o = strchr(opts, c);
	if (!o || c == ':') {
		optopt = c;
		if (!argv[optind][++pos]) {
			optind++;
			pos = 1;
		}
		return '?';
	}
	if (o[1] == ':') {
		if (argv[optind][pos + 1])
			optarg = &argv[optind][pos + 1];
		else if (optind + 1 < argc)
			optarg = argv[++optind];
		else
			return '?';
		optind++;
		pos = 1;
		return c;
	}
	if (!argv[optind][++pos]) {
		optind++;
		pos = 1;
	}
	return c;
}

#define alloca __builtin_alloca

static __attribute__((unused)) char *basename(char *path)
{
	char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* err.h */
#define warnx(...)	do { kst_fprintf(stderr, __VA_ARGS__); kst_fprintf(stderr, "\n"); } while (0)
#define warn(...)	do { kst_fprintf(stderr, __VA_ARGS__); kst_fprintf(stderr, ": errno %d\n", errno); } while (0)
#define errx(code, ...)	do { warnx(__VA_ARGS__); exit(code); } while (0)
#define err(code, ...)	do { warn(__VA_ARGS__); exit(code); } while (0)

/* assert.h */
#define assert(x) do { if (!(x)) { kst_fprintf(stderr, "%s:%d: assertion failed: %s\n", \
		__FILE__, __LINE__, #x); abort(); } } while (0)

/* sys/auxv.h: from the kernel-supplied auxiliary vector after envp. */
char **environ;
static __attribute__((unused)) unsigned long kst_getauxval(unsigned long type)
{
	char **e = environ;
	unsigned long *av;

	while (*e)
		e++;
	for (av = (unsigned long *)(e + 1); av[0]; av += 2)
		if (av[0] == type)
			return av[1];
	return 0;
}
#define getauxval	kst_getauxval

/*
 * kselftest_harness.h registers its tests from constructors. A nolibc with
 * crt.h (6.12's) runs them and sets environ in _start_c(); 6.1's _start
 * does neither: main() does, then calls the program's main, renamed by the
 * macro below.
 */
#ifndef _NOLIBC_CRT_H
int kst_main();
extern void (*__init_array_start[])(void) __attribute__((weak));
extern void (*__init_array_end[])(void) __attribute__((weak));
int main(int argc, char **argv, char **envp)
{
	void (**f)(void);

	environ = envp;
	for (f = __init_array_start; f < __init_array_end; f++)
		(*f)();
	return kst_main(argc, argv, envp);
}
#define main kst_main
#endif /* !_NOLIBC_CRT_H */

#endif /* _KST_LIBC_H */
