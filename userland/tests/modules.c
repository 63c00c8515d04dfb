// SPDX-License-Identifier: GPL-2.0
/*
 * Loads /lib/modules/portkit_mod.ko with finit_module, checks that it is
 * listed in /proc/modules, unloads it with delete_module, then loads
 * portkit_oops.ko in a child, whose init oopses: the child dies, the
 * kernel stays up. Prints "modules: <step> <result>" lines.
 */
#include "libc.h"

static int listed(const char *name)
{
	static char buf[4096];
	int fd = open("/proc/modules", O_RDONLY, 0);
	char *p;
	int n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	/* Each line starts with the module name. */
	for (p = buf; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		if (!strncmp(p, name, strlen(name)) && p[strlen(name)] == ' ')
			return 1;
	}
	return 0;
}

static long load(const char *path)
{
	int fd = open(path, O_RDONLY, 0);
	long ret;

	if (fd < 0)
		return -1000;
	ret = my_syscall3(__NR_finit_module, fd, "", 0);
	close(fd);
	return ret;
}

int main(void)
{
	long ret;
	int pid, status, fail = 0;

	ret = load("/lib/modules/portkit_mod.ko");
	printf("modules: load %ld\n", ret);
	fail |= ret != 0;
	printf("modules: listed %d\n", listed("portkit_mod"));
	ret = my_syscall2(__NR_delete_module, "portkit_mod", O_NONBLOCK);
	printf("modules: unload %ld\n", ret);
	fail |= ret != 0;
	printf("modules: listed-after-unload %d\n", listed("portkit_mod"));

	pid = fork();
	if (pid == 0) {
		load("/lib/modules/portkit_oops.ko");
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		printf("modules: oops-loader not waited for (errno %d)\n", errno);
		return 1;
	}
	printf("modules: oops-loader %s %d\n",
	       WIFSIGNALED(status) ? "signal" : "exit",
	       WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return fail;
}
