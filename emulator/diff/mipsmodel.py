"""A small executable model of the MIPS32 (R2 subset) user-level integer ISA.

Used by the differential-test generator to (a) keep generated code free of
traps and UNPREDICTABLE results (overflow, division by zero, HI/LO after MUL)
and (b) predict the final state as a third opinion next to QEMU and tsar-emu.

Instructions are tuples: (mnemonic, operand, ...).  Registers are ints 0..31.
Branch/jump targets are instruction indices inside the same body (the
interpreter and the assembly writer turn them into addresses/labels).
Semantics follow the public MIPS32 Architecture for Programmers, Vol. II.
"""

M32 = 0xFFFFFFFF


def s32(x):
    x &= M32
    return x - 0x100000000 if x & 0x80000000 else x


def sext16(x):
    x &= 0xFFFF
    return x - 0x10000 if x & 0x8000 else x


class Trap(Exception):
    """The instruction would raise an exception.  kind: "ov" (Ov), "tr" (Tr or
    Bp), "ade" (AdEL/AdES); anything else is a generator error."""

    def __init__(self, msg, kind="internal"):
        Exception.__init__(self, msg)
        self.kind = kind


# exception classes as logged in the state records (MIPS ExcCode numbers)
EXC_CLASS = {"ov": 12, "tr": 13, "ade": 4}


class Unpredictable(Exception):
    """The instruction reads an architecturally UNPREDICTABLE value."""


class State:
    __slots__ = ("r", "hi", "lo", "hi_ok", "lo_ok", "pending", "mem", "mem_base",
                 "ll_addr")

    def __init__(self, regs, hi, lo, mem_base, mem):
        self.r = list(regs)
        self.r[0] = 0
        self.hi = hi & M32
        self.lo = lo & M32
        self.hi_ok = True
        self.lo_ok = True
        self.pending = False  # a MULT/DIV result not yet read by MFHI/MFLO
        self.mem_base = mem_base
        self.mem = bytearray(mem)
        self.ll_addr = None

    def copy(self):
        s = State.__new__(State)
        s.r = list(self.r)
        s.hi, s.lo, s.hi_ok, s.lo_ok = self.hi, self.lo, self.hi_ok, self.lo_ok
        s.pending = self.pending
        s.mem_base = self.mem_base
        s.mem = bytearray(self.mem)
        s.ll_addr = self.ll_addr
        return s

    # memory -------------------------------------------------------------
    def _off(self, addr, size):
        if addr % size:
            raise Trap("unaligned access 0x%08x/%d" % (addr, size), "ade")
        off = (addr & M32) - self.mem_base
        if off < 0 or off + size > len(self.mem):
            raise Trap("access outside the data region: 0x%08x" % addr)
        return off

    def load(self, addr, size):
        o = self._off(addr, size)
        return int.from_bytes(self.mem[o:o + size], "little")

    def store(self, addr, size, val):
        o = self._off(addr, size)
        self.mem[o:o + size] = (val & ((1 << (8 * size)) - 1)).to_bytes(size, "little")

    def setr(self, rd, v):
        if rd:
            self.r[rd] = v & M32

    def set_hilo(self, hi, lo):
        self.hi, self.lo = hi & M32, lo & M32
        self.hi_ok = self.lo_ok = True
        self.pending = True

    def need_hi(self):
        if not self.hi_ok:
            raise Unpredictable("HI")

    def need_lo(self):
        if not self.lo_ok:
            raise Unpredictable("LO")


# --- executors (non-control-flow) --------------------------------------------

def _add(s, rd, rs, rt):
    v = s32(s.r[rs]) + s32(s.r[rt])
    if not -0x80000000 <= v <= 0x7FFFFFFF:
        raise Trap("add overflow", "ov")
    s.setr(rd, v)


def _sub(s, rd, rs, rt):
    v = s32(s.r[rs]) - s32(s.r[rt])
    if not -0x80000000 <= v <= 0x7FFFFFFF:
        raise Trap("sub overflow", "ov")
    s.setr(rd, v)


def _addi(s, rt, rs, imm):
    v = s32(s.r[rs]) + sext16(imm)
    if not -0x80000000 <= v <= 0x7FFFFFFF:
        raise Trap("addi overflow", "ov")
    s.setr(rt, v)


