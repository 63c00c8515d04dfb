/*
 * t_select: data-dependent branches whose two sides are a few register
 * operations and meet again, the shapes the JIT if-converts (jit_*.c,
 * emit_branch_select): "b" over the other side with equal lengths, a skip
 * (one side empty), sides of different lengths, a side reading what the
 * other writes, a side writing the branch's sources and $0, more live
 * registers than the JIT caches.  The loop's result is checked against the
 * same computation in C, then the loop runs again under timer interrupts
 * whose periods walk over every position, with the interrupted PCs counted
 * per side.  The tier comparison (test_block_interp) holds the JIT's
 * output and instruction count to the interpreter's.
 */
#include "test.h"

#define X_PER(i) XICU_REG(XICU_PTI_PER, i)
#define X_ACK(i) XICU_REG(XICU_PTI_ACK, i)
#define X_PTI_EN(o) XICU_REG(XICU_MSK_PTI_ENABLE, o)
#define X_MSK_PTI(o) XICU_REG(XICU_MSK_PTI, o)

struct st {
    uint32_t x, a, s, t, u, v, w, y, c;
};

extern char sel_top[], sel_d1[], sel_d2[], sel_d3[], sel_d4[], sel_end[];
static volatile uint32_t nirq, in_side[5];

static void irq(exc_frame *f, uint32_t cause)
{
    (void)f;
    (void)cause;
    uint32_t epc = MFC0(14, 0);
    const char *marks[] = {sel_d1, sel_d2, sel_d3, sel_d4, sel_end};
    nirq++;
    for (int i = 0; i < 4; i++)
        if (epc >= (uint32_t)(uintptr_t)marks[i] && epc < (uint32_t)(uintptr_t)marks[i + 1])
            in_side[i]++;
    if (epc >= (uint32_t)(uintptr_t)sel_top && epc < (uint32_t)(uintptr_t)sel_end)
        in_side[4]++;
    (void)REG32(X_ACK(0));
}

/* noinline: the labels must be unique */
__attribute__((noinline)) static void sel_loop(struct st *p, uint32_t n)
{
    uint32_t x = p->x, a = p->a, s = p->s, t = p->t, u = p->u, v = p->v, w = p->w;
    uint32_t y = p->y, c = p->c, d = 0;
    __asm__ volatile(
        ".set push\n\t.set noreorder\n\t.set noat\n\t"
        ".globl sel_top, sel_d1, sel_d2, sel_d3, sel_d4, sel_end\n"
        "sel_top:\n\t"
        "sll   $1, %[x], 5\n\t" /* x = x * 33 + 0x3c5 */
        "addu  %[x], %[x], $1\n\t"
        "addiu %[x], %[x], 0x3c5\n\t"
        "andi  %[c], %[x], 0x100\n"
        /* d1: sides of 2 ("nop nop" / "b" + slot), the slot of the branch
         * shifts a */
        "sel_d1:\n\t"
        "beqz  %[c], 1f\n\t"
        "srl   %[a], %[a], 1\n\t"
        "b     2f\n\t"
        "xor   %[a], %[a], %[p]\n"
        "1:\n\t"
        "nop\n\t"
        "nop\n"
        "2:\n\t"
        "andi  %[c], %[x], 0x200\n"
        /* d2: a skip, sides of 0 and 2 */
        "sel_d2:\n\t"
        "bnez  %[c], 3f\n\t"
        "addu  %[s], %[s], %[a]\n\t"
        "addiu %[t], %[t], 7\n\t"
        "xor   %[u], %[u], %[t]\n"
        "3:\n"
        /* d3: sides of 3 and 4; the taken side reads v, which the other
         * writes, and writes $0 */
        "sel_d3:\n\t"
        "bltz  %[x], 4f\n\t"
        "nop\n\t"
        "addu  %[v], %[v], %[u]\n\t"
        "subu  %[c], %[v], %[s]\n\t"
        "b     5f\n\t"
        "sll   %[w], %[w], 1\n"
        "4:\n\t"
        "or    %[w], %[w], %[v]\n\t"
        "addu  $0, %[v], %[w]\n\t"
        "lui   %[y], 0x1234\n"
        "5:\n\t"
        "andi  %[c], %[a], 3\n\t"
        "andi  %[d], %[t], 3\n"
        /* d4: two-register compare; the side writes both sources */
        "sel_d4:\n\t"
        "bne   %[c], %[d], 6f\n\t"
        "nop\n\t"
        "addiu %[c], %[c], 1\n\t"
        "nor   %[d], %[d], %[c]\n\t"
        "addu  %[y], %[y], %[d]\n"
        "6:\n\t"
        "addiu %[n], %[n], -1\n\t"
        "bnez  %[n], sel_top\n\t"
        "nop\n"
        "sel_end:\n\t"
        ".set pop"
        : [x] "+r"(x), [a] "+r"(a), [s] "+r"(s), [t] "+r"(t), [u] "+r"(u), [v] "+r"(v),
          [w] "+r"(w), [y] "+r"(y), [c] "+r"(c), [d] "+r"(d), [n] "+r"(n)
        : [p] "r"(0xEDB88320u)
        : "$1");
    p->x = x, p->a = a, p->s = s, p->t = t, p->u = u, p->v = v, p->w = w, p->y = y;
    p->c = c ^ d;
}

