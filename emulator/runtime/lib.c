/* lib.c - the runtime's console output, exit, failure reporting and C
 * exception handler (runtime.h). */
#include "runtime.h"

volatile int exc_expect, exc_count;
volatile uint32_t exc_cause, exc_epc, exc_badvaddr, exc_status, exc_resume;
void (*volatile irq_hook)(exc_frame *f, uint32_t cause);
void (*volatile exc_hook)(exc_frame *f, uint32_t cause);

void putch(int c) { REG32(TTY_BASE + TTY_WRITE) = (uint32_t)c; }

void puts_(const char *s)
{
    while (*s)
        putch(*s++);
}

void puthex(uint32_t v)
{
    putch('0');
    putch('x');
    for (int i = 28; i >= 0; i -= 4)
        putch("0123456789abcdef"[(v >> i) & 15]);
}

void putdec(uint32_t v)
{
    char b[12];
    int n = 0;
    do {
        b[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        putch(b[--n]);
}

void sim_exit(uint32_t code)
{
    REG32(SIMHELPER_BASE + SIMHELPER_END_WITH_RETVAL) = code;
    for (;;)
        ;
}

void fail(int n, const char *what, uint32_t got, uint32_t exp)
{
    puts_("FAIL check ");
    putdec((uint32_t)n);
    puts_(": ");
    puts_(what);
    puts_(" got ");
    puthex(got);
    puts_(" expected ");
    puthex(exp);
    putch('\n');
    sim_exit((uint32_t)n);
}

/* user-mode helper (run_user_asm in crt0.S): the user function ends with
 * `syscall`; the dispatcher then resumes at user_return in kernel mode. */
extern char user_return[];
extern void run_user_asm(void (*fn)(void), uint32_t status);
static volatile int user_active;

void run_user(void (*fn)(void), uint32_t extra_status)
{
    user_active = 1;
    run_user_asm(fn, ST_UM | ST_EXL | extra_status);
}

/* Called from the vector in crt0 with the saved registers. */
void exc_dispatch(exc_frame *f)
{
    uint32_t cause = MFC0(CP0(CAUSE));
    uint32_t code = EXCCODE(cause);
    uint32_t status = MFC0(CP0(STATUS));
    if (code == EXC_INT) {
        if (irq_hook)
            irq_hook(f, cause);
        else
            fail(199, "unexpected interrupt, cause", cause, 0);
        return;
    }
    if (user_active && code == EXC_SYS && (status & ST_UM)) {
        /* end of run_user: back to kernel mode (EXL stays set, so eret
         * returns to user_return with UM clear) */
        user_active = 0;
        MTC0(CP0(STATUS), status & ~ST_UM);
        MTC0(CP0(EPC), (uint32_t)(uintptr_t)user_return);
        return;
    }
    exc_cause = cause;
    exc_epc = MFC0(CP0(EPC));
    exc_badvaddr = MFC0(CP0(BADVADDR));
    exc_status = status;
    exc_count++;
    if (exc_count > 1000)
        fail(250, "exception loop, cause", cause, exc_epc);
    if (exc_hook) {
        exc_hook(f, cause);
        return;
    }
    if (!exc_expect) {
        puts_("unexpected exception epc=");
        puthex(exc_epc);
        puts_(" badvaddr=");
        puthex(exc_badvaddr);
        putch('\n');
        fail(200 + (int)code, "unexpected exception, cause", cause, 0);
    }
    exc_expect--;
    exc_default_resume(cause);
}

/* Resume after an expected exception: at exc_resume if set, else after the
 * faulting instruction (and its branch if it was in a delay slot). */
void exc_default_resume(uint32_t cause)
{
    if (exc_resume) {
        MTC0(CP0(EPC), exc_resume);
        exc_resume = 0;
    } else {
        MTC0(CP0(EPC), exc_epc + ((cause & CAUSE_BD) ? 8 : 4));
    }
}

/* Secondary CPUs (crt0) end up here unless the test provides its own. */
__attribute__((weak)) void secondary_main(uint32_t id)
{
    (void)id;
    for (;;)
        __asm__ volatile("wait");
}
