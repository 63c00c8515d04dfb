// SPDX-License-Identifier: GPL-2.0
/*
 * device.h - the interface between the machine and its devices.
 *
 * A device model is one file, src/dev_NAME.c (the Makefile picks it up),
 * holding a private state struct and a `const temu_device_type
 * NAME_device` descriptor, plus one line in devices.c's list.  The machine
 * makes an instance for the first enabled device tree node of each type
 * (matched by compatible string), maps its register window at the node's
 * first `reg` entry, and calls the hooks the descriptor has (NULL = none):
 * the run loop only walks arrays of the instances that have each hook.
 *
 * Time: a device computes its state lazily from machine_now(); `service`
 * brings it up to date and says when it next changes by itself.  The loop
 * services the devices, recomputes the interrupt lines, and runs a CPU up
 * to the earliest of those cycles.  Interrupts: a device's outputs
 * (irq_lines, bit j) are wired to the interrupt controller's HWI inputs
 * by the node's `interrupts` (entry j); the interrupt controller
 * (cpu_lines) reads them with machine_hwi_lines() and drives the CPUs.
 */
#ifndef TSAR_DEVICE_H
#define TSAR_DEVICE_H

#include <stddef.h>
#include <stdint.h>

struct machine;
struct temu_device_type;

/* HWI inputs of the interrupt controller: bits of a uint32_t */
#define HWI_MAX 32
/* interrupt outputs per device (entries of `interrupts` kept) */
#define DEV_MAX_IRQ 16

/* One device node of the device tree, as platform.c found it. */
typedef struct dev_desc {
    const struct temu_device_type *type;
    int node;               /* node offset in the machine's DTB (m->dtb) */
    uint64_t base, size;    /* first `reg` entry, in root addresses */
    int nirq;
    int irq[DEV_MAX_IRQ];   /* HWI index of output j, -1 = not wired */
    int irq_parent;         /* index in the platform's devices of the controller
                             * `interrupts` refers to (interrupt-parent), -1 =
                             * the first interrupt controller */
} dev_desc;

typedef struct temu_device_type {
    const char *name;                /* bus traces, -v platform line */
    const char *const *compatible;   /* NULL-terminated; first match wins */

    /* While the DTB is parsed: check the node's own properties (besides
     * reg and interrupts).  Return 0, or -1 with a message in err. */
    int (*check)(const void *fdt, int node, const char *dtname, char *err, size_t errlen);
    /* Make an instance (all nodes are parsed, RAM exists, m->cfg holds the
     * options).  NULL with a message in err on failure. */
    void *(*create)(struct machine *m, const dev_desc *d, const void *fdt, char *err,
                    size_t errlen);
    void (*free)(void *dev);         /* NULL: free(dev) */

    /* Register window, 32-bit words: off is word aligned; a write carries
     * the bytes selected by `be` in their lanes.  0, or -1 = bus error. */
    int (*read)(void *dev, uint32_t off, uint32_t *val);
    int (*write)(void *dev, uint32_t off, uint32_t val, uint32_t be);

    /* Run loop (hot: keep them cheap).  service: catch up with
     * machine_now() and return the cycle at which the state next changes
     * by itself (UINT64_MAX: never, until a register access); it must not
     * touch other devices.  It runs at every pass of the loop, and a
     * register access ends the CPU's run, so the answer holds until the
     * next call.  read/write catch up first themselves. */
    uint64_t (*service)(void *dev);
    uint32_t (*irq_lines)(void *dev);   /* level of the outputs, bit j = output j */
    /* An interrupt controller (one per cluster): bit 4*l + j drives line j
     * (Cause.IP(2+j)) of the CPU of its cluster whose local id is l (the
     * cluster is the node's address >> 32). */
    uint32_t (*cpu_lines)(void *dev);
    /* An interrupt router (the IOPIC): called at each pass of the loop
     * before the controllers' outputs are read; it may reach other devices
     * through the bus (machine_route_write/read). */
    void (*route_irqs)(void *dev);
    /* Make an instance for every enabled node (else for the first only). */
    int per_node;

    /* Edit the DTB handed to the guest (libfdt, room for a few properties).
     * Returns 0 or a libfdt error code. */
    int (*fixup_dtb)(void *dev, void *fdt);
    /* The platform has no instance of this type: -1 with a message if the
     * options needed one (e.g. -disk without a block device), else 0. */
    int (*missing)(struct machine *m, const char *dtname, char *err, size_t errlen);
} temu_device_type;

/* devices.c: every device type, NULL-terminated, in matching order */
extern const temu_device_type *const device_types[];

/* A created device. */
typedef struct dev_inst {
    const temu_device_type *type;
    const dev_desc *desc;
    void *dev;
} dev_inst;

/* The instance of type t, or NULL (a lookup: not for the run loop). */
void *machine_device(const struct machine *m, const temu_device_type *t);
/* The inputs of interrupt controller (or router) `intc`: the outputs of the
 * devices whose interrupt parent it is, wired by their `interrupts`. */
uint32_t machine_hwi_lines(struct machine *m, const void *intc);
/* Whether some device has `intc` as its interrupt parent (known once every
 * device exists: not from a create hook). */
int machine_hwi_wired(const struct machine *m, const void *intc);
/* A word written / read at a physical address on behalf of a device (the
 * IOPIC's WTI writes): RAM or a device register.  0, or -1 = bus error. */
int machine_route_write(struct machine *m, uint64_t pa, uint32_t val);
int machine_route_read(struct machine *m, uint64_t pa, uint32_t *val);

#endif
