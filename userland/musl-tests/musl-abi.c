// SPDX-License-Identifier: GPL-2.0
/*
 * musl-abi: checks of the musl port for TSAR (userland/musl), run in the
 * guest as /bin/musl-abi (portkit_run=musl-abi). Each check prints
 *   musl-abi: <name>: <details>: ok | FAIL
 * and the program exits with the number of failed checks; the host test
 * (tests/boot/test_musl.py) reads the lines.
 *
 * Covered: stdio and printf (integers, floating point through the
 * soft-float runtime, rounding), malloc, strings, math, pthreads with TLS
 * (__thread per thread, mutex, condvar, rwlock, barrier, semaphore, once,
 * keys, cancellation, errno per thread), setjmp/longjmp, signals
 * (SA_SIGINFO, ucontext, sigaltstack, masks, timers), fork/exec/wait
 * (through waitid: the ABI has no wait4), posix_spawn (clone with a new
 * stack), 64-bit time (clock_gettime, a clock set past 2038), stat and
 * statx-backed struct layouts, large files, dirent, poll/select, dlsym
 * (linked through the time64 name, failing in a static program).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <setjmp.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "portkit-arch.h"	/* PORTKIT_UTS_MACHINE: the spec's arch.uts_machine */

#define CHECK_PROG "musl-abi"
#include "musl-check.h"

extern char **environ;

