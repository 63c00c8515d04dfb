/*
 * t_spin: the only CPU branches to itself with interrupts masked, outside
 * any stub: it can never leave, so tsar-emu ends the run at once as a guest
 * hang (124) instead of waiting for the wall-clock timeout.
 */
#include "test.h"

int main(void)
{
    puts_("spinning\n");
    MTC0(12, 0, ST_ERL); /* masked by ERL alone (IE set would not matter) */
    __asm__ volatile(".set push\n\t.set noreorder\n"
                     "1:\tb 1b\n\t nop\n\t.set pop");
    return 1;
}
