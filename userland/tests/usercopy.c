// SPDX-License-Identifier: GPL-2.0
/*
 * The user-copy routines stop exactly at an inaccessible page: a write()
 * from, a read() into, and a read() of /dev/zero into a buffer whose
 * first k bytes are before a PROT_NONE page transfer exactly k bytes,
 * for sizes and alignments that take the byte, word and block paths.
 * Prints "usercopy: <what> ok <cases>" or the first mismatch.
 */
#include "libc.h"

#define PAGE	4096

static unsigned char src[256];

static int fail(const char *what, int k, int align, long got)
{
	printf("usercopy: %s FAIL k=%d align=%d got %ld\n", what, k, align, got);
	return 1;
}

int main(void)
{
	static const int sizes[] = { 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31,
				     32, 33, 63, 64, 65, 100, 200 };
	unsigned char *map, *edge;
	int i, j, align, fd, zero, cases = 0, bad = 0;

	map = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return 2;
	if (my_syscall3(__NR_mprotect, map + PAGE, PAGE, PROT_NONE))
		return 3;
	edge = map + PAGE;
	for (i = 0; i < (int)sizeof(src); i++)
		src[i] = i * 7 + 1;

	fd = open("/tmp/usercopy", O_RDWR | O_CREAT | O_TRUNC, 0600);
	zero = open("/dev/zero", O_RDONLY, 0);
	if (fd < 0 || zero < 0)
		return 4;
	if (write(fd, src, sizeof(src)) != sizeof(src))
		return 5;

	for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
		int k = sizes[i];

		for (align = 0; align < 4; align++) {
			unsigned char *buf = edge - k;
			long n;

			cases++;
			/* copy_to_user: file -> buffer running into the hole */
			memset(map + PAGE - 256, 0, 256);
			lseek(fd, align, SEEK_SET);
			n = read(fd, buf, k + 50);
			if (n != k)
				bad += fail("read", k, align, n);
			for (j = 0; n == k && j < k; j++)
				if (buf[j] != src[align + j]) {
					bad += fail("read-data", k, align, j);
					break;
				}

			/* copy_from_user: buffer running into the hole -> file */
			for (j = 0; j < k; j++)
				buf[j] = src[j] ^ 0x5a;
			lseek(fd, 256 + align, SEEK_SET);
			n = write(fd, buf, k + 50);
			if (n != k)
				bad += fail("write", k, align, n);

			/* __clear_user: /dev/zero into the buffer */
			memset(map + PAGE - 256, 0xff, 256);
			n = read(zero, buf, k + 50);
			if (n != k)
				bad += fail("zero", k, align, n);
			for (j = 0; n == k && j < k; j++)
				if (buf[j]) {
					bad += fail("zero-data", k, align, j);
					break;
				}
			if (bad)
				return 1;
		}
	}
	printf("usercopy: read ok %d\n", cases);
	printf("usercopy: write ok %d\n", cases);
	printf("usercopy: zero ok %d\n", cases);
	return 0;
}
