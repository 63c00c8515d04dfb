/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_TSAR_VMALLOC_H
#define _ASM_TSAR_VMALLOC_H

/* No huge vmalloc mappings: the kernel uses big pages only for lowmem. */

#endif /* _ASM_TSAR_VMALLOC_H */
