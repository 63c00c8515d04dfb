// SPDX-License-Identifier: GPL-2.0
/*
 * The syscall clobber ABI (spec abi.syscall.clobbers): after a syscall,
 * s0-s7, fp, gp, ra, sp and a0-a2 are as the caller had them, v0 is the
 * result and a3 the error flag, and the clobbered registers (at, v1,
 * t0-t9, hi, lo) are zero: never a kernel value. Checked on the fast way
 * out (a call that succeeds, one that fails), on the full way out after a
 * signal handler ran (a read interrupted with EINTR, one restarted with
 * SA_RESTART), and through a wrapper that builds the full frame (fork:
 * the parent and the child).
 *
 * One line per case: "abi-clobbers: <case>: <details>: ok|FAIL".
 */
#include "libc.h"

#ifndef SA_RESTART
#define SA_RESTART	0x10000000
#endif

static int failures;

/* The value each register gets before the call (a0-a3: the arguments). */
#define PATTERN(r)	(0x5a000000UL + (r) * 0x10101UL)
#define HI_PATTERN	0x5a0a0a0aUL
#define LO_PATTERN	0x5a0b0b0bUL

/* The registers the ABI lets the syscall clobber: $1, $3, $8-$15, $24, $25. */
static int clobbered(int r)
{
	return r == 1 || r == 3 || (r >= 8 && r <= 15) || r == 24 || r == 25;
}

static const char *const names[32] = {
	"zero", "at", "v0", "v1", "a0", "a1", "a2", "a3",
	"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7",
	"s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7",
	"t8", "t9", "k0", "k1", "gp", "sp", "fp", "ra",
};

/*
 * Issue syscall in[0] with a0-a3 = in[1..4], every other register (but
 * k0, k1, sp) set to PATTERN(r), hi/lo to HI/LO_PATTERN. out[r] = $r after
 * the call (r = 1..31; k0, k1 and sp not stored), out[32] = hi,
 * out[33] = lo. The child of a fork comes back here too, on its copy.
 */
