"""Jinja filters and global helpers for kernel-source generation.

Each filter raises ``FilterError`` (reported with the template line, exit 2)
on input it cannot handle, instead of producing a wrong constant.
"""

from __future__ import annotations

import re
from typing import Any


class FilterError(ValueError):
    """Bad input to a filter; message names the filter."""


def _int(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FilterError(f"{name}: expected an integer, got {value!r}")
    return value


def hex_(value: Any, width: int = 8) -> str:
    """``0x%0{width}x``: {{ 4096|hex }} -> 0x00001000, {{ 4096|hex(0) }} -> 0x1000."""
    n = _int(value, "hex")
    if n < 0:
        raise FilterError(f"hex: negative value {n}")
    return f"0x{n:0{width}x}"


def hexu(value: Any, width: int = 8) -> str:
    """Like hex with uppercase digits: {{ 0xc0000000|hexu }} -> 0xC0000000."""
    n = _int(value, "hexu")
    if n < 0:
        raise FilterError(f"hexu: negative value {n}")
    return f"0x{n:0{width}X}"


def log2(value: Any) -> int:
    """Exact base-2 logarithm: {{ 4096|log2 }} -> 12; error if not a power of two."""
    n = _int(value, "log2")
    if n <= 0 or n & (n - 1):
        raise FilterError(f"log2: {n} is not a power of two")
    return n.bit_length() - 1


def c_ident(value: Any) -> str:
    """Make a C identifier: {{ "my-board"|c_ident }} -> my_board."""
    s = re.sub(r"[^A-Za-z0-9_]", "_", str(value))
    return "_" + s if not s or s[0].isdigit() else s


def c_macro(value: Any) -> str:
    """c_ident, uppercased: {{ "my-uart"|c_macro }} -> MY_UART."""
    return c_ident(value).upper()


def bit(value: Any) -> int:
    """1 << n."""
    return 1 << _int(value, "bit")


def bits(values: Any) -> int:
    """Mask of a list of bit numbers: {{ [31, 30]|bits|hex }} -> 0xc0000000."""
    if isinstance(values, int):
        values = [values]
    mask = 0
    for v in values:
        mask |= 1 << _int(v, "bits")
    return mask


def mask(width: Any, lsb: Any = 0) -> int:
    """Mask of ``width`` bits from ``lsb``: {{ 19|mask }} -> 0x7ffff, {{ 8|mask(8) }} -> 0xff00."""
    return ((1 << _int(width, "mask")) - 1) << _int(lsb, "mask")


def field_mask(field: Any) -> int:
    """Mask of a {lsb, width} field: {{ mmu.pte1_ppn|field_mask|hex }}."""
    try:
        return mask(field["width"], field["lsb"])
    except (KeyError, TypeError):
        raise FilterError(f"field_mask: expected a mapping with lsb and width, got {field!r}") from None


def bit_list(value: Any) -> list[int]:
    """Bit numbers set in an integer, lowest first: {{ 6|bit_list }} -> [1, 2]."""
    n = _int(value, "bit_list")
    return [i for i in range(n.bit_length()) if n >> i & 1]


def align_up(value: Any, alignment: Any) -> int:
    """Round up to a multiple of ``alignment``."""
    v, a = _int(value, "align_up"), _int(alignment, "align_up")
    if a <= 0:
        raise FilterError(f"align_up: bad alignment {a}")
    return -(-v // a) * a


def align_down(value: Any, alignment: Any) -> int:
    """Round down to a multiple of ``alignment``."""
    v, a = _int(value, "align_down"), _int(alignment, "align_down")
    if a <= 0:
        raise FilterError(f"align_down: bad alignment {a}")
    return v // a * a


def human_size(value: Any) -> str:
    """Short binary size: 4096 -> 4K, 268435456 -> 256M, 1000 -> 1000."""
    n = _int(value, "human_size")
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


def sz(value: Any) -> str:
    """Kernel <linux/sizes.h> name: {{ 268435456|sz }} -> SZ_256M (sizes without a name: error)."""
    n = _int(value, "sz")
    name = human_size(n)
    if n <= 0 or n & (n - 1) or not name[-1].isalpha():
        raise FilterError(f"sz: {n} has no SZ_* name")
    return "SZ_" + name


def cells(value: Any, count: Any = 1) -> str:
    """Device-tree cells of a number: {{ 0x10000000|cells(2) }} -> 0x0 0x10000000."""
    n, c = _int(value, "cells"), _int(count, "cells")
    if n >> (32 * c):
        raise FilterError(f"cells: {n:#x} does not fit in {c} cell(s)")
    return " ".join(f"0x{(n >> (32 * i)) & 0xFFFFFFFF:x}" for i in reversed(range(c)))


def c_string(value: Any) -> str:
    """C (and dts) string literal with quotes: {{ 'a"b'|c_string }} -> "a\\"b"."""
    s = str(value)
    out = []
    for ch in s:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\{ord(ch):03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def tab_to(value: Any, column: Any = 24) -> str:
    """Append tabs so the next text starts at ``column`` (tabs of 8, at least one):
    {{ "#define PAGE_SHIFT"|tab_to(32) }}12 -- kernel-style aligned defines."""
    s = str(value)
    col = _int(column, "tab_to")
    width = len(s.expandtabs(8))
    tabs = max(1, -(-(col - width) // 8)) if col > width else 1
    return s + "\t" * tabs


def kconfig_bool(value: Any) -> str:
    """True/False -> y/n."""
    if not isinstance(value, bool):
        raise FilterError(f"kconfig_bool: expected true or false, got {value!r}")
    return "y" if value else "n"


def c_bool(value: Any) -> str:
    """True/False -> 1/0."""
    if not isinstance(value, bool):
        raise FilterError(f"c_bool: expected true or false, got {value!r}")
    return "1" if value else "0"


def is_power_of_two(value: Any) -> bool:
    """Jinja test: {% if x is power_of_two %}."""
    return isinstance(value, int) and not isinstance(value, bool) and value > 0 and not value & (value - 1)


FILTERS = {
    "hex": hex_,
    "hexu": hexu,
    "log2": log2,
    "c_ident": c_ident,
    "c_macro": c_macro,
    "bit": bit,
    "bits": bits,
    "mask": mask,
    "field_mask": field_mask,
    "bit_list": bit_list,
    "align_up": align_up,
    "align_down": align_down,
    "human_size": human_size,
    "sz": sz,
    "cells": cells,
    "c_string": c_string,
    "tab_to": tab_to,
    "kconfig_bool": kconfig_bool,
    "c_bool": c_bool,
}

TESTS = {"power_of_two": is_power_of_two}

#: Also callable as functions in templates: {{ mask(19) }}, {{ bit(31) }}.
GLOBAL_FUNCTIONS = {name: FILTERS[name] for name in
                    ("bit", "bits", "mask", "field_mask", "align_up", "align_down", "log2")}
