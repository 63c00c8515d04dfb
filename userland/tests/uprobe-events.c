// SPDX-License-Identifier: GPL-2.0
/*
 * Uprobe events through tracefs (UPROBE_EVENTS, the debug variant), on
 * functions of this program's own binary, at file offsets found through
 * /proc/self/maps (the text mapping that holds each function):
 *
 * - an entry probe on upe_mix(a, b, tag) fetching its arguments by
 *   arch/mips register name (%r4), by o32 name (%a1) and through a
 *   pointer into user memory (+0(%a2):string), and a return probe with
 *   $retval (%r2 for upe_fact);
 * - entry and return probes on the recursive upe_fact(n): nested return
 *   probes, each return through the XOL page's trampoline;
 * - probes that must be refused, on upe_atomic_inc (ll, sc, a branch and
 *   its delay slot, jr and its delay slot: EINVAL) and on upe_getpid's
 *   syscall (ENOTSUPP, 524). A uprobe is checked when it is registered,
 *   i.e. when its event is enabled: each is enabled alone.
 *
 * upe_mix and upe_fact run UPE_CALLS times with the probes enabled and
 * must give the results they gave unprobed. The host test
 * (tests/boot/test_debug_kernel.py) checks the trace lines against what
 * this program prints: "uprobe-events: mix a A b B tag T ret R", ...
 */
#include "libc.h"
#include "tracefs.h"

#define UPE_CALLS	5
#define ENOTSUPP	524	/* the kernel's own errno, as the write returns it */

/* noipa: no clone, no inlining, no assumption about the callers' values. */
__attribute__((noipa)) int upe_mix(int a, int b, const char *tag)
{
	return a * 3 + b + tag[0];
}

__attribute__((noipa)) int upe_fact(int n)
{
	int r;

	if (n <= 1)
		return 1;
	r = upe_fact(n - 1);
	/* Keep a real call: no accumulator loop. */
	__asm__ volatile("" : "+r" (r));
	return r * n;
}

#define UPE_STR_(x)	#x
#define UPE_STR(x)	UPE_STR_(x)

/* Words a uprobe cannot step out of line, at known offsets. */
int upe_atomic_inc(int *p);
int upe_getpid(void);
__asm__(".text\n"
	"	.globl	upe_atomic_inc\n"
	"	.type	upe_atomic_inc, @function\n"
	"	.set	push\n"
	"	.set	noreorder\n"
	"upe_atomic_inc:\n"
	/* ll as a word: gas would put a sync before the mnemonic. */
	"1:	.word	0xc0820000\n"		/* +0: ll $2, 0($4) */
	"	addiu	$2, $2, 1\n"		/* +4 */
	"	sc	$2, 0($4)\n"		/* +8 */
	"	beqz	$2, 1b\n"		/* +12 */
	"	 nop\n"				/* +16: delay slot */
	"	jr	$31\n"			/* +20 */
	"	 lw	$2, 0($4)\n"		/* +24: delay slot */
	"	.set	pop\n"
	"	.size	upe_atomic_inc, . - upe_atomic_inc\n"
	"	.globl	upe_getpid\n"
	"	.type	upe_getpid, @function\n"
	"	.set	push\n"
	"	.set	noreorder\n"
	"upe_getpid:\n"
	"	li	$2, " UPE_STR(__NR_getpid) "\n"	/* +0 */
	"	syscall\n"			/* +4 */
	"	jr	$31\n"
	"	 nop\n"
	"	.set	pop\n"
	"	.size	upe_getpid, . - upe_getpid\n");

static const struct {
	int off;
	int errno_expected;
	const char *what;
} refused[] = {
	{ 0, EINVAL, "ll" },
	{ 8, EINVAL, "sc" },
	{ 12, EINVAL, "beqz" },
	{ 16, EINVAL, "delay-slot-of-beqz" },
	{ 20, EINVAL, "jr" },
	{ 24, EINVAL, "delay-slot-of-jr" },
};

