// SPDX-License-Identifier: GPL-2.0
/*
 * perf-loops N: the workload the guest's perf tool is tested on
 * (tests/boot/test_perf_tool.py). hot_loop() runs 9N iterations,
 * cold_loop() N, each iteration three instructions (addiu, bnez and its
 * delay slot): the user-mode instructions of two runs differ by exactly
 * 30 per unit of N when their N have the same number of digits (the same
 * work parsing it), and a profile of user instructions puts about 90% of
 * the samples in hot_loop and 10% in cold_loop.
 */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noipa)) void hot_loop(unsigned long n)
{
	asm volatile(
	"	.set	push\n"
	"	.set	noreorder\n"
	"1:	addiu	%0, %0, -1\n"
	"	bnez	%0, 1b\n"
	"	 nop\n"
	"	.set	pop\n"
	: "+r" (n));
}

static __attribute__((noipa)) void cold_loop(unsigned long n)
{
	asm volatile(
	"	.set	push\n"
	"	.set	noreorder\n"
	"1:	addiu	%0, %0, -1\n"
	"	bnez	%0, 1b\n"
	"	 nop\n"
	"	.set	pop\n"
	: "+r" (n));
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long n;

	if (argc != 2) {
		fprintf(stderr, "usage: perf-loops N (N > 0: 9N iterations of hot_loop, N of cold_loop)\n");
		return 2;
	}
	n = strtoul(argv[1], &end, 10);
	if (!*argv[1] || *end || !n || n > 100000000) {
		fprintf(stderr, "perf-loops: '%s': N must be a number from 1 to 100000000\n", argv[1]);
		return 2;
	}
	hot_loop(9 * n);
	cold_loop(n);
	return 0;
}
