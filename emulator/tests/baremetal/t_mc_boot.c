/*
 * t_mc_boot: multi-cluster start-up and IPIs (docs/multicluster.md).  Every
 * CPU but 0 waits for a start address in WTI[l] of its own cluster's XICU
 * (the preloader protocol, with the mailbox in the CPU's cluster); CPU 0
 * finds the clusters, starts every CPU, and each started CPU checks its
 * EBase id.  Then a token goes round every CPU in id order through the
 * mailboxes (IPIs across clusters) and back to CPU 0.  On the way, the
 * first CPU of each cluster walks page tables in cluster (0,0): the walker
 * sets L in the entry of its own cluster's page and R in the entry of the
 * next cluster's.  Run with a mesh DTB.
 */
#include "mc.h"
#include "mmu.h"

#define OWN_VA 0x40000000u     /* + k * big page: cluster k's RAM */
#define NEXT_VA 0x60000000u    /* + k * big page: cluster k + 1's RAM */
#define RAM_OFF 0x04000000u    /* where in each cluster's RAM */

static uint32_t clusters[256], ncl, ids[1024], nids;
static volatile uint32_t started[MC_IDS], token_seen[MC_IDS], nstarted, ring_next[MC_IDS];
static volatile uint32_t lr_seen[256];

static uint32_t cl_index(uint32_t cl)
{
    for (uint32_t k = 0; k < ncl; k++)
        if (clusters[k] == cl)
            return k;
    return 0;
}

/* The walker's L/R bits: touch this cluster's page and the next one's. */
static void lr_touch(uint32_t k)
{
    mmu_on(pt1);
    lr_seen[k] = *(volatile uint32_t *)(OWN_VA + k * MMU_BIG_PAGE_SIZE) +
                 *(volatile uint32_t *)(NEXT_VA + k * MMU_BIG_PAGE_SIZE);
    mmu_off();
}

/* Where a started CPU goes (its start address, from its mailbox) */
static void started_main(uint32_t id)
{
    started[id] = hw_id();
    if ((id & 15) == 0)
        lr_touch(cl_index(id >> 4));
    atomic_add(&nstarted, 1);
    for (;;) {
        uint32_t t = mc_wait(id);
        token_seen[id] = t;
        mc_send(ring_next[id], t + 1);
    }
}

void secondary_main(uint32_t id)
{
    uint32_t cl = id >> 4, l = id & 15;
    xicu_wr(cl, XICU_MSK_WTI, XICU_OUTPUTS_PER_CPU * l, 1u << l);
    uint32_t pc = mc_wait(id);
    ((void (*)(uint32_t))pc)(id);
}

int main(void)
{
    CHECK_EQ(1, hw_id(), 0);
    ncl = (uint32_t)probe(XICU_REG(XICU_CONFIG, 0), clusters);
    CHECK(2, ncl >= 1 && clusters[0] == 0);
    for (uint32_t k = 0; k < ncl; k++) {
        uint32_t n = (xicu_rd(clusters[k], XICU_CONFIG, 0) >> XICU_CONFIG_OUT_SHIFT & 0xFF) /
                     XICU_OUTPUTS_PER_CPU;
        for (uint32_t l = 0; l < n; l++)
            ids[nids++] = clusters[k] << 4 | l;
        /* the pages the L/R walk reads, with a marker */
        pwrite(clusters[k], RAM_OFF, 0x1000 + k);
    }
    /* the ring, in id order: 0 -> ids[1] -> ... -> ids[n-1] -> 0 */
    for (uint32_t i = 0; i < nids; i++)
        ring_next[ids[i]] = ids[(i + 1) % nids];
    map_identity(pt1);
    for (uint32_t k = 0; k < ncl; k++) {
        uint64_t own = (uint64_t)clusters[k] << 32 | RAM_OFF;
        uint64_t next = (uint64_t)clusters[(k + 1) % ncl] << 32 | RAM_OFF;
        map_big(pt1, OWN_VA + k * MMU_BIG_PAGE_SIZE, own, PTE_V | PTE_C | PTE_W);
        map_big(pt1, NEXT_VA + k * MMU_BIG_PAGE_SIZE, next, PTE_V | PTE_C | PTE_W);
    }
    lr_touch(0);
    mailbox_setup(0);

    /* start everyone: the start address in each CPU's own mailbox */
    for (uint32_t i = 1; i < nids; i++)
        mc_send(ids[i], (uint32_t)(uintptr_t)started_main);
    while (nstarted != nids - 1)
        ;
    for (uint32_t i = 1; i < nids; i++)
        CHECK_EQ(10, started[ids[i]], ids[i]);

    /* the token ring: every CPU once, then back here */
    mc_send(ids[1 % nids], 1);
    uint32_t t = nids > 1 ? mailbox_wait(0) : 1;
    CHECK_EQ(20, t, nids);
    for (uint32_t i = 1; i < nids; i++)
        CHECK_EQ(21, token_seen[ids[i]], i);

    /* L/R: set by the walker by the accessing CPU's cluster */
    for (uint32_t k = 0; k < ncl; k++) {
        uint32_t own = pt1[(OWN_VA >> MMU_BIG_PAGE_SHIFT) + k];
        uint32_t next = pt1[(NEXT_VA >> MMU_BIG_PAGE_SHIFT) + k];
        CHECK_EQ(30, lr_seen[k], 0x1000 + k + 0x1000 + (k + 1) % ncl);
        CHECK_EQ(31, own & (PTE_L | PTE_R), PTE_L);
        CHECK_EQ(32, next & (PTE_L | PTE_R), ncl > 1 ? PTE_R : PTE_L);
    }
    puts_("mc boot: ");
    putdec(nids);
    puts_(" CPUs in ");
    putdec(ncl);
    puts_(" clusters, ring ok\n");
    return 0;
}
