// SPDX-License-Identifier: GPL-2.0
/*
 * Debugger access to a /dev/mem mapping (HAVE_IOREMAP_PROT): such a
 * mapping is VM_IO | VM_PFNMAP, so /proc/<pid>/mem and ptrace cannot pin
 * its pages and go through generic_access_phys(), which ioremaps the
 * physical range for the kernel. Without ioremap_prot() they fail with
 * EIO.
 *
 * A page of RAM in use (an anonymous page of ours): the program fills it
 * with a pattern, finds its physical address in /proc/self/pagemap, and
 * forks a child that maps that physical page from /dev/mem and checks it
 * sees the pattern. The parent then reads the child's mapping through
 * /proc/<child>/mem and PTRACE_PEEKDATA, writes one word through
 * /proc/<child>/mem and one with PTRACE_POKEDATA. Kernels up to 6.1 let
 * these through (both writes then show in the parent's page, the same
 * physical page); later ones refuse a page of online RAM that is not
 * reserved (EIO, nothing written). Either way every access must agree:
 * "ram-access" names which rule the kernel applied.
 *
 * A reserved page, which every kernel lets through: the vDSO's first page,
 * part of the kernel image. The child maps its physical page read-only
 * from /dev/mem; the parent reads that mapping through /proc/<child>/mem
 * and PTRACE_PEEKDATA and compares with its own vDSO (the same page), and
 * a write of the same word back must be refused (a read-only mapping).
 *
 * Prints "devmem-access: <check>: <detail>: ok|FAIL".
 */
#define CHECK_PROG "devmem-access"
#include "checks.h"

#include <linux/ptrace.h>

#include "vdso-lookup.h"

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

/* ram_page()'s four accesses and what the child saw. */
struct ram_result {
	long read, write, peek, poke;
	int same, status;
	unsigned long word1, word2, peeked;
};

static void ram_page_accesses(volatile unsigned long *page, struct ram_result *res)
{
	int to_parent[2], to_child[2], fd, i;
	unsigned long *map, peek, buf[WORDS];
	unsigned long long pfn;
	char path[32] = "/proc/";
	pid_t pid;
	long r;

	pfn = pfn_of((void *)page);
	report("pagemap-pfn", pfn != 0, "pfn %lx", (long)pfn, 0);
	if (!pfn || pipe(to_parent) < 0 || pipe(to_child) < 0)
		exit(failures + 1);
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
		waitpid(pid, &res->status, 0);
		exit(failures);
	}
	report("child-maps-dev-mem", 1, "at %lx pfn %lx", (long)map, (long)pfn);

	memcpy(path + 6 + utoa_r(pid, path + 6), "/mem", 5);
	fd = open(path, O_RDWR, 0);
	memset(buf, 0, sizeof(buf));
	res->read = fd < 0 ? -1 : mem_rw(__NR_pread64, fd, buf, sizeof(buf), (unsigned long)map);
	for (res->same = 0, i = 0; i < (int)WORDS; i++)
		res->same += buf[i] == PATTERN(i);

	peek = 0xfeedf00d;
	res->write = fd < 0 ? -1 : mem_rw(__NR_pwrite64, fd, &peek, sizeof(peek),
					  (unsigned long)&map[1]);
	res->word1 = page[1];
	close(fd);

	/* ptrace's peek and poke take the same path, as a debugger does. */
	r = ptrace(PTRACE_ATTACH, pid, 0, 0);
	if (r == 0)
		waitpid(pid, &res->status, 0);
	res->peeked = 0;
	res->peek = r ? r : ptrace(PTRACE_PEEKDATA, pid, (long)&map[5], (long)&res->peeked);
	res->poke = r ? r : ptrace(PTRACE_POKEDATA, pid, (long)&map[2], 0xc0ffee00);
	res->word2 = page[2];
	ptrace(PTRACE_DETACH, pid, 0, 0);

	write(to_child[1], "g", 1);
	waitpid(pid, &res->status, 0);
}

