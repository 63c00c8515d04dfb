// SPDX-License-Identifier: GPL-2.0
/*
 * dev_xicu.c - SoCLib vci_xicu interrupt controller + timers (reference 4.2):
 * the platform's interrupt controller (its outputs drive the CPUs' lines).
 *
 * Register address = base + (FUNC << XICU_FUNC_SHIFT) + (INDEX << XICU_INDEX_SHIFT);
 * the function numbers and fields are in hwdesc.h (the tsar layer's
 * _registers.yaml).
 *
 * Timers are lazy: for a running PTI (PER != 0) we keep the cycle `fire` at
 * which its counter next reaches the end of a period.  VAL reads as
 * fire - now (1..PER); at `fire` the pending bit is set and the counter
 * reloads from PER.  The machine loop calls xicu_service() (update, and
 * the next change, xicu_next_event()) and runs to that cycle.  A timer
 * whose pending bit is already set cannot change anything until it
 * is acked, so it does not produce events (an idle guest with a masked
 * timer is hung, not spinning).
 *
 * There is one per cluster (docs/multicluster.md).  HWI inputs are the
 * outputs of the devices wired to it (machine_hwi_lines()); output 4*l + j
 * drives line j of the CPU of local id l in its cluster (cpu_lines).  WTIs
 * are written by any CPU of any cluster, and by the IOPIC.
 */
#include <libfdt.h>
#include <stdlib.h>

#include "internal.h"

#define XICU_MAX XICU_INDEX_COUNT
typedef struct xicu {
    struct machine *m;
    unsigned n_pti, n_hwi, n_wti, n_out;
    uint32_t pti_per[XICU_MAX];
    uint32_t pti_val[XICU_MAX];   /* VAL as of cycle pti_t0 */
    uint64_t pti_t0[XICU_MAX];
    uint64_t pti_fire[XICU_MAX];  /* next cycle at which pending gets set */
    uint32_t pti_pending, wti_pending;
    uint32_t pti_on;              /* PTIs with PER != 0 (the loop skips the rest) */
    int wired;                    /* devices drive its HWIs: 1, none: 0, unknown: -1 */
    uint32_t wti_val[XICU_MAX];
    uint32_t msk_pti[XICU_MAX], msk_hwi[XICU_MAX], msk_wti[XICU_MAX];
} xicu_t;

/* The register window: every function and index. */
#define XICU_SPAN ((uint32_t)XICU_FUNC_COUNT << XICU_FUNC_SHIFT)

static void pti_catch_up(xicu_t *x, unsigned i, uint64_t now)
{
    uint32_t per = x->pti_per[i];
    if (!per || now < x->pti_fire[i])
        return;
    x->pti_pending |= 1u << i;
    uint64_t k = (now - x->pti_fire[i]) / per + 1;
    x->pti_fire[i] += k * per;
}

static void xicu_update(void *dev)
{
    xicu_t *x = dev;
    if (!x->pti_on)
        return; /* (one XICU per cluster: most have no timer running) */
    uint64_t now = machine_now(x->m);
    for (unsigned i = 0; i < x->n_pti; i++)
        pti_catch_up(x, i, now);
}

static uint64_t xicu_next_event(void *dev)
{
    xicu_t *x = dev;
    uint64_t ev = UINT64_MAX;
    if (!x->pti_on)
        return ev;
    for (unsigned i = 0; i < x->n_pti; i++)
        if (x->pti_per[i] && !(x->pti_pending & (1u << i)) && x->pti_fire[i] < ev)
            ev = x->pti_fire[i];
    return ev;
}

static uint32_t out_level(xicu_t *x, unsigned k, uint32_t hwi)
{
    return (x->msk_pti[k] & x->pti_pending) | (x->msk_hwi[k] & hwi) |
           (x->msk_wti[k] & x->wti_pending);
}

/* Its HWI inputs (none without a device wired to it: the wiring is known
 * once every device exists, so it is looked up at the first call). */
static uint32_t hwi_in(xicu_t *x)
{
    if (x->wired < 0)
        x->wired = machine_hwi_wired(x->m, x);
    return x->wired ? machine_hwi_lines(x->m, x) : 0;
}

static uint32_t xicu_outputs(void *dev)
{
    xicu_t *x = dev;
    uint32_t hwi = hwi_in(x);
    uint32_t lines = 0;
    if (!hwi && !x->pti_pending && !x->wti_pending)
        return 0; /* the common case, checked between every two CPU slots */
    for (unsigned k = 0; k < x->n_out; k++)
        if (out_level(x, k, hwi))
            lines |= 1u << k;
    return lines;
}

static uint32_t lowest(uint32_t v) { return (uint32_t)__builtin_ctz(v); }

