// SPDX-License-Identifier: GPL-2.0
/*
 * Raw I/O on the block device (/dev/ioc0) from user space, for
 * tests/boot/test_blockdev.py. The host made the image: word k (0..127)
 * of block b holds 0x10000000 + 128 * b + k.
 *
 * blockdev_raw=rw (default): checks the size, reads blocks with O_DIRECT
 *   (one device transfer each) and through the page cache, reads at the
 *   end of the disk, then writes blocks 2..9 and a 64 KiB buffer (several
 *   DMA segments) at block 1000, syncs and reads them back with O_DIRECT.
 *   New contents: word k of block b = TAG + 128 * b + k, TAG 0xb0000000
 *   for 2..9 and 0xc0000000 for 1000..1127; the host checks the image.
 * blockdev_raw=ro: the disk is read-only (BLKROGET), a write fails with
 *   EPERM and nothing reaches the disk; reads work.
 * blockdev_raw=eio:N: block N gives EIO on read and write, its neighbours
 *   read fine.
 * Prints "blockdev-raw: ..." lines and exits 0 when every check held.
 */
#include "settings.h"

#define DEV		"/dev/ioc0"
#define WORDS		128
#define BIG_BLOCKS	128

static unsigned int buf[BIG_BLOCKS * WORDS] __attribute__((aligned(4096)));
static int failed;

static void fail(const char *what)
{
	printf("blockdev-raw: FAIL %s (errno %d)\n", what, errno);
	failed = 1;
}

static void fill(unsigned int *p, unsigned int block, unsigned int count, unsigned int tag)
{
	unsigned int i;

	for (i = 0; i < count * WORDS; i++)
		p[i] = tag + block * WORDS + i;
}

static int matches(const unsigned int *p, unsigned int block, unsigned int count,
		   unsigned int tag)
{
	unsigned int i;

	for (i = 0; i < count * WORDS; i++)
		if (p[i] != tag + block * WORDS + i) {
			printf("blockdev-raw: block %u word %u: %08x, expected %08x\n",
			       block + i / WORDS, i % WORDS, p[i], tag + block * WORDS + i);
			return 0;
		}
	return 1;
}

static ssize_t at(int fd, int write_it, unsigned int block, unsigned int count)
{
	if (lseek(fd, (off_t)block * 512, SEEK_SET) != (off_t)block * 512)
		return -1;
	return write_it ? write(fd, buf, count * 512) : read(fd, buf, count * 512);
}

static int read_check(int fd, unsigned int block, unsigned int count, unsigned int tag)
{
	memset(buf, 0, count * 512);
	return at(fd, 0, block, count) == (ssize_t)(count * 512) &&
	       matches(buf, block, count, tag);
}

static int write_blocks(int fd, unsigned int block, unsigned int count, unsigned int tag)
{
	fill(buf, block, count, tag);
	return at(fd, 1, block, count) == (ssize_t)(count * 512);
}

int main(int argc, char **argv, char **envp)
{
	const char *mode = env_value(envp, "blockdev_raw");
	unsigned long long size = 0;
	unsigned int blocks, probe[4], i, bad;
	int fd, cached, ro = 0;

	if (!mode)
		mode = "rw";
	fd = open(DEV, (!strcmp(mode, "ro") ? O_RDONLY : O_RDWR) | O_DIRECT);
	cached = open(DEV, O_RDONLY);
	if (fd < 0 || cached < 0) {
		fail("open " DEV);
		return 1;
	}
	if (ioctl(fd, BLKGETSIZE64, &size) < 0)
		fail("BLKGETSIZE64");
	if (ioctl(fd, BLKROGET, &ro) < 0)
		fail("BLKROGET");
	blocks = (unsigned int)(size / 512);
	printf("blockdev-raw: size %u blocks, %s\n", blocks, ro ? "read-only" : "read-write");

	if (!strncmp(mode, "eio:", 4)) {
		bad = parse_uint(mode + 4);
		errno = 0;
		if (at(fd, 0, bad, 1) != -1 || errno != EIO)
			fail("read of the bad block did not give EIO");
		else
			printf("blockdev-raw: read block %u: EIO\n", bad);
		errno = 0;
		if (write_blocks(fd, bad, 1, 0xe0000000) || errno != EIO)
			fail("write of the bad block did not give EIO");
		else
			printf("blockdev-raw: write block %u: EIO\n", bad);
		if (bad > 0 && !read_check(fd, bad - 1, 1, 0x10000000))
			fail("block before the bad one");
		if (!read_check(fd, bad + 1, 1, 0x10000000))
			fail("block after the bad one");
		goto out;
	}

	/* Reads: single blocks (O_DIRECT), a multi-block run, the page cache. */
	probe[0] = 0;
	probe[1] = 7;
	probe[2] = blocks / 2;
	probe[3] = blocks - 1;
	for (i = 0; i < 4; i++)
		if (!read_check(fd, probe[i], 1, 0x10000000))
			fail("O_DIRECT read");
	if (!read_check(fd, 3000, BIG_BLOCKS, 0x10000000))
		fail("64 KiB O_DIRECT read");
	if (!read_check(cached, 4000, 8, 0x10000000))
		fail("read through the page cache");
	/* An unaligned pread through the cache: pread64's 64-bit offset. */
	{
		unsigned int w[3] = { 0, 0, 0 };

		if (pread(cached, w, sizeof(w), 512 * 4001 + 8) != sizeof(w) ||
		    w[0] != 0x10000000 + 4001 * WORDS + 2 || w[2] != w[0] + 2)
			fail("pread at an offset");
	}
	if (lseek(cached, (off_t)blocks * 512, SEEK_SET) != (off_t)blocks * 512 ||
	    read(cached, buf, 512) != 0)
		fail("read at the end of the disk is not EOF");
	printf("blockdev-raw: reads ok\n");

	if (!strcmp(mode, "ro")) {
		int wfd = open(DEV, O_WRONLY);

		if (!ro)
			fail("the disk is not read-only");
		fill(buf, 2, 1, 0xb0000000);
		errno = 0;
		if (wfd >= 0 && write(wfd, buf, 512) != -1)
			fail("a write to the read-only disk succeeded");
		else
			printf("blockdev-raw: write refused (errno %d)\n", errno);
		goto out;
	}

	if (!write_blocks(fd, 2, 8, 0xb0000000))
		fail("write of blocks 2..9");
	if (!write_blocks(fd, 1000, BIG_BLOCKS, 0xc0000000))
		fail("64 KiB write at block 1000");
	if (fsync(fd) < 0)
		fail("fsync");
	if (!read_check(fd, 2, 8, 0xb0000000))
		fail("read back of blocks 2..9");
	if (!read_check(fd, 1000, BIG_BLOCKS, 0xc0000000))
		fail("read back of the 64 KiB write");
	if (!read_check(fd, 10, 1, 0x10000000) || !read_check(fd, 1128, 1, 0x10000000))
		fail("a block next to the written ones changed");
	printf("blockdev-raw: writes ok\n");
out:
	close(fd);
	close(cached);
	printf("blockdev-raw: %s\n", failed ? "FAILED" : "ok");
	return failed;
}
