/* portkit rv32-sbi: constants shared by start.S and sbi.c. */
#ifndef RV32_SBI_H
#define RV32_SBI_H

#define MAX_HARTS	8		/* QEMU virt: up to 8 harts a socket */
#define STACK_SHIFT	12		/* 4 KiB of M-mode stack a hart */
#define FRAME_SIZE	(32 * 4)	/* x1..x31 saved at 4*n (slot 0 unused) */

#ifndef __ASSEMBLER__
#include <stdint.h>

/* The registers a trap saved (x0 unused): the SBI call reads a0-a7 and
 * writes a0/a1 here. */
struct frame {
	uint32_t x[32];
};
#define REG_A(f, n) ((f)->x[10 + (n)])

void enter_s(uint32_t hartid, uint32_t arg1, uint32_t addr)
	__attribute__((noreturn));
void park(void) __attribute__((noreturn));
#endif
#endif
