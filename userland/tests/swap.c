// SPDX-License-Identifier: GPL-2.0
/*
 * Swap, end to end: for each swap area named by swap=A[,B] on the command
 * line ("file": a file /swapfile of the root file system made with
 * BusyBox dd, or a block device such as /dev/ioc0p2), BusyBox mkswap and
 * swapon make it the swap, then the program
 *   - maps anonymous memory half as large again as MemTotal and writes
 *     every word of every page with a pattern of its page and word;
 *   - reads every page back (the first pages went to swap while the last
 *     were written, so this brings them back and pushes others out);
 *   - forks: the child checks every 8th page and writes a pattern of its
 *     own over it, and the parent then checks every page again, which
 *     must still hold its own pattern (copy-on-write of swapped pages);
 *   - unmaps all but the first quarter, some of which is still in swap
 *     (VmSwap), and runs BusyBox swapoff, which must read it back in
 *     (pswpin, then VmSwap 0 and the area gone from /proc/swaps); the
 *     quarter then holds its pattern.
 * Every check prints "swap: <area>.<check>: <details>: ok|FAIL" with the
 * swap traffic of /proc/vmstat (pswpout, pswpin); the exit status is the
 * number of failed checks.
 */
#include "libc.h"
#include "procfs.h"
#include "settings.h"


#define PAGE		4096UL
#define WORDS		(PAGE / sizeof(unsigned int))
#define SWAPFILE	"/swapfile"
#define TAG_PARENT	0x5a000000u
#define TAG_CHILD	0xc3000000u
#define CHILD_STRIDE	8

static char buf[8192];
static char *nul_env[] = { NULL };
static int failures;

/* "swap: <area>.<what>: <details>: ok|FAIL", details a format of two longs. */
static void check(const char *area, const char *what, int ok, const char *fmt,
		  long a, long b)
{
	printf("swap: %s.%s: ", area, what);
	printf(fmt, a, b);
	printf(": %s\n", ok ? "ok" : "FAIL");
	failures += !ok;
}