static void ram_page(void)
{
	volatile unsigned long *page;
	struct ram_result res;
	int i, let;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED) {
		printf("devmem-access: mmap: FAIL\n");
		exit(1);
	}
	for (i = 0; i < (int)WORDS; i++)
		page[i] = PATTERN(i);
	ram_page_accesses(page, &res);

	/* The first access says which rule; the others must follow it. */
	let = res.read == sizeof(unsigned long) * WORDS;
	report("ram-access", let || res.read == -EIO, let ? "ioremapped %ld" : "refused %ld",
	       res.read, 0);
	if (let) {
		report("proc-mem-read", res.same == (int)WORDS, "read %ld, %ld words match",
		       res.read, res.same);
		report("proc-mem-write", res.write == sizeof(long) && res.word1 == 0xfeedf00d,
		       "wrote %ld, word now %lx", res.write, res.word1);
		report("ptrace-peekdata", res.peek == 0 && res.peeked == PATTERN(5),
		       "ret %ld, word %lx", res.peek, res.peeked);
		report("ptrace-pokedata", res.poke == 0 && res.word2 == 0xc0ffee00,
		       "ret %ld, word now %lx", res.poke, res.word2);
		report("child-saw-writes", WIFEXITED(res.status) && WEXITSTATUS(res.status) == 0,
		       "status %lx", res.status, 0);
	} else {
		report("proc-mem-read", res.read == -EIO, "read %ld, %ld words match",
		       res.read, res.same);
		report("proc-mem-write", res.write == -EIO && res.word1 == PATTERN(1),
		       "wrote %ld, word now %lx", res.write, res.word1);
		report("ptrace-peekdata", res.peek == -EIO, "ret %ld, word %lx",
		       res.peek, res.peeked);
		report("ptrace-pokedata", res.poke == -EIO && res.word2 == PATTERN(2),
		       "ret %ld, word now %lx", res.poke, res.word2);
		/* The child's page kept the pattern: it exits 4. */
		report("child-saw-writes", WIFEXITED(res.status) && WEXITSTATUS(res.status) == 4,
		       "status %lx", res.status, 0);
	}
}

#define KWORDS	64

static void reserved_page(char **envp)
{
	const unsigned long *vdso = (void *)vl_getauxval(envp, VL_AT_SYSINFO_EHDR);
	unsigned long *map, buf[KWORDS], peek, phys;
	int to_parent[2], to_child[2], fd, i, same, status;
	char path[32] = "/proc/";
	pid_t pid;
	long r;

	/* Its ELF header, read: the page is mapped when pagemap is asked. */
	phys = vdso && vdso[0] ? pfn_of((void *)vdso) * 4096 : 0;
	report("vdso-page", phys != 0, "at %lx phys %lx", (long)vdso, phys);
	if (!phys || pipe(to_parent) < 0 || pipe(to_child) < 0)
		return;
	pid = fork();
	if (pid == 0) {
		char go;

		fd = open("/dev/mem", O_RDONLY | O_SYNC, 0);
		map = fd < 0 ? MAP_FAILED :
		      mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, (off_t)phys);
		if (map == MAP_FAILED)
			map = NULL;
		write(to_parent[1], &map, sizeof(map));
		if (!map)
			exit(2);
		read(to_child[0], &go, 1);
		exit(0);
	}
	if (read(to_parent[0], &map, sizeof(map)) != sizeof(map) || !map) {
		report("reserved-maps-dev-mem", 0, "map %lx errno %ld", 0, errno);
		waitpid(pid, &status, 0);
		return;
	}
	report("reserved-maps-dev-mem", 1, "at %lx phys %lx", (long)map, phys);

	memcpy(path + 6 + utoa_r(pid, path + 6), "/mem", 5);
	fd = open(path, O_RDWR, 0);
	memset(buf, 0, sizeof(buf));
	r = fd < 0 ? -1 : mem_rw(__NR_pread64, fd, buf, sizeof(buf), (unsigned long)map);
	for (same = 0, i = 0; i < KWORDS; i++)
		same += buf[i] == vdso[i];
	report("reserved-proc-mem-read", r == sizeof(buf) && same == KWORDS,
	       "read %ld, %ld words match", r, same);
	/* The same word back: harmless even where a write went through. */
	r = fd < 0 ? -1 : mem_rw(__NR_pwrite64, fd, &buf[0], sizeof(buf[0]),
				 (unsigned long)map);
	report("reserved-write-refused", r == -EIO, "wrote %ld", r, 0);
	close(fd);

	r = ptrace(PTRACE_ATTACH, pid, 0, 0);
	if (r == 0)
		waitpid(pid, &status, 0);
	peek = 0;
	r = r ? r : ptrace(PTRACE_PEEKDATA, pid, (long)&map[7], (long)&peek);
	report("reserved-peekdata", r == 0 && peek == vdso[7], "ret %ld, word %lx", r, peek);
	ptrace(PTRACE_DETACH, pid, 0, 0);

	write(to_child[1], "g", 1);
	waitpid(pid, &status, 0);
}

int main(int argc, char **argv, char **envp)
{
	ram_page();
	reserved_page(envp);
	return failures;
}
