/* t_sim_stop: SC_STOP -> exit status 0 (after the guest printed something). */
#include "test.h"

int main(void)
{
    puts_("stopping\n");
    REG32(SIMHELPER_BASE + SIMHELPER_SC_STOP) = 0x77;
    return 3; /* not reached */
}
