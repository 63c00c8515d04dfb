// SPDX-License-Identifier: GPL-2.0
/*
 * perf with the core's performance counters (the "cpu" PMU):
 *   - user-mode instructions of a loop are exact: the count for 2n
 *     iterations minus the count for n is 3n (addiu, bnez, its slot);
 *   - user-mode cycles run with instructions (no `wait` in user mode):
 *     a group reads both at once;
 *   - raw event 2 (exceptions taken) counts exactly the syscalls made in
 *     user mode, the disabling ioctl's included;
 *   - kernel-mode instructions of 20 getpid() calls are the same in every
 *     run no interrupt came into (counted alongside, raw event 3);
 *   - sampling every P user instructions: the samples' count matches the
 *     instructions counted alongside, and their IPs fall in the two loops
 *     in proportion to the work each did (9:1);
 *   - three events on two counters are multiplexed (time_running below
 *     time_enabled), each still counting;
 *   - an event the counters do not have is refused (EOPNOTSUPP), a raw
 *     event number they do not know is invalid (EINVAL).
 * Prints "perf-hw: <check>: <details>: ok|FAIL" (checks.h).
 */
#include "libc.h"

#include <linux/perf_event.h>
#include "perf-ring.h"

#define CHECK_PROG "perf-hw"
#include "checks.h"

#define PAGE		4096
#define DATA_PAGES	16
#define PERIOD		10007		/* user instructions per sample */

extern char loop_a_start[], loop_a_end[], loop_b_start[], loop_b_end[];

/* n iterations of 3 instructions between two global labels. */
static __attribute__((noinline, noclone)) void loop_a(unsigned long n)
{
	asm volatile(
	"	.globl	loop_a_start\n"
	"loop_a_start:\n"
	"1:	addiu	%0, %0, -1\n"
	"	bnez	%0, 1b\n"
	"	 nop\n"
	"	.globl	loop_a_end\n"
	"loop_a_end:\n"
	: "+r" (n));
}

static __attribute__((noinline, noclone)) void loop_b(unsigned long n)
{
	asm volatile(
	"	.globl	loop_b_start\n"
	"loop_b_start:\n"
	"1:	addiu	%0, %0, -1\n"
	"	bnez	%0, 1b\n"
	"	 nop\n"
	"	.globl	loop_b_end\n"
	"loop_b_end:\n"
	: "+r" (n));
}

static long perf_open(struct perf_event_attr *attr, int group)
{
	attr->size = sizeof(*attr);
	return my_syscall5(__NR_perf_event_open, attr, 0, -1, group, 0);
}

/* An event that starts disabled, counting in the modes asked for. */
static void event_attr(struct perf_event_attr *attr, unsigned int type,
		       unsigned long long config, int user, int kernel)
{
	memset(attr, 0, sizeof(*attr));
	attr->type = type;
	attr->config = config;
	attr->disabled = 1;
	attr->exclude_user = !user;
	attr->exclude_kernel = !kernel;
	attr->exclude_hv = 1;
}

static long open_event(unsigned int type, unsigned long long config, int user, int kernel)
{
	struct perf_event_attr attr;

	event_attr(&attr, type, config, user, kernel);
	return perf_open(&attr, -1);
}

static unsigned long long read_count(int fd)
{
	unsigned long long v = 0;

	if (read(fd, &v, sizeof(v)) != sizeof(v))
		return ~0ULL;
	return v;
}

/* The event's count over loop_a(n): the same code path for every n. */
static __attribute__((noinline)) unsigned long long count_loop(int fd, unsigned long n)
{
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop_a(n);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return read_count(fd);
}

static __attribute__((noinline)) unsigned long long count_getpids(int fd, unsigned long n)
{
	unsigned long i;

	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	for (i = 0; i < n; i++)
		my_syscall0(__NR_getpid);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	return read_count(fd);
}

static void check_exact_instructions(void)
{
	unsigned long long c1, c2;
	long fd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, 0);

	report("open-instructions", fd >= 0, "fd %ld%.0ld", fd, 0);
	if (fd < 0)
		return;
	count_loop(fd, 1000);			/* fault everything in */
	c1 = count_loop(fd, 100000);
	c2 = count_loop(fd, 200000);
	report("instructions-exact", c2 - c1 == 300000, "%ld for 100000 iterations, %ld for "
	       "200000 (3 per iteration)", (long)c1, (long)c2);
	report("instructions-overhead", c1 >= 300000 && c1 - 300000 < 100,
	       "%ld user instructions outside the loop%.0ld", (long)(c1 - 300000), 0);
	close(fd);
}

