/*
 * machine.c - platform assembly, the event loop and the public API.
 *
 * temu_run() alternates between servicing devices (timers, DMA completion,
 * host input), delivering interrupts, and running the CPU for as many
 * instructions as can pass before the next device event, host poll or the
 * caller's limit.  Tracing of executed instructions and breakpoints use the
 * same loop with a budget of one instruction, so they cost nothing when off.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define DEFAULT_POLL_INTERVAL 100000u
#define DPAGE_POOL 1024u
#define PT_LIST_CAP 1024u

void errf(char *err, size_t errlen, const char *fmt, ...)
{
    if (!err || !errlen)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

void trace_printf(machine *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(m->trace_out ? m->trace_out : stderr, fmt, ap);
    va_end(ap);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------ IRQ wiring */

uint32_t machine_hwi_lines(machine *m, const void *intc)
{
    uint32_t h = 0;
    for (const dev_irq *p = m->irq, *end = p + m->nirq; p != end; p++)
        if (p->parent == intc)
            for (uint32_t l = p->fn(p->dev); l; l &= l - 1)
                h |= p->hwi[__builtin_ctz(l)];
    return h;
}

int machine_hwi_wired(const machine *m, const void *intc)
{
    for (int i = 0; i < m->nirq; i++)
        if (m->irq[i].parent == intc)
            return 1;
    return 0;
}

int machine_route_write(machine *m, uint64_t pa, uint32_t val)
{
    if (bus_ram_bank(m, pa))
        return bus_dma_write(m, pa & ~3ull, &val, 4);
    return bus_mmio_write(m, pa, 0xF, val);
}

int machine_route_read(machine *m, uint64_t pa, uint32_t *val)
{
    if (bus_ram_bank(m, pa))
        return bus_dma_read(m, pa & ~3ull, val, 4);
    return bus_mmio_read(m, pa, val);
}

/* The routers first (their writes change the controllers' inputs), then
 * every cluster's controller: output (4*l + j) drives the IRQ line j =
 * Cause.IP(2+j) of the CPU of local id l in its cluster. */
void machine_update_irqs(machine *m)
{
    for (int i = 0; i < m->nrouter; i++)
        m->router[i].fn(m->router[i].dev);
    bool all = !m->irq_outs_valid;
    m->irq_outs_valid = true;
    for (intc_out *ic = m->intc, *end = ic + m->nintc; ic != end; ic++) {
        uint32_t outs = ic->fn(ic->dev);
        if (outs == ic->last && !all)
            continue; /* Cause.IP7..2 are read-only: nothing to redo */
        ic->last = outs;
        m->wake_check = true;
        for (unsigned l = 0; l < MAX_CPUS_PER_CLUSTER; l++) {
            cpu_t *c = ic->cpu[l];
            if (!c)
                continue;
            uint32_t lines = (outs >> (4 * l)) & 0xF;
            c->lines = lines;
            c->cause = (c->cause & ~0xFC00u) | (lines << 10) | (pmu_cause_bits(c) & 0xFC00u);
        }
    }
    if (all && !m->nintc)
        for (int i = 0; i < m->ncpus; i++) {
            cpu_t *c = &m->cpus[i];
            c->lines = 0;
            c->cause = (c->cause & ~0xFC00u) | (pmu_cause_bits(c) & 0xFC00u);
        }
}

void machine_stop(machine *m, int kind, uint32_t value)
{
    if (!m->stop_kind) {
        m->stop_kind = kind;
        m->stop_value = value;
    }
    m->stop_req = true;
    if (m->cur)
        m->cur->exit_req = true;
}

void machine_break_ll(machine *m, uint64_t pa, uint64_t len)
{
    for (int i = 0; i < m->ncpus; i++) {
        cpu_t *c = &m->cpus[i];
        if (c->ll_valid && c->ll_pa + 4 > pa && c->ll_pa < pa + len)
            cpu_ll_clear(c);
    }
}

/* ------------------------------------------------------------ life cycle */

void *machine_device(const machine *m, const temu_device_type *t)
{
    for (int i = 0; i < m->ndev; i++)
        if (m->dev[i].type == t)
            return m->dev[i].dev;
    return NULL;
}

/* An instance for the first node of each device type (for every node of a
 * per_node type: the XICUs, one per cluster), its register window and its
 * hooks in the run loop's arrays; then the interrupt wiring: each device's
 * outputs to its interrupt parent, each controller's outputs to the CPUs of
 * its cluster. */
