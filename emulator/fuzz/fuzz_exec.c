/*
 * libFuzzer target: instruction decoder/executor.
 *
 * Input: byte 0 = options, the rest = little-endian instruction words placed
 * at VA 0x00400000 (up to 4 KiB), followed by a jump back to the start.  Every input runs four times, for a bounded
 * number of instructions each: kernel mode MMU off, kernel mode MMU on, user
 * mode MMU on, user mode MMU off.  Options bit 0: map the code and data with
 * 4 KiB pages (PT2) instead of 2 MiB big pages; bit 1: code page writable;
 * bits 2-3: initial register pattern.  Exceptions go to a handler that
 * skips the faulting instruction (EPC += 4) and returns, so execution keeps
 * exploring.  The guest is set up through the public API (emu.h) plus a few
 * hand-encoded boot instructions (mtc2 PTPR/MODE, mtc0 Status/EPC, eret).
 * Options bit 4: a periodic XICU timer (period 9..135 cycles from bits
 * 5-7) interrupts the program (IE=1, IM2); the handler acknowledges it and
 * returns to the interrupted instruction (a branch, for its delay slot).
 * Invariants checked: $0 stays 0, the emulator never reports an impossible
 * stop reason.  On an x86-64 host every run is done twice, by the block
 * interpreter and by the JIT (-accel jit), from the same state: the final
 * GPRs, HI/LO, PC, Status/Cause/EPC/BadVAddr, instruction count, stop reason
 * and data/code pages must be identical (the interpreter is the oracle).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emu.h"
/* the platform (device addresses and registers, PTE bits, CP0/CP2 numbers):
 * generated from the spec (generate.py --hwdesc) */
#include "hwdesc.h"

#define CODE_VA 0x00400000u
#define DATA_VA 0x00800000u
#define PT1_PA 0x00010000u
#define PT2_PA 0x00012000u /* code */
#define PT2D_PA 0x00013000u /* data */
#define BOOT_PA 0x00001000u
#define VEC_PA 0x00002000u
#define MAX_CODE (4096u - 8u)
#define BUDGET 3000u
/* instructions per run: BUDGET, or $FUZZ_EXEC_BUDGET (to replay a finding
 * at the budget where it shows) */
static unsigned budget = BUDGET;

#define V PTE_V
#define T PTE_T
#define C PTE_C
#define W PTE_W
#define X PTE_X
#define U PTE_U
#define G PTE_G
#define BIG(pa) ((uint32_t)(pa) >> MMU_BIG_PAGE_SHIFT) /* PT1 index, PTE1 PPN */
#define PT1_AT(va) (PT1_PA + BIG(va) * PT1_ENTRY_BYTES)
/* an XICU register's offset from XICU_BASE (function, index) */
#define XREG(f, i) (((f) << XICU_FUNC_SHIFT) | ((i) << XICU_INDEX_SHIFT))

/* MIPS32 encodings used by the boot stub and the exception handler */
#define MTC2(rt, rd) (0x48800000u | (rt) << 16 | (rd) << 11)
#define MTC0(rt, rd) (0x40800000u | (rt) << 16 | (rd) << 11)
#define MFC0(rt, rd) (0x40000000u | (rt) << 16 | (rd) << 11)
#define ADDIU(rt, rs, i) (0x24000000u | (rs) << 21 | (rt) << 16 | ((i) & 0xFFFF))
#define LUI(rt, i) (0x3C000000u | (rt) << 16 | ((i) & 0xFFFF))
#define ORI(rt, rs, i) (0x34000000u | (rs) << 21 | (rt) << 16 | ((i) & 0xFFFF))
#define LW(rt, base, off) (0x8C000000u | (base) << 21 | (rt) << 16 | ((off) & 0xFFFF))
#define SW(rt, base, off) (0xAC000000u | (base) << 21 | (rt) << 16 | ((off) & 0xFFFF))
#define ERET 0x42000018u
#define NOP 0u

