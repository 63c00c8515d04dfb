// SPDX-License-Identifier: GPL-2.0
/*
 * ll/sc atomicity across context switches: two processes increment one
 * shared counter with ll/sc, with a long window between ll and sc so that
 * timer interrupts and task switches land inside it. The count must be
 * exact: an exception return has to drop the reservation (MIPS clears
 * LLbit at eret; TSAR needs the CP2 LL_RESET register).
 */
#include "libc.h"

#define PER_PROCESS	200000

struct shared {
	volatile unsigned int counter;
	volatile unsigned int retries[2];
};

static unsigned int increment(volatile unsigned int *p)
{
	unsigned int v, ok, retries = 0, delay;

	for (;;) {
		__asm__ volatile(
			"	.set	push\n"
			"	.set	noreorder\n"
			"	ll	%0, 0(%3)\n"
			"	li	%2, 24\n"
			"1:	addiu	%2, %2, -1\n"
			"	bnez	%2, 1b\n"
			"	 nop\n"
			"	addiu	%1, %0, 1\n"
			"	sc	%1, 0(%3)\n"
			"	.set	pop\n"
			: "=&r"(v), "=&r"(ok), "=&r"(delay)
			: "r"(p) : "memory");
		if (ok)
			return retries;
		retries++;
	}
}

static void worker(struct shared *s, int idx)
{
	unsigned int i, retries = 0;

	for (i = 0; i < PER_PROCESS; i++)
		retries += increment(&s->counter);
	s->retries[idx] = retries;
}

int main(void)
{
	struct shared *s = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned int expected = 2 * PER_PROCESS;
	int status;
	pid_t pid;

	if (s == MAP_FAILED)
		return 1;
	pid = fork();
	if (pid < 0)
		return 1;
	worker(s, pid == 0);
	if (pid == 0)
		return 0;
	if (waitpid(pid, &status, 0) != pid)
		return 1;
	printf("abi-llsc: expected %u got %u lost %u retries %u+%u\n",
	       expected, s->counter, expected - s->counter,
	       s->retries[0], s->retries[1]);
	return s->counter == expected ? 0 : 1;
}
