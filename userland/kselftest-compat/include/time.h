/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/* <time.h> for the kernel selftests: see kst_libc.h. */
#include "kst_libc.h"
