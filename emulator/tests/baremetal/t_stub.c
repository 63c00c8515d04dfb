/*
 * t_stub: a porting stub is reached. Like portkit's generated stubs it masks
 * interrupts and branches to itself inside a function named portkit_stub_*,
 * with its message's address in $v0: tsar-emu stops at once (exit 123),
 * naming the symbol and printing the message.
 */
#include "test.h"

static const char message[] = "portkit stub: demo is not ported to t_stub";

void __attribute__((noinline, noreturn)) portkit_stub_demo(const char *msg)
{
    for (;;)
        __asm__ volatile(".set push\n\t.set noreorder\n\tmove $2, %0\n"
                         "1:\tb 1b\n\t nop\n\t.set pop" : : "r"(msg) : "$2");
}

int main(void)
{
    puts_("reaching a stub\n");
    MTC0(12, 0, 0); /* interrupts masked */
    portkit_stub_demo(message);
}
