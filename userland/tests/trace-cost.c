// SPDX-License-Identifier: GPL-2.0
/*
 * What tracing and perf counting cost, in guest instructions: CP0 Count
 * read with rdhwr $2, one count per instruction in the emulator plus idle
 * time. This program and its children run on CPU 0 only and wait for
 * nothing but each other, so there is no idle time unless the kernel
 * waits (CPU 0's idle time over the build rounds is printed too). Run by
 * `make bench` (scripts/bench-tracing.py) on the default kernel and on the
 * tracing variant (variants/tracing.config), which makes the ratios.
 *
 * Figures per mode:
 * - user_loop: Count per 1000 instructions of a user-mode loop, what the
 *   interrupts (the tick, traced or not) take from a program;
 * - null_syscall: instructions per getppid(), fewest of the rounds;
 * - build: instructions per round of a make-like job without a compiler,
 *   fewest of the rounds after a warm-up one. For each of the units, make
 *   stats the source, the object and a header, then forks and executes a
 *   "compiler" (this program again) which looks the header up in two
 *   directories, reads it and the source, writes a temporary assembler
 *   file, reads it back, writes the object and deletes the temporary;
 *   then make stats every object, runs a "linker" that reads them and
 *   writes an executable, and "make clean" deletes what was built.
 *
 * Modes:
 * - off: nothing enabled;
 * - function, function_graph: that tracer on every function, recording
 *   into the ring buffer; function_graph_noirqs: function_graph with the
 *   funcgraph-irqs option off (hard interrupts' functions not recorded);
 * - raw_syscalls: the raw_syscalls sys_enter and sys_exit events;
 * - perf: a counting perf event on this task (instructions, user and
 *   kernel, inherited by the children).
 *
 * Settings (kernel command line words that /init passes on):
 * trace_cost_modes=a,b,... (default off), trace_cost_rounds (1),
 * trace_cost_units (0: no build), trace_cost_calls (100), trace_cost_loop
 * (iterations of 3 instructions, 100000). The defaults keep it cheap
 * where every program runs (the debug kernel's boot). Prints
 *   trace-cost: <mode> <figure> <n> ...
 * and "trace-cost: <mode> unavailable: ..." for a mode the kernel lacks
 * (exit status 1 then, as when the job itself fails).
 */
#include "settings.h"
#include "tracefs.h"

#include <linux/perf_event.h>

#define PROG		"trace-cost"
#define SELF		"/bin/trace-cost"
#define TOP		"/tmp/trace-cost"

#define SRC_SIZE	4096
#define HDR_SIZE	2048
#define ASM_SIZE	8192
#define OBJ_SIZE	4096
#define CHUNK		4096	/* per write(), as stdio's buffer */
#define MAX_UNITS	64
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static char buf[MAX_UNITS * OBJ_SIZE];
static char **environ_;

static inline unsigned int cycles(void)
{
	unsigned int c;

	__asm__ __volatile__(".set push\n.set mips32r2\nrdhwr %0, $2\n.set pop"
			     : "=r" (c) : : "memory");
	return c;
}

static char *append(char *to, const char *s)
{
	while (*s)
		*to++ = *s++;
	*to = 0;
	return to;
}

/* TOP "/<dir>/<stem><n><ext>" into path. */
static char *unit_path(char *path, const char *dir, const char *stem,
		       unsigned int n, const char *ext)
{
	char *p = append(path, TOP "/");

	p = append(append(append(p, dir), "/"), stem);
	append(append(p, utoa(n)), ext);
	return path;
}

/* Up to size bytes of the file into to: how many, or -1. */
static long slurp(const char *path, char *to, long size)
{
	long n, len = 0;
	int fd = open(path, O_RDONLY, 0);

	if (fd < 0)
		return -1;
	while (len < size && (n = read(fd, to + len, size - len)) > 0)
		len += n;
	close(fd);
	return len;
}

/* len bytes of from into a new file, CHUNK per write(): 0 or -1. */
static int spill(const char *path, const char *from, long len, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	long off, n;

	if (fd < 0)
		return -1;
	for (off = 0; off < len; off += n) {
		n = len - off < CHUNK ? len - off : CHUNK;
		if (write(fd, from + off, n) != n)
			break;
	}
	close(fd);
	return off == len ? 0 : -1;
}

