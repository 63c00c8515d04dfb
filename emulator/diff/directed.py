"""Hand-written directed sequences, one or more per instruction class.

Each sequence is built with a tiny builder: b("addu", 3, 4, 5) appends an
instruction; b.li(r, value) loads a constant (lui+ori); b.label("x") names
the next instruction; branch targets are label names; b.la(r, "x") loads the
absolute address of a label (resolved once the sequence is placed).
Edge values are chosen per class: sign boundaries, shift counts 0/31/32,
every byte alignment for partial loads/stores, INT_MIN/-1 division, taken and
not-taken branches with nullified (trapping) likely-delay slots, link values.
"""

import random

import gen
import mipsmodel as M

E = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFFFFFF, 0xFFFFFFFE,
     0x7FFE, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0xFFFF8000, 0x12345678, 0x89ABCDEF]
# registers holding E[i] in sequences that use b.edges(): $2..$17
ER = list(range(2, 2 + len(E)))
FREE = [18, 19, 20, 21, 22, 23, 24, 25, 28, 29, 30, 31]


class B:
    def __init__(self, name, regs=None, hi=0x11111111, lo=0x22222222, mem=None):
        rng = random.Random(name)
        init = [rng.getrandbits(32) for _ in range(32)]
        for r, v in (regs or {}).items():
            init[r] = v
        if mem is None:
            mem = bytes(((i * 37) + 0x81) & 0xFF for i in range(gen.DATA_BYTES))
        self.seq = gen.Seq("dir-" + name, init, hi, lo, mem)
        self.labels = {}
        self.seq.resolve = self._resolve

    def __call__(self, *ins):
        self.seq.body.append(tuple(ins))
        return self

    def li(self, r, v):
        v &= M.M32
        self("lui", r, v >> 16)
        self("ori", r, r, v & 0xFFFF)

    def label(self, name):
        self.labels[name] = len(self.seq.body)

    def la(self, r, name):
        self("lui", r, ("hi", name))
        self("ori", r, r, ("lo", name))

    def da(self, r, off):
        """r = absolute address of data byte k1+off (resolved at placement)."""
        self("lui", r, ("dhi", off))
        self("ori", r, r, ("dlo", off))

    def edges(self):
        for r, v in zip(ER, E):
            self.seq.regs[r] = v
        return self

    def _resolve(self, seq):
        body = []
        for ins in seq.body:
            out = []
            for x in ins:
                if isinstance(x, tuple):
                    if x[0] in ("dhi", "dlo"):
                        a = (seq.regs[gen.K1] + x[1]) & M.M32
                    else:
                        a = seq.body_addr + 4 * self.labels[x[1]]
                    x = a >> 16 if x[0] in ("hi", "dhi") else a & 0xFFFF
                elif isinstance(x, str) and x in self.labels and x != ins[0]:
                    x = self.labels[x]
                out.append(x)
            body.append(tuple(out))
        seq.body = body
        seq.resolve = None


def alu():
    seqs = []
    for ops in (["addu", "subu", "and", "or", "xor", "nor", "slt", "sltu"],
                ["sllv", "srlv", "srav", "rotrv"]):
        b = B("alu-" + ops[0]).edges()
        d = FREE[0]
        for mn in ops:
            for i, ra in enumerate(ER):
                for rb in ER[i:i + 5]:
                    b(mn, d, ra, rb)
                    b("sw", d, -32 + (len(b.seq.body) * 4) % 64)
                    d = FREE[(FREE.index(d) + 1) % 8]
        seqs.append(b.seq)
    # add/sub/addi without overflow but at the limit
    b = B("add-edge")
    for a, c in [(0x7FFFFFFE, 1), (0x80000001, 0xFFFFFFFF), (0x7FFFFFFF, 0),
                 (0xFFFFFFFF, 0xFFFFFFFF), (0x80000000, 0x7FFFFFFF), (5, 0xFFFFFFFB)]:
        b.li(2, a)
        b.li(3, c)
        b("add", 4, 2, 3)
        b("addu", 5, 2, 3)
        b("sw", 4, 0)
    for a, c in [(0x80000000, 0x80000000), (0x7FFFFFFF, 0x7FFFFFFF), (0, 0x7FFFFFFF),
                 (0xFFFFFFFF, 0x7FFFFFFF), (0x80000001, 1), (3, 5)]:
        b.li(6, a)
        b.li(7, c)
        b("sub", 8, 6, 7)
        b("subu", 9, 6, 7)
        b("sw", 8, 4)
    b.li(10, 0x7FFF8000)
    b("addi", 11, 10, 0x7FFF)
    b.li(12, 0x80008000)
    b("addi", 13, 12, -0x8000)
    b("addiu", 14, 11, 0x7FFF)        # wraps without trapping
    b("addiu", 15, 13, -0x8000)
    b("addu", 0, 14, 15)              # writes to $0 are dropped
    b("lui", 0, 0x1234)
    seqs.append(b.seq)
    # immediates: sign vs zero extension
    b = B("imm").edges()
    d = 18
    for mn in ("addiu", "slti", "sltiu", "andi", "ori", "xori"):
        for r in ER[::2]:
            for imm in (0, 1, 0x7FFF, 0x8000, 0xFFFF):
                if mn in ("addiu", "slti", "sltiu") and imm > 0x7FFF:
                    imm -= 0x10000
                b(mn, d, r, imm)
                d = 18 + (d - 17) % 8
    for imm in (0, 1, 0x7FFF, 0x8000, 0xFFFF):
        b("lui", 26 - 1, imm)
    seqs.append(b.seq)
    return seqs


