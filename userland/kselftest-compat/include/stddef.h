/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/* <stddef.h>: nolibc's std.h types (size_t is unsigned long there, unlike
 * gcc's stddef.h), offsetof from kst_libc.h. */
#include "kst_libc.h"
