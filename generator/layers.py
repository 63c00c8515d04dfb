"""Override layers, their contract with the spec, and the arch responsibilities.

A layer is a directory of kernel files (``overrides/<name>/``) with a
``layer.yaml`` describing it::

    description: MIPS32 family code, independent of the MMU design
    provides:                     # responsibility -> files of this layer
      syscall: [kernel/entry.S.j2, kernel/syscall_table.c]
    implements:                   # spec key -> the values this code supports
      isa.endianness: [little]
    relies_on:                    # spec names the code uses
      abi.frame: [regs, epc, status]
      isa.cp0.registers: [status, cause]
    bindings:                     # device properties (see generator/bindings.py)
      vendor,uart: {properties: {fifo: {type: int, dts: "vendor,fifo-depth"}}}
    kbuild:                       # objects built only with a kernel option
      drivers/disk.o: VENDOR_DISK   # (defined in a Kconfig file of the layer)

The contract (``check_contract``), enforced before anything is rendered:

* every file a layer says it provides exists in the layer;
* for each key of ``CONTRACT_KEYS``: if layers declare it in ``implements``,
  the spec's value is one of theirs; if none does but a layer provides a
  responsibility that depends on the key, that is refused too (the code was
  written for some value nobody stated);
* every name in ``relies_on`` exists in the spec (a key of the mapping, or
  the ``name`` of an item of the list, at that path);
* every ``kbuild`` object has its source in the layer, and its option is a
  ``config`` of one of the layer's Kconfig files.

Device properties are checked against the layers' ``bindings`` when the
project is loaded (``generator.bindings``): they are spec errors.

The responsibilities, their stubs and the contract keys are data
(``generator/contract.yaml``). Responsibilities no layer provides get
generated stubs (``templates/_stubs``): a ``#warning`` at build time, and a
panic naming the responsibility if reached.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .errors import Diagnostic, PortkitError, SpecError


@dataclass(frozen=True)
class Responsibility:
    key: str
    title: str
    symbols: tuple[str, ...]     # what the rest of the kernel calls (for undefined symbols)
    stubs: tuple[tuple[str, str], ...] = ()  # (template in templates/_stubs/, output path)
    #: (spec path, smallest value) that makes it needed; None: always needed
    needed_if: tuple[str, int] | None = None


#: The contract's data: responsibilities, their stubs and the contract keys.
CONTRACT_FILE = Path(__file__).with_name("contract.yaml")


def _load_contract(path: Path = CONTRACT_FILE):
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    resps = []
    for key, r in raw["responsibilities"].items():
        cond = r.get("needed_if")
        resps.append(Responsibility(
            key, r["title"], tuple(r.get("symbols") or ()),
            tuple((tmpl, out) for tmpl, out in (r.get("stubs") or {}).items()),
            (cond["key"], int(cond["min"])) if cond else None))
    keys = {}
    for key, users in raw["contract_keys"].items():
        keys[key] = tuple(r.key for r in resps) if users == "all" else tuple(users)
        unknown = [u for u in keys[key] if u not in {r.key for r in resps}]
        if unknown:  # a broken contract.yaml is a bug of the kit, not of a spec
            raise ValueError(f"{path.name}: contract_keys: {key}: unknown responsibility "
                             f"{', '.join(unknown)}")
    return tuple(resps), keys


RESPONSIBILITIES, CONTRACT_KEYS = _load_contract()
BY_KEY = {r.key: r for r in RESPONSIBILITIES}
#: CONTRACT_KEYS: spec values code must be written for -> the responsibilities
#: that depend on them.

META_KEYS = ("description", "provides", "implements", "relies_on", "bindings", "kbuild")
#: kbuild: object (path in the arch directory) -> the kernel option that builds it.
KBUILD_OBJECT = r"[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*\.o"
KCONFIG_SYMBOL = r"[A-Z0-9_]+"


class ContractError(PortkitError):
    """The spec and the layers disagree (or a layer.yaml is malformed)."""

    exit_code = 2

    def __init__(self, messages: list[str]):
        self.messages = messages
        super().__init__("\n".join(f"error: {m}" for m in messages)
                         + f"\n{len(messages)} contract error{'s' if len(messages) != 1 else ''}; "
                         "nothing written.")


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _lookup(data: Any, path: str) -> tuple[bool, Any]:
    cur = data
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return False, None
        cur = cur[part]
    return True, cur


def _names_at(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {str(k) for k in value}
    if isinstance(value, list):
        return {str(v["name"]) for v in value if isinstance(v, dict) and "name" in v} | \
               {str(v) for v in value if isinstance(v, (str, int))}
    return set()


def read_meta(path: Path, display: str) -> dict[str, Any]:
    """layer.yaml of a layer directory ({} when there is none), shape-checked."""
    meta_file = path / "layer.yaml"
    shown = f"{display}/layer.yaml"
    if not meta_file.is_file():
        return {"provides": {}, "implements": {}, "relies_on": {}, "description": "",
                "bindings": {}, "kbuild": {}}
    try:
        meta = yaml.safe_load(meta_file.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        line = getattr(getattr(exc, "problem_mark", None), "line", -1) + 1
        raise ContractError([f"{shown}:{line}: cannot read: {exc}"]) from None
    problems = []
    if not isinstance(meta, dict):
        raise ContractError([f"{shown}: expected a mapping with keys {', '.join(META_KEYS)}"])
    for key in meta:
        if key not in META_KEYS:
            problems.append(f"{shown}: unknown key '{key}'; allowed: {', '.join(META_KEYS)}")
    for key in ("provides", "implements", "relies_on"):
        table = meta.setdefault(key, {}) or {}
        meta[key] = table
        if not isinstance(table, dict) or not all(isinstance(v, list) for v in table.values()):
            problems.append(f"{shown}: {key}: expected a mapping of lists")
    for resp in meta.get("provides", {}) if isinstance(meta.get("provides"), dict) else ():
        if resp not in BY_KEY:
            problems.append(f"{shown}: provides: unknown responsibility '{resp}'; known: "
                            + ", ".join(BY_KEY))
    for key in meta.get("implements", {}) if isinstance(meta.get("implements"), dict) else ():
        if key not in CONTRACT_KEYS:
            problems.append(f"{shown}: implements: '{key}' is not a contract key; known: "
                            + ", ".join(CONTRACT_KEYS))
    from .bindings import read_bindings  # noqa: PLC0415

    meta["bindings"], more = read_bindings(meta.get("bindings"), display)
    problems += more
    kbuild = meta.get("kbuild") or {}
    if not isinstance(kbuild, dict):
        problems.append(f"{shown}: kbuild: expected a mapping of object -> kernel option")
        kbuild = {}
    for obj, sym in kbuild.items():
        if not re.fullmatch(KBUILD_OBJECT, str(obj)) or not re.fullmatch(KCONFIG_SYMBOL, str(sym)):
            problems.append(f"{shown}: kbuild: '{obj}: {sym}': expected dir/name.o: OPTION "
                            "(a Kconfig symbol without CONFIG_)")
    meta["kbuild"] = kbuild
    if problems:
        raise ContractError(problems)
    meta.setdefault("description", "")
    return meta


def load_layers(project) -> list:
    """The project's layers, lowest first (``render.Layer`` objects)."""
    from .render import Layer, rel_display

    layers, names = [], {}
    spec = project.spec
    for key, path in project.layer_dirs():
        path = Path(path)
        display = rel_display(path, project.root)
        name = path.name
        if not path.is_dir():
            # The arch's own default layer may be absent (an arch without hand code).
            if key == "arch.name":
                layers.append(Layer(name, path, display, read_meta(path, display)))
                continue
            raise SpecError([spec.diag(key, f"override layer directory {display}/ does not exist")])
        if name in names:
            raise SpecError([spec.diag(key, f"two layers named '{name}' ({names[name]} and "
                                            f"{display}); layer directory names must differ")])
        names[name] = display
        layers.append(Layer(name, path, display, read_meta(path, display)))
    return layers


