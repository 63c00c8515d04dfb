"""Cross-field consistency rules of the spec.

One small function per rule, registered with ``@rule``; each receives the
normalized spec data and a ``report(path, message)`` callback. A message says
what is wrong (with the numbers) and, after a newline, ``why:`` it matters.
To add a rule, write another decorated function: nothing else to change.

Rules may assume the schema held (types, required keys) when the schema walk
found no error; when it did, a rule tripping over a missing value is skipped,
so that all independent problems are still reported in one run.

Rules over lists (devices, banks, windows) stay O(n log n): YAML aliases let
a small file repeat one device thousands of times, and a pairwise check
would then take minutes and report millions of pairs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import Diagnostic
from .families import family_of

Report = Callable[[str, str], None]
RULES: list[Callable[[dict[str, Any], Report], None]] = []


def rule(fn):
    RULES.append(fn)
    return fn


def run_checks(spec, partial: bool = False) -> list[Diagnostic]:
    """Run every rule; with ``partial`` (schema errors exist) skip rules that crash."""
    out: list[Diagnostic] = []

    def report(path: str, message: str) -> None:
        out.append(spec.diag(path, message))

    for fn in RULES:
        try:
            fn(spec.data, report)
        except (TypeError, KeyError, ValueError, AttributeError, IndexError, ZeroDivisionError):
            if not partial:
                raise
    return out


def is_pow2(n: int) -> bool:
    return isinstance(n, int) and n > 0 and n & (n - 1) == 0


def log2(n: int) -> int:
    return n.bit_length() - 1


def h(n: int) -> str:
    return f"0x{n:x}"


def size_str(n: int) -> str:
    for unit, shift in (("G", 30), ("M", 20), ("K", 10)):
        if n and n % (1 << shift) == 0:
            return f"{n >> shift}{unit}"
    return str(n)


# --- ISA ---------------------------------------------------------------------

@rule
def word_bits_32(d, report):
    wb = d["isa"]["word_bits"]
    if wb != 32:
        report("isa.word_bits", f"only 32-bit processors are supported for now, found {wb}\n"
               "why: the page-table geometry, the one-word pt_regs slots and the o32 "
               "syscall ABI that portkit handles all assume 32-bit words")


@rule
def family_has_endianness(d, report):
    isa, fam = d["isa"], family_of(d)
    if fam is not None and fam.endian(isa["endianness"]) is None:
        report("isa.endianness", f"isa.family {fam.name} has no {isa['endianness']}-endian "
               f"variant (it has: {', '.join(fam.endianness)})\n"
               "why: generator/families.yaml gives each byte order's toolchain")


@rule
def endianness_stated_once(d, report):
    isa, fam = d["isa"], family_of(d)
    if fam is None or fam.endian(isa["endianness"]) is None:
        return
    for key in ("cflags", "aflags"):
        for i, flag in enumerate(isa[key]):
            if flag in fam.endian_flags:
                report(f"isa.{key}[{i}]", f"'{flag}' is derived from isa.endianness "
                       f"({isa['endianness']}); remove it\nwhy: one fact, one place")
    emulations = {e["ld_emulation"] for e in fam.endianness.values()}
    for i, flag in enumerate(isa["ldflags"]):
        if flag == "-m" or flag in fam.endian_flags or flag in emulations \
                or (flag or "").startswith("elf32"):
            report(f"isa.ldflags[{i}]", f"'{flag}': the linker emulation is derived from "
                   f"isa.endianness ({isa['endianness']}); remove it")
    # A prefix naming one of the family's other byte orders (mips- for a
    # little-endian mips32, whose prefixes are mipsel-...).
    stems = {order: {p.split("-")[0] for p in e["cross_compile"]}
             for order, e in fam.endianness.items()}
    own = stems[isa["endianness"]]
    other = set().union(*stems.values()) - own
    want = fam.endian(isa["endianness"])["cross_compile"][0].split("-")[0]
    for i, prefix in enumerate(isa["cross_compile"] or []):
        if prefix.split("-")[0] in other:
            report(f"isa.cross_compile[{i}]", f"'{prefix}' builds for the other byte order "
                   f"(isa.endianness is {isa['endianness']}: {want}-...)")


@rule
def cache_line_pow2(d, report):
    n = d["isa"]["l1_cache_line"]
    if not is_pow2(n):
        report("isa.l1_cache_line", f"cache line size {n} is not a power of two\n"
               "why: L1_CACHE_SHIFT = log2(line size) must be exact")


# --- MMU geometry ------------------------------------------------------------

@rule
def page_sizes_pow2(d, report):
    m = d["mmu"]
    for key in ("page_size", "big_page_size"):
        if not is_pow2(m[key]):
            report(f"mmu.{key}", f"{m[key]} ({h(m[key])}) is not a power of two\n"
                   "why: PAGE_SHIFT/PGDIR_SHIFT are log2 of the size and addresses are split "
                   "into index bits")
    for i, lvl in enumerate(m["levels"]):
        if lvl is not None and not is_pow2(lvl["align"]):
            report(f"mmu.levels[{i}].align", f"alignment {lvl['align']} is not a power of two")


@rule
def thread_size_ok(d, report):
    ts, ps = d["abi"]["thread_size"], d["mmu"]["page_size"]
    if not is_pow2(ts) or ts < ps:
        report("abi.thread_size", f"thread_size {size_str(ts)} must be a power of two >= "
               f"page_size ({size_str(ps)})\n"
               "why: kernel stacks are allocated as 2^THREAD_SIZE_ORDER pages and found by "
               "masking the stack pointer with ~(THREAD_SIZE - 1)")


@rule
def levels_geometry(d, report):
    m = d["mmu"]
    pt1, pt2 = m["levels"]
    ps, bps = m["page_size"], m["big_page_size"]
    pt2_bytes = pt2["entries"] * pt2["entry_bits"] // 8
    if pt2_bytes != ps:
        report("mmu.levels[1].entries",
               f"a {pt2['name']} table is {pt2['entries']} x {pt2['entry_bits'] // 8} bytes = "
               f"{pt2_bytes} bytes, but page_size is {ps}\n"
               "why: each second-level table must fill exactly one page (it is allocated "
               "as a page and indexed by the virtual-address bits above PAGE_SHIFT)")
    space = 1 << d["isa"]["word_bits"]
    if pt1["entries"] * bps != space:
        report("mmu.levels[0].entries",
               f"{pt1['name']} entries x big_page_size = {pt1['entries']} x {size_str(bps)} = "
               f"{h(pt1['entries'] * bps)}, but the address space is 2^{d['isa']['word_bits']} "
               f"= {h(space)}\n"
               "why: the first-level table must cover the whole virtual address space")


# --- PTE layout --------------------------------------------------------------

@rule
def pte_bits_in_flag_word(d, report):
    for name, b in d["mmu"]["pte_bits"].items():
        if b is not None and b["bit"] > 31:
            report(f"mmu.pte_bits.{name}.bit", f"bit {b['bit']} exceeds 31\n"
                   "why: PTE flags live in the 32-bit flag word of the entry")


@rule
def pte_bits_distinct(d, report):
    owner: dict[int, str] = {}
    for name, b in d["mmu"]["pte_bits"].items():
        if b is None:
            continue
        if b["bit"] in owner:
            report(f"mmu.pte_bits.{name}.bit",
                   f"bit {b['bit']} is also used by '{owner[b['bit']]}'\n"
                   "why: two flags on one bit cannot be set or tested independently")
        else:
            owner[b["bit"]] = name


@rule
def pte_bits_software_consistent(d, report):
    for name, b in d["mmu"]["pte_bits"].items():
        if b is not None and b["software"] and (b["set_by_hw"] or b["hw"]):
            report(f"mmu.pte_bits.{name}.software",
                   f"'{name}' is marked software: true but also has a hardware name or "
                   "set_by_hw\nwhy: a software bit is one the hardware ignores")


def _field_bits(f: dict[str, int]) -> range:
    return range(f["lsb"], f["lsb"] + f["width"])


@rule
def ppn_fields_fit(d, report):
    m = d["mmu"]
    levels = m["levels"]
    for key, lvl in (("pte1_ppn", levels[0]), ("ptd1_ptpn", levels[0]), ("pte2_ppn", levels[1])):
        f = m[key]
        if f is None:
            continue
        if f["lsb"] + f["width"] > 32:
            report(f"mmu.{key}.width", f"bits {f['lsb']}..{f['lsb'] + f['width'] - 1} exceed "
                   "the 32-bit word\nwhy: each field must fit in one 32-bit word of the entry")
        words = lvl["entry_bits"] // 32
        if f["word"] >= words:
            report(f"mmu.{key}.word", f"word {f['word']} does not exist in a "
                   f"{lvl['entry_bits']}-bit {lvl['name']} entry (words 0..{words - 1})")


def _overlapping_flags(d, field: dict[str, int], keep=lambda name, b: True) -> list[str]:
    """Flags (filtered by ``keep``) whose bit lies inside the bit field."""
    bits = set(_field_bits(field))
    return [f"{name} (bit {b['bit']})" for name, b in d["mmu"]["pte_bits"].items()
            if b is not None and b["bit"] in bits and keep(name, b)]


@rule
def pte1_ppn_clear_of_flags(d, report):
    f = d["mmu"]["pte1_ppn"]
    if f is None or f["word"] != 0:
        return
    hits = _overlapping_flags(d, f, lambda name, b: b["pte1"])
    if hits:
        report("mmu.pte1_ppn", f"PPN bits {f['lsb']}..{f['lsb'] + f['width'] - 1} overlap flag "
               f"bits: {', '.join(hits)}\n"
               "why: a big-page PTE1 holds its flags and its PPN in the same 32-bit word, so "
               "every flag must lie outside the PPN field\n"
               "fix: move the flag, narrow pte1_ppn, or, if the flag only marks non-present "
               "entries (swap, PROT_NONE), say so with 'pte1: false' on it")


@rule
def pte2_ppn_clear_of_flags(d, report):
    f = d["mmu"]["pte2_ppn"]
    if f is None or f["word"] != 0:
        return  # PPN in its own word (the usual case): nothing to collide with
    hits = _overlapping_flags(d, f)
    if hits:
        report("mmu.pte2_ppn", f"PPN bits {f['lsb']}..{f['lsb'] + f['width'] - 1} of word 0 "
               f"overlap flag bits: {', '.join(hits)}\n"
               "why: word 0 of a PTE2 is its flag word")


@rule
def ptd1_ptpn_clear_of_v_t(d, report):
    # The PTPN may cover flag bits: in a PTD only V (present) and T (ptd) are
    # looked at by the walker. Those two must stay outside it.
    f = d["mmu"]["ptd1_ptpn"]
    if f is None or f["word"] != 0:
        return
    hits = _overlapping_flags(d, f, lambda name, b: name in ("present", "ptd"))
    if hits:
        report("mmu.ptd1_ptpn", f"PTPN bits {f['lsb']}..{f['lsb'] + f['width'] - 1} overlap "
               f"{', '.join(hits)}\n"
               "why: the walker reads V and T of a PTD to know it is a valid pointer to a "
               "second-level table (other flag bits may overlap the PTPN)")


@rule
def ppn_fields_cover_phys(d, report):
    m = d["mmu"]
    pab = m["phys_addr_bits"]
    for key, size, what in (("pte1_ppn", m["big_page_size"], "big page"),
                            ("ptd1_ptpn", m["page_size"], "page (second-level table)"),
                            ("pte2_ppn", m["page_size"], "page")):
        if not is_pow2(size) or m[key] is None:
            continue
        reach = m[key]["width"] + log2(size)
        if reach < pab:
            report(f"mmu.{key}.width", f"{m[key]['width']} bits of {what} number reach only "
                   f"2^{reach} bytes, but phys_addr_bits is {pab}\n"
                   "why: every physical address the MMU can emit must be expressible")


# --- Layout ------------------------------------------------------------------

@rule
def virtual_addresses_fit(d, report):
    top = 1 << d["isa"]["word_bits"]
    for key in ("page_offset", "task_size", "kernel_link_address", "fixmap_top"):
        v = d["layout"][key]
        if v >= top:  # 2^32 itself is no 32-bit address
            how = " (page_offset + kernel_phys_start - phys_offset)" \
                if key == "kernel_link_address" else ""
            report(f"layout.{key}", f"{key} {h(v)}{how} is beyond the "
                   f"{d['isa']['word_bits']}-bit virtual address space (highest address "
                   f"{h(top - 1)})")


@rule
def page_offset_aligned(d, report):
    po, bps = d["layout"]["page_offset"], d["mmu"]["big_page_size"]
    if d["layout"]["windows"]:
        return  # lowmem is an unmapped window (window_rules check it)
    if is_pow2(bps) and po % bps:
        report("layout.page_offset", f"PAGE_OFFSET {h(po)} is not aligned to big_page_size "
               f"({size_str(bps)})\n"
               "why: lowmem is mapped with first-level big pages, which map aligned "
               "virtual to aligned physical addresses")


@rule
def task_size_below_page_offset(d, report):
    lay = d["layout"]
    if lay["task_size"] > lay["page_offset"]:
        report("layout.task_size", f"TASK_SIZE {h(lay['task_size'])} is above PAGE_OFFSET "
               f"{h(lay['page_offset'])}\n"
               "why: user space would overlap the kernel's linear mapping")


def _banks(d):
    return [b for b in d["platform"]["memory"] if b is not None]


@rule
def phys_offset_is_bank_base(d, report):
    po, bps = d["layout"]["phys_offset"], d["mmu"]["big_page_size"]
    bases = [b["base"] for b in _banks(d)]
    if po not in bases:
        report("layout.phys_offset", f"PHYS_OFFSET {h(po)} is not the base of a RAM bank "
               f"(bank bases: {', '.join(h(b) for b in bases)})\n"
               "why: PAGE_OFFSET maps PHYS_OFFSET, the first byte of lowmem RAM")
    if is_pow2(bps) and po % bps and not d["layout"]["windows"]:
        report("layout.phys_offset", f"PHYS_OFFSET {h(po)} is not aligned to big_page_size "
               f"({size_str(bps)})\n"
               "why: the linear mapping is built from big pages")


@rule
def kernel_phys_start_in_ram(d, report):
    kps, ps = d["layout"]["kernel_phys_start"], d["mmu"]["page_size"]
    if not any(b["base"] <= kps < b["base"] + b["size"] for b in _banks(d)):
        report("layout.kernel_phys_start", f"kernel_phys_start {h(kps)} is not inside any "
               "RAM bank\nwhy: the loader copies the kernel image there")
    if is_pow2(ps) and kps % ps:
        report("layout.kernel_phys_start", f"kernel_phys_start {h(kps)} is not page aligned "
               f"({size_str(ps)})\nwhy: the image's sections are mapped page by page")


@rule
def ram_banks_aligned(d, report):
    bps = d["mmu"]["big_page_size"]
    if not is_pow2(bps) or d["layout"]["windows"]:
        return
    for i, b in enumerate(d["platform"]["memory"]):
        if b is None:
            continue
        for key in ("base", "size"):
            if b[key] % bps:
                report(f"platform.memory[{i}].{key}", f"RAM bank {key} {h(b[key])} is not "
                       f"aligned to big_page_size ({size_str(bps)})\n"
                       "why: lowmem is mapped with big pages")


@rule
def lowmem_fits(d, report):
    lay = d["layout"]
    if lay["windows"]:
        return  # window_rules: lowmem must fit in the unmapped cached window
    lowmem = sum(b["size"] for b in _banks(d) if b["base"] >= lay["phys_offset"])
    room = lay["fixmap_top"] - lay["vmalloc_min_size"] - lay["vmalloc_offset"] - lay["page_offset"]
    if lowmem > room:
        report("platform.memory", f"{size_str(lowmem)} of RAM above phys_offset does not fit in "
               f"[page_offset, fixmap_top - vmalloc_min_size - vmalloc_offset) = "
               f"[{h(lay['page_offset'])}, {h(lay['page_offset'] + max(room, 0))}), "
               f"{size_str(max(room, 0))}\n"
               "why: all RAM must be reachable through the linear mapping and still leave "
               "the vmalloc and fixmap areas below fixmap_top")


# --- Platform ----------------------------------------------------------------

def _regions(d):
    """(label, path, base, size) of every RAM bank and device."""
    out = []
    for i, b in enumerate(d["platform"]["memory"]):
        if b is not None:
            out.append((f"RAM bank {i}", f"platform.memory[{i}]", b["base"], b["size"]))
    for i, dev in enumerate(d["platform"]["devices"]):
        if dev is not None and dev["base"] is not None and dev["size"] is not None:
            out.append((f"device '{dev['name']}'", f"platform.devices[{i}]", dev["base"], dev["size"]))
    return out


@rule
def regions_in_phys_space(d, report):
    pab = d["mmu"]["phys_addr_bits"]
    for label, path, base, size in _regions(d):
        if base + size > (1 << pab):
            report(f"{path}.base", f"{label} [{h(base)}, {h(base + size)}) is outside the "
                   f"{pab}-bit physical address space")


def _overlaps(items):
    """(item, earlier item it overlaps) for each (base, size, item) that overlaps one
    sorted before it: a sweep, each item reported once, against the earlier item
    that reaches furthest."""
    reach = None  # (end, item) of the furthest-reaching item so far
    for base, size, item in sorted(items, key=lambda r: (r[0], r[1])):
        if reach is not None and base < reach[0] and size > 0:
            yield item, reach[1]
        if reach is None or base + size > reach[0]:
            reach = (base + size, item)


@rule
def regions_disjoint(d, report):
    regs = sorted(_regions(d), key=lambda r: (r[2], r[1]))
    for (label, path, base, size), (olabel, _, obase, osize) in _overlaps(
            (r[2], r[3], r) for r in regs):
        report(f"{path}.base", f"{label} [{h(base)}, {h(base + size)}) overlaps "
               f"{olabel} [{h(obase)}, {h(obase + osize)})\n"
               "why: one physical address cannot decode to two targets")


@rule
def cells_fit(d, report):
    p = d["platform"]
    for label, path, base, size in _regions(d):
        if base + size > (1 << (32 * p["address_cells"])):
            report(f"{path}.base", f"{label} address {h(base)} needs more than "
                   f"#address-cells = {p['address_cells']}")
        if size >= (1 << (32 * p["size_cells"])):
            report(f"{path}.size", f"{label} size {h(size)} needs more than "
                   f"#size-cells = {p['size_cells']}")


# --- Cluster mesh (docs/multicluster.md) --------------------------------------


@rule
def mesh_shape(d, report):
    p = d["platform"]
    m = p["mesh"]
    if not m or not m["columns"] or not m["rows"]:
        return
    clusters = m["columns"] * m["rows"]
    count = p["cpus"]["count"]
    if isinstance(count, int) and clusters > 1:
        if count % clusters:
            report("platform.cpus.count", f"{count} CPUs cannot be shared evenly by the "
                   f"{m['columns']} x {m['rows']} = {clusters} clusters of platform.mesh\n"
                   "why: every cluster has the same number of CPUs")
    io = m["io_cluster"] or {}
    for axis, size, name in (("x", m["columns"], "columns"), ("y", m["rows"], "rows")):
        if isinstance(io.get(axis), int) and io[axis] >= size:
            report(f"platform.mesh.io_cluster.{axis}", f"the I/O cluster's {axis} = "
                   f"{io[axis]} is outside the mesh ({name}: {size}, so 0..{size - 1})")
    if clusters == 1:
        return
    for label, path, base, size in _regions(d):
        if base + size > 1 << 32:
            report(f"{path}.base", f"{label} [{h(base)}, {h(base + size)}) is not inside "
                   "a cluster's 32-bit local address space\nwhy: with platform.mesh, RAM "
                   "banks and devices are given by their local address, the cluster's "
                   "coordinates make the upper 8 bits")
    pab = d["mmu"]["phys_addr_bits"]
    top = ((m["columns"] - 1) << 4 | (m["rows"] - 1)) << 32
    if isinstance(pab, int) and top >= 1 << pab:
        report("platform.mesh.columns", f"cluster ({m['columns'] - 1},{m['rows'] - 1}) "
               f"starts at {h(top)}, outside the {pab}-bit physical address space "
               "(mmu.phys_addr_bits)")


@rule
def interrupt_parents_exist(d, report):
    controllers = {dev["name"] for dev in d["platform"]["devices"]
                   if dev is not None and dev["interrupt_controller"]}
    for i, dev in enumerate(d["platform"]["devices"]):
        if dev is not None and dev["interrupt_parent"] and \
                dev["interrupt_parent"] not in controllers:
            report(f"platform.devices[{i}].interrupt_parent",
                   f"'{dev['interrupt_parent']}' is not an interrupt controller of the board "
                   f"(those are: {', '.join(sorted(controllers)) or 'none'})")


@rule
def device_names_unique(d, report):
    first: dict[str, int] = {}
    for i, dev in enumerate(d["platform"]["devices"]):
        if dev is None:
            continue
        if dev["name"] in first:
            report(f"platform.devices[{i}].name", f"duplicate device name '{dev['name']}' "
                   f"(also platform.devices[{first[dev['name']]}])\n"
                   "why: names become device-tree nodes and macros; they must be unique")
        else:
            first[dev["name"]] = i


@rule
def one_interrupt_controller(d, report):
    devs = d["platform"]["devices"]
    ics = [i for i, dev in enumerate(devs) if dev is not None and dev["interrupt_controller"]]
    if not ics:
        report("platform.devices", "no device has interrupt_controller: true (the board needs "
               "one)\nwhy: device interrupts and the timer are routed through it")
    # The first is the board's: the CPUs' own lines come from it and it is every
    # device's interrupt parent unless the device names another one. Another
    # controller (a cascaded one) serves only the devices
    # that name it.
    named = {dev["interrupt_parent"] for dev in devs if dev is not None}
    for i in ics[1:]:
        if devs[i]["name"] not in named:
            report(f"platform.devices[{i}].interrupt_controller",
                   f"a second interrupt controller that no device names as its "
                   f"interrupt_parent (the board's is '{devs[ics[0]]['name']}')\n"
                   "why: every device without an interrupt_parent uses the first one")
    # How many inputs it has is one of its properties, which the layer driving
    # it declares; generator.bindings checks the interrupts against it.


@rule
def one_stdout(d, report):
    devs = d["platform"]["devices"]
    outs = [i for i, dev in enumerate(devs) if dev is not None and dev["stdout"]]
    if not outs:
        report("platform.devices", "no device has stdout: true (exactly one is required)\n"
               "why: it becomes the device tree's chosen/stdout-path, the console")
    for i in outs[1:]:
        report(f"platform.devices[{i}].stdout", f"a second stdout device (the first is "
               f"'{devs[outs[0]]['name']}'); exactly one is allowed")


# --- ABI ---------------------------------------------------------------------

@rule
def frame_slots_unique(d, report):
    first: dict[str, int] = {}
    for i, slot in enumerate(d["abi"]["frame"]):
        if slot is None:
            continue
        if slot["name"] in first:
            report(f"abi.frame[{i}].name", f"duplicate frame slot '{slot['name']}' (also "
                   f"abi.frame[{first[slot['name']]}])\nwhy: slots become struct pt_regs members")
        else:
            first[slot["name"]] = i


def _check_register(report, path: str, name: str, what: str, fam) -> None:
    if name is not None and fam is not None and fam.regnum(name) is None:
        report(path, f"'{name}' is not a {fam.registers_doc} register name ({what})\n"
               f"valid names: {fam.names_doc}")


@rule
def syscall_registers_valid(d, report):
    sc, fam = d["abi"]["syscall"], family_of(d)
    _check_register(report, "abi.syscall.number_register", sc["number_register"], "syscall number",
                    fam)
    _check_register(report, "abi.syscall.return_register", sc["return_register"], "return value",
                    fam)
    seen: dict[str, int] = {}
    for i, reg in enumerate(sc["arg_registers"]):
        _check_register(report, f"abi.syscall.arg_registers[{i}]", reg, f"argument {i + 1}", fam)
        if reg in seen:
            report(f"abi.syscall.arg_registers[{i}]", f"register '{reg}' is already argument "
                   f"{seen[reg] + 1}")
        seen.setdefault(reg, i)


@rule
def syscall_args_fit_family(d, report):
    """As many register arguments as the family's syscall entry takes."""
    sc, fam = d["abi"]["syscall"], family_of(d)
    if fam is not None and len(sc["arg_registers"]) != fam.syscall_reg_args:
        report("abi.syscall.arg_registers", f"isa.family {fam.name} passes "
               f"{fam.syscall_reg_args} syscall arguments in registers, found "
               f"{len(sc['arg_registers'])}\nwhy: the family's syscall entry and "
               "syscall_get_arguments() take that many from registers, the rest from the "
               "caller's stack (abi.syscall.stack_args)")


