"""docs/spec-reference.md, generated from the schema, the computed values,
the contract and the kit's layers (``./generate.py --spec-reference FILE``).

Every spec key with its type, whether it is required, its default, whether
it is derived and how; the contract keys with the values each layer
implements; the responsibilities; each layer's device properties and kbuild
options. ``tests/generator/test_spec_reference.py`` fails when the committed
file is not what this produces.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from . import schema as S
from .derive import SPEC_VALUES, SPEC_VALUES_BY_PATH
from .families import FAMILIES
from .layers import CONTRACT_KEYS, GENERIC_RELIES_ON, RESPONSIBILITIES, read_meta
from .render import PART_CALL, PART_KIND_BY_FUNCTION

WIDTH = 100
COMMAND = "./generate.py --spec-reference docs/spec-reference.md"


def _fill(text: str, indent: str = "  ") -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def _yaml(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return "null"
    if isinstance(v, str):
        return f'"{v}"' if v == "" else v
    if isinstance(v, list):
        return "[" + ", ".join(_yaml(x) for x in v) + "]"
    return str(v)


def _type(f: S.Field) -> str:
    if isinstance(f, S.Int):
        base = "size" if isinstance(f, S.Size) else "integer"
        if f.choices is not None:
            return f"{base}, one of {', '.join(map(str, f.choices))}"
        if f.min is not None and f.max is not None:
            return f"{base} {S.bound_text(f.min)}..{S.bound_text(f.max)}"
        if f.min is not None:
            return f"{base} >= {S.bound_text(f.min)}"
        return base
    if isinstance(f, S.Str):
        if f.choices is not None:
            return "one of " + ", ".join(f.choices)
        return f"string: {f.pattern_doc}" if f.pattern_doc else "string"
    if isinstance(f, S.Bool):
        return "boolean"
    if isinstance(f, S.Derived):
        return "computed"
    if isinstance(f, S.Value):
        return "number, string, boolean or list (checked by the layers' bindings)"
    if isinstance(f, S.List):
        n = ""
        if f.max_len is not None and f.max_len == f.min_len:
            n = f" (exactly {f.min_len})"
        elif f.min_len and f.max_len is not None:
            n = f" ({f.min_len} to {f.max_len})"
        elif f.min_len:
            n = f" (at least {f.min_len})"
        inner = "mappings" if isinstance(f.item, S.Map) else _type(f.item)
        return f"list{n} of {inner}" + (", or a single value" if f.scalar_ok else "")
    if isinstance(f, S.Table):
        inner = "mapping" if isinstance(f.value, S.Map) else _type(f.value)
        return f"mapping of names to {inner}"
    return "mapping"


def _status(f: S.Field, path: str) -> str:
    v = SPEC_VALUES_BY_PATH.get(path)
    if v is not None and v.kind == "derived":
        return f"derived, never stated: {v.how}"
    if v is not None:
        return f"optional, default computed: {v.how}"
    if f.default is not S.NO_DEFAULT:
        return f"optional, default {_yaml(f.default)}"
    return "optional" if not f.required else "required"


def _contract_note(path: str, layers) -> list[str]:
    if path not in CONTRACT_KEYS:
        return []
    resps = CONTRACT_KEYS[path]
    who = "every responsibility" if len(resps) == len(RESPONSIBILITIES) else ", ".join(resps)
    impl = [f"{layer_display}: {', '.join(_yaml(x) for x in meta['implements'][path])}"
            for layer_display, meta in layers if path in meta["implements"]]
    text = (f"Contract key (code of {who} depends on it); implemented values: "
            + ("; ".join(impl) if impl else "no layer states any") + ".")
    return textwrap.wrap(text, WIDTH, initial_indent="  - ", subsequent_indent="    ",
                         break_long_words=False, break_on_hyphens=False)


def _walk(f: S.Field, path: str, out: list[str], layers) -> None:
    if path:
        doc = f": {f.doc}" if f.doc else ""
        out += _fill(f"- `{path}` ({_type(f)}; {_status(f, path)}){doc}")
        out += _contract_note(path, layers)
    if isinstance(f, S.Map):
        for key, sub in f.fields.items():
            _walk(sub, f"{path}.{key}" if path else key, out, layers)
    elif isinstance(f, S.List) and isinstance(f.item, S.Map):
        for key, sub in f.item.fields.items():
            _walk(sub, f"{path}[].{key}", out, layers)
    elif isinstance(f, S.Table) and isinstance(f.value, S.Map):
        for key, sub in f.value.fields.items():
            _walk(sub, f"{path}.<name>.{key}", out, layers)


def kit_layers(root: Path) -> list[tuple[str, dict[str, Any]]]:
    """(display, layer.yaml) of every layer of the kit, by name."""
    out = []
    for d in sorted((root / "overrides").iterdir()):
        if (d / "layer.yaml").is_file():
            out.append((f"overrides/{d.name}", read_meta(d, f"overrides/{d.name}")))
    return out


def _kit_parts(root: Path) -> dict[tuple[str, str], tuple[list[str], bool]]:
    """(function, part name) -> (the generic templates including it, optional?)."""
    out: dict[tuple[str, str], tuple[list[str], bool]] = {}
    tdir = root / "templates"
    for path in sorted(tdir.rglob("*.j2")):
        rel = f"`templates/{path.relative_to(tdir).as_posix()}`"
        for m in PART_CALL.finditer(path.read_text(encoding="utf-8")):
            where, _ = out.setdefault((m.group(1), m.group(2)), ([], bool(m.group(3))))
            if rel not in where:
                where.append(rel)
    return dict(sorted(out.items()))


def spec_reference(root: Path) -> str:
    layers = kit_layers(root)
    out = ["# Spec reference", ""]
    out += _fill(f"Generated by `{COMMAND}` from `generator/schema.py` (keys, types, defaults), "
                 "`generator/families.yaml` (ISA families), "
                 "`generator/derive.py` (computed values), `generator/contract.yaml` "
                 "(responsibilities, contract keys) and the layers' `layer.yaml`: do not edit. "
                 "`tests/generator/test_spec_reference.py` fails when it is stale. How specs "
                 "inherit, merge and report errors: [generator.md](generator.md).", "")
    out.append("")
    out += _fill("Each key: (type; required, optional with its default, or derived and how): "
                 "what it is. A required key inside an optional mapping is required when the "
                 "mapping is given. `[]` stands for every item of a list, `<name>` for every key "
                 "of a mapping of names.", "")
    for section, f in S.SPEC.fields.items():
        out += ["", f"## `{section}`: {f.doc}", ""]
        for key, sub in f.fields.items():
            _walk(sub, f"{section}.{key}", out, layers)

    out += ["", "## Computed values", ""]
    out += _fill("Defined once in `generator/derive.py` (`SPEC_VALUES`); a derived value stated "
                 "in a spec is an error, a computed default is used when the key is not stated.",
                 "")
    out.append("")
    for v in SPEC_VALUES:
        kind = "derived" if v.kind == "derived" else "default"
        out += _fill(f"- `{v.path}` ({kind}): {v.how}")

    out += ["", "## Responsibilities", ""]
    out += _fill("From `generator/contract.yaml`. A layer lists its files under `provides:`; a "
                 "needed responsibility no layer provides is generated as a stub from "
                 "`templates/_stubs/`.", "")
    out.append("")
    for r in RESPONSIBILITIES:
        prov = [d for d, meta in layers if r.key in meta["provides"]]
        stubs = ", ".join(f"`{o}`" for _, o in r.stubs) or "none"
        cond = f"; needed only when `{r.needed_if[0]}` >= {r.needed_if[1]}" if r.needed_if else ""
        out += _fill(f"- `{r.key}` ({r.title}): stubs {stubs}{cond}; provided by "
                     + (", ".join(prov) or "no layer") + ".")

    out.append("")
    out += _fill("The generic templates (`templates/`) rely on these spec names "
                 "(`generic_relies_on`): " + "; ".join(
                     f"`{path}`: {', '.join(map(str, names))}"
                     for path, names in GENERIC_RELIES_ON.items()) + ".", "")

    out += ["", "## ISA families", ""]
    out += _fill("From `generator/families.yaml` (`isa.family` chooses one; what each key means "
                 "is written there): the facts the generic parts need about the instruction set. "
                 "Its code is the family layer, which implements `isa.family`.", "")
    out.append("")
    for name, fam in FAMILIES.items():
        orders = "; ".join(
            f"{order}: `-m {e['ld_emulation']}`" + (f", `{e['flag']}`" if e["flag"] else "")
            + f", `{e['qemu']}`, prefixes " + ", ".join(f"`{p}`" for p in e["cross_compile"])
            for order, e in fam.endianness.items())
        out += _fill(f"- `{name}` ({fam.registers_doc}): registers {fam.names_doc}; syscall "
                     f"instruction {', '.join(fam.syscall_instructions)}, "
                     f"{fam.syscall_reg_args} register arguments; callee-saved "
                     f"{', '.join(fam.callee_saved)}; stack alignment {fam.stack_align}; "
                     f"`OUTPUT_ARCH({fam.ld_arch})`, modules {fam.module_relocs.upper()}; "
                     f"byte orders: {orders}.")

    out += ["", "## Family and MMU parts", ""]
    out += _fill("Text of a generic template that belongs to the ISA family or the MMU design: "
                 "the template has `{% include family_part(\"<name>\") %}` and the family layer "
                 "`_family/<name>.j2`, or `mmu_part` and the MMU-design layer `_mmu/<name>.j2` "
                 "(docs/generator.md). A required part no layer of the stack has is a contract "
                 "error; an optional one is left out.", "")
    out.append("")
    for (function, name), (where, optional) in _kit_parts(root).items():
        kind = PART_KIND_BY_FUNCTION[function]
        prov = [d for d, _ in layers if (root / d / kind.directory / f"{name}.j2").is_file()]
        out += _fill(f"- {function} `{name}` ({'optional' if optional else 'required'}; "
                     f"{', '.join(where)}): provided by " + (", ".join(prov) or "no layer") + ".")

    out += ["", "## Layers", ""]
    out += _fill("What each layer of `overrides/` implements (`implements:`), relies on "
                 "(`relies_on:`), the device properties it declares (`bindings:`, the spec's "
                 "`platform.devices[].properties`) and its kernel-option objects (`kbuild:`).", "")
    for display, meta in layers:
        out += ["", f"### `{display}`", ""]
        if meta.get("description"):
            out += _fill(str(meta["description"]).rstrip(".") + ".", "")
            out.append("")
        for key, values in meta["implements"].items():
            out += _fill(f"- implements `{key}`: {', '.join(_yaml(v) for v in values)}")
        for key, names in meta["relies_on"].items():
            out += _fill(f"- relies on `{key}`: {', '.join(map(str, names))}")
        for compat, b in meta["bindings"].items():
            inputs = f" (interrupt inputs: `{b.interrupt_inputs}`)" if b.interrupt_inputs else ""
            out += _fill(f"- device properties of `{compat}`{inputs}:")
            for p in b.properties.values():
                bits = [p.type, "required" if p.required else "optional"]
                if p.min is not None:
                    bits.append(f"min {p.min}")
                if p.max is not None:
                    bits.append(f"max {p.max}")
                if p.below:
                    bits.append(f"below `{p.below}`")
                bits.append(f"device tree `{p.dts}`" if p.dts else "not in the device tree")
                doc = f": {p.doc}" if p.doc else ""
                out += _fill(f"  - `{p.name}` ({'; '.join(bits)}){doc}", "    ")
        for obj, sym in meta["kbuild"].items():
            out += _fill(f"- `{obj}` only with `CONFIG_{sym}`")
    return "\n".join(out) + "\n"