static temu *E, *EV[2];
static int NE; /* 2 when the JIT is there to compare with */
static uint8_t zero_page[4096];
#define XICU_PA XICU_BASE

static void wr32(uint32_t pa, uint32_t v)
{
    uint8_t b[4] = {v, v >> 8, v >> 16, v >> 24};
    temu_write_phys(E, pa, b, 4);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *b = getenv("FUZZ_EXEC_BUDGET");
    if (b && atoi(b) > 0)
        budget = (unsigned)atoi(b);
    temu_config cfg;
    char err[256];
    memset(&cfg, 0, sizeof cfg);
    cfg.accel = TEMU_ACCEL_INTERP;
    EV[0] = temu_create(&cfg, err, sizeof err);
    if (!EV[0]) {
        fprintf(stderr, "temu_create: %s\n", err);
        abort();
    }
    NE = 1;
    cfg.accel = TEMU_ACCEL_JIT;
    cfg.jit_hot = 2; /* translate on the second entry: the JIT runs most code */
    EV[1] = temu_create(&cfg, err, sizeof err);
    if (EV[1])
        NE = 2;
    E = EV[0];
    return 0;
}

static void setup_memory(const uint8_t *code, size_t n, unsigned opt)
{
    /* clear the regions a previous input may have changed */
    for (uint32_t pa = 0; pa < 0x20000; pa += 4096)
        temu_write_phys(E, pa, zero_page, 4096);
    temu_write_phys(E, CODE_VA, zero_page, 4096);
    uint8_t data[4096];
    for (unsigned i = 0; i < sizeof data; i++)
        data[i] = (uint8_t)(i * 13 + 7);
    temu_write_phys(E, DATA_VA, data, sizeof data);
    temu_write_phys(E, CODE_VA, code, n);
    /* then loop back: re-run the input with the state it left behind */
    uint32_t end = CODE_VA + ((uint32_t)n & ~3u);
    wr32(end, 0x08000000u | ((CODE_VA >> 2) & 0x03FFFFFFu)); /* j CODE_VA */
    wr32(end + 4, NOP);

    /* handler: an interrupt acknowledges PTI 0 and returns to the
     * interrupted instruction; an exception skips it (EPC += 4) */
    static const uint32_t vec[] = {
        MFC0(26, CP0_CAUSE_REG), 0x335A0000u | CP0_CAUSE_EXCCODE /* andi k0,k0,ExcCode */,
        0x17400005u /* bne k0,zero,+5 */, NOP,
        LUI(26, XICU_BASE >> 16), LW(26, 26, XREG(XICU_PTI_ACK, 0)) /* PTI_ACK[0] */,
        ERET, NOP,
        MFC0(26, CP0_EPC_REG), ADDIU(26, 26, 4), MTC0(26, CP0_EPC_REG), NOP, ERET, NOP};
    for (unsigned i = 0; i < sizeof vec / 4; i++)
        wr32(VEC_PA + CP0_GENERAL_VECTOR_OFFSET + 4 * i, vec[i]);

    /* page tables: identity maps */
    uint32_t cw = (opt & 2) ? W : 0;
    wr32(PT1_AT(0), V | C | W | X | G | 0);              /* first big page: boot, vectors, PTs */
    wr32(PT1_AT(TTY_BASE), V | W | G | BIG(TTY_BASE));
    wr32(PT1_AT(XICU_PA), V | W | G | BIG(XICU_PA));
    wr32(PT1_AT(SIMHELPER_BASE), V | W | G | BIG(SIMHELPER_BASE));
    if (opt & 1) {
        wr32(PT1_AT(CODE_VA), V | T | (PT2_PA >> MMU_PAGE_SHIFT));
        wr32(PT1_AT(DATA_VA), V | T | (PT2D_PA >> MMU_PAGE_SHIFT));
        wr32(PT2_PA, V | C | X | U | G | cw);
        wr32(PT2_PA + 4 * PTE2_PPN_WORD, CODE_VA >> MMU_PAGE_SHIFT);
        wr32(PT2D_PA, V | C | W | U | G);
        wr32(PT2D_PA + 4 * PTE2_PPN_WORD, DATA_VA >> MMU_PAGE_SHIFT);
        wr32(PT2D_PA + PT2_ENTRY_BYTES, V | C | U | G); /* second data page read-only */
        wr32(PT2D_PA + PT2_ENTRY_BYTES + 4 * PTE2_PPN_WORD, (DATA_VA >> MMU_PAGE_SHIFT) + 1);
    } else {
        wr32(PT1_AT(CODE_VA), V | C | X | U | G | cw | BIG(CODE_VA));
        wr32(PT1_AT(DATA_VA), V | C | W | U | G | BIG(DATA_VA));
    }
}

