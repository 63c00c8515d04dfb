"""Differential-test program generator (random + directed MIPS32 sequences).

A *batch* is one assembly file holding many *sequences*.  Each sequence is

    prologue  (39 insns: load r1..r25, r28..r31, HI, LO from its init record,
               then k1 = &data+32, k0 = &state record)
    body      (the instructions under test; never writes k0/k1)
    epilogue  (35 insns: store r1..r31, HI, LO into its state record)

and falls through into the next one; the last jumps to `harness_done` in the
platform's crt.  Everything sits at fixed addresses (see the constants below,
mirrored in harness/link.ld) so link values and jr targets are identical on
every platform, and the generator knows every address.  A model of the ISA
(mipsmodel.py) is run while generating, so random code never traps and never
reads an UNPREDICTABLE value, and it predicts the final state.

State record (REC_WORDS words): r1..r31, HI, LO, then DATA_BYTES of data that
the body loads from and stores to through k1 ($27) with offsets -32..31.
"""

import random

import mipsmodel as M

CRT_DATA = 0x00200000              # crt data and page tables (tsar)
CRT_TEXT = 0x00400000              # crt code, exception vector (EBase)
SEQ_TEXT = 0x00420000
INIT_BASE = 0x01000000
STATE_BASE = 0x01800000
DATA_BYTES = 64
REG_WORDS = 33                      # r1..r31, hi, lo
EXC_MAX = 4                         # exception log entries per sequence
EXC_WORDS = 1 + 2 * EXC_MAX         # count, then (class, EPC) pairs
REC_WORDS = REG_WORDS + DATA_BYTES // 4 + EXC_WORDS
REC_BYTES = 4 * REC_WORDS
INIT_BYTES = 4 * REG_WORDS
DATA_OFF = 4 * REG_WORDS
K1_OFF = DATA_OFF + DATA_BYTES // 2
EXC_OFF = DATA_OFF + DATA_BYTES     # written by the platforms' exception handlers
PROLOGUE = 39
EPILOGUE = 35
K0, K1 = 26, 27
DESTS = [r for r in range(1, 32) if r not in (K0, K1)]
FIELD_NAMES = ["r%d" % r for r in range(1, 32)] + ["hi", "lo"] + \
    ["data+0x%02x" % (4 * i) for i in range(DATA_BYTES // 4)] + ["exc.count"] + \
    [n for i in range(EXC_MAX) for n in ("exc%d.class" % i, "exc%d.epc" % i)]


class Seq:
    """One sequence: initial state, body, and its place in the batch."""

    def __init__(self, name, regs, hi, lo, mem, body=None):
        self.name = name
        self.regs = [v & M.M32 for v in regs]
        self.regs[0] = 0
        self.hi, self.lo = hi & M.M32, lo & M.M32
        self.mem = bytes(mem)
        self.body = body or []
        self.no_model = False   # True: the model cannot run it (e.g. code in data)
        self.index = None
        self.code_addr = self.init_addr = self.state_addr = None

    @property
    def body_addr(self):
        return self.code_addr + 4 * PROLOGUE

    def place(self, index, code_addr):
        self.index = index
        self.code_addr = code_addr
        self.init_addr = INIT_BASE + index * INIT_BYTES
        self.state_addr = STATE_BASE + index * REC_BYTES
        regs = list(self.regs)
        regs[K0] = self.state_addr
        regs[K1] = self.state_addr + K1_OFF
        self.regs = regs
        if getattr(self, "resolve", None):
            self.resolve(self)
        return code_addr + 4 * (PROLOGUE + len(self.body) + EPILOGUE)

    def initial_state(self):
        return M.State(self.regs, self.hi, self.lo,
                       self.state_addr + DATA_OFF, self.mem)

    def expected(self):
        """Final dump words predicted by the model."""
        st = self.initial_state()
        log = []
        M.run(self.body, st, self.body_addr, exc_log=log)
        if not (st.hi_ok and st.lo_ok):
            raise M.Unpredictable("HI/LO unpredictable at the end of " + self.name)
        words = st.r[1:32] + [st.hi, st.lo]
        words += [int.from_bytes(st.mem[i:i + 4], "little")
                  for i in range(0, DATA_BYTES, 4)]
        return words + exc_words(log)


def exc_words(log):
    w = [len(log)]
    for i in range(EXC_MAX):
        w += list(log[i]) if i < len(log) else [0, 0]
    return w


# --- random values -------------------------------------------------------------

SPECIAL = [0, 1, 2, 0xFFFFFFFF, 0xFFFFFFFE, 0x7FFFFFFF, 0x80000000, 0x80000001,
           0x7FFFFFFE, 0xFFFF, 0x8000, 0x7FFF, 0xFFFF8000, 0xFFFF7FFF, 0x10000,
           0xFF, 0x80, 0x7F, 0xFFFFFF80, 0x55555555, 0xAAAAAAAA, 31, 32, 33]


def rand_word(rng):
    c = rng.random()
    if c < 0.25:
        return rng.choice(SPECIAL)
    if c < 0.45:
        return rng.randint(-40, 40) & M.M32
    if c < 0.55:
        return rng.getrandbits(16)
    return rng.getrandbits(32)


def rand_imm(rng, signed):
    c = rng.random()
    if c < 0.3:
        v = rng.randint(-16, 16)
    elif c < 0.5:
        v = rng.choice([0, 1, -1, 0x7FFF, -0x8000, 0x7FFE, -0x7FFF, 31, 32])
    else:
        v = rng.randint(-0x8000, 0x7FFF)
    return v if signed else v & 0xFFFF


# --- instruction classes ---------------------------------------------------------

ALU3 = ["addu", "subu", "and", "or", "xor", "nor", "slt", "sltu", "movn", "movz",
        "add", "sub"]
SHV = ["sllv", "srlv", "srav", "rotrv"]
SH = ["sll", "srl", "sra", "rotr"]
IMM = ["addiu", "addi", "slti", "sltiu"]
UIMM = ["andi", "ori", "xori"]
R2 = ["seb", "seh", "wsbh"]
CL = ["clz", "clo"]
MD = ["mult", "multu", "div", "divu", "madd", "maddu", "msub", "msubu"]
LOADS = [("lb", 1), ("lbu", 1), ("lh", 2), ("lhu", 2), ("lw", 4), ("lwl", 1),
         ("lwr", 1)]
STORES = [("sb", 1), ("sh", 2), ("sw", 4), ("swl", 1), ("swr", 1)]
COND2 = ["beq", "bne", "beql", "bnel"]
COND1 = ["blez", "bgtz", "bltz", "bgez", "blezl", "bgtzl", "bltzl", "bgezl",
         "bltzal", "bgezal", "bltzall", "bgezall"]

# classes that are safe inside a loop body (cannot trap, keep HI/LO validity)
LOOP_SAFE = ("alu3s", "shv", "sh", "immu", "uimm", "lui", "r2", "cl", "bits",
             "mdsafe", "mf", "load", "store")   # a tuple: order must not depend on hashing

WEIGHTS = [("alu3", 14), ("shv", 4), ("sh", 5), ("imm", 7), ("uimm", 4), ("lui", 2),
           ("r2", 3), ("cl", 2), ("bits", 3), ("md", 6), ("mf", 3), ("mt", 1),
           ("mul", 1), ("load", 9), ("store", 7), ("llsc", 1), ("cond", 6),
           ("jump", 2), ("loop", 0.6), ("trapnt", 1), ("sync", 0.2)]


def operands_of(ins):
    """All register operands (read or written) of a non-branch instruction."""
    mn = ins[0]
    k = M.OPS[mn][0]
    if k in ("r3", "shv"):
        return set(ins[1:4])
    if k in ("sh", "imm", "uimm", "r2", "cl", "md", "trap"):
        return set(ins[1:3])
    if k == "bits":
        return set(ins[1:3])
    if k in ("lui", "mf", "mt"):
        return {ins[1]}
    if k in ("ld", "st"):
        return {ins[1], M.BASE}
    return set()


def dest_of(ins):
    mn = ins[0]
    k = M.OPS[mn][0]
    if k in ("r3", "shv", "sh", "imm", "uimm", "r2", "cl", "bits", "lui", "mf", "ld"):
        return ins[1]
    if mn == "sc":
        return ins[1]
    return None


class Gen:
    def __init__(self, rng, exc=0.0):
        self.rng = rng
        self.exc = exc          # probability of a deliberately trapping instruction
        self.exc_log = []
        names, w = zip(*WEIGHTS)
        self.names, self.cum = names, []
        t = 0
        for x in w:
            t += x
            self.cum.append(t)
        self.total = t

    def pick_class(self):
        x = self.rng.random() * self.total
        for n, c in zip(self.names, self.cum):
            if x < c:
                return n
        return self.names[-1]

    def dest(self, avoid=()):
        rng = self.rng
        while True:
            d = 0 if rng.random() < 0.03 else rng.choice(DESTS)
            if d not in avoid:
                return d

    def src(self):
        return self.rng.randrange(32)

    def simple(self, cls, avoid=()):
        """A random non-control-flow instruction of class cls (not checked)."""
        rng = self.rng
        if cls in ("alu3", "alu3s"):
            ops = ALU3 if cls == "alu3" else ALU3[:10]
            return (rng.choice(ops), self.dest(avoid), self.src(), self.src())
        if cls == "shv":
            return (rng.choice(SHV), self.dest(avoid), self.src(), self.src())
        if cls == "sh":
            sa = rng.choice([0, 1, 31, rng.randrange(32), rng.randrange(32)])
            return (rng.choice(SH), self.dest(avoid), self.src(), sa)
        if cls in ("imm", "immu"):
            mn = rng.choice(IMM if cls == "imm" else ["addiu", "slti", "sltiu"])
            return (mn, self.dest(avoid), self.src(), rand_imm(rng, True))
        if cls == "uimm":
            return (rng.choice(UIMM), self.dest(avoid), self.src(), rand_imm(rng, False))
        if cls == "lui":
            return ("lui", self.dest(avoid), rand_imm(rng, False))
        if cls == "r2":
            return (rng.choice(R2), self.dest(avoid), self.src())
        if cls == "cl":
            return (rng.choice(CL), self.dest(avoid), self.src())
        if cls == "bits":
            pos = rng.randrange(32)
            size = rng.randint(1, 32 - pos)
            return (rng.choice(["ext", "ins"]), self.dest(avoid), self.src(), pos, size)
        if cls in ("md", "mdsafe"):
            ops = MD if cls == "md" else ["mult", "multu", "madd", "maddu", "msub", "msubu"]
            return (rng.choice(ops), self.src(), self.src())
        if cls == "mf":
            return (rng.choice(["mfhi", "mflo"]), self.dest(avoid))
        if cls == "mt":
            return (rng.choice(["mthi", "mtlo"]), self.src())
        if cls == "trapnt":   # conditional trap, kept only when not taken
            return (rng.choice(["teq", "tne", "tge", "tgeu", "tlt", "tltu"]),
                    self.src(), self.src())
        if cls == "sync":
            return (rng.choice(["sync", "ehb"]),)
        if cls == "mul":
            return ("mul", self.dest(avoid), self.src(), self.src())
        if cls == "load":
            mn, al = rng.choice(LOADS)
            return (mn, self.dest(avoid), rng.randrange(-32 // al, 32 // al) * al)
        if cls == "store":
            mn, al = rng.choice(STORES)
            return (mn, self.src(), rng.randrange(-32 // al, 32 // al) * al)
        raise AssertionError(cls)

    def safe(self, st, cls, avoid=(), avoid_any=(), tries=40):
        """Pick an instruction of class cls, execute it on st and return it."""
        for _ in range(tries):
            ins = self.simple(cls, avoid)
            if avoid_any and operands_of(ins) & set(avoid_any):
                continue
            snap = (list(st.r), st.hi, st.lo, st.hi_ok, st.lo_ok, st.pending,
                    bytes(st.mem), st.ll_addr)
            try:
                M.execute(st, ins)
                return ins
            except (M.Trap, M.Unpredictable):
                (st.r, st.hi, st.lo, st.hi_ok, st.lo_ok, st.pending, mem,
                 st.ll_addr) = snap
                st.mem = bytearray(mem)
        ins = ("addu", self.dest(avoid), self.src(), self.src())
        if avoid_any and operands_of(ins) & set(avoid_any):
            ins = ("nop",)
        M.execute(st, ins)
        return ins

    def trapping(self, st, addr):
        """An instruction that raises Ov, Tr/Bp or AdE at this point (logged
        and skipped by the platforms' handlers), or None."""
        rng = self.rng
        kind = rng.choice(["ov", "ov", "ovi", "tr", "tr", "bp", "ade", "ade"])
        for _ in range(40):
            if kind == "ov":
                ins = (rng.choice(["add", "sub"]), self.dest(), self.src(), self.src())
            elif kind == "ovi":
                ins = ("addi", self.dest(), self.src(), rand_imm(rng, True))
            elif kind == "tr":
                a = self.src()
                ins = (rng.choice(["teq", "tge", "tgeu", "tne", "tlt", "tltu"]), a,
                       a if rng.random() < 0.3 else self.src())
            elif kind == "bp":
                ins = ("break",)
            else:
                # (no unaligned sc: qemu-mipsel 7.2 fails it with rt = 0 and
                # raises no AdES, so QEMU is no oracle there; see FINDINGS.md)
                mn, al = rng.choice([("lh", 2), ("lhu", 2), ("lw", 4), ("sh", 2),
                                     ("sw", 4), ("ll", 4)])
                off = rng.randrange(-32 // al, 32 // al) * al + rng.randrange(1, al)
                ins = (mn, self.dest() if mn[0] == "l" else self.src(), off)
            snap = (list(st.r), st.hi, st.lo, st.hi_ok, st.lo_ok, st.pending,
                    bytes(st.mem), st.ll_addr)
            try:
                M.execute(st, ins)
            except M.Trap as e:
                if e.kind in M.EXC_CLASS:
                    self.exc_log.append((M.EXC_CLASS[e.kind], addr))
                    return ins
                raise
            except M.Unpredictable:
                pass
            (st.r, st.hi, st.lo, st.hi_ok, st.lo_ok, st.pending, mem, st.ll_addr) = snap
            st.mem = bytearray(mem)
        return None

    def filler(self):
        """An instruction that must NOT execute (skipped or nullified)."""
        rng = self.rng
        if rng.random() < 0.15:
            return ("teq", 0, 0)          # would trap if executed
        cls = rng.choice(["alu3", "sh", "imm", "uimm", "lui", "r2", "bits", "mt",
                          "load", "store"])
        return self.simple(cls)

    def body(self, st, n, base):
        rng = self.rng
        body = []
        want_len = 0          # furthest forward-branch target seen

        def emit(ins):
            body.append(ins)

        def slot_class():
            return rng.choice(["alu3", "sh", "imm", "uimm", "lui", "r2", "cl", "bits",
                               "load", "store", "md", "mf"])

        self.exc_log = []
        while len(body) < n:
            if self.exc and len(self.exc_log) < EXC_MAX and rng.random() < self.exc:
                ins = self.trapping(st, base + 4 * len(body))
                if ins:
                    emit(ins)
                    continue
            cls = self.pick_class()
            if ((base + 4 * len(body)) & 0xFFF) == 0xFFC and rng.random() < 0.7:
                cls = "cond"      # delay slot in the next page
            if cls in ("cond", "jump"):
                k = rng.choice([0, 0, 1, 2, 3, 5, 8])
                here = len(body)
                if cls == "cond":
                    mn = rng.choice(COND2 + COND1)
                    if mn in COND2:
                        b = 0 if rng.random() < 0.3 else self.src()
                        a = self.src() if rng.random() < 0.9 else b
                        ins = (mn, a, b, here + 2 + k)
                    else:
                        a = self.src()
                        if mn in M.LINK31 and a == 31:
                            a = 0
                        ins = (mn, a, here + 2 + k)
                    link = 31 if mn in M.LINK31 else None
                else:
                    mn = rng.choice(["j", "jal", "jr", "jalr", "bal"])
                    link = None
                    if mn in ("jr", "jalr"):
                        r = rng.choice(DESTS)
                        here = len(body) + 2          # after lui/ori
                        tgt = base + 4 * (here + 2 + k)
                        for ins in (("lui", r, tgt >> 16), ("ori", r, r, tgt & 0xFFFF)):
                            M.execute(st, ins)
                            emit(ins)
                        if mn == "jr":
                            ins = ("jr", r)
                        else:
                            link = rng.choice([d for d in DESTS if d != r] + [0])
                            ins = ("jalr", link, r)
                    elif mn == "bal":
                        ins = ("bgezal", 0, here + 2 + k)
                        link = 31
                    else:
                        ins = (mn, here + 2 + k)
                        link = 31 if mn == "jal" else None
                taken = M.branch_taken(st, ins)
                emit(ins)
                if link:
                    st.setr(link, base + 4 * here + 8)
                if taken or ins[0] not in M.LIKELY:
                    avoid = (link,) if link else ()
                    slot = None
                    # (QEMU translates statically never-taken branches --
                    # bne $x,$x, bltz/bgtz $0 -- as nops, so their slot
                    # reports EPC = slot, BD = 0: FINDINGS.md N4)
                    static_nt = (ins[0] in ("bne", "bnel") and ins[1] == ins[2]) or \
                        (ins[0] in ("bltz", "bgtz", "bltzl", "bgtzl") and ins[1] == 0)
                    if self.exc and not link and not static_nt and \
                            len(self.exc_log) < EXC_MAX and rng.random() < 3 * self.exc:
                        # a trapping delay slot: EPC = branch, resume after the slot
                        slot = self.trapping(st, base + 4 * here)
                        if slot:
                            taken = False
                    emit(slot or self.safe(st, slot_class(), avoid=avoid, avoid_any=avoid))
                else:
                    emit(self.filler())
                if taken:
                    for _ in range(k):
                        emit(self.filler())
                else:
                    want_len = max(want_len, here + 2 + k)
                continue
            if cls == "llsc":
                off = rng.randrange(-8, 8) * 4
                ins = ("ll", self.dest(), off)
                M.execute(st, ins)
                emit(ins)
                for _ in range(rng.randint(0, 3)):
                    emit(self.safe(st, rng.choice(["alu3", "sh", "uimm", "r2"])))
                ins = ("sc", self.dest(), off)
                M.execute(st, ins)
                emit(ins)
                continue
            if cls == "loop":
                rc = rng.choice(DESTS)
                iters = rng.randint(1, 4)
                ins = ("ori", rc, 0, iters)
                M.execute(st, ins)
                emit(ins)
                top = len(body)
                hilo_ok = st.hi_ok and st.lo_ok
                classes = [c for c in LOOP_SAFE
                           if hilo_ok or c not in ("mdsafe", "mf")]
                start = st  # iteration 1 runs on st while generating
                loop_body = [self.safe(start, rng.choice(classes), avoid=(rc,))
                             for _ in range(rng.randint(1, 6))]
                for ins in loop_body:
                    emit(ins)
                dec = ("addiu", rc, rc, -1)
                br = ("bne", rc, 0, top)
                M.execute(st, dec)
                emit(dec)
                emit(br)
                slot = self.safe(st, rng.choice(["alu3s", "sh", "uimm", "load"]),
                                 avoid=(rc,))
                emit(slot)
                for _ in range(iters - 1):
                    for ins in loop_body + [dec, slot]:
                        M.execute(st, ins)
                continue
            emit(self.safe(st, cls))
        while len(body) < want_len:
            emit(self.safe(st, "alu3s"))
        # leave HI/LO architecturally defined for the epilogue's mfhi/mflo
        if not st.hi_ok:
            ins = ("mthi", self.src())
            M.execute(st, ins)
            emit(ins)
        if not st.lo_ok:
            ins = ("mtlo", self.src())
            M.execute(st, ins)
            emit(ins)
        return body


def random_seq(rng, name, n):
    regs = [rand_word(rng) for _ in range(32)]
    mem = bytes(rng.getrandbits(8) for _ in range(DATA_BYTES))
    return Seq(name, regs, rand_word(rng), rand_word(rng), mem), n


def random_batch(seed, nseq, ninsn, first_index=0, code_addr=SEQ_TEXT, exc=0.0):
    """nseq random sequences of about ninsn body instructions each; exc > 0:
    also deliberately trapping instructions with that probability."""
    rng = random.Random(seed)
    g = Gen(rng, exc)
    seqs = []
    addr = code_addr
    for i in range(nseq):
        seq, n = random_seq(rng, "rand-s%d-%d" % (seed, i), ninsn)
        seq.place(first_index + i, addr)      # fixes k0/k1 and addresses
        st = seq.initial_state()
        seq.body = g.body(st, n, seq.body_addr)
        addr = seq.place(first_index + i, addr)
        seq.online_final = st
        seq.online_log = list(g.exc_log)
        seqs.append(seq)
    return seqs


def place_all(seqs, code_addr=SEQ_TEXT):
    addr = code_addr
    for i, s in enumerate(seqs):
        addr = s.place(i, addr)
    return addr


# --- assembly output ----------------------------------------------------------

def _hi_lo(v):
    return v >> 16, v & 0xFFFF


def seq_asm(seq, out):
    i = seq.index
    targets = set()
    for ins in seq.body:
        k = M.BRANCH.get(ins[0])
        if k in ("br2", "br1", "j"):
            targets.add(ins[-1])
    lab = lambda t: "L%d_%d" % (i, t)
    out.append("\t.org 0x%x" % (seq.code_addr - SEQ_TEXT))
    out.append("S%d_pro:" % i)
    out.append("# sequence %d: %s" % (i, seq.name))
    h, l = _hi_lo(seq.init_addr)
    out.append("\tlui $26,0x%x\n\tori $26,$26,0x%x" % (h, l))
    out.append("\tlw $1,124($26)\n\tmthi $1\n\tlw $1,128($26)\n\tmtlo $1")
    for r in DESTS:
        out.append("\tlw $%d,%d($26)" % (r, 4 * (r - 1)))
    h, l = _hi_lo(seq.regs[K1])
    out.append("\tlui $27,0x%x\n\tori $27,$27,0x%x" % (h, l))
    h, l = _hi_lo(seq.state_addr)
    out.append("\tlui $26,0x%x\n\tori $26,$26,0x%x" % (h, l))
    out.append("S%d:" % i)
    for j, ins in enumerate(seq.body):
        if j in targets:
            out.append(lab(j) + ":")
        out.append("\t" + M.fmt(ins, lab))
    out.append(lab(len(seq.body)) + ":")
    for r in range(1, 32):
        out.append("\tsw $%d,%d($26)" % (r, 4 * (r - 1)))
    out.append("\tmfhi $1\n\tsw $1,124($26)\n\tmflo $1\n\tsw $1,128($26)")


def batch_asm(seqs, only=None):
    """Assembly text for the batch; `only` restricts it to some sequences while
    keeping every address (for standalone reproducers)."""
    chosen = seqs if only is None else [s for s in seqs if s.index in only]
    out = ["# generated by emulator/diff/gen.py -- do not edit",
           "\t.set noreorder", "\t.set noat", "\t.set nomacro",
           "\t.section .seqtext,\"ax\",@progbits", "\t.globl seq_start", "seq_start:"]
    if only is not None and chosen[0].code_addr != SEQ_TEXT:
        out.append("\tj S%d_pro\n\tnop" % chosen[0].index)
    for s in chosen:
        seq_asm(s, out)
    out.append("\tj harness_done\n\tnop")
    out.append("\t.section .seqinit,\"a\",@progbits")
    for s in chosen:
        out.append("\t.org 0x%x" % (s.init_addr - INIT_BASE))
        words = s.regs[1:32] + [s.hi, s.lo]
        out.append("\t.word " + ",".join("0x%x" % w for w in words))
    out.append("\t.section .seqstate,\"awx\",@progbits")
    first = True
    for s in chosen:
        out.append("\t.org 0x%x" % (s.state_addr - STATE_BASE))
        if first:
            out.append("\t.globl seq_state_begin\nseq_state_begin:")
            first = False
        out.append("\t.word " + ",".join(["0x5a5a5a5a"] * REG_WORDS))
        out.append("\t.byte " + ",".join(str(b) for b in s.mem))
        out.append("\t.word " + ",".join(["0"] * EXC_WORDS))
    out.append("\t.globl seq_state_end\nseq_state_end:")
    return "\n".join(out) + "\n"


def check_online(seqs):
    """The interpreter must agree with the state tracked while generating."""
    for s in seqs:
        exp = s.expected()
        st = s.online_final
        got = st.r[1:32] + [st.hi, st.lo] + [int.from_bytes(st.mem[i:i + 4], "little")
                                             for i in range(0, DATA_BYTES, 4)]
        got += exc_words(s.online_log)
        assert exp == got, "generator/model disagreement in " + s.name


if __name__ == "__main__":
    import sys
    seqs = random_batch(int(sys.argv[1]) if len(sys.argv) > 1 else 1, 3, 60)
    check_online(seqs)
    sys.stdout.write(batch_asm(seqs))
