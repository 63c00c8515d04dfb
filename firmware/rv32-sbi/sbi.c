/*
 * portkit rv32-sbi: a minimal M-mode SBI implementation for QEMU virt,
 * RV32, written for portkit from the RISC-V privileged spec (1.12) and the
 * SBI spec (2.0). It exists because no riscv32 OpenSBI can be had here:
 * Debian 12 ships OpenSBI for riscv64 only, qemu-system-misc no riscv32
 * firmware, and the OpenSBI source tarball cannot be fetched.
 *
 * What it does, and why:
 *  - M-mode setup of each hart: trap vector, PMP (S-mode may use all but
 *    the shim's 4 MiB), delegation of S traps and interrupts, counters.
 *  - The DTB's /memory starts past the shim, so that Linux neither maps
 *    nor allocates it (no reserved-memory node needed: edited in place).
 *  - SBI: BASE, TIME (CLINT mtimecmp, MTIP -> STIP), IPI and RFENCE
 *    (CLINT msip), HSM (start/stop/status), SRST (sifive_test device:
 *    QEMU exits with a status), DBCN and the legacy console (ns16550).
 *  - Boot: the first hart enters the kernel in S-mode with a0 = hartid,
 *    a1 = the DTB (fw_jump-like; the address comes from QEMU's
 *    fw_dynamic_info, else 0x80400000); the others park for hart_start.
 *  - Misaligned loads/stores are not emulated here: they are delegated to
 *    S-mode, where Linux emulates them (CONFIG_RISCV_MISALIGNED), and
 *    QEMU does plain loads/stores unaligned without trapping anyway.
 */
#include "sbi.h"

/* ---- QEMU virt's devices (hw/riscv/virt.c memory map) ---- */
#define UART_BASE	0x10000000u	/* ns16550a, reg-shift 0 */
#define TEST_BASE	0x00100000u	/* sifive_test: finisher */
#define CLINT_BASE	0x02000000u
#define CLINT_MSIP(h)	(CLINT_BASE + 4u * (h))
#define CLINT_MTIMECMP(h) (CLINT_BASE + 0x4000u + 8u * (h))
#define DRAM_BASE	0x80000000u
#define FW_SIZE		0x00400000u	/* QEMU aligns an rv32 kernel to 4 MiB */
#define KERNEL_DEFAULT	(DRAM_BASE + FW_SIZE)

/* sifive_test finisher codes: QEMU exits 0, exits (code), or resets */
#define TEST_PASS	0x5555u
#define TEST_FAIL	0x3333u
#define TEST_RESET	0x7777u

