/*
 * internal.h - shared declarations of the emulator library (not public).
 *
 * Design summary (see docs/emulator.md for the long version):
 *  - Instructions are predecoded lazily, per 4 KiB *physical* code page, into
 *    an array of `dinsn` (handler address + operand fields) executed by a
 *    threaded interpreter (cpu.c).  Stores to a decoded page reset or drop it.
 *  - Data accesses go through a small direct-mapped software TLB per
 *    (privilege, read/write) mapping a virtual page to a host pointer.  Any
 *    store to a page the page-table walker has read, PTPR/MODE writes and
 *    TLB/cache flush operations drop all cached translations, which keeps the
 *    model as coherent as the hardware (whose Linux port never flushes).
 *  - Time is one cycle per instruction.  Devices compute their state lazily
 *    from the cycle counter and publish their next event; the outer loop
 *    (machine.c) runs the CPU up to the earliest event, then services it.
 */
#ifndef TSAR_INTERNAL_H
#define TSAR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "emu.h"
/* The board's hardware facts, generated from the spec (generate.py --hwdesc):
 * PTE bits, MMU fault types, CP0/CP2 register numbers, device registers. */
#include "hwdesc.h"
/* STATS=1 builds: event counters (STAT(), nothing in a normal build). */
#include "stats.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

typedef uint32_t __attribute__((may_alias)) u32a;
typedef uint16_t __attribute__((may_alias)) u16a;

#define PAGE_SHIFT 12
#define PAGE_SIZE 4096u
#define PAGE_MASK 0xFFFFF000u

/* ---------------------------------------------------------------- decode */

/* One predecoded instruction. */
typedef struct dinsn {
    const void *h;   /* handler (label address in cpu_exec) */
    uint32_t imm;    /* immediate, already sign/zero extended as the op needs */
    uint8_t rs, rt, rd, sa; /* destination fields: 0 is remapped to 32 (sink) */
} dinsn;

#define DPAGE_N 1024 /* instructions per page */

/* Decoded copy of one physical page of code. */
/* Block length not computed yet; larger than any budget cpu_exec takes. */
#define BLEN_UNKNOWN 0xFFFFFFFFu
/* A length kept for a word that is no block entry (a resume point, cpu.c):
 * larger than any budget too, so that entering it goes through enter_slow. */
#define BLEN_NOENTRY 0x80000000u
#define BUDGET_MAX 0x7FFFFFFF

struct jblock;

typedef struct dpage {
    dinsn ops[DPAGE_N + 2]; /* + 2 sentinels: "left the page" */
    /* Per entry point: instructions from it to the end of its block (the
     * delay slot of the first branch, or the page end), or BLEN_UNKNOWN. */
    uint32_t blen[DPAGE_N + 2];
    uint8_t *host;          /* the RAM page */
    struct ram_bank *bank;
    uint32_t pidx;          /* page index in bank */
    struct dpage *next_free;
    struct jblock **jit;    /* per entry word: its translation (jit_*.c), or NULL */
    uint8_t jc_used;        /* a CPU's jump cache may name its blocks */
} dpage;

/* Operation numbers (OP_*) and their attributes: ops.def, ops.h. */
#include "ops.h"

/* Decode one word into op number + fields (fields stored into *d). */
int decode_insn(uint32_t w, dinsn *d);
/* Whether an instruction word has a delay slot (branch or jump). */
bool insn_has_delay_slot(uint32_t w);
/* Length of the block entered at word idx of a code page: up to and with
 * the first delay slot of a branch executed in it (in_ds: the word at idx
 * is itself a delay slot), or to the page end. */
uint32_t block_len(const u32a *words, uint32_t idx, bool in_ds);

/* ---------------------------------------------------------------- memory */

/* XICU outputs are XICU_OUTPUTS_PER_CPU per CPU and at most XICU_INDEX_COUNT
 * (hwdesc.h): 8 CPUs per cluster.  A hardware CPU id is (cluster_xy << 4) | l
 * (docs/multicluster.md); the mesh has at most 16 x 16 clusters. */
