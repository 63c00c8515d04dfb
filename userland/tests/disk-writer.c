// SPDX-License-Identifier: GPL-2.0
/*
 * Appends numbered records to /records on the root file system and syncs
 * them, for the crash test of tests/boot/test_blockdev.py (the host kills
 * the emulator in the middle of the writes, then checks the image).
 *
 * disk_writer_records=N (default 100000), disk_writer_sync=M (default 8):
 * after every M records, fsync() and print "disk-writer: acked R", R the
 * number of records on disk by then. Record r is 64 bytes: "rec ", r in
 * 8 decimal digits, a space, 50 letters from a generator seeded with r
 * (record() below; the host computes the same) and a newline.
 */
#include "settings.h"

#define FILE_NAME	"/records"
#define RECORD		64

/* "rec NNNNNNNN " then 50 letters a..z from r, then '\n': 64 bytes. */
static void record(char *out, unsigned int r)
{
	unsigned int i, x = r * 2654435761u + 12345, v = r;

	memcpy(out, "rec ", 4);
	for (i = 0; i < 8; i++) {	/* the number, zero padded */
		out[11 - i] = '0' + v % 10;
		v /= 10;
	}
	out[12] = ' ';
	for (i = 13; i < RECORD - 1; i++) {
		x = x * 1103515245u + 12345;
		out[i] = 'a' + (x >> 16) % 26;
	}
	out[RECORD - 1] = '\n';
}

int main(int argc, char **argv, char **envp)
{
	unsigned int total = env_uint(envp, "disk_writer_records", 100000);
	unsigned int every = env_uint(envp, "disk_writer_sync", 8);
	char rec[RECORD];
	unsigned int r;
	int fd;

	if (!every)
		every = 1;
	fd = open(FILE_NAME, O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0 || fsync(fd) < 0) {
		printf("disk-writer: cannot create " FILE_NAME " (errno %d)\n", errno);
		return 1;
	}
	printf("disk-writer: writing %u records, fsync every %u\n", total, every);
	for (r = 0; r < total; r++) {
		record(rec, r);
		if (write(fd, rec, RECORD) != RECORD) {
			printf("disk-writer: write of record %u failed (errno %d)\n", r, errno);
			return 1;
		}
		if ((r + 1) % every == 0 || r + 1 == total) {
			if (fsync(fd) < 0) {
				printf("disk-writer: fsync failed (errno %d)\n", errno);
				return 1;
			}
			printf("disk-writer: acked %u\n", r + 1);
		}
	}
	close(fd);
	printf("disk-writer: done %u\n", total);
	return 0;
}