static int create_devices(machine *m, const char *dname, char *err, size_t errlen)
{
    void *inst[MAX_DEVS] = {0};
    void *first_intc = NULL;
    for (int i = 0; i < m->plat.ndev; i++) {
        const dev_desc *d = &m->plat.dev[i];
        const temu_device_type *t = d->type;
        if (!t->per_node && machine_device(m, t))
            continue;
        void *dev = t->create(m, d, m->dtb, err, errlen);
        if (!dev)
            return -1;
        inst[i] = dev;
        m->dev[m->ndev++] = (dev_inst){t, d, dev};
        mmio_region r = {d->base, d->size, t->name, dev, t->read, t->write};
        bus_add_mmio(m, &r);
        if (t->service)
            m->svc[m->nsvc++] = (dev_svc){t->service, dev};
        if (t->irq_lines) {
            m->irq[m->nirq] = (dev_irq){.fn = t->irq_lines, .dev = dev};
            for (int j = 0; j < d->nirq; j++)
                m->irq[m->nirq].hwi[j] = d->irq[j] >= 0 ? 1u << d->irq[j] : 0;
            m->nirq++;
        }
        if (t->route_irqs && m->nrouter < (int)(sizeof m->router / sizeof m->router[0])) {
            m->router[m->nrouter].fn = t->route_irqs;
            m->router[m->nrouter++].dev = dev;
        }
        if (t->cpu_lines) {
            intc_out *ic = &m->intc[m->nintc++];
            unsigned cl = PA_CLUSTER(d->base);
            ic->fn = t->cpu_lines;
            ic->dev = dev;
            for (int k = 0; k < m->ncpus; k++) {
                cpu_t *c = &m->cpus[k];
                unsigned l = c->id & ((1u << CPU_LOCAL_BITS) - 1);
                if (c->cluster == cl && l < MAX_CPUS_PER_CLUSTER)
                    ic->cpu[l] = c;
            }
            if (!first_intc)
                first_intc = dev;
        }
    }
    /* wiring: a device's `interrupts` go to its interrupt-parent (platform.c
     * found it), else to the first interrupt controller */
    for (int k = 0; k < m->nirq; k++)
        for (int i = 0; i < m->plat.ndev; i++)
            if (inst[i] == m->irq[k].dev) {
                int p = m->plat.dev[i].irq_parent;
                m->irq[k].parent = p >= 0 && inst[p] ? inst[p] : first_intc;
            }
    for (const temu_device_type *const *t = device_types; *t; t++)
        if ((*t)->missing && !machine_device(m, *t) && (*t)->missing(m, dname, err, errlen))
            return -1;
    return 0;
}

