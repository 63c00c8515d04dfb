// SPDX-License-Identifier: GPL-2.0
/*
 * Stress for a software-managed TLB (the mmu-r4k layer): more pages than
 * TLB entries, stale entries after mprotect() and munmap() (the access
 * must fault in this same process, where the old entry was loaded),
 * write-protect faults after fork (copy on write, both sides), SIGBUS
 * past the end of a file, and ASID roll-over under a fork storm with a
 * long-lived process whose private pages must survive every generation.
 *
 * One line per check: "tlb: <check>: <values>: ok|FAIL"; the ASID
 * statistics come from /debug/r4k_tlb (debugfs, mounted here) and a
 * TLB-miss cost figure ("tlb: miss-cost: ...") is printed for the report.
 * Exit status 0 when every check passed.
 */
#include "libc.h"

#define PAGE		4096UL
#define MANY_PAGES	512		/* 2 MiB: 16x the reach of a 16-entry TLB */

static int failures;

static void result(const char *what, int ok)
{
	printf("tlb: %s: %s\n", what, ok ? "ok" : "FAIL");
	failures += !ok;
}

static int sys_mprotect(void *addr, unsigned long len, int prot)
{
	return my_syscall3(__NR_mprotect, addr, len, prot);
}

static unsigned char *map_anon(unsigned long pages)
{
	void *p = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static unsigned int pattern(unsigned int page, unsigned int word, unsigned int seed)
{
	return (page * 0x9e3779b1u) ^ (word * 0x85ebca6bu) ^ seed;
}

/* Fill one word at each end and in the middle of every page. */
static void fill(unsigned char *buf, unsigned int pages, unsigned int seed)
{
	unsigned int i;

	for (i = 0; i < pages; i++) {
		unsigned int *w = (unsigned int *)(buf + i * PAGE);

		w[0] = pattern(i, 0, seed);
		w[511] = pattern(i, 511, seed);
		w[1023] = pattern(i, 1023, seed);
	}
}

static unsigned int check_page(unsigned char *buf, unsigned int i, unsigned int seed)
{
	unsigned int *w = (unsigned int *)(buf + i * PAGE);

	return (w[0] != pattern(i, 0, seed)) + (w[511] != pattern(i, 511, seed)) +
	       (w[1023] != pattern(i, 1023, seed));
}

/* Mismatching words, visiting the pages in order, backwards and by a stride. */
static unsigned int verify(unsigned char *buf, unsigned int pages, unsigned int seed)
{
	unsigned int i, bad = 0;

	for (i = 0; i < pages; i++)
		bad += check_page(buf, i, seed);
	for (i = pages; i-- > 0; )
		bad += check_page(buf, i, seed);
	for (i = 0; i < pages; i++)
		bad += check_page(buf, (i * 37) % pages, seed);
	return bad;
}

static void many_pages(void)
{
	unsigned char *buf = map_anon(MANY_PAGES);
	unsigned int bad;

	if (!buf) {
		result("many-pages: mmap", 0);
		return;
	}
	fill(buf, MANY_PAGES, 0x1234);
	bad = verify(buf, MANY_PAGES, 0x1234);
	printf("tlb: many-pages: %u pages, %u bad words\n", MANY_PAGES, bad);
	result("many-pages", bad == 0);
	munmap(buf, MANY_PAGES * PAGE);
}

/*
 * In-process faults: the handler records the signal and repairs the
 * page (mprotect back, or a fresh mapping), and the access is retried.
 */
static volatile int got_sig, got_code, nfaults;
static volatile unsigned long got_addr;
/* Shared with the handler: volatile, or the compiler drops the stores. */
static volatile int repair_prot;
static volatile int repair_remap;

static void repair(int sig, siginfo_t *si, void *uc)
{
	unsigned long page = (unsigned long)si->si_addr & ~(PAGE - 1);

	got_sig = sig;
	got_code = si->si_code;
	got_addr = (unsigned long)si->si_addr;
	nfaults++;
	if (repair_remap)
		mmap((void *)page, PAGE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	else
		sys_mprotect((void *)page, PAGE, repair_prot);
}

static void expect_fault(const char *what, int sig, int code, unsigned long addr)
{
	int ok = got_sig == sig && got_code == code && got_addr == addr;

	printf("tlb: %s: sig %d code %d addr %lx (want %d %d %lx)\n",
	       what, got_sig, got_code, got_addr, sig, code, addr);
	result(what, ok);
	got_sig = got_code = 0;
	got_addr = 0;
}

static void invalidations(void)
{
	volatile unsigned int *p = (volatile unsigned int *)map_anon(1);
	unsigned char *region;
	unsigned int i, v;

	sigaction_info(SIGSEGV, repair, 0);
	repair_prot = PROT_READ | PROT_WRITE;
	repair_remap = 0;

	/* Written (D set in the TLB), made read-only: the next store faults. */
	p[3] = 1;
	sys_mprotect((void *)p, PAGE, PROT_READ);
	p[3] = 2;
	expect_fault("mprotect-ro store", SIGSEGV, SEGV_ACCERR, (unsigned long)&p[3]);
	result("mprotect-ro store lands after repair", p[3] == 2);

	/* Read (V set in the TLB), made PROT_NONE: the next load faults. */
	v = p[5];
	sys_mprotect((void *)p, PAGE, PROT_NONE);
	v = p[5];
	expect_fault("mprotect-none load", SIGSEGV, SEGV_ACCERR, (unsigned long)&p[5]);
	result("mprotect-none load value", v == 0 && p[3] == 2);

	/* Unmapped after use: the next load faults and sees a fresh page. */
	repair_remap = 1;
	munmap((void *)p, PAGE);
	v = p[3];
	expect_fault("munmap load", SIGSEGV, SEGV_MAPERR, (unsigned long)&p[3]);
	result("munmap then fresh page reads 0 (no stale frame)", v == 0);
	munmap((void *)p, PAGE);
	repair_remap = 0;

	/* Ranges: larger than the TLB (flush by ASID) and smaller (probes). */
	for (i = 0; i < 2; i++) {
		unsigned int pages = i ? 4 : 96, j, bad = 0;
		const char *what = i ? "mprotect-small-range" : "mprotect-large-range";

		region = map_anon(pages);
		for (j = 0; j < pages; j++)
			region[j * PAGE] = 1;
		/* Reload some entries: the last pages are in the TLB for sure. */
		for (j = pages >= 8 ? pages - 8 : 0; j < pages; j++)
			region[j * PAGE] = 2;
		sys_mprotect(region, pages * PAGE, PROT_READ);
		nfaults = 0;
		for (j = 0; j < pages; j++)
			region[j * PAGE + 8] = 3;
		for (j = 0; j < pages; j++)
			bad += region[j * PAGE + 8] != 3;
		printf("tlb: %s: %u pages, %d write faults, %u bad\n", what,
		       pages, nfaults, bad);
		result(what, nfaults == (int)pages && bad == 0);
		munmap(region, pages * PAGE);
	}
	sigaction_simple(SIGSEGV, SIG_DFL, 0);
}

/*
 * Copy on write, both ways: the parent's entries were writable before the
 * fork, so its first store after it must fault too (the fork flushed them).
 */
static void cow_after_fork(void)
{
	unsigned int pages = 8, bad, child_ok;
	unsigned char *buf = map_anon(pages);
	int go[2], status = 0;
	char c;
	pid_t pid;

	fill(buf, pages, 0xaaaa);
	pipe(go);
	pid = fork();
	if (pid == 0) {
		read(go[0], &c, 1);
		/* The parent has rewritten its copy: this one must not change. */
		bad = verify(buf, pages, 0xaaaa);
		fill(buf, pages, 0xcccc);
		bad += verify(buf, pages, 0xcccc);
		exit(bad ? 1 : 0);
	}
	fill(buf, pages, 0xbbbb);
	write(go[1], "x", 1);
	waitpid(pid, &status, 0);
	child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	bad = verify(buf, pages, 0xbbbb);
	printf("tlb: cow: child status %x, parent %u bad words\n", status, bad);
	result("cow: child keeps the pre-fork data, parent its own", child_ok && !bad);
	close(go[0]);
	close(go[1]);
	munmap(buf, pages * PAGE);
}

static void sigbus_child(void)
{
	int fd = open("/tmp/tlb-sigbus", O_RDWR | O_CREAT | O_TRUNC, 0600);
	volatile char *m;

	write(fd, "0123456789", 10);
	m = mmap(NULL, 2 * PAGE, PROT_READ, MAP_SHARED, fd, 0);
	(void)m[PAGE + 16];
}

static void sigbus(void)
{
	struct fault_report r;
	int ret = catch_fault(sigbus_child, &r);

	printf("tlb: sigbus: ret %d sig %d code %d addr-offset %lx\n", ret, r.signo,
	       r.code, r.addr & (PAGE - 1));
	result("sigbus past end of file", ret == 1 && r.signo == SIGBUS &&
	       r.code == BUS_ADRERR && (r.addr & (PAGE - 1)) == 16);
}

/* A counter from /debug/r4k_tlb, or -1. */
static long tlb_stat(const char *name)
{
	static char text[512];
	int fd = open("/debug/r4k_tlb", O_RDONLY);
	long n = -1;
	char *s;
	int len;

	if (fd < 0)
		return -1;
	len = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	text[len] = 0;
	for (s = text; *s; s++) {
		if (!strncmp(s, name, strlen(name)) && s[strlen(name)] == ' ' &&
		    (s == text || s[-1] == '\n')) {
			n = atol(s + strlen(name) + 1);
			break;
		}
	}
	return n;
}

/*
 * ASID roll-over: a long-lived child keeps its own data at the same
 * virtual addresses as the parent; between its checks, short-lived
 * children (each a new mm, each a new ASID) write their own data there.
 * A stale entry surviving a generation change would show another
 * process's page.
 */
static void asid_rollover(void)
{
	unsigned int pages = 6, rounds = 40, per_round = 12, r, k;
	unsigned char *buf = map_anon(pages);
	long roll0 = tlb_stat("asid_rollovers"), roll1;
	int req[2], rep[2], status, bad_children = 0, bad_rounds = 0;
	char c;
	pid_t keeper, pid;

	fill(buf, pages, 0x1111);
	pipe(req);
	pipe(rep);
	keeper = fork();
	if (keeper == 0) {
		fill(buf, pages, 0x2222);
		while (read(req[0], &c, 1) == 1 && c == '?') {
			c = verify(buf, pages, 0x2222) ? 'n' : 'y';
			write(rep[1], &c, 1);
		}
		exit(0);
	}
	for (r = 0; r < rounds; r++) {
		for (k = 0; k < per_round; k++) {
			pid = fork();
			if (pid == 0) {
				unsigned int seed = 0x3000 + r * per_round + k;

				if (verify(buf, pages, 0x1111))
					exit(1);
				fill(buf, pages, seed);
				exit(verify(buf, pages, seed) ? 1 : 0);
			}
			status = 0;
			waitpid(pid, &status, 0);
			bad_children += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
		write(req[1], "?", 1);
		if (read(rep[0], &c, 1) != 1 || c != 'y')
			bad_rounds++;
		if (verify(buf, pages, 0x1111))
			bad_rounds++;
	}
	write(req[1], "q", 1);
	waitpid(keeper, &status, 0);
	roll1 = tlb_stat("asid_rollovers");
	printf("tlb: asid: %u forks, rollovers %ld -> %ld, generation %ld, %ld ASIDs per generation\n",
	       rounds * per_round, roll0, roll1, tlb_stat("asid_generation"),
	       tlb_stat("asids_per_generation"));
	printf("tlb: asid: bad children %d, bad rounds %d\n", bad_children, bad_rounds);
	result("asid roll-over keeps every process's pages its own",
	       !bad_children && !bad_rounds);
	close(req[0]);
	close(req[1]);
	close(rep[0]);
	close(rep[1]);
	munmap(buf, pages * PAGE);
}

static inline unsigned int cycles(void)
{
	unsigned int c;

	__asm__ volatile(".set push\n\t.set mips32r2\n\t"
			 "rdhwr %0, $2\n\t.set pop" : "=r"(c) : : "memory");
	return c;
}

/*
 * TLB-miss cost: loads cycling over 1024 resident pages (512 pairs: 32x
 * the 16-entry TLB, and 4x the 128 entries QEMU keeps, since it holds on
 * to entries tlbwr replaced until the next ASID change) against loads
 * that stay on 2 pages, in CP0 Count ticks (rdhwr $2).
 */
static void miss_cost(void)
{
	unsigned int pages = 1024, n = 20000, i, t, miss = ~0u, hit = ~0u, round;
	volatile unsigned char *buf = map_anon(pages);
	unsigned int sum = 0;

	for (i = 0; i < pages; i++)
		buf[i * PAGE] = i;
	for (round = 0; round < 3; round++) {
		t = cycles();
		for (i = 0; i < n; i++)
			sum += buf[((i * 409) % pages) * PAGE];
		t = cycles() - t;
		miss = t < miss ? t : miss;
		t = cycles();
		for (i = 0; i < n; i++)
			sum += buf[((i * 37) % 2) * PAGE];
		t = cycles() - t;
		hit = t < hit ? t : hit;
	}
	printf("tlb: miss-cost: %u ticks per 1000 loads over %u pages, %u on 2 pages (sum %u)\n",
	       miss / (n / 1000), pages, hit / (n / 1000), sum & 1);
	munmap((void *)buf, pages * PAGE);
}

int main(void)
{
	/* /init mounts debugfs only for its crash tests. */
	mkdir("/debug", 0700);
	mount("debugfs", "/debug", "debugfs", 0, NULL);
	printf("tlb: start (%ld entries, %ld ASIDs per generation)\n",
	       tlb_stat("entries"), tlb_stat("asids_per_generation"));
	catch_fault_init();
	many_pages();
	invalidations();
	cow_after_fork();
	sigbus();
	asid_rollover();
	miss_cost();
	printf("tlb: %d failures\n", failures);
	return failures ? 1 : 0;
}
