/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * One line per check for the host test to read:
 * "<CHECK_PROG>: <what>: <detail>: ok" or "...: FAIL", where detail is a
 * printf format of two longs. A program defines CHECK_PROG (its name)
 * before including this and ends with failures as its exit status.
 */
#ifndef _PORTKIT_CHECKS_H
#define _PORTKIT_CHECKS_H

#include "libc.h"

static int failures;

static __attribute__((unused))
void report(const char *what, int ok, const char *fmt, long a, long b)
{
	printf(CHECK_PROG ": %s: ", what);
	printf(fmt, a, b);
	printf(": %s\n", ok ? "ok" : "FAIL");
	failures += !ok;
}

#endif /* _PORTKIT_CHECKS_H */