static void boot(int mmu, int user, unsigned opt)
{
    temu_reset(E);
    /* boot stub: (timer: XICU PTI 0 period, unmasked on output 0);
     * mtc2 $1,PTPR; mtc2 $2,MODE; mtc0 $3,Status; mtc0 $4,EPC; eret */
    uint32_t per = 9 + 18 * ((opt >> 5) & 7);
    uint32_t stub[] = {LUI(26, XICU_BASE >> 16), ORI(27, 0, per),
                       SW(27, 26, XREG(XICU_PTI_PER, 0)) /* PTI_PER[0] */,
                       ORI(27, 0, 1), SW(27, 26, XREG(XICU_MSK_PTI_ENABLE, 0)) /* MSK_PTI_EN[0] */,
                       MTC2(1, CP2_PTPR), MTC2(2, CP2_MODE), NOP, MTC0(3, CP0_STATUS_REG),
                       MTC0(4, CP0_EPC_REG), NOP, ERET, NOP};
    if (!(opt & 16))
        for (int i = 0; i < 5; i++)
            stub[i] = NOP;
    for (unsigned i = 0; i < sizeof stub / 4; i++)
        wr32(BOOT_PA + 4 * i, stub[i]);
    static const uint32_t pat[4][8] = {
        {0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, DATA_VA, DATA_VA + 0x100, TTY_BASE},
        {DATA_VA + 4, DATA_VA + 1, DATA_VA + 0x1FF8, 2, 3, 0xFFFF8000, CODE_VA, 31},
        {0x12345678, DATA_VA + 0x800, SIMHELPER_BASE, 0xDEADBEEF, 5, 0x8000, 0x10000, 0},
        {DATA_VA, DATA_VA, DATA_VA, DATA_VA, 0x7FFF, 0xFFFF, 4, 8},
    };
    const uint32_t *p = pat[(opt >> 2) & 3];
    for (int r = 5; r < 32; r++)
        temu_set_reg(E, r, p[r & 7] + (r >= 24 ? 0x40 : 0));
    temu_set_reg(E, 1, PT1_PA >> MMU_PTPR_SHIFT);
    temu_set_reg(E, 2, mmu ? MMU_MODE_ALL : MMU_MODE_DCACHE | MMU_MODE_ICACHE);
    /* KSU=user or kernel, EXL=1 for eret (+ IE and IM2 with the timer) */
    temu_set_reg(E, 3, (user ? CP0_STATUS_UM | CP0_STATUS_EXL : CP0_STATUS_EXL) |
                           ((opt & 16) ? CP0_STATUS_IE | (1u << CP0_STATUS_IM_SHIFT << 2) : 0));
    temu_set_reg(E, 4, CODE_VA);
    temu_set_reg(E, TEMU_REG_HI, 0x11111111);
    temu_set_reg(E, TEMU_REG_LO, 0x22222222);
    temu_cp0_write(E, CP0_EBASE_REG, CP0_EBASE_SEL, VEC_PA);
    temu_cp0_write(E, CP0_STATUS_REG, CP0_STATUS_SEL, 0); /* BEV=0, ERL=0 */
    temu_set_reg(E, TEMU_REG_PC, BOOT_PA);
}