temu *temu_create(const temu_config *cfg_in, char *err, size_t errlen)
{
    temu_config cfg;
    if (cfg_in)
        cfg = *cfg_in;
    else
        memset(&cfg, 0, sizeof cfg);
    temu *e = calloc(1, sizeof *e);
    if (!e) {
        errf(err, errlen, "out of memory");
        return NULL;
    }
    machine *m = &e->m;
    m->cfg = cfg;
    m->host = cfg.host;
    m->trace_out = stderr;
    cpu_init_handlers();

    const char *dname = cfg.dtb_name ? cfg.dtb_name : "device tree";
    if (cfg.dtb) {
        m->dtb = malloc(cfg.dtb_size ? cfg.dtb_size : 1);
        if (!m->dtb) {
            errf(err, errlen, "out of memory");
            goto fail;
        }
        memcpy(m->dtb, cfg.dtb, cfg.dtb_size);
        m->dtb_len = cfg.dtb_size;
    } else {
        dname = "built-in default platform";
        if (platform_default_dtb(&m->dtb, &m->dtb_len)) {
            errf(err, errlen, "cannot build the default device tree");
            goto fail;
        }
    }
    m->cfg.dtb = NULL; /* our copy is m->dtb */
    if (platform_parse(m->dtb, m->dtb_len, dname, &m->plat, err, errlen))
        goto fail;
    m->ncpus = m->plat.ncpus;
    /* cpu_t is cache-line aligned (its jump cache entries are lines) */
    m->cpus = aligned_alloc(_Alignof(cpu_t), (size_t)m->ncpus * sizeof *m->cpus);
    if (m->cpus)
        memset(m->cpus, 0, (size_t)m->ncpus * sizeof *m->cpus);
    m->sched = calloc((size_t)m->ncpus, sizeof *m->sched);
    if (!m->cpus || !m->sched)
        goto oom;
    for (int i = 0; i < m->ncpus; i++) {
        m->cpus[i].m = m;
        m->cpus[i].idx = (unsigned)i;
        m->cpus[i].id = m->plat.cpu_id[i];
        m->cpus[i].cluster = m->plat.cpu_id[i] >> CPU_LOCAL_BITS;
    }
    m->dbg = &m->cpus[0];
    m->quantum = cfg.quantum ? cfg.quantum : TEMU_DEFAULT_QUANTUM;
    m->remote_latency = cfg.remote_latency;
    m->randomize = cfg.randomize != 0;
    m->rng = cfg.seed ^ 0x9E3779B97F4A7C15ull;
    if (bus_init_ram(m, err, errlen))
        goto fail;

    if (create_devices(m, dname, err, errlen))
        goto fail;

    m->dp_max = DPAGE_POOL;
    m->dp_all = calloc(m->dp_max, sizeof *m->dp_all);
    m->pt_cap = PT_LIST_CAP;
    m->pt_list = calloc(m->pt_cap, sizeof *m->pt_list);
    if (!m->dp_all || !m->pt_list)
        goto oom;
    m->poll_interval = cfg.poll_interval ? cfg.poll_interval : DEFAULT_POLL_INTERVAL;
    int accel = cfg.accel;
    if (accel == TEMU_ACCEL_DEFAULT) {
        const char *env = getenv("TEMU_ACCEL");
        /* the JIT where there is one (x86-64), else the interpreter */
        accel = jit_available() ? TEMU_ACCEL_JIT : TEMU_ACCEL_INTERP;
        if (env && *env) {
            if (!strcmp(env, "jit")) {
                /* a preference: builds without the JIT (other hosts,
                 * PAIR_HIST) run the interpreter */
                accel = jit_available() ? TEMU_ACCEL_JIT : TEMU_ACCEL_INTERP;
            } else if (!strcmp(env, "interp")) {
                accel = TEMU_ACCEL_INTERP;
            } else {
                errf(err, errlen, "TEMU_ACCEL: expected interp or jit, got '%s'", env);
                goto fail;
            }
        }
    }
    if (accel == TEMU_ACCEL_JIT) {
        if (!jit_available()) {
            errf(err, errlen, "-accel jit: no translating tier on this host (x86-64 only)");
            goto fail;
        }
        if (jit_init(m))
            goto oom;
        m->jit_hot = cfg.jit_hot ? cfg.jit_hot : JIT_HOT;
        const char *hot = getenv("TEMU_JIT_HOT"); /* tuning: entries before translation */
        if (!cfg.jit_hot && hot && atoi(hot) > 0)
            m->jit_hot = (uint32_t)atoi(hot);
    } else if (accel != TEMU_ACCEL_INTERP) {
        errf(err, errlen, "bad accel value %d", accel);
        goto fail;
    }
    m->next_poll = m->poll_interval;
    /* entry defaults to the base of the first RAM bank until an ELF is loaded */
    m->entry = (uint32_t)m->plat.ram[0].base;
    for (int i = 0; i < m->ncpus; i++)
        cpu_reset(&m->cpus[i]);
    return e;
oom:
    errf(err, errlen, "out of memory");
fail:
    temu_destroy(e);
    return NULL;
}

void temu_destroy(temu *e)
{
    if (!e)
        return;
    machine *m = &e->m;
    jit_free(m);
    for (unsigned i = 0; i < m->dp_count; i++)
        free(m->dp_all[i]);
    free(m->dp_all);
    free(m->pt_list);
    bus_free(m);
    for (int i = 0; i < m->ndev; i++) {
        if (m->dev[i].type->free)
            m->dev[i].type->free(m->dev[i].dev);
        else
            free(m->dev[i].dev);
    }
    free(m->dtb);
    free(m->boot_dtb);
    free(m->cpus);
    free(m->sched);
    symbols_free(m);
    free(e);
}

int temu_load_elf(temu *e, const void *buf, size_t len, const char *name, char *err,
                  size_t errlen)
{
    machine *m = &e->m;
    if (elf_load(m, buf, len, name, err, errlen))
        return -1;
    for (int i = 0; i < m->ncpus; i++) {
        cpu_t *c = &m->cpus[i];
        c->pc = c->reset_pc = m->entry;
        c->br_pending = false;
    }
    return 0;
}

