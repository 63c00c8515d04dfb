/* t_loop: never ends (for the -timeout and -icount-limit tests). */
#include "test.h"

int main(void)
{
    puts_("looping\n");
    for (volatile uint32_t i = 0;; i++)
        ;
    return 0;
}
