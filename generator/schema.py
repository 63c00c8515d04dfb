"""The declarative schema of arch-spec.yaml.

Why a data structure and not code: the schema is the documentation of the
spec format. Each key says its type, whether it is required, its default,
allowed values / range and a one-line doc; ``generator.spec`` walks it against
the YAML node tree, and cross-field rules live in ``generator.checks``.

Types
  Int     integer (decimal or hex, or a string such as "0x1000")
  Size    like Int, but also "4K", "2M", "256M", "1G" (binary units)
  Str     string, optionally restricted to ``choices`` or a regex ``pattern``
  Bool    true/false
  List    list of ``item``; ``scalar_ok`` lets a single value stand for a
          one-element list
  Map     fixed set of keys (unknown keys are errors)
  Table   open set of keys (names chosen by the spec author) -> ``value``
  Value   any scalar or list of scalars, checked elsewhere (device properties)
  Scalar  any one scalar (string, number, boolean): the values a layer implements

A field with a ``default`` is optional; ``required=False`` without a default
normalizes to None so templates can write ``{% if x %}``.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .families import FAMILIES
from .kernelsrc import SERIES as KERNEL_SERIES

NO_DEFAULT = object()

C_IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
LOWER_IDENT = r"[a-z][a-z0-9_]*"
DT_NODE_NAME = r"[a-zA-Z][a-zA-Z0-9,._+-]*"
#: "vendor,model", or one of the vendor-less compatibles that generic kernel
#: drivers match (the 8250 family of of_serial).
GENERIC_COMPATIBLES = ("ns16550a", "ns16550", "ns16450", "ns8250")
DT_COMPATIBLE = r"[a-zA-Z0-9_.+-]+,[a-zA-Z0-9_.,+-]+|" + "|".join(GENERIC_COMPATIBLES)
#: Free text that lands in Makefile/Kconfig comments, Kconfig strings, C and
#: device-tree strings and comments: one line, nothing that ends a string or
#: comment or starts a make expansion (the pattern), and no character that
#: is invisible or reorders what is shown (``text_problem``: bidi controls
#: such as U+202E could make a comment read as something else).
TEXT = r'(?!.*\*/)[^\x00-\x1f\x7f"\\$`]*'

TEXT_DOC = ('one line of text without quotes, backslashes, "$", backquotes, "*/", '
            'control characters or invisible formatting characters (bidi controls)')

#: Free text that lands only in C comments: one line that does not end the comment.
COMMENT = r'(?!.*\*/)[^\x00-\x1f\x7f]*'
COMMENT_DOC = ('one line of text without "*/", control characters or invisible formatting '
               'characters (bidi controls)')

#: Unicode categories refused in free text: control, format (bidi controls,
#: zero-width characters), line and paragraph separators, surrogates.
HIDDEN_CATEGORIES = ("Cc", "Cf", "Zl", "Zp", "Cs")


def hidden_char_problem(value: str) -> str | None:
    """The first control or invisible formatting character of ``value``, if any."""
    for i, ch in enumerate(value):
        if unicodedata.category(ch) in HIDDEN_CATEGORIES:
            name = unicodedata.name(ch, "a control character")
            return (f"character U+{ord(ch):04X} ({name}) at position {i + 1} is a control or "
                    "invisible formatting character")
    return None


def text_problem(value: str) -> str | None:
    """What makes ``value`` unfit as free text (None: nothing); see ``TEXT``."""
    if not re.fullmatch(TEXT, value):
        return "it holds a quote, backslash, \"$\", backquote, \"*/\" or a control character"
    return hidden_char_problem(value)


#: Names Linux uses under arch/ (6.1, earlier series, and the ARCH= aliases
#: its Makefile maps to one of them): an arch named so would be built as, or
#: copied over, that architecture.
LINUX_ARCH_NAMES = frozenset((
    "alpha", "arc", "arm", "arm26", "arm64", "avr32", "blackfin", "c6x", "cris", "csky",
    "frv", "h8300", "hexagon", "i386", "ia64", "loongarch", "m32r", "m68k", "m68knommu",
    "metag", "microblaze", "mips", "mn10300", "nds32", "nios2", "openrisc", "parisc",
    "parisc64", "powerpc", "ppc", "ppc64", "riscv", "s390", "score", "sh", "sh64", "sparc",
    "sparc32", "sparc64", "tile", "um", "unicore32", "v850", "x86", "x86_64", "xtensa",
))
#: Longer than any Linux arch name (the longest is 10: microblaze); it is also
#: the default uts_machine (at most UTS_MACHINE_MAX) and part of file names.
ARCH_NAME_MAX = 32
#: ``uname -m``: struct new_utsname's machine[__NEW_UTS_LEN + 1], 64 characters and a NUL.
UTS_MACHINE_MAX = 64
ARCH_NAME_DOC = (f"a lowercase identifier ([a-z][a-z0-9_]*) of at most {ARCH_NAME_MAX} "
                 "characters that Linux does not use under arch/")


def arch_name_problem(name: str) -> str | None:
    """The one rule for arch names (arch.name, --new NAME); None when ``name`` is fine."""
    if not re.fullmatch(LOWER_IDENT, name):
        return f"{name[:40]!r} is not a lowercase identifier ([a-z][a-z0-9_]*)"
    if len(name) > ARCH_NAME_MAX:
        return f"'{name[:20]}...' has {len(name)} characters; the limit is {ARCH_NAME_MAX}"
    if name in LINUX_ARCH_NAMES:
        return (f"'{name}' is a name Linux already uses under arch/ (or an ARCH= alias of "
                "one); the port would be built as, or copied over, that architecture")
    return None


#: A file name portkit writes (defconfig, ...): no '.' or '..', no hidden file.
FILE_NAME = r"[A-Za-z0-9_][A-Za-z0-9_.-]*"
#: A layer: a name (overrides/<name>/) or a path relative to the spec file,
#: never leaving it upwards ('..') or naming a hidden directory.
LAYER_PATH = r"(?:\./)?[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)*/?"
LAYER_PATH_DOC = "a layer name or a path relative to the spec file, without '..'"
#: A compiler/linker flag: one word, no make or shell syntax.
FLAG = r"-[A-Za-z0-9_=.,+/:-]+|[A-Za-z0-9_.][A-Za-z0-9_=.,+/:-]*"
FLAG_DOC = "a single compiler/linker flag (letters, digits and _=.,+/:- only)"
#: A CROSS_COMPILE prefix.
PREFIX = r"[A-Za-z0-9_][A-Za-z0-9_.+/-]*-"
PREFIX_DOC = "a cross-compiler prefix such as mipsel-linux-gnu- (ending in '-')"
COMPATIBLE_HINT = (
    "a compatible string is 'vendor,model'; inside a flow list [a, b] a plain "
    "comma separates items, so quote each string: [\"vendor,intc\", ...]"
)


def bound_text(n: int) -> str:
    """A bound as people write it: small numbers in decimal, addresses in hex."""
    return f"0x{n:x}" if n >= 0x10000 else str(n)


def range_text(lo: int | None, hi: int | None) -> str:
    """An integer's bounds, for messages: ' in 0..5', ' >= 0', ' <= 5' or ''."""
    if lo is not None and hi is not None:
        return f" in {bound_text(lo)}..{bound_text(hi)}"
    if lo is not None:
        return f" >= {bound_text(lo)}"
    return f" <= {bound_text(hi)}" if hi is not None else ""