#define MAX_CPUS_PER_CLUSTER (XICU_INDEX_COUNT / XICU_OUTPUTS_PER_CPU)
#define MAX_CPUS 1024
#define MAX_CLUSTERS 256
#define CPU_LOCAL_BITS 4
/* The cluster of a physical address: PA[39:32] = (x << 4) | y */
#define PA_CLUSTER(pa) ((unsigned)((pa) >> 32) & 0xFFu)

typedef struct ram_bank {
    uint64_t base, size;
    uint8_t *mem;
    uint32_t npages;
    dpage **code;   /* per page: decoded copy or NULL */
    uint8_t *ptmap; /* per page: 1 if the walker read PTEs from it */
    uint16_t *llmap; /* per page: how many CPUs hold their LL reservation here */
    /* per CPU (index) and page: the fast write entry (mode * STLB_N + slot
     * + 1) filled for the page, WSLOT_MANY if several may be, 0 if none;
     * a CPU's array is allocated at its first fast write entry in the bank
     * (most CPUs of a large mesh never write most banks) */
    uint16_t **wslot;
} ram_bank;

/* one bank per cluster, and devices: every cluster's XICU + the I/O cluster's */
#define MAX_RAM MAX_CLUSTERS
#define MAX_MMIO (MAX_CLUSTERS + 32)

/* A device register window.  Accesses are split into 32-bit words. */
typedef struct mmio_region {
    uint64_t base, size;
    const char *name;
    void *dev;
    /* Return 0 on success, -1 for a bus error. off = byte offset, word aligned. */
    int (*read)(void *dev, uint32_t off, uint32_t *val);
    int (*write)(void *dev, uint32_t off, uint32_t val, uint32_t be);
} mmio_region;

/* ---------------------------------------------------------------- TLB cache */

/* Software TLB entry: host = addend + va; tag = page VA (low bits 0) or
 * STLB_INVALID (bit 4 set, never produced by masking a VA with PAGE_MASK|3). */
typedef struct stlb_ent {
    uint32_t tag;
    uint32_t pad;
    uintptr_t addend;
} stlb_ent;
#define STLB_INVALID 0x10u
#define STLB_BITS 8
#define STLB_N (1u << STLB_BITS)
#define WSLOT_MANY 0xFFFFu

typedef struct itlb_ent {
    uint32_t tag;
    uint32_t pad;
    dpage *dp;
} itlb_ent;
#define ITLB_BITS 8
#define ITLB_N (1u << ITLB_BITS)

/* Jump cache of the translating tier's dispatcher (jit_runtime.c): guest
 * PC -> translated block, per CPU, direct-mapped.  key = generation << 32
 * | PC | mode; an entry whose generation is not the CPU's (jc_gen) never
 * matches, so dropping them all is one increment (cpu_jc_drop).  Valid
 * while the CPU's fetch table (itlb) and the page's translations are:
 * tlb_clear_cpu and jit_drop_page drop it. */
typedef struct jcache_ent {
    uint64_t key;
    uint32_t n;          /* the block's length */
    uint32_t pad;
    dpage *dp;           /* its decoded page */
    const void *code;    /* its host code */
    struct jblock **jit; /* dp->jit (one cache line per entry: a hit reads no other) */
    uint64_t pad2[3];
} jcache_ent;
#define JC_BITS 9
#define JC_N (1u << JC_BITS)
/* Return stack of the translating tier (jit_branch.c): a translated jal,
 * bal or jalr $ra pushes its return block as a jump cache entry (same key,
 * same validity), a translated jr $ra pops one and jumps to it when the
 * key matches.  Only a prediction: a wrong or stale entry never matches. */
#define RAS_BITS 4
#define RAS_N (1u << RAS_BITS)

/* ---------------------------------------------------------------- CPU */

/* Performance counters (isa.cp0.pmu, CP0_PMU_COUNTERS may be 0) */
#define PMU_SLOTS (CP0_PMU_COUNTERS ? CP0_PMU_COUNTERS : 1)

/* Status bits */
#define ST_IE 0x00000001u
#define ST_EXL 0x00000002u
#define ST_ERL 0x00000004u
#define ST_UM 0x00000010u
#define ST_IM 0x0000FF00u
#define ST_BEV 0x00400000u
#define ST_CU0 0x10000000u
#define ST_CU1 0x20000000u
#define ST_CU2 0x40000000u
#define ST_WMASK 0xD040FF1Fu /* CU3,CU2,CU0, BEV, IM, KSU, ERL, EXL, IE (no FPU: CU1 reads 0) */