static char exe[128];

static unsigned long hex(const char **s)
{
	unsigned long v = 0;
	int d;

	for (;; (*s)++) {
		d = **s;
		if (d >= '0' && d <= '9')
			d -= '0';
		else if (d >= 'a' && d <= 'f')
			d -= 'a' - 10;
		else
			return v;
		v = v * 16 + d;
	}
}

/*
 * The file offset of a text address, from the /proc/self/maps line of
 * the mapping that holds it ("start-end perms offset dev inode path");
 * the path goes to exe. -1 if none.
 */
static long file_offset(unsigned long addr)
{
	static char maps[8192];
	unsigned long start, end, off;
	int fd = open("/proc/self/maps", O_RDONLY, 0), len = 0, n;
	const char *p, *q;
	char *nl;

	if (fd < 0)
		return -1;
	while (len < (int)sizeof(maps) - 1 &&
	       (n = read(fd, maps + len, sizeof(maps) - 1 - len)) > 0)
		len += n;
	close(fd);
	maps[len] = 0;
	for (p = maps; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = 0;
		q = p;
		start = hex(&q);
		q++;
		end = hex(&q);
		q += 6;		/* " r-xp " */
		off = hex(&q);
		if (addr >= start && addr < end) {
			q = strchr(q, '/');
			if (q && strlen(q) < sizeof(exe))
				strcpy(exe, q);
			return q ? (long)(addr - start + off) : -1;
		}
	}
	return -1;
}

/* "p:upe/NAME EXE:0xOFF ARGS" (kind p or r) into def. */
static void probe_def(char *def, char kind, const char *name, long off,
		      const char *args)
{
	char *d = def;

	*d++ = kind;
	strcpy(d, ":upe/");
	strcpy(d + strlen(d), name);
	d += strlen(d);
	*d++ = ' ';
	strcpy(d, exe);
	d += strlen(d);
	strcpy(d, ":0x");
	d += 3;
	d += utoh_r(off, d);
	*d++ = ' ';
	strcpy(d, args);
}

static volatile int upe_args[UPE_CALLS][2] = {
	{ 0, -7 }, { 1, 93 }, { 2, 193 }, { 3, -293 }, { 4, 393 },
};
static const char *const upe_tags[UPE_CALLS] = { "alpha", "bravo", "C", "delta", "echo" };

