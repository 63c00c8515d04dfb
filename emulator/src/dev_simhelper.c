// SPDX-License-Identifier: GPL-2.0
/*
 * dev_simhelper.c - SoCLib vci_simhelper (reference 4.6): lets the guest end
 * the simulation.  SC_STOP, END_WITH_RETVAL, EXCEPT_WITH_VAL stop the run
 * after the current instruction; PAUSE_SIM and SIGINT are accepted and
 * ignored (there is no operator to wait for); CYCLES reads the cycle
 * counter; an emulator extension reads the multi-cluster access counters.
 */
#include <stdlib.h>

#include "internal.h"

typedef struct simhelper {
    struct machine *m;
} simhelper_t;

/* Register offsets SIMHELPER_*: hwdesc.h (the tsar layer's _registers.yaml). */

/* The multi-cluster access counters (docs/emulator.md): at 0x800 + 8 *
 * cluster_xy, the low 32 bits of that cluster's CPUs' local (+0) and
 * remote (+4) RAM access counts.  The window must be 4 KiB to reach them
 * all (the single-cluster spec's is smaller: cluster 0's stay reachable
 * only if it covers 0x808).  An emulator extension, not a SoCLib register:
 * defined here until the tsar layer's _registers.yaml describes it. */
#define MC_COUNTERS_OFF 0x800u

static int sim_read(void *dev, uint32_t off, uint32_t *val)
{
    simhelper_t *s = dev;
    if (off >= MC_COUNTERS_OFF && off < MC_COUNTERS_OFF + 8 * MAX_CLUSTERS) {
        unsigned cl = (off - MC_COUNTERS_OFF) / 8;
        *val = (uint32_t)(off & 4 ? s->m->acc_remote[cl] : s->m->acc_local[cl]);
        return 0;
    }
    if (off != SIMHELPER_CYCLES)
        return -1;
    *val = (uint32_t)machine_now(s->m);
    return 0;
}

static int sim_write(void *dev, uint32_t off, uint32_t val, uint32_t be)
{
    simhelper_t *s = dev;
    (void)be;
    switch (off) {
    case SIMHELPER_SC_STOP: machine_stop(s->m, TEMU_EXIT_STOP, val); return 0;
    case SIMHELPER_END_WITH_RETVAL: machine_stop(s->m, TEMU_EXIT_RETVAL, val); return 0;
    case SIMHELPER_EXCEPT_WITH_VAL: machine_stop(s->m, TEMU_EXIT_EXCEPT, val); return 0;
    case SIMHELPER_PAUSE_SIM:
    case SIMHELPER_SIGINT:
        return 0;
    default:
        return -1;
    }
}

static void *sim_create(machine *m, const dev_desc *d, const void *fdt, char *err,
                        size_t errlen)
{
    (void)d;
    (void)fdt;
    simhelper_t *s = calloc(1, sizeof *s);
    if (!s) {
        errf(err, errlen, "out of memory");
        return NULL;
    }
    s->m = m;
    return s;
}

static const char *const sim_compatible[] = {SIMHELPER_COMPATIBLE, NULL};

const temu_device_type simhelper_device = {
    .name = "simhelper",
    .compatible = sim_compatible,
    .create = sim_create,
    .read = sim_read,
    .write = sim_write,
};