int temu_load_raw(temu *e, uint64_t pa, const void *buf, size_t len)
{
    return temu_write_phys(e, pa, buf, len);
}

static void reset_all(machine *m)
{
    for (int i = 0; i < m->ncpus; i++)
        cpu_reset(&m->cpus[i]);
    m->slot_cpu = NULL;
    m->slot_alone = false;
    m->irq_outs_valid = false; /* Cause was cleared: set the lines again */
    /* the host polls (and the spin check) follow the reset, not the run's
     * history: the same state after a reset runs the same way */
    m->next_poll = machine_insns(m) + m->poll_interval;
}

void temu_reset(temu *e) { reset_all(&e->m); }

int temu_boot(temu *e, char *err, size_t errlen)
{
    machine *m = &e->m;
    free(m->boot_dtb);
    m->boot_dtb = NULL;
    if (platform_finalize_dtb(m, &m->boot_dtb, &m->boot_dtb_len, err, errlen))
        return -1;
    /* the first RAM bank = the one at the lowest address */
    ram_bank *b = &m->ram[0];
    for (int i = 1; i < m->nram; i++)
        if (m->ram[i].base < b->base)
            b = &m->ram[i];
    uint64_t top = b->base + b->size;
    if (m->boot_dtb_len > b->size) {
        errf(err, errlen, "the device tree (%zu bytes) does not fit in RAM", m->boot_dtb_len);
        return -1;
    }
    uint64_t pa = (top - m->boot_dtb_len) & ~(uint64_t)(PAGE_SIZE - 1);
    for (int i = 0; i < m->nloaded; i++)
        if (m->loaded[i].lo < pa + m->boot_dtb_len && pa < m->loaded[i].hi) {
            errf(err, errlen,
                 "the device tree would be placed at 0x%llx, overlapping the loaded image "
                 "(0x%llx..0x%llx)",
                 (unsigned long long)pa, (unsigned long long)m->loaded[i].lo,
                 (unsigned long long)m->loaded[i].hi - 1);
            return -1;
        }
    if (pa > 0xFFFFFFFFull) {
        errf(err, errlen, "the first RAM bank is above 4 GiB: cannot pass the DTB in a1");
        return -1;
    }
    memcpy(b->mem + (pa - b->base), m->boot_dtb, m->boot_dtb_len);
    bus_ram_written(m, pa, m->boot_dtb_len);
    m->boot_dtb_pa = pa;
    /* Every CPU starts at the entry with the same registers (reference 5:
     * the boot code tells the CPUs apart by EBase.CPUNum). */
    reset_all(m);
    for (int i = 0; i < m->ncpus; i++) {
        cpu_t *c = &m->cpus[i];
        c->r[4] = 0;
        c->r[5] = (uint32_t)pa;
        c->r[6] = c->r[7] = 0;
    }
    return 0;
}

/* ------------------------------------------------------------ running */

/* Bring the devices up to the current time and note when the next one
 * changes by itself; then the interrupt lines.  What a device's next
 * change is moves only here and in its register accesses (which end a
 * CPU's run), so next_event() holds until the loop comes back here. */
static void service_devices(machine *m)
{
    uint64_t ev = UINT64_MAX, t;
    for (const dev_svc *p = m->svc, *end = p + m->nsvc; p != end; p++)
        if ((t = p->fn(p->dev)) < ev)
            ev = t;
    m->dev_next = ev;
    machine_update_irqs(m);
}

static uint64_t next_event(machine *m) { return m->dev_next; }

static unsigned host_poll(machine *m, int64_t timeout_ns)
{
    if (!m->host.poll)
        return 0;
    return m->host.poll(m->host.opaque, (temu *)m, timeout_ns);
}

/* Every CPU sleeps in `wait`: advance the shared time to the next event.
 * Returns -1 to continue the run loop, or a temu_stop value. */