/* The "compiler" of unit u, run as "trace-cost cc <u>". */
static int run_cc(unsigned int u)
{
	char src[64], tmp[64], obj[64];
	struct stat st;
	long n;

	/* cpp: the header is not beside the source, it is in include/ */
	if (open(TOP "/src/common.h", O_RDONLY, 0) >= 0 ||
	    stat(TOP "/include/common.h", &st) ||
	    slurp(TOP "/include/common.h", buf, HDR_SIZE) != HDR_SIZE)
		return 2;
	if (slurp(unit_path(src, "src", "u", u, ".c"), buf + HDR_SIZE, SRC_SIZE) != SRC_SIZE)
		return 3;
	/* cc1 -> as through a temporary file, as gcc without -pipe */
	unit_path(tmp, "tmp", "cc", u, ".s");
	memcpy(buf + HDR_SIZE + SRC_SIZE, buf, ASM_SIZE - HDR_SIZE - SRC_SIZE);
	if (spill(tmp, buf, ASM_SIZE, 0600) || slurp(tmp, buf, ASM_SIZE) != ASM_SIZE)
		return 4;
	n = spill(unit_path(obj, "obj", "u", u, ".o"), buf, OBJ_SIZE, 0644);
	return unlink(tmp) || n ? 5 : 0;
}

/* The "linker", run as "trace-cost ld <units>". */
static int run_ld(unsigned int units)
{
	char obj[64];
	unsigned int u;

	for (u = 0; u < units; u++)
		if (slurp(unit_path(obj, "obj", "u", u, ".o"), buf + u * OBJ_SIZE,
			  OBJ_SIZE) != OBJ_SIZE)
			return 6;
	return spill(TOP "/out/prog", buf, units * OBJ_SIZE, 0755) ? 7 : 0;
}