#define CAUSE_BD 0x80000000u
#define CAUSE_IV 0x00800000u
#define CAUSE_WMASK 0x08C00300u

/* Exception codes */
enum {
    EXC_INT = 0, EXC_ADEL = 4, EXC_ADES = 5, EXC_IBE = 6, EXC_DBE = 7,
    EXC_SYS = 8, EXC_BP = 9, EXC_RI = 10, EXC_CPU = 11, EXC_OV = 12,
    EXC_TR = 13,
};

/* MMU error types (IETR/DETR) and PTE flag bits: hwdesc.h (MMU_FAULT_*, PTE_*). */

/* access kinds for translation */
enum { ACC_READ = 0, ACC_WRITE = 1, ACC_FETCH = 2 };

typedef struct cpu {
    uint32_t r[33]; /* r[32] = write sink for $0 destinations */
    uint32_t hi, lo;
    uint32_t pc;         /* next instruction (valid outside cpu_exec) */
    uint32_t br_target;  /* pending branch target */
    bool br_pending;     /* the instruction at pc is a delay slot */
    bool waiting;        /* executed `wait`, sleeping */
    bool exit_req;       /* leave the fast loop after the current insn */
    int mode;            /* 0 kernel, 1 user (index into TLB caches) */
    uint64_t cycles;     /* this CPU's local time (= insns + idle cycles) */
    uint64_t idle_cycles;/* cycles this CPU spent waiting (or stalled) */
    unsigned idx;        /* index in machine.cpus (scheduling order) */
    uint32_t id;         /* hardware CPU id (DTB reg): EBase[11:0], Index */
    uint32_t cluster;    /* its cluster_xy (id >> 4) */
    uint32_t stall;      /* remote-access latency owed (-remote-latency), in
                          * cycles: charged when its slot ends */
    uint64_t tlb_gen;    /* machine.tlb_gen when its translations were last
                          * dropped for a page-table store (tlb_sync_cpu) */
    uint32_t lines;      /* IRQ input lines (bit j = line j = Cause.IP(2+j)) */

    /* CP0 */
    uint32_t status, cause, epc, errorepc, badvaddr;
    uint32_t ebase, intctl, hwrena, userlocal, scratch; /* scratch = $2 sel 5 */
    uint32_t compare, count_off, debug;
    uint32_t reset_pc;   /* "reset address": BEV vectors are relative to it */

    /* performance counters (pmu.c): control words, counts at the last
     * sync, the time and instruction count then, the PerfCtl mode bit of
     * the mode since, the cycle by which a counter may overflow
     * (UINT64_MAX: none), the mode bit of a branch an exception in its
     * delay slot made run again (counted once) and the counters that
     * still owe it, whether any counter counts, whether one raises its
     * interrupt */
    uint32_t perfctl[PMU_SLOTS], perfcnt[PMU_SLOTS];
    uint64_t pmu_cycles, pmu_insns, pmu_next;
    uint32_t pmu_mode, pmu_rerun, pmu_rerun_mask;
    bool pmu_on, pmu_irq;

    /* CP2 (MMU) */
    uint32_t ptpr, mmu_mode, ietr, detr, ibvar, dbvar, word_lo, word_hi;
    uint32_t dpaddr_ext, ipaddr_ext;

    /* LL/SC reservation (physical word address) */
    bool ll_valid;
    uint64_t ll_pa;
    uintptr_t ll_host;   /* host address of the reserved word, 0 if none/MMIO */

    /* translation caches, indexed [mode] */
    stlb_ent dtlb_r[2][STLB_N];
    stlb_ent dtlb_w[2][STLB_N];
    itlb_ent itlb[2][ITLB_N];
    dpage *cur_dp;       /* page being executed by cpu_exec (or NULL) */
    dinsn *mk_ip;        /* stop marker in cur_dp (or NULL), and the */
    const void *mk_h;    /* handler it replaced */
    dinsn *mk_f[2];      /* superinstructions made plain while it is set */
    const void *mk_fh[2];
    unsigned mk_nf;
    /* translated code (jit_*.c): the first PC and length of the block that
     * calls a slow path or returns (stored by it then), the PC after its
     * branch's delay slot, the VA of the page it chained into, the budget
     * left once the running block is done, and cpu_exec's end cycle */
    uint32_t jit_pc0, jit_next, jit_n, jit_pv;
    int64_t jit_budget;
    uint64_t jit_cend;
    /* where the last stop marker stopped this CPU (1: nowhere): a run that
     * resumes there enters mid-block, which makes no block entry (cpu.c) */
    uint32_t resume_pc;
    uint64_t jc_gen;     /* jump cache generation << 32 (never 0 once reset) */
    uint32_t ras_top;    /* the return stack's top entry (index, mod RAS_N) */
    jcache_ent ras[RAS_N] __attribute__((aligned(64)));
    jcache_ent jc[JC_N] __attribute__((aligned(64)));
    struct machine *m;   /* (last: the hot registers stay at offset 0) */
#ifdef TEMU_STATS
    cpu_stats st;        /* STATS=1 builds: event counters (stats.h) */
#endif
} cpu_t;

