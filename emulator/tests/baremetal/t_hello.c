/* t_hello: TTY output and a clean exit. */
#include "test.h"

int main(void)
{
    puts_("hello from tsar\n");
    return 0;
}
