// SPDX-License-Identifier: GPL-2.0
/*
 * The function tracers and the system call tracepoints through tracefs
 * (the debug variant; kernel/ftrace.c, kernel/mcount.S of the family
 * layer). Four parts, each printed as "ftrace: part NAME" then its trace
 * lines ("ftrace: trace: ..."), which the host test checks:
 *
 * - function: the function tracer with set_ftrace_filter on sys_getppid,
 *   three getppid() calls;
 * - module: the filter ":mod:portkit_mod" set before the module is
 *   loaded, so the functions its init calls are traced (module text's
 *   call sites, patched as the module is loaded);
 * - graph: function_graph with set_graph_function sys_getppid and a
 *   depth of 2: the call, the calls it makes, and their durations;
 * - syscalls: the sys_enter/sys_exit events of kill and sys_enter of
 *   mmap_pgoff (mmap2), whose 5th and 6th arguments come from the user's
 *   stack, for calls with known arguments and results.
 *
 * It also prints whether the events of the calls whose table entry is an
 * entry.S wrapper exist (execve, clone), and, as figures, the guest
 * instructions of a null system call (getppid; CP0 Count counts
 * instructions in the emulator, as for /bin/kcost) with tracing off, with
 * a syscall event enabled (so every call takes the syscall work path and
 * passes getppid's disabled tracepoints) and with the function tracer on
 * sys_getppid alone, then on every function: "ftrace: cost <what> <n>".
 */
#include "libc.h"
#include "tracefs.h"

#define PROG		"ftrace"
#define MISSING_PID	0x7ffffff0

#define ROUNDS		200

static int bad;

static inline unsigned int cycles(void)
{
	unsigned int c;

	__asm__ __volatile__(".set push\n.set mips32r2\nrdhwr %0, $2\n.set pop"
			     : "=r" (c));
	return c;
}

/* Instructions per getppid(), the fewest of three runs of ROUNDS calls. */
static unsigned int null_syscall(void)
{
	unsigned int t, best = ~0u;
	int run, i;

	for (run = 0; run < 3; run++) {
		t = cycles();
		for (i = 0; i < ROUNDS; i++)
			my_syscall0(__NR_getppid);
		t = (cycles() - t) / ROUNDS;
		if (t < best)
			best = t;
	}
	return best;
}

/* Write text to a tracefs file, and say so if it fails. */
static void put(const char *file, const char *text, int flags)
{
	int err = tracefs_put(file, text, flags);

	if (err) {
		printf(PROG ": write '%s' to %s: errno %d\n", text, file, err);
		bad = 1;
	}
}

/* Stop tracing, print the trace, clear it for the next part. */
static void end_part(void)
{
	put("tracing_on", "0", 0);
	tracefs_print_trace(PROG);
	put("current_tracer", "nop", 0);
	put("trace", "", O_TRUNC);
}

static int load_module(const char *path)
{
	int fd = open(path, O_RDONLY, 0);
	long ret;

	if (fd < 0)
		return errno;
	ret = my_syscall3(__NR_finit_module, fd, "", 0);
	close(fd);
	return ret < 0 ? -ret : 0;
}

int main(void)
{
	int err, i, fd;
	long ret;
	void *map;

	err = tracefs_mount();
	if (err) {
		printf(PROG ": mount tracefs: errno %d\n", err);
		return 1;
	}
	printf(PROG ": pid %d\n", getpid());
	put("current_tracer", "nop", 0);
	put("trace", "", O_TRUNC);

	printf(PROG ": part function\n");
	put("set_ftrace_filter", "sys_getppid", O_TRUNC);
	put("tracing_on", "1", 0);
	put("current_tracer", "function", 0);
	for (i = 0; i < 3; i++)
		printf(PROG ": getppid %d\n", getppid());
	end_part();

	printf(PROG ": part module\n");
	put("set_ftrace_filter", ":mod:portkit_mod", O_TRUNC);
	put("tracing_on", "1", 0);
	put("current_tracer", "function", 0);
	err = load_module("/lib/modules/portkit_mod.ko");
	printf(PROG ": load portkit_mod: errno %d\n", err);
	end_part();
	ret = my_syscall2(__NR_delete_module, "portkit_mod", O_NONBLOCK);
	printf(PROG ": unload portkit_mod: errno %ld\n", ret < 0 ? -ret : 0);
	put("set_ftrace_filter", "", O_TRUNC);

	printf(PROG ": part graph\n");
	put("set_graph_function", "sys_getppid", O_TRUNC);
	put("max_graph_depth", "2", O_TRUNC);
	put("tracing_on", "1", 0);
	put("current_tracer", "function_graph", 0);
	printf(PROG ": getppid %d\n", getppid());
	end_part();
	put("set_graph_function", "", O_TRUNC);
	put("max_graph_depth", "0", O_TRUNC);

	printf(PROG ": part syscalls\n");
	put("events/syscalls/sys_enter_kill/enable", "1", 0);
	put("events/syscalls/sys_exit_kill/enable", "1", 0);
	put("events/syscalls/sys_enter_mmap_pgoff/enable", "1", 0);
	put("tracing_on", "1", 0);
	ret = kill(getpid(), 0);
	printf(PROG ": kill %d 0 = %ld\n", getpid(), ret);
	ret = kill(MISSING_PID, 0);
	printf(PROG ": kill %d 0 = %ld errno %d\n", MISSING_PID, ret, errno);
	fd = open("/init", O_RDONLY, 0);
	map = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 2 * 4096);
	printf(PROG ": mmap fd %d pgoff 2 %s\n", fd, map == MAP_FAILED ? "failed" : "ok");
	if (map != MAP_FAILED)
		munmap(map, 4096);
	close(fd);
	put("tracing_on", "0", 0);
	put("events/syscalls/enable", "0", 0);
	tracefs_print_trace(PROG);
	put("trace", "", O_TRUNC);
	put("tracing_on", "1", 0);

	fd = open(TRACEFS "/events/syscalls/sys_enter_execve/format", O_RDONLY, 0);
	printf(PROG ": event sys_enter_execve errno %d\n", fd < 0 ? errno : 0);
	close(fd);
	fd = open(TRACEFS "/events/syscalls/sys_enter_clone/format", O_RDONLY, 0);
	printf(PROG ": event sys_enter_clone errno %d\n", fd < 0 ? errno : 0);
	close(fd);

	printf(PROG ": cost off %u\n", null_syscall());
	put("events/syscalls/sys_enter_kill/enable", "1", 0);
	printf(PROG ": cost syscall-event %u\n", null_syscall());
	put("events/syscalls/sys_enter_kill/enable", "0", 0);
	put("set_ftrace_filter", "sys_getppid", O_TRUNC);
	put("current_tracer", "function", 0);
	printf(PROG ": cost function-tracer-getppid %u\n", null_syscall());
	put("current_tracer", "nop", 0);
	put("set_ftrace_filter", "", O_TRUNC);
	put("current_tracer", "function", 0);
	printf(PROG ": cost function-tracer-all %u\n", null_syscall());
	put("current_tracer", "nop", 0);
	put("trace", "", O_TRUNC);

	printf(PROG ": done\n");
	return bad;
}