/* snprintf(fmt, ...) must give exactly want. */
static void fmt_is(const char *name, const char *want, const char *fmt, ...)
{
	char got[128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(got, sizeof(got), fmt, ap);
	va_end(ap);
	check(name, !strcmp(got, want), "\"%s\" want \"%s\"", got, want);
}

/* Keep the compiler from folding floating point at build time. */
static volatile double vd_pi = 3.14159265358979, vd_third = 1.0 / 3,
	vd_tenth = 0.1, vd_fifth = 0.2, vd_two = 2.0, vd_neg = -3.7,
	vd_big = 3e9, vd_2_5 = 2.5, vd_3_5 = 3.5;
static volatile float vf_one = 1.0f, vf_three = 3.0f;
static volatile long long vll = 1000000000000LL;

static void check_printf(void)
{
	fmt_is("printf-int", "42 -17 ff 777", "%d %d %x %o", 42, -17, 255, 511);
	fmt_is("printf-pad", "[ab   ][   ab][00042]", "[%-5s][%5s][%05d]", "ab", "ab", 42);
	fmt_is("printf-ll", "1234567890123456789 18446744073709551615",
	       "%lld %llu", 1234567890123456789LL, ULLONG_MAX);
	fmt_is("printf-f3", "3.142", "%.3f", vd_pi);
	fmt_is("printf-f-round-to-nearest", "3.14159", "%.5f", vd_pi);
	fmt_is("printf-e", "1.234568e+04", "%e", 12345.678 * (vd_two / 2));
	fmt_is("printf-g", "0.0001 1e+20", "%g %g", 0.0001 * (vd_two / 2), 1e20 * (vd_two / 2));
	fmt_is("printf-f-big", "10000000000.000000", "%f", 1e10 * (vd_two / 2));
	fmt_is("printf-third", "0.3333333333", "%.10f", vd_third);
	fmt_is("printf-half-even", "2 4", "%.0f %.0f", vd_2_5, vd_3_5);
	fmt_is("printf-sum", "0.30000000000000004", "%.17g", vd_tenth + vd_fifth);
	fmt_is("printf-float", "0.3333333", "%.7f", (double)(vf_one / vf_three));
	fmt_is("printf-neg-zero", "-0.0", "%.1f", -0.0 * vd_two);
	fmt_is("printf-inf-nan", "inf nan", "%f %f", vd_two / 0.0 * 1, sqrt(-vd_two) * 0 + NAN);
	fmt_is("printf-ptr", "0x1234", "%p", (void *)0x1234);
}

static void check_numbers(void)
{
	char buf[64];
	double d;
	int n, i;
	char word[16];

	d = strtod("2.5e-3", NULL);
	check("strtod", d == 0.0025, "%.17g", d);
	snprintf(buf, sizeof(buf), "%.17g", strtod("0.1", NULL));
	check("strtod-roundtrip", !strcmp(buf, "0.10000000000000001"), "%s", buf);
	n = snprintf(buf, 4, "%s", "truncated");
	check("snprintf-truncate", n == 9 && !strcmp(buf, "tru"), "ret %d \"%s\"", n, buf);
	n = sscanf("17 word 2.75", "%d %15s %lf", &i, word, &d);
	check("sscanf", n == 3 && i == 17 && !strcmp(word, "word") && d == 2.75,
	      "%d %d %s %g", n, i, word, d);
	check("float-to-int", (int)vd_neg == -3 && (unsigned)vd_big == 3000000000u &&
	      (long long)(vd_big * 1e9) == 3000000000000000000LL,
	      "%d %u %lld", (int)vd_neg, (unsigned)vd_big, (long long)(vd_big * 1e9));
	check("int64-div", vll / 7 == 142857142857LL && vll % 7 == 1 &&
	      ((unsigned long long)vll << 20) >> 20 == (unsigned long long)vll,
	      "%lld %lld", vll / 7, vll % 7);
	check("strtol", strtol("-0x7fffffff", NULL, 16) == -0x7fffffffL &&
	      strtoull("18446744073709551615", NULL, 10) == ULLONG_MAX &&
	      strtol("99999999999", NULL, 10) == LONG_MAX && errno == ERANGE,
	      "%ld", strtol("-0x7fffffff", NULL, 16));
	check("math-sqrt", fabs(sqrt(vd_two) - 1.4142135623730951) < 1e-15, "%.17g", sqrt(vd_two));
	check("math-sin-exp-pow", fabs(sin(vd_pi / 6) - 0.5) < 1e-12 &&
	      fabs(exp(vd_two / 2) - 2.718281828459045) < 1e-12 && pow(vd_two, 10) == 1024,
	      "%.15f %.15f %g", sin(vd_pi / 6), exp(vd_two / 2), pow(vd_two, 10));
	check("math-round", floor(vd_neg) == -4 && ceil(vd_neg) == -3 && lround(vd_2_5) == 3 &&
	      fmod(7.5 * (vd_two / 2), 2) == 1.5, "%g %g %ld", floor(vd_neg), ceil(vd_neg),
	      lround(vd_2_5));
	check("long-double", sizeof(long double) == 8 && sizeof(double) == 8, "%zu",
	      sizeof(long double));
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void check_memory(void)
{
	static int v[1000];
	unsigned sum = 0, want = 0;
	char *p, *q;
	void *al = NULL;
	int i, ok;

	p = malloc(10);
	q = malloc(1 << 20);
	check("malloc", p && q && !((uintptr_t)p & 7) && !((uintptr_t)q & 7), "%p %p", p, q);
	memset(q, 0x5a, 1 << 20);
	strcpy(p, "123456789");
	p = realloc(p, 100000);
	check("realloc", p && !strcmp(p, "123456789"), "%p", p);
	free(p);
	free(q);
	p = calloc(1000, 4);
	ok = p != NULL;
	for (i = 0; ok && i < 4000; i++)
		ok = !p[i];
	check("calloc", ok, "%p", p);
	free(p);
	check("posix_memalign", !posix_memalign(&al, 4096, 5000) && !((uintptr_t)al & 4095),
	      "%p", al);
	free(al);
	{
		void *blocks[500];
		for (i = 0; i < 500; i++) {
			blocks[i] = malloc(1 + (i * 7919) % 3000);
			memset(blocks[i], i & 0xff, 1 + (i * 7919) % 3000);
		}
		for (ok = 1, i = 0; i < 500; i++) {
			ok &= ((unsigned char *)blocks[i])[(i * 7919) % 3000] == (i & 0xff);
			free(blocks[i]);
		}
		check("malloc-many", ok, "500 blocks");
	}
	for (i = 0; i < 1000; i++) {
		v[i] = (i * 7919) % 1000;
		want += i;
	}
	qsort(v, 1000, sizeof(int), cmp_int);
	for (ok = 1, i = 0; i < 1000; i++) {
		ok &= v[i] == i;
		sum += v[i];
	}
	check("qsort", ok && sum == want, "sum %u", sum);
	{
		char s[32] = "hello, world";
		check("string", strlen(s) == 12 && !strcmp(strchr(s, 'w'), "world") &&
		      !memcmp(memmove(s + 1, s, 5), "hello", 5) && !strncmp(strstr(s, "lo"), "lo", 2),
		      "%s", s);
	}
	p = mmap(NULL, 3 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ok = p != MAP_FAILED;
	if (ok) {
		p[8191] = 1;
		ok = !mprotect(p, 4096, PROT_READ) && !munmap(p, 3 * 4096);
	}
	check("mmap", ok, "%p", p);
}

/* --- threads --- */
static __thread int tls_var = 5;
static __thread char tls_buf[64];
static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static long counter;
static int ready, atomic_counter;
static pthread_key_t key;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static pthread_barrier_t barrier;
static sem_t sem;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

struct targ {
	int id;
	int tls_ok;
	int errno_ok;
	int *errno_addr;
	void *tls_addr;
	int key_ok;
};

static void once_fn(void)
{
	once_runs++;
}

static void *worker(void *p)
{
	struct targ *a = p;
	int i;

	a->tls_ok = tls_var == 5;	/* initial value in every thread */
	tls_var = 100 + a->id;
	snprintf(tls_buf, sizeof(tls_buf), "thread %d", a->id);
	a->tls_addr = &tls_var;
	errno = 1000 + a->id;
	pthread_setspecific(key, a);
	pthread_once(&once, once_fn);
	for (i = 0; i < 10000; i++) {
		pthread_mutex_lock(&mtx);
		counter++;
		pthread_mutex_unlock(&mtx);
		__sync_fetch_and_add(&atomic_counter, 1);
		if (!(i & 1023)) {
			pthread_rwlock_rdlock(&rw);
			pthread_rwlock_unlock(&rw);
		}
	}
	pthread_barrier_wait(&barrier);
	sched_yield();
	a->tls_ok &= tls_var == 100 + a->id && !strcmp(tls_buf + 7, (char[]){'0' + a->id, 0});
	a->errno_ok = errno == 1000 + a->id;
	a->errno_addr = &errno;
	a->key_ok = pthread_getspecific(key) == a;
	sem_post(&sem);
	return (void *)(long)(a->id * 3);
}

static void *waiter(void *p)
{
	pthread_mutex_lock(&mtx);
	while (!ready)
		pthread_cond_wait(&cond, &mtx);
	ready = 2;
	pthread_mutex_unlock(&mtx);
	return p;
}

static void *sleeper(void *p)
{
	sleep(100);		/* a cancellation point */
	return p;
}

static void check_threads(void)
{
	pthread_t t[4], w, s;
	struct targ a[4];
	void *ret;
	int i, ok_join = 1, ok_tls = 1, ok_errno = 1, ok_key = 1, distinct = 1;

	pthread_key_create(&key, NULL);
	pthread_barrier_init(&barrier, NULL, 4);
	sem_init(&sem, 0, 0);
	tls_var = 7;
	errno = 0;
	for (i = 0; i < 4; i++) {
		a[i] = (struct targ){ .id = i };
		if (pthread_create(&t[i], NULL, worker, &a[i]))
			ok_join = 0;
	}
	for (i = 0; i < 4; i++)
		sem_wait(&sem);
	for (i = 0; i < 4; i++) {
		if (pthread_join(t[i], &ret) || ret != (void *)(long)(i * 3))
			ok_join = 0;
		ok_tls &= a[i].tls_ok;
		ok_errno &= a[i].errno_ok && a[i].errno_addr != &errno;
		ok_key &= a[i].key_ok;
		if (i && a[i].tls_addr == a[0].tls_addr)
			distinct = 0;
	}
	check("pthread-create-join", ok_join, "4 threads");
	check("tls-per-thread", ok_tls && tls_var == 7 && distinct && (void *)&tls_var != a[0].tls_addr,
	      "main %d", tls_var);
	/* each thread kept its own value through the barrier, in its own
	 * location (main's errno may change in its own calls meanwhile) */
	errno = 77;
	check("errno-per-thread", ok_errno && errno == 77, "main &errno %p thread %p",
	      (void *)&errno, (void *)a[0].errno_addr);
	check("mutex", counter == 40000, "%ld", counter);
	check("atomic-llsc", atomic_counter == 40000, "%d", atomic_counter);
	check("pthread-key", ok_key, "getspecific");
	check("pthread-once", once_runs == 1, "%d runs", once_runs);
	check("semaphore-barrier", 1, "4 posts seen");

	pthread_create(&w, NULL, waiter, (void *)0x55);
	usleep(20000);
	pthread_mutex_lock(&mtx);
	ready = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&mtx);
	pthread_join(w, &ret);
	check("condvar", ready == 2 && ret == (void *)0x55, "ready %d", ready);

	pthread_create(&s, NULL, sleeper, NULL);
	usleep(20000);
	pthread_cancel(s);
	pthread_join(s, &ret);
	check("pthread-cancel", ret == PTHREAD_CANCELED, "%p", ret);
	check("pthread-self", pthread_equal(pthread_self(), pthread_self()) &&
	      !pthread_equal(pthread_self(), t[0]), "self");
}

/* --- setjmp, signals --- */
static jmp_buf jb;
static sigjmp_buf sjb;

static void jump_back(int v)
{
	longjmp(jb, v);
}

static volatile sig_atomic_t got_sig, got_code, got_pid, got_value;
static volatile void *got_addr;
static volatile unsigned long got_epc;
static volatile int on_alt;
static char altstack[16384];

static void on_info(int sig, siginfo_t *si, void *uc)
{
	got_sig = sig;
	got_code = si->si_code;
	got_pid = si->si_pid;
	got_value = si->si_value.sival_int;
	(void)uc;
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;

	got_sig = sig;
	got_addr = si->si_addr;
	got_epc = uc->uc_mcontext.regs.epc;
	/* skip the faulting load (never in a delay slot here) */
	uc->uc_mcontext.regs.epc += 4;
	uc->uc_mcontext.regs.regs[2] = 0x1234;
}

static void on_alt_sig(int sig)
{
	char here;

	on_alt = &here >= altstack && &here < altstack + sizeof(altstack);
	got_sig = sig;
}

static void on_fpe(int sig, siginfo_t *si, void *uc)
{
	got_sig = sig;
	got_code = si->si_code;
	siglongjmp(sjb, 1);
	(void)uc;
}

static void on_plain(int sig)
{
	got_sig = sig;
}

static void check_signals(void)
{
	struct sigaction sa;
	sigset_t set, old, pend;
	volatile int local = 1;
	int r, ok;

	r = setjmp(jb);
	if (!r) {
		local = 2;
		jump_back(5);
	}
	check("setjmp-longjmp", r == 5 && local == 2, "ret %d local %d", r, local);

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_info;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR1, &sa, NULL);
	kill(getpid(), SIGUSR1);
	check("sa-siginfo", got_sig == SIGUSR1 && got_code == SI_USER && got_pid == getpid(),
	      "sig %d code %d pid %d", got_sig, got_code, got_pid);
	got_sig = 0;
	sigqueue(getpid(), SIGUSR1, (union sigval){ .sival_int = 4242 });
	check("sigqueue", got_sig == SIGUSR1 && got_code == SI_QUEUE && got_value == 4242,
	      "code %d value %d", got_code, got_value);

	sa.sa_sigaction = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	{
		register long v0 __asm__("$2") = 0;
		volatile int *bad = (int *)16;

		__asm__ volatile("lw %0, 0(%1)" : "=r"(v0) : "r"(bad) : "memory");
		check("ucontext-segv", got_sig == SIGSEGV && got_addr == (void *)16 &&
		      got_epc != 0 && v0 == 0x1234, "addr %p epc %#lx v0 %#lx",
		      got_addr, (unsigned long)got_epc, (unsigned long)v0);
	}

	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	signal(SIGUSR2, on_plain);
	got_sig = 0;
	sigprocmask(SIG_BLOCK, &set, &old);
	raise(SIGUSR2);
	sigpending(&pend);
	ok = got_sig == 0 && sigismember(&pend, SIGUSR2);
	sigprocmask(SIG_SETMASK, &old, NULL);
	check("sigprocmask-pending", ok && got_sig == SIGUSR2, "delivered %d", got_sig);

	{
		stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
		struct sigaction as = { .sa_handler = on_alt_sig, .sa_flags = SA_ONSTACK };

		sigaltstack(&ss, NULL);
		sigaction(SIGUSR2, &as, NULL);
		raise(SIGUSR2);
		check("sigaltstack", on_alt, "handler on alternate stack");
	}

	sa.sa_sigaction = on_fpe;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGFPE, &sa, NULL);
	got_sig = 0;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (!sigsetjmp(sjb, 1)) {
		/* both operands volatile: gcc turns 1 / z into compares */
		volatile int zero = 0, seven = 7, x;

		sigprocmask(SIG_UNBLOCK, &set, NULL);
		x = seven / zero;
		(void)x;
	}
	sigprocmask(SIG_SETMASK, NULL, &old);
	check("sigfpe-divzero-siglongjmp", got_sig == SIGFPE && got_code == FPE_INTDIV &&
	      sigismember(&old, SIGUSR1), "sig %d code %d mask restored %d", got_sig, got_code,
	      sigismember(&old, SIGUSR1));
	sigprocmask(SIG_UNBLOCK, &set, NULL);

	signal(SIGALRM, on_plain);
	got_sig = 0;
	{
		struct itimerval it = { .it_value = { .tv_usec = 20000 } };

		setitimer(ITIMER_REAL, &it, NULL);
		while (!got_sig)
			pause();
		check("setitimer-pause", got_sig == SIGALRM, "sig %d", got_sig);
	}
	{
		timer_t tm;
		struct sigevent sev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
		struct itimerspec its = { .it_value = { .tv_nsec = 10000000 } };

		got_sig = 0;
		ok = !timer_create(CLOCK_MONOTONIC, &sev, &tm) && !timer_settime(tm, 0, &its, NULL);
		while (ok && !got_sig)
			pause();
		check("timer-create", ok && got_sig == SIGALRM, "sig %d", got_sig);
		timer_delete(tm);
	}
	{
		struct timespec req = { .tv_sec = 5 }, rem = { 0 };
		struct itimerval it = { .it_value = { .tv_usec = 30000 } };

		setitimer(ITIMER_REAL, &it, NULL);
		r = nanosleep(&req, &rem);
		check("nanosleep-eintr", r == -1 && errno == EINTR && rem.tv_sec >= 3 &&
		      rem.tv_sec <= 5, "r %d errno %d rem %lld", r, errno, (long long)rem.tv_sec);
	}
}

