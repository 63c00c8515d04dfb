/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading perf's mmap ring buffer (perf-sample, perf-hw): the data area
 * after the metadata page, and records copied out of it across its wrap.
 */
#ifndef PORTKIT_PERF_RING_H
#define PORTKIT_PERF_RING_H

#include <linux/perf_event.h>

/* The data area of a ring of data_pages pages of page bytes; its size. */
static unsigned char *ring_data(struct perf_event_mmap_page *meta, unsigned long page,
				unsigned long data_pages, unsigned long *size)
{
	*size = meta->data_size ? meta->data_size : data_pages * page;
	return (unsigned char *)meta + (meta->data_offset ? meta->data_offset : page);
}

/* Copy len bytes at ring offset off (wrapping) out of the data area. */
static void ring_copy(void *dst, const unsigned char *data, unsigned long size,
		      unsigned long long off, unsigned long len)
{
	unsigned char *d = dst;
	unsigned long i;

	for (i = 0; i < len; i++)
		d[i] = data[(off + i) & (size - 1)];
}

#endif /* PORTKIT_PERF_RING_H */