int main(void)
{
	int mix_before[UPE_CALLS], fact_before[UPE_CALLS], r, i, err, bad = 0;
	long mix_off, fact_off, inc_off, pid_off;
	char def[256];
	volatile int counter = 0;
	unsigned int j;

	for (i = 0; i < UPE_CALLS; i++) {
		mix_before[i] = upe_mix(upe_args[i][0], upe_args[i][1], upe_tags[i]);
		fact_before[i] = upe_fact(i + 2);
	}
	mix_off = file_offset((unsigned long)upe_mix);
	fact_off = file_offset((unsigned long)upe_fact);
	inc_off = file_offset((unsigned long)upe_atomic_inc);
	pid_off = file_offset((unsigned long)upe_getpid);
	printf("uprobe-events: pid %d exe %s mix 0x%lx fact 0x%lx inc 0x%lx getpid 0x%lx\n",
	       getpid(), exe, mix_off, fact_off, inc_off, pid_off);
	if (mix_off < 0 || fact_off < 0 || inc_off < 0 || pid_off < 0 || !exe[0])
		return 1;

	err = tracefs_mount();
	if (err) {
		printf("uprobe-events: mount tracefs: errno %d\n", err);
		return 1;
	}
	/* Earlier programs' events (kprobe-events) out of the way. */
	tracefs_put("trace", "", O_TRUNC);

	probe_def(def, 'p', "mix", mix_off, "a=%r4:s32 b=%a1:s32 tag=+0(%a2):string");
	err = tracefs_put("uprobe_events", def, O_APPEND);
	printf("uprobe-events: define %s: errno %d\n", def, err);
	bad |= err;
	/*
	 * $retval: regs_return_value(), which must not take a3 (upe_mix's
	 * fourth argument register, nonzero here) for a system call's error
	 * flag in a function's return.
	 */
	probe_def(def, 'r', "mixret", mix_off, "ret=$retval:s32");
	err = tracefs_put("uprobe_events", def, O_APPEND);
	printf("uprobe-events: define %s: errno %d\n", def, err);
	bad |= err;
	probe_def(def, 'p', "fact", fact_off, "n=%a0:s32");
	err = tracefs_put("uprobe_events", def, O_APPEND);
	printf("uprobe-events: define %s: errno %d\n", def, err);
	bad |= err;
	probe_def(def, 'r', "factret", fact_off, "ret=%r2:s32");
	err = tracefs_put("uprobe_events", def, O_APPEND);
	printf("uprobe-events: define %s: errno %d\n", def, err);
	bad |= err;
	err = tracefs_put("events/upe/enable", "1", 0);
	printf("uprobe-events: enable: errno %d\n", err);
	bad |= err;

	for (i = 0; i < UPE_CALLS; i++) {
		r = upe_mix(upe_args[i][0], upe_args[i][1], upe_tags[i]);
		printf("uprobe-events: mix a %d b %d tag %s ret %d\n",
		       upe_args[i][0], upe_args[i][1], upe_tags[i], r);
		if (r != mix_before[i]) {
			printf("uprobe-events: mix %d probed %d unprobed %d\n", i, r,
			       mix_before[i]);
			bad = 1;
		}
	}
	r = upe_fact(5);
	printf("uprobe-events: fact n 5 ret %d\n", r);
	for (i = 0; i < UPE_CALLS; i++)
		bad |= upe_fact(i + 2) != fact_before[i];
	bad |= r != 120;
	printf("uprobe-events: results unchanged under probes: %s\n", bad ? "no" : "yes");

	err = tracefs_put("events/upe/enable", "0", 0);
	bad |= err;
	tracefs_print_trace("uprobe-events");
	bad |= tracefs_put("uprobe_events", "", O_TRUNC);

	/* Probes that must be refused, each enabled alone. */
	for (j = 0; j < sizeof(refused) / sizeof(refused[0]); j++) {
		probe_def(def, 'p', "refused", inc_off + refused[j].off, "");
		err = tracefs_put("uprobe_events", def, O_APPEND);
		if (!err) {
			err = tracefs_put("events/upe/refused/enable", "1", 0);
			if (!err)
				tracefs_put("events/upe/refused/enable", "0", 0);
			bad |= tracefs_put("uprobe_events", "-:upe/refused", O_APPEND);
		}
		printf("uprobe-events: refused %s +%d errno %d\n", refused[j].what,
		       refused[j].off, err);
		bad |= err != refused[j].errno_expected;
	}
	probe_def(def, 'p', "refused", pid_off + 4, "");
	err = tracefs_put("uprobe_events", def, O_APPEND);
	if (!err) {
		err = tracefs_put("events/upe/refused/enable", "1", 0);
		if (!err)
			tracefs_put("events/upe/refused/enable", "0", 0);
		bad |= tracefs_put("uprobe_events", "", O_TRUNC);
	}
	printf("uprobe-events: refused syscall +4 errno %d\n", err);
	bad |= err != ENOTSUPP;

	/* Nothing armed: the functions still do their work. */
	r = upe_atomic_inc((int *)&counter);
	r += upe_atomic_inc((int *)&counter);
	printf("uprobe-events: atomic_inc %d getpid %d\n", r, upe_getpid() == getpid());
	bad |= r != 3 || upe_getpid() != getpid();
	printf("uprobe-events: done\n");
	return bad ? 1 : 0;
}
