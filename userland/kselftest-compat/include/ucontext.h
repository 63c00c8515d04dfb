/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/* No getcontext/makecontext/swapcontext in nolibc. */
#error "ucontext: not available in the nolibc userland"