@rule
def syscall_clobbers_valid(d, report):
    """abi.syscall.clobbers: known names, each once, none the convention needs."""
    sc, fam = d["abi"]["syscall"], family_of(d)
    if fam is None:
        return
    needed = {sc["return_register"]: "holds the result"}
    needed[sc["number_register"]] = ("holds the syscall number and the result"
                                     if sc["number_register"] == sc["return_register"]
                                     else "holds the syscall number")
    for i, reg in enumerate(sc["arg_registers"]):
        needed.setdefault(reg, f"is argument {i + 1}")
    needed.setdefault(fam.roles["sp"], "is the stack pointer (stack arguments are read through it)")
    needed.setdefault(fam.roles["zero"], "is hard-wired to 0")
    for reg in fam.kernel_reserved:
        needed.setdefault(reg, "is reserved for the kernel: every exception clobbers it, "
                               "whatever the syscall ABI says")
    seen: dict[int | str, int] = {}
    for i, reg in enumerate(sc["clobbers"] or []):
        path = f"abi.syscall.clobbers[{i}]"
        if reg is None:
            continue
        if fam.regnum(reg) is None and reg not in fam.extra_clobbers:
            report(path, f"'{reg}' is not a register a syscall can clobber\n"
                         f"valid names: {', '.join([fam.names_doc, *fam.extra_clobbers])}")
            continue
        if reg in needed:
            report(path, f"'{reg}' cannot be clobbered by the syscall: it {needed[reg]}")
            continue
        key = fam.regnums.get(reg, reg)
        if key in seen:
            report(path, f"register '{reg}' is listed twice (also abi.syscall.clobbers"
                         f"[{seen[key]}])")
        seen.setdefault(key, i)


