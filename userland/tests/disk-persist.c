// SPDX-License-Identifier: GPL-2.0
/*
 * Data that must survive a reboot, on the root file system, for
 * tests/boot/test_blockdev.py.
 *
 * disk_persist=write disk_token=T: writes "token=T" and the boot count to
 *   /persist.txt, fsync()s it and prints "disk-persist: wrote T".
 * disk_persist=check disk_token=T: reads /persist.txt, prints
 *   "disk-persist: found <its contents>" and exits 0 when it holds T.
 */
#include "settings.h"

#define FILE_NAME	"/persist.txt"

int main(int argc, char **argv, char **envp)
{
	const char *mode = env_value(envp, "disk_persist");
	const char *token = env_value(envp, "disk_token");
	char want[96], got[128];
	int fd, n;

	if (!mode || !token || strlen(token) > 64) {
		printf("disk-persist: needs disk_persist=write|check and disk_token=T\n");
		return 2;
	}
	strcpy(want, "token=");
	strncat(want, token, strlen(token));
	strncat(want, "\n", 1);
	if (!strcmp(mode, "write")) {
		fd = open(FILE_NAME, O_CREAT | O_TRUNC | O_WRONLY, 0644);
		if (fd < 0 || write(fd, want, strlen(want)) != (ssize_t)strlen(want) ||
		    fsync(fd) < 0 || close(fd) < 0) {
			printf("disk-persist: cannot write " FILE_NAME " (errno %d)\n", errno);
			return 1;
		}
		printf("disk-persist: wrote %s\n", token);
		return 0;
	}
	fd = open(FILE_NAME, O_RDONLY);
	if (fd < 0) {
		printf("disk-persist: cannot open " FILE_NAME " (errno %d)\n", errno);
		return 1;
	}
	n = read(fd, got, sizeof(got) - 1);
	close(fd);
	if (n < 0)
		n = 0;
	got[n] = 0;
	if (n && got[n - 1] == '\n')
		got[n - 1] = 0;
	printf("disk-persist: found %s\n", got);
	return strncmp(got, want, strlen(want) - 1) || strlen(got) != strlen(want) - 1;
}
