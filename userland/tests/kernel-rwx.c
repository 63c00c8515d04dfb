// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel memory protections (STRICT_KERNEL_RWX, non-executable lowmem,
 * vmalloc and stacks), checked through LKDTM: for each crash type a
 * child writes the type to /sys/kernel/debug/provoke-crash/DIRECT; the
 * kernel must oops in the child's context, kill it, and carry on.
 * Prints "kernel-rwx: <TYPE> killed by signal <n>" or
 * "kernel-rwx: <TYPE> returned <ret> errno <e>"; the host test reads the
 * kernel's oops lines between them. Exits 0 when the kernel is still up
 * at the end (the verdict per type is the host's).
 */
#include "libc.h"

static const char *const types[] = {
	"WRITE_RO", "WRITE_RO_AFTER_INIT", "WRITE_KERN",
	"EXEC_DATA", "EXEC_STACK", "EXEC_KMALLOC", "EXEC_VMALLOC",
	"EXEC_RODATA", "EXEC_NULL", "ACCESS_NULL",
	/* No SMEP/SMAP on TSAR (as on MIPS): expected to run. */
	"EXEC_USERSPACE", "ACCESS_USERSPACE",
};

int main(void)
{
	unsigned int i;

	mkdir("/debug", 0700);
	/* Already mounted by init (portkit_crash=) is fine too. */
	mount("debugfs", "/debug", "debugfs", 0, NULL);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		int status = 0;
		pid_t pid;

		printf("kernel-rwx: start %s\n", types[i]);
		pid = fork();
		if (pid == 0) {
			int fd = open("/debug/provoke-crash/DIRECT", O_WRONLY);
			long ret = fd < 0 ? fd : write(fd, types[i], strlen(types[i]));

			printf("kernel-rwx: %s returned %ld errno %d\n", types[i],
			       ret, ret < 0 ? errno : 0);
			exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid) {
			printf("kernel-rwx: fork/wait failed (errno %d)\n", errno);
			return 1;
		}
		if (WIFSIGNALED(status))
			printf("kernel-rwx: %s killed by signal %d\n", types[i],
			       WTERMSIG(status));
	}
	printf("kernel-rwx: kernel still up after %u types\n", i);
	return 0;
}
