/*
 * stats.h - event counters of the build option STATS=1 (tsar-emu-stats,
 * `make -C emulator STATS=1`): where a run leaves host code, how often the
 * run loop, the dispatcher, the walker and the slow paths run.  A normal
 * build compiles every STAT() to nothing and its translated code has no
 * counting instruction; the counters never change what the guest sees.
 * tsar-emu-stats prints them with -v (stats.c); the figures are per run,
 * summed over the CPUs.
 */
#ifndef TSAR_STATS_H
#define TSAR_STATS_H

/* name, what it counts */
#define STAT_LIST(X)                                                          \
    X(RL_PASS, "run loop: passes (devices serviced)")                        \
    X(RL_EXEC, "run loop: cpu_exec runs")                                     \
    X(RL_SWITCH, "run loop: runs on another CPU than the run before")         \
    X(RL_IDLE, "run loop: idle skips (every CPU in wait)")                    \
    X(RL_IRQ, "run loop: interrupts taken")                                   \
    X(RL_BUD_SLOT, "run budget ends at: the SMP slot's end")                  \
    X(RL_BUD_EVENT, "run budget ends at: the next device event")              \
    X(RL_BUD_POLL, "run budget ends at: the host poll")                       \
    X(RL_BUD_OTHER, "run budget ends at: limit, counter or single step")      \
    X(RL_EARLY, "runs that returned before their budget ran out")             \
    X(EX_MMIO, "device register accesses (the run ends after one)")           \
    X(EX_TLBCLEAR, "software TLB clears of a CPU (its run ends)")             \
    X(EX_FLUSHALL, "stores into page-table pages (all CPUs' TLBs cleared)")   \
    X(EX_FLUSHCPU, "CP2 flushes of one CPU (PTPR, MODE, flush registers)")    \
    X(EX_CODESTORE, "stores into the running code page")                      \
    X(EX_WAIT, "wait")                                                        \
    X(EX_MTC2, "CP2 writes by the interpreter")                               \
    X(EX_IRQLEAVE, "eret, mtc0 or ei leaving for a deliverable interrupt")    \
    X(IN_LOOKUP, "interpreter: lookups (a jump to another page, a new mode)") \
    X(IN_FETCH_SLOW, "interpreter: fetch-table misses (fetch_slow)")          \
    X(IN_ENTER_SLOW, "interpreter: slow block entries (enter_slow)")          \
    X(IN_RESUME, "interpreter: resumes where a stop marker stopped")          \
    X(IN_DECODE, "interpreter: words decoded")                                \
    X(IN_EXC, "exceptions (interrupts included)")                             \
    X(IN_ERET, "eret")                                                        \
    X(MEM_LOAD_SLOW, "load slow paths (both tiers)")                          \
    X(MEM_STORE_SLOW, "store slow paths (both tiers, swl/swr, sc)")           \
    X(MEM_STORE_NOFAST, "slow stores to pages without fast entries")          \
    X(MEM_LL, "ll")                                                           \
    X(MEM_SC, "sc")                                                           \
    X(MMU_WALK_R, "walker: reads (software TLB refills and ll)")              \
    X(MMU_WALK_W, "walker: writes")                                           \
    X(MMU_WALK_X, "walker: fetches")                                          \
    X(DP_NEW, "decoded pages allocated")                                      \
    X(DP_EVICT, "decoded pages evicted (pool full)")                          \
    X(DP_FREED, "decoded pages dropped by a store")                           \
    X(J_LJIT, "jit: L_jit entries (blocks counted or translated)")            \
    X(J_PLAIN, "jit: L_jit ran the plain operation (not a whole block)")     \
    X(J_PLAIN_DS, "jit: ... of those, entered as a delay slot")               \
    X(J_PLAIN_SHORT, "jit: ... of those, a stop marker in the block")         \
    X(J_COUNTING, "jit: entries of blocks not yet hot")                       \
    X(J_CONT_INSNS, "jit: instructions interpreted after JIT_CONT (at most)") \
    X(IN_MARKER, "interpreter: runs of a block's head to a stop marker")      \
    X(IN_MARKER_INSNS, "interpreter: instructions of those runs")            \
    X(J_TRANSLATE, "jit: translations attempted")                             \
    X(J_RUN, "jit: host code entries (jit_run)")                              \
    X(J_INSNS, "jit: guest instructions run by host code")                    \
    X(J_RET_NORMAL, "jit: returns at a block end (dispatcher did not chain)") \
    X(J_RET_EXC, "jit: returns with an exception")                            \
    X(J_RET_LEAVE, "jit: returns leaving cpu_exec (device, flush, mtc0)")     \
    X(J_RET_CONT, "jit: returns to interpret the rest of a block")            \
    X(J_DROP_PAGE, "jit: pages whose translations were dropped")              \
    X(J_H_LOAD, "jit helper: load slow path")                                 \
    X(J_H_STORE, "jit helper: store slow path")                               \
    X(J_H_LLSC, "jit helper: ll/sc")                                          \
    X(J_H_MFC0, "jit helper: mfc0")                                           \
    X(J_H_MTC0, "jit helper: mtc0")                                           \
    X(J_H_MTC2, "jit helper: mtc2")                                           \
    X(J_H_DIEI, "jit helper: di, ei")                                         \
    X(J_H_RAISE, "jit helper: exception")                                     \
    X(J_H_LINK, "jit helper: link attempts")                                  \
    X(D_SAME, "dispatcher: same-page lookups")                                \
    X(D_SAME_HIT, "dispatcher: same-page chained")                            \
    X(D_JC, "dispatcher: jump cache probes (other page)")                     \
    X(D_JC_HIT, "dispatcher: jump cache hits (chained)")                      \
    X(D_ITLB_HIT, "dispatcher: chained through the fetch table")             \
    X(D_F_BUDGET, "dispatcher: no chain, budget short")                       \
    X(D_F_NOCODE, "dispatcher: no chain, target not translated")              \
    X(D_F_ITLB, "dispatcher: no chain, fetch-table miss")                     \
    X(D_F_ALIGN, "dispatcher: no chain, misaligned PC")                       \
    X(D_REGION_BUDGET, "region: internal entry out of budget")                \
    X(X_JAL, "exit to the dispatcher: jal to another page")                   \
    X(X_JAL_SAME, "jal, target on the same page (link site)")                 \
    X(X_J, "exit to the dispatcher: j to another page")                       \
    X(X_J_SAME, "j, target on the same page (link site)")                     \
    X(X_JR_RA, "exit to the dispatcher: jr $ra (return stack missed)")        \
    X(X_RAS_HIT, "jr $ra: return stack hit (chained)")                        \
    X(X_RAS_PUSH, "jal, bal, jalr: return stack pushes")                      \
    X(X_RAS_PUSH_K, "... of those, return block known when translated")       \
    X(X_JR, "exit to the dispatcher: other jr, jalr")                         \
    X(X_PAGEEND, "exit to the dispatcher: fall through the page end")         \
    X(X_OFFPAGE, "exit to the dispatcher: branch or slot-end off the page")   \
    X(X_SITE, "exit to the dispatcher: in-page site not linked or budget short")

