/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/* <libgen.h> for the kernel selftests: see kst_libc.h. */
#include "kst_libc.h"