@rule
def dtb_register_valid(d, report):
    _check_register(report, "boot.dtb_register", d["boot"]["dtb_register"], "DTB pointer",
                    family_of(d))


@rule
def kernel_config_unique(d, report):
    first: dict[str, int] = {}
    for i, line in enumerate(d["kernel"]["config"]):
        if line is None:
            continue
        name = line.split("=", 1)[0]
        if name in first:
            report(f"kernel.config[{i}]", f"{name} is set twice (also kernel.config[{first[name]}])")
        else:
            first[name] = i


@rule
def elf_flags_known(d, report):
    fam = family_of(d)
    if fam is None:
        return
    for i, name in enumerate(d["abi"]["elf"]["flags_reject"]):
        if name is not None and name not in fam.elf_flags:
            report(f"abi.elf.flags_reject[{i}]", f"unknown e_flags name '{name}'; known: "
                   + ", ".join(sorted(fam.elf_flags)))


@rule
def hwrena_fits_family(d, report):
    fam = family_of(d)
    if fam is None:
        return
    for i, name in enumerate(d["abi"]["tls"]["hwrena"]):
        if name is not None and name not in fam.user_hw_registers:
            report(f"abi.tls.hwrena[{i}]", f"isa.family {fam.name} has no user-readable hardware "
                   f"register '{name}' (it has: {', '.join(fam.user_hw_registers) or 'none'})")


