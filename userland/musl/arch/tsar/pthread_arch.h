/* The thread pointer is CP0 UserLocal, read with rdhwr $3, $29 (set by
 * set_thread_area and clone's CLONE_SETTLS); TLS is laid out as MIPS's
 * (TLS above the thread pointer, biased by 0x7000). */
static inline uintptr_t __get_tp()
{
	register uintptr_t tp __asm__("$3");
	__asm__ (".set push\n.set mips32r2\nrdhwr %0, $29\n.set pop" : "=r" (tp));
	return tp;
}

#define TLS_ABOVE_TP
#define GAP_ABOVE_TP 0

#define TP_OFFSET 0x7000
#define DTP_OFFSET 0x8000

#define MC_PC regs.epc
