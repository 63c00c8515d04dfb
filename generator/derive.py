"""Every value computed from the spec, in one place.

Two kinds:

* ``SPEC_VALUES``: values of the spec itself that follow from others. They
  land in the normalized spec at their natural place (templates read
  ``layout.kernel_link_address`` like any other value). A ``derived`` one is
  never stated (the schema marks the key ``Derived``; stating it is an error
  quoting ``how``); a ``default`` one may be stated and is computed only when
  it is not. ``derive_fields()`` fills them right after the schema walk,
  before the cross-field checks; ``docs/spec-reference.md`` lists them.
* ``derive()``: the ``derived`` template variable, values templates need
  that are not spec keys (shifts, orders, masks, frame offsets). Why here and
  not in templates: such arithmetic is easy to get subtly wrong in Jinja, and
  several templates need the same numbers. It is one plain function building
  a plain dict; add entries freely (keep them JSON-like: ints, strings,
  lists, dicts). Validation (``generator.checks``) has already run, so the
  spec is consistent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .families import Family, family_of

#: ELF data encoding per byte order.
ELF_DATA = {"little": "lsb", "big": "msb"}


@dataclass(frozen=True)
class SpecValue:
    """One spec value that follows from others: its only definition."""

    path: str                       # where it lands in the normalized spec
    kind: str                       # "derived" (never stated) or "default" (unless stated)
    how: str                        # what it is computed from (messages, spec reference)
    compute: Callable[[dict[str, Any]], Any]   # None: cannot be computed (left unset)
    #: the spec keys it is computed from: a message about a value that was not
    #: stated points at the first of them that was (file and line)
    inputs: tuple[str, ...] = ()


def _endian(d: dict[str, Any]) -> dict[str, str] | None:
    """The byte order's values of the spec's family (generator/families.yaml):
    compiler/assembler flag, linker emulation, ELF data, the CPP macro."""
    fam, order = family_of(d), d["isa"]["endianness"]
    e = fam.endian(order) if fam else None
    if e is None or order not in ELF_DATA:
        return None
    return {"flag": e["flag"], "ld_emulation": e["ld_emulation"], "elf_data": ELF_DATA[order],
            "cpp": e["cpp"]}


def _cross_compile(d: dict[str, Any]) -> list[str] | None:
    fam = family_of(d)
    e = fam.endian(d["isa"]["endianness"]) if fam else None
    return list(e["cross_compile"]) if e else None


def _task_size(d: dict[str, Any]) -> int | None:
    po = d["layout"]["page_offset"]
    return po if isinstance(po, int) and not isinstance(po, bool) else None


SPEC_VALUES: tuple[SpecValue, ...] = (
    SpecValue("arch.defconfig", "default", "<arch.name>_defconfig",
              lambda d: f"{d['arch']['name']}_defconfig" if d["arch"]["name"] else None,
              ("arch.name",)),
    SpecValue("arch.uts_machine", "default", "arch.name",
              lambda d: d["arch"]["name"] or None, ("arch.name",)),
    SpecValue("mmu.big_page_size", "derived", "page_size x levels[1].entries",
              lambda d: d["mmu"]["page_size"] * d["mmu"]["levels"][1]["entries"],
              ("mmu.page_size", "mmu.levels[1].entries")),
    SpecValue("mmu.ptpr_shift", "derived", "log2(levels[0].align)",
              lambda d: d["mmu"]["levels"][0]["align"].bit_length() - 1,
              ("mmu.levels[0].align",)),
    SpecValue("mmu.tlb.asid_bits", "derived", "tlb.entryhi.asid.width",
              lambda d: d["mmu"]["tlb"]["entryhi"]["asid"]["width"],
              ("mmu.tlb.entryhi.asid.width",)),
    SpecValue("layout.kernel_link_address", "derived",
              "page_offset + kernel_phys_start - phys_offset",
              lambda d: d["layout"]["page_offset"] + d["layout"]["kernel_phys_start"]
              - d["layout"]["phys_offset"],
              ("layout.page_offset", "layout.kernel_phys_start", "layout.phys_offset")),
    SpecValue("layout.task_size", "default", "layout.page_offset", _task_size,
              ("layout.page_offset",)),
    SpecValue("isa.endian", "derived", "from isa.family and isa.endianness "
              "(generator/families.yaml): the compiler's byte-order flag, the linker "
              "emulation, ELF data and the byte-order macro",
              _endian, ("isa.endianness", "isa.family")),
    SpecValue("abi.elf.data", "derived", "lsb/msb from isa.endianness",
              lambda d: _endian(d)["elf_data"] if _endian(d) else None, ("isa.endianness",)),
    SpecValue("isa.cross_compile", "default", "the usual prefixes of isa.family and "
              "isa.endianness (generator/families.yaml)",
              _cross_compile, ("isa.endianness", "isa.family")),
    SpecValue("platform.mesh.cpus_per_cluster", "derived",
              "platform.cpus.count / (mesh.columns x mesh.rows)",
              lambda d: d["platform"]["cpus"]["count"]
              // (d["platform"]["mesh"]["columns"] * d["platform"]["mesh"]["rows"]),
              ("platform.cpus.count", "platform.mesh.columns", "platform.mesh.rows")),
)
SPEC_VALUES_BY_PATH = {v.path: v for v in SPEC_VALUES}


def how_derived(path: str) -> str:
    """How the spec value at ``path`` is computed (for messages)."""
    v = SPEC_VALUES_BY_PATH.get(path)
    return v.how if v else "computed by the generator"


def derive_fields(data: dict[str, Any]) -> None:
    """Fill ``SPEC_VALUES`` into the normalized spec (after the schema walk).

    A value whose inputs are missing or malformed (the schema walk reported
    them) is left as it is.
    """
    for v in SPEC_VALUES:
        *parents, leaf = v.path.split(".")
        parent: Any = data
        for part in parents:
            parent = parent.get(part) if isinstance(parent, dict) else None
        if not isinstance(parent, dict):
            continue
        if v.kind == "default" and parent.get(leaf) is not None:
            continue
        try:
            value = v.compute(data)
        except (TypeError, KeyError, IndexError, AttributeError):
            continue
        if value is not None:
            parent[leaf] = value

WORD_BYTES = 4  # isa.word_bits == 32 is enforced by the checks


class DeriveError(ValueError):
    """A derived value cannot be computed from the spec."""


def log2_exact(n: int, what: str) -> int:
    if n <= 0 or n & (n - 1):
        raise DeriveError(f"{what} = {n} is not a power of two")
    return n.bit_length() - 1


def field_mask(field: dict[str, int]) -> int:
    return ((1 << field["width"]) - 1) << field["lsb"]


def _frame(frame: list[dict[str, Any]], align: int) -> dict[str, Any]:
    """pt_regs slots with byte offsets, and the user_regs_struct subset."""
    slots, user_slots = [], []
    offset = user_index = 0
    for slot in frame:
        words = slot["words"]
        s = dict(slot, offset=offset, index=offset // WORD_BYTES, size=words * WORD_BYTES)
        slots.append(s)
        if slot["user"]:
            user_slots.append(dict(slot, index=user_index, offset=user_index * WORD_BYTES,
                                   size=words * WORD_BYTES))
            user_index += words
        offset += words * WORD_BYTES
    return {
        "frame_slots": slots,
        "frame_offset": {s["name"]: s["offset"] for s in slots},
        "frame_size": offset,
        # the family's psABI stack alignment: a frame on the stack keeps it
        "frame_size_aligned": (offset + align - 1) & ~(align - 1),
        "user_slots": user_slots,
        "user_offset": {s["name"]: s["offset"] for s in user_slots},
        "user_words": user_index,
        "user_size": user_index * WORD_BYTES,
    }


def _syscall_register_classes(sc: dict[str, Any], fam: Family) -> dict[str, Any]:
    """Sort the general registers for the syscall entry code (abi.syscall.clobbers).

    clobber_regnums: not saved, zeroed on the way out; entry_regnums: saved at
    entry and restored on the fast way out (what C code may clobber and the
    ABI keeps); static_regnums: the family's callee_saved registers, which
    C code preserves across calls (the fast path need not save them, the slow
    path saves them into pt_regs when it needs a full one); result_regnums: the
    result registers. sp is always saved at entry; zero and the family's
    kernel_reserved registers (any exception clobbers them) are none of these.
    """
    regs = fam.regnums
    clobbers = [r for r in sc["clobbers"] or [] if r is not None]
    clobbered = {regs[r] for r in clobbers if r in regs}
    result = {regs[sc["return_register"]]}
    if sc["error_convention"] == "a3_flag":
        result.add(regs[fam.error_flag_register])
    callee_saved = {regs[r] for r in fam.callee_saved}
    skip = {regs[r] for r in fam.kernel_reserved} | {regs[fam.roles[r]] for r in ("sp", "zero")}
    out: dict[str, list[int]] = {"clobber_regnums": [], "entry_regnums": [],
                                 "static_regnums": [], "result_regnums": sorted(result)}
    for n in sorted(set(regs.values())):
        if n in skip:
            continue
        if n in clobbered:
            out["clobber_regnums"].append(n)
        elif n in result:
            continue
        elif n in callee_saved:
            out["static_regnums"].append(n)
        else:
            out["entry_regnums"].append(n)
    # clobbers_<name> for each of the family's extra_clobbers (registers
    # outside the general file).
    return {**out, **{f"clobbers_{x}": x in clobbers for x in fam.extra_clobbers}}


#: Address bits above a cluster's 32-bit local space: cluster_xy = PA >> 32.
CLUSTER_SHIFT = 32
#: CPU hardware id = cluster_xy << CPU_LOCAL_BITS | local index (EBase[11:0]).
CPU_LOCAL_BITS = 4


def cluster_xy(x: int, y: int) -> int:
    """The cluster's 8-bit coordinate: X in bits 7..4, Y in bits 3..0."""
    return (x << 4) | y


