/*
 * t_smp_ipi: inter-processor interrupts through the XICU WTI mailboxes and
 * the per-CPU output routing (reference 3.2, 4.2): output 4*i + j drives
 * CPU i's line j (Cause.IP(2+j)).  CPU 0 sends each secondary a message
 * (on line 0 for CPU 1, line 1 for CPU 2, line 3 for CPU 3); the receiver
 * wakes from `wait`, sees its own line in Cause and the WTI in its PRIO,
 * and answers through CPU 0's mailbox.  Lines of CPUs that got nothing
 * stay low.  Run with the 4-CPU DTB.
 */
#include "smp.h"

#define NCPU 4

static const uint32_t line_of[NCPU] = {0, 0, 1, 3};
static volatile uint32_t cause_seen[NCPU], prio_seen[NCPU], msg_seen[NCPU];
static volatile uint32_t cause_idle[NCPU], ready;

void secondary_main(uint32_t id)
{
    uint32_t out = 4 * id + line_of[id];
    XICU(X_MSK_WTI, out) = 1u << id;
    cause_idle[id] = MFC0(13, 0);
    atomic_add(&ready, 1);
    while (!(MFC0(13, 0) & (0x400u << line_of[id])))
        cpu_wait();
    cause_seen[id] = MFC0(13, 0) & 0xFC00u;
    prio_seen[id] = XICU(X_PRIO, out);
    msg_seen[id] = XICU(X_WTI_REG, id);  /* reading acknowledges */
    CHECK_EQ(90 + id, MFC0(13, 0) & 0xFC00u, 0);
    mailbox_send(0, 0xA0 + id);
    for (;;)
        cpu_wait();
}

int main(void)
{
    mailbox_setup(0);
    while (ready != NCPU - 1)
        ;
    for (uint32_t i = 1; i < NCPU; i++)
        CHECK_EQ(1, cause_idle[i] & 0xFC00u, 0);
    for (uint32_t i = 1; i < NCPU; i++) {
        mailbox_send(i, 0x1000 + i);
        uint32_t reply = mailbox_wait(0);
        CHECK_EQ(10 + i, reply, 0xA0 + i);
        CHECK_EQ(20 + i, msg_seen[i], 0x1000 + i);
        CHECK_EQ(30 + i, cause_seen[i], 0x400u << line_of[i]);
        /* PRIO: some WTI active (bit 2), lowest active WTI index = i */
        CHECK_EQ(40 + i, prio_seen[i], 4u | (i << 24));
        for (uint32_t k = i + 1; k < NCPU; k++) /* not yet messaged */
            CHECK_EQ(50 + k, msg_seen[k], 0);
    }
    CHECK_EQ(60, MFC0(13, 0) & 0xFC00u, 0); /* CPU 0's mailbox was read */
    puts_("ipi: 3 messages\n");
    return 0;
}
