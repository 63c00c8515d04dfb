#include <features.h>

/* The kernel's struct sigaction (asm-generic, no SA_RESTORER: handlers
 * return through the kernel's signal-return page). */
struct k_sigaction {
	void (*handler)(int);
	unsigned long flags;
	unsigned mask[2];
	/* Past the end of what the kernel reads or writes: lets sigaction.c
	 * store a restorer without arch conditionals. */
	void (*restorer)(void);
};

#undef SA_RESTORER
#define SA_RESTORER 0

hidden void __restore(), __restore_rt();