def shifts():
    b = B("shift").edges()
    d = 18
    for mn in ("sll", "srl", "sra", "rotr"):
        for r in ER:
            for sa in (0, 1, 4, 16, 31):
                b(mn, d, r, sa)
                d = 18 + (d - 17) % 8
            b("sw", d, (d - 18) * 4)
    b2 = B("shiftv").edges()
    for i, sa in enumerate([0, 1, 31, 32, 33, 63, 0xFFFFFFFF, 0x80000010]):
        b2.seq.regs[18 + i] = sa
    for mn in ("sllv", "srlv", "srav", "rotrv"):
        for r in ER[::3]:
            for s in range(18, 26):
                b2(mn, 28, r, s)
                b2("xor", 29, 29, 28)
                b2("rotr", 29, 29, 7)
    return [b.seq, b2.seq]


def hilo():
    seqs = []
    b = B("muldiv").edges()
    pairs = [(0x80000000, 0x80000000), (0xFFFFFFFF, 0xFFFFFFFF), (0x7FFFFFFF, 0x7FFFFFFF),
             (0x80000000, 0xFFFFFFFF), (0x12345678, 0x89ABCDEF), (0, 0xFFFFFFFF),
             (0xFFFF, 0x10000), (7, 0xFFFFFFFE)]
    for a, c in pairs:
        b.li(2, a)
        b.li(3, c)
        for mn in ("mult", "multu"):
            b(mn, 2, 3)
            b("mfhi", 4)
            b("mflo", 5)
            b("xor", 6, 6, 4)
            b("addu", 6, 6, 5)
            b("rotr", 6, 6, 3)
    divs = [(0xFFFFFFF9, 2), (7, 0xFFFFFFFE), (0xFFFFFFF9, 0xFFFFFFFE), (0x80000000, 0xFFFFFFFF),
            (0xFFFFFFFF, 1), (0x80000000, 1), (0, 5), (5, 7), (0x7FFFFFFF, 0x80000000),
            (0x80000000, 0x80000000), (0xFFFFFFFF, 0xFFFFFFFF), (100, 0xFFFFFFFF)]
    for a, c in divs:
        b.li(2, a)
        b.li(3, c)
        for mn in ("div", "divu"):
            b(mn, 2, 3)
            b("mfhi", 4)
            b("mflo", 5)
            b("xor", 7, 7, 4)
            b("addu", 7, 7, 5)
            b("rotr", 7, 7, 5)
    seqs.append(b.seq)
    b = B("madd", hi=0x7FFFFFFF, lo=0xFFFFFFFF)
    for a, c in pairs:
        b.li(2, a)
        b.li(3, c)
        for mn in ("madd", "maddu", "msub", "msubu"):
            b(mn, 2, 3)
            b("mfhi", 4)
            b("mflo", 5)
            b("xor", 6, 6, 4)
            b("addu", 6, 6, 5)
            b("rotr", 6, 6, 9)
    b.li(2, 0x13579BDF)
    b("mthi", 2)
    b("mtlo", 0)
    b("maddu", 2, 2)
    b("mflo", 9)
    b("mthi", 0)
    b("mfhi", 8)
    b("mfhi", 0)
    seqs.append(b.seq)
    b = B("mul").edges()
    for r in ER:
        for r2 in ER[::3]:
            b("mul", 18, r, r2)
            b("xor", 19, 19, 18)
            b("rotr", 19, 19, 1)
    b("mthi", 19)
    b("mtlo", 18)
    seqs.append(b.seq)
    return seqs