/* The same computation in C. */
static void sel_model(struct st *p, uint32_t n)
{
    uint32_t x = p->x, a = p->a, s = p->s, t = p->t, u = p->u, v = p->v, w = p->w;
    uint32_t y = p->y, c = p->c, d = 0;
    while (n--) {
        x = x * 33 + 0x3c5;
        c = x & 0x100;
        a >>= 1;
        if (c)
            a ^= 0xEDB88320u;
        c = x & 0x200;
        s += a;
        if (!c) {
            t += 7;
            u ^= t;
        }
        if ((int32_t)x < 0) {
            w |= v;
            y = 0x12340000;
        } else {
            v += u;
            c = v - s;
            w <<= 1;
        }
        c = a & 3;
        d = t & 3;
        if (c == d) {
            c += 1;
            d = ~(d | c);
            y += d;
        }
    }
    p->x = x, p->a = a, p->s = s, p->t = t, p->u = u, p->v = v, p->w = w, p->y = y;
    p->c = c ^ d;
}

static uint32_t sum(const struct st *p)
{
    return p->x ^ (p->a * 3) ^ (p->s * 5) ^ (p->t * 7) ^ (p->u * 11) ^ (p->v * 13) ^
           (p->w * 17) ^ (p->y * 19) ^ (p->c * 23);
}

int main(void)
{
    struct st a = {1, 2, 3, 4, 5, 6, 7, 8, 9}, b = a;
    sel_loop(&a, 5000);
    sel_model(&b, 5000);
    for (int i = 0; i < 9; i++)
        CHECK_EQ(1 + i, ((uint32_t *)&a)[i], ((uint32_t *)&b)[i]);

    /* periods that walk over every position of the 32-word loop; the
     * handler needs about 150 instructions */
    irq_hook = irq;
    REG32(X_PTI_EN(0)) = 1;
    for (uint32_t per = 301; per <= 341; per++) {
        REG32(X_PER(0)) = per;
        MTC0(12, 0, 0x0401);
        sel_loop(&a, 400);
        MTC0(12, 0, 0);
        REG32(X_PER(0)) = 0;
        sel_model(&b, 400);
    }
    REG32(X_MSK_PTI(0)) = 0;
    CHECK_EQ(20, sum(&a), sum(&b));
    for (int i = 0; i < 4; i++)
        CHECK(21 + i, in_side[i] > 10);
    puts_("select checksum ");
    puthex(sum(&a));
    puts_(" irqs ");
    putdec(nirq);
    puts_(" in loop ");
    putdec(in_side[4]);
    puts_(" d1 ");
    putdec(in_side[0]);
    puts_(" d2 ");
    putdec(in_side[1]);
    puts_(" d3 ");
    putdec(in_side[2]);
    puts_(" d4 ");
    putdec(in_side[3]);
    putch('\n');
    return 0;
}