@rule
def syscall_fits_family(d, report):
    """The syscall instruction and error convention exist in the family."""
    sc, fam = d["abi"]["syscall"], family_of(d)
    if fam is None:
        return
    if sc["instruction"] is not None and sc["instruction"] not in fam.syscall_instructions:
        report("abi.syscall.instruction", f"'{sc['instruction']}' is not a system call "
               f"instruction of isa.family {fam.name} "
               f"(it has: {', '.join(fam.syscall_instructions)})")
    if sc["error_convention"] == "a3_flag" and fam.error_flag_register is None:
        report("abi.syscall.error_convention", f"a3_flag needs an error flag register; "
               f"isa.family {fam.name} has none (use negative_v0: -errno in "
               f"{sc['return_register'] or 'the return register'})")


# --- CP0 ---------------------------------------------------------------------

@rule
def cp0_fields_fit(d, report):
    cp0 = d["isa"]["cp0"]
    if not cp0:
        return
    for table in ("status_fields", "cause_fields"):
        for name, f in cp0[table].items():
            if f is not None and f["lsb"] + f["width"] > 32:
                report(f"isa.cp0.{table}.{name}", f"bits {f['lsb']}..{f['lsb'] + f['width'] - 1} "
                       "exceed the 32-bit register")
    f = cp0["ebase_cpunum"]
    if f["lsb"] + f["width"] > 32:
        report("isa.cp0.ebase_cpunum", "field exceeds the 32-bit register")


