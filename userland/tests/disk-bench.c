// SPDX-License-Identifier: GPL-2.0
/*
 * Block-device throughput through the root file system, for
 * `make bench-disk` (scripts/bench-disk.py): a large sequential write
 * followed by fsync(), then, with the page cache dropped, a sequential
 * read of the same file, each timed with the guest's CLOCK_MONOTONIC.
 *
 * disk_bench_mib=N (default 8; 0 runs nothing, the host's baseline for
 * counting instructions), disk_bench_chunk=KiB per write()/read()
 * (default 64), disk_bench_read=0 to stop after the write. Prints
 *   disk-bench: write+fsync <bytes> bytes in <us> us
 *   disk-bench: read <bytes> bytes in <us> us
 * and exits 0 when the data read back is what was written.
 */
#include "settings.h"

#define FILE_NAME	"/disk-bench.dat"
#define MAX_CHUNK	(256 * 1024)

static unsigned int buf[MAX_CHUNK / 4] __attribute__((aligned(4096)));

static void fill(unsigned int chunk, unsigned int words)
{
	unsigned int i;

	for (i = 0; i < words; i++)
		buf[i] = chunk * 0x10000 + i;
}

int main(int argc, char **argv, char **envp)
{
	unsigned int mib = env_uint(envp, "disk_bench_mib", 8);
	unsigned int chunk = env_uint(envp, "disk_bench_chunk", 64) * 1024;
	unsigned int do_read = env_uint(envp, "disk_bench_read", 1);
	unsigned int chunks, c, i, bad = 0;
	long long t0, t1;
	int fd;

	if (!mib) {
		printf("disk-bench: nothing to do (disk_bench_mib=0)\n");
		return 0;
	}
	if (!chunk || chunk > MAX_CHUNK || (mib * 1024 * 1024) % chunk) {
		printf("disk-bench: bad disk_bench_chunk\n");
		return 2;
	}
	chunks = mib * 1024 * 1024 / chunk;

	fd = open(FILE_NAME, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0) {
		printf("disk-bench: cannot create " FILE_NAME " (errno %d)\n", errno);
		return 1;
	}
	printf("disk-bench: writing %u MiB\n", mib);
	t0 = now_us();
	for (c = 0; c < chunks; c++) {
		fill(c, chunk / 4);
		if (write(fd, buf, chunk) != (ssize_t)chunk) {
			printf("disk-bench: write failed (errno %d)\n", errno);
			return 1;
		}
	}
	if (fsync(fd) < 0) {
		printf("disk-bench: fsync failed (errno %d)\n", errno);
		return 1;
	}
	t1 = now_us();
	close(fd);
	printf("disk-bench: write+fsync %u bytes in %u us\n", chunks * chunk,
	       (unsigned int)(t1 - t0));
	if (!do_read)
		return 0;

	/* Drop the file's pages so the read comes from the device. */
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	if (fd < 0 || write(fd, "3", 1) != 1) {
		printf("disk-bench: cannot drop the page cache (errno %d)\n", errno);
		return 1;
	}
	close(fd);

	fd = open(FILE_NAME, O_RDONLY);
	if (fd < 0) {
		printf("disk-bench: cannot open " FILE_NAME " (errno %d)\n", errno);
		return 1;
	}
	t0 = now_us();
	for (c = 0; c < chunks; c++) {
		if (read(fd, buf, chunk) != (ssize_t)chunk) {
			printf("disk-bench: read failed (errno %d)\n", errno);
			return 1;
		}
		for (i = 0; i < chunk / 4; i += 97)	/* spot checks, cheap */
			if (buf[i] != c * 0x10000 + i)
				bad++;
	}
	t1 = now_us();
	close(fd);
	unlink(FILE_NAME);
	printf("disk-bench: read %u bytes in %u us\n", chunks * chunk, (unsigned int)(t1 - t0));
	if (bad)
		printf("disk-bench: %u words read back wrong\n", bad);
	return bad != 0;
}
