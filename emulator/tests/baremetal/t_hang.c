/* t_hang: `wait` with no interrupt source armed: a guest hang. */
#include "test.h"

int main(void)
{
    puts_("waiting forever\n");
    MTC0(12, 0, 0xFF01);
    for (;;)
        __asm__ volatile("wait" ::: "memory");
    return 0;
}
