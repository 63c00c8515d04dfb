/* The TSAR kernel's struct user_regs_struct (<asm/ptrace.h>), 38 words. */
struct user_regs_struct {
	unsigned long regs[32];
	unsigned long lo, hi, epc, badvaddr, status, cause;
};
#define ELF_NGREG 38
typedef unsigned long elf_greg_t, elf_gregset_t[ELF_NGREG];
typedef struct { double __fpr[32]; unsigned __fcsr; } elf_fpregset_t;
