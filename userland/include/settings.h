/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * What the guest test programs share besides the C library: their
 * settings (environment variables that /init passes on from the kernel
 * command line's name=value words), decimal numbers and a clock.
 */
#ifndef _PORTKIT_SETTINGS_H
#define _PORTKIT_SETTINGS_H

#include "libc.h"

/* The value of name=value in envp, or NULL. */
static __attribute__((unused))
const char *env_value(char **envp, const char *name)
{
	size_t len = strlen(name);

	for (; *envp; envp++)
		if (!strncmp(*envp, name, len) && (*envp)[len] == '=')
			return *envp + len + 1;
	return NULL;
}

/* The leading decimal digits of s (0 without any). */
static __attribute__((unused))
unsigned long parse_uint(const char *s)
{
	unsigned long v = 0;

	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (*s - '0');
	return v;
}

/* A number from a setting, def when it is absent or empty. */
static __attribute__((unused))
unsigned long uint_or(const char *s, unsigned long def)
{
	return s && *s ? parse_uint(s) : def;
}

static __attribute__((unused))
unsigned long env_uint(char **envp, const char *name, unsigned long def)
{
	return uint_or(env_value(envp, name), def);
}

/* The guest's monotonic clock in microseconds (no 64-bit division). */
static __attribute__((unused))
long long now_us(void)
{
	struct { long long sec, nsec; } ts = { 0, 0 };

	my_syscall2(__NR_clock_gettime64, 1 /* CLOCK_MONOTONIC */, &ts);
	return ts.sec * 1000000 + (unsigned long)ts.nsec / 1000;
}

#endif /* _PORTKIT_SETTINGS_H */
