/*
 * t_spin_ie: a branch to itself with interrupts enabled is a loop an
 * interrupt may end, not a hang: the run goes on to its instruction limit.
 */
#include "test.h"

int main(void)
{
    puts_("spinning\n");
    MTC0(12, 0, ST_IE | 0xFF00);
    __asm__ volatile(".set push\n\t.set noreorder\n"
                     "1:\tb 1b\n\t nop\n\t.set pop");
    return 1;
}
