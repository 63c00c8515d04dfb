/*
 * t_loadstore: loads/stores of every width with sign/zero extension,
 * little-endian lwl/lwr/swl/swr at every byte offset, ll/sc reservation rules.
 */
#include "test.h"

static volatile uint32_t mem[4] __attribute__((aligned(16)));

#define LOADOP(insn, addr)                                                    \
    ({                                                                        \
        uint32_t r_;                                                          \
        __asm__ volatile(insn " %0, 0(%1)" : "=r"(r_) : "r"(addr) : "memory"); \
        r_;                                                                   \
    })
#define LWLR(insn, init, addr)                                                \
    ({                                                                        \
        uint32_t r_ = (init);                                                 \
        __asm__ volatile(insn " %0, 0(%1)" : "+r"(r_) : "r"(addr) : "memory"); \
        r_;                                                                   \
    })
#define STOREOP(insn, val, addr)                                              \
    __asm__ volatile(insn " %0, 0(%1)" ::"r"((u32)(val)), "r"(addr) : "memory")

static inline uint32_t ll(volatile uint32_t *p)
{
    uint32_t v;
    __asm__ volatile("ll %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}
static inline uint32_t sc(volatile uint32_t *p, uint32_t v)
{
    __asm__ volatile("sc %0, 0(%1)" : "+r"(v) : "r"(p) : "memory");
    return v;
}

int main(void)
{
    volatile uint8_t *b = (volatile uint8_t *)mem;

    /* loads with sign/zero extension */
    mem[0] = 0x8001F080;
    CHECK_EQ(1, LOADOP("lb", b), 0xFFFFFF80);
    CHECK_EQ(2, LOADOP("lbu", b), 0x80);
    CHECK_EQ(3, LOADOP("lb", b + 1), 0xFFFFFFF0);
    CHECK_EQ(4, LOADOP("lbu", b + 3), 0x80);
    CHECK_EQ(5, LOADOP("lh", b), 0xFFFFF080);
    CHECK_EQ(6, LOADOP("lhu", b), 0xF080);
    CHECK_EQ(7, LOADOP("lh", b + 2), 0xFFFF8001);
    CHECK_EQ(8, LOADOP("lhu", b + 2), 0x8001);
    CHECK_EQ(9, LOADOP("lw", b), 0x8001F080);
    mem[1] = 0x00007F7F;
    CHECK_EQ(10, LOADOP("lb", b + 4), 0x7F);
    CHECK_EQ(11, LOADOP("lh", b + 4), 0x7F7F);

    /* stores of each width land in the right bytes */
    mem[0] = 0;
    STOREOP("sb", 0x1AB, b + 1);
    CHECK_EQ(20, mem[0], 0x0000AB00);
    STOREOP("sh", 0x12345, b + 2);
    CHECK_EQ(21, mem[0], 0x2345AB00);
    STOREOP("sw", 0xCAFEF00D, b);
    CHECK_EQ(22, mem[0], 0xCAFEF00D);
    STOREOP("sb", 0x77, b + 3);
    CHECK_EQ(23, mem[0], 0x77FEF00D);

    /* lwl / lwr at each offset (memory 11 22 33 44 55 66 77 88) */
    mem[0] = 0x44332211;
    mem[1] = 0x88776655;
    CHECK_EQ(30, LWLR("lwl", 0xAABBCCDD, b + 0), 0x11BBCCDD);
    CHECK_EQ(31, LWLR("lwl", 0xAABBCCDD, b + 1), 0x2211CCDD);
    CHECK_EQ(32, LWLR("lwl", 0xAABBCCDD, b + 2), 0x332211DD);
    CHECK_EQ(33, LWLR("lwl", 0xAABBCCDD, b + 3), 0x44332211);
    CHECK_EQ(34, LWLR("lwr", 0xAABBCCDD, b + 0), 0x44332211);
    CHECK_EQ(35, LWLR("lwr", 0xAABBCCDD, b + 1), 0xAA443322);
    CHECK_EQ(36, LWLR("lwr", 0xAABBCCDD, b + 2), 0xAABB4433);
    CHECK_EQ(37, LWLR("lwr", 0xAABBCCDD, b + 3), 0xAABBCC44);
    /* the unaligned-load idiom: lwr at a, lwl at a+3 */
    {
        uint32_t r = 0;
        __asm__ volatile("lwr %0, 1(%1)\n\tlwl %0, 4(%1)" : "+r"(r) : "r"(b) : "memory");
        CHECK_EQ(38, r, 0x55443322);
    }
    /* swl / swr at each offset */
    static const uint32_t swl_exp[4] = {0x443322AA, 0x4433AABB, 0x44AABBCC, 0xAABBCCDD};
    static const uint32_t swr_exp[4] = {0xAABBCCDD, 0xBBCCDD11, 0xCCDD2211, 0xDD332211};
    for (int k = 0; k < 4; k++) {
        mem[0] = 0x44332211;
        STOREOP("swl", 0xAABBCCDD, b + k);
        CHECK_EQ(40 + k, mem[0], swl_exp[k]);
        mem[0] = 0x44332211;
        STOREOP("swr", 0xAABBCCDD, b + k);
        CHECK_EQ(44 + k, mem[0], swr_exp[k]);
    }
    /* the unaligned-store idiom */
    mem[0] = 0;
    mem[1] = 0;
    __asm__ volatile("swr %0, 1(%1)\n\tswl %0, 4(%1)" ::"r"(0xDDCCBBAA), "r"(b) : "memory");
    CHECK_EQ(48, mem[0], 0xCCBBAA00);
    CHECK_EQ(49, mem[1], 0x000000DD);

    /* ll / sc */
    mem[2] = 5;
    CHECK_EQ(50, ll(&mem[2]), 5);
    CHECK_EQ(51, sc(&mem[2], 6), 1);
    CHECK_EQ(52, mem[2], 6);
    CHECK_EQ(53, sc(&mem[2], 7), 0); /* no reservation any more */
    CHECK_EQ(54, mem[2], 6);
    ll(&mem[2]);
    mem[2] = 9; /* a store to the reserved word breaks the reservation */
    CHECK_EQ(55, sc(&mem[2], 10), 0);
    CHECK_EQ(56, mem[2], 9);
    ll(&mem[2]);
    b[9] = 1; /* so does a byte store into it */
    CHECK_EQ(57, sc(&mem[2], 10), 0);
    ll(&mem[2]);
    mem[3] = 1; /* a store elsewhere does not */
    CHECK_EQ(58, sc(&mem[2], 11), 1);
    CHECK_EQ(59, mem[2], 11);
    ll(&mem[2]);
    MTC2(21, 0); /* CP2 LL_RESET */
    CHECK_EQ(60, sc(&mem[2], 12), 0);
    ll(&mem[2]);
    ll(&mem[3]); /* the reservation moves */
    CHECK_EQ(61, sc(&mem[2], 13), 0);
    CHECK_EQ(62, sc(&mem[3], 14), 0); /* sc on 2 cleared it */
    ll(&mem[2]);
    /* an exception + eret keep it in this model (hardware reference 1.3) */
    EXPECT_EXC(63, EXC_SYS, __asm__ volatile("syscall" ::: "memory"));
    CHECK_EQ(64, sc(&mem[2], 15), 1);
    CHECK_EQ(65, mem[2], 15);
    return 0;
}