PMU_CONTROL_FIELDS = ("exl", "k", "u", "ie", "event")


@rule
def cp0_pmu_complete(d, report):
    cp0 = d["isa"]["cp0"]
    pmu = cp0["pmu"] if cp0 else None
    if not pmu or not pmu["counters"]:
        return
    for key in ("irq_line", "control_fields", "events"):
        if not pmu[key]:
            report(f"isa.cp0.pmu.{key}", "is required when isa.cp0.pmu.counters is not 0")
    if pmu["irq_line"] is not None and pmu["irq_line"] >= cp0["hw_irq_lines"]:
        report("isa.cp0.pmu.irq_line", f"line {pmu['irq_line']} is not below "
               f"isa.cp0.hw_irq_lines ({cp0['hw_irq_lines']})")
    fields = pmu["control_fields"] or {}
    for name in PMU_CONTROL_FIELDS:
        if fields and name not in fields:
            report("isa.cp0.pmu.control_fields", f"has no '{name}' field")
    for name, f in fields.items():
        if f is not None and f["lsb"] + f["width"] > 32:
            report(f"isa.cp0.pmu.control_fields.{name}", "field exceeds the 32-bit register")
    ev = fields.get("event")
    for name, v in (pmu["events"] or {}).items():
        if ev and v is not None and v >= 1 << ev["width"]:
            report(f"isa.cp0.pmu.events.{name}", f"{v} does not fit the {ev['width']}-bit "
                   "event field")
    # MIPS32's layout, which the emulator and the kernel driver assume:
    # PerfCtl n at select 2n, PerfCnt n at 2n + 1, all in one register.
    regs = cp0["registers"]
    first = regs.get("perfctl0")
    for n in range(pmu["counters"]):
        for sel, reg in ((2 * n, f"perfctl{n}"), (2 * n + 1, f"perfcnt{n}")):
            if reg not in regs:
                report("isa.cp0.registers", f"has no '{reg}' for counter {n} of "
                       f"isa.cp0.pmu.counters ({pmu['counters']})")
            elif first and regs[reg] and list(regs[reg]) != [first[0], sel]:
                report(f"isa.cp0.registers.{reg}", f"must be [{first[0]}, {sel}] (PerfCtl n "
                       "at select 2n, PerfCnt n at 2n + 1 of one register)")