static int idle(machine *m)
{
    uint64_t now = m->now, ev = next_event(m);
    uint32_t hz = m->plat.clock_hz;
    m->input_arrived = false;
    if (ev == UINT64_MAX) {
        if (!m->host.poll)
            return TEMU_STOP_HANG;
        unsigned r = host_poll(m, -1);
        if (r & TEMU_POLL_STOP)
            return TEMU_STOP_HOST;
        if (m->input_arrived)
            return -1;
        return (r & TEMU_POLL_LIVE) ? -1 : TEMU_STOP_HANG;
    }
    uint64_t skip = ev > now ? ev - now : 0, adv = skip;
    bool wall = m->cfg.idle_mode == TEMU_IDLE_SLEEP ||
                (m->cfg.idle_net_sleep && m->host.net_tx && temu_net_receiving((temu *)m));
    if (wall && m->host.poll) {
        int64_t ns = (int64_t)((unsigned __int128)skip * 1000000000u / hz);
        uint64_t t0 = now_ns();
        unsigned r = host_poll(m, ns);
        uint64_t el = now_ns() - t0;
        if (r & TEMU_POLL_STOP)
            return TEMU_STOP_HOST;
        if (m->input_arrived || (int64_t)el < ns) {
            uint64_t a = (uint64_t)((unsigned __int128)el * hz / 1000000000u);
            if (a < adv)
                adv = a;
        }
    } else {
        unsigned r = host_poll(m, 0);
        if (r & TEMU_POLL_STOP)
            return TEMU_STOP_HOST;
        if (m->input_arrived)
            return -1;
    }
    m->now += adv;
    return -1;
}

bool machine_is_bkpt(const machine *m, uint32_t pc)
{
    for (int i = 0; i < m->nbkpt; i++)
        if (m->bkpt[i] == pc)
            return true;
    return false;
}

static void trace_insn(machine *m, cpu_t *c)
{
    uint64_t pa;
    uint32_t w = 0;
    bool ok = mmu_translate(c, c->pc, ACC_FETCH, c->mode, &pa, false) == 0;
    uint8_t *p = ok ? bus_ram_ptr(m, pa, 4) : NULL;
    char who[16] = "";
    if (m->ncpus > 1)
        snprintf(who, sizeof who, "cpu%u ", c->idx);
    if (p)
        memcpy(&w, p, 4);
    if (m->trace & TEMU_TRACE_EXEC)
        trace_printf(m, "exec: %spc=0x%08x icount=%llu\n", who, c->pc,
                     (unsigned long long)machine_insns(m));
    if (m->trace & TEMU_TRACE_IN_ASM) {
        char buf[96];
        if (p)
            trace_printf(m, "%s0x%08x:  %08x  %s%s\n", who, c->pc, w,
                         temu_disasm(w, c->pc, buf, sizeof buf),
                         c->br_pending ? "   (delay slot)" : "");
        else
            trace_printf(m, "%s0x%08x:  ????????  (fetch fault)\n", who, c->pc);
    }
}

/* ------------------------------------------------------------ spinning */

/* The instruction word at virtual `va` as CPU c would fetch it (no side
 * effects); false when it is not mapped to RAM. */
static bool fetch_word(machine *m, cpu_t *c, uint32_t va, uint32_t *w)
{
    uint64_t pa;
    uint8_t *p;
    if (mmu_translate(c, va, ACC_FETCH, c->mode, &pa, false) || !(p = bus_ram_ptr(m, pa, 4)))
        return false;
    memcpy(w, p, 4);
    return true;
}

/* beq/beql rs, rs, .; bgez/bgezl $0, .; j . */
static bool branches_to_itself(uint32_t w, uint32_t pc)
{
    unsigned op = w >> 26, rs = (w >> 21) & 31, rt = (w >> 16) & 31;
    if ((op == 0x04 || op == 0x14) && rs == rt)
        return (w & 0xFFFF) == 0xFFFF;
    if (op == 0x01 && rs == 0 && (rt == 0x01 || rt == 0x03))
        return (w & 0xFFFF) == 0xFFFF;
    if (op == 0x02)
        return (((pc + 4) & 0xF0000000u) | ((w & 0x03FFFFFFu) << 2)) == pc;
    return false;
}

/* Does CPU c spin for good (emu.h)?  Sets *at to the branch's PC. */
static bool spins_for_good(machine *m, cpu_t *c, uint32_t *at)
{
    if (c->waiting || ((c->status & ST_IE) && !(c->status & (ST_EXL | ST_ERL))))
        return false;
    uint32_t b = c->br_pending ? c->pc - 4 : c->pc, w, slot;
    if (c->br_pending && c->br_target != b)
        return false;
    if (!fetch_word(m, c, b, &w) || !fetch_word(m, c, b + 4, &slot) || slot != 0 ||
        !branches_to_itself(w, b))
        return false;
    *at = b;
    return true;
}

