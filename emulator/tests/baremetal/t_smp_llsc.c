/*
 * t_smp_llsc: LL/SC across CPUs (reference 1.3; docs/emulator.md "LL/SC").
 *  1. CPU 1 takes a reservation; a word store by CPU 0 to that word breaks
 *     it (sc fails), a byte store into it too, a store to the next word or
 *     a load does not; CPU 0's own sc on it succeeds and breaks CPU 1's.
 *  2. All CPUs increment one counter with ll/sc, and another counter each
 *     with plain stores to the same page (fast-path stores from other CPUs
 *     must still break reservations): the ll/sc counter loses nothing.
 * Run with the 4-CPU DTB, in deterministic and randomized interleavings.
 */
#include "smp.h"

#define NCPU 4
#define ITERS 3000

static volatile uint32_t step;           /* CPU 0 <-> CPU 1 handshake */
static volatile uint32_t result[8];
/* the reserved words and the plain stores share one page */
static volatile uint32_t shared[64] __attribute__((aligned(4096)));
static volatile uint32_t done;

static void wait_step(uint32_t s)
{
    while (step < s)
        ;
}

/* Phase 1 on CPU 1: ll, let CPU 0 act, then sc. */
static void cpu1_phase1(void)
{
    for (uint32_t k = 0; k < 5; k++) {
        uint32_t v = ll(&shared[0]);
        step = 2 * k + 1;          /* plain store: another word, same page */
        wait_step(2 * k + 2);      /* loads only, while CPU 0 acts */
        result[k] = sc(&shared[0], v + 100);
    }
    step = 100;
}

static void counter_loop(uint32_t id)
{
    for (uint32_t i = 0; i < ITERS; i++) {
        atomic_add(&shared[0], 1);
        shared[8 + id] = shared[8 + id] + 1; /* plain stores, same page */
        shared[16] = id;                     /* everybody stores here */
    }
    atomic_add(&done, 1);
}

void secondary_main(uint32_t id)
{
    if (id == 1)
        cpu1_phase1();
    else
        wait_step(100);
    wait_step(101);
    counter_loop(id);
    for (;;)
        cpu_wait();
}

int main(void)
{
    shared[0] = 7;
    /* k = 0: a word store to the reserved word breaks the reservation */
    wait_step(1);
    shared[0] = 8;
    step = 2;
    /* k = 1: a byte store into the reserved word breaks it */
    wait_step(3);
    ((volatile uint8_t *)&shared[0])[2] = 0;
    step = 4;
    /* k = 2: a store to the next word and a load do not */
    wait_step(5);
    shared[1] = 1;
    (void)shared[0];
    step = 6;
    /* k = 3: CPU 0's own ll/sc on the word succeeds, and breaks CPU 1's */
    wait_step(7);
    {
        uint32_t v = ll(&shared[0]);
        result[7] = sc(&shared[0], v + 1);
    }
    step = 8;
    /* k = 4: nothing happens: CPU 1's sc succeeds */
    wait_step(9);
    step = 10;
    wait_step(100);
    CHECK_EQ(1, result[0], 0);
    CHECK_EQ(2, result[1], 0);
    CHECK_EQ(3, result[2], 1);
    CHECK_EQ(4, result[3], 0);
    CHECK_EQ(5, result[7], 1);
    CHECK_EQ(6, result[4], 1);
    /* phase 2 */
    shared[0] = 0;
    step = 101;
    counter_loop(0);
    while (done != NCPU)
        ;
    CHECK_EQ(10, shared[0], NCPU * ITERS);
    for (int i = 0; i < NCPU; i++)
        CHECK_EQ(11 + i, shared[8 + i], ITERS);
    puts_("llsc counter ");
    putdec(shared[0]);
    putch('\n');
    return 0;
}