static void syscall_regs(const long in[5], unsigned long out[34])
{
	__asm__ volatile(
		".set\tpush\n\t.set\tnoreorder\n\t.set\tnoat\n\t"
		"addiu\t$sp, $sp, -192\n\t"
		"sw\t$16, 0($sp)\n\t"
		"sw\t$17, 4($sp)\n\t"
		"sw\t$18, 8($sp)\n\t"
		"sw\t$19, 12($sp)\n\t"
		"sw\t$20, 16($sp)\n\t"
		"sw\t$21, 20($sp)\n\t"
		"sw\t$22, 24($sp)\n\t"
		"sw\t$23, 28($sp)\n\t"
		"sw\t$28, 32($sp)\n\t"
		"sw\t$30, 36($sp)\n\t"
		"sw\t$31, 40($sp)\n\t"
		"sw\t%0, 44($sp)\n\t"
		"sw\t%1, 184($sp)\n\t"
		"li\t$1, 0x5a0a0a0a\n\t"	/* HI_PATTERN */
		"mthi\t$1\n\t"
		"li\t$1, 0x5a0b0b0b\n\t"	/* LO_PATTERN */
		"mtlo\t$1\n\t"
		"li\t$1, 0x5a010101\n\t"
		"li\t$3, 0x5a030303\n\t"
		"li\t$8, 0x5a080808\n\t"
		"li\t$9, 0x5a090909\n\t"
		"li\t$10, 0x5a0a0a0a\n\t"
		"li\t$11, 0x5a0b0b0b\n\t"
		"li\t$12, 0x5a0c0c0c\n\t"
		"li\t$13, 0x5a0d0d0d\n\t"
		"li\t$14, 0x5a0e0e0e\n\t"
		"li\t$15, 0x5a0f0f0f\n\t"
		"li\t$16, 0x5a101010\n\t"
		"li\t$17, 0x5a111111\n\t"
		"li\t$18, 0x5a121212\n\t"
		"li\t$19, 0x5a131313\n\t"
		"li\t$20, 0x5a141414\n\t"
		"li\t$21, 0x5a151515\n\t"
		"li\t$22, 0x5a161616\n\t"
		"li\t$23, 0x5a171717\n\t"
		"li\t$24, 0x5a181818\n\t"
		"li\t$25, 0x5a191919\n\t"
		"li\t$28, 0x5a1c1c1c\n\t"
		"li\t$30, 0x5a1e1e1e\n\t"
		"li\t$31, 0x5a1f1f1f\n\t"
		"lw\t$2, 184($sp)\n\t"
		"lw\t$4, 4($2)\n\t"
		"lw\t$5, 8($2)\n\t"
		"lw\t$6, 12($2)\n\t"
		"lw\t$7, 16($2)\n\t"
		"lw\t$2, 0($2)\n\t"
		"syscall\n\t"
		"sw\t$1, 52($sp)\n\t"
		"sw\t$2, 56($sp)\n\t"
		"sw\t$3, 60($sp)\n\t"
		"sw\t$4, 64($sp)\n\t"
		"sw\t$5, 68($sp)\n\t"
		"sw\t$6, 72($sp)\n\t"
		"sw\t$7, 76($sp)\n\t"
		"sw\t$8, 80($sp)\n\t"
		"sw\t$9, 84($sp)\n\t"
		"sw\t$10, 88($sp)\n\t"
		"sw\t$11, 92($sp)\n\t"
		"sw\t$12, 96($sp)\n\t"
		"sw\t$13, 100($sp)\n\t"
		"sw\t$14, 104($sp)\n\t"
		"sw\t$15, 108($sp)\n\t"
		"sw\t$16, 112($sp)\n\t"
		"sw\t$17, 116($sp)\n\t"
		"sw\t$18, 120($sp)\n\t"
		"sw\t$19, 124($sp)\n\t"
		"sw\t$20, 128($sp)\n\t"
		"sw\t$21, 132($sp)\n\t"
		"sw\t$22, 136($sp)\n\t"
		"sw\t$23, 140($sp)\n\t"
		"sw\t$24, 144($sp)\n\t"
		"sw\t$25, 148($sp)\n\t"
		"sw\t$28, 160($sp)\n\t"
		"sw\t$30, 168($sp)\n\t"
		"sw\t$31, 172($sp)\n\t"
		"mfhi\t$1\n\t"
		"sw\t$1, 176($sp)\n\t"
		"mflo\t$1\n\t"
		"sw\t$1, 180($sp)\n\t"
		/* out[0..33] = the words at 48..180 */
		"lw\t$8, 44($sp)\n\t"
		"addiu\t$9, $sp, 48\n\t"
		"addiu\t$10, $sp, 184\n"
		"1:\tlw\t$11, 0($9)\n\t"
		"addiu\t$9, $9, 4\n\t"
		"sw\t$11, 0($8)\n\t"
		"bne\t$9, $10, 1b\n\t"
		" addiu\t$8, $8, 4\n\t"
		"lw\t$16, 0($sp)\n\t"
		"lw\t$17, 4($sp)\n\t"
		"lw\t$18, 8($sp)\n\t"
		"lw\t$19, 12($sp)\n\t"
		"lw\t$20, 16($sp)\n\t"
		"lw\t$21, 20($sp)\n\t"
		"lw\t$22, 24($sp)\n\t"
		"lw\t$23, 28($sp)\n\t"
		"lw\t$28, 32($sp)\n\t"
		"lw\t$30, 36($sp)\n\t"
		"lw\t$31, 40($sp)\n\t"
		"addiu\t$sp, $sp, 192\n\t"
		".set\tpop"
		: : "r"(out), "r"(in)
		: "$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8", "$9", "$10",
		  "$11", "$12", "$13", "$14", "$15", "$24", "$25", "hi", "lo",
		  "memory");
}

/* Compare out[] with what the ABI promises; report the first difference. */
static void check(const char *what, const long in[5], const unsigned long out[34],
		  long v0, long a3)
{
	unsigned long want, bad_val = 0, bad_want = 0;
	const char *bad = "none";
	int r;

	for (r = 1; r < 34 && !strcmp(bad, "none"); r++) {
		if (r == 26 || r == 27 || r == 29)
			continue;		/* k0, k1 (the kernel's), sp */
		if (r == 2)
			want = v0;
		else if (r == 7)
			want = a3;
		else if (r >= 4 && r <= 6)
			want = in[r - 3];
		else if (r >= 32 || clobbered(r))
			want = 0;
		else
			want = PATTERN(r);
		if (out[r] != want) {
			bad = r == 32 ? "hi" : r == 33 ? "lo" : names[r];
			bad_val = out[r];
			bad_want = want;
		}
	}
	printf("abi-clobbers: %s: v0 %ld a3 %ld t0 %lx s0 %lx hi %lx, first wrong register %s",
	       what, (long)out[2], (long)out[7], out[8], out[16], out[32], bad);
	if (strcmp(bad, "none"))
		printf(" = %lx (want %lx)", bad_val, bad_want);
	printf(": %s\n", strcmp(bad, "none") ? "FAIL" : "ok");
	failures += !!strcmp(bad, "none");
}

/*
 * A handler that dirties the clobbered registers (sigreturn must undo it)
 * and, when note_fd is set, tells the child it ran.
 */