/* ---------------------------------------------------------------- devices */

#include "device.h" /* dev_desc, temu_device_type, dev_inst */

/* The run loop's view of the devices (machine.c): per hook, the instances
 * that have it. */
typedef struct dev_svc { uint64_t (*fn)(void *); void *dev; } dev_svc;
typedef struct dev_irq {
    uint32_t (*fn)(void *);
    void *dev;
    const void *parent; /* the controller or router its outputs go to */
    uint32_t hwi[32];   /* the input bit output j drives, or 0 */
} dev_irq;

/* An interrupt controller (device.h cpu_lines) and the CPUs of its
 * cluster by local id: output 4*l + j drives line j of cpu[l]. */
typedef struct intc_out {
    uint32_t (*fn)(void *);
    void *dev;
    uint32_t last;          /* outputs last copied into the CPUs' Cause */
    struct cpu *cpu[MAX_CPUS_PER_CLUSTER];
} intc_out;

/* ---------------------------------------------------------------- platform */

#define MAX_DEVS MAX_MMIO
typedef struct platform {
    int nram;
    struct { uint64_t base, size; } ram[MAX_RAM];
    uint32_t cpu_id[MAX_CPUS]; /* hardware id (reg) of each cpu node */
    int ndev;
    dev_desc dev[MAX_DEVS];
    uint32_t clock_hz;
    int ncpus;
} platform;

int platform_parse(const void *fdt, size_t len, const char *name, platform *p,
                   char *err, size_t errlen);
int platform_default_dtb(void **out, size_t *outlen);
/* The DTB handed to the guest: m->dtb with -append's bootargs and the
 * devices' fixup_dtb edits. */
int platform_finalize_dtb(struct machine *m, void **out, size_t *outlen, char *err,
                          size_t errlen);

/* ---------------------------------------------------------------- machine */

#define MAX_BKPT 64

