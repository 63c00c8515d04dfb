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

Where a layer may be (``load_layers``): in the project. A layer path never
climbs out with ``..`` (the schema refuses it), a layer directory, or any
file or directory in it, that is a symbolic link leading outside the project
is refused, and a layer directory without a ``layer.yaml`` is refused: nothing
outside the project is read or copied because a path said so.

``layer.yaml`` is read like the spec (``generator.yamlio`` and the spec's
walker against ``LAYER_SCHEMA``): duplicate keys, unknown keys and tags,
values of the wrong type, aliases that expand too far are errors naming the
file, line and key.

The contract (``check_contract``), enforced before anything is rendered:

* every file a layer says it provides exists in the layer;
* for each key of ``CONTRACT_KEYS``: every layer of the stack that declares
  it in ``implements`` supports the spec's value (the code of each of them
  runs; one layer supporting it is not enough); if none does but a layer
  provides a responsibility that depends on the key, that is refused too
  (the code was written for some value nobody stated);
* every name in ``relies_on`` exists in the spec (a key of the mapping, or
  the ``name`` of an item of the list, at that path);
* every ``kbuild`` object has its source in the layer, and its option is a
  ``config`` of one of the layer's or the templates' Kconfig files, or one of
  the kernel's own options the contract lists (``kernel_options``).

Device properties are checked against the layers' ``bindings`` when the
project is loaded (``generator.bindings``): they are spec errors.

The responsibilities, their stubs and the contract keys are data
(``generator/contract.yaml``). Responsibilities no layer provides get
generated stubs (``templates/_stubs``): a ``#warning`` at build time, and a
panic naming the responsibility if reached.
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import schema as S
from . import yamlio
from .errors import Diagnostic, ErrorList, LayoutError, SpecError, plural


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
    raw = yamlio.load_plain(path, f"generator/{path.name}", "contract")
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
    return tuple(resps), keys, frozenset(raw.get("kernel_options") or ())


RESPONSIBILITIES, CONTRACT_KEYS, KERNEL_OPTIONS = _load_contract()
#: Spec names the generic templates use (contract.yaml: generic_relies_on).
GENERIC_RELIES_ON: dict[str, list[str]] = dict(
    yamlio.load_plain(CONTRACT_FILE, f"generator/{CONTRACT_FILE.name}", "contract")
    .get("generic_relies_on") or {})
BY_KEY = {r.key: r for r in RESPONSIBILITIES}
#: CONTRACT_KEYS: spec values code must be written for -> the responsibilities
#: that depend on them.

META_KEYS = ("description", "provides", "implements", "relies_on", "bindings", "kbuild")
#: kbuild: object (path in the arch directory) -> the kernel option that builds it.
KBUILD_OBJECT = r"[A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)*\.o"
KCONFIG_SYMBOL = r"[A-Z0-9_]+"
#: A file of a layer, relative to it (no '..', no hidden component).
LAYER_FILE = r"[A-Za-z0-9_][A-Za-z0-9_.+-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.+-]*)*"
#: A spec key path such as isa.endianness.
SPEC_PATH = r"[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*"


def _layer_schema() -> S.Map:
    from .bindings import BINDINGS_SCHEMA  # noqa: PLC0415 (bindings imports nothing of ours)

    return S.Map(doc="layer.yaml", fields={
        "description": S.Text(doc="one-line description", default=""),
        "provides": S.Table(doc="responsibility -> the files of this layer that implement it",
                            default={}, key_doc="a responsibility name",
                            value=S.List(doc="files of the layer", scalar_ok=True, item=S.Str(
                                pattern=LAYER_FILE,
                                pattern_doc="a file of the layer (a relative path without '..')"))),
        "implements": S.Table(doc="contract key -> the spec values this layer's code supports",
                              default={}, key_pattern=SPEC_PATH, key_doc="a spec key path",
                              value=S.List(doc="values", scalar_ok=True, item=S.Scalar(
                                  doc="a spec value (string, number or boolean)"))),
        "relies_on": S.Table(doc="spec path -> the names this layer's code uses", default={},
                             key_pattern=SPEC_PATH, key_doc="a spec key path",
                             value=S.List(doc="names", scalar_ok=True, item=S.Str(
                                 pattern=S.C_IDENT, pattern_doc="a name (an identifier)"))),
        "bindings": BINDINGS_SCHEMA,
        "kbuild": S.Table(doc="object -> the kernel option that builds it", default={},
                          key_pattern=KBUILD_OBJECT, key_doc="an object path (dir/name.o)",
                          value=S.Str(pattern=KCONFIG_SYMBOL,
                                      pattern_doc="a Kconfig symbol without CONFIG_")),
    })


#: What a layer.yaml may hold (see the module doc).
LAYER_SCHEMA = _layer_schema()


