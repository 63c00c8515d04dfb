/*
 * cp0.c - CP0 registers, reset, exception and interrupt entry, eret.
 * Hardware reference sections 1.2 (registers) and 1.3 (reset, vectors).
 */
#include "internal.h"

/* switch key of a CP0 register (CP0_<name>_REG/_SEL, PRId: hwdesc.h, the spec's isa.cp0) */
#define CP0_KEY(name) (CP0_##name##_REG * 8 + CP0_##name##_SEL)
/* Config0: M, AR=1 (R2), MT=7 ("SoCLib generic MMU"), K0=3 (cacheable) */
#define CONFIG0 (0x80000000u | (1u << 10) | (7u << 7) | 3u)
/* Config1: M, I$ and D$ 64 sets (0) x 64-byte lines (5) x 4 ways (3), C2=1, PC, FP=0 */
#define CONFIG1 (0x80000000u | (5u << 19) | (3u << 16) | (5u << 10) | (3u << 7) | 0x40u | \
                 (CP0_PMU_COUNTERS ? 0x10u : 0))
/* IntCtl.IPPCI: the Cause.IP bit the counters raise (read-only) */
#ifdef CP0_PMU_IRQ_LINE
#define INTCTL_RO ((2u + CP0_PMU_IRQ_LINE) << 26)
#else
#define INTCTL_RO 0u
#endif
#define CONFIG2 0x80000000u
#define CONFIG3 ((1u << 13) | (1u << 5)) /* ULRI, VInt */

static const char *const exc_names[32] = {
    [EXC_INT] = "Int", [EXC_ADEL] = "AdEL", [EXC_ADES] = "AdES", [EXC_IBE] = "IBE",
    [EXC_DBE] = "DBE", [EXC_SYS] = "Sys", [EXC_BP] = "Bp", [EXC_RI] = "RI",
    [EXC_CPU] = "CpU", [EXC_OV] = "Ov", [EXC_TR] = "Tr",
};

/* "cpuN " in traces when there are several CPUs */
static const char *cpu_tag(const cpu_t *c)
{
    static const char *const tags[MAX_CPUS] = {"cpu0 ", "cpu1 ", "cpu2 ", "cpu3 ",
                                               "cpu4 ", "cpu5 ", "cpu6 ", "cpu7 "};
    return c->m->ncpus > 1 ? tags[c->idx] : "";
}

void cpu_update_mode(cpu_t *c)
{
    c->mode = (c->status & (ST_EXL | ST_ERL)) ? 0 : ((c->status & ST_UM) ? 1 : 0);
    if (unlikely(c->pmu_on))
        pmu_mode_changed(c); /* the counters' mode (counts were accounted) */
}

void cpu_reset(cpu_t *c)
{
    for (int i = 0; i < 33; i++)
        c->r[i] = 0;
    c->hi = c->lo = 0;
    c->pc = c->m->entry;
    c->reset_pc = c->m->entry;
    c->resume_pc = 1;
    c->br_pending = false;
    c->waiting = false;
    c->status = ST_BEV | ST_ERL;
    c->cause = 0;
    c->epc = c->errorepc = c->badvaddr = 0;
    c->ebase = 0x80000000u; /* CPUNum (bits 11..0) comes from c->id */
    c->intctl = c->hwrena = c->userlocal = c->scratch = 0;
    c->compare = c->debug = 0;
    c->count_off = (uint32_t)0 - (uint32_t)machine_now(c->m); /* Count = 0 */
    cpu_ll_clear(c);
    c->ll_pa = 0;
    mmu_reset(c);
    pmu_reset(c);
    cpu_update_mode(c);
    c->exit_req = false;
}

void cpu_exception(cpu_t *c, int code, int ce)
{
    uint32_t pc = c->pc;
    STAT(c, IN_EXC);
    STAT_OP(c, exc, code);
    if (unlikely(c->pmu_on))
        pmu_exception(c, code == EXC_INT);
    if (!(c->status & ST_EXL)) {
        if (c->br_pending) {
            c->epc = pc - 4;
            c->cause |= CAUSE_BD;
        } else {
            c->epc = pc;
            c->cause &= ~CAUSE_BD;
        }
    }
    c->cause = (c->cause & ~(0x7Cu | 0x30000000u)) | ((uint32_t)code << 2) |
               ((uint32_t)(ce & 3) << 28);
    c->status |= ST_EXL;
    uint32_t base = (c->status & ST_BEV) ? c->reset_pc + 0x200 : (c->ebase & 0xFFFFF000u);
    uint32_t off = 0x180;
    if (code == EXC_INT && (c->cause & CAUSE_IV)) {
        off = 0x200;
        uint32_t vs = (c->intctl >> 5) & 0x1F;
        if (!(c->status & ST_BEV) && vs) {
            /* vectored interrupts: highest pending unmasked IP line */
            uint32_t pend = (c->cause & c->status & ST_IM) >> 8;
            int vec = pend ? 31 - __builtin_clz(pend) : 0;
            off += (uint32_t)vec * (vs << 5);
        }
    }
    if (TRACE_ON(c->m, TEMU_TRACE_INT))
        trace_printf(c->m,
                     "int: %s%s (%d) pc=0x%08x epc=0x%08x%s cause=0x%08x status=0x%08x "
                     "badvaddr=0x%08x -> 0x%08x\n",
                     cpu_tag(c), exc_names[code] ? exc_names[code] : "?", code, pc, c->epc,
                     (c->cause & CAUSE_BD) ? " BD" : "", c->cause, c->status, c->badvaddr,
                     base + off);
    if (TRACE_ON(c->m, TEMU_TRACE_INT) && (code == EXC_IBE || code == EXC_DBE))
        trace_printf(c->m, "int:   %s=0x%04x %s=0x%08x\n", code == EXC_IBE ? "IETR" : "DETR",
                     code == EXC_IBE ? c->ietr : c->detr, code == EXC_IBE ? "IBVAR" : "DBVAR",
                     code == EXC_IBE ? c->ibvar : c->dbvar);
    c->pc = base + off;
    c->br_pending = false;
    c->waiting = false;
    cpu_update_mode(c);
}