typedef struct machine {
    cpu_t *cpus;           /* ncpus of them */
    int ncpus;
    cpu_t *cur;            /* CPU executing now (NULL between runs) */
    cpu_t *dbg;            /* CPU the state-access API works on */
    uint64_t now;          /* shared time base for devices (monotonic) */
    bool irq_outs_valid;   /* intc[].last hold what the CPUs' Cause shows */
    bool wake_check;       /* a sleeping CPU may have become able to wake */
    int ll_holders;        /* CPUs holding an LL reservation in RAM */
    temu_config cfg;
    temu_host host;
    platform plat;

    ram_bank ram[MAX_RAM];
    int nram;
    ram_bank *last_bank;
    mmio_region mmio[MAX_MMIO];
    int nmmio;

    /* devices (device.h), in device tree order, and for the run loop the
     * instances that have each hook */
    dev_inst dev[MAX_DEVS];
    int ndev;
    dev_svc svc[MAX_DEVS];
    int nsvc;
    uint64_t dev_next;       /* their earliest next change (service_devices) */
    dev_irq irq[MAX_DEVS];
    int nirq;
    /* the interrupt controllers (one XICU per cluster) and the routers
     * (the IOPIC) that turn device lines into controller writes */
    intc_out intc[MAX_CLUSTERS];
    int nintc;
    struct { void (*fn)(void *); void *dev; } router[4];
    int nrouter;

    /* multi-cluster: RAM accesses by the accessing CPU's cluster (counted
     * at soft-TLB fills and slow-path accesses), and the latency model */
    uint64_t acc_local[MAX_CLUSTERS], acc_remote[MAX_CLUSTERS];
    uint32_t remote_latency; /* extra cycles per mesh hop of a remote access */

    /* translating tier (jit_*.c), NULL with -accel interp */
    struct jit_state *jit;
    uint32_t jit_hot;      /* entries before a block is translated */

    /* decoded page pool */
    dpage *dp_free;
    dpage **dp_all;
    unsigned dp_count, dp_max, dp_clock;

    /* scheduler: round-robin in quanta, optionally randomized */
    uint32_t quantum;
    bool randomize;
    uint64_t rng;
    struct { uint64_t cycles; bool waiting; } *sched; /* per CPU: pick_cpu's copies */
    cpu_t *slot_cpu;       /* CPU owning the current slot */
    uint64_t slot_end;     /* its local time at which the slot ends */
    /* the slot's CPU is the only runnable one: its slot has no end until
     * another CPU wakes, which then ends it where the quantum grid from
     * slot_start would have (idle CPUs cost no scheduling passes) */
    bool slot_alone;
    uint64_t slot_start;

    /* full flushes so far (each CPU catches up before it runs) */
    uint64_t tlb_gen;
    /* page-table pages marked since the last full flush */
    uint64_t *pt_list;
    unsigned pt_count, pt_cap;
    bool pt_overflow;

    /* events */
    uint64_t next_poll;    /* insn count of the next host poll */
    uint32_t poll_interval;
    bool input_arrived;    /* temu_tty_input() accepted bytes during a poll */

    /* stop state */
    int stop_kind;         /* TEMU_EXIT_* when the guest stopped */
    uint32_t stop_value;
    bool stop_req;
    int spin_cpu;          /* TEMU_STOP_STUB/SPIN: the CPU and where it spins */
    uint32_t spin_pc;
    struct symtab *syms;   /* the ELF's code symbols (symbols.c), or NULL */

    /* boot */
    uint32_t entry;
    bool have_entry;
    struct { uint64_t lo, hi; uint32_t va; } loaded[64]; /* physical range, link address */
    int nloaded;
    void *dtb;             /* platform DTB (copy) */
    size_t dtb_len;
    void *boot_dtb;        /* DTB handed to the guest */
    size_t boot_dtb_len;
    uint64_t boot_dtb_pa;

    /* debug */
    uint32_t bkpt[MAX_BKPT];
    int nbkpt;
    unsigned trace;
    FILE *trace_out;
} machine;

struct temu {
    machine m;
};

/* machine.c */
void machine_update_irqs(machine *m);
void machine_stop(machine *m, int kind, uint32_t value);
/* Device time: the latest local time any CPU has reached (a CPU's own
 * accesses never see time go backwards, nor do different CPUs'). */
static inline uint64_t machine_now(machine *m)
{
    if (m->cur && m->cur->cycles > m->now)
        m->now = m->cur->cycles;
    return m->now;
}
/* Instructions executed: a CPU's time less its idle (and stall) cycles */
static inline uint64_t cpu_insns(const cpu_t *c) { return c->cycles - c->idle_cycles; }
static inline uint64_t machine_insns(const machine *m)
{
    uint64_t n = 0;
    for (int i = 0; i < m->ncpus; i++)
        n += cpu_insns(&m->cpus[i]);
    return n;
}
bool machine_is_bkpt(const machine *m, uint32_t pc);
/* Mesh hops between two clusters (Manhattan distance of (x, y)). */
static inline unsigned mesh_hops(unsigned a, unsigned b)
{
    int dx = (int)(a >> 4) - (int)(b >> 4), dy = (int)(a & 15) - (int)(b & 15);
    return (unsigned)((dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy));
}
/* A RAM access by c at pa on a slow path (a soft-TLB fill, or a store the
 * fast path cannot take): counted local or remote by c's cluster, and a
 * remote one owes the latency model's cycles. */