def mesh(platform: dict[str, Any]) -> dict[str, Any]:
    """The clusters of the platform (one when it has no ``mesh``), in node order.

    Node ``nid = x * rows + y``: ascending physical addresses. Each cluster
    lists its CPUs' hardware ids, its RAM banks and its devices at absolute
    physical addresses; a device that is not ``per_cluster`` is only in the
    I/O cluster. Distances are 10 x (1 + mesh hops).
    """
    m = platform["mesh"] or {"columns": 1, "rows": 1, "io_cluster": {"x": 0, "y": 0}}
    cols, rows = m["columns"], m["rows"]
    count = cols * rows
    per_cluster = platform["cpus"]["count"] // count
    io = (m["io_cluster"]["x"], m["io_cluster"]["y"])
    clusters = []
    for x in range(cols):
        for y in range(rows):
            xy = cluster_xy(x, y)
            offset = xy << CLUSTER_SHIFT
            nid = len(clusters)
            clusters.append({
                "x": x, "y": y, "xy": xy, "nid": nid, "offset": offset,
                "io": (x, y) == io,
                "cpus": [{"logical": nid * per_cluster + i, "hwid": (xy << CPU_LOCAL_BITS) | i}
                         for i in range(per_cluster)],
                "memory": [{"base": offset + b["base"], "size": b["size"]}
                           for b in sorted(platform["memory"], key=lambda b: b["base"])],
                "devices": [dict(dev, base=offset + dev["base"],
                                 label=dev["name"] if nid == 0 or not dev["per_cluster"]
                                 else f"{dev['name']}_{x}_{y}")
                            for dev in platform["devices"] if dev["base"] is not None
                            and (dev["per_cluster"] or (x, y) == io)],
            })
    return {
        "columns": cols, "rows": rows, "clusters": clusters, "multi": count > 1,
        "cpus_per_cluster": per_cluster,
        "io_cluster": next(c for c in clusters if c["io"]),
        "cpus": [cpu for c in clusters for cpu in c["cpus"]],
        "distances": [[10 * (1 + abs(a["x"] - b["x"]) + abs(a["y"] - b["y"]))
                       for b in clusters] for a in clusters],
    }


