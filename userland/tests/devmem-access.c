// SPDX-License-Identifier: GPL-2.0
/*
 * Debugger access to a /dev/mem mapping (HAVE_IOREMAP_PROT): such a
 * mapping is VM_IO | VM_PFNMAP, so /proc/<pid>/mem and ptrace cannot pin
 * its pages and go through generic_access_phys(), which ioremaps the
 * physical range for the kernel. Without ioremap_prot() they fail with
 * EIO.
 *
 * The program fills an anonymous page with a pattern, finds its physical
 * address in /proc/self/pagemap, and forks a child that maps that
 * physical page from /dev/mem and checks it sees the pattern. The parent
 * then reads the child's mapping through /proc/<child>/mem and
 * PTRACE_PEEKDATA, writes one word through /proc/<child>/mem and one
 * with PTRACE_POKEDATA, and sees both in its own page (the same physical
 * page). Prints "devmem-access: <check>: <detail>: ok|FAIL".
 */
#define CHECK_PROG "devmem-access"
#include "checks.h"

#include <linux/ptrace.h>

#define WORDS	(4096 / sizeof(unsigned long))
#define PATTERN(i)	(0x5eed0000UL + 0x10001UL * (i))

static long ptrace(long req, long pid, long addr, long data)
{
	return my_syscall4(__NR_ptrace, req, pid, addr, data);
}

/* pread64/pwrite64 at a user address: the offset is unsigned, never negative. */
static long mem_rw(int nr, int fd, void *buf, size_t n, unsigned long addr)
{
	return my_syscall6(nr, fd, buf, n, 0, addr, 0);
}

/* The page frame number of a resident page of ours, or 0. */
static unsigned long long pfn_of(void *addr)
{
	unsigned long long entry = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY, 0);
	long r;

	if (fd < 0)
		return 0;
	r = mem_rw(__NR_pread64, fd, &entry, sizeof(entry),
		   (unsigned long)addr / 4096 * sizeof(entry));
	close(fd);
	if (r != sizeof(entry) || !(entry >> 63))
		return 0;
	return entry & ((1ULL << 55) - 1);
}

int main(void)
{
	volatile unsigned long *page;
	unsigned long *map, peek;
	unsigned long buf[WORDS];
	unsigned long long pfn;
	int to_parent[2], to_child[2], fd, status, i, same;
	char path[32] = "/proc/";
	pid_t pid;
	long r;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		printf("devmem-access: mmap: FAIL\n");
		return 1;
	}
	for (i = 0; i < (int)WORDS; i++)
		page[i] = PATTERN(i);
	pfn = pfn_of((void *)page);
	report("pagemap-pfn", pfn != 0, "pfn %lx", (long)pfn, 0);
	if (!pfn)
		return failures;

	if (pipe(to_parent) < 0 || pipe(to_child) < 0)
		return 1;
	pid = fork();
	if (pid == 0) {
		char go;

		fd = open("/dev/mem", O_RDWR | O_SYNC, 0);
		map = fd < 0 ? MAP_FAILED :
		      mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
			   (off_t)(pfn * 4096));
		if (map == MAP_FAILED)
			map = NULL;
		write(to_parent[1], &map, sizeof(map));
		if (!map)
			exit(2);
		for (i = 0; i < (int)WORDS; i++)
			if (map[i] != PATTERN(i))
				exit(3);
		/* Wait while the parent reads and writes our mapping. */
		read(to_child[0], &go, 1);
		exit(map[1] == 0xfeedf00d && map[2] == 0xc0ffee00 ? 0 : 4);
	}

	if (read(to_parent[0], &map, sizeof(map)) != sizeof(map) || !map) {
		report("child-maps-dev-mem", 0, "map %lx errno %ld", 0, errno);
		waitpid(pid, &status, 0);
		return failures;
	}
	report("child-maps-dev-mem", 1, "at %lx pfn %lx", (long)map, (long)pfn);

	memcpy(path + 6 + utoa_r(pid, path + 6), "/mem", 5);
	fd = open(path, O_RDWR, 0);
	memset(buf, 0, sizeof(buf));
	r = fd < 0 ? -1 : mem_rw(__NR_pread64, fd, buf, sizeof(buf), (unsigned long)map);
	for (same = 0, i = 0; i < (int)WORDS; i++)
		same += buf[i] == PATTERN(i);
	report("proc-mem-read", r == sizeof(buf) && same == (int)WORDS,
	       "read %ld, %ld words match", r, same);

	peek = 0xfeedf00d;
	r = fd < 0 ? -1 : mem_rw(__NR_pwrite64, fd, &peek, sizeof(peek),
				 (unsigned long)&map[1]);
	report("proc-mem-write", r == sizeof(peek) && page[1] == 0xfeedf00d,
	       "wrote %ld, word now %lx", r, page[1]);
	close(fd);

	/* ptrace's peek and poke take the same path, as a debugger does. */
	r = ptrace(PTRACE_ATTACH, pid, 0, 0);
	if (r == 0)
		waitpid(pid, &status, 0);
	peek = 0;
	r = r ? r : ptrace(PTRACE_PEEKDATA, pid, (long)&map[5], (long)&peek);
	report("ptrace-peekdata", r == 0 && peek == PATTERN(5), "ret %ld, word %lx", r, peek);
	r = r ? r : ptrace(PTRACE_POKEDATA, pid, (long)&map[2], 0xc0ffee00);
	report("ptrace-pokedata", r == 0 && page[2] == 0xc0ffee00, "ret %ld, word now %lx",
	       r, page[2]);
	ptrace(PTRACE_DETACH, pid, 0, 0);

	write(to_child[1], "g", 1);
	waitpid(pid, &status, 0);
	report("child-saw-writes", WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "status %lx", status, 0);
	return failures;
}
