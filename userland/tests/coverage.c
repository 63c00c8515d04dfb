// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel code coverage, as fuzzers and test-coverage reports use it, on a
 * kernel built with KCOV and GCOV_PROFILE_ALL (the coverage variant):
 *
 * - kcov, PC mode: the kernel PCs one read(-1) runs through, named from
 *   /proc/kallsyms ("coverage: kcov-pc <addr> <symbol>" lines), and none
 *   while tracing is disabled;
 * - kcov, comparison mode: lseek(fd, 0, 12345) must record the kernel's
 *   comparison of the bad whence with SEEK_MAX;
 * - gcov: the arc counters of kernel/fork.c (debugfs gcov/.../fork.gcda)
 *   grow with three forks and go to zero with gcov/reset.
 *
 * Prints "coverage: <check>: <detail>: ok|FAIL"; without /debug/kcov it
 * prints "coverage: no kcov" and exits 0.
 */
#define CHECK_PROG "coverage"
#include "checks.h"

#include <linux/kcov.h>

#define COVER_WORDS	(64 * 1024)
#define MAX_PCS		512
#define GCDA_MAGIC	0x67636461
#define GCDA_ARCS	0x01a10000

static unsigned long pcs[MAX_PCS];
static const char *names[MAX_PCS];
static char kallsyms[4 << 20];
static char gcda[256 << 10];
static char fork_gcda[512];

#ifndef DT_DIR
#define DT_DIR		4
#endif

/* Insertion sort: a few hundred PCs. */
static void sort_pcs(long n)
{
	for (long i = 1, j; i < n; i++) {
		unsigned long pc = pcs[i];

		for (j = i; j > 0 && pcs[j - 1] > pc; j--)
			pcs[j] = pcs[j - 1];
		pcs[j] = pc;
	}
}

static unsigned long parse_hex(const char *s, char **end)
{
	unsigned long v = 0;
	int d;

	for (;; s++) {
		d = *s >= '0' && *s <= '9' ? *s - '0' :
		    *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
		if (d < 0)
			break;
		v = v * 16 + d;
	}
	*end = (char *)s;
	return v;
}

/* Name each sorted PC after the last kallsyms symbol at or below it. */
static void name_pcs(int n)
{
	char *line = kallsyms, *next, *name;
	const char *last = "?";
	unsigned long addr;
	int i = 0;

	if (read_file("/proc/kallsyms", kallsyms, sizeof(kallsyms)) <= 0)
		return;
	for (; *line && i < n; line = next) {
		next = strchr(line, '\n');
		next = next ? (*next = 0, next + 1) : line + strlen(line);
		addr = parse_hex(line, &name);
		if (strlen(name) < 4 || (name[1] != 't' && name[1] != 'T'))
			continue;
		while (i < n && pcs[i] < addr)
			names[i++] = last;
		last = name + 3;
		if (strchr(name + 3, '\t'))	/* a module's symbol: "name\t[mod]" */
			*strchr(name + 3, '\t') = 0;
	}
	while (i < n)
		names[i++] = last;
}

