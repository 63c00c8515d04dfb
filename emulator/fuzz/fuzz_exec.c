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

#define V 0x80000000u
#define T 0x40000000u
#define C 0x08000000u
#define W 0x04000000u
#define X 0x02000000u
#define U 0x01000000u
#define G 0x00800000u

/* MIPS32 encodings used by the boot stub and the exception handler */
#define MTC2(rt, rd) (0x48800000u | (rt) << 16 | (rd) << 11)
#define MTC0(rt, rd) (0x40800000u | (rt) << 16 | (rd) << 11)
#define MFC0(rt, rd) (0x40000000u | (rt) << 16 | (rd) << 11)
#define ADDIU(rt, rs, i) (0x24000000u | (rs) << 21 | (rt) << 16 | ((i) & 0xFFFF))
#define ERET 0x42000018u
#define NOP 0u

static temu *E, *EV[2];
static int NE; /* 2 when the JIT is there to compare with */
static uint8_t zero_page[4096];
#define XICU_PA 0x10000000u

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
        MFC0(26, 13), 0x335A007Cu /* andi k0,k0,0x7c */, 0x17400005u /* bne k0,zero,+5 */, NOP,
        0x3C1A1000u /* lui k0,0x1000 */, 0x8F5A0180u /* lw k0,0x180(k0): PTI_ACK[0] */,
        ERET, NOP,
        MFC0(26, 14), ADDIU(26, 26, 4), MTC0(26, 14), NOP, ERET, NOP};
    for (unsigned i = 0; i < sizeof vec / 4; i++)
        wr32(VEC_PA + 0x180 + 4 * i, vec[i]);

    /* page tables: identity maps */
    uint32_t cw = (opt & 2) ? W : 0;
    wr32(PT1_PA + 0 * 4, V | C | W | X | G | 0);              /* 0..2M: boot, vectors, PTs */
    wr32(PT1_PA + (0x14000000u >> 21) * 4, V | W | G | (0x14000000u >> 21));
    wr32(PT1_PA + (XICU_PA >> 21) * 4, V | W | G | (XICU_PA >> 21));
    wr32(PT1_PA + (0x1F000000u >> 21) * 4, V | W | G | (0x1F000000u >> 21));
    if (opt & 1) {
        wr32(PT1_PA + (CODE_VA >> 21) * 4, V | T | (PT2_PA >> 12));
        wr32(PT1_PA + (DATA_VA >> 21) * 4, V | T | (PT2D_PA >> 12));
        wr32(PT2_PA, V | C | X | U | G | cw);
        wr32(PT2_PA + 4, CODE_VA >> 12);
        wr32(PT2D_PA, V | C | W | U | G);
        wr32(PT2D_PA + 4, DATA_VA >> 12);
        wr32(PT2D_PA + 8, V | C | U | G); /* second data page read-only */
        wr32(PT2D_PA + 12, (DATA_VA >> 12) + 1);
    } else {
        wr32(PT1_PA + (CODE_VA >> 21) * 4, V | C | X | U | G | cw | (CODE_VA >> 21));
        wr32(PT1_PA + (DATA_VA >> 21) * 4, V | C | W | U | G | (DATA_VA >> 21));
    }
}

static void boot(int mmu, int user, unsigned opt)
{
    temu_reset(E);
    /* boot stub: (timer: XICU PTI 0 period, unmasked on output 0);
     * mtc2 $1,PTPR; mtc2 $2,MODE; mtc0 $3,Status; mtc0 $4,EPC; eret */
    uint32_t per = 9 + 18 * ((opt >> 5) & 7);
    uint32_t stub[] = {0x3C1A1000u /* lui k0,0x1000 */, 0x341B0000u | per /* ori k1,zero,per */,
                       0xAF5B0080u /* sw k1,0x80(k0): PTI_PER[0] */,
                       0x341B0001u /* ori k1,zero,1 */, 0xAF5B0280u /* sw k1,0x280(k0): MSK_PTI_EN[0] */,
                       MTC2(1, 0), MTC2(2, 1), NOP, MTC0(3, 12), MTC0(4, 14), NOP, ERET, NOP};
    if (!(opt & 16))
        for (int i = 0; i < 5; i++)
            stub[i] = NOP;
    for (unsigned i = 0; i < sizeof stub / 4; i++)
        wr32(BOOT_PA + 4 * i, stub[i]);
    static const uint32_t pat[4][8] = {
        {0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, DATA_VA, DATA_VA + 0x100, 0x14000000},
        {DATA_VA + 4, DATA_VA + 1, DATA_VA + 0x1FF8, 2, 3, 0xFFFF8000, CODE_VA, 31},
        {0x12345678, DATA_VA + 0x800, 0x1F000000, 0xDEADBEEF, 5, 0x8000, 0x10000, 0},
        {DATA_VA, DATA_VA, DATA_VA, DATA_VA, 0x7FFF, 0xFFFF, 4, 8},
    };
    const uint32_t *p = pat[(opt >> 2) & 3];
    for (int r = 5; r < 32; r++)
        temu_set_reg(E, r, p[r & 7] + (r >= 24 ? 0x40 : 0));
    temu_set_reg(E, 1, PT1_PA >> 13);
    temu_set_reg(E, 2, mmu ? 0xF : 0x3);
    /* KSU=user or kernel, EXL=1 for eret (+ IE and IM2 with the timer) */
    temu_set_reg(E, 3, (user ? 0x12 : 0x02) | ((opt & 16) ? 0x401 : 0));
    temu_set_reg(E, 4, CODE_VA);
    temu_set_reg(E, TEMU_REG_HI, 0x11111111);
    temu_set_reg(E, TEMU_REG_LO, 0x22222222);
    temu_cp0_write(E, 15, 1, VEC_PA); /* EBase */
    temu_cp0_write(E, 12, 0, 0);      /* Status: BEV=0, ERL=0 */
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
    static const int cp0[4] = {12, 13, 14, 8};
    for (int i = 0; i < 32; i++)
        s->r[i] = temu_get_reg(E, i);
    s->r[32] = temu_get_reg(E, TEMU_REG_HI);
    s->r[33] = temu_get_reg(E, TEMU_REG_LO);
    s->r[34] = temu_get_reg(E, TEMU_REG_PC);
    for (int i = 0; i < 4; i++)
        s->cp0[i] = temu_cp0_read(E, cp0[i], 0);
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
            if (st != TEMU_STOP_LIMIT && st != TEMU_STOP_EXIT && st != TEMU_STOP_HANG)
                abort(); /* no breakpoints and no host poll here */
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
