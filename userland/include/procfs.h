/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * Numbers from the kernel's key-value files: /proc/meminfo and
 * /proc/self/status ("Key:   N kB"), /proc/vmstat ("key N").
 */
#ifndef _PORTKIT_PROCFS_H
#define _PORTKIT_PROCFS_H

#include "libc.h"
#include "settings.h"

/*
 * The number after "key" at the start of a line of path ("Key: N kB" or
 * "key N"); -1 if there is no such line.
 */
static __attribute__((unused))
long proc_value(const char *path, const char *key)
{
	static char text[8192];
	size_t len = strlen(key);
	char *p;

	if (read_file(path, text, sizeof(text)) < 0)
		return -1;
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		if (strncmp(p, key, len) || (p[len] != ':' && p[len] != ' '))
			continue;
		p += len + 1;
		while (*p == ' ' || *p == '\t')
			p++;
		return (long)parse_uint(p);
	}
	return -1;
}

#endif /* _PORTKIT_PROCFS_H */