@dataclass(kw_only=True)
class Field:
    doc: str = ""
    required: bool = True
    default: Any = NO_DEFAULT

    @property
    def optional(self) -> bool:
        return self.default is not NO_DEFAULT or not self.required

    def default_value(self) -> Any:
        if self.default is NO_DEFAULT:
            return None
        # Copy mutable defaults so normalized specs never share lists or mappings.
        if isinstance(self.default, (list, dict)):
            return type(self.default)(self.default)
        return self.default


@dataclass(kw_only=True)
class Int(Field):
    min: int | None = None
    max: int | None = None
    choices: tuple[int, ...] | None = None
    kind: str = "an integer"


@dataclass(kw_only=True)
class Size(Int):
    kind: str = "a size (integer, or a string like \"4K\", \"2M\", \"1G\")"


@dataclass(kw_only=True)
class Str(Field):
    choices: tuple[str, ...] | None = None
    pattern: str | None = None
    pattern_doc: str = ""
    hint: str = ""
    max_len: int | None = None
    #: a further rule: value -> what is wrong with it, or None
    check: Callable[[str], str | None] | None = None


def Text(**kw: Any) -> Str:
    """Free text (see ``TEXT``)."""
    return Str(pattern=TEXT, pattern_doc=TEXT_DOC, check=hidden_char_problem, **kw)