/* TEMU_STOP_STUB or TEMU_STOP_SPIN when the run must stop, else -1. */
static int check_spin(machine *m)
{
    int spinning = 0;
    for (int k = 0; k < m->ncpus; k++) {
        uint32_t at;
        if (!spins_for_good(m, &m->cpus[k], &at))
            continue;
        if (!spinning++) {
            m->spin_cpu = k;
            m->spin_pc = at;
        }
        uint32_t link = symbols_link_address(m, &m->cpus[k], at);
        const char *sym = temu_symbol((temu *)m, link, NULL);
        if (sym && !strncmp(sym, "portkit_stub_", 13)) {
            m->spin_cpu = k;
            m->spin_pc = at;
            return TEMU_STOP_STUB;
        }
    }
    return spinning == m->ncpus ? TEMU_STOP_SPIN : -1;
}

int temu_spin(const temu *e, uint32_t *pc)
{
    if (pc)
        *pc = e->m.spin_pc;
    return e->m.spin_cpu;
}

/* ------------------------------------------------------------ scheduler */

static uint64_t rng_next(machine *m)
{
    /* splitmix64: small, and the same sequence on every host */
    uint64_t z = (m->rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The scheduler's copy of a CPU's time and sleep (machine.sched), taken
 * whenever they change outside cpu_exec and after each cpu_exec: pick_cpu
 * reads the copies, not one cpu_t (tens of KiB apart) per CPU. */
static void sched_note(machine *m, const cpu_t *c)
{
    m->sched[c->idx].cycles = c->cycles;
    m->sched[c->idx].waiting = c->waiting;
}

static void sched_note_all(machine *m)
{
    for (int i = 0; i < m->ncpus; i++)
        sched_note(m, &m->cpus[i]);
}

/* A CPU in `wait` wakes when one of its raw IRQ lines is high (IE and IM do
 * not matter), or a software interrupt is pending.  It slept until now. */
static bool cpu_runnable(machine *m, cpu_t *c)
{
    if (!c->waiting)
        return true;
    if (!c->lines && !(c->cause & 0x300u) && !c->pmu_irq)
        return false;
    c->waiting = false;
    if (c->cycles < m->now) {
        c->idle_cycles += m->now - c->cycles;
        c->cycles = m->now;
    }
    sched_note(m, c);
    return true;
}

/* A page holding a CPU's LL reservation gets no fast write entry in any
 * CPU (llmap), so that every store to it reaches machine_break_ll().  The
 * reserving CPU dropped its own entries when it took the reservation; the
 * CPU that runs next drops those it filled for the other CPUs' pages. */
static void ll_watch_update(machine *m, cpu_t *run)
{
    if (!m->ll_holders)
        return;
    for (int k = 0; k < m->ncpus; k++) {
        cpu_t *o = &m->cpus[k];
        if (o == run || !o->ll_valid || !o->ll_host)
            continue;
        ram_bank *b = bus_ram_bank(m, o->ll_pa);
        if (b)
            wtlb_drop_page(run, b, (uint32_t)((o->ll_pa - b->base) >> PAGE_SHIFT));
    }
}

/* Choose the CPU for the next slot: the runnable one with the smallest
 * local time, ties broken round-robin after the previous slot's CPU.  In
 * randomized mode, any runnable CPU less than a quantum ahead of the
 * earliest may be chosen, and slots have random lengths. */
static cpu_t *pick_cpu(machine *m)
{
    int n = m->ncpus;
    int i = m->slot_cpu ? (int)m->slot_cpu->idx + 1 : 0;
    cpu_t *best = NULL;
    int runnable = 0;
    for (int k = 0; k < n; k++, i++) {
        if (i == n)
            i = 0;
        /* with several CPUs, the pass's wake loop has just woken every
         * sleeping CPU that can wake (run_loop): a sleeping one stays */
        if (m->sched[i].waiting && (n > 1 || !cpu_runnable(m, &m->cpus[i])))
            continue;
        runnable++;
        if (!best || m->sched[i].cycles < best->cycles)
            best = &m->cpus[i];
    }
    m->slot_alone = false;
    if (!best) {
        /* every CPU sleeps: the first to wake gets a new pick (an unbounded
         * slot of the CPU that ran alone must not carry over to it) */
        m->slot_end = 0;
        return NULL;
    }
    uint64_t q = m->quantum;
    if (m->randomize) {
        cpu_t *cand[MAX_CPUS];
        int nc = 0;
        for (int k = 0; k < n; k++)
            if (!m->sched[k].waiting && m->sched[k].cycles < best->cycles + m->quantum)
                cand[nc++] = &m->cpus[k];
        best = cand[rng_next(m) % (uint64_t)nc];
        uint64_t r = rng_next(m);
        /* a quarter of the slots are very short, to shake out fine races */
        q = (r & 3) == 0 ? 1 + (r >> 8) % 16 : 1 + (r >> 8) % (2 * (uint64_t)m->quantum);
    }
    if (best != m->slot_cpu && m->ncpus > 1)
        ll_watch_update(m, best);
    m->slot_cpu = best;
    /* a single CPU has nobody to interleave with: no slots */
    m->slot_end = m->ncpus > 1 ? best->cycles + q : UINT64_MAX;
    if (runnable == 1 && m->ncpus > 1 && !m->randomize) {
        /* the others sleep: the same pick would follow at every quantum,
         * until one of them wakes (slot_woken) */
        m->slot_alone = true;
        m->slot_start = best->cycles;
        m->slot_end = UINT64_MAX;
    }
    return best;
}

/* A CPU woke during an unbounded slot: the slot ends where it would have
 * with a pick at every quantum (at the next multiple of the quantum from
 * its start, or now if the CPU stands on one). */
static void slot_woken(machine *m)
{
    uint64_t q = m->quantum, d = m->slot_cpu->cycles - m->slot_start;
    uint64_t k = (d + q - 1) / q;
    m->slot_end = m->slot_start + q * (k ? k : 1);
    m->slot_alone = false;
}

static temu_stop run_loop(machine *m, uint64_t max_insns, cpu_t *only)
{
    /* instructions so far: only cpu_exec changes them (idle and stall
     * cycles count on both sides of cpu_insns), so the loop keeps the sum
     * rather than adding every CPU's at each pass */
    uint64_t ins_now = machine_insns(m);
    uint64_t limit = ins_now + max_insns;
    if (limit < max_insns)
        limit = UINT64_MAX;
    /* a CPU resumed on a breakpoint executes it before it can hit one */
    uint32_t skip_pc[MAX_CPUS];
    bool skip[MAX_CPUS];
    for (int i = 0; i < m->ncpus; i++) {
        skip_pc[i] = m->cpus[i].pc;
        skip[i] = true;
    }
    m->wake_check = true;
    sched_note_all(m); /* (the API may have changed any CPU between runs) */
    if (only) {
        if (only != m->slot_cpu && m->ncpus > 1)
            ll_watch_update(m, only);
        m->slot_cpu = only;
        m->slot_end = UINT64_MAX;
        m->slot_alone = false;
    }

    for (;;) {
        if (m->stop_req)
            return TEMU_STOP_EXIT;
        STAT(&m->cpus[0], RL_PASS);
        service_devices(m);
        uint64_t ins = ins_now;
        if (ins >= m->next_poll) {
            m->next_poll = ins + m->poll_interval;
            m->input_arrived = false;
            unsigned r = host_poll(m, 0);
            if (r & TEMU_POLL_STOP)
                return TEMU_STOP_HOST;
            if (m->input_arrived)
                machine_update_irqs(m);
            int s = check_spin(m);
            if (s >= 0)
                return (temu_stop)s;
        }
        cpu_t *c;
        if (only) {
            c = cpu_runnable(m, only) ? only : NULL;
        } else {
            /* Wake-before-slot: a sleeping CPU whose line is up (an IPI, a
             * timer) wakes now, at the time the line rose, not when the
             * running CPU's slot ends: a line that falls again before then
             * (acknowledged by another CPU) still ends its `wait`, and its
             * local time restarts from here. */
            if (m->ncpus > 1 && m->wake_check) {
                /* (what can wake a sleeping CPU changed: its lines, or a
                 * CPU went to sleep, or the API ran between two runs) */
                m->wake_check = false;
                for (int k = 0; k < m->ncpus; k++)
                    if (m->sched[k].waiting && cpu_runnable(m, &m->cpus[k]) && m->slot_alone)
                        slot_woken(m);
            }
            c = m->slot_cpu;
            if (!c || c->cycles >= m->slot_end || !cpu_runnable(m, c))
                c = pick_cpu(m);
        }
        if (!c) {
            STAT(&m->cpus[0], RL_IDLE);
            int r = idle(m);
            if (r >= 0)
                return (temu_stop)r;
            continue;
        }
        m->dbg = c;
        if (cpu_irq_pending(c)) {
            STAT(c, RL_IRQ);
            cpu_take_interrupt(c);
        }
        if (ins >= limit)
            return TEMU_STOP_LIMIT;

        uint64_t budget = limit - ins;
#ifdef TEMU_STATS
        int why = ST_RL_BUD_OTHER;
#define BUDGET_WHY(k) (why = ST_##k)
#else
#define BUDGET_WHY(k) ((void)0)
#endif
        if (!only && m->slot_end != UINT64_MAX && m->slot_end - c->cycles < budget) {
            budget = m->slot_end - c->cycles;
            BUDGET_WHY(RL_BUD_SLOT);
        }
        uint64_t ev = next_event(m);
        if (ev != UINT64_MAX) {
            uint64_t d = ev > c->cycles ? ev - c->cycles : 1;
            if (d < budget) {
                budget = d;
                BUDGET_WHY(RL_BUD_EVENT);
            }
        }
        if (c->pmu_next != UINT64_MAX) {
            uint64_t d = c->pmu_next > c->cycles ? c->pmu_next - c->cycles : 1;
            if (d < budget) {
                budget = d;
                BUDGET_WHY(RL_BUD_OTHER);
            }
        }
        uint64_t dp = m->next_poll > ins ? m->next_poll - ins : 1;
        if (dp < budget) {
            budget = dp;
            BUDGET_WHY(RL_BUD_POLL);
        }
#undef BUDGET_WHY
        if (m->nbkpt || (m->trace & (TEMU_TRACE_IN_ASM | TEMU_TRACE_EXEC))) {
            if (m->nbkpt && machine_is_bkpt(m, c->pc) &&
                !(skip[c->idx] && c->pc == skip_pc[c->idx]))
                return TEMU_STOP_BREAK;
            if (m->trace & (TEMU_TRACE_IN_ASM | TEMU_TRACE_EXEC))
                trace_insn(m, c);
            budget = 1;
        }
        skip[c->idx] = false;
        uint64_t c_ins0 = cpu_insns(c);
        tlb_sync_cpu(c); /* page-table stores made while it did not run */
        c->exit_req = false;
        m->cur = c;
#ifdef TEMU_STATS
        {
            static cpu_t *last;
            uint64_t c0 = c->cycles;
            if (m->nbkpt || (m->trace & (TEMU_TRACE_IN_ASM | TEMU_TRACE_EXEC)))
                why = ST_RL_BUD_OTHER;
            c->st.n[why]++;
            STAT(c, RL_EXEC);
            if (last && last != c)
                STAT(c, RL_SWITCH);
            last = c;
            cpu_exec(c, (int64_t)budget);
            if (c->cycles - c0 < budget)
                STAT(c, RL_EARLY);
        }
#else
        cpu_exec(c, (int64_t)budget);
#endif
        ins_now += cpu_insns(c) - c_ins0;
        if (c->waiting)
            m->wake_check = true; /* its lines may be up already */
        if (c->stall) {
            /* remote accesses' latency (-remote-latency): time passes,
             * instructions do not (insns = cycles - idle_cycles) */
            c->cycles += c->stall;
            c->idle_cycles += c->stall;
            c->stall = 0;
        }
        sched_note(m, c);
        if (c->cycles >= c->pmu_next)
            pmu_sync(c); /* a counter may have overflowed: its interrupt */
        machine_now(m); /* the shared time follows the CPU that ran */
        m->cur = NULL;
    }
}

temu_stop temu_run(temu *e, uint64_t max_insns)
{
    return run_loop(&e->m, max_insns, NULL);
}

temu_stop temu_run_cpu(temu *e, int cpu, uint64_t max_insns)
{
    machine *m = &e->m;
    if (cpu < 0 || cpu >= m->ncpus)
        return TEMU_STOP_LIMIT;
    temu_stop st = run_loop(m, max_insns, &m->cpus[cpu]);
    m->slot_cpu = NULL; /* the round-robin restarts cleanly */
    return st;
}
