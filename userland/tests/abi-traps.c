// SPDX-License-Identifier: GPL-2.0
/*
 * Trap codes, exact fault addresses, misaligned user accesses and the
 * signal frame layout, each checked against what MIPS Linux gives.
 */
#include "libc.h"

#ifndef SI_KERNEL
#define SI_KERNEL	0x80
#endif

static int failures;
static volatile unsigned long page_unmapped, page_ro, page_rw;

static void check(const char *what, void (*fn)(void), int signo, int code,
		  unsigned long addr)
{
	struct fault_report r;
	int ret = catch_fault(fn, &r);
	int ok = ret == 1 && r.signo == signo && r.code == code &&
		 r.addr == addr;

	printf("abi-traps: %s: sig %d code %d addr %lx (want %d %d %lx): %s\n",
	       what, r.signo, r.code, r.addr, signo, code, addr,
	       ok ? "ok" : "FAIL");
	failures += !ok;
}

/* Each trap instruction at a known address (label name_pc). */
#define TRAP_FN(name, insn)						\
	extern char name##_pc[];					\
	static void name(void)						\
	{								\
		__asm__ volatile(".globl " #name "_pc\n"		\
				 #name "_pc: " insn "\n");		\
	}

TRAP_FN(break_plain, "break")
TRAP_FN(break_5, "break 5")
TRAP_FN(break_6, "break 6")
TRAP_FN(break_7, "break 7")
TRAP_FN(break_0_7, "break 0, 7")
TRAP_FN(teq_7, "teq $0, $0, 7")
TRAP_FN(teq_6, "teq $0, $0, 6")
TRAP_FN(teq_3, "teq $0, $0, 3")

static volatile int zero;

static void divide_by_zero(void)
{
	volatile int x = 10 / zero;
	(void)x;
}

/* Loads and stores at odd addresses of unmapped/read-only/mapped pages. */
#define ACCESS_FN(name, insn, page, off)				\
	static void name(void)						\
	{								\
		__asm__ volatile(insn " $t0, " #off "(%0)"		\
				 : : "r"(page) : "t0", "memory");	\
	}

ACCESS_FN(lb_unmapped, "lb", page_unmapped, 3)
ACCESS_FN(lbu_unmapped, "lbu", page_unmapped, 0x7ff)
ACCESS_FN(lh_unmapped, "lh", page_unmapped, 6)
ACCESS_FN(lwl_unmapped, "lwl", page_unmapped, 0x13)
ACCESS_FN(lwr_unmapped, "lwr", page_unmapped, 0x21)
ACCESS_FN(sb_ro, "sb", page_ro, 5)
ACCESS_FN(sh_ro, "sh", page_ro, 0xa)
ACCESS_FN(swr_ro, "swr", page_ro, 0x37)
ACCESS_FN(lw_misaligned_unmapped, "lw", page_unmapped, 1)
ACCESS_FN(lw_misaligned, "lw", page_rw, 2)
ACCESS_FN(sw_misaligned, "sw", page_rw, 0x43)
ACCESS_FN(lh_misaligned, "lh", page_rw, 0x11)

/*
 * The signal frame: a handler built at -O0 stores a0-a2 into the o32
 * argument save area at its entry sp, which must not overlap siginfo.
 */
extern char frame_fault_pc[];
static struct { int sig, signo, code; unsigned long addr, epc, sp_ok; } *frame_seen;

__attribute__((optimize("O0")))
static void frame_handler(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;

	frame_seen->sig = sig;
	frame_seen->signo = si->si_signo;
	frame_seen->code = si->si_code;
	frame_seen->addr = (unsigned long)si->si_addr;
	frame_seen->epc = uc->uc_mcontext.regs.epc;
	frame_seen->sp_ok = ((unsigned long)si & 7) == 0 &&
			    (unsigned long)uc > (unsigned long)si;
	sys_exit(0);
}

static void check_signal_frame(void)
{
	int status = 0, ok;
	pid_t pid;

	pid = fork();
	if (pid == 0) {
		sigaction_info(SIGSEGV, frame_handler, 0);
		__asm__ volatile(".globl frame_fault_pc\n"
				 "frame_fault_pc: lb $t0, 9(%0)"
				 : : "r"(page_unmapped) : "t0");
		sys_exit(42);
	}
	waitpid(pid, &status, 0);
	ok = frame_seen->sig == SIGSEGV && frame_seen->signo == SIGSEGV &&
	     frame_seen->code == SEGV_MAPERR &&
	     frame_seen->addr == page_unmapped + 9 &&
	     frame_seen->epc == (unsigned long)frame_fault_pc &&
	     frame_seen->sp_ok;
	printf("abi-traps: signal-frame-O0: sig %d signo %d code %d addr %lx epc %lx (want %d %d %d %lx %lx): %s\n",
	       frame_seen->sig, frame_seen->signo, frame_seen->code,
	       frame_seen->addr, frame_seen->epc, SIGSEGV, SIGSEGV,
	       SEGV_MAPERR, page_unmapped + 9, (unsigned long)frame_fault_pc,
	       ok ? "ok" : "FAIL");
	failures += !ok;
}

int main(void)
{
	unsigned long u, ro, rw;

	/*
	 * Trap-immediate instructions (teqi...) are not tested: TSAR decodes
	 * every REGIMM encoding as a branch (hardware reference 1.1).
	 * The unmapped page is unmapped last so no later mmap reuses it.
	 */
	catch_fault_init();
	frame_seen = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ro = (unsigned long)mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	rw = (unsigned long)mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	u = (unsigned long)mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	munmap((void *)u, 4096);
	page_unmapped = u;
	page_ro = ro;
	page_rw = rw;

	check("break", break_plain, SIGTRAP, TRAP_BRKPT, 0);
	check("break-5", break_5, SIGTRAP, TRAP_BRKPT, 0);
	check("break-6", break_6, SIGFPE, FPE_INTOVF, (unsigned long)break_6_pc);
	check("break-7", break_7, SIGFPE, FPE_INTDIV, (unsigned long)break_7_pc);
	check("break-0-7", break_0_7, SIGFPE, FPE_INTDIV, (unsigned long)break_0_7_pc);
	check("teq-7", teq_7, SIGFPE, FPE_INTDIV, (unsigned long)teq_7_pc);
	check("teq-6", teq_6, SIGFPE, FPE_INTOVF, (unsigned long)teq_6_pc);
	check("teq-3", teq_3, SIGTRAP, SI_KERNEL, 0);

	{
		struct fault_report r;
		int ret = catch_fault(divide_by_zero, &r);
		int ok = ret == 1 && r.signo == SIGFPE && r.code == FPE_INTDIV &&
			 r.addr == r.epc;

		printf("abi-traps: divide-by-zero: sig %d code %d: %s\n",
		       r.signo, r.code, ok ? "ok" : "FAIL");
		failures += !ok;
	}

	check("lb-unmapped+3", lb_unmapped, SIGSEGV, SEGV_MAPERR, u + 3);
	check("lbu-unmapped+7ff", lbu_unmapped, SIGSEGV, SEGV_MAPERR, u + 0x7ff);
	check("lh-unmapped+6", lh_unmapped, SIGSEGV, SEGV_MAPERR, u + 6);
	check("lwl-unmapped+13", lwl_unmapped, SIGSEGV, SEGV_MAPERR, u + 0x13);
	check("lwr-unmapped+21", lwr_unmapped, SIGSEGV, SEGV_MAPERR, u + 0x21);
	check("sb-readonly+5", sb_ro, SIGSEGV, SEGV_ACCERR, ro + 5);
	check("sh-readonly+a", sh_ro, SIGSEGV, SEGV_ACCERR, ro + 0xa);
	check("swr-readonly+37", swr_ro, SIGSEGV, SEGV_ACCERR, ro + 0x37);

	/* Policy: misaligned user accesses are not emulated (SIGBUS). */
	check("lw-misaligned-unmapped+1", lw_misaligned_unmapped, SIGBUS, BUS_ADRALN, u + 1);
	check("lw-misaligned+2", lw_misaligned, SIGBUS, BUS_ADRALN, rw + 2);
	check("sw-misaligned+43", sw_misaligned, SIGBUS, BUS_ADRALN, rw + 0x43);
	check("lh-misaligned+11", lh_misaligned, SIGBUS, BUS_ADRALN, rw + 0x11);

	check_signal_frame();

	printf("abi-traps: %d failures\n", failures);
	return failures != 0;
}
