// SPDX-License-Identifier: GPL-2.0
/*
 * High memory from user space, on a machine with more RAM than the
 * kernel's linear map (the host test boots with a small lowmem bank and a
 * bank above 4 GiB):
 *   - meminfo: HighTotal and LowTotal as the kernel counts them;
 *   - fill: FILLERS processes share three quarters of MemFree, more than
 *     LowTotal, each writing a pattern of its own into every word, and
 *     report (through /proc/self/pagemap) how many of their frames are
 *     above 4 GiB; while they all hold their memory, HighFree is low;
 *   - verify: each checks every word once all of them have filled;
 *   - cow: one filler forks, the child checks its parent's pattern and
 *     overwrites every other page, the parent's pages keep their pattern;
 *   - pagecache: a file larger than LowTotal written with a pattern,
 *     fsync'ed, dropped from the page cache and read back from the block
 *     device (pgpgin grows) without a bounce buffer (nr_bounce stays 0);
 *   - pipe: 16 MiB through a pipe, whose buffers are highmem pages;
 *   - release: once everything is freed, HighFree is back.
 * Every check prints "highmem: <check>: <details>: ok|FAIL"; the exit
 * status is the number of failed checks.
 */
#include "libc.h"

#define CHECK_PROG "highmem"
#include "checks.h"
#include "procfs.h"

#define PAGE		4096UL
#define WORDS		(PAGE / sizeof(unsigned int))
#define FILLERS		4
#define FILE_PATH	"/highmem.dat"
#define PIPE_BYTES	(16UL << 20)
#define FOUR_GIB_PFN	(1ULL << (32 - 12))

static unsigned int pattern(unsigned int tag, unsigned long page, unsigned long word)
{
	return tag ^ (unsigned int)(page * 2654435761UL) ^ (unsigned int)(word * 40503UL);
}

static void fill(unsigned int *mem, unsigned long pages, unsigned int tag, unsigned long step)
{
	unsigned long page, word;

	for (page = 0; page < pages; page += step)
		for (word = 0; word < WORDS; word++)
			mem[page * WORDS + word] = pattern(tag, page, word);
}

/* Pages (of every step-th) with a word that is not the pattern. */
static long bad_pages(const unsigned int *mem, unsigned long pages, unsigned int tag,
		      unsigned long first, unsigned long step)
{
	unsigned long page, word;
	long bad = 0;

	for (page = first; page < pages; page += step)
		for (word = 0; word < WORDS; word++)
			if (mem[page * WORDS + word] != pattern(tag, page, word)) {
				bad++;
				break;
			}
	return bad;
}

/* Present pages of [mem, mem + pages) whose frame is above 4 GiB. */
static long frames_above_4g(const void *mem, unsigned long pages)
{
	int fd = open("/proc/self/pagemap", O_RDONLY, 0);
	unsigned long long entry;
	unsigned long page;
	long high = 0;

	if (fd < 0)
		return -1;
	for (page = 0; page < pages; page++) {
		off_t at = (off_t)((unsigned long)mem / PAGE + page) * 8;

		if (lseek(fd, at, SEEK_SET) != at || read(fd, &entry, 8) != 8) {
			high = -1;
			break;
		}
		/* bit 63: present; bits 54..0: the frame number */
		if ((entry >> 63) && (entry & ((1ULL << 55) - 1)) >= FOUR_GIB_PFN)
			high++;
	}
	close(fd);
	return high;
}

/*
 * A filler: map, fill, report frames above 4 GiB on the pipe, wait for
 * the go byte, check every word; filler 0 also forks (copy-on-write).
 * Its exit status says what went wrong (0: nothing).
 */
