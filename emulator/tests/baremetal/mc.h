/*
 * mc.h - helpers for the multi-cluster bare-metal tests (t_mc_*; run on
 * the mesh device trees of tests/emulator/mesh_dts.py, docs/multicluster.md).
 *
 * The code runs in cluster (0,0) with the MMU off; other clusters are
 * reached the preloader's way: DATA_PADDR_EXT = the cluster around one
 * access, with nothing else in between (interrupts are off).  A CPU's
 * hardware id is (cluster_xy << 4) | local id.
 */
#ifndef MC_H
#define MC_H

#include "smp.h"

#define MC_IDS 4096               /* hardware ids: 12 bits */
#define MC_COUNTERS 0x800u        /* simhelper: 0x800 + 8 * cluster: local, remote */

static inline uint32_t hw_id(void) { return MFC0(CP0(EBASE)) & CP0_EBASE_CPUNUM; }

static inline uint32_t pread(uint32_t cl, uint32_t a)
{
    uint32_t v;
    __asm__ volatile(".set push\n\t.set noreorder\n\t"
                     "mtc2 %1, $%3\n\t"
                     "lw %0, 0(%2)\n\t"
                     "mtc2 $0, $%3\n\t"
                     ".set pop"
                     : "=&r"(v)
                     : "r"(cl), "r"(a), "i"(CP2_DATA_PADDR_EXT)
                     : "memory");
    return v;
}

static inline void pwrite(uint32_t cl, uint32_t a, uint32_t v)
{
    __asm__ volatile(".set push\n\t.set noreorder\n\t"
                     "mtc2 %0, $%3\n\t"
                     "sw %2, 0(%1)\n\t"
                     "mtc2 $0, $%3\n\t"
                     ".set pop"
                     :
                     : "r"(cl), "r"(a), "r"(v), "i"(CP2_DATA_PADDR_EXT)
                     : "memory");
}

/* A register of cluster cl's XICU */
static inline uint32_t xicu_rd(uint32_t cl, uint32_t func, uint32_t idx)
{
    return pread(cl, XICU_REG(func, idx));
}
static inline void xicu_wr(uint32_t cl, uint32_t func, uint32_t idx, uint32_t v)
{
    pwrite(cl, XICU_REG(func, idx), v);
}

/* Which clusters have an XICU (probed: a bus error means none); fills
 * cl[] in ascending order, returns how many.  CPU 0 only (it takes the
 * exceptions). */
static inline int probe(uint32_t base, uint32_t *cl)
{
    int n = 0;
    for (uint32_t c = 0; c < 256; c++) {
        int e0 = exc_count;
        exc_expect = 1;
        (void)pread(c, base);
        exc_expect = 0;
        if (exc_count == e0)
            cl[n++] = c;
    }
    return n;
}

/* Send a word to CPU id's mailbox (WTI[l] of its own cluster's XICU) */
static inline void mc_send(uint32_t id, uint32_t v) { xicu_wr(id >> 4, XICU_WTI_REG, id & 15, v); }

/* Wait for this CPU's mailbox (output 4l must have WTI l unmasked) */
static inline uint32_t mc_wait(uint32_t id)
{
    uint32_t cl = id >> 4, l = id & 15;
    while (!(xicu_rd(cl, XICU_MSK_WTI_DISABLE, XICU_OUTPUTS_PER_CPU * l) & (1u << l)))
        cpu_wait();
    return xicu_rd(cl, XICU_WTI_REG, l);
}

#endif
