/*
 * cpu.c - the threaded interpreter (MIPS32 execute stage).
 *
 * cpu_exec() runs predecoded instructions of the current physical code page
 * (dpage) with computed gotos.  Hot state lives in locals: `ip` (current
 * dinsn), `pbase`/`pvbase` (decoded page and its virtual base, from which the
 * PC is derived), `budget` (instructions left before the outer loop must look
 * at events), `brp`/`brt` (a branch is pending: the current instruction is
 * its delay slot).
 *
 * Every operation has two handlers: the normal one and a "delay slot" one
 * used for instructions that follow a branch in memory (and for the first
 * word of every page, whose predecessor lives elsewhere).  Only the latter
 * checks `brp`, so straight-line code pays nothing for delay slots.
 *
 * Anything slow or rare (MMIO, TLB misses, CP0/CP2, exceptions) is done out
 * of line after SYNC() has published the local state into `cpu_t`.
 *
 * This file owns the semantics (the B_* bodies); the list of operations,
 * their kinds and the superinstructions' words are ops.def's, from which
 * the handler table and the handler instances are generated.
 */
#include "internal.h"

const void *const *cpu_handlers;

#ifdef PAIR_HIST
/* Build option PAIR_HIST=1: count pairs of consecutively executed
 * operations (superinstructions are not formed in such a build). */
static uint64_t pair_hist[OP_COUNT + 1][OP_COUNT];
static int pair_last = OP_COUNT;
static inline void pair_hist_note(int op)
{
    pair_hist[pair_last][op]++;
    pair_last = op;
}
#endif