static int xicu_read(void *dev, uint32_t off, uint32_t *val)
{
    xicu_t *x = dev;
    unsigned func = (off >> XICU_FUNC_SHIFT) & (XICU_FUNC_COUNT - 1),
             idx = (off >> XICU_INDEX_SHIFT) & (XICU_INDEX_COUNT - 1);
    uint64_t now = machine_now(x->m);
    if (off >= XICU_SPAN)
        return -1;
    xicu_update(x);
    switch (func) {
    case XICU_WTI_REG:
        if (idx >= x->n_wti)
            return -1;
        *val = x->wti_val[idx];
        x->wti_pending &= ~(1u << idx);
        return 0;
    case XICU_PTI_PER:
        if (idx >= x->n_pti)
            return -1;
        *val = x->pti_per[idx];
        return 0;
    case XICU_PTI_VAL:
        if (idx >= x->n_pti)
            return -1;
        *val = x->pti_per[idx] ? (uint32_t)(x->pti_fire[idx] - now) : x->pti_val[idx];
        return 0;
    case XICU_PTI_ACK:
        if (idx >= x->n_pti)
            return -1;
        x->pti_pending &= ~(1u << idx);
        *val = 0;
        return 0;
    }
    if (func == XICU_CONFIG) {
        if (idx != 0)
            return -1;
        *val = (x->n_out << XICU_CONFIG_OUT_SHIFT) | (x->n_wti << XICU_CONFIG_WTI_SHIFT) |
               (x->n_hwi << XICU_CONFIG_HWI_SHIFT) | (x->n_pti << XICU_CONFIG_PTI_SHIFT);
        return 0;
    }
    if (idx >= x->n_out)
        return -1;
    uint32_t hwi = hwi_in(x);
    switch (func) {
    case XICU_MSK_PTI: *val = x->msk_pti[idx]; return 0;
    case XICU_MSK_PTI_DISABLE: *val = x->msk_pti[idx] & x->pti_pending; return 0;
    case XICU_MSK_HWI: *val = x->msk_hwi[idx]; return 0;
    case XICU_MSK_HWI_DISABLE: *val = x->msk_hwi[idx] & hwi; return 0;
    case XICU_MSK_WTI: *val = x->msk_wti[idx]; return 0;
    case XICU_MSK_WTI_DISABLE: *val = x->msk_wti[idx] & x->wti_pending; return 0;
    case XICU_PRIO: {
        uint32_t p = x->msk_pti[idx] & x->pti_pending;
        uint32_t h = x->msk_hwi[idx] & hwi;
        uint32_t w = x->msk_wti[idx] & x->wti_pending;
        uint32_t v = 0;
        if (p)
            v |= XICU_PRIO_PTI | (lowest(p) << XICU_PRIO_PTI_INDEX_SHIFT);
        if (h)
            v |= XICU_PRIO_HWI | (lowest(h) << XICU_PRIO_HWI_INDEX_SHIFT);
        if (w)
            v |= XICU_PRIO_WTI | (lowest(w) << XICU_PRIO_WTI_INDEX_SHIFT);
        *val = v;
        return 0;
    }
    default:
        return -1;
    }
}

static int xicu_write(void *dev, uint32_t off, uint32_t val, uint32_t be)
{
    xicu_t *x = dev;
    unsigned func = (off >> XICU_FUNC_SHIFT) & (XICU_FUNC_COUNT - 1),
             idx = (off >> XICU_INDEX_SHIFT) & (XICU_INDEX_COUNT - 1);
    uint64_t now = machine_now(x->m);
    (void)be;
    if (off >= XICU_SPAN)
        return -1;
    xicu_update(x);
    switch (func) {
    case XICU_WTI_REG:
        if (idx >= x->n_wti)
            return -1;
        x->wti_val[idx] = val;
        x->wti_pending |= 1u << idx;
        return 0;
    case XICU_PTI_PER:
        if (idx >= x->n_pti)
            return -1;
        if (val == 0) {
            x->pti_per[idx] = 0;
            x->pti_val[idx] = 0;
            x->pti_pending &= ~(1u << idx);
            x->pti_on &= ~(1u << idx);
        } else {
            x->pti_on |= 1u << idx;
            uint32_t cur = x->pti_per[idx] ? (uint32_t)(x->pti_fire[idx] - now)
                                           : x->pti_val[idx];
            if (cur == 0)
                cur = val; /* a stopped timer loads VAL from PER */
            x->pti_per[idx] = val;
            x->pti_fire[idx] = now + cur;
        }
        return 0;
    case XICU_PTI_VAL:
        if (idx >= x->n_pti)
            return -1;
        x->pti_val[idx] = val;
        if (x->pti_per[idx])
            x->pti_fire[idx] = now + (val ? val : 1);
        return 0;
    case XICU_PTI_ACK:
    case XICU_PRIO:
    case XICU_CONFIG:
        return -1;
    }
    if (idx >= x->n_out)
        return -1;
    switch (func) {
    case XICU_MSK_PTI: x->msk_pti[idx] = val; return 0;
    case XICU_MSK_PTI_ENABLE: x->msk_pti[idx] |= val; return 0;
    case XICU_MSK_PTI_DISABLE: x->msk_pti[idx] &= ~val; return 0;
    case XICU_MSK_HWI: x->msk_hwi[idx] = val; return 0;
    case XICU_MSK_HWI_ENABLE: x->msk_hwi[idx] |= val; return 0;
    case XICU_MSK_HWI_DISABLE: x->msk_hwi[idx] &= ~val; return 0;
    case XICU_MSK_WTI: x->msk_wti[idx] = val; return 0;
    case XICU_MSK_WTI_ENABLE: x->msk_wti[idx] |= val; return 0;
    case XICU_MSK_WTI_DISABLE: x->msk_wti[idx] &= ~val; return 0;
    default: return -1;
    }
}