class ContractError(ErrorList):
    """The spec and the layers disagree (or a layer.yaml is malformed)."""

    def __init__(self, messages: list[str]):
        super().__init__(messages, f"{plural(len(messages), 'contract error')}; nothing written.")


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _same(a: Any, b: Any) -> bool:
    """Spec value equality that does not take true for 1."""
    return isinstance(a, bool) == isinstance(b, bool) and a == b


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


def _spec_field(path: str) -> S.Field | None:
    """The schema field of a spec key path (None: no such key)."""
    f: S.Field = S.SPEC
    for part in path.split("."):
        if not isinstance(f, S.Map) or part not in f.fields:
            return None
        f = f.fields[part]
    return f


def _value_problem(f: S.Field, value: Any) -> str | None:
    """Why ``value`` can never be the spec's value of a key of schema ``f``."""
    if isinstance(f, S.Bool):
        return None if isinstance(value, bool) else "expected true or false"
    if isinstance(f, S.Int):
        if not isinstance(value, int) or isinstance(value, bool):
            return "expected an integer"
        if f.choices is not None and value not in f.choices:
            return "expected one of " + ", ".join(map(str, f.choices))
        return None
    if isinstance(f, S.Str):
        if not isinstance(value, str):
            return "expected a string (quote it: \"6.1\")"
        if f.choices is not None and value not in f.choices:
            close = difflib.get_close_matches(value, list(f.choices), n=1, cutoff=0.6)
            tip = f" (did you mean '{close[0]}'?)" if close else ""
            return "expected one of " + ", ".join(f.choices) + tip
    return None


def _empty_meta() -> dict[str, Any]:
    return {"provides": {}, "implements": {}, "relies_on": {}, "description": "",
            "bindings": {}, "kbuild": {}, "lines": {}}


def read_meta(path: Path, display: str) -> dict[str, Any]:
    """layer.yaml of a layer directory, checked like a spec (see the module doc).

    A directory that does not exist has no meta ({}): the arch's own default
    layer may be absent. One that exists must have a layer.yaml."""
    from .spec import Walker  # noqa: PLC0415

    meta_file = path / "layer.yaml"
    shown = f"{display}/layer.yaml"
    if not path.exists():
        return _empty_meta()
    if not meta_file.is_file():
        raise LayoutError([f"{display}/: a layer directory without layer.yaml; a layer states "
                           "there what it provides and implements (see generator/layers.py)"])
    node = yamlio.compose_file(meta_file, shown, "layer.yaml")
    walker = Walker(shown, what="layer.yaml")
    if node is None:
        meta = _empty_meta()
    else:
        meta = walker.walk(LAYER_SCHEMA, node, "")
    diags = list(walker.diags)
    if meta is None:  # not a mapping: reported
        raise SpecError(diags, what=shown)

    def report(key: str, message: str) -> None:
        p = key
        while p and p not in walker.lines:
            p = p.rpartition(".")[0]
        diags.append(Diagnostic(shown, walker.lines.get(p, 1), key, message))

    for table in ("provides", "implements", "relies_on", "kbuild"):
        meta[table] = {k: v for k, v in (meta.get(table) or {}).items() if v is not None}
    for resp in meta["provides"]:
        if resp not in BY_KEY:
            close = difflib.get_close_matches(resp, list(BY_KEY), n=1, cutoff=0.6)
            tip = f" (did you mean '{close[0]}'?)" if close else ""
            report(f"provides.{resp}", f"unknown responsibility '{resp}'{tip}; known: "
                   + ", ".join(BY_KEY))
    for key, values in meta["implements"].items():
        if key not in CONTRACT_KEYS:
            close = difflib.get_close_matches(key, list(CONTRACT_KEYS), n=1, cutoff=0.6)
            tip = f" (did you mean '{close[0]}'?)" if close else ""
            report(f"implements.{key}", f"'{key}' is not a contract key{tip}; known: "
                   + ", ".join(CONTRACT_KEYS))
            continue
        f = _spec_field(key)
        for i, value in enumerate(values):
            problem = _value_problem(f, value) if f is not None and value is not None else None
            if problem:
                report(f"implements.{key}[{i}]", f"{problem}, found {_yaml(value)} "
                       f"(the spec's {key} can never be that)")
    from .bindings import read_bindings  # noqa: PLC0415

    meta["bindings"] = read_bindings(meta.get("bindings"), display, report)
    meta["lines"] = walker.lines
    if diags:
        raise SpecError(diags, what=shown)
    return meta


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def escaping_links(base: Path, root: Path, display: str) -> list[str]:
    """Symbolic links under ``base`` (or ``base`` itself) that lead outside ``root``."""
    root = root.resolve()
    out = []
    if base.is_symlink() and not _inside(base.resolve(), root):
        return [f"{display}/: a symbolic link leading outside the project; nothing outside "
                "the project is read or copied"]
    for dirpath, dirnames, filenames in os.walk(base):
        for name in dirnames + filenames:
            p = Path(dirpath, name)
            if p.is_symlink() and not _inside(p.resolve(), root):
                rel = p.relative_to(base).as_posix()
                out.append(f"{display}/{rel}: a symbolic link leading outside the project; "
                           "nothing outside the project is read or copied")
    return sorted(out)


