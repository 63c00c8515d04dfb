/*
 * t_mmu: the CP2 MMU (reference section 2) - two-level walk with 4 KiB and
 * 2 MiB pages, hardware L/D bits, every fault type (DETR/IETR, DBVAR/IBVAR,
 * BadVAddr, EPC), user/kernel checks, and TLB coherence without any flush:
 * PTE stores, PTPR switches and code remapping are seen at once.
 */
#include "mmu.h"
#include "test.h"

static uint32_t pg[6][1024] __attribute__((aligned(4096)));
static uint32_t codeA[1024] __attribute__((aligned(4096)));
static uint32_t codeB[1024] __attribute__((aligned(4096)));
uint32_t pt1b[2048] __attribute__((aligned(8192)));

#define PA(p) ((uint32_t)(uintptr_t)(p))
#define VREAD(va) (*(volatile uint32_t *)(uintptr_t)(va))
#define USER_CODE 0x70000000u /* user alias of physical 0..2 MiB */

/* fault log filled by log_hook */
static volatile uint32_t lg_code[16], lg_detr[16], lg_ietr[16], lg_bv[16], lg_epc[16],
    lg_dbvar[16], lg_ibvar[16];
static volatile int nlog;
static void log_hook(exc_frame *f, uint32_t cause)
{
    (void)f;
    if (nlog < 16) {
        lg_code[nlog] = EXCCODE(cause);
        lg_detr[nlog] = MFC2(12);
        lg_ietr[nlog] = MFC2(11);
        lg_dbvar[nlog] = MFC2(14);
        lg_ibvar[nlog] = MFC2(13);
        lg_bv[nlog] = exc_badvaddr;
        lg_epc[nlog] = exc_epc;
    }
    nlog++;
    exc_default_resume(cause);
}
/* for faulting calls: return to the caller with v0 = 0xDEAD */
static void ret_hook(exc_frame *f, uint32_t cause)
{
    log_hook(f, cause);
    MTC0(14, 0, f->r[31]);
    f->r[2] = 0xDEAD;
}

static uint32_t load(uint32_t va)
{
    uint32_t v;
    __asm__ volatile("lw %0, 0(%1)\n\tnop" : "=r"(v) : "r"(va) : "memory");
    return v;
}
static void store(uint32_t va, uint32_t v)
{
    __asm__ volatile("sw %0, 0(%1)\n\tnop" ::"r"(v), "r"(va) : "memory");
}
static void storeb(uint32_t va, uint32_t v)
{
    __asm__ volatile("sb %0, 0(%1)\n\tnop" ::"r"(v), "r"(va) : "memory");
}

/* user-mode code, run at USER_CODE + its physical address */
__asm__(".set push\n.set noreorder\n.text\n"
        "u_mmu:\n"
        "  li   $t0, 0x40008000\n"
        "  lw   $t1, 0($t0)\n"      /* U|W: ok */
        "  sw   $t1, 4($t0)\n"      /* ok */
        "  li   $t0, 0x40009000\n"
        "  lw   $t1, 0($t0)\n"      /* U, no W: ok */
        "  sw   $t1, 0($t0)\n"      /* ACCES (write) */
        "  li   $t0, 0x4000A000\n"
        "  lw   $t1, 0($t0)\n"      /* no U: PRIVILEGE (read) */
        "  sw   $t1, 0($t0)\n"      /* PRIVILEGE (write) */
        "  li   $t0, 0x50000000\n"
        "  lw   $t1, 0($t0)\n"      /* PT1 unmapped */
        "  syscall\n  nop\n"
        "u_fetch_kernel:\n"
        "  li   $t0, 0x00010000\n"  /* kernel-only page */
        "  jr   $t0\n  nop\n"
        "u_fetch_back:\n"
        "  syscall\n  nop\n"
        ".set pop\n");
extern char u_mmu[], u_fetch_kernel[], u_fetch_back[];

