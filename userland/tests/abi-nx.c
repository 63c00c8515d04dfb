// SPDX-License-Identifier: GPL-2.0
/*
 * Data is not executable: code copied into .bss, the brk heap, the stack
 * or a PROT_READ|PROT_WRITE mapping faults with SIGSEGV/SEGV_ACCERR at
 * the code's address, as on MIPS; a PROT_EXEC mapping runs it.
 */
#include "libc.h"

/* "jr ra; li v0, 42" */
static const unsigned int code42[2] = { 0x03e00008, 0x2402002a };

static unsigned int bss_code[2];
static void *target;
static int failures;

static void call_target(void)
{
	int (*fn)(void) = (int (*)(void))target;

	memcpy(target, code42, sizeof(code42));
	printf("abi-nx: returned %d\n", fn());
}

static void stack_code(void)
{
	unsigned int buf[2];

	target = buf;
	call_target();
}

static void expect_segv_accerr(const char *what, void (*fn)(void),
			       unsigned long addr)
{
	struct fault_report r;
	int ret = catch_fault(fn, &r);
	int ok = ret == 1 && r.signo == SIGSEGV && r.code == SEGV_ACCERR &&
		 (!addr || r.addr == addr);

	printf("abi-nx: %s: sig %d code %d addr %lx (want %d %d %lx): %s\n",
	       what, r.signo, r.code, r.addr, SIGSEGV, SEGV_ACCERR, addr,
	       ok ? "ok" : "FAIL");
	failures += !ok;
}

int main(void)
{
	struct fault_report r;
	int ret;

	target = bss_code;
	expect_segv_accerr("bss", call_target, (unsigned long)bss_code);

	/* The brk heap (nolibc 6.1's sbrk() returns the new end, not the old). */
	target = (void *)my_syscall1(__NR_brk, 0);
	my_syscall1(__NR_brk, (char *)target + 4096);
	expect_segv_accerr("brk", call_target, (unsigned long)target);

	/* The stack's address is only known in the child. */
	expect_segv_accerr("stack", stack_code, 0);

	target = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	expect_segv_accerr("mmap-rw", call_target, (unsigned long)target);

	target = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ret = catch_fault(call_target, &r);
	printf("abi-nx: mmap-rwx: %s (ret %d sig %d)\n",
	       ret == 0 ? "ok" : "FAIL", ret, r.signo);
	failures += ret != 0;

	printf("abi-nx: %d failures\n", failures);
	return failures != 0;
}