/* The architectural state compared between the two tiers. */
struct state {
    uint32_t r[35]; /* GPRs, HI, LO, PC */
    uint32_t cp0[4];
    uint64_t insns;
    int stop;
    uint8_t data[8192], code[4096];
};

static void snapshot(struct state *s, temu_stop st, uint64_t insns)
{
    static const int cp0[4] = {CP0_STATUS_REG, CP0_CAUSE_REG, CP0_EPC_REG, CP0_BADVADDR_REG};
    for (int i = 0; i < 32; i++)
        s->r[i] = temu_get_reg(E, i);
    s->r[32] = temu_get_reg(E, TEMU_REG_HI);
    s->r[33] = temu_get_reg(E, TEMU_REG_LO);
    s->r[34] = temu_get_reg(E, TEMU_REG_PC);
    for (int i = 0; i < 4; i++)
        s->cp0[i] = temu_cp0_read(E, cp0[i], 0); /* select 0 for all four */
    s->insns = insns;
    s->stop = (int)st;
    temu_read_phys(E, DATA_VA, s->data, sizeof s->data);
    temu_read_phys(E, CODE_VA, s->code, sizeof s->code);
}

static void compare(const struct state *a, const struct state *b, int mode)
{
    static const char *const cp0[4] = {"Status", "Cause", "EPC", "BadVAddr"};
    int bad = 0;
    for (int i = 0; i < 35; i++)
        if (a->r[i] != b->r[i]) {
            fprintf(stderr, "interp/jit differ (run %d): reg %d 0x%08x != 0x%08x\n", mode, i,
                    a->r[i], b->r[i]);
            bad = 1;
        }
    for (int i = 0; i < 4; i++)
        if (a->cp0[i] != b->cp0[i]) {
            fprintf(stderr, "interp/jit differ (run %d): %s 0x%08x != 0x%08x\n", mode, cp0[i],
                    a->cp0[i], b->cp0[i]);
            bad = 1;
        }
    if (a->insns != b->insns || a->stop != b->stop) {
        fprintf(stderr, "interp/jit differ (run %d): %llu insns stop %d != %llu insns stop %d\n",
                mode, (unsigned long long)a->insns, a->stop, (unsigned long long)b->insns,
                b->stop);
        bad = 1;
    }
    if (memcmp(a->data, b->data, sizeof a->data) || memcmp(a->code, b->code, sizeof a->code)) {
        fprintf(stderr, "interp/jit differ (run %d): memory\n", mode);
        bad = 1;
    }
    if (bad)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned opt = data[0];
    const uint8_t *code = data + 1;
    size_t n = size - 1;
    if (n > MAX_CODE)
        n = MAX_CODE;

    char buf[128];
    for (size_t i = 0; i + 4 <= n && i < 256; i += 4) {
        uint32_t w = code[i] | code[i + 1] << 8 | code[i + 2] << 16 | (uint32_t)code[i + 3] << 24;
        temu_disasm(w, CODE_VA + (uint32_t)i, buf, sizeof buf);
        if (!memchr(buf, 0, sizeof buf))
            abort();
    }

    static const int modes[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
    for (int m = 0; m < 4; m++) {
        struct state s[2];
        for (int k = 0; k < NE; k++) {
            E = EV[k];
            setup_memory(code, n, opt);
            boot(modes[m][0], modes[m][1], opt);
            uint64_t before = temu_insns(E);
            temu_stop st = temu_run(E, budget);
            /* no breakpoints, no host poll callback, no symbols (so no
             * STUB); SPIN needs a poll, which a large FUZZ_EXEC_BUDGET reaches */
            if (st != TEMU_STOP_LIMIT && st != TEMU_STOP_EXIT && st != TEMU_STOP_HANG &&
                st != TEMU_STOP_SPIN)
                abort();
            if (temu_get_reg(E, 0) != 0)
                abort();
            if (temu_insns(E) - before > budget)
                abort();
            snapshot(&s[k], st, temu_insns(E) - before);
        }
        if (NE == 2)
            compare(&s[0], &s[1], m);
    }
    E = EV[0];
    return 0;
}