void cpu_data_fault(cpu_t *c, uint32_t va, uint32_t type)
{
    c->detr = type;
    c->dbvar = va & ~3u;
    c->badvaddr = va & ~3u;
    cpu_exception(c, EXC_DBE, 0);
}

void cpu_fetch_fault(cpu_t *c, uint32_t va, uint32_t type)
{
    c->ietr = type;
    c->ibvar = va;
    cpu_exception(c, EXC_IBE, 0);
}

void cpu_address_error(cpu_t *c, uint32_t va, bool store)
{
    c->badvaddr = va;
    cpu_exception(c, store ? EXC_ADES : EXC_ADEL, 0);
}

bool cpu_irq_pending(cpu_t *c)
{
    uint32_t st = c->status;
    return (st & ST_IE) && !(st & (ST_EXL | ST_ERL)) && (st & c->cause & ST_IM);
}

void cpu_take_interrupt(cpu_t *c)
{
    cpu_exception(c, EXC_INT, 0);
}

void cpu_eret(cpu_t *c)
{
    if (unlikely(c->pmu_on))
        pmu_account(c, 1); /* eret completes in the mode it leaves */
    if (c->status & ST_ERL) {
        c->pc = c->errorepc;
        c->status &= ~ST_ERL;
    } else {
        c->pc = c->epc;
        c->status &= ~ST_EXL;
    }
    /* The LL reservation survives eret in this model (hardware reference 1.3). */
    c->br_pending = false;
    cpu_update_mode(c);
    if (TRACE_ON(c->m, TEMU_TRACE_INT))
        trace_printf(c->m, "int: %seret -> 0x%08x status=0x%08x\n", cpu_tag(c), c->pc,
                     c->status);
}

uint32_t cp0_read(cpu_t *c, int reg, int sel)
{
#if CP0_PMU_COUNTERS
    uint32_t v;
    if (reg == CP0_PERFCTL0_REG && pmu_read(c, sel, &v))
        return v;
#endif
    switch (reg * 8 + sel) {
    case CP0_KEY(INDEX): return c->id; /* Index reads the CPU id */
    case CP0_KEY(SCRATCH): return c->scratch;
    case CP0_KEY(USERLOCAL): return c->userlocal;
    case CP0_KEY(HWRENA): return c->hwrena;
    case CP0_KEY(BADVADDR): return c->badvaddr;
    case CP0_KEY(COUNT): return cpu_count(c);
    case CP0_KEY(COMPARE): return c->compare;
    case CP0_KEY(STATUS): return c->status;
    case CP0_KEY(INTCTL): return c->intctl | INTCTL_RO;
    case CP0_KEY(CAUSE): return c->cause;
    case CP0_KEY(EPC): return c->epc;
    case CP0_KEY(PRID): return CP0_PRID_VALUE;
    case CP0_KEY(EBASE): return (c->ebase & 0xFFFFF000u) | c->id;
    case CP0_KEY(CONFIG): return CONFIG0;
    case CP0_KEY(CONFIG1): return CONFIG1;
    case CP0_KEY(CONFIG2): return CONFIG2;
    case CP0_KEY(CONFIG3): return CONFIG3;
    case CP0_KEY(DEBUG): return c->debug;
    case CP0_KEY(ERROREPC): return c->errorepc;
    default: return 0;
    }
}

void cp0_write(cpu_t *c, int reg, int sel, uint32_t val)
{
#if CP0_PMU_COUNTERS
    if (reg == CP0_PERFCTL0_REG && pmu_write(c, sel, val))
        return;
#endif
    switch (reg * 8 + sel) {
    case CP0_KEY(SCRATCH): c->scratch = val; break;
    case CP0_KEY(USERLOCAL): c->userlocal = val; break;
    case CP0_KEY(HWRENA): c->hwrena = val; break;
    case CP0_KEY(COUNT): c->count_off = val - (uint32_t)machine_now(c->m); break;
    case CP0_KEY(COMPARE): c->compare = val; break; /* inert: never interrupts */
    case CP0_KEY(STATUS):
        if (unlikely(c->pmu_on))
            pmu_account(c, 1); /* this mtc0 completes in the old mode */
        c->status = val & ST_WMASK;
        cpu_update_mode(c);
        break;
    case CP0_KEY(INTCTL): c->intctl = val & 0xFC0u; break;
    case CP0_KEY(CAUSE): c->cause = (c->cause & ~CAUSE_WMASK) | (val & CAUSE_WMASK); break;
    case CP0_KEY(EPC): c->epc = val; break;
    case CP0_KEY(EBASE): c->ebase = val & 0xFFFFF000u; break;
    case CP0_KEY(DEBUG): c->debug = val; break;
    case CP0_KEY(ERROREPC): c->errorepc = val; break;
    default: break; /* read-only or unimplemented: ignored */
    }
}
