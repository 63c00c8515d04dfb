/*
 * emu.h - public API of the TSAR platform emulator library (libtsaremu.a).
 *
 * The library emulates one single-cluster TSAR platform: one MIPS32 core
 * (little-endian, R1 + the R2 subset of the hardware reference), the CP2
 * hardware-walked MMU, XICU, multi-TTY, block device and simhelper.  The
 * board (RAM banks, device addresses, IRQ wiring, clock) comes from a
 * device tree blob, or from a built-in default platform.
 *
 * Typical use:
 *
 *     temu_config cfg = { 0 };             // default platform, no disk
 *     char err[256];
 *     temu *e = temu_create(&cfg, err, sizeof err);
 *     temu_load_elf(e, buf, len, "prog.elf", err, sizeof err);
 *     temu_boot(e, err, sizeof err);       // DTB into RAM, a0..a3, reset
 *     while (temu_run(e, 1000000) == TEMU_STOP_LIMIT) ...
 *     temu_destroy(e);
 *
 * The library never calls exit(), never touches the terminal or stdin and
 * never installs signal handlers; host I/O goes through temu_host.
 * All functions are single-threaded with respect to one temu instance.
 */
#ifndef TSAR_EMU_H
#define TSAR_EMU_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct temu temu;

/* ---- host interface ---------------------------------------------------- */

/* Bits returned by temu_host.poll. */
#define TEMU_POLL_STOP 1u /* make temu_run() return TEMU_STOP_HOST now */
#define TEMU_POLL_LIVE 2u /* host input may still arrive: an idle guest is not hung */

typedef struct temu_host {
    void *opaque;
    /* Bytes written by the guest to TTY channel `channel`.  NULL: discarded. */
    void (*tty_out)(void *opaque, unsigned channel, const uint8_t *buf, size_t len);
    /*
     * Called every `poll_interval` instructions and whenever the guest idles
     * in `wait`.  timeout_ns = 0: must not block; > 0: may block up to that
     * long waiting for input; < 0: may block indefinitely.  New input is
     * handed over with temu_tty_input().  Returns TEMU_POLL_* bits.
     * NULL: no host input at all (an idle guest with no pending timer is hung).
     */
    unsigned (*poll)(void *opaque, temu *e, int64_t timeout_ns);
    /* An Ethernet frame (no FCS) the guest's NIC puts on the wire, when the
     * NIC's cable is in (temu_config.net_link).  NULL: the wire goes
     * nowhere.  It may call temu_net_input() (a reply) before returning. */
    void (*net_tx)(void *opaque, const uint8_t *frame, size_t len);
} temu_host;

/* How `wait` spends idle time (time always jumps to the next timer event). */
enum temu_idle_mode {
    TEMU_IDLE_SKIP = 0,  /* jump at once: deterministic, fastest (default) */
    TEMU_IDLE_SLEEP = 1, /* sleep the equivalent wall-clock time on the host */
};

#define TEMU_MAX_DISK_ERRORS 8

typedef struct temu_config {
    const void *dtb;          /* platform device tree; NULL = built-in default */
    size_t dtb_size;          /* size of the dtb buffer */
    const char *dtb_name;     /* name used in error messages (e.g. file name) */
    const char *bootargs;     /* non-NULL: replaces /chosen/bootargs */
    const char *disk_path;    /* block device backing file (read/write); NULL = none */
    const void *disk_data;    /* alternative: in-memory disk image (copied) */
    size_t disk_size;         /* size of disk_data in bytes (multiple of 512) */
    int disk_readonly;        /* the guest may not write the disk: its writes fail,
                                 and its DTB node gets a "read-only" property */
    /* Fault injection: a transfer touching blocks first..last (inclusive)
     * of one of these ranges ends in READ_ERROR / WRITE_ERROR. */
    int ndisk_errors;
    struct { uint64_t first, last; } disk_errors[TEMU_MAX_DISK_ERRORS];
    /* The NIC (if the platform has one): net_link = its cable is in (the
     * guest sees a carrier, frames go to temu_host.net_tx); net_required =
     * a network was asked for, so a platform without a NIC is an error. */
    int net_link;
    int net_required;
    int idle_mode;            /* enum temu_idle_mode */
    /* With TEMU_IDLE_SKIP: while the NIC receives from a cable (net_link,
     * net_tx), idle time follows the wall clock as with TEMU_IDLE_SLEEP, so
     * that the guest's network timeouts do not run ahead of the host. */
    int idle_net_sleep;
    uint32_t poll_interval;   /* instructions between host polls; 0 = 100000 */
    temu_host host;
    /*
     * Multi-CPU scheduling.  The CPUs run one at a time, each for a slot of
     * `quantum` instructions (0 = TEMU_DEFAULT_QUANTUM), round-robin in
     * order of their local time: a run is reproducible and its instruction
     * counts are exact.  With `randomize`, slot lengths and the order come
     * from a generator seeded with `seed` (same seed = same run).
     */
    uint32_t quantum;
    int randomize;
    uint64_t seed;
    /*
     * Execution tier: TEMU_ACCEL_DEFAULT takes the environment variable
     * TEMU_ACCEL ("interp" or "jit") when set, else the JIT where the build
     * has one (x86-64 hosts), the interpreter elsewhere.  TEMU_ACCEL=jit falls back to the interpreter in
     * a build without the JIT; TEMU_ACCEL_JIT fails there.
     */
    int accel;
    uint32_t jit_hot;         /* JIT: entries before a block is translated (0 = 64) */
} temu_config;