/* --- processes --- */
static void check_processes(char *self)
{
	pid_t pid;
	int st = 0, r;
	struct rusage ru;

	pid = fork();
	if (!pid)
		_exit(42);
	r = waitpid(pid, &st, 0);
	check("fork-waitpid", r == pid && WIFEXITED(st) && WEXITSTATUS(st) == 42,
	      "r %d status %#x", r, st);

	pid = fork();
	if (!pid) {
		for (;;)
			pause();
	}
	r = waitpid(pid, &st, WNOHANG);
	check("waitpid-wnohang", r == 0, "r %d", r);
	kill(pid, SIGSTOP);
	r = waitpid(pid, &st, WUNTRACED);
	check("waitpid-stopped", r == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP,
	      "status %#x", st);
	kill(pid, SIGCONT);
	r = waitpid(pid, &st, WCONTINUED);
	check("waitpid-continued", r == pid && WIFCONTINUED(st), "status %#x", st);
	kill(pid, SIGKILL);
	r = wait4(pid, &st, 0, &ru);
	check("wait4-signaled", r == pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL &&
	      ru.ru_utime.tv_sec >= 0 && ru.ru_utime.tv_usec < 1000000,
	      "status %#x utime %lld.%06ld", st, (long long)ru.ru_utime.tv_sec,
	      (long)ru.ru_utime.tv_usec);
	r = waitpid(-1, &st, WNOHANG);
	check("waitpid-no-child", r == -1 && errno == ECHILD, "r %d errno %d", r, errno);

	pid = fork();
	if (!pid) {
		char *argv[] = { self, "--exec-child", NULL };

		execve(self, argv, environ);
		_exit(99);
	}
	waitpid(pid, &st, 0);
	check("fork-execve", WIFEXITED(st) && WEXITSTATUS(st) == 7, "status %#x", st);

	{
		char *argv[] = { self, "--exec-child", NULL };

		r = posix_spawn(&pid, self, NULL, NULL, argv, environ);
		st = 0;
		if (!r)
			waitpid(pid, &st, 0);
		check("posix-spawn", !r && WIFEXITED(st) && WEXITSTATUS(st) == 7,
		      "r %d status %#x", r, st);
	}
	if (!access("/bin/sh", X_OK)) {
		char line[32] = "";
		FILE *f = popen("echo popen-works", "r");

		if (f) {
			fgets(line, sizeof(line), f);
			r = pclose(f);
		}
		check("popen", f && !strcmp(line, "popen-works\n") && r == 0, "\"%s\"", line);
		r = system("exit 3");
		check("system", WIFEXITED(r) && WEXITSTATUS(r) == 3, "status %#x", r);
	}
	{
		int p[2];
		char buf[8] = "";
		struct pollfd pfd;
		fd_set rs;
		struct timeval tv = { 0, 10000 };

		pipe(p);
		pfd = (struct pollfd){ .fd = p[0], .events = POLLIN };
		r = poll(&pfd, 1, 10);
		FD_ZERO(&rs);
		FD_SET(p[0], &rs);
		check("poll-select-timeout", r == 0 && select(p[0] + 1, &rs, NULL, NULL, &tv) == 0,
		      "poll %d", r);
		write(p[1], "x", 1);
		FD_SET(p[0], &rs);
		check("poll-select-ready", poll(&pfd, 1, 1000) == 1 && (pfd.revents & POLLIN) &&
		      select(p[0] + 1, &rs, NULL, NULL, NULL) == 1 && read(p[0], buf, 8) == 1,
		      "revents %#x", pfd.revents);
		close(p[0]);
		close(p[1]);
	}
}