def providers(project) -> dict[str, Any]:
    """Responsibility key -> the highest layer that provides it (or None: a stub)."""
    out: dict[str, Any] = {r.key: None for r in RESPONSIBILITIES}
    for layer in project.layers:
        for resp in layer.meta["provides"]:
            out[resp] = layer
    return out


def check_contract(project) -> None:
    """Refuse (exit 2) a spec the layers do not implement, before anything is written."""
    spec, data = project.spec, project.spec.data
    msgs: list[Diagnostic | str] = []
    prov = providers(project)

    def at(path: str) -> str:
        return f"{spec.file_of(path)}:{spec.line_of(path)}: {path}"

    for layer in project.layers:
        shown = f"{layer.display}/layer.yaml"
        for resp, files in layer.meta["provides"].items():
            for f in files:
                if not (layer.path / f).is_file():
                    msgs.append(f"{shown}: provides {resp}: file {layer.display}/{f} does not exist")
        for obj, sym in layer.meta["kbuild"].items():
            stem = obj[:-2]
            if not any((layer.path / f"{stem}{ext}").is_file()
                       for ext in (".c", ".S", ".c.j2", ".S.j2")):
                msgs.append(f"{shown}: kbuild: {obj}: the layer has no {stem}.c or {stem}.S")
            if not any(re.search(rf"^\s*(?:menu)?config\s+{sym}\s*$", k.read_text(errors="replace"),
                                 re.MULTILINE) for k in layer.path.rglob("Kconfig*")):
                msgs.append(f"{shown}: kbuild: {obj}: option {sym} is not defined in a Kconfig "
                            f"file of {layer.display}")
        for path, names in layer.meta["relies_on"].items():
            found, value = _lookup(data, path)
            if not found:
                msgs.append(f"{at(path)}: the spec no longer has this, but layer {layer.display} "
                            f"relies on it (relies_on in {shown})")
                continue
            have = _names_at(value)
            missing = [str(n) for n in names if str(n) not in have]
            if missing:
                msgs.append(f"{at(path)}: layer {layer.display} relies on "
                            + ", ".join(missing) + f" (relies_on in {shown}), which the spec no "
                            "longer has; it defines: " + ", ".join(sorted(have)))
    for key, resps in CONTRACT_KEYS.items():
        found, value = _lookup(data, key)
        if not found:
            continue
        declaring = [layer for layer in project.layers if key in layer.meta["implements"]]
        if declaring:
            ok = [layer for layer in declaring if value in layer.meta["implements"][key]]
            if not ok:
                who = "; ".join(f"{layer.display} implements "
                                + ", ".join(map(_yaml, layer.meta["implements"][key]))
                                for layer in declaring)
                msgs.append(f"{at(key)}: the spec asks for {_yaml(value)}, which no layer implements "
                            f"({who})")
            continue
        users = sorted({prov[r].display for r in resps if prov[r] is not None})
        if users:
            msgs.append(f"{at(key)}: the spec asks for {_yaml(value)}, but no layer states that it "
                        f"implements {key}, and {', '.join(users)} provide(s) "
                        + ", ".join(BY_KEY[r].title for r in resps if prov[r] is not None)
                        + f" (add '{key}: [{_yaml(value)}]' under implements: in the layer.yaml that "
                        "supports it)")
    if msgs:
        raise ContractError([str(m) for m in msgs])
    # The devices' properties against the layers' bindings (spec errors).
    from .bindings import check_properties  # noqa: PLC0415

    check_properties(spec, project.bindings, [layer.display for layer in project.layers])


def needed(project, resp: Responsibility) -> bool:
    """Whether the spec needs ``resp`` (needed_if in contract.yaml: SMP bring-up
    only with more than one CPU)."""
    if resp.needed_if is None:
        return True
    key, least = resp.needed_if
    found, value = _lookup(project.spec.data, key)
    return found and isinstance(value, int) and value >= least


def stubs_needed(project) -> list[Responsibility]:
    """Needed responsibilities no layer provides and that have stubs."""
    prov = providers(project)
    return [r for r in RESPONSIBILITIES if prov[r.key] is None and r.stubs and needed(project, r)]
