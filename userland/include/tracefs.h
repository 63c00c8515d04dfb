/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tracefs for the probe-event programs (kprobe-events, uprobe-events):
 * mounted at /tracing, a control file written, the trace printed.
 */
#ifndef PORTKIT_TRACEFS_H
#define PORTKIT_TRACEFS_H

#include "libc.h"

#define TRACEFS		"/tracing"

/* Mount tracefs at TRACEFS; 0, or errno (another program's mount is fine). */
static int tracefs_mount(void)
{
	mkdir(TRACEFS, 0700);
	if (mount("tracefs", TRACEFS, "tracefs", 0, NULL) && errno != EBUSY)
		return errno;
	return 0;
}

/* Write text to TRACEFS/file, opened with O_WRONLY | flags: 0 or errno. */
static int tracefs_put(const char *file, const char *text, int flags)
{
	char path[128] = TRACEFS "/";
	int fd, n;

	strcpy(path + strlen(path), file);
	fd = open(path, O_WRONLY | flags, 0);
	if (fd < 0)
		return errno;
	n = write(fd, text, strlen(text));
	n = n < 0 ? errno : 0;
	close(fd);
	return n;
}

/* Print each line of TRACEFS/trace but its '#' header, as "<prog>: trace: <line>". */
static __attribute__((unused))
void tracefs_print_trace(const char *prog)
{
	static char buf[65536];
	int fd = open(TRACEFS "/trace", O_RDONLY, 0);
	int len = 0, n;
	char *line, *nl;

	if (fd < 0) {
		printf("%s: cannot open the trace: errno %d\n", prog, errno);
		return;
	}
	while (len < (int)sizeof(buf) - 1 &&
	       (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	for (line = buf; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		*nl = 0;
		if (line[0] != '#')
			printf("%s: trace: %s\n", prog, line);
	}
}

#endif /* PORTKIT_TRACEFS_H */