def Comment(**kw: Any) -> Str:
    """Free text that only lands in C comments (see ``COMMENT``)."""
    return Str(pattern=COMMENT, pattern_doc=COMMENT_DOC, check=hidden_char_problem, **kw)


@dataclass(kw_only=True)
class Derived(Field):
    """A value computed from others: stating it in a spec is an error. How it
    is computed is defined once, in generator/derive.py (SPEC_VALUES)."""

    required: bool = False


@dataclass(kw_only=True)
class Bool(Field):
    pass


@dataclass(kw_only=True)
class List(Field):
    item: Field
    min_len: int = 0
    max_len: int | None = None
    scalar_ok: bool = False
    #: why the length is bounded (shown with a length error)
    why: str = ""


@dataclass(kw_only=True)
class Scalar(Field):
    """Any one scalar value (string, number or boolean)."""


@dataclass(kw_only=True)
class Value(Field):
    """Any scalar or list of scalars, checked later by whoever declares it
    (device properties: the layer's bindings, see generator.bindings)."""


@dataclass(kw_only=True)
class Map(Field):
    fields: dict[str, Field] = field(default_factory=dict)


@dataclass(kw_only=True)
class Table(Field):
    value: Field
    key_pattern: str = LOWER_IDENT
    key_doc: str = ""


def _reg(doc: str, **kw: Any) -> Str:
    # Register names are checked by generator.checks (better message than a
    # 35-name choice list).
    return Str(doc=doc + " (an ABI name of the family's register file)", pattern=r"\$?[a-z0-9]+",
               pattern_doc="a register name", **kw)


def _bitfield(doc: str, **kw: Any) -> Map:
    return Map(doc=doc, **kw, fields={
        "word": Int(doc="32-bit word of the entry holding the field", default=0, min=0, max=1),
        "lsb": Int(doc="lowest bit of the field", min=0, max=31),
        "width": Int(doc="number of bits", min=1, max=32),
    })


ARCH = Map(doc="identity of the port", fields={
    "name": Str(doc=f"arch directory name (arch/<name>/): at most {ARCH_NAME_MAX} characters, "
                    "not a name Linux uses under arch/", pattern=LOWER_IDENT,
                pattern_doc="a lowercase identifier", max_len=ARCH_NAME_MAX,
                check=arch_name_problem),
    "description": Text(doc="one-line description"),
    "kernel_series": Str(doc="Linux series targeted (quote it); the exact version is the one "
                             "of that series' source tree (generator/kernelsrc.py)",
                         choices=KERNEL_SERIES),
    "defconfig": Str(doc="name of the generated defconfig", required=False,
                     pattern=FILE_NAME, max_len=100,
                     pattern_doc="a file name (letters, digits, _.-; not starting with '.') "
                                 "of at most 100 characters"),
    "uts_machine": Str(doc="uname -m", required=False, pattern=FILE_NAME,
                       max_len=UTS_MACHINE_MAX,
                       pattern_doc=f"a machine name (letters, digits, _.-) of at most "
                                   f"{UTS_MACHINE_MAX} characters (struct new_utsname)"),
    "overrides": Str(doc="the arch's own override layer, relative to the spec file "
                         "(default: overrides/<name>/ in the project root); it must lie in "
                         "the project", required=False,
                     pattern=LAYER_PATH, pattern_doc="a path relative to the spec file, "
                                                     "without '..'"),
    "layers": List(doc="override layers, lowest first: a name is overrides/<name>/ in the "
                       "project root, a path (with '/') is relative to the spec file; later "
                       "layers replace or extend files of earlier ones and of templates/ "
                       "(default: [<name>]); every layer lies in the project and has a "
                       "layer.yaml", required=False,
                   item=Str(pattern=LAYER_PATH, pattern_doc=LAYER_PATH_DOC), min_len=1),
})