static int filler(int index, unsigned long pages, int ready_fd, int go_fd)
{
	unsigned int tag = 0x1000000u * (index + 1);
	unsigned int *mem = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long high;
	char go;

	if (mem == MAP_FAILED)
		return 10;
	fill(mem, pages, tag, 1);
	high = frames_above_4g(mem, pages);
	if (write(ready_fd, &high, sizeof(high)) != sizeof(high))
		return 11;
	if (read(go_fd, &go, 1) != 1)
		return 12;
	if (bad_pages(mem, pages, tag, 0, 1))
		return 13;
	if (index == 0) {
		int status;
		pid_t pid = fork();

		if (pid == 0) {
			long bad = bad_pages(mem, pages, tag, 0, 1);

			fill(mem, pages, tag ^ 0xff0000u, 2);
			bad += bad_pages(mem, pages, tag ^ 0xff0000u, 0, 2);
			bad += bad_pages(mem, pages, tag, 1, 2);
			exit(bad ? 1 : 0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			return 14;
		if (WEXITSTATUS(status))
			return 15;
		if (bad_pages(mem, pages, tag, 0, 1))
			return 16;
	}
	return 0;
}

static void fill_and_verify(long high_total)
{
	unsigned long pages = proc_value("/proc/meminfo", "MemFree") / 4 * 3 / 4 / FILLERS;
	int ready[2], go[2], i, status, ok = 1, cow_status = 0;
	long high, high_frames = 0, high_free;
	pid_t pids[FILLERS];

	if (pipe(ready) || pipe(go)) {
		report("fill", 0, "pipe failed, errno %ld, %ld fillers", errno, FILLERS);
		return;
	}
	for (i = 0; i < FILLERS; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			exit(filler(i, pages, ready[1], go[0]));
	}
	for (i = 0; i < FILLERS; i++) {
		if (read(ready[0], &high, sizeof(high)) != sizeof(high) || high < 0)
			ok = 0;
		else
			high_frames += high;
	}
	high_free = proc_value("/proc/meminfo", "HighFree");
	report("fill", ok && pages * FILLERS * 4 > (unsigned long)proc_value("/proc/meminfo",
									  "LowTotal"),
	       "%ld kB filled, HighFree %ld kB while held", pages * FILLERS * 4, high_free);
	report("high-frames", ok && high_frames > 0, "%ld of %ld pages above 4 GiB",
	       high_frames, pages * FILLERS);
	report("high-used", high_free >= 0 && high_free < high_total / 2,
	       "HighFree %ld kB of HighTotal %ld kB", high_free, high_total);
	if (write(go[1], "gggg", FILLERS) != FILLERS)
		ok = 0;
	for (i = 0; i < FILLERS; i++) {
		if (pids[i] < 0 || waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status)) {
			ok = 0;
			continue;
		}
		if (WEXITSTATUS(status) >= 14)
			cow_status = WEXITSTATUS(status);
		else if (WEXITSTATUS(status))
			ok = 0;
		if (WEXITSTATUS(status))
			printf("highmem: filler %d exited %d\n", i, WEXITSTATUS(status));
	}
	report("verify", ok, "%d fillers, %ld pages each", FILLERS, pages);
	report("cow", ok && !cow_status, "filler 0 status %ld after its child, %ld pages each",
	       cow_status, pages);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
}

static void page_cache(void)
{
	unsigned long bytes = (unsigned long)proc_value("/proc/meminfo", "LowTotal") * 1024 * 3 / 2;
	unsigned long chunks = bytes / (64 * PAGE), c;
	long bounce0 = proc_value("/proc/vmstat", "nr_bounce");
	long in0, bad = 0;
	static unsigned int chunk[64 * WORDS];
	int fd = open(FILE_PATH, O_CREAT | O_TRUNC | O_WRONLY, 0600);

	if (fd < 0) {
		report("pagecache", 0, "open failed, errno %ld, %ld kB", errno, bytes / 1024);
		return;
	}
	for (c = 0; c < chunks; c++) {
		fill(chunk, 64, 0x7a000000u ^ (unsigned int)c, 1);
		if (write(fd, chunk, sizeof(chunk)) != sizeof(chunk))
			bad++;
	}
	if (fsync(fd) || close(fd))
		bad++;
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY, 0);
	if (fd < 0 || write(fd, "3\n", 2) != 2)
		bad++;
	close(fd);
	in0 = proc_value("/proc/vmstat", "pgpgin");
	fd = open(FILE_PATH, O_RDONLY, 0);
	for (c = 0; fd >= 0 && c < chunks; c++) {
		if (read(fd, chunk, sizeof(chunk)) != sizeof(chunk) ||
		    bad_pages(chunk, 64, 0x7a000000u ^ (unsigned int)c, 0, 1))
			bad++;
	}
	close(fd);
	in0 = proc_value("/proc/vmstat", "pgpgin") - in0;
	printf("highmem: pagecache: %ld kB read from the disk\n", in0);
	report("pagecache", fd >= 0 && !bad && in0 >= (long)(chunks * sizeof(chunk) / 1024),
	       "%ld kB written and read back, %ld bad chunks", chunks * sizeof(chunk) / 1024, bad);
	report("no-bounce", proc_value("/proc/vmstat", "nr_bounce") == bounce0,
	       "nr_bounce %ld before, %ld after", bounce0, proc_value("/proc/vmstat", "nr_bounce"));
	unlink(FILE_PATH);
}

static void through_pipe(void)
{
	static unsigned int block[16 * WORDS];
	unsigned long blocks = PIPE_BYTES / sizeof(block), b;
	long bad = 0, got;
	int fds[2], status;
	pid_t pid;

	if (pipe(fds)) {
		report("pipe", 0, "pipe failed, errno %ld, %ld MiB", errno, PIPE_BYTES >> 20);
		return;
	}
	pid = fork();
	if (pid == 0) {
		close(fds[0]);
		for (b = 0; b < blocks; b++) {
			fill(block, 16, 0x3c000000u ^ (unsigned int)b, 1);
			if (write(fds[1], block, sizeof(block)) != sizeof(block))
				exit(1);
		}
		exit(0);
	}
	close(fds[1]);
	for (b = 0; b < blocks; b++) {
		size_t have = 0;

		while (have < sizeof(block) &&
		       (got = read(fds[0], (char *)block + have, sizeof(block) - have)) > 0)
			have += got;
		if (have != sizeof(block) || bad_pages(block, 16, 0x3c000000u ^ (unsigned int)b, 0, 1))
			bad++;
	}
	close(fds[0]);
	report("pipe", pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       !WEXITSTATUS(status) && !bad, "%ld MiB, %ld bad blocks", PIPE_BYTES >> 20, bad);
}

int main(void)
{
	long high_total = proc_value("/proc/meminfo", "HighTotal");
	long high_free0 = proc_value("/proc/meminfo", "HighFree"), high_free1;

	report("meminfo", high_total > 0 && high_free0 > high_total / 2,
	       "HighTotal %ld kB, LowTotal %ld kB", high_total,
	       proc_value("/proc/meminfo", "LowTotal"));
	fill_and_verify(high_total);
	page_cache();
	through_pipe();
	high_free1 = proc_value("/proc/meminfo", "HighFree");
	/*
	 * All but the page cache of what ran meanwhile and the pages the CPUs'
	 * free lists hold, which HighFree does not count: far less than the fill.
	 */
	report("release", high_free1 > high_free0 - high_total / 8,
	       "HighFree %ld kB, %ld kB at the start", high_free1, high_free0);
	printf("highmem: %d failed\n", failures);
	return failures;
}