enum temu_accel {
    TEMU_ACCEL_DEFAULT = 0,
    TEMU_ACCEL_INTERP = 1, /* the block interpreter alone */
    TEMU_ACCEL_JIT = 2,    /* hot blocks translated to host code (x86-64) */
};
/* The tier in use (TEMU_ACCEL_INTERP or TEMU_ACCEL_JIT). */
int temu_accel(const temu *e);
/* Translation figures (all 0 with the interpreter). */
typedef struct temu_jit_figures {
    uint64_t blocks;       /* blocks translated */
    uint64_t bytes;        /* host code bytes emitted for them */
    uint64_t flushes;      /* code-area flushes (all translations dropped) */
    uint64_t links;        /* direct links made between translated blocks */
    uint64_t translate_ns; /* host time spent translating */
} temu_jit_figures;
void temu_jit_stats(temu *e, temu_jit_figures *f);

/* ---- life cycle ---------------------------------------------------------- */

/* Create an emulator.  On error returns NULL and writes a message to err. */
temu *temu_create(const temu_config *cfg, char *err, size_t errlen);
void temu_destroy(temu *e);

/*
 * Load an ELF32 little-endian MIPS executable from memory: every PT_LOAD
 * segment is copied to its p_paddr (memsz > filesz zero-filled) and the
 * entry point (translated to its physical address when it lies inside a
 * PT_LOAD vaddr range) becomes the reset PC.  `name` is used in messages.
 * Returns 0, or -1 with a message in err.
 */
int temu_load_elf(temu *e, const void *buf, size_t len, const char *name,
                  char *err, size_t errlen);

/* Copy raw bytes to physical memory (RAM only).  Returns 0 or -1. */
int temu_load_raw(temu *e, uint64_t pa, const void *buf, size_t len);

/*
 * Reset the CPU and apply the boot protocol: DTB (after bootargs) placed at
 * the top of the first RAM bank (4 KiB aligned), a0 = 0, a1 = DTB physical
 * address, a2 = a3 = 0, PC = entry (or `temu_set_pc` value if no ELF).
 * Returns 0, or -1 with a message.
 */
int temu_boot(temu *e, char *err, size_t errlen);

/* Reset the CPU only (GPRs 0, reset CP0/CP2 state, PC = entry). */
void temu_reset(temu *e);

/* ---- running --------------------------------------------------------------- */

typedef enum temu_stop {
    TEMU_STOP_LIMIT = 0,  /* max_insns instructions executed */
    TEMU_STOP_EXIT,       /* guest ended the simulation (simhelper) */
    TEMU_STOP_BREAK,      /* PC reached a breakpoint (not executed yet) */
    TEMU_STOP_HANG,       /* guest waits with no possible wake-up source */
    TEMU_STOP_HOST,       /* host poll asked to stop */
    TEMU_STOP_STUB,       /* a CPU spins for good in a porting stub (below) */
    TEMU_STOP_SPIN,       /* every CPU spins for good */
} temu_stop;

/*
 * Spinning for good: a CPU whose next instructions are a branch to itself
 * with a nop in its delay slot, interrupts masked (Status.IE = 0, or EXL or
 * ERL set), can never leave.  The run stops with TEMU_STOP_STUB as soon as
 * one CPU spins so inside a code symbol named portkit_stub_* (portkit's
 * generated stubs of unported responsibilities leave their message's link
 * address in $v0 there), and with TEMU_STOP_SPIN once every CPU spins so.
 * Checked at each host poll (every poll_interval instructions).
 * temu_spin() gives the CPU (the first one found) and the branch's PC.
 */