static void kcov_checks(int fd)
{
	unsigned long *cover;
	volatile unsigned long long *cmp;
	char c;
	long n, m, i, found = 0, ksys_read = 0;

	if (ioctl(fd, KCOV_INIT_TRACE, (void *)COVER_WORDS) < 0) {
		report("kcov-init", 0, "errno %ld", errno, 0);
		return;
	}
	cover = mmap(NULL, COVER_WORDS * sizeof(long), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (cover == MAP_FAILED) {
		report("kcov-mmap", 0, "errno %ld", errno, 0);
		return;
	}

	/* PC mode: one failing read (the area faulted in before). */
	cover[0] = 0;
	n = ioctl(fd, KCOV_ENABLE, (void *)KCOV_TRACE_PC);
	__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
	read(-1, &c, 1);
	m = __atomic_load_n(&cover[0], __ATOMIC_RELAXED);
	ioctl(fd, KCOV_DISABLE, NULL);
	report("kcov-enable", n == 0, "ret %ld", n, 0);
	report("kcov-pcs", m > 2 && m < COVER_WORDS, "%ld PCs of read(-1)", m, 0);
	if (m > MAX_PCS)
		m = MAX_PCS;
	for (i = 0; i < m; i++)
		pcs[i] = cover[i + 1];
	sort_pcs(m);
	name_pcs(m);
	for (i = 0; i < m; i++) {
		if (i && pcs[i] == pcs[i - 1])
			continue;
		printf("coverage: kcov-pc %lx %s\n", pcs[i], names[i] ? names[i] : "?");
		ksys_read += names[i] && !strcmp(names[i], "ksys_read");
	}
	report("kcov-pcs-in-ksys_read", ksys_read > 0, "%ld distinct PCs", ksys_read, 0);

	/* Disabled: the same call records nothing. */
	__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
	read(-1, &c, 1);
	report("kcov-disabled", cover[0] == 0, "%ld PCs", cover[0], 0);

	/* Comparison mode: records of 4 u64 (type, arg1, arg2, pc). */
	/* Our own task writes the count: no atomics needed, just no caching. */
	cmp = (volatile unsigned long long *)cover;
	n = ioctl(fd, KCOV_ENABLE, (void *)KCOV_TRACE_CMP);
	cmp[0] = 0;
	lseek(fd, 0, 12345);
	m = (long)cmp[0];
	ioctl(fd, KCOV_DISABLE, NULL);
	for (i = 0; i < m && 4 * i + 4 < COVER_WORDS / 2; i++) {
		unsigned long long a = cmp[4 * i + 2], b = cmp[4 * i + 3];

		if ((a == 12345 && (b == 4 || b == 5)) || (b == 12345 && (a == 4 || a == 5)))
			found++;
	}
	report("kcov-cmp-whence", n == 0 && found > 0,
	       "%ld comparisons, %ld of whence 12345 with SEEK_MAX", m, found);
	munmap(cover, COVER_WORDS * sizeof(long));
}

/* The first fork.gcda below dir (the build's absolute path is in between). */
static int find_fork_gcda(char *dir, int depth)
{
	char dents[2048];
	struct linux_dirent64 *d;
	int fd, n, off, len = strlen(dir), found = 0;

	if (depth > 12 || (fd = open(dir, O_RDONLY, 0)) < 0)
		return 0;
	while (!found && (n = getdents64(fd, (void *)dents, sizeof(dents))) > 0) {
		for (off = 0; !found && off < n; off += d->d_reclen) {
			d = (void *)(dents + off);
			if (d->d_name[0] == '.' || len + strlen(d->d_name) + 2 > sizeof(fork_gcda))
				continue;
			strcpy(dir + len, "/");
			strcpy(dir + len + 1, d->d_name);
			if (d->d_type == DT_DIR)
				found = find_fork_gcda(dir, depth + 1);
			else
				found = !strcmp(d->d_name, "fork.gcda") &&
					len > 7 && !strncmp(dir + len - 7, "/kernel", 7);
			if (!found)
				dir[len] = 0;
		}
	}
	close(fd);
	return found;
}

/* The sum of the arc counters of a .gcda file, or -1 if it is not one. */
static long long arcs_sum(const char *path)
{
	long n = read_file(path, gcda, sizeof(gcda)), pos = 16;
	unsigned int *w = (unsigned int *)gcda, tag, len;
	long long sum = 0;

	if (n < 16 || w[0] != GCDA_MAGIC)
		return -1;
	while (pos + 8 <= n) {
		tag = w[pos / 4];
		len = w[pos / 4 + 1];
		pos += 8;
		if (pos + (long)len > n)
			return -1;
		if (tag == GCDA_ARCS)
			for (unsigned int i = 0; i < len; i += 8)
				sum += w[(pos + i) / 4] | (long long)w[(pos + i) / 4 + 1] << 32;
		pos += len;
	}
	return sum;
}

static void gcov_checks(void)
{
	long long before, after, reset;
	int fd, status, i;

	strcpy(fork_gcda, "/debug/gcov");
	if (!find_fork_gcda(fork_gcda, 0)) {
		report("gcov-fork-gcda", 0, "no kernel/fork.gcda under /debug/gcov", 0, 0);
		return;
	}
	before = arcs_sum(fork_gcda);
	for (i = 0; i < 3; i++) {
		if (fork() == 0)
			exit(0);
		wait(&status);
	}
	after = arcs_sum(fork_gcda);
	report("gcov-fork-arcs-grow", before > 0 && after > before,
	       "%ld before, %ld after three forks", (long)before, (long)after);
	fd = open("/debug/gcov/reset", O_WRONLY, 0);
	if (fd >= 0) {
		write(fd, "1", 1);
		close(fd);
	}
	reset = arcs_sum(fork_gcda);
	report("gcov-reset", fd >= 0 && reset >= 0 && reset < before,
	       "%ld after reset, %ld before", (long)reset, (long)before);
}

int main(void)
{
	int fd;

	debugfs_mount();
	fd = open("/debug/kcov", O_RDWR, 0);
	if (fd < 0) {
		printf("coverage: no kcov\n");
		return 0;
	}
	kcov_checks(fd);
	close(fd);
	gcov_checks();
	return failures;
}