def misc_r2():
    b = B("r2").edges()
    d = 18
    for r in ER:
        for mn in ("seb", "seh", "wsbh", "clz", "clo"):
            b(mn, d, r)
            b("xor", 28, 28, d)
            b("rotr", 28, 28, 3)
        for pos, size in ((0, 32), (0, 1), (31, 1), (4, 8), (16, 16), (1, 31), (7, 13)):
            b("ext", d, r, pos, size)
            b("xor", 28, 28, d)
            b("or", 29, r, 0)
            b("ins", 29, 30, pos, size)
            b("xor", 28, 28, 29)
            b("rotr", 28, 28, 5)
    for mn in ("movn", "movz"):
        for c in (0, 1, 0x80000000):
            b.li(20, c)
            b.li(21, 0xAAAA5555)
            b(mn, 21, 2 + (c & 7), 20)
            b(mn, 22, 22, 20)
            b(mn, 0, 3, 20)
            b("xor", 28, 28, 21)
    return [b.seq]


def memory():
    seqs = []
    b = B("loads")
    d = 2
    for mn, al in (("lb", 1), ("lbu", 1), ("lh", 2), ("lhu", 2), ("lw", 4)):
        for off in range(-32, 32, al * (1 if al > 1 else 5)):
            b(mn, d, off)
            d = 2 + (d - 1) % 23
    for mn in ("lwl", "lwr"):
        for off in range(-8, 8):
            b.li(d, 0x01234567 + off)
            b(mn, d, off)
            d = 2 + (d - 1) % 23
    b.li(24, 0xDEADBEEF)
    b("lwr", 24, 5)
    b("lwl", 24, 8)                   # unaligned word at +5
    b("lw", 0, 0)
    seqs.append(b.seq)
    b = B("stores", regs={2: 0x8899AABB, 3: 0x01020304, 4: 0xFFFFFFFF, 5: 0x7F807F80})
    for i, (mn, al) in enumerate((("sb", 1), ("sh", 2), ("sw", 4))):
        for off in range(-32 + 8 * i, -32 + 8 * i + 8, al):
            b(mn, 2 + (off & 3), off)
    for mn, base in (("swl", 0), ("swr", 16)):
        for k in range(4):
            b(mn, 2 + k, base + 4 * k + k)
    b("swr", 5, -3)
    b("swl", 5, 0)                    # unaligned word store at -3
    b("sw", 0, 28)
    b("lw", 6, 28)
    seqs.append(b.seq)
    b = B("llsc", regs={9: 0x55AA55AA})
    for off in (-32, -4, 0, 24):
        b("ll", 2, off)
        b("addiu", 2, 2, 1)
        b("sc", 2, off)
        b("lw", 3, off)
        b("addu", 4, 4, 2)
        b("ll", 5, off)
        b("or", 6, 9, 0)
        b("sc", 6, off)
    seqs.append(b.seq)
    return seqs


def branches():
    seqs = []
    b = B("branch").edges()
    vals = [0, 1, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF]
    n = 0
    for mn in gen.COND1 + gen.COND2:
        for v in vals:
            lab = "b%d" % n
            n += 1
            b.li(20, v)
            if mn in gen.COND2:
                b(mn, 20, 21 if n % 2 else 20, lab)
            else:
                b(mn, 20, lab)
            st = M.State([0] * 32, 0, 0, 0, b"")
            st.r[20], st.r[21] = v, b.seq.regs[21]
            taken = M.branch_taken(st, b.seq.body[-1])
            if mn in M.LIKELY:
                # runs only if taken; a trap would show a nullification bug
                b("addiu", 22, 22, 1) if taken else b("teq", 0, 0)
            else:
                b("addiu", 23, 23, 1)
            b("teq", 0, 0) if taken else b("addiu", 24, 24, 1)
            b("teq", 0, 0) if taken else b("addiu", 24, 24, 3)
            b.label(lab)
            b("xor", 25, 25, 31)
            b("rotr", 25, 25, 1)
    # branch whose delay slot changes the compared register; branch to +2
    b("beq", 0, 0, "x1")
    b("addiu", 28, 0, 7)
    b.label("x1")
    b("bne", 28, 0, "x2")
    b("addiu", 28, 28, -7)
    b("teq", 0, 0)
    b.label("x2")
    b("beq", 28, 0, "x3")
    b("nop")
    b.label("x3")
    seqs.append(b.seq)
    b = B("jumps")
    b("jal", "j1")
    b("or", 2, 31, 0)
    b("teq", 0, 0)
    b.label("j1")
    b("or", 3, 31, 0)
    b.la(4, "j2")
    b("jalr", 5, 4)
    b("addiu", 6, 0, 1)
    b("teq", 0, 0)
    b.label("j2")
    b.la(7, "j3")
    b("jr", 7)
    b("addiu", 7, 0, 3)               # delay slot overwrites the jump register
    b("teq", 0, 0)
    b.label("j3")
    b("j", "j4")
    b("addiu", 8, 0, 4)
    b("teq", 0, 0)
    b.label("j4")
    b("bgezal", 0, "j5")             # bal
    b("nop")
    b.label("j5")
    b("or", 9, 31, 0)
    b("bltzal", 0, "j6")             # not taken, still links
    b("nop")
    b.label("j6")
    b("or", 10, 31, 0)
    b("bltzall", 0, "j7")            # not taken: slot nullified, links
    b("teq", 0, 0)
    b.label("j7")
    b("or", 11, 31, 0)
    b.la(12, "j8")
    b("jalr", 0, 12)                 # link into $0 is dropped
    b("nop")
    b.label("j8")
    # counted backward loop with a non-trivial delay slot
    b("ori", 13, 0, 5)
    b.label("loop")
    b("addiu", 14, 14, 3)
    b("addiu", 13, 13, -1)
    b("bne", 13, 0, "loop")
    b("sll", 15, 14, 1)
    b("beql", 0, 0, "j9")            # likely taken: slot executes
    b("addiu", 16, 0, 9)
    b.label("j9")
    seqs.append(b.seq)
    return seqs