static inline void mc_account(cpu_t *c, uint64_t pa)
{
    machine *m = c->m;
    unsigned t = PA_CLUSTER(pa);
    if (likely(t == c->cluster)) {
        m->acc_local[t]++;
        return;
    }
    m->acc_remote[c->cluster]++;
    c->stall += m->remote_latency * mesh_hops(t, c->cluster);
}
/* Any CPU's store (or DMA) to [pa, pa+len) breaks LL reservations on it. */
void machine_break_ll(machine *m, uint64_t pa, uint64_t len);

/* bus.c */
int bus_init_ram(machine *m, char *err, size_t errlen);
void bus_free(machine *m);
ram_bank *bus_ram_bank(machine *m, uint64_t pa);
uint8_t *bus_ram_ptr(machine *m, uint64_t pa, size_t len);
int bus_add_mmio(machine *m, const mmio_region *r);
/* Word accesses to devices: pa is rounded down to a word; for writes `val` is
 * positioned in its byte lanes and `be` selects the bytes written.
 * Return 0, or -1 for a bus error (no device, undefined register). */
int bus_mmio_read(machine *m, uint64_t pa, uint32_t *val);
int bus_mmio_write(machine *m, uint64_t pa, uint32_t be, uint32_t val);
/* Called after host-side writes to RAM (DMA, loader, debugger). */
void bus_ram_written(machine *m, uint64_t pa, size_t len);
int bus_dma_read(machine *m, uint64_t pa, void *buf, size_t len);
int bus_dma_write(machine *m, uint64_t pa, const void *buf, size_t len);

/* code pages */
dpage *code_page_get(machine *m, ram_bank *b, uint32_t pidx);
void code_page_store(machine *m, ram_bank *b, uint32_t pidx, uint32_t off, uint32_t len);
extern const void *const *cpu_handlers; /* [op * 2 + ds] */
void cpu_init_handlers(void);
void cpu_marker_set(cpu_t *c, dinsn *at);
void decode_at(cpu_t *c, dpage *dp, uint32_t idx);
void cpu_marker_clear(cpu_t *c);
void dpage_reset(dpage *dp);

/* jit_*.c: the translating tier */
typedef struct jblock {
    const void *code;    /* host code, NULL while entries are counted */
    const void *orig_h;  /* the entry word's handler before L_jit */
    const void *plain_h; /* its plain operation (no superinstruction) */
    uint32_t n;          /* block length */
    uint32_t count;      /* entries so far */
} jblock;
enum { JIT_NORMAL, JIT_EXC, JIT_LEAVE, JIT_CONT };
#define JIT_HOT 64 /* default entries before a block is translated */
bool jit_available(void);
int jit_init(struct machine *m);
void jit_free(struct machine *m);
void jit_install(cpu_t *c, dpage *dp, uint32_t idx);
const void *jit_translate(cpu_t *c, dpage *dp, uint32_t idx);
void jit_drop_page(struct machine *m, dpage *dp);
uint32_t jit_run(cpu_t *c, const void *code, stlb_ent *tlbr, stlb_ent *tlbw, uint32_t pvbase,
                 jblock **page);
void jit_stats(struct machine *m, uint64_t st[5]);

/* mmu.c */
void tlb_flush_all(machine *m);          /* every CPU; clears PT marks */
/* Before a CPU runs: drop its translations if a tlb_flush_all() it did not
 * run through happened since its last. */
void tlb_sync_cpu(cpu_t *c);
void tlb_flush_cpu(cpu_t *c);            /* one CPU's PTPR/MODE/flush ops */
void tlb_drop_host_page(machine *m, ram_bank *b, uint32_t pidx);
void pt_mark_page(machine *m, ram_bank *b, uint32_t pidx);
/* translate; returns 0 or an MMU error type (IETR/DETR value) */
uint32_t mmu_translate(cpu_t *c, uint32_t va, int acc, int user, uint64_t *pa,
                       bool side_effects);
