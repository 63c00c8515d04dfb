/* SPDX-License-Identifier: GPL-2.0 */
/* Copied by portkit from overrides/mips32/vdso/vdso.lds.S: edit that file. */
/*
 * The vDSO image: one shared object linked at 0, mapped by the kernel just
 * above its data page (kernel/vdso.c), with no dynamic relocations.
 */

#include <asm/page.h>

/* The preprocessor predefines "mips" to 1 for this target. */
#undef mips
OUTPUT_ARCH(mips)
ENTRY(__vdso_clock_gettime)

SECTIONS
{
	/* The data page is mapped one page below the image. */
	PROVIDE(_vdso_data = . - PAGE_SIZE);

	. = SIZEOF_HEADERS;

	.hash		: { *(.hash) }			:text
	.dynsym		: { *(.dynsym) }
	.dynstr		: { *(.dynstr) }
	.gnu.version	: { *(.gnu.version) }
	.gnu.version_d	: { *(.gnu.version_d) }
	.gnu.version_r	: { *(.gnu.version_r) }

	.MIPS.abiflags	: { *(.MIPS.abiflags) }		:text :abiflags
	.reginfo	: { *(.reginfo) }		:text :reginfo

	.note		: { *(.note.*) }		:text :note

	.dynamic	: { *(.dynamic) }		:text :dynamic

	.rodata		: { *(.rodata .rodata.* .gnu.linkonce.r.*) }	:text

	. = ALIGN(16);
	.text		: { *(.text .text.*) }		:text

	/*
	 * Writable data has no place in a page every process shares; the
	 * build fails if anything lands in these.
	 */
	.data		: { *(.data .data.* .sdata .sdata.* .bss .bss.* .sbss .sbss.*) }
	.got		: { *(.got) }

	/DISCARD/ : {
		*(.MIPS.options .gnu.attributes)
		*(.note.GNU-stack .eh_frame .eh_frame_hdr)
		*(.comment)
	}
}

PHDRS
{
	text		PT_LOAD		FLAGS(5) FILEHDR PHDRS;	/* R and X */
	dynamic		PT_DYNAMIC	FLAGS(4);		/* R */
	note		PT_NOTE		FLAGS(4);		/* R */
	reginfo		0x70000000;			/* PT_MIPS_REGINFO */
	abiflags	0x70000003;			/* PT_MIPS_ABIFLAGS */
}

/* The symbols C libraries look up, in the version MIPS's vDSO uses. */
VERSION
{
	LINUX_2.6 {
	global:
		__vdso_clock_gettime;
		__vdso_clock_gettime64;
		__vdso_clock_getres;
		__vdso_gettimeofday;
	local: *;
	};
}
