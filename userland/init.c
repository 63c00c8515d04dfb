// SPDX-License-Identifier: GPL-2.0
/*
 * /init of portkit's TSAR initramfs.
 *
 * Prints a banner (uname, memory size), runs smoke checks of the port's
 * process, memory, file and signal support, then powers off: status 0
 * when every check passed, otherwise reboot(RESTART2, "<failures>") so
 * the emulator exits with the number of failed checks.
 *
 * Command-line switch (passed to init in its environment):
 *   portkit_echo=1   read one line from the console and print it back
 *   portkit_crash=T  make the kernel crash first, in a child (LKDTM type T)
 *   portkit_nolibc_test=1  also run /bin/nolibc-test (its result is not a check)
 *   portkit_run=A[,B...]   after the checks, run the guest test programs
 *                          /bin/A, /bin/B ... (userland/tests/A.c or A/); each
 *                          one is a check that passes when it exits with status 0
 *   portkit_shell=1  (make run from a terminal) mount /dev, /proc, /sys and
 *                    /tmp and exec BusyBox's /sbin/init (userland/rootfs),
 *                    which starts a shell on the console; no checks. With
 *                    root= (and init=/init), on the disk root: the initramfs
 *                    /init switches to it and the disk's /init does this
 *
 * Root file system (kernel parameters, read from /proc/cmdline): with
 * root=DEV, init mounts DEV (rootfstype=, rootflags=, ro/rw as the kernel
 * reads them; read-only unless rw), moves /dev and /proc into it, makes it
 * the root and executes init= there (default /sbin/init, then /init) with
 * portkit_root=DEV added to its environment. If that fails it says why and
 * carries on from the initramfs. Before powering off, init syncs and, on a
 * disk root, remounts it read-only so the image is clean.
 *
 * Output lines the host tests read:
 *   portkit-init: <sysname> <release> <machine>, <N> KiB RAM
 *   check <name>: ok | FAIL (<why>)
 *   portkit-run: <program> exited with status <n> | killed by signal <n>
 *   portkit-init: <passed> passed, <failed> failed
 *   portkit-init: root DEV (FSTYPE, ro|rw): executing INIT
 *   portkit-init: cannot use root DEV: <why>; staying on the initramfs
 */

#include "libc.h"
#include "vdso-lookup.h"

#include <linux/mman.h>

static int passed, failed;

static void check(const char *name, int ok, const char *why)
{
	if (ok) {
		passed++;
		printf("check %s: ok\n", name);
	} else {
		failed++;
		printf("check %s: FAIL (%s, errno %d)\n", name, why, errno);
	}
}

static int check_fork_wait(void)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0)
		exit(42);
	if (pid < 0)
		return 0;
	if (waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 42;
}

static int check_pipe(void)
{
	static const char msg[] = "through the pipe";
	char buf[sizeof(msg)] = "";
	int fds[2], status;
	pid_t pid;

	if (pipe(fds) < 0)
		return 0;
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		exit(write(fds[1], msg, sizeof(msg)) == sizeof(msg) ? 0 : 1);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], buf, sizeof(buf)) != sizeof(msg))
		return 0;
	close(fds[0]);
	waitpid(pid, &status, 0);
	return memcmp(buf, msg, sizeof(msg)) == 0 && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

static int check_mmap(void)
{
	const size_t len = 64 * 4096;
	unsigned int *p, i;
	int ok = 1;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return 0;
	for (i = 0; i < len / sizeof(*p); i += 1024)
		if (p[i] != 0)		/* fresh anonymous memory is zero */
			ok = 0;
	for (i = 0; i < len / sizeof(*p); i++)
		p[i] = i * 2654435761u;
	for (i = 0; i < len / sizeof(*p); i++)
		if (p[i] != i * 2654435761u)
			ok = 0;
	return munmap(p, len) == 0 && ok;
}

