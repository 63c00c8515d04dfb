// SPDX-License-Identifier: GPL-2.0
/*
 * Address-space layout randomization. The program executes itself as a
 * child, three times with randomization and twice in each of two other
 * settings; each child prints where its stack, two anonymous mmap()s and
 * its brk are:
 *   aslr: <setting> <n> stack <addr> mmap <addr> mmap2 <addr> brk <addr>
 * Settings: "random" (randomize_va_space 2, the default), "off"
 * (/proc/sys/kernel/randomize_va_space set to 0, then restored) and
 * "personality" (randomization on, the children run with the personality
 * flag ADDR_NO_RANDOMIZE, as setarch -R does). The host test compares the
 * runs: they differ in "random", are equal in the others, and the mmap
 * areas lie below the stack, the second below the first (top-down).
 */
#include "libc.h"

#define ADDR_NO_RANDOMIZE	0x0040000
#define VA_SPACE		"/proc/sys/kernel/randomize_va_space"

static int show(const char *setting, const char *n)
{
	int on_stack = 0;
	void *m1 = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	void *m2 = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long brk = my_syscall1(__NR_brk, 0);

	if (m1 == MAP_FAILED || m2 == MAP_FAILED) {
		printf("aslr: %s %s mmap failed\n", setting, n);
		return 1;
	}
	printf("aslr: %s %s stack %p mmap %p mmap2 %p brk %p\n", setting, n,
	       (void *)&on_stack, m1, m2, (void *)brk);
	return 0;
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY, 0);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

/* Run "/bin/aslr show <setting> <n>" and wait for it: 0 when it passed. */
static int run_child(const char *self, char *setting, char *n, int norandom)
{
	char *argv[] = { (char *)"aslr", (char *)"show", setting, n, NULL };
	char *envp[] = { NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (norandom &&
		    my_syscall1(__NR_personality, ADDR_NO_RANDOMIZE) < 0)
			exit(2);
		execve(self, argv, envp);
		exit(3);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	static char *const settings[] = { "random", "off", "personality" };
	char saved[16];
	unsigned int s;
	int failed = 0;

	if (argc == 4 && !strcmp(argv[1], "show"))
		return show(argv[2], argv[3]);
	if (read_file(VA_SPACE, saved, sizeof(saved)) <= 0) {
		printf("aslr: cannot read %s\n", VA_SPACE);
		return 1;
	}
	printf("aslr: randomize_va_space %s", saved);

	for (s = 0; s < 3; s++) {
		int off = !strcmp(settings[s], "off");

		if (off && write_file(VA_SPACE, "0\n")) {
			printf("aslr: cannot write %s\n", VA_SPACE);
			return 1;
		}
		failed |= run_child("/bin/aslr", settings[s], "1", s == 2);
		failed |= run_child("/bin/aslr", settings[s], "2", s == 2);
		if (s == 0)
			failed |= run_child("/bin/aslr", settings[s], "3", 0);
		if (off && write_file(VA_SPACE, saved)) {
			printf("aslr: cannot restore %s\n", VA_SPACE);
			return 1;
		}
	}
	return failed ? 1 : 0;
}