CP0_FIELD = Map(doc="a register field", fields={
    "lsb": Int(doc="lowest bit", min=0, max=31),
    "width": Int(doc="number of bits", default=1, min=1, max=32),
})

CP0 = Map(doc="coprocessor 0 as implemented", required=False, fields={
    "prid": Int(doc="PRId value", min=0, max=0xFFFFFFFF),
    "registers": Table(doc="implemented registers: name -> [register, select]",
                       value=List(item=Int(min=0, max=31), min_len=2, max_len=2)),
    "status_fields": Table(doc="Status register fields", value=CP0_FIELD),
    "cause_fields": Table(doc="Cause register fields", value=CP0_FIELD),
    "ebase_cpunum": CP0_FIELD,
    "hw_irq_lines": Int(doc="hardware interrupt lines (Cause.IP2..)", min=1, max=6),
    "exception_codes": Table(doc="Cause.ExcCode values", value=Int(min=0, max=31)),
    "general_vector_offset": Int(doc="general exception vector offset from EBase", min=0),
    "pmu": Map(doc="performance counters: MIPS32 PerfCtl/PerfCnt pairs (registers perfctl<n>, "
                   "perfcnt<n>), Config1.PC set", required=False, fields={
        "counters": Int(doc="counter pairs (0: no counters)", min=0, max=4),
        "irq_line": Int(doc="CPU interrupt line an overflow raises (IntCtl.IPPCI = 2 + line); "
                            "Cause.PCI shows it", required=False, min=0, max=5),
        "control_fields": Table(doc="PerfCtl fields: exl, k, u (count in that mode), ie "
                                    "(overflow interrupt), event, more", required=False,
                                value=CP0_FIELD),
        "events": Table(doc="event numbers (PerfCtl.Event) the counters count exactly",
                        required=False, value=Int(min=0, max=1023)),
    }),
})

ISA = Map(doc="instruction set and toolchain", fields={
    "family": Str(doc="ISA family: its register file, toolchain and conventions are "
                      "generator/families.yaml's entry, its code the family layer",
                  choices=tuple(FAMILIES)),
    "endianness": Str(doc="byte order", choices=("little", "big")),
    "word_bits": Int(doc="register/pointer width (only 32 is supported, see checks)", min=1, max=128),
    "cross_compile": List(doc="CROSS_COMPILE prefixes, tried in order (default: the usual "
                              "prefixes of the family and endianness)", required=False,
                          item=Str(pattern=PREFIX, pattern_doc=PREFIX_DOC),
                          min_len=1, scalar_ok=True),
    "cflags": List(doc="extra C flags (the byte-order flag comes from endianness)",
                   item=Str(pattern=FLAG, pattern_doc=FLAG_DOC), default=[]),
    "aflags": List(doc="extra assembler flags (the byte-order flag comes from endianness)",
                   item=Str(pattern=FLAG, pattern_doc=FLAG_DOC), default=[]),
    "ldflags": List(doc="extra linker flags (the -m emulation comes from endianness)",
                    item=Str(pattern=FLAG, pattern_doc=FLAG_DOC), default=[]),
    "fpu": Str(doc="floating point unit", choices=("none", "hard"), default="none"),
    "atomics": Str(doc="atomic primitive", choices=("llsc", "none"), default="llsc"),
    "l1_cache_line": Size(doc="L1 cache line size in bytes", min=4, max=4096),
    "cp0": CP0,
})