def _addiu(rt, rs, imm):
    return 0x24000000 | rs << 21 | rt << 16 | (imm & 0xFFFF)


def _jr(rs):
    return rs << 21 | 0x08


def smc():
    """Self-modifying code: instructions stored into the (executable) data
    region are called, overwritten and called again; the emulator's decoded
    code must follow every store.  The model cannot run this one."""
    b = B("smc", regs={3: 0, 5: 0x100})
    b.da(4, -32)                           # $4 = code address in the data region
    for k, imm in enumerate([5, 7, -3, 0x7FFF, 1, 2]):
        b.li(2, _addiu(3, 3, imm))
        b("sw", 2, -32)
        b.li(2, _jr(31))
        b("sw", 2, -28)
        b("sw", 0, -24)                    # nop in the delay slot
        b("jalr", 31, 4)
        b("nop")
        b("addu", 6, 6, 3)
        b("rotr", 6, 6, 3)
    # patch only one byte of an instruction: addiu $3,$3,0x1234 -> 0x12ff
    b.li(2, _addiu(3, 3, 0x1234))
    b("sw", 2, -32)
    b("jalr", 31, 4)
    b("nop")
    b.li(2, 0xFF)
    b("sb", 2, -32)
    b("jalr", 31, 4)
    b("nop")
    # a 4-instruction routine whose second instruction changes between calls
    b.li(2, _addiu(5, 5, 1))
    b("sw", 2, -20)
    b.li(2, _addiu(5, 5, 16))
    b("sw", 2, -16)
    b.li(2, _jr(31))
    b("sw", 2, -12)
    b("sw", 0, -8)
    b.da(7, -20)
    b("jalr", 31, 7)
    b("nop")
    b.li(2, _addiu(5, 5, -2))
    b("sh", 2, -16)                        # only the immediate half changes
    b("jalr", 31, 7)
    b("nop")
    # (no code rewriting the instruction it is about to run: QEMU has no
    # precise SMC for MIPS and runs the stale word; see FINDINGS.md N3)
    # a store in a delay slot rewriting the instruction at the jump target
    #   D0: jr $31 / D1: sw $2,-20($27) (delay slot) ... D3 (-20) is
    #   executed later through a second call
    b.li(9, _jr(31))
    b("sw", 9, -32)
    b.li(9, 0xAF62FFEC)                    # sw $2,-20($27)
    b("sw", 9, -28)
    b.li(9, _addiu(11, 11, 1))
    b("sw", 9, -24)                        # D2: addiu $11,$11,1
    b("sw", 9, -20)                        # D3: addiu $11,$11,1 (to be patched)
    b.li(9, _jr(31))
    b("sw", 9, -16)
    b("sw", 0, -12)
    b.li(2, _addiu(11, 11, 50))
    b("jalr", 31, 4)                       # runs D0 (jr) + D1 (store into D3)
    b("nop")
    b.da(12, -24)
    b("jalr", 31, 12)                      # runs D2, D3 (patched), D4 jr, D5
    b("nop")
    b("addiu", 31, 0, 0)                   # link values are identical anyway
    b.seq.no_model = True
    return [b.seq]


def all_sequences():
    seqs = []
    for f in (alu, shifts, hilo, misc_r2, memory, branches, smc):
        seqs += f()
    return seqs