int cpu_exec(cpu_t *const c, int64_t budget_in)
{
    static const void *const handlers[] = {
#define OP(name, kind, flags, cond, size, reads, writes) &&L_##name, &&L_##name##_ds,
#define FUSE(name, first, second, third) &&L_##name, &&L_##name##_ds,
#include "ops.def"
        &&L_pageend, &&L_stop, &&L_jit,
    };
    if (!c) {
        cpu_handlers = handlers;
        return 0;
    }

    uint32_t *const R = c->r;
    /* Blocks are charged on entry, so the budget must fit a block length
     * below BLEN_UNKNOWN: leaving early is harmless (the caller loops). */
    if (budget_in > BUDGET_MAX)
        budget_in = BUDGET_MAX;
    /* budget: instructions left once the current block has run to its end
     * (bend); the true remaining budget is budget + (bend - ip). */
    int64_t budget = budget_in;
    uint64_t cycles_end = c->cycles + (uint64_t)budget_in;
    /* brp: 0 = no branch pending, 1 = jump to brt after this delay slot,
     * 2 = delay slot of a not-taken branch (continue sequentially),
     * 3 = jump to brip (a pre-resolved target in this page) after the slot */
    int brp = c->br_pending;
    uint32_t brt = c->br_target;
    dinsn *ip = NULL, *pbase = NULL, *bend = NULL, *brip = NULL;
    uint32_t *bl = NULL; /* block lengths of the current page */
    uint32_t pvbase = 0;
    stlb_ent *tlbr = NULL, *tlbw = NULL;

#define CUR_PC() (pvbase + ((uint32_t)(ip - pbase) << 2))
#define IDX_PC(p) (pvbase + ((uint32_t)((p) - pbase) << 2))
/* Remaining budget counting the current instruction as not yet executed. */
#define REMAINING() (budget + (bend - ip))
#define SYNC()                                                                \
    do {                                                                      \
        c->pc = CUR_PC();                                                     \
        c->br_pending = brp != 0;                                             \
        c->br_target = brp == 3 ? IDX_PC(brip) : brt;                         \
        c->cycles = cycles_end - (uint64_t)REMAINING();                       \
    } while (0)
/* Leave after the current instruction (it retires). */
#define FORCE_EXIT goto leave_after;
#define CHECK_EXIT                                                            \
    do {                                                                      \
        if (unlikely(c->exit_req)) {                                          \
            c->exit_req = false;                                              \
            goto leave_after;                                                 \
        }                                                                     \
    } while (0)
/* After a CP0 write or eret: the run ends (and run_loop takes the
 * interrupt) only when an interrupt is now deliverable or something asked
 * to leave.  Otherwise the current instruction retires and the run goes on
 * through lookup, which picks up a new mode (Status.UM/EXL/ERL).  No CP0
 * write changes a device event (Compare is inert); one that brings a
 * performance counter's overflow closer sets exit_req (pmu.c), so the
 * run's budget still ends at the next event as it would have. */
#define LEAVE_IF_IRQ_ELSE_LOOKUP                                              \
    do {                                                                      \
        if (cpu_irq_pending(c) || c->exit_req) {                              \
            STAT(c, EX_IRQLEAVE);                                             \
            FORCE_EXIT;                                                       \
        }                                                                     \
        budget += bend - ip - 1;                                              \
        bend = ip;                                                            \
        c->pc = brp == 1 ? brt : brp == 3 ? IDX_PC(brip) : CUR_PC() + 4;      \
        brp = 0;                                                              \
        cpu_marker_clear(c); /* (a stop marker later in this block) */        \
        goto lookup;                                                          \
    } while (0)
/* Count the current instruction and leave with c->pc already set. */
#define RETIRE_AND_LEAVE                                                      \
    do {                                                                      \
        budget += bend - ip - 1;                                              \
        bend = ip;                                                            \
        goto out_pc;                                                          \
    } while (0)
#define RAISE(code, ce)                                                       \
    do {                                                                      \
        SYNC();                                                               \
        cpu_exception(c, code, ce);                                           \
        goto exc;                                                             \
    } while (0)
#ifdef PAIR_HIST
#define PH(op) pair_hist_note(op)
#else
#define PH(op)
#endif
/* Straight-line successor: no budget test (the block was charged). */
#define NEXT                                                                  \
    do {                                                                      \
        ip++;                                                                 \
        goto *ip->h;                                                          \
    } while (0)
/* Enter the block starting at p (in this page): charge its length.  The
 * sanitizer build of the fuzzers shares one copy (compile time); the
 * others keep one per site, each with its own indirect jump. */
#ifdef TEMU_FUZZING
#define ENTER(p)                                                              \
    do {                                                                      \
        ip = (p);                                                             \
        goto enter_shared;                                                    \
    } while (0)
#else
#define ENTER(p)                                                              \
    do {                                                                      \
        ip = (p);                                                             \
        uint32_t n_ = bl[ip - pbase];                                         \
        if (unlikely((uint64_t)budget < n_))                                  \
            goto enter_slow;                                                  \
        budget -= n_;                                                         \
        bend = ip + n_;                                                       \
        goto *ip->h;                                                          \
    } while (0)
#endif
/* Continue at virtual address t after a delay slot (the block ended). */
#define JUMP(t)                                                               \
    do {                                                                      \
        uint32_t t_ = (t);                                                    \
        if (likely(((t_ ^ pvbase) & (PAGE_MASK | 3)) == 0))                   \
            ENTER(pbase + ((t_ & 0xFFF) >> 2));                               \
        c->pc = t_;                                                           \
        goto lookup;                                                          \
    } while (0)
#define DS_NEXT                                                               \
    do {                                                                      \
        if (brp == 3) {                                                       \
            brp = 0;                                                          \
            ENTER(brip);                                                      \
        }                                                                     \
        if (brp == 1) {                                                       \
            brp = 0;                                                          \
            JUMP(brt);                                                        \
        }                                                                     \
        if (brp == 2) {                                                       \
            brp = 0;                                                          \
            ENTER(ip + 1);                                                    \
        }                                                                     \
        NEXT;                                                                 \
    } while (0)

#define USER (c->mode)
#define NEED_CU0                                                              \
    do {                                                                      \
        if (unlikely(USER) && !(c->status & ST_CU0))                          \
            RAISE(EXC_CPU, 0);                                                \
    } while (0)
#define NEED_CU2                                                              \
    do {                                                                      \
        if (unlikely(USER) && !(c->status & ST_CU2))                          \
            RAISE(EXC_CPU, 2);                                                \
    } while (0)

/* ---- memory access fast paths (software TLB hit -> host pointer) ---- */
#define LOAD(size, T, va, dst) LOADT(size, T, va, dst, (void)0)
/* `then` runs once dst is set, before a slow path may leave the block. */
#define LOADT(size, T, va, dst, then)                                         \
    do {                                                                      \
        uint32_t va_ = (va);                                                  \
        stlb_ent *e_ = &tlbr[(va_ >> PAGE_SHIFT) & (STLB_N - 1)];             \
        if (likely(e_->tag == (va_ & (PAGE_MASK | (size - 1))))) {            \
            dst = (uint32_t)(T)(*(const T *)(e_->addend + va_));              \
            then;                                                             \
        } else {                                                              \
            uint32_t v_;                                                      \
            SYNC();                                                           \
            if (!mem_load_slow(c, va_, size, &v_))                            \
                goto exc;                                                     \
            dst = (uint32_t)(T)v_;                                            \
            then;                                                             \
            CHECK_EXIT;                                                       \
        }                                                                     \
    } while (0)

#define STORE(size, T, va, val)                                               \
    do {                                                                      \
        uint32_t va_ = (va);                                                  \
        stlb_ent *e_ = &tlbw[(va_ >> PAGE_SHIFT) & (STLB_N - 1)];             \
        if (likely(e_->tag == (va_ & (PAGE_MASK | (size - 1))))) {            \
            uintptr_t p_ = e_->addend + va_;                                  \
            *(T *)p_ = (T)(val);                                              \
        } else {                                                              \
            SYNC();                                                           \
            if (!mem_store_slow(c, va_, size, (val)))                         \
                goto exc;                                                     \
            CHECK_EXIT;                                                       \
        }                                                                     \
    } while (0)

#define BR_TARGET() (CUR_PC() + 4 + ip->imm)
/* A PC-relative branch whose target lies in the same page is pre-resolved
 * when decoded: sa = 1 and imm = byte offset of the target's dinsn. */
#define TAKE_BRANCH()                                                         \
    do {                                                                      \
        if (likely(ip->sa)) {                                                 \
            brip = (dinsn *)((char *)pbase + ip->imm);                        \
            brp = 3;                                                          \
        } else {                                                              \
            brt = BR_TARGET();                                                \
            brp = 1;                                                          \
        }                                                                     \
    } while (0)
/* The delay slot always runs as a delay slot (an exception there reports
 * EPC = branch, BD = 1, taken or not). */
#define BRANCH(cond)                                                          \
    do {                                                                      \
        if (cond)                                                             \
            TAKE_BRANCH();                                                    \
        else                                                                  \
            brp = 2;                                                          \
    } while (0)
/* branch likely: the delay slot is nullified when not taken (it is not
 * counted, and the next block starts after it).  In the delay slot of
 * another branch the newer one wins: nothing is pending after it. */
#define BRANCH_L(cond)                                                        \
    do {                                                                      \
        if (cond) {                                                           \
            TAKE_BRANCH();                                                    \
        } else {                                                              \
            brp = 0;                                                          \
            budget += bend - ip - 1;                                          \
            ENTER(ip + 2);                                                    \
        }                                                                     \
    } while (0)

#define RS R[ip->rs]
#define RT R[ip->rt]
#define RD R[ip->rd]
#define SRS ((int32_t)R[ip->rs])
#define SRT ((int32_t)R[ip->rt])

    /* Operation bodies.  Each is instantiated twice (normal / delay slot). */
#define B_ri RAISE(EXC_RI, 0);
#define B_nop
#define B_sll RD = RT << ip->sa;
#define B_srl RD = RT >> ip->sa;
#define B_sra RD = (uint32_t)(SRT >> ip->sa);
#define B_rotr                                                                \
    {                                                                         \
        uint32_t x = RT, s = ip->sa;                                          \
        RD = s ? (x >> s) | (x << (32 - s)) : x;                              \
    }
#define B_sllv RD = RT << (RS & 31);
#define B_srlv RD = RT >> (RS & 31);
#define B_srav RD = (uint32_t)(SRT >> (RS & 31));
#define B_rotrv                                                               \
    {                                                                         \
        uint32_t x = RT, s = RS & 31;                                         \
        RD = s ? (x >> s) | (x << (32 - s)) : x;                              \
    }
#define B_jr                                                                  \
    brt = RS;                                                                 \
    brp = 1;
#define B_jalr                                                                \
    {                                                                         \
        uint32_t t = RS;                                                      \
        RD = CUR_PC() + 8;                                                    \
        brt = t;                                                              \
        brp = 1;                                                           \
    }
#define B_movz                                                                \
    if (RT == 0)                                                              \
        RD = RS;
#define B_movn                                                                \
    if (RT != 0)                                                              \
        RD = RS;
#define B_syscall RAISE(EXC_SYS, 0);
#define B_brk RAISE(EXC_BP, 0);
#define B_sync /* CP2 SYNC: no write buffer; stores reach every CPU at once */
#define B_mfhi RD = c->hi;
#define B_mthi c->hi = RS;
#define B_mflo RD = c->lo;
#define B_mtlo c->lo = RS;
#define B_mult                                                                \
    {                                                                         \
        int64_t p = (int64_t)SRS * (int64_t)SRT;                              \
        c->lo = (uint32_t)p;                                                  \
        c->hi = (uint32_t)((uint64_t)p >> 32);                                \
    }
#define B_multu                                                               \
    {                                                                         \
        uint64_t p = (uint64_t)RS * (uint64_t)RT;                             \
        c->lo = (uint32_t)p;                                                  \
        c->hi = (uint32_t)(p >> 32);                                          \
    }
    /* division by zero: no exception, HI/LO left unchanged */
#define B_div                                                                 \
    {                                                                         \
        int32_t a = SRS, b = SRT;                                             \
        if (b == -1 && a == INT32_MIN) {                                      \
            c->lo = (uint32_t)a;                                              \
            c->hi = 0;                                                        \
        } else if (b != 0) {                                                  \
            c->lo = (uint32_t)(a / b);                                        \
            c->hi = (uint32_t)(a % b);                                        \
        }                                                                     \
    }
#define B_divu                                                                \
    {                                                                         \
        uint32_t a = RS, b = RT;                                              \
        if (b != 0) {                                                         \
            c->lo = a / b;                                                    \
            c->hi = a % b;                                                    \
        }                                                                     \
    }
#define B_add                                                                 \
    {                                                                         \
        int32_t r;                                                            \
        if (__builtin_add_overflow(SRS, SRT, &r))                             \
            RAISE(EXC_OV, 0);                                                 \
        RD = (uint32_t)r;                                                     \
    }
#define B_addu RD = RS + RT;
#define B_sub                                                                 \
    {                                                                         \
        int32_t r;                                                            \
        if (__builtin_sub_overflow(SRS, SRT, &r))                             \
            RAISE(EXC_OV, 0);                                                 \
        RD = (uint32_t)r;                                                     \
    }
#define B_subu RD = RS - RT;
#define B_and RD = RS & RT;
#define B_or RD = RS | RT;
#define B_xor RD = RS ^ RT;
#define B_nor RD = ~(RS | RT);
#define B_slt RD = SRS < SRT;
#define B_sltu RD = RS < RT;
#define B_tge if (SRS >= SRT) RAISE(EXC_TR, 0);
#define B_tgeu if (RS >= RT) RAISE(EXC_TR, 0);
#define B_tlt if (SRS < SRT) RAISE(EXC_TR, 0);
#define B_tltu if (RS < RT) RAISE(EXC_TR, 0);
#define B_teq if (RS == RT) RAISE(EXC_TR, 0);
#define B_tne if (RS != RT) RAISE(EXC_TR, 0);
#define B_move RD = RS;
#define B_bltz BRANCH(SRS < 0);
#define B_bgez BRANCH(SRS >= 0);
#define B_bltzl BRANCH_L(SRS < 0);
#define B_bgezl BRANCH_L(SRS >= 0);
#define B_bltzal                                                              \
    {                                                                         \
        int32_t v = SRS;                                                      \
        R[31] = CUR_PC() + 8;                                                 \
        BRANCH(v < 0);                                                        \
    }
#define B_bgezal                                                              \
    {                                                                         \
        int32_t v = SRS;                                                      \
        R[31] = CUR_PC() + 8;                                                 \
        BRANCH(v >= 0);                                                       \
    }
#define B_bltzall                                                             \
    {                                                                         \
        int32_t v = SRS;                                                      \
        R[31] = CUR_PC() + 8;                                                 \
        BRANCH_L(v < 0);                                                      \
    }
#define B_bgezall                                                             \
    {                                                                         \
        int32_t v = SRS;                                                      \
        R[31] = CUR_PC() + 8;                                                 \
        BRANCH_L(v >= 0);                                                     \
    }
#define B_j                                                                   \
    brt = ((CUR_PC() + 4) & 0xF0000000u) | ip->imm;                           \
    brp = 1;
#define B_jal                                                                 \
    {                                                                         \
        uint32_t pc = CUR_PC();                                               \
        R[31] = pc + 8;                                                       \
        brt = ((pc + 4) & 0xF0000000u) | ip->imm;                             \
        brp = 1;                                                           \
    }
#define B_beq BRANCH(RS == RT);
#define B_bne BRANCH(RS != RT);
#define B_blez BRANCH(SRS <= 0);
#define B_bgtz BRANCH(SRS > 0);
#define B_beql BRANCH_L(RS == RT);
#define B_bnel BRANCH_L(RS != RT);
#define B_blezl BRANCH_L(SRS <= 0);
#define B_bgtzl BRANCH_L(SRS > 0);
#define B_b BRANCH(1);
#define B_addi                                                                \
    {                                                                         \
        int32_t r;                                                            \
        if (__builtin_add_overflow(SRS, (int32_t)ip->imm, &r))                \
            RAISE(EXC_OV, 0);                                                 \
        RT = (uint32_t)r;                                                     \
    }
#define B_addiu RT = RS + ip->imm;
#define B_li RT = ip->imm;
#define B_slti RT = SRS < (int32_t)ip->imm;
#define B_sltiu RT = RS < ip->imm;
#define B_andi RT = RS & ip->imm;
#define B_ori RT = RS | ip->imm;
#define B_xori RT = RS ^ ip->imm;
#define B_lui RT = ip->imm;
#define B_mfc0                                                                \
    NEED_CU0;                                                                 \
    SYNC();                                                                   \
    RT = cp0_read(c, ip->rd, ip->sa);
#define B_mtc0                                                                \
    NEED_CU0;                                                                 \
    SYNC();                                                                   \
    cp0_write(c, ip->rd, ip->sa, RT);                                         \
    LEAVE_IF_IRQ_ELSE_LOOKUP;
#define B_eret                                                                \
    NEED_CU0;                                                                 \
    SYNC();                                                                   \
    cpu_eret(c);                                                              \
    STAT(c, IN_ERET);                                                         \
    brp = 0;                                                              \
    if (cpu_irq_pending(c) || c->exit_req) {                                  \
        STAT(c, EX_IRQLEAVE);                                                 \
        RETIRE_AND_LEAVE;                                                     \
    }                                                                         \
    budget += bend - ip - 1;                                                  \
    bend = ip;                                                                \
    cpu_marker_clear(c);                                                      \
    goto lookup;
#define B_wait                                                                \
    NEED_CU0;                                                                 \
    SYNC();                                                                   \
    c->waiting = true;                                                        \
    STAT(c, EX_WAIT);                                                         \
    c->pc = brp == 1 ? brt : CUR_PC() + 4;                                    \
    brp = 0;                                                              \
    RETIRE_AND_LEAVE;
#define B_di                                                                  \
    NEED_CU0;                                                                 \
    {                                                                         \
        uint32_t s = c->status;                                               \
        c->status = s & ~ST_IE;                                               \
        RT = s;                                                               \
    }
#define B_ei                                                                  \
    NEED_CU0;                                                                 \
    {                                                                         \
        uint32_t s = c->status;                                               \
        c->status = s | ST_IE;                                                \
        RT = s;                                                               \
        if (cpu_irq_pending(c)) {                                             \
            STAT(c, EX_IRQLEAVE);                                             \
            FORCE_EXIT;                                                       \
        }                                                                     \
    }
#define B_cop0_other                                                          \
    NEED_CU0;                                                                 \
    RAISE(EXC_RI, 0);
#define B_cpu1 RAISE(EXC_CPU, 1);
#define B_mfc2                                                                \
    NEED_CU2;                                                                 \
    {                                                                         \
        uint32_t v_;                                                          \
        int r_;                                                               \
        SYNC();                                                               \
        r_ = mmu_cp2_read(c, ip->rd, &v_);                                    \
        if (r_) {                                                             \
            cpu_data_fault(c, (uint32_t)ip->rd * 4, (uint32_t)r_);            \
            goto exc;                                                         \
        }                                                                     \
        RT = v_;                                                              \
    }
#define B_mtc2                                                                \
    NEED_CU2;                                                                 \
    {                                                                         \
        int r_;                                                               \
        SYNC();                                                               \
        r_ = mmu_cp2_write(c, ip->rd, RT);                                    \
        if (r_) {                                                             \
            cpu_data_fault(c, (uint32_t)ip->rd * 4, (uint32_t)r_);            \
            goto exc;                                                         \
        }                                                                     \
        STAT(c, EX_MTC2);                                                     \
        CHECK_EXIT; /* a flush (PTPR, MODE, TLB invalidations) asks */        \
    }
#define B_cop2_other                                                          \
    NEED_CU2;                                                                 \
    RAISE(EXC_RI, 0);
#define ACC() (((uint64_t)c->hi << 32) | c->lo)
#define SET_ACC(v)                                                            \
    do {                                                                      \
        uint64_t v_ = (v);                                                    \
        c->lo = (uint32_t)v_;                                                 \
        c->hi = (uint32_t)(v_ >> 32);                                         \
    } while (0)
#define B_madd SET_ACC(ACC() + (uint64_t)((int64_t)SRS * (int64_t)SRT));
#define B_maddu SET_ACC(ACC() + (uint64_t)RS * (uint64_t)RT);
#define B_msub SET_ACC(ACC() - (uint64_t)((int64_t)SRS * (int64_t)SRT));
#define B_msubu SET_ACC(ACC() - (uint64_t)RS * (uint64_t)RT);
#define B_mul RD = (uint32_t)((int64_t)SRS * (int64_t)SRT);
#define B_clz                                                                 \
    {                                                                         \
        uint32_t x = RS;                                                      \
        RD = x ? (uint32_t)__builtin_clz(x) : 32;                             \
    }
#define B_clo                                                                 \
    {                                                                         \
        uint32_t x = ~RS;                                                     \
        RD = x ? (uint32_t)__builtin_clz(x) : 32;                             \
    }
#define B_trap_quirk RAISE(EXC_TR, 0);
#define B_ext RT = (RS >> ip->sa) & ip->imm;
#define B_ins RD = (RT & ~ip->imm) | ((RS << ip->sa) & ip->imm);
#define B_wsbh                                                                \
    {                                                                         \
        uint32_t x = RT;                                                      \
        RD = ((x & 0x00FF00FFu) << 8) | ((x >> 8) & 0x00FF00FFu);             \
    }
#define B_seb RD = (uint32_t)(int32_t)(int8_t)RT;
#define B_seh RD = (uint32_t)(int32_t)(int16_t)RT;
#define B_rdhwr                                                               \
    {                                                                         \
        unsigned hr = ip->rd;                                                 \
        if (USER && !(c->hwrena & (1u << hr)))                                \
            RAISE(EXC_RI, 0);                                                 \
        switch (hr) {                                                         \
        case 0: RT = c->id; break;                                 \
        case 2: SYNC(); RT = cpu_count(c); break;                             \
        case 3: RT = 1; break;                                                \
        case 29: RT = c->userlocal; break;                                    \
        default: RAISE(EXC_RI, 0);                                            \
        }                                                                     \
    }
#define B_lb LOAD(1, int8_t, RS + ip->imm, RT);
#define B_lbu LOAD(1, uint8_t, RS + ip->imm, RT);
#define B_lh LOAD(2, int16_t, RS + ip->imm, RT);
#define B_lhu LOAD(2, uint16_t, RS + ip->imm, RT);
#define B_lw LOAD(4, uint32_t, RS + ip->imm, RT);
    /* little-endian lwl/lwr: merge part of the aligned word into rt */
#define B_lwl                                                                 \
    {                                                                         \
        uint32_t va = RS + ip->imm, w, sh = (3 - (va & 3)) * 8;               \
        LOADT(4, uint32_t, va & ~3u, w,                                       \
              RD = (RT & ~(0xFFFFFFFFu << sh)) | (w << sh));                  \
    }
#define B_lwr                                                                 \
    {                                                                         \
        uint32_t va = RS + ip->imm, w, sh = (va & 3) * 8;                     \
        LOADT(4, uint32_t, va & ~3u, w,                                       \
              RD = (RT & ~(0xFFFFFFFFu >> sh)) | (w >> sh));                  \
    }
#define B_sb STORE(1, uint8_t, RS + ip->imm, RT);
#define B_sh STORE(2, u16a, RS + ip->imm, RT);
#define B_sw STORE(4, u32a, RS + ip->imm, RT);
    /* swl/swr store a subset of bytes: done as a byte-enable word store */
#define B_swl                                                                 \
    {                                                                         \
        uint32_t va = RS + ip->imm, b = va & 3;                               \
        SYNC();                                                               \
        if (!mem_store_be(c, va & ~3u, RT >> ((3 - b) * 8), 0xFu >> (3 - b),  \
                          va))                                                \
            goto exc;                                                         \
        CHECK_EXIT;                                                           \
    }
#define B_swr                                                                 \
    {                                                                         \
        uint32_t va = RS + ip->imm, b = va & 3;                               \
        SYNC();                                                               \
        if (!mem_store_be(c, va & ~3u, RT << (b * 8), (0xFu << b) & 0xFu,     \
                          va))                                                \
            goto exc;                                                         \
        CHECK_EXIT;                                                           \
    }
#define B_cache NEED_CU0; /* caches are not modelled: always coherent */
#define B_pref
#define B_ll                                                                  \
    {                                                                         \
        uint32_t v_;                                                          \
        SYNC();                                                               \
        if (!mem_ll(c, RS + ip->imm, &v_))                                    \
            goto exc;                                                         \
        RT = v_;                                                              \
        CHECK_EXIT;                                                           \
    }
#define B_sc                                                                  \
    {                                                                         \
        uint32_t ok_;                                                         \
        SYNC();                                                               \
        if (!mem_sc(c, RS + ip->imm, RT, &ok_))                               \
            goto exc;                                                         \
        RD = ok_;                                                             \
        CHECK_EXIT;                                                           \
    }

    /* ---- enter at c->pc ---- */
    goto lookup;

    /* ---- handlers ---- */
L_decode:
L_decode_ds: {
    uint32_t idx = (uint32_t)(ip - pbase);
    decode_at(c, c->cur_dp, idx);
    goto *ip->h;
}

#define INST(n)                                                               \
    L_##n : PH(OP_##n);                                                       \
    STAT_OP(c, op_interp, OP_##n);                                            \
    { B_##n } NEXT;                                                           \
    L_##n##_ds : PH(OP_##n);                                                  \
    STAT_OP(c, op_interp, OP_##n);                                            \
    { B_##n } DS_NEXT;
/* Branches: a branch in a delay slot is UNPREDICTABLE; the newer one wins. */
#define INST_BR(n)                                                            \
    L_##n : L_##n##_ds : PH(OP_##n);                                          \
    STAT_OP(c, op_interp, OP_##n);                                            \
    { B_##n } NEXT;

/* Superinstructions (only formed for words that are not delay slots).  They
 * run words the block was charged for; a stop marker is never skipped: the
 * superinstructions covering its word run as their first operation alone
 * while it is set (cpu_marker_set). */
/* taken branch or not, once its nop delay slot has retired too */
#define BR_NOP_TAIL(cond)                                                     \
    do {                                                                      \
        if (cond) {                                                           \
            if (likely(ip->sa))                                               \
                ENTER((dinsn *)((char *)pbase + ip->imm));                    \
            c->pc = BR_TARGET();                                              \
            goto lookup;                                                      \
        }                                                                     \
        ENTER(ip + 2);                                                        \
    } while (0)
#define B_beq_nop BR_NOP_TAIL(RS == RT);
#define B_bne_nop BR_NOP_TAIL(RS != RT);
#define B_b_nop BR_NOP_TAIL(1);
#define B_jr_nop JUMP(RS);
/* addiu then the bne that follows it (its own dinsn, decoded with it) */
#define B_addiu_bne                                                           \
    B_addiu ip++;                                                             \
    B_bne
/* addiu, bne and the bne's nop delay slot */
#define B_addiu_bne_nop                                                       \
    B_addiu ip++;                                                             \
    BR_NOP_TAIL(RS != RT);
#define INST_FUSED(n)                                                         \
    L_##n : L_##n##_ds : STAT_OP(c, op_interp, OP_##n);                       \
    { B_##n } NEXT;

    /* one handler pair per operation of ops.def, by its kind */
#define INST_PLAIN INST
#define INST_DECODE(n) /* L_decode, above */
#define OP(name, kind, flags, cond, size, reads, writes) INST_##kind(name)
#define FUSE(name, first, second, third) INST_FUSED(name)
#include "ops.def"

L_pageend:
    /* Fell off the end of the decoded page (possibly into a delay slot). */
    budget += bend - ip;
    bend = ip;
    if (brp == 3) {
        brt = IDX_PC(brip);
        brp = 1;
    }
    c->pc = CUR_PC();
    goto lookup;

L_jit: {
    /* Entry word of a block counted or translated by the JIT (jit_*.c). */
    dpage *dp = c->cur_dp;
    uint32_t idx = (uint32_t)(ip - pbase);
    jblock *jb = dp->jit ? dp->jit[idx] : NULL;
    const void *code;
    STAT(c, J_LJIT);
    if (unlikely(!jb)) { /* dropped while a marker held the handler */
        decode_at(c, dp, idx);
        goto *ip->h;
    }
    /* only a whole block, charged in full, not entered as a delay slot */
    if (brp || bend - ip != (ptrdiff_t)jb->n) {
        STAT(c, J_PLAIN);
#ifdef TEMU_STATS
        if (brp)
            STAT(c, J_PLAIN_DS);
        else if (bend - ip < (ptrdiff_t)jb->n)
            STAT(c, J_PLAIN_SHORT);
#endif
        goto *jb->plain_h;
    }
    c->jit_pc0 = IDX_PC(ip); /* (translate names the region by it) */
    code = jb->code;
    if (unlikely(!code)) {
        if (++jb->count < c->m->jit_hot) {
            STAT(c, J_COUNTING);
            goto *jb->orig_h;
        }
        STAT(c, J_TRANSLATE);
        code = jit_translate(c, dp, idx);
        if (!code)
            goto *ip->h;
    }
    c->jit_n = jb->n;
    c->jit_cend = cycles_end;
    c->jit_budget = budget;
#ifdef TEMU_STATS
    int64_t st_before = budget + (int64_t)jb->n;
    STAT(c, J_RUN);
#endif
    /* host code may chain to other translated blocks of this page */
    uint32_t res = jit_run(c, code, tlbr, tlbw, pvbase, dp->jit);
    uint32_t r = res >> 2, n = c->jit_n;
    budget = c->jit_budget;
#ifdef TEMU_STATS
    if ((res & 3) == JIT_NORMAL) {
        STAT(c, J_RET_NORMAL);
        STAT_ADD(c, J_INSNS, (uint64_t)(st_before - budget));
    } else {
        STAT_ADD(c, J_INSNS, (uint64_t)(st_before - (budget + (int64_t)n - (int64_t)r)));
        if ((res & 3) == JIT_EXC)
            STAT(c, J_RET_EXC);
        else if ((res & 3) == JIT_LEAVE)
            STAT(c, J_RET_LEAVE);
        else {
            dinsn d_;
            uint32_t w_ = ((const u32a *)c->cur_dp->host)[((c->jit_pc0 & 0xFFF) >> 2) + r];
            STAT(c, J_RET_CONT);
            STAT_ADD(c, J_CONT_INSNS, n - r);
            STAT_OP(c, op_cont, decode_insn(w_, &d_));
        }
    }
#endif
    if (c->cur_dp != dp) { /* it chained into other pages: the last one's */
        dp = c->cur_dp;
        pbase = dp->ops;
        bl = dp->blen;
        pvbase = c->jit_pv;
    }
    if ((res & 3) == JIT_NORMAL) /* c->pc is next, budget is what is left */
        JUMP(c->pc);
    /* the other returns name their block (jit_pc0, jit_n) */
    ip = pbase + ((c->jit_pc0 & 0xFFF) >> 2);
    bend = ip + n;
    switch (res & 3) {
    case JIT_CONT: /* the interpreter runs the rest of the block */
        ip += r;
        goto *ip->h;
    case JIT_EXC: /* c->pc is the vector; the faulting instruction is r - 1 */
        ip += r - 1;
        goto exc;
    default: /* JIT_LEAVE: instruction r - 1 retired, c->pc is set */
        c->exit_req = false;
        budget += n - r;
        ip += r - 1;
        bend = ip;
        goto out_pc;
    }
}

L_stop:
    /* The stop marker: the budget ends before this instruction. */
    budget += bend - ip;
    bend = ip;
    c->pc = CUR_PC();
    c->resume_pc = c->pc;
    goto out_pc;

#ifdef TEMU_FUZZING
enter_shared: {
    uint32_t n_ = bl[ip - pbase];
    if (unlikely((uint64_t)budget < n_))
        goto enter_slow;
    budget -= n_;
    bend = ip + n_;
    goto *ip->h;
}
#endif

enter_slow: {
    /* Block entry without enough budget, an unknown length or off the page. */
    uint32_t idx = (uint32_t)(ip - pbase), n;
    STAT(c, IN_ENTER_SLOW);
    if (idx >= DPAGE_N) {
        bend = ip;
        c->pc = CUR_PC();
        goto lookup;
    }
    n = bl[idx];
    if ((n & BLEN_NOENTRY) && unlikely(IDX_PC(ip) == c->resume_pc)) {
        /* Resuming where the budget stopped this CPU inside a block (an SMP
         * slot's end, a device event, the host poll): most such words are
         * no block's entry, so the length is kept as no entry's
         * (BLEN_NOENTRY) and the entries are not counted, which would
         * install L_jit (and later a translation) at every word where a
         * budget once ran out. A branch to the word makes it an entry. */
        STAT(c, IN_RESUME);
        if (n == BLEN_UNKNOWN)
            bl[idx] = block_len((const u32a *)c->cur_dp->host, idx, false) | BLEN_NOENTRY;
        n = bl[idx] & ~BLEN_NOENTRY;
        c->resume_pc = 1;
    } else if (n & BLEN_NOENTRY) {
        n = bl[idx] = n == BLEN_UNKNOWN ? block_len((const u32a *)c->cur_dp->host, idx, false)
                                        : n & ~BLEN_NOENTRY;
        /* first entry of the block: the translating tier counts its entries */
        if (c->m->jit) {
            jit_install(c, c->cur_dp, idx);
            n = bl[idx]; /* (a flush may have forgotten it) */
        }
    }
    if (0) {
    charge_ds:
        /* entered on a delay slot: its block ends right after it */
        n = block_len((const u32a *)c->cur_dp->host, (uint32_t)(ip - pbase), true);
    }
    if ((uint64_t)budget >= n) {
        budget -= n;
        bend = ip + n;
        goto *ip->h;
    }
    if (budget <= 0) {
        bend = ip;
        c->pc = CUR_PC();
        goto out_pc;
    }
    /* Run the first `budget` instructions of the block, then stop. */
    STAT(c, IN_MARKER);
    STAT_ADD(c, IN_MARKER_INSNS, (uint64_t)budget);
    cpu_marker_set(c, ip + budget);
    bend = ip + budget;
    budget = 0;
    goto *ip->h;
}

lookup: {
    uint32_t pc = c->pc;
    STAT(c, IN_LOOKUP);
    itlb_ent *ie = &c->itlb[c->mode][(pc >> PAGE_SHIFT) & (ITLB_N - 1)];
    dpage *dp;
    ip = bend = NULL;
    if (budget <= 0)
        goto out_pc;
    if (brp == 2) { /* delay slot of a not-taken branch on another page */
        brp = 1;
        brt = pc + 4;
    }
    if (likely(ie->tag == (pc & (PAGE_MASK | 3)))) {
        dp = ie->dp;
    } else {
        c->br_pending = brp != 0;
        c->br_target = brt;
        c->cycles = cycles_end - (uint64_t)budget;
        dp = fetch_slow(c, pc);
        if (!dp)
            goto exc;
    }
    c->cur_dp = dp;
    pbase = dp->ops;
    bl = dp->blen;
    pvbase = pc & PAGE_MASK;
    tlbr = c->dtlb_r[c->mode];
    tlbw = c->dtlb_w[c->mode];
    ip = pbase + ((pc & 0xFFF) >> 2);
    if (unlikely(brp)) {
        bend = ip;
        goto charge_ds;
    }
    ENTER(ip);
}

leave_after:
    /* The current instruction retires, then leave (FORCE_EXIT/CHECK_EXIT). */
    budget += bend - ip - 1;
    bend = ip;
    c->pc = brp == 1 ? brt : brp == 3 ? IDX_PC(brip) : CUR_PC() + 4;
    brp = 0;
    goto out_pc;

exc:
    /* An exception was raised: c->pc is the vector; the faulting instruction
     * (or fetch) counts as one cycle. */
    brp = 0;
    budget += bend - ip - 1;
    bend = ip;
    cpu_marker_clear(c);
    if (budget <= 0)
        goto out_pc;
    if (unlikely(c->exit_req)) {
        c->exit_req = false;
        goto out_pc;
    }
    goto lookup;

out_pc:
    /* budget is the true remaining budget; c->pc is the next instruction */
    cpu_marker_clear(c);
    if (brp == 3) {
        brt = IDX_PC(brip);
        brp = 1;
    }
    c->cycles = cycles_end - (uint64_t)budget;
    if (brp == 2) /* leaving right after a not-taken branch */
        brt = c->pc + 4;
    c->br_pending = brp != 0;
    c->br_target = brt;
    c->cur_dp = NULL;
    return 0;
}

/* The stop marker replaces the handler of the first instruction past the
 * budget; it is removed whenever cpu_exec leaves the block or returns, and
 * before a store re-arms decoding of the running page. */
/* The plain operation a superinstruction starts with (NULL: not one). */
static const void *fused_first(const void *h, unsigned *span)
{
    for (int f = OP_FUSED0; f < OP_COUNT; f++)
        if (h == cpu_handlers[f * 2]) {
            *span = op_infos[f].span;
            return cpu_handlers[op_infos[f].fused[0] * 2];
        }
    return NULL;
}

void cpu_marker_set(cpu_t *c, dinsn *at)
{
    dinsn *pbase = c->cur_dp->ops;
    /* A not-taken branch likely refunds its nullified slot, so a block can
     * be entered again under a marker: move it, never leave one behind. */
    cpu_marker_clear(c);
    c->mk_ip = at;
    c->mk_h = at->h;
    at->h = cpu_handlers[OP_COUNT * 2 + 1];
    /* superinstructions that would run the marked word: plain while set */
    c->mk_nf = 0;
    for (unsigned back = 1; back <= 2 && at - back >= pbase; back++) {
        unsigned span;
        dinsn *q = at - back;
        const void *plain = fused_first(q->h, &span);
        if (plain && span > back) {
            c->mk_f[c->mk_nf] = q;
            c->mk_fh[c->mk_nf++] = q->h;
            q->h = plain;
        }
    }
}

void cpu_marker_clear(cpu_t *c)
{
    if (c->mk_ip) {
        c->mk_ip->h = c->mk_h;
        c->mk_ip = NULL;
        while (c->mk_nf) {
            c->mk_nf--;
            c->mk_f[c->mk_nf]->h = c->mk_fh[c->mk_nf];
        }
    }
}

/* Decode word idx of a code page into its dinsn: the operation (normal or
 * delay-slot handler), pre-resolved in-page branch targets, and the
 * superinstructions that start at it.  A stop marker on the word stays. */
static int decode_word(const u32a *words, uint32_t idx, dinsn *d)
{
    int op = decode_insn(words[idx], d);
    if (op_has(op, F_PCREL)) {
        int32_t t = (int32_t)idx + 1 + ((int32_t)d->imm >> 2);
        if (t >= 0 && t < DPAGE_N) {
            d->sa = 1;
            d->imm = (uint32_t)t * (uint32_t)sizeof(dinsn);
        } else {
            d->sa = 0;
        }
    }
    return op;
}

static void decode_store(cpu_t *c, dinsn *at, const dinsn *d)
{
    const void *h = d->h;
    *at = *d;
    if (at == c->mk_ip) {
        c->mk_h = h;
        at->h = cpu_handlers[OP_COUNT * 2 + 1];
    }
}

#ifndef PAIR_HIST
/* The longest superinstruction (ops.def FUSE rows) that starts with
 * operation op at word idx, or op.  Its words after the first that are not
 * nops are decoded into their own dinsn (its handler reads their fields). */
static int fuse(cpu_t *c, dpage *dp, uint32_t idx, int op)
{
    const u32a *words = (const u32a *)dp->host;
    int best = op;
    unsigned span = 1;
    dinsn m[2];
    for (int f = OP_FUSED0; f < OP_COUNT; f++) {
        const op_info *fi = &op_infos[f];
        unsigned k = 1;
        if (fi->fused[0] != op || fi->span <= span)
            continue;
        while (k < fi->span && idx + k < DPAGE_N &&
               decode_word(words, idx + k, &m[k - 1]) == fi->fused[k])
            k++;
        if (k == fi->span) {
            best = f;
            span = k;
        }
    }
    for (unsigned k = 1; k < span; k++) {
        int mop = op_infos[best].fused[k];
        if (mop != OP_nop) {
            m[k - 1].h = cpu_handlers[mop * 2];
            decode_store(c, &dp->ops[idx + k], &m[k - 1]);
        }
    }
    return best;
}
#endif

void decode_at(cpu_t *c, dpage *dp, uint32_t idx)
{
    STAT(c, IN_DECODE);
    const u32a *words = (const u32a *)dp->host;
    int ds = idx == 0 || insn_has_delay_slot(words[idx - 1]);
    dinsn d;
    int op = decode_word(words, idx, &d);
#ifndef PAIR_HIST
    /* no superinstruction over a stop marker (it would be skipped) */
    bool mk_near = c->mk_ip && c->mk_ip > &dp->ops[idx] && c->mk_ip <= &dp->ops[idx] + 2;
    if (!ds && idx + 1 < DPAGE_N && !mk_near)
        op = fuse(c, dp, idx, op);
#endif
    d.h = cpu_handlers[op * 2 + ds];
    decode_store(c, &dp->ops[idx], &d);
}

void cpu_init_handlers(void)
{
    if (!cpu_handlers)
        cpu_exec(NULL, 0);
}

int temu_pair_hist(FILE *out, unsigned top)
{
#ifndef PAIR_HIST
    (void)out;
    (void)top;
    return -1;
#else
    uint64_t total = 0;
    unsigned n = 0;
    static struct { uint64_t cnt; int a, b; } best[1024];
    for (int a = 0; a < OP_COUNT; a++)
        for (int b = 0; b < OP_COUNT; b++)
            total += pair_hist[a][b];
    if (top > 1024)
        top = 1024;
    for (int a = 0; a < OP_COUNT; a++)
        for (int b = 0; b < OP_COUNT; b++) {
            uint64_t k = pair_hist[a][b];
            if (!k || (n == top && k <= best[n - 1].cnt))
                continue;
            unsigned i = n < top ? n++ : n - 1;
            while (i > 0 && best[i - 1].cnt < k) {
                best[i] = best[i - 1];
                i--;
            }
            best[i].cnt = k;
            best[i].a = a;
            best[i].b = b;
        }
    fprintf(out, "instruction pairs (PAIR_HIST): %llu executed, top %u:\n",
            (unsigned long long)total, n);
    for (unsigned i = 0; i < n; i++)
        fprintf(out, "  %6.2f%%  %12llu  %s -> %s\n", 100.0 * (double)best[i].cnt / (double)total,
                (unsigned long long)best[i].cnt, op_infos[best[i].a].name, op_infos[best[i].b].name);
    return 0;
#endif
}

void dpage_reset(dpage *dp)
{
    const void *dec = cpu_handlers[OP_decode * 2];
    for (unsigned i = 0; i < DPAGE_N; i++)
        dp->ops[i].h = dec;
    dp->ops[DPAGE_N].h = dp->ops[DPAGE_N + 1].h = cpu_handlers[OP_COUNT * 2];
    for (unsigned i = 0; i < DPAGE_N + 2; i++)
        dp->blen[i] = BLEN_UNKNOWN;
}