int temu_spin(const temu *e, uint32_t *pc);

/* Run at most max_insns instructions. */
temu_stop temu_run(temu *e, uint64_t max_insns);

/* Why the guest ended the simulation (valid after TEMU_STOP_EXIT). */
enum temu_exit_kind {
    TEMU_EXIT_NONE = 0,
    TEMU_EXIT_STOP,      /* SC_STOP written: process status 0 */
    TEMU_EXIT_RETVAL,    /* END_WITH_RETVAL: status = value & 0xFF */
    TEMU_EXIT_EXCEPT,    /* EXCEPT_WITH_VAL: status 127 */
};
int temu_exit_kind(const temu *e);
uint32_t temu_exit_value(const temu *e); /* the value written by the guest */

/* ---- state access -------------------------------------------------------- */

/* Register numbers for temu_get_reg/temu_set_reg. */
enum {
    TEMU_REG_GPR0 = 0, /* 0..31: GPRs */
    TEMU_REG_HI = 32,
    TEMU_REG_LO = 33,
    TEMU_REG_PC = 34,
    TEMU_REG_COUNT = 35,
};
uint32_t temu_get_reg(const temu *e, int reg);
void temu_set_reg(temu *e, int reg, uint32_t val);

/* CP0 register read/write as mfc0/mtc0 would do (kernel mode, no traps). */
uint32_t temu_cp0_read(temu *e, int reg, int sel);
void temu_cp0_write(temu *e, int reg, int sel, uint32_t val);
/* CP2 (MMU) register read; returns 0 for write-only/undefined registers. */
uint32_t temu_cp2_read(temu *e, int reg);

/* Instructions executed / cycles elapsed (cycles include skipped idle time). */
uint64_t temu_insns(const temu *e); /* all CPUs together */
uint64_t temu_cycles(const temu *e);

/* Physical memory access (RAM only, never devices).  Return 0 or -1. */
int temu_read_phys(temu *e, uint64_t pa, void *buf, size_t len);
int temu_write_phys(temu *e, uint64_t pa, const void *buf, size_t len);

/*
 * Virtual memory access as the kernel would see it (current MMU state, DTLB
 * setting; no access checks, no L/D bit updates, no side effects).  Writes
 * keep the emulator's decoded-code and translation caches coherent.
 * Return 0, or -1 if some byte is not mapped to RAM.
 */
int temu_read_virt(temu *e, uint32_t va, void *buf, size_t len);
int temu_write_virt(temu *e, uint32_t va, const void *buf, size_t len);

/* Translate a virtual address (data side, no side effects). 0 or -1. */
int temu_virt_to_phys(temu *e, uint32_t va, uint64_t *pa);

/* ---- host input, debugging, tracing -------------------------------------- */

/* Queue bytes received on TTY channel 0.  Returns the number accepted. */
size_t temu_tty_input(temu *e, const uint8_t *buf, size_t len);
/* Free space in the TTY input queue. */
size_t temu_tty_input_room(const temu *e);

/* ---- network (the NIC, dev_nic.c) ---------------------------------------- */

/* The platform has a NIC. */
int temu_has_nic(const temu *e);
/* A frame from the wire for the guest's NIC (no FCS; shorter frames are
 * padded to 60 bytes).  Returns 0 when the NIC took it, -1 when it dropped it
 * (no NIC, no cable, NIC off, not for its address, too long, its receive
 * FIFO full: the drop is counted).  Memory use is bounded whatever the rate. */
int temu_net_input(temu *e, const uint8_t *frame, size_t len);
/* The guest has the NIC receiving: a frame could wake it (hang detection). */
int temu_net_receiving(const temu *e);
typedef struct temu_net_counters {
    uint64_t rx_frames;     /* frames handed to temu_net_input */
    uint64_t rx_delivered;  /* of those, put in an RX container */
    uint64_t rx_dropped;    /* of those, dropped (any reason) */
    uint64_t rx_fifo_full;  /* of those, dropped because the FIFO was full */
    uint64_t tx_frames;     /* frames the guest sent (from TX containers) */
    uint64_t tx_sent;       /* of those, handed to temu_host.net_tx */
    uint64_t tx_dropped;    /* of those, dropped (malformed, no cable) */
    uint32_t rx_fifo_max;   /* most frames the receive FIFO ever held */
    uint32_t rx_fifo_cap;   /* its capacity */
} temu_net_counters;
/* Returns 0, or -1 without a NIC. */
int temu_net_counters_get(const temu *e, temu_net_counters *c);

