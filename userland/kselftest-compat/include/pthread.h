/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/*
 * No threads: nolibc has no thread library. This header exists because
 * some selftests include it without using it; a program that calls
 * pthread_* fails to build (undeclared functions) and waits for a libc
 * with threads (musl). See SELFTESTS.md.
 */
#include "kst_libc.h"