def load_layers(project) -> list:
    """The project's layers, lowest first (``render.Layer`` objects)."""
    from .render import Layer, rel_display

    layers, names = [], {}
    spec = project.spec
    root = Path(project.root).resolve()
    for key, path in project.layer_dirs():
        path = Path(path)
        display = rel_display(path, project.root)
        name = path.name
        real = path.resolve()
        if not _inside(real, root):
            as_named = Path(os.path.abspath(path))  # before symbolic links are followed
            how = "is a symbolic link leading" if _inside(
                as_named, Path(os.path.abspath(project.root))) else "lies"
            raise SpecError([spec.diag(key, f"override layer directory {display}/ {how} outside "
                                            "the project; layers must lie in the project "
                                            "(nothing outside it is read or copied)")])
        if not path.is_dir():
            # The arch's own default layer may be absent (an arch without hand code).
            if key == "arch.name" and not path.exists():
                layers.append(Layer(name, path, display, _empty_meta()))
                continue
            raise SpecError([spec.diag(key, f"override layer directory {display}/ does not exist")])
        if not (path / "layer.yaml").is_file():
            raise SpecError([spec.diag(key, f"override layer directory {display}/ has no "
                                            "layer.yaml; a layer states there what it provides "
                                            "and implements (see generator/layers.py)")])
        if name in names:
            raise SpecError([spec.diag(key, f"two layers named '{name}' ({names[name]} and "
                                            f"{display}); layer directory names must differ")])
        names[name] = display
        links = escaping_links(path, root, display)
        if links:
            raise LayoutError(links)
        layers.append(Layer(name, path, display, read_meta(path, display)))
    return layers


def providers(project) -> dict[str, Any]:
    """Responsibility key -> the highest layer that provides it (or None: a stub)."""
    out: dict[str, Any] = {r.key: None for r in RESPONSIBILITIES}
    for layer in project.layers:
        for resp in layer.meta["provides"]:
            out[resp] = layer
    return out


def check_contract(project, kernel: bool = True) -> None:
    """Refuse (exit 2) a spec the layers do not implement, before anything is written.

    With ``kernel`` false (the board's hardware description for the emulator),
    the spec's values need not be ones the layers' kernel code implements: the
    layers and the device properties are still checked."""
    spec, data = project.spec, project.spec.data
    msgs: list[Diagnostic | str] = []
    prov = providers(project)

    def at(path: str) -> str:
        return f"{spec.file_of(path)}:{spec.line_of(path)}: {path}"

    for layer in project.layers:
        shown = f"{layer.display}/layer.yaml"
        lines = layer.meta.get("lines", {})

        def where(key: str) -> str:
            return f"{shown}:{lines.get(key, 1)}: {key}"

        for resp, files in layer.meta["provides"].items():
            for i, f in enumerate(files):
                if not (layer.path / f).is_file():
                    msgs.append(f"{where(f'provides.{resp}[{i}]')}: provides {resp}: file "
                                f"{layer.display}/{f} does not exist")
        for obj, sym in layer.meta["kbuild"].items():
            stem = obj[:-2]
            if not any((layer.path / f"{stem}{ext}").is_file()
                       for ext in (".c", ".S", ".c.j2", ".S.j2")):
                msgs.append(f"{where(f'kbuild.{obj}')}: the layer has no {stem}.c or {stem}.S")
            kconfigs = [*layer.path.rglob("Kconfig*"), *project.templates_dir.rglob("Kconfig*")]
            if sym not in KERNEL_OPTIONS and not any(
                    re.search(rf"^\s*(?:menu)?config\s+{sym}\s*$", k.read_text(errors="replace"),
                              re.MULTILINE) for k in kconfigs):
                msgs.append(f"{where(f'kbuild.{obj}')}: option {sym} is not defined in a Kconfig "
                            f"file of {layer.display} or templates/, nor a kernel option of "
                            f"generator/contract.yaml (kernel_options)")
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
    for path, names in GENERIC_RELIES_ON.items():
        found, value = _lookup(data, path)
        missing = [str(n) for n in names if not found or str(n) not in _names_at(value)]
        if missing:
            msgs.append(f"{at(path)}: the generic templates (templates/) rely on "
                        + ", ".join(missing) + " (generic_relies_on in generator/contract.yaml), "
                        "which the spec does not have"
                        + (f"; it defines: {', '.join(sorted(_names_at(value)))}" if found else ""))
    for key, resps in CONTRACT_KEYS.items() if kernel else ():
        found, value = _lookup(data, key)
        if not found:
            continue
        declaring = [layer for layer in project.layers if key in layer.meta["implements"]]
        if declaring:
            # Every declaring layer's code runs: each must support the value.
            bad = [layer for layer in declaring
                   if not any(_same(value, v) for v in layer.meta["implements"][key])]
            if len(bad) == len(declaring):
                who = "; ".join(f"{layer.display} implements "
                                + ", ".join(map(_yaml, layer.meta["implements"][key]))
                                for layer in declaring)
                msgs.append(f"{at(key)}: the spec asks for {_yaml(value)}, which no layer implements "
                            f"({who})")
            elif bad:
                who = "; ".join(f"{layer.display} implements only "
                                + ", ".join(map(_yaml, layer.meta["implements"][key]))
                                for layer in bad)
                good = ", ".join(layer.display for layer in declaring if layer not in bad)
                msgs.append(f"{at(key)}: the spec asks for {_yaml(value)}, which "
                            + " and ".join(layer.display for layer in bad)
                            + (" does" if len(bad) == 1 else " do")
                            + f" not implement ({who}); every layer that states {key} "
                            f"under implements: must support the value, not only {good}")
            continue
        users = sorted({prov[r].display for r in resps if prov[r] is not None})
        if users:
            msgs.append(f"{at(key)}: the spec asks for {_yaml(value)}, but no layer states that it "
                        f"implements {key}, and {', '.join(users)} provide(s) "
                        + ", ".join(BY_KEY[r].title for r in resps if prov[r] is not None)
                        + f" (add '{key}: [{_yaml(value)}]' under implements: in the layer.yaml that "
                        "supports it)")
    msgs += _missing_parts(project)
    if msgs:
        raise ContractError([str(m) for m in msgs])
    # The devices' properties against the layers' bindings (spec errors).
    from .bindings import check_properties  # noqa: PLC0415

    check_properties(spec, project.bindings, [layer.display for layer in project.layers])