enum {
#define STAT_ENUM(n, d) ST_##n,
    STAT_LIST(STAT_ENUM)
#undef STAT_ENUM
    ST_COUNT
};

#define ST_OPS 128 /* per operation (OP_COUNT < 128) */
#define ST_EXCS 32 /* per exception code */

typedef struct cpu_stats {
    uint64_t n[ST_COUNT];
    uint64_t op_interp[ST_OPS]; /* operations run by the interpreter */
    uint64_t op_cont[ST_OPS];   /* the operation host code stopped at (JIT_CONT) */
    uint64_t exc[ST_EXCS];      /* exceptions by code */
} cpu_stats;

#ifdef TEMU_STATS
#define STAT(c, k) ((c)->st.n[ST_##k]++)
#define STAT_ADD(c, k, v) ((c)->st.n[ST_##k] += (v))
#define STAT_OP(c, arr, op) ((c)->st.arr[(op) & (ST_OPS - 1)]++)
/* an event of the machine: counted on the running CPU, else CPU 0 */
#define STATM(m, k) STAT((m)->cur ? (m)->cur : (m)->cpus, k)
#else
#define STATM(m, k) ((void)0)
#define STAT(c, k) ((void)0)
#define STAT_ADD(c, k, v) ((void)0)
#define STAT_OP(c, arr, op) ((void)0)
#endif

#endif
