/*
 * t_smp_boot: secondary-CPU boot as the hardware reference describes it
 * (sections 1.3, 1.4, 5): every CPU starts at the ELF entry in the reset
 * state with a1 = the DTB, EBase = 0x80000000 | id, Index and rdhwr $0 =
 * id; the secondaries then sleep until CPU 0 writes a start address into
 * their WTI mailbox, and jump there.  Run with the 4-CPU DTB.
 */
#include "smp.h"

#define NCPU 4

static volatile uint32_t seen_ebase[NCPU], seen_index[NCPU], seen_hwr[NCPU];
static volatile uint32_t seen_a1[NCPU], seen_status[NCPU], started[NCPU];
static volatile uint32_t arrived;

static void started_here(void)
{
    uint32_t id = cpu_id();
    started[id] = 0x5700 + id;
    atomic_add(&arrived, 0x100);
    for (;;)
        cpu_wait();
}

void secondary_main(uint32_t id, uint32_t a1, uint32_t ebase, uint32_t status)
{
    uint32_t hwr;
    __asm__ volatile("rdhwr %0, $0" : "=r"(hwr));
    seen_ebase[id] = ebase;
    seen_index[id] = MFC0(0, 0);
    seen_hwr[id] = hwr;
    seen_a1[id] = a1;
    seen_status[id] = status;
    mailbox_setup(id);
    atomic_add(&arrived, 1);
    /* the boot protocol: sleep until the mailbox holds the start address */
    void (*fn)(void) = (void (*)(void))mailbox_wait(id);
    fn();
}

int main(void)
{
    uint32_t hwr;
    __asm__ volatile("rdhwr %0, $0" : "=r"(hwr));
    CHECK_EQ(1, cpu_id(), 0);
    CHECK_EQ(2, hwr, 0);
    CHECK_EQ(3, MFC0(0, 0), 0);
    CHECK_EQ(4, boot_cp[BOOT_EBASE], 0x80000000u);
    /* CONFIG: 4*NCPU outputs, NCPU WTI, the spec's HWI inputs, NCPU PTI */
    CHECK_EQ(5, XICU(X_CONFIG, 0),
             (4u * NCPU) << 24 | NCPU << 16 | (uint32_t)XICU_HWI_COUNT << 8 | NCPU);
    while ((arrived & 0xFF) != NCPU - 1)
        ;
    for (uint32_t i = 1; i < NCPU; i++) {
        CHECK_EQ(10 + i, seen_ebase[i], 0x80000000u | i); /* reset EBase | CPUNum */
        CHECK_EQ(20 + i, seen_index[i], i);
        CHECK_EQ(30 + i, seen_hwr[i], i);
        CHECK_EQ(40 + i, seen_a1[i], boot_regs[5]); /* the same DTB address */
        CHECK_EQ(50 + i, started[i], 0);            /* still waiting */
        CHECK_EQ(55 + i, seen_status[i], 0x00400004u); /* BEV | ERL */
    }
    CHECK(60, boot_regs[5] != 0);
    for (int k = 0; k < 100000; k++) /* nobody starts without a message */
        __asm__ volatile("nop");
    CHECK_EQ(61, arrived >> 8, 0);
    for (uint32_t i = 1; i < NCPU; i++)
        mailbox_send(i, (uint32_t)(uintptr_t)started_here);
    while ((arrived >> 8) != NCPU - 1)
        ;
    for (uint32_t i = 1; i < NCPU; i++)
        CHECK_EQ(70 + i, started[i], 0x5700 + i);
    puts_("smp boot: ");
    putdec(NCPU);
    puts_(" CPUs started\n");
    return 0;
}
