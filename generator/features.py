"""``generate.py SPEC --features``: the arch feature table.

The kernel documents its arch-level features in
``Documentation/features/<subsystem>/<feature>/arch-support.txt``: each file
names the feature, the Kconfig symbol (or expression, e.g.
``!LEGACY_TIMER_TICK``) that says an arch has it, and a table of every
in-tree arch's status (``ok``, ``TODO``, ``..`` or ``N/A``).

The generated arch is in none of those tables: its status is computed from
its Kconfig as the generator renders it (after the layers): the symbols the
arch selects or defines as ``def_bool y``, in that file and the arch files it
sources, and what those select without a condition in the kernel's
arch/Kconfig. The
table shows it next to peer arches read from the same files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import PortkitError

#: The ports a small arch is compared with by default.
DEFAULT_PEERS = ("nios2", "openrisc", "csky", "mips", "riscv")


class FeaturesError(PortkitError):
    """A features directory or Kconfig that cannot be read."""

    exit_code = 2


@dataclass
class Feature:
    subsystem: str
    name: str
    kconfig: str                      # symbol or expression, as written
    description: str
    status: dict = field(default_factory=dict)   # arch -> "ok", "TODO", "..", "N/A"


_HEADER = re.compile(r"^#\s*(Feature name|Kconfig|description):\s*(.*?)\s*$")
_ROW = re.compile(r"^\s*\|\s*([A-Za-z0-9_-]+):\s*\|\s*(\S+)\s*\|\s*$")


def read_feature(path: Path, subsystem: str, name: str) -> Feature:
    """One arch-support.txt file."""
    fields: dict[str, str] = {}
    status: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise FeaturesError(f"{path}: cannot read: {exc.strerror}") from None
    for line in text.splitlines():
        m = _HEADER.match(line)
        if m:
            key = m.group(1).split()[0].lower()
            fields[key] = m.group(2)
            continue
        m = _ROW.match(line)
        if m and m.group(1) != "arch":
            status[m.group(1)] = m.group(2)
    if "kconfig" not in fields:
        raise FeaturesError(f"{path}: no '#   Kconfig: SYMBOL' line: not a feature file")
    return Feature(subsystem, fields.get("feature", name), fields["kconfig"],
                   fields.get("description", ""), status)


def read_features(features_dir: Path) -> list[Feature]:
    """Every Documentation/features/*/*/arch-support.txt, sorted by subsystem, name."""
    features_dir = Path(features_dir)
    if not features_dir.is_dir():
        raise FeaturesError(f"{features_dir}: no such directory (the kernel tree's "
                            "Documentation/features)")
    found = sorted(features_dir.glob("*/*/arch-support.txt"))
    if not found:
        raise FeaturesError(f"{features_dir}: no */*/arch-support.txt files in it")
    return [read_feature(p, p.parent.parent.name, p.parent.name) for p in found]


_SOURCE = re.compile(r'^\s*(?:o?source|rsource)\s+"([^"]+)"')
_CONFIG = re.compile(r"^\s*(?:menu)?config\s+([A-Za-z0-9_]+)\s*$")
_SELECT = re.compile(r"^\s*select\s+([A-Za-z0-9_]+)")
_DEF_Y = re.compile(r"^\s*def_bool\s+y\s*$")


def _kconfig_lines(files: dict, rel: str, seen: set) -> list[str]:
    """The lines of a Kconfig file and, in place, of the arch files it sources."""
    if rel in seen:
        return []
    seen.add(rel)
    out: list[str] = []
    for line in files[rel].splitlines():
        m = _SOURCE.match(line)
        if m and m.group(1) in files:
            out.extend(_kconfig_lines(files, m.group(1), seen))
            continue
        out.append(line)
    return out


def arch_symbols(files: dict, arch: str) -> set[str]:
    """Symbols the arch's Kconfig selects or defines as ``def_bool y``.

    ``files`` maps paths such as ``arch/<arch>/Kconfig`` to their text (the
    rendered arch tree). A select with a condition (``select X if MODULES``)
    counts: the arch supports the feature when the condition holds. Files
    sourced from outside the arch (kernel/Kconfig.hz...) are not read."""
    top = f"arch/{arch}/Kconfig"
    if top not in files:
        raise FeaturesError(f"the arch produces no {top}")
    symbols: set[str] = set()
    current = None
    for line in _kconfig_lines(files, top, set()):
        m = _CONFIG.match(line)
        if m:
            current = m.group(1)
            continue
        m = _SELECT.match(line)
        if m:
            symbols.add(m.group(1))
            continue
        if current and _DEF_Y.match(line):
            symbols.add(current)
    return symbols


_SELECT_PLAIN = re.compile(r"^\s*select\s+([A-Za-z0-9_]+)\s*(?:#.*)?$")


def generic_selects(kconfig: Path) -> dict[str, set[str]]:
    """symbol -> the symbols it selects without a condition, in a Kconfig
    file of the kernel tree (arch/Kconfig: ARCH_WANT_DEFAULT_TOPDOWN_MMAP_LAYOUT
    selects ARCH_HAS_ELF_RANDOMIZE). A select with ``if`` is left out: its
    condition is not evaluated."""
    try:
        lines = Path(kconfig).read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise FeaturesError(f"{kconfig}: cannot read: {exc.strerror}") from None
    out: dict[str, set[str]] = {}
    current = None
    for line in lines:
        m = _CONFIG.match(line)
        if m:
            current = m.group(1)
            continue
        m = _SELECT_PLAIN.match(line)
        if m and current:
            out.setdefault(current, set()).add(m.group(1))
    return out


def close_selects(symbols: set[str], selects: dict[str, set[str]]) -> set[str]:
    """``symbols`` and every symbol they select, transitively."""
    out, todo = set(symbols), list(symbols)
    while todo:
        for sel in selects.get(todo.pop(), ()):
            if sel not in out:
                out.add(sel)
                todo.append(sel)
    return out


_TERM = re.compile(r"^(!?)\s*([A-Za-z0-9_]+)$")


def evaluate(expr: str, symbols: set[str]) -> bool:
    """A feature's Kconfig expression against the arch's symbols: a symbol,
    ``!SYMBOL``, or terms joined by ``&&`` / ``||`` (``&&`` binds tighter)."""
    def term(t: str) -> bool:
        m = _TERM.match(t.strip())
        if not m:
            raise FeaturesError(f"cannot evaluate Kconfig expression {expr!r}")
        return (m.group(2) in symbols) != bool(m.group(1))
    return any(all(term(t) for t in alt.split("&&")) for alt in expr.split("||"))


@dataclass
class Table:
    arch: str
    peers: list
    rows: list            # (Feature, arch status)

    def count(self, arch: str) -> int:
        if arch == self.arch:
            return sum(1 for _, st in self.rows if st == "ok")
        return sum(1 for f, _ in self.rows if f.status.get(arch) == "ok")


def feature_table(features: list[Feature], symbols: set[str], arch: str,
                  peers=DEFAULT_PEERS) -> Table:
    known = set().union(*(f.status for f in features))
    missing = [p for p in peers if p not in known]
    if missing:
        raise FeaturesError(f"peer arch {', '.join(missing)} is in no feature table "
                            f"(known: {', '.join(sorted(known))})")
    rows = [(f, "ok" if evaluate(f.kconfig, symbols) else "TODO") for f in features]
    return Table(arch, list(peers), rows)


def format_table(table: Table) -> str:
    cols = [table.arch] + table.peers
    name_w = max(len(f"{f.subsystem}/{f.name}") for f, _ in table.rows)
    sym_w = max(len(f.kconfig) for f, _ in table.rows)
    widths = [max(len(c), 4) for c in cols]
    head = (f"{'feature':<{name_w}}  {'Kconfig':<{sym_w}}  "
            + "  ".join(f"{c:<{w}}" for c, w in zip(cols, widths)))
    out = [head.rstrip(), "-" * len(head.rstrip())]
    for f, st in table.rows:
        vals = [st] + [f.status.get(p, "?") for p in table.peers]
        out.append((f"{f.subsystem + '/' + f.name:<{name_w}}  {f.kconfig:<{sym_w}}  "
                    + "  ".join(f"{v:<{w}}" for v, w in zip(vals, widths))).rstrip())
    total = len(table.rows)
    out.append("")
    out.append(f"{table.arch} {table.count(table.arch)}/{total}, "
               + ", ".join(f"{p} {table.count(p)}" for p in table.peers))
    return "\n".join(out) + "\n"


def features_report(ksrc: Path, files: dict, arch: str, peers=DEFAULT_PEERS) -> str:
    """The table for the arch whose rendered files (path -> text) are given,
    from the kernel tree ksrc: its Documentation/features, and arch/Kconfig
    for what the arch's selects select in turn."""
    ksrc = Path(ksrc)
    features = read_features(ksrc / "Documentation" / "features")
    symbols = close_selects(arch_symbols(files, arch), generic_selects(ksrc / "arch" / "Kconfig"))
    return format_table(feature_table(features, symbols, arch, peers))
