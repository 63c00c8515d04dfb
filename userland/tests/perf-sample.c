// SPDX-License-Identifier: GPL-2.0
/*
 * perf samples with the user's registers and stack (PERF_SAMPLE_REGS_USER,
 * PERF_SAMPLE_STACK_USER) from a software event: task-clock sampling
 * while spin() runs a counted loop. spin() first writes a canary pattern
 * on its own stack and records its stack pointer; every sample read from
 * the mmap ring buffer must then have
 *   - the PC inside spin()'s loop (and equal to the sample's IP),
 *   - the stack pointer spin() runs with,
 *   - the ABI of the registers PERF_SAMPLE_REGS_ABI_32,
 *   - a stack dump starting at that stack pointer holding the canary.
 * Prints "perf-sample: <check>: <details>: ok|FAIL" (checks.h).
 */
#include "libc.h"

#include <linux/perf_event.h>
#include "perf-ring.h"
#include <asm/perf_regs.h>

#define CHECK_PROG "perf-sample"
#include "checks.h"

#define PAGE		4096
#define DATA_PAGES	16		/* the ring buffer, a power of two */
#define STACK_DUMP	512		/* bytes of user stack per sample */
#define CANARY_WORDS	16
#define PERIOD_NS	4000000		/* a sample per 4 ms of task time */
#define SPIN_NS		120000000	/* spin for about 120 ms: ~30 samples */

#define REGS_MASK	((1ULL << PERF_REG_MIPS_PC) | (1ULL << PERF_REG_MIPS_R29) | \
			 (1ULL << PERF_REG_MIPS_R31))

struct kts {
	long long tv_sec;
	long long tv_nsec;
};

extern char spin_loop_start[], spin_loop_end[];
static unsigned long spin_sp, canary_at;

static unsigned long canary_word(int i)
{
	return 0x5afe0000UL + i * 0x0101UL;
}

/*
 * A counted loop between two global labels, so the PC of a sample is
 * known to be in it, after a canary on this frame's stack.
 */
static __attribute__((noinline, noclone)) void spin(unsigned long n)
{
	volatile unsigned long canary[CANARY_WORDS];
	unsigned long sp;
	int i;

	for (i = 0; i < CANARY_WORDS; i++)
		canary[i] = canary_word(i);
	asm volatile("move	%0, $sp" : "=r" (sp));
	spin_sp = sp;
	canary_at = (unsigned long)canary;
	asm volatile(
	"	.globl	spin_loop_start\n"
	"spin_loop_start:\n"
	"1:	addiu	%0, %0, -1\n"
	"	bnez	%0, 1b\n"
	"	.globl	spin_loop_end\n"
	"spin_loop_end:\n"
	: "+r" (n));
	/* The canary is live until here. */
	asm volatile("" : : "r" (canary) : "memory");
}

static long long now_ns(void)
{
	struct kts ts;

	my_syscall2(__NR_clock_gettime64, 1 /* MONOTONIC */, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* One record, 8-byte aligned for its u64 fields. */
static unsigned long long rec_words[1024];
#define rec ((unsigned char *)rec_words)

int main(void)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *meta;
	unsigned long long head, off;
	unsigned long size, iters, calib = 1UL << 20;
	long long t0, t1;
	unsigned char *data;
	long samples = 0, good = 0, lost = 0, bad_pc = 0, bad_sp = 0, bad_abi = 0;
	long bad_stack = 0, bad_ip = 0;
	unsigned long first_pc = 0, first_sp = 0;
	int fd;

	/* How many iterations make SPIN_NS here. */
	t0 = now_ns();
	spin(calib);
	t1 = now_ns();
	iters = calib * (SPIN_NS / ((t1 - t0) / 1000 + 1)) / 1000;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_SOFTWARE;
	attr.size = sizeof(attr);
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.sample_period = PERIOD_NS;
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = REGS_MASK;
	attr.sample_stack_user = STACK_DUMP;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = my_syscall5(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	report("open", fd >= 0, "fd %ld, attr of %ld bytes", fd, sizeof(attr));
	if (fd < 0)
		return failures;
	meta = mmap(NULL, (1 + DATA_PAGES) * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	report("mmap", meta != MAP_FAILED, "%ld pages of %ld bytes", 1 + DATA_PAGES, PAGE);
	if (meta == MAP_FAILED)
		return failures;

	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	spin(iters);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);

	head = meta->data_head;
	__sync_synchronize();
	data = ring_data(meta, PAGE, DATA_PAGES, &size);
	for (off = meta->data_tail; off < head; ) {
		struct perf_event_header hdr;
		unsigned long long *w = (unsigned long long *)rec;
		unsigned long long ip, abi, pc, sp, dump_size, dyn_size;
		unsigned long at;

		ring_copy(&hdr, data, size, off, sizeof(hdr));
		if (hdr.size < sizeof(hdr) || hdr.size > sizeof(rec_words))
			break;
		ring_copy(rec, data, size, off, hdr.size);
		off += hdr.size;
		if (hdr.type == PERF_RECORD_LOST) {
			lost += w[2];
			continue;
		}
		if (hdr.type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		/* header, ip, abi, PC, R29, R31 (mask order), size, data, dyn_size */
		ip = w[1];
		abi = w[2];
		pc = w[3];
		sp = w[4];
		dump_size = w[6];
		if (8 * 8 + dump_size > hdr.size) {
			bad_stack++;
			continue;
		}
		dyn_size = *(unsigned long long *)(rec + 8 * 7 + dump_size);
		if (samples == 1) {
			first_pc = pc;
			first_sp = sp;
		}
		bad_abi += abi != PERF_SAMPLE_REGS_ABI_32;
		bad_ip += ip != pc;
		if (pc < (unsigned long)spin_loop_start || pc >= (unsigned long)spin_loop_end) {
			bad_pc++;
			continue;
		}
		if (sp != spin_sp) {
			bad_sp++;
			continue;
		}
		/* The dump starts at the sampled SP; the canary is above it. */
		at = canary_at - sp;
		if (dump_size != STACK_DUMP || dyn_size < at + CANARY_WORDS * 4 ||
		    at + CANARY_WORDS * 4 > STACK_DUMP) {
			bad_stack++;
			continue;
		}
		{
			unsigned long *words = (unsigned long *)(rec + 8 * 7 + at);
			int i, ok = 1;

			for (i = 0; i < CANARY_WORDS; i++)
				ok &= words[i] == canary_word(i);
			bad_stack += !ok;
			good += ok;
		}
	}
	printf("perf-sample: loop %p-%p sp %lx canary at %lx, first sample pc %lx sp %lx\n",
	       spin_loop_start, spin_loop_end, spin_sp, canary_at, first_pc, first_sp);
	report("samples", samples >= 10, "%ld samples, %ld lost", samples, lost);
	report("abi", bad_abi == 0, "%ld of %ld not ABI_32", bad_abi, samples);
	report("ip", bad_ip == 0, "%ld of %ld with IP != PC", bad_ip, samples);
	/* A sample may land on the few instructions around the loop (the call,
	 * the ioctl's return): one at most; every other is in the loop. */
	report("pc-in-spin", bad_pc <= 1, "%ld of %ld outside the loop", bad_pc, samples);
	report("sp-of-spin", bad_sp == 0, "%ld of %ld with another SP", bad_sp, samples);
	report("stack-canary", bad_stack == 0 && good >= 10,
	       "%ld with the canary, %ld without", good, bad_stack);
	return failures;
}
