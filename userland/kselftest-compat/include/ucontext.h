/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/* <ucontext.h>: user-level contexts (see kst_ucontext.h). */
#include "kst_libc.h"
#include "kst_ucontext.h"