@rule
def cp0_registers_unique(d, report):
    cp0 = d["isa"]["cp0"]
    if not cp0:
        return
    seen: dict[tuple[int, int], str] = {}
    for name, rs in cp0["registers"].items():
        if rs is None or len(rs) != 2:
            continue
        if rs[1] > 7:
            report(f"isa.cp0.registers.{name}", f"select {rs[1]} is out of range 0..7")
        key = (rs[0], rs[1])
        if key in seen:
            report(f"isa.cp0.registers.{name}", f"${rs[0]}, {rs[1]} is also '{seen[key]}'")
        seen.setdefault(key, name)


# --- Devices without a bus address ---------------------------------------------

@rule
def device_base_and_size(d, report):
    for i, dev in enumerate(d["platform"]["devices"]):
        if dev is None:
            continue
        if (dev["base"] is None) != (dev["size"] is None):
            have, missing = ("base", "size") if dev["size"] is None else ("size", "base")
            report(f"platform.devices[{i}].{missing}", f"missing key '{missing}': device "
                   f"'{dev['name']}' states {have} but not {missing}\nwhy: a register window "
                   "needs both; a device without either is CPU-local (no reg property)")
        elif dev["base"] is None and not dev["interrupt_controller"]:
            report(f"platform.devices[{i}]", f"device '{dev['name']}' has no base: only the "
                   "CPU's own interrupt controller may be CPU-local\nwhy: a driver needs a "
                   "register window to reach anything else")


# --- Software-refilled TLB -------------------------------------------------------

def _walker(d) -> str:
    return d["mmu"]["walker"]


@rule
def walker_needs_its_keys(d, report):
    m, lay = d["mmu"], d["layout"]
    if _walker(d) == "hardware":
        for key in ("pte1_ppn", "ptd1_ptpn", "pte2_ppn"):
            if m[key] is None:
                report("mmu", f"missing mmu.{key}: a hardware walker reads the page tables "
                       "itself, so the spec must give its entry formats")
        if m["tlb"] is not None:
            report("mmu.tlb", "mmu.tlb describes a software-refilled TLB, but mmu.walker is "
                   "hardware\nfix: drop mmu.tlb, or set mmu.walker: software")
    else:
        if m["tlb"] is None:
            report("mmu.walker", "mmu.walker: software needs mmu.tlb (entries, EntryHi/EntryLo/"
                   "PageMask/Index/Random/Context layouts, refill vector)\nwhy: the refill "
                   "handler and the TLB code are generated against them")
        if lay["windows"] is None:
            report("mmu.walker", "mmu.walker: software needs layout.windows (the unmapped "
                   "cached window holding lowmem, the mapped kernel window for vmalloc)\n"
                   "why: with a software TLB the kernel's own memory must be reachable "
                   "without TLB entries")
        for key in ("pte1_ppn", "ptd1_ptpn", "pte2_ppn"):
            if m[key] is not None:
                report(f"mmu.{key}", f"mmu.{key} is a hardware-walker entry format; with "
                       "mmu.walker: software the PTE layout is pte_bits plus mmu.tlb.entrylo\n"
                       "fix: remove it")