static void check_cycles_group(void)
{
	struct perf_event_attr attr;
	unsigned long long v[3];
	long lead, member;

	event_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 1, 0);
	attr.read_format = PERF_FORMAT_GROUP;
	lead = perf_open(&attr, -1);
	attr.config = PERF_COUNT_HW_INSTRUCTIONS;
	attr.disabled = 0;
	member = lead >= 0 ? perf_open(&attr, lead) : -1;
	report("open-group", lead >= 0 && member >= 0, "leader %ld, member %ld", lead, member);
	if (member < 0)
		return;
	ioctl(lead, PERF_EVENT_IOC_ENABLE, 0);
	loop_a(50000);
	ioctl(lead, PERF_EVENT_IOC_DISABLE, 0);
	if (read(lead, v, sizeof(v)) != sizeof(v))
		v[0] = 0;
	/*
	 * The syscall that disables takes its cycle in user mode but does
	 * not complete there.
	 */
	printf("perf-hw: group of %ld events\n", (long)v[0]);
	report("cycles-with-instructions", v[0] == 2 && v[2] >= 150000 && v[1] >= v[2] &&
	       v[1] - v[2] <= 2, "%ld cycles, %ld instructions", (long)v[1], (long)v[2]);
	close(member);
	close(lead);
}

static void check_exceptions(void)
{
	unsigned long long c;
	long fd = open_event(PERF_TYPE_RAW, 2, 1, 0);

	report("open-raw-exceptions", fd >= 0, "fd %ld%.0ld", fd, 0);
	if (fd < 0)
		return;
	count_getpids(fd, 10);
	c = count_getpids(fd, 500);
	/*
	 * 500 getpid() and the disabling ioctl; the enabling one was taken
	 * before the counter started.
	 */
	report("exceptions-exact", c == 501, "%ld user-mode exceptions for %ld getpid()",
	       (long)c, 500);
	close(fd);
}

/*
 * Kernel instructions of GETPIDS getpid() calls, in the runs no interrupt
 * came into (a group with raw event 3, interrupts, in every mode): the
 * same path each time, so the same count. Few calls per run, so that a
 * run between two ticks is common even on the debug kernel. A pause that
 * differs from run to run (0 to about 10 ms at 25 MHz) moves the runs
 * against the tick: runs whose period is close to the tick's would meet it
 * at the same point every time (on 6.12's debug kernel, 17 runs in a row).
 */
#define GETPIDS	20
static void check_kernel_instructions(void)
{
	struct perf_event_attr attr;
	unsigned long long v[3];
	long lead, irqs, clean = 0, differ = 0, first = 0;
	int run;

	event_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0, 1);
	attr.read_format = PERF_FORMAT_GROUP;
	lead = perf_open(&attr, -1);
	attr.type = PERF_TYPE_RAW;
	attr.config = 3;
	attr.disabled = 0;
	attr.exclude_user = 0;
	irqs = lead >= 0 ? perf_open(&attr, lead) : -1;
	report("open-kernel", lead >= 0 && irqs >= 0, "leader %ld, member %ld", lead, irqs);
	if (irqs < 0)
		return;
	for (run = 0; run < 40; run++) {
		ioctl(lead, PERF_EVENT_IOC_RESET, (void *)PERF_IOC_FLAG_GROUP);
		ioctl(lead, PERF_EVENT_IOC_ENABLE, 0);
		for (int i = 0; i < GETPIDS; i++)
			my_syscall0(__NR_getpid);
		ioctl(lead, PERF_EVENT_IOC_DISABLE, 0);
		loop_a(1 + (run * 37 % 100) * 800);
		if (read(lead, v, sizeof(v)) != sizeof(v) || v[2] != 0 || run < 2)
			continue;	/* runs 0 and 1 warm up */
		if (!clean++)
			first = (long)v[1];
		differ += (long)v[1] != first;
	}
	printf("perf-hw: %ld kernel instructions per getpid(), with the ioctls\n",
	       first / GETPIDS);
	report("kernel-instructions", clean >= 3 && differ == 0 && first > GETPIDS * 20,
	       "%ld in each of the runs without interrupts, %ld differ", first, differ);
	close(irqs);
	close(lead);
}