SYSCALL = Map(doc="system call convention", fields={
    "instruction": Str(doc="trapping instruction (one of the family's syscall_instructions)",
                       choices=tuple(sorted({i for f in FAMILIES.values()
                                             for i in f.syscall_instructions}))),
    "number_register": _reg("register holding the syscall number"),
    "arg_registers": List(doc="argument registers, in order (arguments after them come from "
                              "the caller's stack, abi.syscall.stack_args)",
                          item=_reg("argument register"), min_len=4, max_len=6,
                          why="system calls take up to 6 arguments: 4 to 6 in registers (MIPS "
                              "o32: 4, RISC-V: 6), the rest from the caller's stack"),
    "stack_args": Map(doc="arguments passed on the caller's stack", required=False, fields={
        "count": Int(doc="number of stack arguments", min=0, max=8),
        "offset": Int(doc="byte offset of the first one from the user sp", min=0),
    }),
    "return_register": _reg("register holding the result"),
    "error_convention": Str(doc="how errors are returned", choices=("a3_flag", "negative_v0")),
    "table": Str(doc="syscall table", choices=("asm-generic",)),
    "time32_syscalls": Bool(doc="also provide the 32-bit time syscalls and the other legacy calls "
                                "riscv32 does without (stat64 family, get/setrlimit)",
                            default=False),
    "audit_convention": Int(doc="__AUDIT_ARCH_CONVENTION_* bits added to the ELF machine in the "
                                "AUDIT_ARCH value (seccomp, audit, PTRACE_GET_SYSCALL_INFO) when "
                                "the syscall table is not that machine's own", min=0, default=0),
    "clone_order": Str(doc="argument order of clone()",
                       choices=("forwards", "backwards", "backwards2", "backwards3"),
                       default="forwards"),
    "clobbers": List(doc="registers the syscall instruction clobbers (register names and the "
                         "family's extra_clobbers, such as MIPS hi, lo): the "
                         "kernel neither saves nor restores them on its fast path and returns "
                         "them zeroed; every other register but the result comes back as the "
                         "caller had it", item=_reg("clobbered register"), default=[]),
})

TLS = Map(doc="thread-local storage", fields={
    "register": Str(doc="where the TLS pointer lives: userlocal, a register the kernel keeps "
                        "per thread (MIPS CP0 UserLocal); tp, a general register user code sets "
                        "itself (RISC-V)", choices=("userlocal", "tp")),
    "hwrena": List(doc="hardware registers user mode may read (MIPS RDHWR: one of the family's "
                       "user_hw_registers)",
                   item=Str(choices=tuple(sorted({n for f in FAMILIES.values()
                                                  for n in f.user_hw_registers}))),
                   default=[]),
})

ELF = Map(doc="ELF identification", fields={
    "machine": Str(doc="e_machine macro", pattern=r"EM_[A-Z0-9_]+", pattern_doc="an EM_* name"),
    "class": Int(doc="ELF class", choices=(32, 64)),
    "data": Derived(doc="ELF data encoding"),
    "flags_reject": List(doc="e_flags bits that make an object unusable",
                         item=Str(pattern=r"EF_[A-Z0-9_]+", pattern_doc="an EF_* name"), default=[]),
})

FRAME_SLOT = Map(doc="one struct pt_regs slot", fields={
    "name": Str(doc="C member name", pattern=C_IDENT, pattern_doc="a C identifier"),
    "words": Int(doc="size in 32-bit words", min=1, default=1),
    "user": Bool(doc="also part of user_regs_struct", default=False),
    "doc": Comment(doc="comment", required=False),
})

ABI = Map(doc="user/kernel ABI", fields={
    "syscall": SYSCALL,
    "tls": TLS,
    "elf": ELF,
    "frame": List(doc="struct pt_regs, in memory order", item=FRAME_SLOT, min_len=1),
    "thread_size": Size(doc="kernel stack (THREAD_SIZE) in bytes", min=1),
})

