"""ISA families: the facts of an instruction set the generic parts need.

The data is ``generator/families.yaml`` (what each key means is written
there); this module loads it once and answers from it, so that no generic
module or template names a register, a flag or a toolchain of one ISA.
``isa.family`` chooses an entry (the schema's choices are its keys), the
checks validate register names, syscall instructions, byte orders and ELF
flags against it, ``generator.derive`` computes register numbers, frame
alignment, syscall register classes and the toolchain values from it, and
templates read it as ``family`` (``family_context``).

A family whose entry lacks a key the generic parts read is a bug of the kit,
not of a spec: loading raises ValueError naming the file and the key.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import yamlio

FAMILIES_FILE = Path(__file__).with_name("families.yaml")

#: Keys every family states (None allowed where families.yaml says "none").
REQUIRED = ("registers_doc", "registers", "aliases", "names_doc", "asm_regnum_prefix", "roles",
            "kernel_reserved", "callee_saved", "stack_align", "syscall_instructions",
            "syscall_reg_args", "error_flag_register", "extra_clobbers", "endianness",
            "endian_flags", "ld_arch", "cpp_predefined", "check_flags", "module_cflags",
            "ftrace_cflags", "module_relocs", "elf_flags", "user_hw_registers", "stub")
ENDIAN_KEYS = ("flag", "ld_emulation", "cpp", "qemu", "cross_compile")
ROLES = ("sp", "fp", "ra", "zero")


@dataclass(frozen=True)
class Family:
    name: str
    data: dict[str, Any]

    def __getattr__(self, key: str) -> Any:
        try:
            return self.data[key]
        except KeyError:
            raise AttributeError(key) from None

    @property
    def regnums(self) -> dict[str, int]:
        """Every register name (aliases too) -> its number."""
        out = dict(self.data["registers"])
        for alias, name in self.data["aliases"].items():
            out[alias] = out[name]
        return out

    @property
    def regnames(self) -> dict[int, str]:
        """Register number -> its own name (not an alias)."""
        return {n: name for name, n in self.data["registers"].items()}

    def regnum(self, name: str) -> int | None:
        return self.regnums.get(name)

    def endian(self, endianness: str) -> dict[str, Any] | None:
        return self.data["endianness"].get(endianness)


def _load(path: Path = FAMILIES_FILE) -> dict[str, Family]:
    raw = yamlio.load_plain(path, f"generator/{path.name}", "ISA family table")
    out = {}
    for name, data in raw.items():
        where = f"generator/{path.name}: {name}"
        missing = [k for k in REQUIRED if k not in data]
        if missing:
            raise ValueError(f"{where}: missing {', '.join(missing)}")
        unknown = [k for k in data if k not in REQUIRED]
        if unknown:
            raise ValueError(f"{where}: unknown key {', '.join(unknown)}")
        regs = data["registers"]
        if not isinstance(regs, dict) or not all(
                isinstance(n, int) and 0 <= n < 64 for n in regs.values()):
            raise ValueError(f"{where}: registers: name -> number (0-63) expected")
        for key, lo, hi in (("stack_align", 4, 64), ("syscall_reg_args", 4, 6)):
            v = data[key]
            if not isinstance(v, int) or not lo <= v <= hi or (key == "stack_align" and v & (v - 1)):
                raise ValueError(f"{where}: {key}: {v!r} is not "
                                 + ("a power of two " if key == "stack_align" else "")
                                 + f"in {lo}..{hi}")
        if data["module_relocs"] not in ("rel", "rela"):
            raise ValueError(f"{where}: module_relocs: rel or rela expected")
        for alias, target in data["aliases"].items():
            if target not in regs:
                raise ValueError(f"{where}: aliases.{alias}: {target} is not a register")
        names = set(regs) | set(data["aliases"])
        for role in ROLES:
            if data["roles"].get(role) not in names:
                raise ValueError(f"{where}: roles.{role}: not a register name")
        for key in ("kernel_reserved", "callee_saved"):
            bad = [r for r in data[key] if r not in names]
            if bad:
                raise ValueError(f"{where}: {key}: {', '.join(bad)} not register names")
        if data["error_flag_register"] is not None and data["error_flag_register"] not in names:
            raise ValueError(f"{where}: error_flag_register: not a register name")
        for order, e in data["endianness"].items():
            gaps = [k for k in ENDIAN_KEYS if k not in e]
            if gaps:
                raise ValueError(f"{where}: endianness.{order}: missing {', '.join(gaps)}")
        out[name] = Family(name, data)
    return out


FAMILIES: dict[str, Family] = _load()


def family_of(data: dict[str, Any]) -> Family | None:
    """The family a normalized spec names (None: not a known family)."""
    isa = data.get("isa") if isinstance(data, dict) else None
    return FAMILIES.get(isa.get("family")) if isinstance(isa, dict) else None


def family_context(data: dict[str, Any]) -> dict[str, Any]:
    """``family`` for templates: the family's entry, its byte order's values
    under ``endian``, every register name (aliases too) under ``regnum``, and
    under ``asm_reg`` how assembly and GCC register variables write each
    register: "$28" with an ``asm_regnum_prefix``, else its ABI name."""
    fam = family_of(data)
    ctx = dict(fam.data)
    ctx["name"] = fam.name
    ctx["endian"] = fam.endian(data["isa"]["endianness"])
    ctx["regnum"] = fam.regnums
    prefix = fam.asm_regnum_prefix
    ctx["asm_reg"] = {name: f"{prefix}{n}" if prefix else name for name, n in fam.regnums.items()}
    return ctx