def derive(spec: dict[str, Any]) -> dict[str, Any]:
    """Compute the ``derived`` template variable from the normalized spec."""
    isa, abi, mmu, layout, platform = (spec[k] for k in ("isa", "abi", "mmu", "layout", "platform"))
    d: dict[str, Any] = {}

    # --- MMU geometry
    pt1, pt2 = mmu["levels"]
    d["page_shift"] = log2_exact(mmu["page_size"], "mmu.page_size")
    d["big_page_shift"] = d["pgdir_shift"] = log2_exact(mmu["big_page_size"], "mmu.big_page_size")
    d["ptrs_per_pgd"] = pt1["entries"]
    d["ptrs_per_pte"] = pt2["entries"]
    d["pgd_entry_bytes"] = pt1["entry_bits"] // 8
    d["pte_bytes"] = pt2["entry_bits"] // 8
    d["pgd_bytes"] = pt1["entries"] * d["pgd_entry_bytes"]
    d["pte_table_bytes"] = pt2["entries"] * d["pte_bytes"]
    d["pgd_order"] = max(0, (d["pgd_bytes"] - 1).bit_length() - d["page_shift"])
    d["phys_addr_mask"] = (1 << mmu["phys_addr_bits"]) - 1
    for key in ("pte1_ppn", "ptd1_ptpn", "pte2_ppn"):  # hardware walker formats
        if mmu[key] is not None:
            d[f"{key}_mask"] = field_mask(mmu[key])

    # --- Software-refilled TLB: EntryLo = pte >> pte_to_entrylo_shift
    tlb = mmu["tlb"]
    if tlb is not None:
        shift = d["page_shift"] - tlb["entrylo"]["pfn"]["lsb"]
        c = tlb["entrylo"]["c"]
        d["tlb"] = {
            "asid_mask": field_mask(tlb["entryhi"]["asid"]),
            "pte_to_entrylo_shift": shift,
            "pte_cache_shift": c["lsb"] + shift,
            "pte_cache_mask": field_mask(c) << shift,
            # PageMask for one page_size page (0 for 4 KiB): mask bits above 4 KiB.
            "pagemask_default": ((mmu["page_size"] >> 12) - 1) << 13 if mmu["page_size"] >= 4096 else 0,
        }

    # --- PTE flag bits
    bits = mmu["pte_bits"]
    d["pte_bit"] = {name: b["bit"] for name, b in bits.items()}
    d["pte_mask"] = {name: 1 << b["bit"] for name, b in bits.items()}
    d["pte_bits_sorted"] = sorted(bits.items(), key=lambda kv: (-kv[1]["bit"], kv[0]))
    d["pte_hw_bits"] = [n for n, b in d["pte_bits_sorted"] if not b["software"]]
    d["pte_sw_bits"] = [n for n, b in d["pte_bits_sorted"] if b["software"]]
    d["pte_hw_set_bits"] = [n for n, b in d["pte_bits_sorted"] if b["set_by_hw"]]
    d["pte_hw_mask"] = sum(d["pte_mask"][n] for n in d["pte_hw_bits"])
    d["pte_sw_mask"] = sum(d["pte_mask"][n] for n in d["pte_sw_bits"])
    d["pte_hw_set_mask"] = sum(d["pte_mask"][n] for n in d["pte_hw_set_bits"])
    d["pte_flags_mask"] = d["pte_hw_mask"] | d["pte_sw_mask"]
    d["mmu_mode_all"] = sum(1 << b for b in (mmu["mode_bits"] or {}).values())

    # --- Kernel stack
    d["thread_size"] = abi["thread_size"]
    d["thread_shift"] = log2_exact(abi["thread_size"], "abi.thread_size")
    d["thread_order"] = d["thread_shift"] - d["page_shift"]

    # --- Memory layout
    banks = sorted(platform["memory"], key=lambda b: b["base"])
    d["memory_banks"] = banks
    d["ram_total"] = sum(b["size"] for b in banks)
    d["ram_start"] = banks[0]["base"]
    d["ram_end"] = max(b["base"] + b["size"] for b in banks)
    d["kernel_load_phys"] = layout["kernel_phys_start"]
    d["kernel_load_virt"] = layout["kernel_link_address"]
    d["lowmem_size"] = sum(b["size"] for b in banks if b["base"] >= layout["phys_offset"])
    d["lowmem_limit_virt"] = (layout["fixmap_top"] - layout["vmalloc_min_size"]
                              - layout["vmalloc_offset"])
    d["max_lowmem_size"] = d["lowmem_limit_virt"] - layout["page_offset"]
    d["high_memory_virt"] = layout["page_offset"] + d["lowmem_size"]
    d["lowmem_end_phys"] = layout["phys_offset"] + d["lowmem_size"]
    # Fixed windows (software TLB): lowmem is the unmapped cached window,
    # vmalloc starts at the base of the mapped kernel window.
    windows = layout["windows"] or []
    d["windows_by_kind"] = {w["kind"]: w for w in windows}
    if "unmapped_cached" in d["windows_by_kind"]:
        cached = d["windows_by_kind"]["unmapped_cached"]
        d["max_lowmem_size"] = min(d["max_lowmem_size"], cached["size"])
        d["lowmem_limit_virt"] = layout["page_offset"] + d["max_lowmem_size"]
    if "mapped_kernel" in d["windows_by_kind"]:
        d["vmalloc_start"] = d["windows_by_kind"]["mapped_kernel"]["base"]
    d["user_ptrs_per_pgd"] = layout["task_size"] >> d["pgdir_shift"]
    d["kernel_pgd_index"] = layout["page_offset"] >> d["pgdir_shift"]

    # --- Registers, frame, syscalls (the family's register file)
    fam = family_of(spec)
    regs = fam.regnums
    d["regnum"] = dict(regs)
    d["regname"] = fam.regnames
    d.update(_frame(abi["frame"], fam.stack_align))
    regs_off = d["frame_offset"].get("regs")
    d["pt_regs_reg_offset"] = ({name: regs_off + WORD_BYTES * n for name, n in regs.items()}
                               if regs_off is not None else {})
    sc = abi["syscall"]
    stack = sc["stack_args"] or {"count": 0, "offset": 0}
    d["syscall"] = {
        "number_regnum": regs[sc["number_register"]],
        "return_regnum": regs[sc["return_register"]],
        "arg_regnums": [regs[r] for r in sc["arg_registers"]],
        "reg_args": len(sc["arg_registers"]),
        "stack_args": stack["count"],
        "stack_arg_offsets": [stack["offset"] + WORD_BYTES * i for i in range(stack["count"])],
        "max_args": len(sc["arg_registers"]) + stack["count"],
        "a3_flag": sc["error_convention"] == "a3_flag",
        "negative_v0": sc["error_convention"] == "negative_v0",
    }
    d["syscall"].update(_syscall_register_classes(sc, fam))
    # The hardware registers user mode may read (MIPS: HWREna bits, RDHWR numbers).
    d["hwrena_mask"] = sum(1 << fam.user_hw_registers[name] for name in abi["tls"]["hwrena"])
    d["dtb_regnum"] = regs[spec["boot"]["dtb_register"]]
    d["elf_flag_values"] = {f: fam.elf_flags[f] for f in abi["elf"]["flags_reject"]}
    d["elf_flags_reject_mask"] = sum(d["elf_flag_values"].values())

    # --- Platform
    devices = platform["devices"]
    d["devices_by_name"] = {dev["name"]: dev for dev in devices}
    d["irq_controller"] = next((dev for dev in devices if dev["interrupt_controller"]), None)
    d["stdout_device"] = next((dev for dev in devices if dev["stdout"]), None)
    d["mesh"] = mesh(platform)

    # --- CP0
    cp0 = isa["cp0"]
    if cp0:
        d["cp0_status_mask"] = {n: field_mask(f) for n, f in cp0["status_fields"].items()}
        d["cp0_cause_mask"] = {n: field_mask(f) for n, f in cp0["cause_fields"].items()}

    # --- Kernel configuration
    d["kernel_config"] = []
    for line in spec["kernel"]["config"]:
        name, value = line.split("=", 1)
        text = f"# {name} is not set" if value == "n" else line
        d["kernel_config"].append({"name": name, "value": value, "line": text})
    return d
