// SPDX-License-Identifier: GPL-2.0
/*
 * IRQ time accounting: /proc/stat and /proc/uptime before and after block
 * I/O (the whole of /dev/ioc0 read 4 times, the page cache dropped in
 * between, when a disk is attached) and a timer-heavy loop (many short
 * clock_nanosleeps, each ended by an hrtimer interrupt). Prints both snapshots, each line prefixed
 *   irq-time: before: <line of /proc/stat or "uptime <line>">
 *   irq-time: after: ...
 * and what it did; the host test compares the columns.
 */
#include "libc.h"

#define NAPS		400
#define PASSES		4
#define NAP_NS		1000000

struct kts {
	long long tv_sec;
	long long tv_nsec;
};

static char buf[8192];
static char io[65536];

/* The "cpu" lines of /proc/stat and /proc/uptime, each line prefixed. */
static void snapshot(const char *when)
{
	char *line, *end;

	if (read_file("/proc/stat", buf, sizeof(buf)) < 0) {
		printf("irq-time: cannot read /proc/stat\n");
		exit(1);
	}
	for (line = buf; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			break;
		*end = 0;
		if (!strncmp(line, "cpu", 3))
			printf("irq-time: %s: %s\n", when, line);
	}
	if (read_file("/proc/uptime", buf, sizeof(buf)) < 0) {
		printf("irq-time: cannot read /proc/uptime\n");
		exit(1);
	}
	end = strchr(buf, '\n');
	if (end)
		*end = 0;
	printf("irq-time: %s: uptime %s\n", when, buf);
}

/* Read the whole disk PASSES times, dropping the page cache in between. */
static long block_io(void)
{
	long total = 0;
	int pass, fd, n;

	for (pass = 0; pass < PASSES; pass++) {
		fd = open("/proc/sys/vm/drop_caches", O_WRONLY, 0);
		if (fd >= 0) {
			write(fd, "1", 1);
			close(fd);
		}
		fd = open("/dev/ioc0", O_RDONLY, 0);
		if (fd < 0)
			return -1;
		while ((n = read(fd, io, sizeof(io))) > 0)
			total += n;
		close(fd);
	}
	return total;
}

int main(void)
{
	struct kts nap = { 0, NAP_NS };
	long bytes;
	int i;

	snapshot("before");
	bytes = block_io();
	for (i = 0; i < NAPS; i++)
		my_syscall4(__NR_clock_nanosleep_time64, 1 /* MONOTONIC */, 0, &nap, NULL);
	printf("irq-time: read %ld bytes of /dev/ioc0 in %d passes, %d naps of %d ns\n", bytes,
	       PASSES, NAPS, NAP_NS);
	snapshot("after");
	return 0;
}
