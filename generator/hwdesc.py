"""--hwdesc: the hardware description of a spec's board, for code outside the kernel.

``generate.py SPEC --hwdesc OUTDIR`` writes into OUTDIR:

``hwdesc.h``
    one header for C and assembler (only ``#define``s; numbers that C must
    see as unsigned go through ``HWDESC_U()``): the memory map, every
    device's base, size, interrupts and properties (``<DEVICE>_BASE``, ...),
    the device register maps the layers declare (``<PREFIX>_<REGISTER>``),
    the page-table geometry, PTE bits, MMU fault codes, mode bits and CP2
    register numbers (``mmu``), and the CP0 register numbers, fields and
    exception codes (``isa.cp0``);
``<platform>.dts``
    the spec's device tree, the very file the kernel's ``boot/dts`` gets
    (rendered by the same template and layers);
``hwdesc_dtb.c``
    that device tree compiled with dtc, as a C array (``hwdesc_dtb``,
    ``hwdesc_dtb_size``), for a program that needs a built-in board.

Register maps are board knowledge, so they live in the layer that drives the
devices, next to its ``layer.yaml``, in ``_registers.yaml`` (a ``_`` file is
never copied into the kernel tree), per compatible string::

    vendor,uart:
      prefix: UART                  # macro prefix
      doc: the UART (hardware reference 4.1)
      registers:                    # byte offsets from the device's base
        data: {offset: 0x0, doc: W: transmit, R: receive}
        status: 0x4
      values:                       # other numbers of its interface
        status_rx_ready: {value: 0x1, doc: a character is waiting}

A device of the spec uses the map of its first compatible string that a
layer declares (a higher layer's map replaces a lower one's). Files are
rewritten only when their text changes. Nothing here names a board: the
names come from the spec and the layers.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from . import yamlio
from .atomic import write_if_changed
from .errors import ErrorList, SpecError, plural

REGISTERS_FILE = "_registers.yaml"
MAP_KEYS = ("prefix", "doc", "registers", "values")
MACRO = re.compile(r"[A-Z][A-Z0-9_]*")
NAME = re.compile(r"[a-z][a-z0-9_]*")


class HwdescError(ErrorList):
    """A register map is malformed, or two facts would get the same macro name."""

    def __init__(self, messages: list[str]):
        super().__init__(messages, f"{plural(len(messages), 'error')} in the hardware "
                         "description; nothing written.")


def _macro(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]", "_", str(name)).upper()


def _entry(raw: Any, key: str) -> tuple[Any, str]:
    """A register or value: a bare integer, or {offset|value: n, doc: text}."""
    if isinstance(raw, dict):
        return raw.get(key), str(raw.get("doc") or "")
    return raw, ""


def read_register_maps(layers) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """compatible -> {prefix, doc, registers: [(name, offset, doc)], values: [...], where}
    over the layers (a higher layer's map wins), and the problems found."""
    maps: dict[str, dict[str, Any]] = {}
    problems: list[str] = []
    for layer in layers:
        path = Path(layer.path) / REGISTERS_FILE
        if not path.is_file():
            continue
        shown = f"{layer.display}/{REGISTERS_FILE}"
        try:
            raw = yamlio.load_plain(path, shown, REGISTERS_FILE) or {}
        except SpecError as exc:
            problems += [str(d) for d in exc.diagnostics]
            continue
        if not isinstance(raw, dict):
            problems.append(f"{shown}: expected a mapping of compatible strings")
            continue
        for compat, body in raw.items():
            where = f"{shown}: {compat}"
            if not isinstance(body, dict):
                problems.append(f"{where}: expected a mapping with keys {', '.join(MAP_KEYS)}")
                continue
            bad = [k for k in body if k not in MAP_KEYS]
            if bad:
                problems.append(f"{where}: unknown key '{bad[0]}'; allowed: {', '.join(MAP_KEYS)}")
            prefix = body.get("prefix")
            if not isinstance(prefix, str) or not MACRO.fullmatch(prefix):
                problems.append(f"{where}: prefix: expected an upper-case C identifier")
                continue
            entry = {"prefix": prefix, "doc": str(body.get("doc") or ""), "where": shown,
                     "compatible": str(compat),
                     "registers": [], "values": []}
            for section, key in (("registers", "offset"), ("values", "value")):
                table = body.get(section) or {}
                if not isinstance(table, dict):
                    problems.append(f"{where}: {section}: expected a mapping of names")
                    continue
                for name, item in table.items():
                    value, doc = _entry(item, key)
                    if not isinstance(name, str) or not NAME.fullmatch(name):
                        problems.append(f"{where}: {section}: '{name}': a name is a lower-case "
                                        "identifier")
                    elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
                        problems.append(f"{where}: {section}: {name}: expected a non-negative "
                                        f"integer{' (' + key + ':)' if isinstance(item, dict) else ''}"
                                        f", found {value!r}")
                    else:
                        entry[section].append((name, value, doc))
            maps[str(compat)] = entry
    return maps, problems


def _kernel_u(v: int) -> str:
    """An unsigned constant for the kernel's C and assembler (linux/const.h)."""
    return f"_AC({_hex(v)}, U)" if v <= 0xFFFFFFFF else f"_AC({_hex(v)}, ULL)"


def register_macros(rmap: dict[str, Any], unsigned=None) -> list[tuple[str, str, str]]:
    """(macro, value, doc) of a register map: its offsets, then its other values.
    The emulator's hwdesc.h and the kernel's generated header share these names;
    ``unsigned`` spells a constant above INT_MAX for the header's users."""
    unsigned = unsigned or _u
    prefix = rmap["prefix"]
    out = [(f"{prefix}_{_macro(name)}", _hex(off), doc) for name, off, doc in rmap["registers"]]
    for name, value, doc in rmap["values"]:
        text = str(value) if value < 256 else unsigned(value) if value > 0x7FFFFFFF else _hex(value)
        out.append((f"{prefix}_{_macro(name)}", text, doc))
    return out


def kernel_register_maps(project) -> list[dict[str, Any]]:
    """Every register map of the layer stack, for the kernel's generated header:
    [{prefix, doc, where, compatible, macros: [(macro, value, doc)]}], by prefix.
    All of them, not only the spec's devices: a layer's driver is built whether
    or not the board has the device."""
    maps, problems = read_register_maps(project.layers)
    by_prefix: dict[str, dict[str, Any]] = {}
    for rmap in maps.values():
        other = by_prefix.get(rmap["prefix"])
        if other is not None:
            problems.append(f"{rmap['where']}: {rmap['compatible']}: prefix {rmap['prefix']} "
                            f"is also {other['compatible']}'s ({other['where']})")
            continue
        by_prefix[rmap["prefix"]] = dict(rmap, macros=register_macros(rmap, _kernel_u))
    if problems:
        raise HwdescError(problems)
    return [by_prefix[p] for p in sorted(by_prefix)]


def register_map_of(maps: dict[str, dict[str, Any]], dev: dict[str, Any]) -> dict[str, Any] | None:
    for compat in dev.get("compatible") or ():
        if compat in maps:
            return maps[compat]
    return None


class _Header:
    """The lines of hwdesc.h, refusing a macro name given twice."""

    def __init__(self):
        self.lines: list[str] = []
        self.defined: dict[str, str] = {}
        self.problems: list[str] = []

    def section(self, title: str) -> None:
        self.lines += ["", f"/* {title} */"]

    def define(self, name: str, value: str, origin: str, doc: str = "") -> None:
        if name in self.defined:
            self.problems.append(f"{origin}: macro {name} is also {self.defined[name]}")
            return
        self.defined[name] = origin
        text = f"#define {name} {value}"
        if doc:
            doc = doc.replace("*/", "* /")
            text = f"{text:<48} /* {doc} */" if len(text) < 48 else f"{text} /* {doc} */"
        self.lines.append(text)


def _hex(v: int) -> str:
    return f"0x{v:x}"


def _u(v: int) -> str:
    """An unsigned 32-bit (or wider) constant, for C and the assembler alike."""
    return f"HWDESC_U({_hex(v)})" if v <= 0xFFFFFFFF else f"HWDESC_ULL({_hex(v)})"


def _field_mask(f: dict[str, Any]) -> int:
    return ((1 << f.get("width", 1)) - 1) << f["lsb"]


def header_text(project, source_files: list[str]) -> str:
    spec = project.spec
    data = spec.data
    isa, mmu, plat = data["isa"], data["mmu"], data["platform"]
    h = _Header()
    sp = project.spec_display

    # --- memory map and board
    h.section(f"Board: {plat['name']} ({plat['model']})")
    h.define("HW_CPUS", str(plat["cpus"]["count"]), f"{sp}: platform.cpus.count")
    h.define("HW_CLOCK_HZ", str(plat["clock_hz"]), f"{sp}: platform.clock_hz")
    banks = sorted(plat["memory"], key=lambda b: b["base"])
    h.define("HW_RAM_BANKS", str(len(banks)), f"{sp}: platform.memory")
    for i, b in enumerate(banks):
        h.define(f"HW_RAM{i}_BASE", _u(b["base"]), f"{sp}: platform.memory[{i}]")
        h.define(f"HW_RAM{i}_SIZE", _u(b["size"]), f"{sp}: platform.memory[{i}]")

    # --- devices: instances (the spec), then register maps (the layers)
    maps, problems = read_register_maps(project.layers)
    h.problems += problems
    used_maps: dict[str, dict[str, Any]] = {}
    for i, dev in enumerate(plat["devices"] or []):
        name = _macro(dev["name"])
        origin = f"{sp}: platform.devices[{i}] ({dev['name']})"
        h.section(f"Device {dev['name']}: {', '.join(dev['compatible'])}")
        h.define(f"{name}_BASE", _u(dev["base"]), origin)
        h.define(f"{name}_SIZE", _u(dev["size"]), origin)
        irqs = dev.get("interrupts") or []
        if len(irqs) == 1:
            h.define(f"{name}_IRQ", str(irqs[0]), origin, "interrupt controller input")
        for j, irq in enumerate(irqs if len(irqs) > 1 else ()):
            h.define(f"{name}_IRQ{j}", str(irq), origin, "interrupt controller input")
        for key, value in (dev.get("properties") or {}).items():
            if isinstance(value, bool):
                value = int(value)
            if isinstance(value, int):
                h.define(f"{name}_{_macro(key)}", str(value), f"{origin}.properties.{key}")
        rmap = register_map_of(maps, dev)
        if rmap is not None:
            used_maps.setdefault(rmap["prefix"], rmap)
    for prefix, rmap in sorted(used_maps.items()):
        h.section(f"Registers of {rmap['prefix']}: {rmap['doc']} ({rmap['where']})"
                  if rmap["doc"] else f"Registers of {rmap['prefix']} ({rmap['where']})")
        h.define(f"{prefix}_COMPATIBLE", f'"{rmap["compatible"]}"', rmap["where"],
                 "device-tree compatible string")
        for macro, text, doc in register_macros(rmap):
            h.define(macro, text, rmap["where"], doc)
        # The device-tree properties of its binding (the layer's layer.yaml).
        binding = (project.bindings or {}).get(rmap["compatible"])
        for prop in (binding.properties.values() if binding else ()):
            if prop.dts:
                h.define(f"{prefix}_DT_{_macro(prop.name)}", f'"{prop.dts}"', binding.where,
                         f"device-tree property: {prop.doc}" if prop.doc else
                         "device-tree property")

    # --- MMU: page tables, PTE bits, fault codes, CP2
    h.section("MMU: page size and page tables (mmu)")
    page_shift = mmu["page_size"].bit_length() - 1
    h.define("MMU_PAGE_SHIFT", str(page_shift), f"{sp}: mmu.page_size")
    h.define("MMU_PAGE_SIZE", _u(mmu["page_size"]), f"{sp}: mmu.page_size")
    h.define("MMU_PHYS_ADDR_BITS", str(mmu["phys_addr_bits"]), f"{sp}: mmu.phys_addr_bits")
    if mmu.get("big_page_size"):
        h.define("MMU_BIG_PAGE_SHIFT", str(mmu["big_page_size"].bit_length() - 1),
                 f"{sp}: mmu.big_page_size")
        h.define("MMU_BIG_PAGE_SIZE", _u(mmu["big_page_size"]), f"{sp}: mmu.big_page_size")
    if mmu.get("ptpr_shift"):
        h.define("MMU_PTPR_SHIFT", str(mmu["ptpr_shift"]), f"{sp}: mmu.ptpr_shift",
                 "PTPR = physical address of the first-level table >> this")
    for i, level in enumerate(mmu.get("levels") or []):
        p = _macro(level["name"])
        origin = f"{sp}: mmu.levels[{i}]"
        h.define(f"{p}_ENTRIES", str(level["entries"]), origin)
        h.define(f"{p}_ENTRY_BYTES", str(level["entry_bits"] // 8), origin)
        h.define(f"{p}_ALIGN", _u(level["align"]), origin)
    for key in ("pte1_ppn", "ptd1_ptpn", "pte2_ppn"):
        f = mmu.get(key)
        if f:
            p = _macro(key)
            h.define(f"{p}_LSB", str(f["lsb"]), f"{sp}: mmu.{key}")
            h.define(f"{p}_MASK", _u(_field_mask(f)), f"{sp}: mmu.{key}")
            h.define(f"{p}_WORD", str(f.get("word", 0)), f"{sp}: mmu.{key}",
                     "32-bit word of the entry holding it")
    bits = sorted((mmu.get("pte_bits") or {}).items(), key=lambda kv: (-kv[1]["bit"], kv[0]))
    if bits:
        h.section("PTE flag bits (mmu.pte_bits): PTE_<hardware letter>, PTE_SW_<name>")
        for name, b in bits:
            macro = f"PTE_{_macro(b['hw'])}" if b.get("hw") else f"PTE_SW_{_macro(name)}"
            h.define(macro, _u(1 << b["bit"]), f"{sp}: mmu.pte_bits.{name}",
                     name + (f": {b['doc']}" if b.get("doc") else ""))
    if mmu.get("fault_codes"):
        h.section("MMU fault types in IETR/DETR (mmu.fault_codes)")
        for name, v in sorted(mmu["fault_codes"].items(), key=lambda kv: (kv[1], kv[0])):
            macro = "MMU_FAULT_READ" if name == "read_flag" else f"MMU_FAULT_{_macro(name)}"
            h.define(macro, _u(v), f"{sp}: mmu.fault_codes.{name}")
    if mmu.get("mode_bits"):
        h.section("MMU MODE register bits (mmu.mode_bits)")
        for name, b in sorted(mmu["mode_bits"].items(), key=lambda kv: (kv[1], kv[0])):
            h.define(f"MMU_MODE_{_macro(name)}", _u(1 << b), f"{sp}: mmu.mode_bits.{name}")
        h.define("MMU_MODE_ALL", _u(sum(1 << b for b in mmu["mode_bits"].values())),
                 f"{sp}: mmu.mode_bits")
    if mmu.get("cp2_registers"):
        h.section("CP2 register numbers (mmu.cp2_registers): mtc2/mfc2 rt, $<n>")
        for name, n in sorted(mmu["cp2_registers"].items(), key=lambda kv: (kv[1], kv[0])):
            h.define(f"CP2_{_macro(name)}", str(n), f"{sp}: mmu.cp2_registers.{name}")

    # --- CP0
    cp0 = isa.get("cp0") or {}
    if cp0.get("registers"):
        h.section("CP0 registers (isa.cp0.registers): CP0_<name>_REG, CP0_<name>_SEL")
        for name, (reg, sel) in sorted(cp0["registers"].items(), key=lambda kv: (kv[1], kv[0])):
            h.define(f"CP0_{_macro(name)}_REG", str(reg), f"{sp}: isa.cp0.registers.{name}")
            h.define(f"CP0_{_macro(name)}_SEL", str(sel), f"{sp}: isa.cp0.registers.{name}")
    if cp0.get("prid") is not None:
        h.define("CP0_PRID_VALUE", _u(cp0["prid"]), f"{sp}: isa.cp0.prid")
    for group in ("status_fields", "cause_fields"):
        fields = cp0.get(group) or {}
        if fields:
            reg = group.split("_")[0].upper()
            h.section(f"CP0 {reg.capitalize()} fields (isa.cp0.{group})")
            for name, f in sorted(fields.items(), key=lambda kv: (kv[1]["lsb"], kv[0])):
                h.define(f"CP0_{reg}_{_macro(name)}", _u(_field_mask(f)),
                         f"{sp}: isa.cp0.{group}.{name}")
                h.define(f"CP0_{reg}_{_macro(name)}_SHIFT", str(f["lsb"]),
                         f"{sp}: isa.cp0.{group}.{name}")
    if cp0.get("ebase_cpunum"):
        h.define("CP0_EBASE_CPUNUM", _u(_field_mask(cp0["ebase_cpunum"])),
                 f"{sp}: isa.cp0.ebase_cpunum")
    if cp0.get("hw_irq_lines") is not None:
        h.define("CP0_HW_IRQ_LINES", str(cp0["hw_irq_lines"]), f"{sp}: isa.cp0.hw_irq_lines")
    if cp0.get("general_vector_offset") is not None:
        h.define("CP0_GENERAL_VECTOR_OFFSET", _hex(cp0["general_vector_offset"]),
                 f"{sp}: isa.cp0.general_vector_offset")
    pmu = cp0.get("pmu") or {}
    h.section("Performance counters (isa.cp0.pmu)")
    h.define("CP0_PMU_COUNTERS", str(pmu.get("counters") or 0),
             f"{sp}: isa.cp0.pmu.counters" + ("" if pmu else " (no pmu: none)"))
    if pmu.get("counters"):
        h.define("CP0_PMU_IRQ_LINE", str(pmu["irq_line"]), f"{sp}: isa.cp0.pmu.irq_line")
        for name, f in sorted(pmu["control_fields"].items(), key=lambda kv: (kv[1]["lsb"], kv[0])):
            h.define(f"CP0_PERFCTL_{_macro(name)}", _u(_field_mask(f)),
                     f"{sp}: isa.cp0.pmu.control_fields.{name}")
            h.define(f"CP0_PERFCTL_{_macro(name)}_SHIFT", str(f["lsb"]),
                     f"{sp}: isa.cp0.pmu.control_fields.{name}")
        for name, v in sorted(pmu["events"].items(), key=lambda kv: (kv[1], kv[0])):
            h.define(f"CP0_PMU_EVENT_{_macro(name)}", str(v), f"{sp}: isa.cp0.pmu.events.{name}")
    if cp0.get("exception_codes"):
        h.section("Exception codes (isa.cp0.exception_codes)")
        for name, v in sorted(cp0["exception_codes"].items(), key=lambda kv: (kv[1], kv[0])):
            h.define(f"CP0_EXC_{_macro(name)}", str(v), f"{sp}: isa.cp0.exception_codes.{name}")

    if h.problems:
        raise HwdescError(h.problems)
    made_from = ", ".join(source_files)
    head = [
        "/*",
        f" * Generated by generate.py --hwdesc from {made_from}: do not edit.",
        " * The board's hardware facts for C and assembler: change the spec, or the",
        " * register maps of the layers (_registers.yaml), and build again.",
        " */",
        "#ifndef HWDESC_H",
        "#define HWDESC_H",
        "",
        "#ifdef __ASSEMBLER__",
        "#define HWDESC_U(x) x",
        "#define HWDESC_ULL(x) x",
        "#else",
        "#define HWDESC_U(x) x##u",
        "#define HWDESC_ULL(x) x##ull",
        "#endif",
    ]
    return "\n".join(head + h.lines + ["", "#endif /* HWDESC_H */", ""])


def dtb_c_text(dtb: bytes, dts_name: str) -> str:
    rows = [", ".join(f"0x{b:02x}" for b in dtb[i:i + 12]) for i in range(0, len(dtb), 12)]
    return "".join([
        f"/* Generated by generate.py --hwdesc: {dts_name} compiled by dtc. Do not edit. */\n",
        "#include <stddef.h>\n\n",
        "const unsigned char hwdesc_dtb[] __attribute__((aligned(8))) = {\n",
        "".join(f"    {r},\n" for r in rows),
        "};\n",
        "const size_t hwdesc_dtb_size = sizeof hwdesc_dtb;\n",
    ])


def compile_dts(dts_text: str, name: str, dtc: str = "dtc") -> bytes:
    if not shutil.which(dtc):
        raise HwdescError([f"{dtc} (the device-tree compiler) is not installed: it compiles "
                           f"{name} into the built-in DTB (Debian: device-tree-compiler)"])
    r = subprocess.run([dtc, "-q", "-I", "dts", "-O", "dtb", "-o", "-", "-"],
                       input=dts_text.encode("utf-8"), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    if r.returncode:
        raise HwdescError([f"dtc failed on {name}: {r.stderr.decode(errors='replace').strip()}"])
    return r.stdout


def write_hwdesc(project, outdir: Path, quiet: bool = False) -> int:
    """Render and write the three files; returns how many changed."""
    from .layers import check_contract  # noqa: PLC0415
    from .render import Renderer  # noqa: PLC0415

    # A board is described before the kernel runs on it (a mesh the kernel
    # layers do not implement yet still gets its DTB and hwdesc.h).
    check_contract(project, kernel=False)
    files = Renderer(project).render_tree()
    data = project.spec.data
    dts_rel = f"arch/{project.arch}/boot/dts/{data['platform']['name']}.dts"
    if dts_rel not in files:
        raise HwdescError([f"the spec produces no {dts_rel}: nothing to describe the board with"])
    dts_text = files[dts_rel].data.decode("utf-8")
    dts_name = f"{data['platform']['name']}.dts"
    from .render import rel_display  # noqa: PLC0415

    sources = [rel_display(path, project.root) for path in project.spec.chain.values()]
    outputs = {
        "hwdesc.h": header_text(project, sources).encode("utf-8"),
        dts_name: dts_text.encode("utf-8"),
        "hwdesc_dtb.c": dtb_c_text(compile_dts(dts_text, dts_name), dts_name).encode("utf-8"),
    }
    outdir.mkdir(parents=True, exist_ok=True)
    changed = 0
    for name, text in outputs.items():
        if write_if_changed(outdir / name, text):
            changed += 1
            if not quiet:
                print(f"wrote   {outdir / name}")
    return changed


def main(argv: list[str], root: Path) -> int:
    """``generate.py SPEC --hwdesc OUTDIR [--quiet]`` (the hook in generate.py)."""
    import argparse  # noqa: PLC0415

    from .errors import PortkitError as _Err  # noqa: PLC0415
    from .render import Project  # noqa: PLC0415
    from .spec import load_spec  # noqa: PLC0415

    p = argparse.ArgumentParser(prog="generate.py SPEC --hwdesc",
                                description="Write the board's hardware description (hwdesc.h, "
                                            "the DTS and the DTB as C data) into OUTDIR.")
    p.add_argument("spec")
    p.add_argument("--hwdesc", metavar="OUTDIR", required=True)
    p.add_argument("--quiet", "-q", action="store_true")
    args = p.parse_args(argv)
    try:
        spec = load_spec(Path(args.spec), display=args.spec)
        write_hwdesc(Project(root, spec), Path(args.hwdesc), quiet=args.quiet)
    except _Err as exc:
        print(str(exc), file=__import__("sys").stderr)
        return exc.exit_code
    return 0