static void check_sampling(void)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *meta;
	unsigned long long head, off, counted, expect;
	long samples = 0, in_a = 0, in_b = 0, elsewhere = 0, lost = 0;
	unsigned char *data;
	unsigned long size;
	long fd, cfd;

	event_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, 0);
	attr.sample_period = PERIOD;
	attr.sample_type = PERF_SAMPLE_IP;
	fd = perf_open(&attr, -1);
	cfd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, 0);
	report("open-sampling", fd >= 0 && cfd >= 0, "fd %ld, counting fd %ld", fd, cfd);
	if (fd < 0 || cfd < 0)
		return;
	meta = mmap(NULL, (1 + DATA_PAGES) * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (meta == MAP_FAILED) {
		report("mmap", 0, "errno %ld%.0ld", errno, 0);
		return;
	}
	ioctl(cfd, PERF_EVENT_IOC_ENABLE, 0);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	loop_a(900000);
	loop_b(100000);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	ioctl(cfd, PERF_EVENT_IOC_DISABLE, 0);
	counted = read_count(cfd);

	head = meta->data_head;
	__sync_synchronize();
	data = ring_data(meta, PAGE, DATA_PAGES, &size);
	for (off = meta->data_tail; off < head; ) {
		struct perf_event_header hdr;
		unsigned long long rec[4];
		unsigned long ip;

		ring_copy(&hdr, data, size, off, sizeof(hdr));
		if (hdr.size < sizeof(hdr))
			break;
		if (hdr.size <= sizeof(rec))
			ring_copy(rec, data, size, off, hdr.size);
		off += hdr.size;
		if (hdr.type == PERF_RECORD_LOST) {
			lost += rec[2];
			continue;
		}
		if (hdr.type != PERF_RECORD_SAMPLE)
			continue;
		samples++;
		ip = rec[1];
		if (ip >= (unsigned long)loop_a_start && ip < (unsigned long)loop_a_end)
			in_a++;
		else if (ip >= (unsigned long)loop_b_start && ip < (unsigned long)loop_b_end)
			in_b++;
		else
			elsewhere++;
	}
	expect = (unsigned long)counted / PERIOD;	/* no 64-bit division in libgcc here */
	printf("perf-hw: %ld instructions counted alongside: %ld periods of %ld\n",
	       (long)counted, (long)expect, (long)PERIOD);
	report("samples-per-period", lost == 0 && samples + 2 >= (long)expect &&
	       samples <= (long)expect + 2, "%ld samples, %ld lost", samples, lost);
	/* 2.7M instructions in loop_a, 0.3M in loop_b */
	printf("perf-hw: %ld samples outside both loops\n", elsewhere);
	report("samples-in-loops", elsewhere <= 1 && in_a * 100 > samples * 85 &&
	       in_b * 100 > samples * 6 && in_b * 100 < samples * 14,
	       "%ld in loop_a, %ld in loop_b", in_a, in_b);
	munmap(meta, (1 + DATA_PAGES) * PAGE);
	close(fd);
	close(cfd);
}

static void check_multiplexing(void)
{
	struct perf_event_attr attr;
	unsigned long long v[3][3];
	long fd[3];
	int i, ok = 1, multiplexed = 0;

	event_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 1, 0);
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	for (i = 0; i < 3; i++)
		fd[i] = perf_open(&attr, -1);
	report("open-three", fd[0] >= 0 && fd[1] >= 0 && fd[2] >= 0, "fds %ld, %ld and more",
	       fd[0], fd[1]);
	if (fd[0] < 0 || fd[1] < 0 || fd[2] < 0)
		return;
	for (i = 0; i < 3; i++)
		ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
	loop_a(3000000);	/* 9M instructions: many multiplexing rotations */
	for (i = 0; i < 3; i++)
		ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
	for (i = 0; i < 3; i++) {
		if (read(fd[i], v[i], sizeof(v[i])) != sizeof(v[i]))
			ok = 0;
		ok &= v[i][0] > 0 && v[i][2] > 0 && v[i][2] <= v[i][1];
		multiplexed += v[i][2] < v[i][1];
		close(fd[i]);
	}
	for (i = 0; i < 3; i++)
		printf("perf-hw: event %d: %ld instructions, running %ld of %ld ns\n", i,
		       (long)v[i][0], (long)v[i][2], (long)v[i][1]);
	report("multiplexed", ok && multiplexed >= 1, "%ld of 3 multiplexed, all counting: %ld",
	       multiplexed, ok);
}

static void check_refused(void)
{
	long fd;

	fd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES, 1, 0);
	report("unsupported-hw-event", fd == -EOPNOTSUPP, "cache-misses: %ld%.0ld", fd, 0);
	if (fd >= 0)
		close(fd);
	fd = open_event(PERF_TYPE_RAW, 63, 1, 1);
	report("unknown-raw-event", fd == -EINVAL, "raw 63: %ld%.0ld", fd, 0);
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	check_exact_instructions();
	check_cycles_group();
	check_exceptions();
	check_kernel_instructions();
	check_sampling();
	check_multiplexing();
	check_refused();
	return failures;
}
