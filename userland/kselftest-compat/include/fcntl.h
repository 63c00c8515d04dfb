/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/* <fcntl.h> for the kernel selftests: see kst_libc.h. */
#include "kst_libc.h"