/* Fork, run this program as "trace-cost <what> <n>", wait: 0 if it exited 0. */
static int spawn(const char *what, unsigned int n)
{
	char arg[12];
	char *argv[] = { SELF, (char *)what, arg, NULL };
	int status;
	pid_t pid;

	strcpy(arg, utoa(n));
	pid = fork();
	if (pid == 0) {
		execve(SELF, argv, environ_);
		exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* One round of the build: 0, or -1 if a step failed. */
static int build(unsigned int units)
{
	char path[64];
	struct stat st;
	unsigned int u;
	int bad = 0;

	for (u = 0; u < units; u++) {
		bad |= stat(unit_path(path, "src", "u", u, ".c"), &st);
		bad |= !stat(unit_path(path, "obj", "u", u, ".o"), &st);
		bad |= stat(TOP "/include/common.h", &st);
		bad |= spawn("cc", u);
	}
	for (u = 0; u < units; u++)
		bad |= stat(unit_path(path, "obj", "u", u, ".o"), &st);
	bad |= !stat(TOP "/out/prog", &st);
	bad |= spawn("ld", units);
	bad |= stat(TOP "/out/prog", &st) || st.st_size != (off_t)units * OBJ_SIZE;
	for (u = 0; u < units; u++)
		bad |= unlink(unit_path(path, "obj", "u", u, ".o"));
	bad |= unlink(TOP "/out/prog");
	return bad ? -1 : 0;
}

static const char *const dirs[] = { TOP, TOP "/src", TOP "/include", TOP "/obj",
				    TOP "/tmp", TOP "/out" };

/* The sources and the header, made once. */
static int setup(unsigned int units)
{
	char path[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(dirs[i], 0755) && errno != EEXIST)
			return -1;
	for (i = 0; i < SRC_SIZE; i++)
		buf[i] = i % 64 == 63 ? '\n' : 'a' + i % 26;
	for (i = 0; i < units; i++)
		if (spill(unit_path(path, "src", "u", i, ".c"), buf, SRC_SIZE, 0644))
			return -1;
	return spill(TOP "/include/common.h", buf, HDR_SIZE, 0644);
}

static void teardown(unsigned int units)
{
	char path[64];
	unsigned int i;

	for (i = 0; i < units; i++)
		unlink(unit_path(path, "src", "u", i, ".c"));
	unlink(TOP "/include/common.h");
	for (i = ARRAY_SIZE(dirs); i-- > 0; )
		rmdir(dirs[i]);
}

static struct {
	unsigned int rounds, units, calls, loop;
	long perf_fd;		/* the perf mode's event, or -1 */
} cfg = { .perf_fd = -1 };

static unsigned long long perf_count(void)
{
	unsigned long long v = 0;

	if (cfg.perf_fd < 0 || read(cfg.perf_fd, &v, sizeof(v)) != sizeof(v))
		return 0;
	return v;
}

/* n iterations of 3 user-mode instructions. */
static __attribute__((noinline)) void user_loop(unsigned long n)
{
	__asm__ __volatile__("1:	addiu	%0, %0, -1\n"
			     "	bnez	%0, 1b\n"
			     "	 nop\n" : "+r" (n));
}

/*
 * CPU 0's idle time from /proc/stat, in USER_HZ ticks: a Count difference
 * counts idle time too, which is zero unless something waits.
 */
static unsigned long cpu0_idle(void)
{
	static char text[2048];
	char *p;
	int i;

	if (read_file("/proc/stat", text, sizeof(text)) < 0)
		return 0;
	for (p = text; strncmp(p, "cpu0 ", 5); p++) {
		p = strchr(p, '\n');
		if (!p)
			return 0;
	}
	for (p += 5, i = 0; i < 3; i++) {	/* user, nice, system */
		while (*p == ' ')
			p++;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	while (*p == ' ')
		p++;
	return parse_uint(p);
}

/* The figures of one mode: 0, or -1 if the build failed. */
static int measure(const char *mode)
{
	unsigned int r, i, t, k, start, best = ~0u;
	unsigned long long c, counted = 0;
	unsigned long idle;

	/* What the interrupts (the tick, traced or not) take from user code */
	for (r = 0, t = 0; r < cfg.rounds; r++) {
		start = cycles();
		user_loop(cfg.loop);
		t += cycles() - start;
	}
	k = cfg.loop * 3 / 1000 * cfg.rounds;
	printf(PROG ": %s user_loop %u per 1000 user instructions (%u x %u)\n", mode,
	       (t + k / 2) / k, cfg.rounds, cfg.loop * 3);

	for (r = 0; r < cfg.rounds; r++) {
		t = cycles();
		for (i = 0; i < cfg.calls; i++)
			my_syscall0(__NR_getppid);
		t = cycles() - t;
		if (t < best)
			best = t;
	}
	printf(PROG ": %s null_syscall %u per call (best of %u x %u)\n", mode,
	       (best + cfg.calls / 2) / cfg.calls, cfg.rounds, cfg.calls);

	if (!cfg.units)
		return 0;
	if (cfg.rounds > 1 && build(cfg.units))	/* warm-up */
		return -1;
	best = ~0u;
	idle = cpu0_idle();
	for (r = 0; r < cfg.rounds; r++) {
		c = perf_count();
		t = cycles();
		if (build(cfg.units))
			return -1;
		t = cycles() - t;
		if (t < best) {
			best = t;
			counted = perf_count() - c;
		}
	}
	idle = cpu0_idle() - idle;
	printf(PROG ": %s build %u per round (best of %u, %u units)\n", mode, best,
	       cfg.rounds, cfg.units);
	printf(PROG ": %s cpu0_idle %lu ticks of USER_HZ in the %u rounds\n", mode, idle,
	       cfg.rounds);
	if (cfg.perf_fd >= 0)
		printf(PROG ": %s counted %lu instructions in that round\n", mode,
		       (unsigned long)counted);
	return 0;
}

/* Write a tracefs file: 0 or errno. */
static int put(const char *file, const char *text)
{
	return tracefs_put(file, text, O_TRUNC);
}

static int open_perf(void)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.inherit = 1;
	attr.exclude_hv = 1;
	cfg.perf_fd = my_syscall5(__NR_perf_event_open, &attr, 0, -1, -1,
				  PERF_FLAG_FD_CLOEXEC);
	if (cfg.perf_fd >= 0)
		return 0;
	return -cfg.perf_fd;
}

/* Switch mode on (on = 1) or off: 0, or errno if the kernel lacks it. */
static int switch_mode(const char *mode, int on)
{
	int err;

	if (!strcmp(mode, "off"))
		return 0;
	if (!strcmp(mode, "perf")) {
		if (on)
			return open_perf();
		close(cfg.perf_fd);
		cfg.perf_fd = -1;
		return 0;
	}
	err = tracefs_mount();
	if (err)
		return err;
	if (!strcmp(mode, "function") || !strcmp(mode, "function_graph")) {
		err = put("current_tracer", on ? mode : "nop");
	} else if (!strcmp(mode, "function_graph_noirqs") && on) {
		/* Hard interrupts' functions hooked, not recorded */
		err = put("options/funcgraph-irqs", "0");
		if (!err)
			err = put("current_tracer", "function_graph");
	} else if (!strcmp(mode, "function_graph_noirqs")) {
		/* Off before the interrupts are recorded again */
		err = put("current_tracer", "nop");
		if (!err)
			err = put("options/funcgraph-irqs", "1");
	} else if (!strcmp(mode, "raw_syscalls")) {
		err = put("events/raw_syscalls/sys_enter/enable", on ? "1" : "0");
		if (!err)
			err = put("events/raw_syscalls/sys_exit/enable", on ? "1" : "0");
	} else {
		return EINVAL;
	}
	return err;
}

int main(int argc, char **argv, char **envp)
{
	const char *modes = env_value(envp, "trace_cost_modes");
	char mode[32];
	const char *end;
	unsigned int len;
	long long t;
	long err, t0;
	int status = 0;

	environ_ = envp;
	if (argc == 3 && !strcmp(argv[1], "cc"))
		return run_cc(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "ld"))
		return run_ld(atoi(argv[2]));

	cfg.rounds = env_uint(envp, "trace_cost_rounds", 1);
	cfg.units = env_uint(envp, "trace_cost_units", 0);
	cfg.calls = env_uint(envp, "trace_cost_calls", 100);
	cfg.loop = env_uint(envp, "trace_cost_loop", 100000);
	if (!cfg.rounds || !cfg.calls || cfg.loop < 1000 || cfg.units > MAX_UNITS) {
		printf(PROG ": bad settings\n");
		return 1;
	}
	if (!modes || !*modes)
		modes = "off";
	/* CPU 0 only, children too: no idle time in a Count difference */
	err = setaffinity(0, 1);
	if (err) {
		printf(PROG ": sched_setaffinity: errno %ld\n", -err);
		return 1;
	}
	/*
	 * The random pool initialised: until then each exec's random bytes
	 * (the stack's AT_RANDOM, ASLR) are extracted from the input pool
	 * with BLAKE2s, a fifth of a build round, so a mode measured after
	 * the pool is ready would look cheaper than one before.
	 */
	if (cfg.units) {
		t = now_us();
		err = my_syscall3(__NR_getrandom, &t0, sizeof(t0), 0);
		printf(PROG ": random pool ready after %lu ms (getrandom %ld)\n",
		       (unsigned long)(now_us() - t) / 1000, err);
	}
	if (cfg.units && setup(cfg.units)) {
		printf(PROG ": setup in " TOP ": errno %d\n", errno);
		return 1;
	}
	while (*modes) {
		end = strchr(modes, ',');
		len = end ? (unsigned int)(end - modes) : strlen(modes);
		if (len >= sizeof(mode))
			len = sizeof(mode) - 1;
		memcpy(mode, modes, len);
		mode[len] = 0;
		modes = end ? end + 1 : modes + strlen(modes);
		t = now_us();
		err = switch_mode(mode, 1);
		if (err) {
			printf(PROG ": %s unavailable: errno %ld\n", mode, err);
			status = 1;
			continue;
		}
		if (measure(mode)) {
			printf(PROG ": %s: build failed\n", mode);
			status = 1;
		}
		switch_mode(mode, 0);
		printf(PROG ": %s guest_time %lu ms (the mode on, measured, off)\n", mode,
		       (unsigned long)(now_us() - t) / 1000);
	}
	teardown(cfg.units);
	printf(PROG ": done\n");
	return status;
}