LEVEL = Map(doc="one page-table level", fields={
    "name": Str(doc="level name", pattern=LOWER_IDENT, pattern_doc="a lowercase identifier"),
    "entries": Int(doc="entries per table", min=1),
    "entry_bits": Int(doc="bits per entry", choices=(32, 64)),
    "align": Size(doc="required table alignment in bytes", min=1),
})

PTE_BIT = Map(doc="one PTE flag", fields={
    "bit": Int(doc="bit number in the flag word", min=0, max=63),
    "hw": Str(doc="hardware name of the bit", required=False, pattern=r"[A-Za-z][A-Za-z0-9_]*",
              pattern_doc="a name (letters, digits, _)"),
    "set_by_hw": Bool(doc="the walker sets it by itself", default=False),
    "software": Bool(doc="software-only bit, ignored by the hardware", default=False),
    "pte1": Bool(doc="may be set in a present first-level big-page entry; false for "
                     "markers of non-present entries, which may then overlap pte1_ppn",
                 default=True),
    "doc": Comment(doc="comment", required=False),
})

def _reg_fields(doc: str, **fields: str) -> Map:
    """A CP0 register of the TLB: its named fields (lsb, width)."""
    return Map(doc=doc, fields={name: Map(doc=fdoc, fields=dict(CP0_FIELD.fields))
                                for name, fdoc in fields.items()})


TLB = Map(doc="software-refilled TLB (R4K style; mmu.walker: software)", required=False, fields={
    "entries": Int(doc="TLB entries (each maps an even/odd page pair)", min=1, max=64),
    "refill_vector_offset": Int(doc="offset of the TLB refill vector from EBase", min=0,
                                max=0xFFF),
    "asid_bits": Derived(doc="ASID width"),
    "entryhi": _reg_fields("EntryHi fields", vpn2="virtual page pair number",
                           asid="address space identifier"),
    "entrylo": _reg_fields("EntryLo0/1 fields", pfn="physical frame number",
                           c="cache attribute", d="dirty (writes allowed)", v="valid",
                           g="global (ASID ignored)"),
    "pagemask": _reg_fields("PageMask fields", mask="page size mask"),
    "index": _reg_fields("Index fields", index="entry index", p="probe failure"),
    "random": _reg_fields("Random fields", random="entry index"),
    "context": _reg_fields("Context fields", badvpn2="faulting VPN2",
                           ptebase="software page-table base"),
    "cache_attrs": Map(doc="EntryLo.C values", fields={
        "cached": Int(doc="cacheable attribute used for RAM", min=0, max=7),
        "uncached": Int(doc="uncached attribute used for devices", min=0, max=7),
    }),
})

MMU = Map(doc="memory management unit", fields={
    "walker": Str(doc="who walks the page tables", choices=("hardware", "software")),
    "tlb_coherent": Bool(doc="TLBs snoop page-table writes", default=False),
    "page_size": Size(doc="base page size", min=1),
    "big_page_size": Derived(doc="size mapped by one first-level entry"),
    "phys_addr_bits": Int(doc="physical address width", min=32, max=64),
    "ptpr_shift": Derived(doc="PTPR = phys(PT1) >> ptpr_shift"),
    "levels": List(doc="page-table levels, top first", item=LEVEL, min_len=2, max_len=2),
    "pte1_ppn": _bitfield("PPN field of a first-level big-page PTE (hardware walker)",
                          required=False),
    "ptd1_ptpn": _bitfield("PT2 page number field of a first-level PTD (hardware walker)",
                           required=False),
    "pte2_ppn": _bitfield("PPN field of a second-level PTE (hardware walker)",
                          required=False),
    "cp2_registers": Table(doc="CP2 (MMU) register numbers", required=False,
                           value=Int(min=0, max=31)),
    "mode_bits": Table(doc="bits of the CP2 MODE register", required=False,
                       value=Int(min=0, max=31)),
    "pte_bits": Table(doc="PTE flag bits by name", value=PTE_BIT),
    "fault_codes": Table(doc="MMU fault codes by name (hardware walker)", required=False,
                         value=Int(min=0)),
    "tlb": TLB,
})

