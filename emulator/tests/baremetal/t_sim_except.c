/* t_sim_except: EXCEPT_WITH_VAL -> exit status 127. */
#include "test.h"

int main(void)
{
    REG32(SIMHELPER_BASE + SIMHELPER_EXCEPT_WITH_VAL) = 0xBAD;
    return 3; /* not reached */
}