static volatile int handled;
static int note_fd = -1;

static void handler(int sig)
{
	handled++;
	if (note_fd >= 0)
		write(note_fd, "n", 1);
	__asm__ volatile(".set push\n\t.set noat\n\t"
			 "li $8, 0x0badbad8\n\tli $9, 0x0badbad9\n\t"
			 "li $24, 0x0badba24\n\tli $1, 0x0badbad1\n\t"
			 "mthi $8\n\tmtlo $9\n\t.set pop"
			 : : : "$1", "$8", "$9", "$24", "hi", "lo");
}

/* The state letter of /proc/<pid>/stat ('S': asleep, here in the read). */
static char proc_state(pid_t pid)
{
	char path[32] = "/proc/", buf[128];
	int fd, n;
	char *p;

	memcpy(path + 6 + utoa_r(pid, path + 6), "/stat", 6);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return '?';
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return '?';
	buf[n] = 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : '?';
}

static void wait_asleep(pid_t pid)
{
	int i;

	for (i = 0; i < 100000 && proc_state(pid) != 'S'; i++)
		sched_yield();
}

/*
 * A read of an empty pipe, interrupted by SIGUSR1 from a child once the
 * read sleeps: EINTR without SA_RESTART; with it, the call restarts and
 * gets the byte the child writes once the handler has run (the handler
 * tells it through a second pipe) and the read sleeps again.
 */
static void check_interrupted(int restart)
{
	int data[2], note[2], status;
	unsigned long out[34];
	pid_t parent = getpid(), pid;
	char byte = 0;
	long in[5];

	pipe(data);
	pipe(note);
	handled = 0;
	note_fd = restart ? note[1] : -1;
	sigaction_simple(SIGUSR1, handler, restart ? SA_RESTART : 0);
	pid = fork();
	if (pid == 0) {
		wait_asleep(parent);
		kill(parent, SIGUSR1);
		if (restart) {
			read(note[0], &byte, 1);	/* the handler ran */
			wait_asleep(parent);		/* back in the read */
			write(data[1], "x", 1);
		}
		exit(0);
	}
	in[0] = __NR_read;
	in[1] = data[0];
	in[2] = (long)&byte;
	in[3] = 1;
	in[4] = 0x7777;
	memset(out, 0, sizeof(out));
	syscall_regs(in, out);
	waitpid(pid, &status, 0);
	if (restart)
		check("signal-restarted-read", in, out, 1, 0);
	else
		check("signal-interrupted-read", in, out, EINTR, 1);
	printf("abi-clobbers: %s: handler ran %d time(s), byte %c: %s\n",
	       restart ? "restart-handler" : "eintr-handler", handled,
	       byte ? byte : '-', handled == 1 && byte == (restart ? 'x' : 0) ? "ok" : "FAIL");
	failures += !(handled == 1 && byte == (restart ? 'x' : 0));
	note_fd = -1;
	close(data[0]);
	close(data[1]);
	close(note[0]);
	close(note[1]);
}

int main(void)
{
	unsigned long out[34];
	long in[5];
	int fds[2], status;
	long ppid = getppid();

	/* The fast way out: a call that succeeds, one that fails (EBADF). */
	in[0] = __NR_getppid;
	in[1] = PATTERN(4);
	in[2] = PATTERN(5);
	in[3] = PATTERN(6);
	in[4] = PATTERN(7);
	syscall_regs(in, out);
	check("fast-path-ok", in, out, ppid, 0);

	in[0] = __NR_close;
	in[1] = -1;
	syscall_regs(in, out);
	check("fast-path-error", in, out, EBADF, 1);

	check_interrupted(0);
	check_interrupted(1);

	/* fork: the wrapper's full frame, in the parent and in the child. */
	pipe(fds);
	in[0] = __NR_clone;
	in[1] = SIGCHLD;	/* clone(flags, newsp, parent_tid, tls, child_tid) */
	in[2] = 0;
	in[3] = 0;
	in[4] = 0;
	memset(out, 0, sizeof(out));
	syscall_regs(in, out);
	if (out[2] == 0 && out[7] == 0) {
		write(fds[1], out, sizeof(out));
		exit(0);
	}
	/* (pid 1 is never a child: a v0 <= 0 always fails) */
	check("fork-parent", in, out, (long)out[2] > 0 ? (long)out[2] : 1, 0);
	if (read(fds[0], out, sizeof(out)) == sizeof(out)) {
		check("fork-child", in, out, 0, 0);
	} else {
		printf("abi-clobbers: fork-child: no registers from the child: FAIL\n");
		failures++;
	}
	waitpid(-1, &status, 0);

	printf("abi-clobbers: %d failures\n", failures);
	return failures != 0;
}
