/* Word indices in the kernel's struct user_regs_struct (<asm/ptrace.h>). */
#undef __WORDSIZE
#define __WORDSIZE 32
#define REG_ZERO 0
#define REG_AT 1
#define REG_V0 2
#define REG_V1 3
#define REG_A0 4
#define REG_A1 5
#define REG_A2 6
#define REG_A3 7
#define REG_GP 28
#define REG_SP 29
#define REG_FP 30
#define REG_RA 31
#define REG_LO 32
#define REG_HI 33
#define REG_EPC 34
#define REG_BADVADDR 35
#define REG_STATUS 36
#define REG_CAUSE 37