/* the count properties of the XICU's binding (the tsar layer's layer.yaml) */
static const char *const count_prop[3] = {XICU_DT_PTI_COUNT, XICU_DT_HWI_COUNT,
                                          XICU_DT_WTI_COUNT};

static int xicu_check(const void *fdt, int node, const char *dtname, char *err, size_t errlen)
{
    for (int i = 0; i < 3; i++) {
        int plen;
        const fdt32_t *v = fdt_getprop(fdt, node, count_prop[i], &plen);
        if (!v)
            continue;
        uint32_t n = plen == 4 ? fdt32_to_cpu(v[0]) : 0;
        if (plen != 4 || n == 0 || n > XICU_MAX) {
            errf(err, errlen, "%s: node %s: bad '%s' (must be one cell, 1..%d)", dtname,
                 fdt_get_name(fdt, node, NULL), count_prop[i], XICU_MAX);
            return -1;
        }
    }
    return 0;
}

/* A count property (checked by xicu_check), or `dflt` without it. */
static unsigned count_of(const void *fdt, int node, int i, unsigned dflt)
{
    const fdt32_t *v = fdt_getprop(fdt, node, count_prop[i], NULL);
    return v ? fdt32_to_cpu(v[0]) : dflt;
}

static void *xicu_create(machine *m, const dev_desc *d, const void *fdt, char *err,
                         size_t errlen)
{
    xicu_t *x = calloc(1, sizeof *x);
    if (!x) {
        errf(err, errlen, "out of memory");
        return NULL;
    }
    x->m = m;
    x->wired = -1;
    /* linux_monocluster: one PTI and one WTI per CPU of its cluster, 3 HWI,
     * 4 outputs per CPU (reference 3.2), unless the device tree gives the
     * counts; more HWIs if the device tree wires devices beyond the count.
     * With an IOPIC, 32 WTIs (those from 4 up are the IOPIC's). */
    unsigned n = 0, nl = 0, cl = PA_CLUSTER(d->base);
    int self = (int)(d - m->plat.dev), first = -1;
    bool iopic = false;
    for (int i = 0; i < m->ncpus; i++)
        if (m->cpus[i].cluster == cl) {
            unsigned l = m->cpus[i].id & ((1u << CPU_LOCAL_BITS) - 1);
            n++;
            nl = l + 1 > nl ? l + 1 : nl;
        }
    /* outputs up to the highest local id (platform.c keeps it below 8 when
     * it matters: at most 8 CPUs a cluster) */
    if (nl > MAX_CPUS_PER_CLUSTER)
        nl = MAX_CPUS_PER_CLUSTER;
    for (int i = 0; i < m->plat.ndev; i++) {
        if (first < 0 && m->plat.dev[i].type->cpu_lines)
            first = i;
        iopic |= m->plat.dev[i].type->route_irqs != NULL;
    }
    x->n_pti = count_of(fdt, d->node, 0, n);
    x->n_hwi = count_of(fdt, d->node, 1, 3);
    x->n_wti = count_of(fdt, d->node, 2, iopic ? XICU_MAX : n);
    x->n_out = XICU_OUTPUTS_PER_CPU * (nl > n ? nl : n);
    for (int i = 0; i < m->plat.ndev; i++) {
        int p = m->plat.dev[i].irq_parent;
        if (p != self && !(p < 0 && first == self))
            continue;
        for (int j = 0; j < m->plat.dev[i].nirq; j++) {
            int h = m->plat.dev[i].irq[j];
            if (h >= 0 && h < XICU_MAX && (unsigned)h + 1 > x->n_hwi)
                x->n_hwi = (unsigned)h + 1;
        }
    }
    return x;
}

static uint64_t xicu_service(void *dev)
{
    xicu_update(dev);
    return xicu_next_event(dev);
}

static const char *const xicu_compatible[] = {XICU_COMPATIBLE, NULL};

const temu_device_type xicu_device = {
    .name = "xicu",
    .compatible = xicu_compatible,
    .check = xicu_check,
    .create = xicu_create,
    .read = xicu_read,
    .write = xicu_write,
    .service = xicu_service,
    .cpu_lines = xicu_outputs,
    .per_node = 1,
};