def _rot(x, n):
    n &= 31
    x &= M32
    return ((x >> n) | (x << (32 - n))) & M32 if n else x


def _clz(x):
    x &= M32
    return 32 - x.bit_length()


def _mult(s, rs, rt):
    p = s32(s.r[rs]) * s32(s.r[rt])
    s.set_hilo(p >> 32, p)


def _multu(s, rs, rt):
    p = s.r[rs] * s.r[rt]
    s.set_hilo(p >> 32, p)


def _acc(s, p):
    s.need_hi()
    s.need_lo()
    acc = ((s.hi << 32) | s.lo) + p
    s.set_hilo(acc >> 32, acc)


def _div(s, rs, rt, signed):
    b = s32(s.r[rt]) if signed else s.r[rt]
    a = s32(s.r[rs]) if signed else s.r[rs]
    if b == 0:
        raise Unpredictable("division by zero")
    q = abs(a) // abs(b)
    if (a < 0) != (b < 0):
        q = -q
    r = a - q * b
    s.set_hilo(r, q)


def _mfhi(s, rd):
    s.need_hi()
    s.pending = False
    s.setr(rd, s.hi)


def _mflo(s, rd):
    s.need_lo()
    s.pending = False
    s.setr(rd, s.lo)


def _mthi(s, rs):
    if s.pending:
        s.lo_ok = False
    s.pending = False
    s.hi = s.r[rs]
    s.hi_ok = True


def _mtlo(s, rs):
    if s.pending:
        s.hi_ok = False
    s.pending = False
    s.lo = s.r[rs]
    s.lo_ok = True


def _mul(s, rd, rs, rt):
    s.setr(rd, s32(s.r[rs]) * s32(s.r[rt]))
    s.hi_ok = s.lo_ok = False
    s.pending = False


def _ext(s, rt, rs, pos, size):
    s.setr(rt, (s.r[rs] >> pos) & ((1 << size) - 1))


def _ins(s, rt, rs, pos, size):
    mask = ((1 << size) - 1) << pos
    s.setr(rt, (s.r[rt] & ~mask) | ((s.r[rs] << pos) & mask))


def _wsbh(x):
    return ((x & 0x00FF00FF) << 8) | ((x >> 8) & 0x00FF00FF)


def _lwl(s, rt, addr):
    b = addr & 3
    w = s.load(addr & ~3, 4)
    sh = 8 * (3 - b)
    s.setr(rt, ((w << sh) | (s.r[rt] & ((1 << sh) - 1))) & M32)


def _lwr(s, rt, addr):
    b = addr & 3
    w = s.load(addr & ~3, 4)
    sh = 8 * b
    keep = ~(M32 >> sh) & M32
    s.setr(rt, (w >> sh) | (s.r[rt] & keep))


def _swl(s, rt, addr):
    b = addr & 3
    base = addr & ~3
    for k in range(b + 1):
        s.store(base + k, 1, s.r[rt] >> (8 * (3 - b + k)))


def _swr(s, rt, addr):
    b = addr & 3
    for k in range(4 - b):
        s.store(addr + k, 1, s.r[rt] >> (8 * k))


def _ll(s, rt, addr):
    v = s.load(addr, 4)
    s.ll_addr = addr & M32
    s.setr(rt, v)


def _sc(s, rt, addr):
    ok = s.ll_addr == (addr & M32)
    if ok:
        s.store(addr, 4, s.r[rt])
    else:
        s._off(addr, 4)
    s.ll_addr = None
    s.setr(rt, 1 if ok else 0)


def _trap(cond):
    if cond:
        raise Trap("conditional trap taken", "tr")


def _sext8(x):
    x &= 0xFF
    return x - 0x100 if x & 0x80 else x


def _sext16r(x):
    return sext16(x)


BASE = 27  # k1: base register of every load/store in generated code


def _ea(s, off):
    return (s.r[BASE] + sext16(off)) & M32