@dataclass(frozen=True)
class PartUse:
    """One include of a family or MMU part by a generic template."""

    kind: Any               # generator.render.PartKind
    name: str
    template: str           # templates/<path>
    line: int
    optional: bool
    provider: str | None    # display of the highest layer that has it


def template_parts(project) -> list[PartUse]:
    """The family and MMU parts the generic templates of the project include
    (``_family/<name>.j2``, ``_mmu/<name>.j2``; see ``Renderer.part``), each
    with the layer that provides it. A template a layer replaces or extends
    is left out: the render says what it lacks."""
    from .render import PART_CALL, PART_KIND_BY_FUNCTION  # noqa: PLC0415

    tdir = project.templates_dir
    if not tdir.is_dir():
        return []
    out = []
    for path in sorted(tdir.rglob("*.j2")):
        rel = path.relative_to(tdir).as_posix()
        if any(part.startswith("_") for part in rel.split("/")):
            continue
        if any((layer.path / rel).is_file() for layer in project.layers):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in PART_CALL.finditer(line):
                kind, name = PART_KIND_BY_FUNCTION[m.group(1)], m.group(2)
                provider = next((layer.display for layer in reversed(project.layers)
                                 if (layer.path / kind.directory / f"{name}.j2").is_file()), None)
                out.append(PartUse(kind, name, f"templates/{rel}", n, m.group(3) is not None,
                                   provider))
    return out


def _missing_parts(project) -> list[str]:
    """One message per required part no layer of the stack has, naming the
    template line, the part, and the layer that claims the axis (``implements:
    isa.family`` or ``mmu.walker``), which is where it belongs."""
    out = []
    for use in template_parts(project):
        if use.optional or use.provider is not None:
            continue
        kind = use.kind
        _, value = _lookup(project.spec.data, kind.axis)
        claims = [f"{layer.display}/layer.yaml:"
                  f"{layer.meta.get('lines', {}).get(f'implements.{kind.axis}', 1)}: "
                  f"implements.{kind.axis}" for layer in project.layers
                  if kind.axis in layer.meta["implements"]]
        owner = (f"the {kind.owner} ({'; '.join(claims)})" if claims
                 else f"the {kind.owner} (no layer of the stack implements {kind.axis} yet)")
        out.append(f"{use.template}:{use.line}: {kind.function} {use.name}: no layer of the "
                   f"stack has {kind.directory}/{use.name}.j2, which this generic template "
                   f"includes; {owner} must provide it for {kind.axis} {_yaml(value)}")
    return out


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