static int check_tmpfs_file(void)
{
	static const char text[] = "written to tmpfs\n";
	char buf[64] = "";
	int fd, n;

	fd = open("/tmp/portkit.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0)
		return 0;
	if (write(fd, text, sizeof(text) - 1) != sizeof(text) - 1)
		return 0;
	if (lseek(fd, 0, SEEK_SET) != 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n == sizeof(text) - 1 && memcmp(buf, text, n) == 0 &&
	       unlink("/tmp/portkit.txt") == 0;
}

static volatile int got_signal;

static void on_usr1(int sig)
{
	got_signal = sig;
}

static int check_signal_handler(void)
{
	if (sigaction_simple(SIGUSR1, on_usr1, 0) < 0)
		return 0;
	if (kill(getpid(), SIGUSR1) < 0)
		return 0;
	return got_signal == SIGUSR1;
}

/*
 * Faults in user mode must become signals for the faulting process while
 * the kernel carries on: each case runs in a child that should die of the
 * expected signal.
 */
static void fault_null_store(void)
{
	*(volatile int *)0 = 1;
}

static void fault_kernel_read(void)
{
	/* TSAR's first kernel page (mapped, not for user mode); kseg2 on MIPS32. */
	(void)*(volatile int *)0xc0001000;
}

static void fault_misaligned_load(void)
{
	static unsigned int words[2];
	unsigned int v;

	/* A plain lw: C would let the compiler use lwl/lwr instead. */
	__asm__ volatile("lw %0, 1(%1)" : "=r"(v) : "r"(words));
	(void)v;
}

static void fault_break(void)
{
	__asm__ volatile("break");
}

static void fault_overflow(void)
{
	int big = 0x7fffffff, one = 1, sum;

	__asm__ volatile("add %0, %1, %2" : "=r"(sum) : "r"(big), "r"(one));
	(void)sum;
}

static void fault_coprocessor(void)
{
	/* No FPU: a CP1 instruction is a coprocessor-unusable exception. */
	__asm__ volatile(".set push\n.set hardfloat\nmfc1 $2, $f0\n.set pop" : : : "$2");
}

static const struct {
	const char *name;
	void (*fault)(void);
	int signal;
} user_faults[] = {
	{ "sigsegv-null", fault_null_store, SIGSEGV },
#ifdef PORTKIT_KERNEL_WINDOWS
	/* MIPS32's kernel half is off limits to user mode: an address error, SIGBUS as on MIPS. */
	{ "sigbus-kernel-address", fault_kernel_read, SIGBUS },
#else
	{ "sigsegv-kernel-address", fault_kernel_read, SIGSEGV },
#endif
	{ "sigbus-misaligned", fault_misaligned_load, SIGBUS },
	{ "sigtrap-break", fault_break, SIGTRAP },
	{ "sigfpe-overflow", fault_overflow, SIGFPE },
	{ "sigill-coprocessor", fault_coprocessor, SIGILL },
};

static int dies_of(void (*fault)(void), int signal)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		fault();
		exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFSIGNALED(status) && WTERMSIG(status) == signal;
}

/* A bad user pointer handed to the kernel is an error, not a crash. */
static int check_efault(void)
{
	char buf[8];
	int fds[2], ok;

	if (pipe(fds) < 0)
		return 0;
	ok = write(fds[1], (void *)16, 4) == -1 && errno == EFAULT;
	ok = ok && write(fds[1], "abcd", 4) == 4;
	ok = ok && read(fds[0], (void *)0xc0000000, 4) == -1 && errno == EFAULT;
	/* The failed read consumed nothing the kernel could not copy out. */
	ok = ok && read(fds[0], buf, sizeof(buf)) >= 0;
	close(fds[0]);
	close(fds[1]);
	return ok;
}

/* execve: run this program again in "child" mode, which exits with 7. */
static int check_exec(void)
{
	char *const argv[] = { "/init", "--exec-child", NULL };
	char *const envp[] = { NULL };
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execve("/init", argv, envp);
		exit(99);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 0;
	return WIFEXITED(status) && WEXITSTATUS(status) == 7;
}

/* The vDSO (AT_SYSINFO_EHDR) answers clock_gettime(CLOCK_MONOTONIC)
 * with a time between two clock_gettime64 system calls. */
static int check_vdso_clock(char **envp)
{
	int (*cgt)(int, struct __kernel_timespec *) =
		vdso_lookup(vl_getauxval(envp, VL_AT_SYSINFO_EHDR), "LINUX_2.6",
			    "__vdso_clock_gettime");
	struct __kernel_timespec a, v, b;
	long long ta, tv, tb;

	if (!cgt || my_syscall2(__NR_clock_gettime64, CLOCK_MONOTONIC, &a) ||
	    cgt(CLOCK_MONOTONIC, &v) ||
	    my_syscall2(__NR_clock_gettime64, CLOCK_MONOTONIC, &b))
		return 0;
	ta = a.tv_sec * 1000000000LL + a.tv_nsec;
	tv = v.tv_sec * 1000000000LL + v.tv_nsec;
	tb = b.tv_sec * 1000000000LL + b.tv_nsec;
	return ta <= tv && tv <= tb && tb > 0;
}

static int has_switch(char **envp, const char *sw)
{
	for (; *envp; envp++)
		if (!strcmp(*envp, sw))
			return 1;
	return 0;
}

/*
 * With portkit_crash=<TYPE>, a child asks LKDTM to crash the kernel in
 * its context (TYPE as in /sys/kernel/debug/provoke-crash/DIRECT, e.g.
 * EXCEPTION). The kernel oopses and kills the child; init carries on
 * unless oops=panic was given too.
 */
static void crash_kernel_in_child(char **envp)
{
	const char *type = NULL;
	int status = 0;
	pid_t pid;

	for (; *envp; envp++)
		if (!strncmp(*envp, "portkit_crash=", 14))
			type = *envp + 14;
	if (!type)
		return;

	mkdir("/debug", 0700);
	if (mount("debugfs", "/debug", "debugfs", 0, NULL) < 0)
		printf("portkit-init: cannot mount debugfs (errno %d)\n", errno);
	printf("portkit-init: crashing the kernel on purpose: %s\n", type);
	pid = fork();
	if (pid == 0) {
		int fd = open("/debug/provoke-crash/DIRECT", O_WRONLY);

		if (fd < 0 || write(fd, type, strlen(type)) < 0)
			printf("portkit-init: LKDTM refused %s (errno %d)\n", type, errno);
		exit(0);
	}
	waitpid(pid, &status, 0);
	printf("portkit-init: crash child ended with status 0x%x\n", status);
}

/*
 * With portkit_nolibc_test=1, run the kernel tree's nolibc test suite
 * (/bin/nolibc-test); the host reads its [OK]/[FAIL] lines.
 */
static void run_nolibc_test(char **envp)
{
	char *const argv[] = { "/bin/nolibc-test", NULL };
	int status = 0;
	pid_t pid;

	if (!has_switch(envp, "portkit_nolibc_test=1"))
		return;
	pid = fork();
	if (pid == 0) {
		execve(argv[0], argv, envp);
		exit(127);
	}
	waitpid(pid, &status, 0);
	printf("portkit-init: nolibc-test exited with status %d\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
}

/*
 * With portkit_run=A,B,... run /bin/A, /bin/B, ... one after the other,
 * each in a child with init's environment; exit status 0 is a pass.
 */
static void run_test_programs(char **envp)
{
	char path[64], *name, *end, **env;
	const char *list = NULL;
	int status;
	pid_t pid;

	for (env = envp; *env; env++)
		if (!strncmp(*env, "portkit_run=", 12))
			list = *env + 12;
	if (!list)
		return;
	for (name = (char *)list; *name; name = end) {
		char *argv[2] = { path, NULL };
		size_t len;

		end = strchr(name, ',');
		len = end ? (size_t)(end - name) : strlen(name);
		end = end ? end + 1 : name + len;
		if (!len || len > sizeof(path) - 6) {
			check("run-program", 0, "bad program name in portkit_run");
			continue;
		}
		memcpy(path, "/bin/", 5);
		memcpy(path + 5, name, len);
		path[5 + len] = 0;
		status = 0;
		pid = fork();
		if (pid == 0) {
			execve(path, argv, envp);
			printf("portkit-run: cannot execute %s (errno %d)\n", path, errno);
			exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid) {
			check(path + 5, 0, "fork/wait");
			continue;
		}
		if (WIFEXITED(status))
			printf("portkit-run: %s exited with status %d\n", path + 5,
			       WEXITSTATUS(status));
		else
			printf("portkit-run: %s killed by signal %d\n", path + 5,
			       WTERMSIG(status));
		check(path + 5, WIFEXITED(status) && WEXITSTATUS(status) == 0,
		      "test program failed");
	}
}

/* With portkit_echo=1 on the command line, echo one console line back. */
static void echo_console_line(char **envp)
{
	char line[128];
	int n;

	if (!has_switch(envp, "portkit_echo=1"))
		return;
	printf("portkit-init: type a line\n");
	n = read(0, line, sizeof(line) - 1);
	if (n < 0)
		n = 0;
	line[n] = 0;
	if (n && line[n - 1] == '\n')
		line[n - 1] = 0;
	printf("portkit-init: echo [%s]\n", line);
	check("console-read", n > 0, "read from the console");
}

/* ------------------------------------------------------------ root= */

#define NEWROOT "/newroot"

static char cmdline[1024];

/* The value of kernel parameter NAME= in /proc/cmdline, or NULL. */
static const char *cmdline_value(const char *name, char *out, size_t size)
{
	size_t len = strlen(name);
	const char *p = cmdline;

	while (*p) {
		const char *end;

		while (*p == ' ' || *p == '\n')
			p++;
		end = p;
		while (*end && *end != ' ' && *end != '\n')
			end++;
		if ((size_t)(end - p) > len && !strncmp(p, name, len) && p[len] == '=') {
			size_t n = end - p - len - 1;

			if (n >= size)
				n = size - 1;
			memcpy(out, p + len + 1, n);
			out[n] = 0;
			return out;
		}
		p = end;
	}
	return NULL;
}

/* Which of the words A and B comes last in /proc/cmdline (NULL: neither). */
static const char *cmdline_last_of(const char *a, const char *b)
{
	const char *p = cmdline, *found = NULL;

	while (*p) {
		const char *end;

		while (*p == ' ' || *p == '\n')
			p++;
		end = p;
		while (*end && *end != ' ' && *end != '\n')
			end++;
		if ((size_t)(end - p) == strlen(a) && !strncmp(p, a, end - p))
			found = a;
		if ((size_t)(end - p) == strlen(b) && !strncmp(p, b, end - p))
			found = b;
		p = end;
	}
	return found;
}

static int read_cmdline(void)
{
	int fd = open("/proc/cmdline", O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	if (n < 0)
		return -1;
	cmdline[n] = 0;
	return 0;
}

static int is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && (st.st_mode & 0111);
}

/* Try each file system type of LIST (comma separated) in turn. */
static int mount_any(const char *dev, const char *list, unsigned long flags,
		     const char *data, char *used, size_t size)
{
	char type[32];
	int err = ENODEV;

	while (*list) {
		const char *end = strchr(list, ',');
		size_t n = end ? (size_t)(end - list) : strlen(list);

		if (n && n < sizeof(type)) {
			memcpy(type, list, n);
			type[n] = 0;
			if (mount(dev, NEWROOT, type, flags, data) == 0) {
				strncpy(used, type, size - 1);
				used[size - 1] = 0;
				return 0;
			}
			/* Keep the most telling error: not "wrong type". */
			if (errno != EINVAL || err == ENODEV)
				err = errno;
		}
		list += n;
		if (*list == ',')
			list++;
	}
	errno = err;
	return -1;
}

/* Block file systems the kernel has (lines of /proc/filesystems without "nodev"). */
static void block_filesystems(char *out, size_t size)
{
	char buf[1024], *line, *next;
	int fd = open("/proc/filesystems", O_RDONLY), n;

	out[0] = 0;
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	for (line = buf; *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		else
			next = line + strlen(line);
		if (strncmp(line, "nodev", 5)) {
			while (*line == '\t' || *line == ' ')
				line++;
			if (*line && strlen(out) + strlen(line) + 2 < size) {
				if (*out)
					strncat(out, ",", 1);
				strncat(out, line, strlen(line));
			}
		}
	}
}

static const char *errno_text(int e)
{
	switch (e) {
	case ENOENT: return "no such device";
	case ENXIO: return "no such device or address";
	case ENODEV: return "no such file system type";
	case EINVAL: return "not a file system of that type (or bad options)";
	case EIO: return "I/O error";
	case EACCES: return "permission denied (read-only device?)";
	case EROFS: return "read-only device";
	case EBUSY: return "device busy";
	case ENOTBLK: return "not a block device";
	case EUCLEAN: return "file system needs repair";
	default: return "error";
	}
}

/*
 * With root=DEV on the command line, make DEV the root and execute its
 * init. Returns only when staying on the initramfs.
 */
static void switch_root(char **envp)
{
	char dev[128], types[256], flags_text[256], init[128], fstype[32];
	char *env[64], marker[160], *argv[2];
	const char *rw, *candidates[2], *chosen;
	unsigned long flags;
	unsigned int i, n = 0;
	struct stat st;

	if (read_cmdline() < 0 || !cmdline_value("root", dev, sizeof(dev)))
		return;
	for (i = 0; envp[i]; i++)
		if (!strncmp(envp[i], "portkit_root=", 13))
			return;		/* we are the init of the new root */

	if (!cmdline_value("rootfstype", types, sizeof(types)))
		block_filesystems(types, sizeof(types));
	if (!cmdline_value("rootflags", flags_text, sizeof(flags_text)))
		flags_text[0] = 0;
	rw = cmdline_last_of("ro", "rw");
	flags = rw && !strcmp(rw, "rw") ? 0 : MS_RDONLY;

	mkdir(NEWROOT, 0755);
	if (stat(dev, &st) < 0) {
		printf("portkit-init: cannot use root %s: %s (errno %d); staying on the initramfs\n",
		       dev, errno_text(errno), errno);
		return;
	}
	if (!S_ISBLK(st.st_mode)) {
		printf("portkit-init: cannot use root %s: not a block device; staying on the initramfs\n",
		       dev);
		return;
	}
	if (mount_any(dev, types, flags, flags_text[0] ? flags_text : NULL,
		      fstype, sizeof(fstype)) < 0) {
		int e = errno;

		if (!(flags & MS_RDONLY) && (e == EACCES || e == EROFS) &&
		    mount_any(dev, types, flags | MS_RDONLY,
			      flags_text[0] ? flags_text : NULL, fstype, sizeof(fstype)) == 0) {
			printf("portkit-init: %s is read-only: mounted read-only\n", dev);
			flags |= MS_RDONLY;
		} else {
			printf("portkit-init: cannot use root %s: mount (%s) failed: %s (errno %d); "
			       "staying on the initramfs\n", dev, types, errno_text(e), e);
			return;
		}
	}

	n = 0;
	if (cmdline_value("init", init, sizeof(init)))
		candidates[n++] = init;
	else {
		candidates[n++] = "/sbin/init";
		candidates[n++] = "/init";
	}
	for (i = 0; i < n; i++) {
		char path[sizeof(NEWROOT) + 128];

		strcpy(path, NEWROOT);
		strncat(path, candidates[i], sizeof(path) - sizeof(NEWROOT) - 1);
		if (is_executable(path))
			break;
	}
	if (i == n) {
		printf("portkit-init: cannot use root %s: no init program (%s%s) in it; "
		       "staying on the initramfs\n", dev, candidates[0], n > 1 ? ", /init" : "");
		umount2(NEWROOT, 0);
		return;
	}
	chosen = candidates[i];

	/* /dev and /proc go along where the new root has room for them. */
	if (stat(NEWROOT "/dev", &st) == 0 && S_ISDIR(st.st_mode))
		mount("/dev", NEWROOT "/dev", NULL, MS_MOVE, NULL);
	if (stat(NEWROOT "/proc", &st) == 0 && S_ISDIR(st.st_mode))
		mount("/proc", NEWROOT "/proc", NULL, MS_MOVE, NULL);
	if (chdir(NEWROOT) < 0 || mount(".", "/", NULL, MS_MOVE, NULL) < 0 ||
	    chroot(".") < 0 || chdir("/") < 0) {
		printf("portkit-init: cannot switch to root %s (errno %d)\n", dev, errno);
		return;		/* still somewhere usable: the checks say the rest */
	}

	for (i = 0; envp[i] && i < sizeof(env) / sizeof(env[0]) - 2; i++)
		env[i] = envp[i];
	strcpy(marker, "portkit_root=");
	strncat(marker, dev, sizeof(marker) - 14);
	env[i++] = marker;
	env[i] = NULL;
	printf("portkit-init: root %s (%s, %s): executing %s\n", dev, fstype,
	       flags & MS_RDONLY ? "ro" : "rw", chosen);
	argv[0] = (char *)chosen;
	argv[1] = NULL;
	execve(chosen, argv, env);
	printf("portkit-init: cannot execute %s on root %s (errno %d)\n", chosen, dev, errno);
}

/* On a disk root: write everything out and leave the file system clean. */
static void quiesce_root(char **envp)
{
	sync();
	for (; *envp; envp++)
		if (!strncmp(*envp, "portkit_root=", 13)) {
			if (mount(NULL, "/", NULL, MS_REMOUNT | MS_RDONLY, NULL) < 0)
				printf("portkit-init: cannot remount / read-only (errno %d)\n",
				       errno);
			return;
		}
}

static void power_off(void)
{
	char status[8];

	if (!failed) {
		reboot(LINUX_REBOOT_CMD_POWER_OFF);
	} else {
		/* The simulation helper turns the restart command into the exit status. */
		utoa_r(failed, status);
		sys_reboot(LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
			   LINUX_REBOOT_CMD_RESTART2, status);
	}
}

/* portkit_shell=1: hand the machine to BusyBox init (/etc/inittab). */
static void start_shell(char **envp)
{
	char *argv[] = { "init", NULL };

	if (!has_switch(envp, "portkit_shell=1"))
		return;
	/* /dev and /proc are mounted (and moved along to a disk root) */
	mkdir("/sys", 0755);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	execve("/sbin/init", argv, envp);
	printf("portkit-init: cannot run /sbin/init (errno %d): running the checks\n", errno);
}

int main(int argc, char **argv, char **envp)
{
	struct utsname uts;
	struct sysinfo si;
	unsigned int i;

	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return getpid() != 1 ? 7 : 1;

	mkdir("/proc", 0755);
	mkdir("/tmp", 01777);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	/* root= first: with a disk root, its /init starts the shell there */
	if (getpid() == 1)
		switch_root(envp);
	start_shell(envp);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);

	crash_kernel_in_child(envp);

	if (uname(&uts) < 0 || sysinfo(&si) < 0) {
		printf("portkit-init: uname/sysinfo failed (errno %d)\n", errno);
		failed++;
	} else {
		printf("portkit-init: %s %s %s, %u KiB RAM\n", uts.sysname,
		       uts.release, uts.machine,
		       (unsigned int)((unsigned long long)si.totalram * si.mem_unit / 1024));
	}

	check("fork-wait", check_fork_wait(), "child status");
	check("pipe", check_pipe(), "data through pipe");
	check("mmap-anon", check_mmap(), "anonymous memory");
	check("tmpfs-file", check_tmpfs_file(), "file round trip");
	check("signal-handler", check_signal_handler(), "SIGUSR1 handler");
	check("efault", check_efault(), "bad user pointer in a syscall");
	check("exec", check_exec(), "execve of /init");
	check("vdso-clock", check_vdso_clock(envp), "vDSO clock_gettime");
	for (i = 0; i < sizeof(user_faults) / sizeof(user_faults[0]); i++)
		check(user_faults[i].name,
		      dies_of(user_faults[i].fault, user_faults[i].signal),
		      "expected signal");
	echo_console_line(envp);
	run_nolibc_test(envp);
	run_test_programs(envp);

	printf("portkit-init: %d passed, %d failed\n", passed, failed);
	quiesce_root(envp);
	power_off();
	return 1;
}
