// SPDX-License-Identifier: GPL-2.0
/*
 * Copied by portkit from overrides/mips32/vdso/vgettimeofday.c: edit that
 * file.
 */
/*
 * The vDSO's entry points: the generic library (lib/vdso/gettimeofday.c)
 * with the arch part in <asm/vdso/gettimeofday.h>; the Makefile includes
 * the library's source ahead of this file.
 *
 * The ABI has 64-bit time_t only, so every entry takes the 64-bit
 * structures: __vdso_clock_gettime and __vdso_clock_getres answer what
 * clock_gettime64 and clock_getres_time64 would, and __vdso_gettimeofday
 * fills a timeval of two 64-bit fields (struct __kernel_sock_timeval, the
 * layout of a 64-bit time_t C library's struct timeval).
 * __vdso_clock_gettime64 is the same function under the name MIPS o32's
 * vDSO gives its 64-bit variant, which C libraries and the kernel's
 * selftests look up on 32-bit MIPS.
 */

#include <linux/time.h>
#include <linux/types.h>

int __vdso_clock_gettime(clockid_t clock, struct __kernel_timespec *ts);
int __vdso_clock_getres(clockid_t clock, struct __kernel_timespec *res);
int __vdso_gettimeofday(struct __kernel_sock_timeval *tv, struct timezone *tz);

int __vdso_clock_gettime(clockid_t clock, struct __kernel_timespec *ts)
{
	return __cvdso_clock_gettime(clock, ts);
}

int __vdso_clock_gettime64(clockid_t clock, struct __kernel_timespec *ts)
	__alias(__vdso_clock_gettime);

int __vdso_clock_getres(clockid_t clock, struct __kernel_timespec *res)
{
	return __cvdso_clock_getres(clock, res);
}

int __vdso_gettimeofday(struct __kernel_sock_timeval *tv, struct timezone *tz)
{
	const struct vdso_data *vd = __arch_get_vdso_data();

	if (likely(tv)) {
		struct __kernel_timespec ts;
		int ret = __cvdso_clock_gettime_data(vd, CLOCK_REALTIME, &ts);

		if (ret)
			return ret;
		tv->tv_sec = ts.tv_sec;
		tv->tv_usec = (u32)ts.tv_nsec / NSEC_PER_USEC;
	}
	if (unlikely(tz)) {
		tz->tz_minuteswest = vd[CS_HRES_COARSE].tz_minuteswest;
		tz->tz_dsttime = vd[CS_HRES_COARSE].tz_dsttime;
	}
	return 0;
}