/* Software breakpoints on virtual PCs (max 64).  Return 0 or -1. */
int temu_add_breakpoint(temu *e, uint32_t pc);
int temu_remove_breakpoint(temu *e, uint32_t pc);

/* Trace categories for temu_set_trace (the -d option). */
#define TEMU_TRACE_IN_ASM 0x01u /* disassembly of each executed instruction */
#define TEMU_TRACE_EXEC 0x02u   /* PC of each executed instruction */
#define TEMU_TRACE_INT 0x04u    /* exceptions and interrupts */
#define TEMU_TRACE_MMU 0x08u    /* page-table walks and MMU faults */
#define TEMU_TRACE_DEV 0x10u    /* device register accesses */
void temu_set_trace(temu *e, unsigned mask, FILE *out);

/* Disassemble one instruction word at `pc` into buf (returns buf). */
char *temu_disasm(uint32_t insn, uint32_t pc, char *buf, size_t len);

/* The DTB handed to the guest (valid after temu_boot) and its address. */
const void *temu_dtb(const temu *e, size_t *len, uint64_t *pa);

/* Platform clock in Hz (from the DTB). */
uint32_t temu_clock_hz(const temu *e);

/* Number of CPUs the device tree describes (all are emulated). */
int temu_dtb_cpus(const temu *e);

/*
 * CPUs.  There are as many as the DTB's cpus node describes (1..8), indexed
 * 0..n-1 in DTB order; each has the hardware id given by its `reg`.  All
 * start at the ELF entry (secondaries are told apart by EBase.CPUNum).  The
 * state access functions above (registers, CP0/CP2, virtual memory) work on
 * the selected CPU: CPU 0 at first, then the one that ran last when
 * temu_run() returns (the one that hit the breakpoint, for TEMU_STOP_BREAK).
 */
#define TEMU_DEFAULT_QUANTUM 1000u
#define TEMU_MAX_CPUS 8
int temu_ncpus(const temu *e);
uint32_t temu_cpu_id(const temu *e, int cpu);
int temu_select_cpu(temu *e, int cpu);       /* 0, or -1 if out of range */
int temu_selected_cpu(const temu *e);
uint64_t temu_cpu_insns(const temu *e, int cpu);
int temu_cpu_waiting(const temu *e, int cpu); /* sleeping in `wait` */
/* Run only CPU `cpu` (the others stay stopped) for up to max_insns. */
temu_stop temu_run_cpu(temu *e, int cpu, uint64_t max_insns);

/* Instruction-pair histogram (a build with PAIR_HIST=1 only): the `top`
 * most frequent pairs of consecutively executed operations of every run so
 * far, with their share of all executed instructions.  Returns -1 (and
 * prints nothing) in a normal build. */
int temu_pair_hist(FILE *out, unsigned top);
/* Build option STATS=1 (tsar-emu-stats): print the event counters of the
 * run so far (src/stats.h).  Returns -1 (and prints nothing) in a normal
 * build. */
int temu_stats_print(temu *e, FILE *out);

/*
 * The loaded ELF's code symbols (FUNC and sized NOTYPE symbols of .symtab):
 * the name of the one `addr` falls in and the offset into it, or NULL.
 */
const char *temu_symbol(const temu *e, uint32_t addr, uint32_t *offset);
/* The link-time address of the code the selected CPU fetches at `pc`: its
 * physical address mapped back through the loaded segments (a kernel runs
 * at physical addresses before its MMU is on), or pc itself. */
uint32_t temu_link_address(temu *e, uint32_t pc);
/* Read bytes at a link-time (ELF virtual) address: through the loaded
 * segments, else through the selected CPU's MMU.  0 or -1. */
int temu_read_link(temu *e, uint32_t va, void *buf, size_t len);
/* The NUL-terminated string there (at most len - 1 bytes, unprintable bytes
 * shown as '?'); returns its length. */
size_t temu_read_link_string(temu *e, uint32_t va, char *buf, size_t len);

/* One-line description of the platform (RAM banks, devices, IRQs, clock). */
void temu_describe(const temu *e, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif
