// SPDX-License-Identifier: GPL-2.0
/*
 * Where sleeping tasks sleep: children blocked in a pipe read, in
 * clock_nanosleep and in wait4; /proc/<pid>/wchan must name the kernel
 * function they sleep in and /proc/<pid>/stack must show the path from
 * the system call. Prints one line per child:
 *   wchan: <what> pid <n> wchan <function> stack <f1>,<f2>,...
 * The host test checks the function names.
 */
#include "libc.h"

struct kts {
	long long tv_sec;
	long long tv_nsec;
};

static int nap(long long sec, long long nsec)
{
	struct kts ts = { sec, nsec };

	return my_syscall4(__NR_clock_nanosleep_time64, 1 /* MONOTONIC */, 0,
			   &ts, NULL);
}

static void fmt_path(char *buf, int pid, const char *what)
{
	char num[16];
	int i = 15;

	num[i] = 0;
	do {
		num[--i] = '0' + pid % 10;
		pid /= 10;
	} while (pid);
	strcpy(buf, "/proc/");
	strcpy(buf + strlen(buf), num + i);
	strcpy(buf + strlen(buf), "/");
	strcpy(buf + strlen(buf), what);
}

/* "[<0>] pipe_read+0x1a4/0x2f0\n..." -> "pipe_read,vfs_read,..." */
static void stack_names(const char *in, char *out, int size)
{
	int len = 0;

	while (*in) {
		const char *p = strchr(in, ']');

		if (!p)
			break;
		p++;
		while (*p == ' ')
			p++;
		if (len)
			out[len++] = ',';
		while (*p && *p != '+' && *p != '\n' && len < size - 2)
			out[len++] = *p++;
		in = strchr(p, '\n');
		if (!in)
			break;
		in++;
	}
	out[len] = 0;
}

static void report(const char *what, int pid)
{
	char path[64], wchan[128], stack[2048], names[1024];

	fmt_path(path, pid, "wchan");
	if (read_file(path, wchan, sizeof(wchan)) < 0)
		strcpy(wchan, "?");
	fmt_path(path, pid, "stack");
	if (read_file(path, stack, sizeof(stack)) < 0)
		strcpy(stack, "");
	stack_names(stack, names, sizeof(names));
	printf("wchan: %s pid %d wchan %s stack %s\n", what, pid, wchan, names);
}

int main(void)
{
	int fds[2], pid_pipe, pid_sleep, pid_wait, status;
	char c;

	if (pipe(fds))
		return 1;

	pid_pipe = fork();
	if (pid_pipe == 0) {
		close(fds[1]);
		read(fds[0], &c, 1);	/* nobody writes: sleeps in pipe_read */
		exit(0);
	}
	pid_sleep = fork();
	if (pid_sleep == 0) {
		nap(1000, 0);
		exit(0);
	}
	pid_wait = fork();
	if (pid_wait == 0) {
		if (fork() == 0) {
			/* Ends when the last writer (the test) has gone. */
			close(fds[1]);
			read(fds[0], &c, 1);
			exit(0);
		}
		wait4(-1, &status, 0, NULL);
		exit(0);
	}
	nap(0, 200000000);	/* let them all block */

	report("pipe", pid_pipe);
	report("nanosleep", pid_sleep);
	report("wait4", pid_wait);

	kill(pid_pipe, SIGKILL);
	kill(pid_sleep, SIGKILL);
	kill(pid_wait, SIGKILL);
	waitpid(pid_pipe, &status, 0);
	waitpid(pid_sleep, &status, 0);
	waitpid(pid_wait, &status, 0);
	return 0;
}