#: The highest virtual address: addresses are 32-bit unsigned longs (isa.word_bits
#: is 32, see checks), so 2^32 itself does not exist.
VA_MAX = 0xFFFFFFFF

LAYOUT = Map(doc="virtual and physical memory layout", fields={
    "page_offset": Int(doc="PAGE_OFFSET", min=0, max=VA_MAX),
    "task_size": Int(doc="TASK_SIZE (default: page_offset)", required=False, min=0),
    "phys_offset": Int(doc="physical address mapped at PAGE_OFFSET", min=0),
    "kernel_phys_start": Int(doc="physical load address of the kernel", min=0),
    "kernel_link_address": Derived(doc="virtual link address of the kernel"),
    "vmalloc_offset": Size(doc="gap between lowmem and vmalloc", min=0),
    "vmalloc_min_size": Size(doc="minimum vmalloc area", min=0),
    "fixmap_top": Int(doc="top of the fixmap area (FIXADDR_TOP, an unsigned long)", min=0,
                      max=VA_MAX),
    "windows": List(doc="fixed windows of the kernel half that the hardware maps by itself "
                        "(MIPS kseg0/kseg1) or through the TLB only (kseg2); required with "
                        "mmu.walker: software", required=False, min_len=1,
                    item=Map(doc="one fixed window", fields={
                        "name": Str(doc="window name (macros <NAME>_BASE/_SIZE)",
                                    pattern=LOWER_IDENT, pattern_doc="a lowercase identifier"),
                        "base": Int(doc="virtual base", min=0, max=VA_MAX),
                        "size": Size(doc="size in bytes", min=1),
                        "kind": Str(doc="what the window is",
                                    choices=("unmapped_cached", "unmapped_uncached",
                                             "mapped_kernel")),
                    })),
})

DEVICE = Map(doc="one memory-mapped device", fields={
    "name": Str(doc="device-tree node name", pattern=DT_NODE_NAME,
                pattern_doc="a device-tree node name"),
    "compatible": List(doc="compatible strings", scalar_ok=True, min_len=1,
                       item=Str(pattern=DT_COMPATIBLE, pattern_doc="a 'vendor,model' string",
                                hint=COMPATIBLE_HINT)),
    "base": Int(doc="physical base address (absent: a CPU-local device, such as the "
                    "CPU's own interrupt lines, placed outside the bus)", required=False, min=0),
    "size": Size(doc="size of the register window (with base)", required=False, min=1),
    "clock_hz": Int(doc="input clock of the device (device-tree clock-frequency)",
                    required=False, min=1),
    "interrupt_controller": Bool(doc="this is the interrupt controller", default=False),
    "interrupts": List(doc="HWI inputs used", item=Int(min=0), default=[]),
    "interrupt_parent": Str(doc="the interrupt controller the interrupts go to, by device "
                                "name (absent: the board's first interrupt controller)",
                            required=False, pattern=DT_NODE_NAME,
                            pattern_doc="a device-tree node name"),
    "per_cluster": Bool(doc="with platform.mesh: one in every cluster, at the same local "
                            "address (otherwise the device is in the I/O cluster only)",
                        default=False),
    "stdout": Bool(doc="the console (chosen/stdout-path)", default=False),
    "properties": Table(doc="device-specific values, like device-tree bindings: the layer "
                            "driving the device declares them (bindings: in its layer.yaml: "
                            "names, types, required, device-tree property)", default={},
                        value=Value(doc="a number, string, boolean or list of them")),
})