def _width_for(n: int) -> int:
    return max(1, (n - 1).bit_length())


@rule
def tlb_fields(d, report):
    m = d["mmu"]
    t = m["tlb"]
    if t is None:
        return
    regs = ("entryhi", "entrylo", "pagemask", "index", "random", "context")
    for reg in regs:
        for name, f in (t[reg] or {}).items():
            if f is not None and f["lsb"] + f["width"] > 32:
                report(f"mmu.tlb.{reg}.{name}", f"bits {f['lsb']}..{f['lsb'] + f['width'] - 1} "
                       "exceed the 32-bit register")
    page_shift = log2(m["page_size"]) if is_pow2(m["page_size"]) else None
    vpn2 = t["entryhi"]["vpn2"]
    if page_shift is not None and vpn2["lsb"] != page_shift + 1:
        report("mmu.tlb.entryhi.vpn2.lsb", f"VPN2 starts at bit {vpn2['lsb']}, but one TLB entry "
               f"maps an even/odd pair of {size_str(m['page_size'])} pages, so VPN2 must start "
               f"at PAGE_SHIFT + 1 = {page_shift + 1}")
    if vpn2["lsb"] + vpn2["width"] != d["isa"]["word_bits"]:
        report("mmu.tlb.entryhi.vpn2.width", f"VPN2 bits {vpn2['lsb']}..{vpn2['lsb'] + vpn2['width'] - 1} "
               f"do not reach the top of the {d['isa']['word_bits']}-bit virtual address")
    asid = t["entryhi"]["asid"]
    if asid["lsb"] + asid["width"] > vpn2["lsb"]:
        report("mmu.tlb.entryhi.asid", "the ASID field overlaps VPN2")
    n = t["entries"]
    for reg, name in (("index", "index"), ("random", "random")):
        f = t[reg][name]
        if (1 << f["width"]) < n:
            report(f"mmu.tlb.{reg}.{name}.width", f"{f['width']} bits cannot hold entry numbers "
                   f"0..{n - 1} ({_width_for(n)} bits needed for {n} entries)")
    badvpn2 = t["context"]["badvpn2"]
    if badvpn2["width"] != vpn2["width"]:
        report("mmu.tlb.context.badvpn2.width", f"Context.BadVPN2 is {badvpn2['width']} bits, "
               f"EntryHi.VPN2 {vpn2['width']}\nwhy: both hold the same virtual page pair number")
    pfn = t["entrylo"]["pfn"]
    if page_shift is not None and pfn["width"] + page_shift < m["phys_addr_bits"]:
        report("mmu.tlb.entrylo.pfn.width", f"{pfn['width']} bits of PFN reach only "
               f"2^{pfn['width'] + page_shift} bytes, but phys_addr_bits is {m['phys_addr_bits']}")
    lo = t["entrylo"]
    for a in ("c", "d", "v", "g", "pfn"):
        for b in ("c", "d", "v", "g", "pfn"):
            if a < b and set(_field_bits(lo[a])) & set(_field_bits(lo[b])):
                report(f"mmu.tlb.entrylo.{b}", f"EntryLo fields '{a}' and '{b}' overlap")
    for key in ("cached", "uncached"):
        v = t["cache_attrs"][key]
        if v >= 1 << lo["c"]["width"]:
            report(f"mmu.tlb.cache_attrs.{key}", f"{v} does not fit the {lo['c']['width']}-bit "
                   "EntryLo.C field")
    off = t["refill_vector_offset"]
    gv = (d["isa"]["cp0"] or {}).get("general_vector_offset")
    if off % 0x80:
        report("mmu.tlb.refill_vector_offset", f"{h(off)} is not a multiple of 0x80\n"
               "why: MIPS exception vectors sit on 128-byte slots of the vector page")
    if gv is not None and off >= gv:
        report("mmu.tlb.refill_vector_offset", f"the refill vector {h(off)} must come before "
               f"the general exception vector ({h(gv)})\nwhy: the refill handler is placed "
               "at the start of the vector page and must end before the general vector")


@rule
def tlb_pte_layout(d, report):
    """Hardware bits of a software-walked PTE sit at their EntryLo position << shift."""
    m = d["mmu"]
    t = m["tlb"]
    if t is None or not is_pow2(m["page_size"]):
        return
    page_shift = log2(m["page_size"])
    lo = t["entrylo"]
    shift = page_shift - lo["pfn"]["lsb"]
    if shift < 0:
        report("mmu.tlb.entrylo.pfn.lsb", f"EntryLo.PFN starts at bit {lo['pfn']['lsb']}, above "
               f"PAGE_SHIFT ({page_shift}): a PTE cannot be turned into EntryLo by a right shift")
        return
    hw_field = {"G": "g", "V": "v", "D": "d"}
    seen = set()
    for name, b in m["pte_bits"].items():
        if b is None:
            continue
        if b["bit"] >= page_shift:
            report(f"mmu.pte_bits.{name}.bit", f"bit {b['bit']} lies in the page frame "
                   f"(bits {page_shift}..31 of a PTE hold the physical page address)")
        c_bits = [bit + shift for bit in _field_bits(lo["c"])]
        if b["bit"] in c_bits:
            report(f"mmu.pte_bits.{name}.bit", f"bit {b['bit']} is in the cache attribute "
                   f"field (PTE bits {c_bits[0]}..{c_bits[-1]} = EntryLo.C << {shift})")
        if b["hw"]:
            field = hw_field.get(b["hw"])
            if field is None:
                report(f"mmu.pte_bits.{name}.hw", f"'{b['hw']}' is not an EntryLo bit; with a "
                       "software-refilled TLB the hardware bits are G, V and D")
                continue
            seen.add(b["hw"])
            want = lo[field]["lsb"] + shift
            if b["bit"] != want:
                report(f"mmu.pte_bits.{name}.bit", f"hardware bit {b['hw']} is at PTE bit "
                       f"{b['bit']}, but EntryLo.{b['hw']} (bit {lo[field]['lsb']}) << "
                       f"(PAGE_SHIFT - EntryLo.PFN lsb = {shift}) is bit {want}\nwhy: the "
                       "refill handler writes EntryLo = pte >> "
                       f"{shift} without rearranging bits")
        elif not b["software"]:
            report(f"mmu.pte_bits.{name}", f"'{name}' is neither software: true nor a hardware "
                   "bit (hw: G, V or D)")
    for hw in ("G", "V", "D"):
        if hw not in seen:
            report("mmu.pte_bits", f"no PTE bit has hw: {hw}\nwhy: the refill handler copies "
                   f"EntryLo.{hw} from the PTE")