/* ---- CSR access ---- */
#define csr_read(c) ({ uint32_t __v; \
	__asm__ volatile("csrr %0, " #c : "=r"(__v)); __v; })
#define csr_write(c, v) __asm__ volatile("csrw " #c ", %0" :: "rK"(v))
#define csr_set(c, v) __asm__ volatile("csrs " #c ", %0" :: "rK"(v))
#define csr_clear(c, v) __asm__ volatile("csrc " #c ", %0" :: "rK"(v))

/* mip/mie bits */
#define IP_SSIP	(1u << 1)
#define IP_MSIP	(1u << 3)
#define IP_STIP	(1u << 5)
#define IP_MTIP	(1u << 7)
#define IP_SEIP	(1u << 9)

static inline void w8(uint32_t a, uint8_t v) { *(volatile uint8_t *)a = v; }
static inline uint8_t r8(uint32_t a) { return *(volatile uint8_t *)a; }
static inline void w32(uint32_t a, uint32_t v) { *(volatile uint32_t *)a = v; }

/* ---- SBI numbers (SBI spec 2.0) ---- */
#define SBI_SUCCESS		0
#define SBI_ERR_FAILED		-1
#define SBI_ERR_NOT_SUPPORTED	-2
#define SBI_ERR_INVALID_PARAM	-3
#define SBI_ERR_INVALID_ADDRESS	-5
#define SBI_ERR_ALREADY_AVAILABLE -6

#define EXT_LEGACY_SET_TIMER	0x00
#define EXT_LEGACY_PUTCHAR	0x01
#define EXT_LEGACY_GETCHAR	0x02
#define EXT_LEGACY_SHUTDOWN	0x08
#define EXT_BASE	0x10
#define EXT_TIME	0x54494D45	/* "TIME" */
#define EXT_IPI		0x00735049	/* "sPI" */
#define EXT_RFENCE	0x52464E43	/* "RFNC" */
#define EXT_HSM		0x0048534D	/* "HSM" */
#define EXT_SRST	0x53525354	/* "SRST" */
#define EXT_DBCN	0x4442434E	/* "DBCN" */

#define SPEC_VERSION	((2u << 24) | 0)	/* v2.0 (needed for Linux to use DBCN) */
#define IMPL_ID		0x504b		/* "PK": not a registered SBI implementation ID */
#define IMPL_VERSION	1

/* HSM states (SBI spec); ABSENT is ours: a hart that never came up */
#define HSM_STARTED		0
#define HSM_STOPPED		1
#define HSM_START_PENDING	2
#define HSM_ABSENT		0xff

/* Per-hart state. In .data (initialized), so that a reset brings it back
 * (QEMU reloads the ELF); requests from other harts are atomics here. */
struct hart {
	volatile uint32_t state;
	volatile uint32_t start_addr, opaque;	/* hart_start's */
	volatile uint32_t ipi;			/* 1: raise SSIP */
	volatile uint32_t fence_req;		/* tickets asked ... */
	volatile uint32_t fence_done;		/* ... and served */
};
#define HART_INIT { HSM_ABSENT, 0, 0, 0, 0, 0 }
__attribute__((section(".data"))) static struct hart harts[MAX_HARTS] = {
	HART_INIT, HART_INIT, HART_INIT, HART_INIT,
	HART_INIT, HART_INIT, HART_INIT, HART_INIT,
};
__attribute__((section(".data"))) uint32_t boot_lottery = 0;

extern char trap_vector[];

/* ---- console: ns16550 ---- */
static void uart_putc(char c)
{
	while (!(r8(UART_BASE + 5) & 0x20))	/* LSR.THRE */
		;
	w8(UART_BASE, c);
}

static int uart_getc(void)
{
	if (!(r8(UART_BASE + 5) & 0x01))	/* LSR.DR */
		return -1;
	return r8(UART_BASE);
}

static void puts_(const char *s)
{
	for (; *s; s++) {
		if (*s == '\n')
			uart_putc('\r');
		uart_putc(*s);
	}
}

static void puthex(uint32_t v)
{
	puts_("0x");
	for (int i = 28; i >= 0; i -= 4)
		uart_putc("0123456789abcdef"[(v >> i) & 15]);
}

static void finish(uint32_t code) __attribute__((noreturn));
static void finish(uint32_t code)
{
	w32(TEST_BASE, code);
	for (;;)
		__asm__ volatile("wfi");
}

/* ---- M-mode setup of a hart ---- */
static void hart_setup(void)
{
	/* PMP: QEMU denies S/U every access that no PMP entry allows. Entry 0
	 * (NAPOT, no permission) keeps S out of the shim's 4 MiB; entry 1
	 * (NAPOT, all ones: the whole 34-bit space) lets S do the rest. */
	csr_write(pmpaddr0, (DRAM_BASE >> 2) | ((FW_SIZE >> 3) - 1));
	csr_write(pmpaddr1, 0xffffffffu);
	csr_write(pmpcfg0, (0x18u << 0) | ((0x18u | 7u) << 8));

	/* Delegate to S what Linux handles itself: exceptions 0-8 but
	 * ecall-from-S (9, ours) and the page faults 12, 13, 15 (misaligned
	 * accesses 4 and 6 included); interrupts SSIP, STIP, SEIP (the PLIC's
	 * S context drives SEIP). */
	csr_write(medeleg, 0x1ffu | (1u << 12) | (1u << 13) | (1u << 15));
	csr_write(mideleg, IP_SSIP | IP_STIP | IP_SEIP);

	/* S/U may read cycle, time, instret (rdtime is Linux's clock). */
	csr_write(mcounteren, 7);
	/* menvcfgh.STCE (bit 63 of menvcfg): if the hart has Sstc and the DT
	 * says so, Linux writes stimecmp itself, which traps unless M allows
	 * it. On a hart without menvcfgh this traps, and early_trap skips it. */
	csr_set(0x31a, 1u << 31);

	csr_write(mtvec, (uint32_t)trap_vector);
	/* M timer and software interrupts reach M even while S runs (M
	 * interrupts are always on below M); MTIE is set by set_timer. */
	csr_write(mie, IP_MSIP);
}

/* ---- DTB: /memory starts past the shim ----
 * Minimal flattened-DT walk (DT spec 0.4, ch. 5): find the "reg" of the
 * root's memory@... node and move its base up by FW_SIZE in place (the
 * property keeps its size). QEMU virt: #address-cells = #size-cells = 2. */
static uint32_t be32(const void *p)
{
	const uint8_t *b = p;
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static void put_be32(void *p, uint32_t v)
{
	uint8_t *b = p;
	b[0] = v >> 24; b[1] = v >> 16; b[2] = v >> 8; b[3] = v;
}

static int str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static int starts_with(const char *s, const char *p)
{
	while (*p && *s == *p)
		s++, p++;
	return !*p;
}

static int dtb_carve_memory(uint8_t *fdt)
{
	if (be32(fdt) != 0xd00dfeed)
		return -1;
	uint8_t *p = fdt + be32(fdt + 8);		/* off_dt_struct */
	const char *strs = (const char *)fdt + be32(fdt + 12);
	int depth = 0, in_mem = 0, done = 0;

	for (;;) {
		uint32_t tok = be32(p);
		p += 4;
		if (tok == 1) {				/* BEGIN_NODE */
			const char *name = (const char *)p;
			depth++;
			in_mem = depth == 2 && starts_with(name, "memory");
			while (*p++)
				;
			p = (uint8_t *)(((uint32_t)p + 3) & ~3u);
		} else if (tok == 2) {			/* END_NODE */
			depth--;
			in_mem = 0;
		} else if (tok == 3) {			/* PROP */
			uint32_t len = be32(p), nameoff = be32(p + 4);
			uint8_t *val = p + 8;
			if (in_mem && str_eq(strs + nameoff, "reg")) {
				/* one (base, size) pair, 2 + 2 cells or 1 + 1 */
				int cells = len == 16 ? 2 : len == 8 ? 1 : 0;
				if (!cells)
					return -1;
				uint32_t base = be32(val + 4 * (cells - 1));
				uint32_t size = be32(val + 4 * (2 * cells - 1));
				if (base == DRAM_BASE && size > FW_SIZE) {
					put_be32(val + 4 * (cells - 1), base + FW_SIZE);
					put_be32(val + 4 * (2 * cells - 1), size - FW_SIZE);
					done = 1;
				}
			}
			p = val + ((len + 3) & ~3u);
		} else if (tok == 4) {			/* NOP */
		} else {				/* END, or garbage */
			return done ? 0 : -1;
		}
	}
}

/* ---- timer ---- */
static void set_timer(uint32_t hart, uint32_t lo, uint32_t hi)
{
	/* Write mtimecmp so that it never holds a smaller value in between
	 * (privileged spec 3.2.1's sequence for RV32). */
	w32(CLINT_MTIMECMP(hart) + 4, 0xffffffffu);
	w32(CLINT_MTIMECMP(hart), lo);
	w32(CLINT_MTIMECMP(hart) + 4, hi);
	/* The S timer interrupt is ours to drive: clear it until MTIP. */
	csr_clear(mip, IP_STIP);
	csr_set(mie, IP_MTIP);
}

/* ---- IPIs and remote fences: CLINT msip ---- */
static void local_fences(void)
{
	__asm__ volatile("sfence.vma\n\tfence.i" ::: "memory");
}

/* M software interrupt: another hart asked for SSIP and/or a fence. */
static void handle_msi(uint32_t me)
{
	struct hart *h = &harts[me];

	w32(CLINT_MSIP(me), 0);
	__asm__ volatile("fence" ::: "memory");
	if (__atomic_exchange_n(&h->ipi, 0, __ATOMIC_ACQ_REL))
		csr_set(mip, IP_SSIP);
	/* Every ticket taken before this load is served by the fence below
	 * (a full sfence.vma: the spec lets us flush more than asked). */
	uint32_t req = __atomic_load_n(&h->fence_req, __ATOMIC_ACQUIRE);
	if (req != h->fence_done) {
		local_fences();
		__atomic_store_n(&h->fence_done, req, __ATOMIC_RELEASE);
	}
}

/* Calls fn for each hart of (mask, base); base -1 means all harts. */
static long for_harts(uint32_t mask, uint32_t base, void (*fn)(uint32_t, uint32_t),
		      uint32_t me)
{
	if (base == 0xffffffffu) {
		for (uint32_t i = 0; i < MAX_HARTS; i++)
			if (harts[i].state != HSM_ABSENT)
				fn(i, me);
		return SBI_SUCCESS;
	}
	for (uint32_t i = 0; i < 32; i++) {
		if (!(mask & (1u << i)))
			continue;
		uint32_t t = base + i;
		if (t >= MAX_HARTS || harts[t].state == HSM_ABSENT)
			return SBI_ERR_INVALID_PARAM;
	}
	for (uint32_t i = 0; i < 32; i++)
		if (mask & (1u << i))
			fn(base + i, me);
	return SBI_SUCCESS;
}

static void ipi_one(uint32_t t, uint32_t me)
{
	(void)me;
	__atomic_store_n(&harts[t].ipi, 1, __ATOMIC_RELEASE);
	w32(CLINT_MSIP(t), 1);
}

static void fence_one(uint32_t t, uint32_t me)
{
	if (t == me) {
		local_fences();
		return;
	}
	if (harts[t].state != HSM_STARTED)	/* a stopped hart has no TLB to keep */
		return;
	uint32_t ticket = __atomic_add_fetch(&harts[t].fence_req, 1, __ATOMIC_ACQ_REL);
	w32(CLINT_MSIP(t), 1);
	/* Wait, serving our own requests meanwhile: two harts fencing each
	 * other must not wait for each other with interrupts off. */
	while ((int32_t)(__atomic_load_n(&harts[t].fence_done, __ATOMIC_ACQUIRE) - ticket) < 0)
		if (csr_read(mip) & IP_MSIP)
			handle_msi(me);
}

/* ---- HSM ---- */
void park_loop(void) __attribute__((noreturn));
void park_loop(void)
{
	uint32_t me = csr_read(mhartid);
	struct hart *h = &harts[me];

	csr_clear(mie, IP_MTIP);
	csr_clear(mip, IP_STIP | IP_SSIP);
	__atomic_store_n(&h->state, HSM_STOPPED, __ATOMIC_RELEASE);
	for (;;) {
		/* wfi wakes on a pending enabled interrupt (MSIP) even with
		 * mstatus.MIE off; no trap is taken in M. */
		__asm__ volatile("wfi");
		if (!(csr_read(mip) & IP_MSIP))
			continue;
		w32(CLINT_MSIP(me), 0);
		__atomic_exchange_n(&h->ipi, 0, __ATOMIC_ACQ_REL);
		h->fence_done = h->fence_req;
		if (__atomic_load_n(&h->state, __ATOMIC_ACQUIRE) == HSM_START_PENDING)
			break;
	}
	local_fences();
	__atomic_store_n(&h->state, HSM_STARTED, __ATOMIC_RELEASE);
	enter_s(me, h->opaque, h->start_addr);
}

static long hsm_start(uint32_t t, uint32_t addr, uint32_t opaque)
{
	if (t >= MAX_HARTS || harts[t].state == HSM_ABSENT)
		return SBI_ERR_INVALID_PARAM;
	if (addr < DRAM_BASE + FW_SIZE && addr >= DRAM_BASE)
		return SBI_ERR_INVALID_ADDRESS;
	uint32_t expect = HSM_STOPPED;
	harts[t].start_addr = addr;
	harts[t].opaque = opaque;
	if (!__atomic_compare_exchange_n(&harts[t].state, &expect, HSM_START_PENDING,
					 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return SBI_ERR_ALREADY_AVAILABLE;
	w32(CLINT_MSIP(t), 1);
	return SBI_SUCCESS;
}

/* ---- SRST: the sifive_test finisher ends QEMU ---- */
static long system_reset(uint32_t type, uint32_t reason)
{
	if (type == 0)			/* shutdown: exit 0, or 1 on "system failure" */
		finish(reason == 0 ? TEST_PASS : (1u << 16) | TEST_FAIL);
	if (type == 1 || type == 2)	/* cold, warm reboot */
		finish(TEST_RESET);
	return SBI_ERR_INVALID_PARAM;
}

/* ---- DBCN: the S buffer is a physical address; M reads it as is ---- */
static int bad_buffer(uint32_t lo, uint32_t hi, uint32_t n)
{
	return hi != 0 || lo + n < lo ||
	       (lo < DRAM_BASE + FW_SIZE && lo + n > DRAM_BASE);
}

static int extension_present(uint32_t ext)
{
	switch (ext) {
	case EXT_LEGACY_SET_TIMER: case EXT_LEGACY_PUTCHAR:
	case EXT_LEGACY_GETCHAR: case EXT_LEGACY_SHUTDOWN:
	case EXT_BASE: case EXT_TIME: case EXT_IPI: case EXT_RFENCE:
	case EXT_HSM: case EXT_SRST: case EXT_DBCN:
		return 1;
	}
	return 0;
}

/* One SBI call from S: a7 = extension, a6 = function, a0-a5 arguments;
 * returns a0 = error, a1 = value (legacy calls: a0 only). */
static void sbi_call(struct frame *f, uint32_t me)
{
	uint32_t ext = REG_A(f, 7), fid = REG_A(f, 6);
	uint32_t a0 = REG_A(f, 0), a1 = REG_A(f, 1), a2 = REG_A(f, 2);
	long err = SBI_SUCCESS;
	uint32_t val = 0;

	switch (ext) {
	case EXT_LEGACY_SET_TIMER:
		set_timer(me, a0, a1);
		REG_A(f, 0) = 0;
		return;
	case EXT_LEGACY_PUTCHAR:
		uart_putc(a0);
		REG_A(f, 0) = 0;
		return;
	case EXT_LEGACY_GETCHAR:
		REG_A(f, 0) = uart_getc();
		return;
	case EXT_LEGACY_SHUTDOWN:
		finish(TEST_PASS);
	case EXT_BASE:
		switch (fid) {
		case 0: val = SPEC_VERSION; break;
		case 1: val = IMPL_ID; break;
		case 2: val = IMPL_VERSION; break;
		case 3: val = extension_present(a0); break;
		case 4: val = csr_read(mvendorid); break;
		case 5: val = csr_read(marchid); break;
		case 6: val = csr_read(mimpid); break;
		default: err = SBI_ERR_NOT_SUPPORTED;
		}
		break;
	case EXT_TIME:
		if (fid == 0)
			set_timer(me, a0, a1);
		else
			err = SBI_ERR_NOT_SUPPORTED;
		break;
	case EXT_IPI:
		if (fid == 0)
			err = for_harts(a0, a1, ipi_one, me);
		else
			err = SBI_ERR_NOT_SUPPORTED;
		break;
	case EXT_RFENCE:
		/* 0 fence.i, 1 sfence.vma, 2 sfence.vma.asid: all served by a
		 * full flush; 3-6 are the hypervisor's (no H extension here). */
		if (fid <= 2)
			err = for_harts(a0, a1, fence_one, me);
		else
			err = SBI_ERR_NOT_SUPPORTED;
		break;
	case EXT_HSM:
		switch (fid) {
		case 0: err = hsm_start(a0, a1, a2); break;
		case 1: park();			/* hart_stop: never returns */
		case 2:
			if (a0 >= MAX_HARTS || harts[a0].state == HSM_ABSENT)
				err = SBI_ERR_INVALID_PARAM;
			else
				val = harts[a0].state;
			break;
		default: err = SBI_ERR_NOT_SUPPORTED;	/* hart_suspend */
		}
		break;
	case EXT_SRST:
		err = fid == 0 ? system_reset(a0, a1) : SBI_ERR_NOT_SUPPORTED;
		break;
	case EXT_DBCN:
		if (fid == 0 || fid == 1) {		/* write, read (a0 bytes at a2:a1) */
			if (bad_buffer(a1, a2, a0)) {
				err = SBI_ERR_INVALID_PARAM;
				break;
			}
			volatile uint8_t *b = (volatile uint8_t *)a1;
			for (val = 0; val < a0; val++) {
				if (fid == 0) {
					uart_putc(b[val]);
				} else {
					int c = uart_getc();
					if (c < 0)
						break;
					b[val] = c;
				}
			}
		} else if (fid == 2) {			/* write_byte */
			uart_putc(a0);
		} else {
			err = SBI_ERR_NOT_SUPPORTED;
		}
		break;
	default:
		err = SBI_ERR_NOT_SUPPORTED;
	}
	REG_A(f, 0) = (uint32_t)err;
	REG_A(f, 1) = val;
}

void trap_handler(struct frame *f)
{
	uint32_t cause = csr_read(mcause), me = csr_read(mhartid);

	if (cause & 0x80000000u) {
		switch (cause & 0x7fffffffu) {
		case 7:			/* MTIP: hand it to S as STIP */
			csr_clear(mie, IP_MTIP);
			csr_set(mip, IP_STIP);
			return;
		case 3:			/* MSIP: IPI or fence request */
			handle_msi(me);
			return;
		}
	} else if (cause == 9) {	/* ecall from S */
		sbi_call(f, me);
		csr_write(mepc, csr_read(mepc) + 4);
		return;
	}
	/* Anything else is a bug: say so and end QEMU with status 3. */
	puts_("rv32-sbi: unexpected trap mcause=");
	puthex(cause);
	puts_(" mepc=");
	puthex(csr_read(mepc));
	puts_(" mtval=");
	puthex(csr_read(mtval));
	puts_("\n");
	finish((3u << 16) | TEST_FAIL);
}

/* fw_dynamic_info, which QEMU's reset vector passes in a2 (the layout of
 * QEMU's include/hw/riscv/boot_opensbi.h): where the kernel is. */
struct dyninfo {
	uint32_t magic, version, next_addr, next_mode, options, boot_hart;
};
#define DYNINFO_MAGIC 0x4942534fu

void shim_main(uint32_t hartid, uint32_t dtb, const struct dyninfo *di, uint32_t lost)
	__attribute__((noreturn));
void shim_main(uint32_t hartid, uint32_t dtb, const struct dyninfo *di, uint32_t lost)
{
	hart_setup();
	if (lost)
		park();

	uint32_t kernel = KERNEL_DEFAULT;
	if (di && di->magic == DYNINFO_MAGIC && di->next_addr)
		kernel = di->next_addr;
	int dt = dtb_carve_memory((uint8_t *)dtb);

	puts_("rv32-sbi: portkit SBI v2.0 shim, boot hart ");
	puthex(hartid);
	puts_(", kernel ");
	puthex(kernel);
	puts_(", dtb ");
	puthex(dtb);
	puts_(dt ? " (no /memory to carve!)\n" : "\n");

	/* The boot hart is STARTED; every other hart that ran _start marks
	 * itself STOPPED in park_loop (a hart_start before then finds it
	 * ABSENT and fails: Linux starts its secondaries long after this). */
	harts[hartid].state = HSM_STARTED;
	enter_s(hartid, dtb, kernel);
}
