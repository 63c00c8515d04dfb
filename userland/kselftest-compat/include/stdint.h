/* SPDX-License-Identifier: LGPL-2.1 OR MIT */
/* <stdint.h>: nolibc's std.h has the types (uintptr_t is unsigned long
 * there, unlike gcc's stdint.h); the limits are added here. */
#include "kst_libc.h"
#ifndef INT8_MAX
#define INT8_MAX	127
#define INT16_MAX	32767
#define INT32_MAX	2147483647
#define INT64_MAX	9223372036854775807LL
#define INT8_MIN	(-INT8_MAX - 1)
#define INT16_MIN	(-INT16_MAX - 1)
#define INT32_MIN	(-INT32_MAX - 1)
#define INT64_MIN	(-INT64_MAX - 1)
#define UINT8_MAX	255
#define UINT16_MAX	65535
#define UINT32_MAX	4294967295U
#define UINT64_MAX	18446744073709551615ULL
#define SIZE_MAX	4294967295UL
#define INTPTR_MAX	2147483647L
#define UINTPTR_MAX	4294967295UL
#endif
