/* regs.h - platform addresses for the bare-metal tests (default platform). */
#ifndef REGS_H
#define REGS_H

#define SIMHELPER_BASE 0x1F000000
#define SIM_SC_STOP 0x00
#define SIM_END_WITH_RETVAL 0x04
#define SIM_EXCEPT_WITH_VAL 0x08
#define SIM_PAUSE 0x0C
#define SIM_CYCLES 0x10

#define TTY_BASE 0x14000000
#define TTY_WRITE 0x0
#define TTY_STATUS 0x4
#define TTY_READ 0x8

#define XICU_BASE 0x10000000
#define XICU_REG(func, idx) (XICU_BASE + ((func) << 7) + ((idx) << 2))

#define BDEV_BASE 0x1C000000

#endif