/* --- time, files --- */
static void check_time(void)
{
	struct timespec a, b, t;
	struct timeval tv;
	struct tm tm;
	char buf[64];
	time_t now;
	int ok;

	check("time-t-64", sizeof(time_t) == 8 && sizeof(struct timespec) == 16 &&
	      sizeof(off_t) == 8 && sizeof(long) == 4, "time_t %zu timespec %zu off_t %zu",
	      sizeof(time_t), sizeof(struct timespec), sizeof(off_t));
	clock_gettime(CLOCK_MONOTONIC, &a);
	t = (struct timespec){ 0, 20000000 };
	nanosleep(&t, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	{
		long long ns = (b.tv_sec - a.tv_sec) * 1000000000LL + b.tv_nsec - a.tv_nsec;

		check("clock-monotonic-sleep", ns >= 20000000 && ns < 2000000000LL, "%lld ns", ns);
	}
	clock_getres(CLOCK_MONOTONIC, &t);
	check("clock-getres", t.tv_sec == 0 && t.tv_nsec > 0 && t.tv_nsec <= 10000000,
	      "%ld ns", t.tv_nsec);
	clock_gettime(CLOCK_REALTIME, &a);
	/* y2038: set the clock past 2^31 seconds and read it back */
	t = (struct timespec){ .tv_sec = 4102444800LL + 3600 };	/* 2100-01-01 01:00 */
	ok = !clock_settime(CLOCK_REALTIME, &t);
	now = time(NULL);
	gettimeofday(&tv, NULL);
	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %H", &tm);
	check("clock-settime-y2100", ok && now >= t.tv_sec && now < t.tv_sec + 60 &&
	      tv.tv_sec >= t.tv_sec && !strcmp(buf, "2100-01-01 01"), "time %lld \"%s\"",
	      (long long)now, buf);
	clock_settime(CLOCK_REALTIME, &a);
	now = 0;
	gmtime_r(&now, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%d %a", &tm);
	check("gmtime-epoch", !strcmp(buf, "1970-01-01 Thu"), "%s", buf);
}

static void check_files(void)
{
	struct stat st, st2;
	struct statfs sf;
	struct timespec ts[2];
	char buf[64];
	FILE *f;
	int fd, ok, n;
	off_t off;
	DIR *d;
	struct dirent *de;

	mkdir("/tmp/musl-abi", 0755);
	f = fopen("/tmp/musl-abi/a", "w+");
	ok = f != NULL;
	if (ok) {
		for (n = 0; n < 12345; n++)
			fputc('a' + n % 26, f);
		fflush(f);
		fseek(f, 26, SEEK_SET);
		ok = fgetc(f) == 'a' && ftell(f) == 27 && ungetc('Q', f) == 'Q' && fgetc(f) == 'Q';
		fprintf(f, "%s", "line\n");
		rewind(f);
		ok &= fgets(buf, 5, f) && !strcmp(buf, "abcd");
		fclose(f);
	}
	check("stdio-file", ok, "/tmp/musl-abi/a");
	ok = !stat("/tmp/musl-abi/a", &st);
	check("stat", ok && S_ISREG(st.st_mode) && st.st_size == 12345 && st.st_nlink == 1 &&
	      st.st_ino && (st.st_mode & 0777) == 0644 && st.st_uid == 0 && st.st_blksize > 0,
	      "size %lld mode %o nlink %lu", (long long)st.st_size, (unsigned)st.st_mode,
	      (unsigned long)st.st_nlink);
	fd = open("/tmp/musl-abi/a", O_RDONLY);
	check("fstat-matches-stat", !fstat(fd, &st2) && st2.st_ino == st.st_ino &&
	      st2.st_dev == st.st_dev && st2.st_size == st.st_size, "ino %llu",
	      (unsigned long long)st2.st_ino);
	close(fd);
	symlink("a", "/tmp/musl-abi/link");
	check("lstat-symlink", !lstat("/tmp/musl-abi/link", &st2) && S_ISLNK(st2.st_mode) &&
	      !stat("/tmp/musl-abi/link", &st2) && st2.st_ino == st.st_ino &&
	      readlink("/tmp/musl-abi/link", buf, sizeof(buf)) == 1, "mode %o",
	      (unsigned)st2.st_mode);
	ts[0] = (struct timespec){ .tv_sec = 2147483648LL + 100, .tv_nsec = 5000 };
	ts[1] = (struct timespec){ .tv_sec = 4102444800LL, .tv_nsec = 123456789 };
	check("utimensat-y2038", !utimensat(AT_FDCWD, "/tmp/musl-abi/a", ts, 0) &&
	      !stat("/tmp/musl-abi/a", &st) && st.st_atim.tv_sec == ts[0].tv_sec &&
	      st.st_mtim.tv_sec == 4102444800LL && st.st_mtim.tv_nsec == 123456789,
	      "mtime %lld.%09ld", (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	fd = open("/tmp/musl-abi/big", O_RDWR | O_CREAT, 0600);
	off = lseek(fd, 5LL << 30, SEEK_SET);
	n = write(fd, "z", 1);
	check("large-file", off == 5LL << 30 && n == 1 && !fstat(fd, &st) &&
	      st.st_size == (5LL << 30) + 1 && lseek(fd, 0, SEEK_CUR) == (5LL << 30) + 1,
	      "off %lld size %lld", (long long)off, (long long)st.st_size);
	check("pread-pwrite-64", pwrite(fd, "y", 1, 3LL << 30) == 1 &&
	      pread(fd, buf, 1, 3LL << 30) == 1 && buf[0] == 'y', "at 3 GiB");
	check("ftruncate-64", !ftruncate(fd, 6LL << 30) && !fstat(fd, &st) &&
	      st.st_size == 6LL << 30, "size %lld", (long long)st.st_size);
	close(fd);
	unlink("/tmp/musl-abi/big");
	check("statfs", !statfs("/tmp", &sf) && sf.f_type == 0x01021994 && sf.f_bsize > 0,
	      "type %#lx", (unsigned long)sf.f_type);
	check("rename-unlink", !rename("/tmp/musl-abi/a", "/tmp/musl-abi/b") &&
	      access("/tmp/musl-abi/a", F_OK) && !access("/tmp/musl-abi/b", R_OK), "a -> b");
	close(open("/tmp/musl-abi/c", O_CREAT | O_WRONLY, 0600));
	mkdir("/tmp/musl-abi/sub", 0700);
	d = opendir("/tmp/musl-abi");
	n = 0;
	ok = d != NULL;
	while (ok && (de = readdir(d))) {
		if (!strcmp(de->d_name, "b") && de->d_type == DT_REG)
			n |= 1;
		if (!strcmp(de->d_name, "c") && de->d_type == DT_REG)
			n |= 2;
		if (!strcmp(de->d_name, "sub") && de->d_type == DT_DIR)
			n |= 4;
		if (!strcmp(de->d_name, "link") && de->d_type == DT_LNK)
			n |= 8;
	}
	if (d)
		closedir(d);
	check("readdir", n == 15, "found mask %d", n);
	d = opendir("/proc");
	n = 0;
	while (d && (de = readdir(d)))
		n += !strcmp(de->d_name, "self");
	if (d)
		closedir(d);
	check("readdir-proc", n == 1, "self seen %d", n);
	check("getcwd-chdir", !chdir("/tmp/musl-abi/sub") && getcwd(buf, sizeof(buf)) &&
	      !strcmp(buf, "/tmp/musl-abi/sub") && !chdir("/"), "%s", buf);
	check("rmdir", !rmdir("/tmp/musl-abi/sub") && rmdir("/tmp/musl-abi") == -1 &&
	      errno == ENOTEMPTY, "errno %d", errno);
	check("open-enoent-errno", open("/nonexistent/x", O_RDONLY) == -1 && errno == ENOENT &&
	      !strcmp(strerror(ENOENT), "No such file or directory"), "errno %d", errno);
}

static void check_system(void)
{
	struct utsname u;
	struct rlimit rl, rl2;
	char *e;

	check("uname", !uname(&u) && !strcmp(u.sysname, "Linux") && !strcmp(u.machine, PORTKIT_UTS_MACHINE),
	      "%s %s", u.sysname, u.machine);
	check("ids", getpid() > 1 && getppid() >= 1 && getuid() == 0 && geteuid() == 0,
	      "pid %d ppid %d", getpid(), getppid());
	check("sysconf", sysconf(_SC_PAGESIZE) == 4096 && sysconf(_SC_NPROCESSORS_ONLN) >= 1 &&
	      sysconf(_SC_CLK_TCK) == 100, "page %ld cpus %ld", sysconf(_SC_PAGESIZE),
	      sysconf(_SC_NPROCESSORS_ONLN));
	check("rlimit", !getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur > 0 &&
	      !setrlimit(RLIMIT_NOFILE, &(struct rlimit){ 64, rl.rlim_max }) &&
	      !getrlimit(RLIMIT_NOFILE, &rl2) && rl2.rlim_cur == 64 &&
	      !setrlimit(RLIMIT_NOFILE, &rl), "cur %llu", (unsigned long long)rl.rlim_cur);
	setenv("MUSL_ABI", "yes", 1);
	e = getenv("MUSL_ABI");
	check("environ", e && !strcmp(e, "yes") && !unsetenv("MUSL_ABI") && !getenv("MUSL_ABI"),
	      "%s", e ? e : "(null)");
	{
		unsigned char r1[16] = { 0 }, r2[16] = { 0 };

		check("getentropy", !getentropy(r1, 16) && !getentropy(r2, 16) &&
		      memcmp(r1, r2, 16), "two draws differ");
	}
	{
		struct winsize ws;

		check("ioctl-enotty", ioctl(open("/tmp", O_RDONLY | O_DIRECTORY), TIOCGWINSZ, &ws) == -1 &&
		      errno == ENOTTY, "errno %d", errno);
	}
	{
		/* <dlfcn.h> calls it __dlsym_time64; static: no symbol, an error */
		void *sym = dlsym(RTLD_DEFAULT, "main");
		const char *err = dlerror();

		check("dlsym-static", !sym && err && strstr(err, "main"), "%s", err ? err : "(null)");
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return 7;
	setvbuf(stdout, NULL, _IOLBF, 0);
	check_printf();
	check_numbers();
	check_memory();
	check_threads();
	check_signals();
	check_processes(argv[0]);
	check_time();
	check_files();
	check_system();
	return check_summary();
}