# --- Fixed windows (MIPS kseg0/kseg1/kseg2) --------------------------------------

@rule
def window_rules(d, report):
    lay = d["layout"]
    wins = lay["windows"]
    if not wins:
        return
    top = 1 << d["isa"]["word_bits"]
    by_kind: dict[str, list[int]] = {}
    names: dict[str, int] = {}
    for i, w in enumerate(wins):
        if w is None:
            continue
        by_kind.setdefault(w["kind"], []).append(i)
        if w["name"] in names:
            report(f"layout.windows[{i}].name", f"duplicate window name '{w['name']}'")
        names.setdefault(w["name"], i)
        if not is_pow2(w["size"]) or w["base"] % w["size"]:
            report(f"layout.windows[{i}]", f"window '{w['name']}' [{h(w['base'])}, +{size_str(w['size'])}) "
                   "must have a power-of-two size and a base aligned to it\nwhy: the hardware "
                   "decodes these windows from the top address bits")
        if w["base"] + w["size"] > top:
            report(f"layout.windows[{i}].size", f"window '{w['name']}' ends beyond the "
                   f"{d['isa']['word_bits']}-bit address space")
    for (i, w), (_, o) in _overlaps((w["base"], w["size"], (i, w))
                                    for i, w in enumerate(wins) if w is not None):
        report(f"layout.windows[{i}].base", f"window '{w['name']}' overlaps '{o['name']}'")
    for kind in ("unmapped_cached", "mapped_kernel"):
        if len(by_kind.get(kind, [])) != 1:
            report("layout.windows", f"exactly one window of kind {kind} is needed, found "
                   f"{len(by_kind.get(kind, []))}")
    for kind in ("unmapped_uncached",):
        if len(by_kind.get(kind, [])) > 1:
            report("layout.windows", f"at most one window of kind {kind}")
    if len(by_kind.get("unmapped_cached", [])) != 1:
        return
    ci = by_kind["unmapped_cached"][0]
    cw = wins[ci]
    if lay["page_offset"] != cw["base"]:
        report("layout.page_offset", f"PAGE_OFFSET {h(lay['page_offset'])} is not the base of the "
               f"unmapped cached window '{cw['name']}' ({h(cw['base'])})\nwhy: lowmem is reached "
               "through that window, which maps physical address 0 at its base")
    if lay["phys_offset"] != 0:
        report("layout.phys_offset", f"PHYS_OFFSET must be 0 with fixed windows (found "
               f"{h(lay['phys_offset'])})\nwhy: '{cw['name']}' maps physical 0 at its base")
    lowmem_end = max((b["base"] + b["size"] for b in _banks(d)
                      if b["base"] >= lay["phys_offset"]), default=0)
    if lowmem_end > cw["size"]:
        report("platform.memory", f"RAM ends at physical {h(lowmem_end)}, beyond the "
               f"{size_str(cw['size'])} that window '{cw['name']}' reaches\nwhy: without highmem "
               "the kernel uses only RAM it reaches through the unmapped window")
    user_top = min(w["base"] for w in wins if w is not None)
    if lay["task_size"] > user_top:
        report("layout.task_size", f"TASK_SIZE {h(lay['task_size'])} reaches into the kernel "
               f"windows (lowest base {h(user_top)})")
    if len(by_kind.get("mapped_kernel", [])) != 1:
        return
    mi = by_kind["mapped_kernel"][0]
    mw = wins[mi]
    ft = lay["fixmap_top"]
    if not mw["base"] < ft <= mw["base"] + mw["size"]:
        report("layout.fixmap_top", f"fixmap_top {h(ft)} is outside the mapped kernel window "
               f"'{mw['name']}' [{h(mw['base'])}, {h(mw['base'] + mw['size'])})\nwhy: fixmap "
               "pages are mapped through the TLB")
    elif ft - mw["base"] < lay["vmalloc_min_size"]:
        report("layout.vmalloc_min_size", f"{size_str(lay['vmalloc_min_size'])} of vmalloc does "
               f"not fit between '{mw['name']}' base {h(mw['base'])} and fixmap_top {h(ft)}")
    ui = by_kind.get("unmapped_uncached", [])
    if ui:
        uw = wins[ui[0]]
        for i, dev in enumerate(d["platform"]["devices"]):
            if dev is not None and dev["base"] is not None and dev["size"] is not None \
                    and dev["base"] + dev["size"] > uw["size"]:
                report(f"platform.devices[{i}].base", f"device '{dev['name']}' at "
                       f"{h(dev['base'])} is beyond the {size_str(uw['size'])} that the "
                       f"uncached window '{uw['name']}' reaches\nwhy: ioremap hands out "
                       "addresses in that window")