# mnemonic -> (kind, assembly format, executor)
# kinds: r3 (rd,rs,rt) shv (rd,rt,rs) sh (rd,rt,sa) imm (rt,rs,imm) uimm lui
#        md (rs,rt) mf (rd) mt (rs) r2 (rd,rt) cl (rd,rs) bits (rt,rs,pos,size)
#        ld/st (rt,off) with base $27, trap (rs,rt), nop
OPS = {
    "addu": ("r3", lambda s, d, a, b: s.setr(d, s.r[a] + s.r[b])),
    "subu": ("r3", lambda s, d, a, b: s.setr(d, s.r[a] - s.r[b])),
    "add": ("r3", _add),
    "sub": ("r3", _sub),
    "and": ("r3", lambda s, d, a, b: s.setr(d, s.r[a] & s.r[b])),
    "or": ("r3", lambda s, d, a, b: s.setr(d, s.r[a] | s.r[b])),
    "xor": ("r3", lambda s, d, a, b: s.setr(d, s.r[a] ^ s.r[b])),
    "nor": ("r3", lambda s, d, a, b: s.setr(d, ~(s.r[a] | s.r[b]))),
    "slt": ("r3", lambda s, d, a, b: s.setr(d, int(s32(s.r[a]) < s32(s.r[b])))),
    "sltu": ("r3", lambda s, d, a, b: s.setr(d, int(s.r[a] < s.r[b]))),
    "movn": ("r3", lambda s, d, a, b: s.setr(d, s.r[a]) if s.r[b] else None),
    "movz": ("r3", lambda s, d, a, b: None if s.r[b] else s.setr(d, s.r[a])),
    "mul": ("r3", _mul),
    "sllv": ("shv", lambda s, d, t, a: s.setr(d, s.r[t] << (s.r[a] & 31))),
    "srlv": ("shv", lambda s, d, t, a: s.setr(d, s.r[t] >> (s.r[a] & 31))),
    "srav": ("shv", lambda s, d, t, a: s.setr(d, s32(s.r[t]) >> (s.r[a] & 31))),
    "rotrv": ("shv", lambda s, d, t, a: s.setr(d, _rot(s.r[t], s.r[a]))),
    "sll": ("sh", lambda s, d, t, sa: s.setr(d, s.r[t] << sa)),
    "srl": ("sh", lambda s, d, t, sa: s.setr(d, s.r[t] >> sa)),
    "sra": ("sh", lambda s, d, t, sa: s.setr(d, s32(s.r[t]) >> sa)),
    "rotr": ("sh", lambda s, d, t, sa: s.setr(d, _rot(s.r[t], sa))),
    "addiu": ("imm", lambda s, t, a, i: s.setr(t, s.r[a] + sext16(i))),
    "addi": ("imm", _addi),
    "slti": ("imm", lambda s, t, a, i: s.setr(t, int(s32(s.r[a]) < sext16(i)))),
    "sltiu": ("imm", lambda s, t, a, i: s.setr(t, int(s.r[a] < (sext16(i) & M32)))),
    "andi": ("uimm", lambda s, t, a, i: s.setr(t, s.r[a] & i)),
    "ori": ("uimm", lambda s, t, a, i: s.setr(t, s.r[a] | i)),
    "xori": ("uimm", lambda s, t, a, i: s.setr(t, s.r[a] ^ i)),
    "lui": ("lui", lambda s, t, i: s.setr(t, i << 16)),
    "mult": ("md", _mult),
    "multu": ("md", _multu),
    "div": ("md", lambda s, a, b: _div(s, a, b, True)),
    "divu": ("md", lambda s, a, b: _div(s, a, b, False)),
    "madd": ("md", lambda s, a, b: _acc(s, s32(s.r[a]) * s32(s.r[b]))),
    "maddu": ("md", lambda s, a, b: _acc(s, s.r[a] * s.r[b])),
    "msub": ("md", lambda s, a, b: _acc(s, -(s32(s.r[a]) * s32(s.r[b])))),
    "msubu": ("md", lambda s, a, b: _acc(s, -(s.r[a] * s.r[b]))),
    "mfhi": ("mf", _mfhi),
    "mflo": ("mf", _mflo),
    "mthi": ("mt", _mthi),
    "mtlo": ("mt", _mtlo),
    "seb": ("r2", lambda s, d, t: s.setr(d, _sext8(s.r[t]))),
    "seh": ("r2", lambda s, d, t: s.setr(d, _sext16r(s.r[t]))),
    "wsbh": ("r2", lambda s, d, t: s.setr(d, _wsbh(s.r[t]))),
    "clz": ("cl", lambda s, d, a: s.setr(d, _clz(s.r[a]))),
    "clo": ("cl", lambda s, d, a: s.setr(d, _clz(~s.r[a]))),
    "ext": ("bits", _ext),
    "ins": ("bits", _ins),
    "lb": ("ld", lambda s, t, o: s.setr(t, _sext8(s.load(_ea(s, o), 1)))),
    "lbu": ("ld", lambda s, t, o: s.setr(t, s.load(_ea(s, o), 1))),
    "lh": ("ld", lambda s, t, o: s.setr(t, sext16(s.load(_ea(s, o), 2)))),
    "lhu": ("ld", lambda s, t, o: s.setr(t, s.load(_ea(s, o), 2))),
    "lw": ("ld", lambda s, t, o: s.setr(t, s.load(_ea(s, o), 4))),
    "lwl": ("ld", lambda s, t, o: _lwl(s, t, _ea(s, o))),
    "lwr": ("ld", lambda s, t, o: _lwr(s, t, _ea(s, o))),
    "ll": ("ld", lambda s, t, o: _ll(s, t, _ea(s, o))),
    "sb": ("st", lambda s, t, o: s.store(_ea(s, o), 1, s.r[t])),
    "sh": ("st", lambda s, t, o: s.store(_ea(s, o), 2, s.r[t])),
    "sw": ("st", lambda s, t, o: s.store(_ea(s, o), 4, s.r[t])),
    "swl": ("st", lambda s, t, o: _swl(s, t, _ea(s, o))),
    "swr": ("st", lambda s, t, o: _swr(s, t, _ea(s, o))),
    "sc": ("st", lambda s, t, o: _sc(s, t, _ea(s, o))),
    "teq": ("trap", lambda s, a, b: _trap(s.r[a] == s.r[b])),
    "tne": ("trap", lambda s, a, b: _trap(s.r[a] != s.r[b])),
    "tge": ("trap", lambda s, a, b: _trap(s32(s.r[a]) >= s32(s.r[b]))),
    "tgeu": ("trap", lambda s, a, b: _trap(s.r[a] >= s.r[b])),
    "tlt": ("trap", lambda s, a, b: _trap(s32(s.r[a]) < s32(s.r[b]))),
    "tltu": ("trap", lambda s, a, b: _trap(s.r[a] < s.r[b])),
    "break": ("nop", lambda s: _trap(True)),
    "nop": ("nop", lambda s: None),
    "sync": ("nop", lambda s: None),
    "ehb": ("nop", lambda s: None),
}