int main(void)
{
    map_identity(pt1);
    mmu_on(pt1);
    CHECK_EQ(1, MFC2(1), 0xF);
    CHECK_EQ(2, MFC2(0), PA(pt1) >> 13);

    /* ---- 4 KiB page ---- */
    pg[0][0] = 0x11110000;
    pg[0][5] = 0x11110005;
    volatile pte2_t *e0 = map_page(pt1, 0x40000000, PA(pg[0]), PTE_V | PTE_C | PTE_W);
    CHECK_EQ(10, e0->flags & (PTE_L | PTE_D), 0);
    CHECK_EQ(11, load(0x40000014), 0x11110005);
    CHECK_EQ(12, e0->flags & (PTE_L | PTE_D), PTE_L); /* L set by the walk, no D */
    store(0x40000008, 0x12345678);
    CHECK_EQ(13, pg[0][2], 0x12345678);
    CHECK_EQ(14, e0->flags & (PTE_L | PTE_D), PTE_L | PTE_D); /* D set on write */
    CHECK_EQ(15, e0->ppn, PA(pg[0]) >> 12);

    /* ---- 2 MiB page ---- */
    VREAD(0x01012344) = 0xB16B00B5;
    map_big(pt1, 0x60000000, 0x01000000, PTE_V | PTE_C | PTE_W);
    CHECK_EQ(20, load(0x60012344), 0xB16B00B5);
    CHECK_EQ(21, pt1[0x60000000 >> 21] & (PTE_L | PTE_D), PTE_L);
    store(0x601FFFFC, 0x600DF00D);
    CHECK_EQ(22, VREAD(0x011FFFFC), 0x600DF00D);
    CHECK_EQ(23, pt1[0x60000000 >> 21] & (PTE_L | PTE_D), PTE_L | PTE_D);

    /* ---- data faults (kernel mode) ---- */
    exc_hook = log_hook;
    nlog = 0;
    load(0x50000000);                    /* PT1 entry invalid */
    store(0x50000004, 0);                /* same, write: still the read form (quirk) */
    load(0x40001000);                    /* PT2 entry invalid */
    store(0x40001000, 0);
    map_page(pt1, 0x40002000, PA(pg[1]), PTE_V | PTE_C); /* read-only */
    pg[1][0] = 0x22220000;
    CHECK_EQ(30, load(0x40002000), 0x22220000);
    storeb(0x40002003, 0);               /* ACCES violation; DBVAR word aligned */
    map_page(pt1, 0x40004000, 0x30000000, PTE_V | PTE_C | PTE_W); /* no RAM there */
    load(0x40004010);
    store(0x40004020, 1);
    pt1[0x48000000 >> 21] = PTE_V | PTE_T | (0x30000000 >> 12); /* PT2 outside RAM */
    load(0x48000000);
    exc_hook = 0;
    CHECK_EQ(31, nlog, 8);
    static const uint32_t detr_exp[8] = {
        MMU_FAULT_READ | MMU_FAULT_PT1_UNMAPPED, MMU_FAULT_READ | MMU_FAULT_PT1_UNMAPPED, MMU_FAULT_READ | MMU_FAULT_PT2_UNMAPPED,
        MMU_FAULT_READ | MMU_FAULT_PT2_UNMAPPED, MMU_FAULT_ACCESS_VIOLATION,  MMU_FAULT_READ | MMU_FAULT_DATA_ILLEGAL_ACCESS,
        MMU_FAULT_DATA_ILLEGAL_ACCESS,           MMU_FAULT_READ | MMU_FAULT_PT2_ILLEGAL_ACCESS};
    static const uint32_t dbvar_exp[8] = {0x50000000, 0x50000004, 0x40001000, 0x40001000,
                                          0x40002000, 0x40004010, 0x40004020, 0x48000000};
    for (int i = 0; i < 8; i++) {
        CHECK_EQ(40 + i, lg_code[i], EXC_DBE);
        CHECK_EQ(50 + i, lg_detr[i], detr_exp[i]);
        CHECK_EQ(60 + i, lg_dbvar[i], dbvar_exp[i]);
        CHECK_EQ(70 + i, lg_bv[i], dbvar_exp[i]);
    }
    CHECK_EQ(78, pg[1][0], 0x22220000); /* the refused store did nothing */

    /* PT1 read bus error: bad PTPR (ITLB off so the vector can be fetched) */
    exc_hook = log_hook;
    nlog = 0;
    __asm__ volatile(".set push\n\t.set noreorder\n\t"
                     "mtc2 %1, $1\n\t" /* ITLB off first */
                     "mtc2 %0, $0\n\t"
                     "lw   $t9, 0(%2)\n\t"
                     "nop\n\t"
                     "mtc2 %3, $0\n\t"
                     "mtc2 %4, $1\n\t"
                     "nop\n\t.set pop" ::"r"(0x30000000 >> 13),
                     "r"(0x7), "r"(PA(pg[0])), "r"(PA(pt1) >> 13), "r"(0xF)
                     : "t9", "memory");
    exc_hook = 0;
    CHECK_EQ(80, nlog, 1);
    CHECK_EQ(81, lg_code[0], EXC_DBE);
    CHECK_EQ(82, lg_detr[0], MMU_FAULT_READ | MMU_FAULT_PT1_ILLEGAL_ACCESS);
    CHECK_EQ(83, MFC2(1), 0xF);

    /* ---- instruction faults ---- */
    codeA[0] = 0x03E00008; /* jr ra */
    codeA[1] = 0x24020001; /* li v0, 1 (delay slot) */
    codeB[0] = 0x03E00008;
    codeB[1] = 0x24020002; /* li v0, 2 */
    uint32_t (*fn)(void) = (uint32_t(*)(void))0x40006000;
    volatile pte2_t *ec = map_page(pt1, 0x40006000, PA(codeA), PTE_V | PTE_C); /* no X */
    exc_hook = ret_hook;
    nlog = 0;
    CHECK_EQ(90, fn(), 0xDEAD);
    CHECK_EQ(91, lg_code[0], EXC_IBE);
    CHECK_EQ(92, lg_ietr[0], MMU_FAULT_READ | MMU_FAULT_EXEC_VIOLATION);
    CHECK_EQ(93, lg_ibvar[0], 0x40006000);
    CHECK_EQ(94, lg_epc[0], 0x40006000);
    uint32_t (*nowhere)(void) = (uint32_t(*)(void))0x50001000;
    CHECK_EQ(95, nowhere(), 0xDEAD);
    CHECK_EQ(96, lg_ietr[1], MMU_FAULT_READ | MMU_FAULT_PT1_UNMAPPED);
    CHECK_EQ(97, lg_ibvar[1], 0x50001000);
    exc_hook = 0;
    ec->flags = PTE_V | PTE_C | PTE_X; /* now executable: seen without a flush */
    CHECK_EQ(98, fn(), 1);
    CHECK_EQ(99, ec->flags & PTE_L, PTE_L);

    /* ---- coherence without flushes ---- */
    /* remap the code page: the next call runs the new code */
    ec->ppn = PA(codeB) >> 12;
    CHECK_EQ(100, fn(), 2);
    /* self-modifying code: rewrite the instruction in place */
    codeB[1] = 0x24020003;
    CHECK_EQ(101, fn(), 3);
    /* remap a data page */
    pg[2][0] = 0xAAAA;
    pg[3][0] = 0xBBBB;
    pg[4][0] = 0xCCCC;
    volatile pte2_t *ed = map_page(pt1, 0x40005000, PA(pg[2]), PTE_V | PTE_C | PTE_W);
    CHECK_EQ(102, load(0x40005000), 0xAAAA);
    ed->ppn = PA(pg[3]) >> 12;
    CHECK_EQ(103, load(0x40005000), 0xBBBB);
    store(0x40005004, 0x1234);
    CHECK_EQ(104, pg[3][1], 0x1234);
    /* write permission removed: the next store faults */
    ed->flags = PTE_V | PTE_C | PTE_D;
    EXPECT_EXC(105, EXC_DBE, store(0x40005008, 1));
    CHECK_EQ(106, MFC2(12), MMU_FAULT_ACCESS_VIOLATION);
    ed->flags = PTE_V | PTE_C | PTE_W;
    store(0x40005008, 2);
    CHECK_EQ(107, pg[3][2], 2);
    /* invalidated: read faults */
    ed->flags = 0;
    EXPECT_EXC(108, EXC_DBE, load(0x40005000));
    CHECK_EQ(109, MFC2(12), MMU_FAULT_READ | MMU_FAULT_PT2_UNMAPPED);
    ed->flags = PTE_V | PTE_C | PTE_W;
    /* a second page table: switching PTPR changes the mapping */
    for (int i = 0; i < 2048; i++)
        pt1b[i] = pt1[i];
    pt1b[0x40005000 >> 21] = 0; /* rebuilt below with its own PT2 */
    map_page(pt1b, 0x40005000, PA(pg[4]), PTE_V | PTE_C | PTE_W);
    CHECK_EQ(110, load(0x40005000), 0xBBBB);
    MTC2(0, PA(pt1b) >> 13);
    CHECK_EQ(111, load(0x40005000), 0xCCCC);
    MTC2(0, PA(pt1) >> 13);
    CHECK_EQ(112, load(0x40005000), 0xBBBB);
    /* big page remap */
    VREAD(0x01200000) = 0x2222;
    VREAD(0x01000000) = 0x1111;
    CHECK_EQ(113, load(0x60000000), 0x1111);
    pt1[0x60000000 >> 21] = PTE_V | PTE_C | PTE_W | (0x01200000 >> 21);
    CHECK_EQ(114, load(0x60000000), 0x2222);
    /* TLB maintenance operations are harmless */
    MTC2(5, 0x60000000);
    MTC2(4, 0x40006000);
    MTC2(3, 0);
    CHECK_EQ(115, load(0x60000000), 0x2222);
    CHECK_EQ(116, fn(), 3);

    /* ---- user mode ---- */
    map_big(pt1, USER_CODE, 0, PTE_V | PTE_C | PTE_X | PTE_U);
    map_page(pt1, 0x40008000, PA(pg[5]), PTE_V | PTE_C | PTE_W | PTE_U);
    map_page(pt1, 0x40009000, PA(pg[5]), PTE_V | PTE_C | PTE_U);
    map_page(pt1, 0x4000A000, PA(pg[5]), PTE_V | PTE_C | PTE_W);
    pg[5][0] = 77;
    exc_hook = log_hook;
    nlog = 0;
    run_user((void (*)(void))(USER_CODE + PA(u_mmu)), 0);
    CHECK_EQ(120, nlog, 4);
    CHECK_EQ(121, pg[5][1], 77); /* the allowed store happened */
    static const uint32_t u_exp[4] = {MMU_FAULT_ACCESS_VIOLATION, MMU_FAULT_READ | MMU_FAULT_PRIVILEGE_VIOLATION, MMU_FAULT_PRIVILEGE_VIOLATION,
                                      MMU_FAULT_READ | MMU_FAULT_PT1_UNMAPPED};
    for (int i = 0; i < 4; i++) {
        CHECK_EQ(122, lg_code[i], EXC_DBE);
        CHECK_EQ(123 + i, lg_detr[i], u_exp[i]);
    }
    CHECK_EQ(127, lg_epc[0] - USER_CODE, PA(u_mmu) + 7 * 4); /* the 2nd sw (li = lui+ori) */
    /* user fetch from a kernel-only page */
    nlog = 0;
    exc_resume = USER_CODE + PA(u_fetch_back);
    run_user((void (*)(void))(USER_CODE + PA(u_fetch_kernel)), 0);
    exc_hook = 0;
    CHECK_EQ(130, nlog, 1);
    CHECK_EQ(131, lg_code[0], EXC_IBE);
    CHECK_EQ(132, lg_ietr[0], MMU_FAULT_READ | MMU_FAULT_PRIVILEGE_VIOLATION);
    CHECK_EQ(133, lg_epc[0], 0x00010000);
    CHECK_EQ(134, lg_ibvar[0], 0x00010000);

    mmu_off();
    CHECK_EQ(140, MFC2(1), 0x3);
    return 0;
}
