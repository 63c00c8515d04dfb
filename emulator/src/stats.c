/*
 * stats.c - the event counters of STATS=1 builds (stats.h), summed over
 * the CPUs and printed by tsar-emu -v.
 */
#include <string.h>

#include "internal.h"

#ifdef TEMU_STATS
static const char *const stat_name[] = {
#define STAT_NAME(n, d) #n,
    STAT_LIST(STAT_NAME)
#undef STAT_NAME
};
static const char *const stat_desc[] = {
#define STAT_DESC(n, d) d,
    STAT_LIST(STAT_DESC)
#undef STAT_DESC
};

/* The top entries of one per-operation (or per-code) array. */
static void top(FILE *out, const char *title, const uint64_t *v, unsigned nv, bool ops,
                uint64_t per)
{
    uint64_t total = 0;
    for (unsigned i = 0; i < nv; i++)
        total += v[i];
    fprintf(out, "stats: %s: %llu\n", title, (unsigned long long)total);
    bool done[ST_OPS] = {false};
    for (unsigned shown = 0; shown < 16; shown++) {
        unsigned best = nv;
        for (unsigned i = 0; i < nv; i++)
            if (!done[i] && v[i] && (best == nv || v[i] > v[best]))
                best = i;
        if (best == nv)
            break;
        done[best] = true;
        const char *name = ops && best < OP_COUNT ? op_infos[best].name : NULL;
        char code[16];
        if (!name) {
            snprintf(code, sizeof code, "code %u", best);
            name = code;
        }
        fprintf(out, "stats:   %-14s %14llu  %6.2f%%  1 per %.0f guest instructions\n", name,
                (unsigned long long)v[best], 100.0 * (double)v[best] / (double)total,
                v[best] ? (double)per / (double)v[best] : 0.0);
    }
}
#endif

int temu_stats_print(temu *e, FILE *out)
{
#ifndef TEMU_STATS
    (void)e;
    (void)out;
    return -1;
#else
    machine *m = &e->m;
    static cpu_stats s;
    memset(&s, 0, sizeof s);
    uint64_t insns = 0;
    for (int k = 0; k < m->ncpus; k++) {
        const cpu_t *c = &m->cpus[k];
        insns += c->cycles - c->idle_cycles;
        for (unsigned i = 0; i < ST_COUNT; i++)
            s.n[i] += c->st.n[i];
        for (unsigned i = 0; i < ST_OPS; i++) {
            s.op_interp[i] += c->st.op_interp[i];
            s.op_cont[i] += c->st.op_cont[i];
        }
        for (unsigned i = 0; i < ST_EXCS; i++)
            s.exc[i] += c->st.exc[i];
    }
    fprintf(out, "stats: %llu guest instructions; %llu (%.1f%%) run by host code\n",
            (unsigned long long)insns, (unsigned long long)s.n[ST_J_INSNS],
            insns ? 100.0 * (double)s.n[ST_J_INSNS] / (double)insns : 0.0);
    fprintf(out, "stats: %-18s %14s  %s\n", "counter", "count", "guest instructions per event");
    for (unsigned i = 0; i < ST_COUNT; i++)
        fprintf(out, "stats: %-18s %14llu  %12.1f  %s\n", stat_name[i],
                (unsigned long long)s.n[i],
                s.n[i] ? (double)insns / (double)s.n[i] : 0.0, stat_desc[i]);
    top(out, "interpreter operations (superinstructions count once)", s.op_interp, ST_OPS,
        true, insns);
    top(out, "host code returned to the interpreter at", s.op_cont, ST_OPS, true, insns);
    top(out, "exceptions by code", s.exc, ST_EXCS, false, insns);
    return 0;
#endif
}
