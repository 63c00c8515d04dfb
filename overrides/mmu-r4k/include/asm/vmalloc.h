/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ASM_R4K_VMALLOC_H
#define _ASM_R4K_VMALLOC_H

/* No huge vmalloc mappings: every kseg2 mapping is made of 4 KiB pages. */

#endif /* _ASM_R4K_VMALLOC_H */
