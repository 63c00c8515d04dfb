/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/* <sys/types.h> for the kernel selftests: see kst_libc.h. */
#include "kst_libc.h"