int mmu_cp2_read(cpu_t *c, int reg, uint32_t *val);
int mmu_cp2_write(cpu_t *c, int reg, uint32_t val);
void mmu_reset(cpu_t *c);

/* cpu.c (slow paths) */
int cpu_exec(cpu_t *c, int64_t budget);
bool mem_load_slow(cpu_t *c, uint32_t va, int size, uint32_t *out);
bool mem_store_slow(cpu_t *c, uint32_t va, int size, uint32_t val);
/* store the bytes selected by `be` of the aligned word at wva (va: for errors) */
bool mem_store_be(cpu_t *c, uint32_t wva, uint32_t val, uint32_t be, uint32_t va);
bool mem_ll(cpu_t *c, uint32_t va, uint32_t *out);
/* Drop the CPU's reservation (and its page's mark). */
void cpu_ll_clear(cpu_t *c);
/* Remove c's fast write entries for a RAM page. */
void wtlb_drop_page(cpu_t *c, ram_bank *b, uint32_t pidx);
bool mem_sc(cpu_t *c, uint32_t va, uint32_t val, uint32_t *ok);
dpage *fetch_slow(cpu_t *c, uint32_t pc);

/* cp0.c */
void cpu_reset(cpu_t *c);
void cpu_exception(cpu_t *c, int code, int ce);
void cpu_data_fault(cpu_t *c, uint32_t va, uint32_t type);
void cpu_fetch_fault(cpu_t *c, uint32_t va, uint32_t type);
void cpu_address_error(cpu_t *c, uint32_t va, bool store);
bool cpu_irq_pending(cpu_t *c);
void cpu_take_interrupt(cpu_t *c);
uint32_t cp0_read(cpu_t *c, int reg, int sel);
void cp0_write(cpu_t *c, int reg, int sel, uint32_t val);
void cpu_eret(cpu_t *c);
void cpu_update_mode(cpu_t *c);

/* pmu.c */
/* Bring the counts up to c->cycles + ahead (instructions about to complete). */
void pmu_account(cpu_t *c, unsigned ahead);
/* After Status changed (or the counters' setting): the mode, pmu_next. */
void pmu_mode_changed(cpu_t *c);
/* Both: the counts now and the deadline from here (the run loop). */
void pmu_sync(cpu_t *c);
/* Count an exception (or interrupt) taken in the mode c is in. */
void pmu_exception(cpu_t *c, bool interrupt);
void pmu_reset(cpu_t *c);
/* $25 sel: false for a register that does not exist */
bool pmu_read(cpu_t *c, int sel, uint32_t *val);
bool pmu_write(cpu_t *c, int sel, uint32_t val);
/* Cause.PCI and the counters' IP bit while an overflow interrupt is raised */
uint32_t pmu_cause_bits(const cpu_t *c);
/* Count: the shared time base (monotonic across CPUs) + this CPU's offset */
static inline uint32_t cpu_count(cpu_t *c) {
    return (uint32_t)machine_now(c->m) + c->count_off;
}
/* Forget every jump cache entry of this CPU (a new generation; entries
 * are zeroed when it wraps, so that generation 0 is never current). */
static inline void cpu_jc_drop(cpu_t *c)
{
    c->jc_gen += 1ull << 32;
    if (!(c->jc_gen >> 32)) {
        for (unsigned i = 0; i < JC_N; i++)
            c->jc[i].key = 0;
        for (unsigned i = 0; i < RAS_N; i++)
            c->ras[i].key = 0;
        c->jc_gen = 1ull << 32;
    }
}

/* loader_elf.c */
/* Little-endian fields of an ELF file (loader_elf.c, symbols.c). */
static inline uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* symbols.c */
void symbols_load(machine *m, const void *buf, size_t len);
void symbols_free(machine *m);
/* the link-time address of the code CPU c fetches at pc (see emu.h) */
uint32_t symbols_link_address(machine *m, cpu_t *c, uint32_t pc);

int elf_load(machine *m, const void *buf, size_t len, const char *name,
             char *err, size_t errlen);

/* trace */
void trace_printf(machine *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define TRACE_ON(m, cat) unlikely((m)->trace & (cat))

void errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
