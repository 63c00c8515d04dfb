/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checks of a musl test program: one "<CHECK_PROG>: <name>: <details>:
 * ok|FAIL" line each (details on one line), then check_summary()'s
 * "<CHECK_PROG>: N passed, M failed", which the host tests read. Define
 * CHECK_PROG before including.
 */
#ifndef MUSL_CHECK_H
#define MUSL_CHECK_H

#include <stdarg.h>
#include <stdio.h>

static int passed, failed;

static void check(const char *name, int ok, const char *fmt, ...)
{
	char details[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(details, sizeof(details), fmt, ap);
	va_end(ap);
	for (char *p = details; *p; p++)
		if (*p == '\n')
			*p = ' ';
	printf("%s: %s: %s: %s\n", CHECK_PROG, name, details, ok ? "ok" : "FAIL");
	fflush(stdout);
	if (ok)
		passed++;
	else
		failed++;
}

/* The summary line; the exit status is the failure count (at most 125). */
static int check_summary(void)
{
	printf("%s: %d passed, %d failed\n", CHECK_PROG, passed, failed);
	fflush(stdout);
	return failed > 125 ? 125 : failed;
}

#endif /* MUSL_CHECK_H */
