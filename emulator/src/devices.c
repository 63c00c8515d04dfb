// SPDX-License-Identifier: GPL-2.0
/*
 * devices.c - the registry of device models (device.h).  A device tree
 * node is matched against the types in this order; a new device is a file
 * src/dev_NAME.c defining `NAME_device` and one line here.
 */
#include <stddef.h>

#include "device.h"

#define DEVICES(X) \
    X(xicu)        \
    X(iopic)       \
    X(tty)         \
    X(blockdev)    \
    X(nic)         \
    X(simhelper)

#define DECLARE(n) extern const temu_device_type n##_device;
DEVICES(DECLARE)
#undef DECLARE

const temu_device_type *const device_types[] = {
#define ENTRY(n) &n##_device,
    DEVICES(ENTRY)
#undef ENTRY
    NULL,
};
