// SPDX-License-Identifier: GPL-2.0
/*
 * The contiguous memory allocator's area (the family's
 * dma_contiguous_reserve(), sized by cma= on the command line): the
 * CmaTotal and CmaFree of /proc/meminfo, then an allocation of 16 pages
 * from the default area through CMA_DEBUGFS (/debug/cma/reserved/alloc),
 * seen in CmaFree and in the area's used pages, and its release. Prints
 *   cma: meminfo: total <kB> free <kB>: ok|FAIL
 *   cma: alloc: free <kB> after, <kB> before: ok|FAIL
 *   cma: alloc-used: used <pages> after, <pages> before: ok|FAIL
 *   cma: free: used <pages> after, <pages> before: ok|FAIL
 * The host test checks the total it asked for; without a CMA area (no
 * cma=) the program prints "cma: no area" and exits 0.
 */
#include "libc.h"
#include "procfs.h"

#define CHECK_PROG "cma"
#include "checks.h"

#define PAGES	16
#define AREA	"/debug/cma/reserved/"

static char buf[4096];

/* The kB figure of a /proc/meminfo line ("CmaFree:    4096 kB"), or -1. */
static long meminfo(const char *key)
{
	return proc_value("/proc/meminfo", key);
}

/* The number in a debugfs file of the area, or -errno. */
static long read_num(const char *path)
{
	int fd = open(path, O_RDONLY, 0);
	int n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return atol(buf);
}

static long write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY, 0);
	long ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, s, strlen(s));
	close(fd);
	return ret < 0 ? -errno : ret;
}

int main(void)
{
	long total = meminfo("CmaTotal"), free0 = meminfo("CmaFree"), free1, ret;
	long used0, used1, used2;

	debugfs_mount();

	if (total <= 0) {
		printf("cma: no area (CmaTotal %ld)\n", total);
		return 0;
	}
	report("meminfo", free0 > 0 && free0 <= total, "total %ld free %ld", total, free0);
	used0 = read_num(AREA "used");
	ret = write_str(AREA "alloc", "16");
	free1 = meminfo("CmaFree");
	used1 = read_num(AREA "used");
	report("alloc", ret > 0 && free1 == free0 - PAGES * 4, "free %ld after, %ld before",
	       free1, free0);
	report("alloc-used", used0 == 0 && used1 == PAGES, "used %ld after, %ld before",
	       used1, used0);
	/*
	 * Freed pages go to the per-CPU lists first, where CmaFree does not
	 * count them: the area's own bitmap says they are back.
	 */
	ret = write_str(AREA "free", "16");
	used2 = read_num(AREA "used");
	report("free", ret > 0 && used2 == 0, "used %ld after, %ld before", used2, used1);
	return failures;
}
