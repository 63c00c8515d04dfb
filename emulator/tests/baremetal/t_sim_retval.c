/* t_sim_retval: END_WITH_RETVAL 0x12A -> process exit status 0x2A (42). */
#include "test.h"

int main(void)
{
    uint32_t c1 = REG32(SIMHELPER_BASE + SIMHELPER_CYCLES);
    uint32_t c2 = REG32(SIMHELPER_BASE + SIMHELPER_CYCLES);
    CHECK(1, c2 > c1);
    REG32(SIMHELPER_BASE + SIMHELPER_PAUSE_SIM) = 0; /* accepted, no effect */
    REG32(SIMHELPER_BASE + SIMHELPER_END_WITH_RETVAL) = 0x12A;
    return 3; /* not reached */
}