# control flow: mnemonic -> kind
#   br2 (rs, rt, target)  br1 (rs, target)  j (target)  jr (rs)  jalr (rd, rs)
BRANCH = {
    "beq": "br2", "bne": "br2", "beql": "br2", "bnel": "br2",
    "blez": "br1", "bgtz": "br1", "bltz": "br1", "bgez": "br1",
    "blezl": "br1", "bgtzl": "br1", "bltzl": "br1", "bgezl": "br1",
    "bltzal": "br1", "bgezal": "br1", "bltzall": "br1", "bgezall": "br1",
    "j": "j", "jal": "j", "jr": "jr", "jalr": "jalr",
}
LIKELY = {"beql", "bnel", "blezl", "bgtzl", "bltzl", "bgezl", "bltzall", "bgezall"}
_COND1 = {"blez": "le", "blezl": "le", "bgtz": "gt", "bgtzl": "gt",
          "bltz": "lt", "bltzl": "lt", "bltzal": "lt", "bltzall": "lt",
          "bgez": "ge", "bgezl": "ge", "bgezal": "ge", "bgezall": "ge"}
LINK31 = {"bltzal", "bgezal", "bltzall", "bgezall", "jal"}


def branch_taken(s, ins):
    """Condition of a conditional branch (True for jumps)."""
    mn = ins[0]
    k = BRANCH[mn]
    if k == "br2":
        a, b = s.r[ins[1]], s.r[ins[2]]
        return (a == b) if mn in ("beq", "beql") else (a != b)
    if k == "br1":
        v = s32(s.r[ins[1]])
        c = _COND1[mn]
        return (v < 0) if c == "lt" else (v >= 0) if c == "ge" else \
            (v <= 0) if c == "le" else (v > 0)
    return True