PLATFORM = Map(doc="the board", fields={
    "name": Str(doc="board name (dts file name)", pattern=r"[a-z0-9][a-z0-9_.-]*",
                pattern_doc="a lowercase file name of at most 100 characters", max_len=100),
    "model": Text(doc="device-tree model"),
    "compatible": Str(doc="board compatible string", pattern=DT_COMPATIBLE,
                      pattern_doc="a 'vendor,model' string"),
    "address_cells": Int(doc="#address-cells", min=1, max=2),
    "size_cells": Int(doc="#size-cells", min=1, max=2),
    "clock_hz": Int(doc="CPU/timer clock", min=1),
    "mesh": Map(doc="a 2D mesh of clusters, each a copy of the board's local map (its RAM "
                    "banks and per_cluster devices) at (x << 4 | y) << 32 (absent: one "
                    "cluster); see docs/multicluster.md", required=False, fields={
        "columns": Int(doc="clusters along X (address bits 39..36)", min=1, max=16),
        "rows": Int(doc="clusters along Y (address bits 35..32)", min=1, max=16),
        "cpus_per_cluster": Derived(doc="CPUs in each cluster"),
        "io_cluster": Map(doc="the cluster holding the devices that are not per_cluster",
                          default={"x": 0, "y": 0}, fields={
            "x": Int(doc="column", min=0, max=15, default=0),
            "y": Int(doc="row", min=0, max=15, default=0),
        }),
    }),
    "cpus": Map(doc="processors", fields={
        "count": Int(doc="number of CPUs (with a mesh: in all, the same number in every "
                         "cluster)", min=1),
        "compatible": Str(doc="CPU compatible string", pattern=DT_COMPATIBLE,
                          pattern_doc="a 'vendor,model' string"),
    }),
    "memory": List(doc="RAM banks", min_len=1, item=Map(doc="one RAM bank", fields={
        "base": Int(doc="physical base", min=0),
        "size": Size(doc="size in bytes", min=1),
    })),
    "devices": List(doc="memory-mapped devices", item=DEVICE, default=[]),
    "qemu": Map(doc="the QEMU machine this board is (make run boots it there instead of "
                    "portkit's emulator); the binary (qemu-system-mips/mipsel) and -m follow "
                    "from isa.endianness and platform.memory", required=False, fields={
        "machine": Str(doc="-M machine", pattern=r"[a-z0-9][a-z0-9_.-]*",
                       pattern_doc="a QEMU machine name"),
        "cpu": Str(doc="-cpu model", pattern=r"[A-Za-z0-9][A-Za-z0-9_.-]*",
                   pattern_doc="a QEMU CPU model"),
        "args": List(doc="further QEMU options", item=Str(pattern=FLAG, pattern_doc=FLAG_DOC),
                     default=[]),
    }),
})

BOOT = Map(doc="boot protocol", fields={
    "entry_mmu_enabled": Bool(doc="MMU on at the kernel entry"),
    "dtb_register": _reg("register holding the DTB physical address"),
    "bootargs": Text(doc="default kernel command line", default=""),
    "firmware": Str(doc="what the kernel calls below it: none (it drives the timer, "
                        "interrupts, power-off and the other CPUs itself), sbi (a RISC-V SBI "
                        "firmware does: set_timer, send_ipi, system reset, hart start)",
                    choices=("none", "sbi"), default="none"),
})

KERNEL = Map(doc="kernel configuration", fields={
    "hz": Int(doc="CONFIG_HZ (the choices of kernel/Kconfig.hz)", choices=(100, 250, 300, 1000)),
    "config": List(doc="extra defconfig lines", default=[],
                   item=Str(pattern=r'CONFIG_[A-Za-z0-9_]+=(?:[ynm]|-?[0-9]+|0x[0-9a-fA-F]+|"[^"\\\x00-\x1f$`]*")',
                             pattern_doc='a CONFIG_NAME=value line (value y, n, m, a number or '
                                         'a "string" without quotes, backslashes or "$")',
                             check=hidden_char_problem)),
})

SPEC = Map(doc="arch-spec.yaml", fields={
    "arch": ARCH,
    "isa": ISA,
    "abi": ABI,
    "mmu": MMU,
    "layout": LAYOUT,
    "platform": PLATFORM,
    "boot": BOOT,
    "kernel": KERNEL,
})

#: Top-level sections, exported to templates under their own names.
SECTIONS: tuple[str, ...] = tuple(SPEC.fields)