/* Run a BusyBox applet, wait for it: its exit status, or -1. */
static int applet(const char *a0, const char *a1, const char *a2,
		  const char *a3, const char *a4)
{
	char *argv[] = { (char *)a0, (char *)a1, (char *)a2, (char *)a3,
			 (char *)a4, NULL };
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		execve("/bin/busybox", argv, nul_env);
		exit(127);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* Whether /proc/swaps has a line for path. */
static int in_proc_swaps(const char *path)
{
	size_t len = strlen(path);
	char *p;

	if (read_file("/proc/swaps", buf, sizeof(buf)) < 0)
		return 0;
	for (p = buf; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (!strncmp(p, path, len) && (p[len] == ' ' || p[len] == '\t'))
			return 1;
	return 0;
}

static unsigned int pattern(unsigned long page, unsigned long word,
			    unsigned int tag)
{
	return ((unsigned int)page << 10 | (unsigned int)word) ^ tag;
}

static void fill_page(unsigned int *p, unsigned long page, unsigned int tag)
{
	unsigned long w;

	for (w = 0; w < WORDS; w++)
		p[w] = pattern(page, w, tag);
}

/* Pages first, first + stride, ... below end that do not hold tag. */
static long check_pages(unsigned char *mem, unsigned long first,
			unsigned long end, unsigned long stride,
			unsigned int tag, const char *what)
{
	unsigned long page, w;
	long bad = 0;

	for (page = first; page < end; page += stride) {
		unsigned int *p = (unsigned int *)(mem + page * PAGE);

		for (w = 0; w < WORDS; w++)
			if (p[w] != pattern(page, w, tag))
				break;
		if (w == WORDS)
			continue;
		if (!bad)
			printf("swap: %s: page %lu word %lu holds 0x%x, not 0x%x\n",
			       what, page, w, p[w], pattern(page, w, tag));
		bad++;
	}
	return bad;
}

struct traffic {
	long out, in;
};

static struct traffic traffic(void)
{
	struct traffic t;

	t.out = proc_value("/proc/vmstat", "pswpout");
	t.in = proc_value("/proc/vmstat", "pswpin");
	return t;
}

/* mkswap and swapon of path (made first with dd when it is SWAPFILE). */
static int swap_on(const char *area, const char *path, unsigned long mib)
{
	char count[24] = "count=";
	long rc;

	if (!strcmp(path, SWAPFILE)) {
		utoa_r(mib, count + 6);
		rc = applet("dd", "if=/dev/zero", "of=" SWAPFILE, "bs=1M", count);
		check(area, "dd", rc == 0, "%ld MiB, status %ld", mib, rc);
		if (rc || chmod(SWAPFILE, 0600) < 0)
			return -1;
	}
	rc = applet("mkswap", path, NULL, NULL, NULL);
	check(area, "mkswap", rc == 0, "status %ld", rc, 0);
	if (rc)
		return -1;
	rc = applet("swapon", path, NULL, NULL, NULL);
	rc = rc == 0 && in_proc_swaps(path) ? 0 : rc ? rc : -1;
	check(area, "swapon", rc == 0, "status %ld, SwapTotal %ld kB", rc,
	      proc_value("/proc/meminfo", "SwapTotal"));
	return rc ? -1 : 0;
}

static void swap_test(const char *area, const char *path)
{
	long memtotal = proc_value("/proc/meminfo", "MemTotal");
	long available = proc_value("/proc/meminfo", "MemAvailable");
	unsigned long pages = memtotal / 4 * 3 / 2, keep, page;
	long bad, child_bad, swapped, swapped_after, cached, rc;
	struct traffic t0, t1, t2;
	unsigned char *mem;
	int status;
	pid_t pid;

	/*
	 * What swapoff brings back must leave the kernel above its
	 * watermarks (which boosts can raise by megabytes): a third of what
	 * is available before the fill, never more than a quarter of it.
	 */
	keep = available > 0 ? available / 4 / 3 : 0;
	if (keep > pages / 4)
		keep = pages / 4;
	printf("swap: %s: %s, MemTotal %ld kB, filling %lu pages (%lu kB), "
	       "keeping %lu of MemAvailable %ld kB\n",
	       area, path, memtotal, pages, pages * 4, keep, available);
	/* The whole fill fits in the area, with room to spare. */
	if (swap_on(area, path, pages * 4 / 1024 + 8) < 0)
		return;
	check(area, "size", proc_value("/proc/meminfo", "SwapTotal") >= (long)(pages * 4),
	      "SwapTotal %ld kB, fill %ld kB",
	      proc_value("/proc/meminfo", "SwapTotal"), pages * 4);

	mem = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		check(area, "mmap", 0, "%ld pages, errno %ld", pages, errno);
		return;
	}

	t0 = traffic();
	for (page = 0; page < pages; page++)
		fill_page((unsigned int *)(mem + page * PAGE), page, TAG_PARENT);
	t1 = traffic();
	check(area, "fill", t1.out > t0.out, "pswpout %ld, pswpin %ld",
	      t1.out - t0.out, t1.in - t0.in);
	bad = check_pages(mem, 0, pages, 1, TAG_PARENT, "read back");
	t2 = traffic();
	check(area, "readback", !bad && t2.in > t1.in,
	      "%ld bad pages, pswpin %ld", bad, t2.in - t1.in);

	pid = fork();
	if (pid == 0) {
		child_bad = check_pages(mem, 0, pages, CHILD_STRIDE, TAG_PARENT,
					"child");
		for (page = 0; page < pages; page += CHILD_STRIDE)
			fill_page((unsigned int *)(mem + page * PAGE), page,
				  TAG_CHILD);
		exit(child_bad > 255 ? 255 : child_bad);
	}
	child_bad = pid > 0 && waitpid(pid, &status, 0) == pid &&
		    WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	bad = check_pages(mem, 0, pages, 1, TAG_PARENT, "after fork");
	check(area, "fork", child_bad == 0 && !bad,
	      "child %ld bad pages, parent %ld", child_bad, bad);

	/* What is left must fit in RAM once swapoff brings it back. */
	munmap(mem + keep * PAGE, (pages - keep) * PAGE);
	swapped = proc_value("/proc/self/status", "VmSwap");
	cached = proc_value("/proc/meminfo", "SwapCached");
	t1 = traffic();
	rc = applet("swapoff", path, NULL, NULL, NULL);
	t2 = traffic();
	swapped_after = proc_value("/proc/self/status", "VmSwap");
	/*
	 * VmSwap lags by the changes a task has not folded into its mm yet
	 * (the split RSS counters: fewer than 64 per task), so "0" is "fewer
	 * than 64 pages".
	 */
	check(area, "swapoff", rc == 0 && swapped >= 64 * 4 && swapped_after < 64 * 4 &&
	      !in_proc_swaps(path) && proc_value("/proc/meminfo", "SwapTotal") == 0,
	      "VmSwap %ld kB before, %ld kB after", swapped, swapped_after);
	/* Each swapped page was in the swap cache or swapoff read it in. */
	check(area, "swapoff-in", t2.in - t1.in > 0 &&
	      (t2.in - t1.in) * 4 + cached >= swapped - 64 * 4,
	      "pswpin %ld, SwapCached %ld kB", t2.in - t1.in, cached);
	bad = check_pages(mem, 0, keep, 1, TAG_PARENT, "after swapoff");
	check(area, "resident", !bad, "%ld bad pages of %ld", bad, keep);
	munmap(mem, keep * PAGE);
	if (!strcmp(path, SWAPFILE))
		unlink(SWAPFILE);
	printf("swap: %s: traffic: pswpout %ld pswpin %ld\n", area,
	       t2.out - t0.out, t2.in - t0.in);
}

int main(int argc, char **argv, char **envp)
{
	const char *areas = env_value(envp, "swap");
	char list[128], *area, *next;

	if (!areas || !*areas)
		areas = "file";
	strncpy(list, areas, sizeof(list) - 1);
	list[sizeof(list) - 1] = 0;
	for (area = list; area; area = next) {
		next = strchr(area, ',');
		if (next)
			*next++ = 0;
		if (!strcmp(area, "file"))
			swap_test("file", SWAPFILE);
		else
			swap_test("dev", area);
	}
	printf("swap: %d failed\n", failures);
	return failures;
}