def execute(s, ins):
    """Execute one non-control-flow instruction on state s."""
    OPS[ins[0]][1](s, *ins[1:])


def fmt(ins, label_of=None):
    """Assembly text of an instruction (label_of maps a target index to a label)."""
    mn = ins[0]
    if mn in BRANCH:
        k = BRANCH[mn]
        if k == "br2":
            return "%s $%d,$%d,%s" % (mn, ins[1], ins[2], label_of(ins[3]))
        if k == "br1":
            return "%s $%d,%s" % (mn, ins[1], label_of(ins[2]))
        if k == "j":
            return "%s %s" % (mn, label_of(ins[1]))
        if k == "jr":
            return "jr $%d" % ins[1]
        return "jalr $%d,$%d" % (ins[1], ins[2])
    k = OPS[mn][0]
    if k in ("r3", "shv"):
        return "%s $%d,$%d,$%d" % ins
    if k in ("sh", "imm", "uimm"):
        return "%s $%d,$%d,%d" % ins
    if k == "lui":
        return "lui $%d,%d" % ins[1:]
    if k == "md":
        if mn in ("div", "divu"):
            return "%s $0,$%d,$%d" % ins
        return "%s $%d,$%d" % ins
    if k in ("mf", "mt"):
        return "%s $%d" % ins
    if k in ("r2", "cl"):
        return "%s $%d,$%d" % ins
    if k == "bits":
        return "%s $%d,$%d,%d,%d" % ins
    if k in ("ld", "st"):
        return "%s $%d,%d($%d)" % (mn, ins[1], ins[2], BASE)
    if k == "trap":
        return "%s $%d,$%d" % ins
    if k == "nop":
        return mn
    raise AssertionError(ins)


def run(body, state, base_addr, max_steps=1000000, exc_log=None):
    """Interpret a whole body starting at index 0 until it falls off the end.

    body[i] lives at address base_addr + 4*i; jr/jalr targets are addresses.
    exc_log: None = any exception is an error; a list = exceptions of the
    classes in EXC_CLASS are appended as (ExcCode, EPC) and skipped: the test
    handlers resume at EPC + 4, or at EPC + 8 for a delay slot (EPC = branch).
    Returns the number of executed instructions (nullified slots excluded).
    """
    s = state
    pc = 0
    n = len(body)
    steps = 0
    end_addr = base_addr + 4 * n
    while pc != n:
        if not 0 <= pc < n:
            raise Trap("pc out of the body: %d" % pc)
        steps += 1
        if steps > max_steps:
            raise Trap("step limit")
        ins = body[pc]
        mn = ins[0]
        if mn not in BRANCH:
            if exc_log is None:
                execute(s, ins)
            else:
                try:
                    execute(s, ins)
                except Trap as e:
                    if e.kind not in EXC_CLASS:
                        raise
                    exc_log.append((EXC_CLASS[e.kind], base_addr + 4 * pc))
            pc += 1
            continue
        k = BRANCH[mn]
        here = base_addr + 4 * pc
        taken = branch_taken(s, ins)
        if k == "br2":
            target = ins[3]
        elif k == "br1":
            target = ins[2]
        elif k == "j":
            target = ins[1]
        else:
            addr = s.r[ins[1] if k == "jr" else ins[2]]
            if (addr - base_addr) % 4 or not base_addr <= addr <= end_addr:
                raise Trap("jump outside the body 0x%08x" % addr)
            target = (addr - base_addr) // 4
        if mn in LINK31:
            s.setr(31, here + 8)
        elif k == "jalr":
            s.setr(ins[1], here + 8)
        slot = body[pc + 1]
        if slot[0] in BRANCH:
            raise Trap("branch in a delay slot")
        if taken or mn not in LIKELY:
            steps += 1
            if exc_log is None:
                execute(s, slot)
            else:
                try:
                    execute(s, slot)
                except Trap as e:
                    if e.kind not in EXC_CLASS:
                        raise
                    # EPC = the branch (Cause.BD); the handlers resume at
                    # EPC + 8, after the delay slot, whatever the branch did
                    exc_log.append((EXC_CLASS[e.kind], here))
                    pc += 2
                    continue
        pc = target if taken else pc + 2
    return steps
