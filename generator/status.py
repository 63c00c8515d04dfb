"""``generate.py --status SPEC``: the porting report.

For each arch responsibility (``generator.layers.RESPONSIBILITIES``): the layer
that provides it, or "STUB" (a generated stub stands in), or "not needed";
the spec values each layer states it implements; and, when a kernel build
directory exists, the symbols a link left undefined, mapped to the
responsibility they belong to (from ``vmlinux.o``, which kbuild links before
the final vmlinux, or from "undefined reference" lines of a build log).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

from .kernelsrc import KernelSourceError, exact_version
from .layers import RESPONSIBILITIES, _lookup, _yaml, needed, providers, template_parts

#: Symbols a link script or the final link defines: never a port's problem.
_LINKER_SYMBOLS = re.compile(r"^(_+[a-z0-9_]*(start|end|begin|stop)[a-z0-9_]*|_end|_etext|_edata|"
                             r"_stext|_sdata|_text|_sinittext|_einittext|jiffies|kallsyms_.*|"
                             r"__[a-z0-9_]+_(start|end))$")


@dataclass
class Report:
    arch: str
    spec: str
    linux: str = ""                                    # the exact kernel version generated for
    layers: list = field(default_factory=list)         # (display, description)
    rows: list = field(default_factory=list)           # (title, provider or None, files, state)
    implements: list = field(default_factory=list)     # (layer, key, values, spec value, ok)
    parts: list = field(default_factory=list)          # (function name, provider or None)
    build_dir: str | None = None
    build_source: str | None = None
    undefined: dict = field(default_factory=dict)      # responsibility title -> symbols
    unmapped: list = field(default_factory=list)
    base_arch: str | None = None                       # the spec compared with (sharing)
    sharing: list = field(default_factory=list)        # (origin, shared lines, own lines)

    @property
    def stubs(self) -> list[str]:
        return [r[0] for r in self.rows if r[3] == "stub"]


def _nm(spec_data) -> str | None:
    for prefix in spec_data["isa"]["cross_compile"] or []:
        if shutil.which(prefix + "nm"):
            return prefix + "nm"
    return shutil.which("nm")


def undefined_symbols(build_dir: Path, spec_data) -> tuple[set[str], str | None]:
    """Undefined symbols of the last link in build_dir, and where they were read."""
    log = build_dir / "build.log"
    syms: set[str] = set()
    vmo = build_dir / "vmlinux.o"
    if vmo.is_file() and not (build_dir / "vmlinux").is_file():
        nm = _nm(spec_data)
        if nm:
            p = subprocess.run([nm, "-u", str(vmo)], capture_output=True, text=True)
            syms = {line.split()[-1] for line in p.stdout.splitlines() if line.strip()}
            return {s for s in syms if not _LINKER_SYMBOLS.match(s)}, str(vmo)
    if log.is_file():
        text = log.read_text(errors="replace")
        syms = set(re.findall(r"undefined reference to `([^']+)'", text))
        return syms, str(log)
    if (build_dir / "vmlinux").is_file():
        return set(), str(build_dir / "vmlinux")
    return set(), None


def used_sources(project) -> dict[str, int]:
    """Source files (display name) the project's output is made from -> their lines.

    A produced file counts its winning source and, when that one extends
    the file below it ({% extends parent_template %} or a named parent),
    every lower source of the same path it builds on, and the family and MMU
    parts these include."""
    from .render import PART_CALL, PART_KIND_BY_FUNCTION, Renderer  # noqa: PLC0415

    renderer = Renderer(project)
    produced = renderer.render_tree()
    arch_prefix = f"arch/{project.arch}/"
    by_display = {src.display: src for stack in renderer.providers.values() for src in stack}
    used: dict[str, int] = {}
    for path, rendered in produced.items():
        stack = renderer.providers.get(path[len(arch_prefix):], [])
        chain = []
        for src in reversed(stack):
            chain.append(src)
            if not (src.is_jinja and "{% extends" in src.abspath.read_text(errors="replace")):
                break
        for src in chain or [by_display[rendered.source]]:
            text = src.abspath.read_text(errors="replace")
            used[src.display] = len(text.splitlines())
            # The family and MMU parts it includes are part of what it is made from.
            for m in PART_CALL.finditer(text):
                part = renderer.part(PART_KIND_BY_FUNCTION[m.group(1)], m.group(2), optional=True)
                found = renderer._by_loader.get(part) if isinstance(part, str) else None
                if found is not None:
                    used[found.display] = len(found.abspath.read_text(errors="replace")
                                              .splitlines())
    return used


def _origin(display: str) -> str:
    parts = display.split("/")
    return "templates" if parts[0] == "templates" else "/".join(parts[:2])


def sharing(project, base_project) -> list[tuple[str, int, int]]:
    """(origin, lines shared with the base project, own lines) per origin, lowest first."""
    mine, theirs = used_sources(project), used_sources(base_project)
    rows: dict[str, list[int]] = {"templates": [0, 0]}
    for layer in project.layers:
        rows.setdefault(layer.display, [0, 0])
    for display, lines in mine.items():
        row = rows.setdefault(_origin(display), [0, 0])
        row[0 if display in theirs else 1] += lines
    return [(origin, shared, own) for origin, (shared, own) in rows.items()]


def make_report(project, build_dir: Path | None = None, base_project=None) -> Report:
    data = project.spec.data
    prov = providers(project)
    series = data["arch"]["kernel_series"]
    try:
        linux = ".".join(map(str, exact_version(project.root, series)))
    except KernelSourceError:
        linux = f"{series} (its source is not installed)"
    rep = Report(arch=project.arch, spec=project.spec_display, linux=linux)
    for layer in project.layers:
        rep.layers.append((layer.display, layer.meta.get("description") or ""))
    for r in RESPONSIBILITIES:
        layer = prov[r.key]
        if layer is not None:
            files = layer.meta["provides"][r.key]
            rep.rows.append((r.title, layer.display, files, "ported"))
        elif not needed(project, r):
            rep.rows.append((r.title, None, [], "not needed"))
        else:
            rep.rows.append((r.title, None, [out for _, out in r.stubs], "stub"))
    seen = set()
    for use in template_parts(project):   # required parts, once each
        if not use.optional and (use.kind.function, use.name) not in seen:
            seen.add((use.kind.function, use.name))
            rep.parts.append((f"{use.kind.function} {use.name}", use.provider))
    for layer in project.layers:
        for key, values in layer.meta["implements"].items():
            _, value = _lookup(data, key)
            rep.implements.append((layer.display, key, ", ".join(map(_yaml, values)), _yaml(value),
                                   value in values))
    if base_project is not None:
        rep.base_arch = base_project.arch
        rep.sharing = sharing(project, base_project)
    if build_dir is not None and build_dir.is_dir():
        rep.build_dir = str(build_dir)
        syms, rep.build_source = undefined_symbols(build_dir, data)
        owner = {s: r.title for r in RESPONSIBILITIES for s in r.symbols}
        for s in sorted(syms):
            if s in owner:
                rep.undefined.setdefault(owner[s], []).append(s)
            else:
                rep.unmapped.append(s)
    return rep


def _state(row) -> str:
    title, provider, files, state = row
    if state == "ported":
        return provider
    if state == "not needed":
        return "not needed"
    return "STUB"


def format_text(rep: Report) -> str:
    out = [f"porting status of arch/{rep.arch} (spec {rep.spec}, Linux {rep.linux})", "",
           "layers, lowest first:"]
    for display, desc in rep.layers:
        out.append(f"  {display:<20} {desc}")
    out += ["", f"  {'responsibility':<24} {'provided by':<20} files"]
    for row in rep.rows:
        out.append(f"  {row[0]:<24} {_state(row):<20} {', '.join(row[2])}")
    needed_rows = [r for r in rep.rows if r[3] != "not needed"]
    out.append(f"  {len(needed_rows) - len(rep.stubs)} of {len(needed_rows)} needed "
               f"responsibilities ported, {len(rep.stubs)} stubs")
    missing = [name for name, provider in rep.parts if provider is None]
    out.append(f"  {len(rep.parts) - len(missing)} of {len(rep.parts)} family and MMU parts the "
               "generic templates need provided" + (", missing:" if missing else ""))
    for name in missing:
        out.append(f"    {name}")
    out += ["", "spec values the layers implement:"]
    if not rep.implements:
        out.append("  (none stated)")
    for layer, key, values, value, ok in rep.implements:
        out.append(f"  {layer:<20} {key:<30} {values:<24} spec: {value}"
                   + ("" if ok else "  <- NOT IMPLEMENTED"))
    out.append("")
    if rep.sharing:
        shared = sum(r[1] for r in rep.sharing)
        own = sum(r[2] for r in rep.sharing)
        out.append(f"source lines of the files arch/{rep.arch} is made from, shared with "
                   f"{rep.base_arch} (used by both) or its own:")
        out.append(f"  {'origin':<20} {'shared':>8} {'own':>8}")
        for origin, s_lines, o_lines in rep.sharing:
            out.append(f"  {origin:<20} {s_lines:>8} {o_lines:>8}")
        total = shared + own
        out.append(f"  shared with {rep.base_arch:<8} {shared:>8} lines "
                   f"({100 * shared // max(total, 1)}%)")
        out.append(f"  {'own':<20} {own:>8} lines")
        out.append("")
    if rep.build_dir is None:
        out.append("build: no build directory yet (make kernel, then --status again)")
    elif rep.build_source is None:
        out.append(f"build: {rep.build_dir} has no link result yet")
    elif not rep.undefined and not rep.unmapped:
        out.append(f"build: no undefined symbols ({rep.build_source})")
    else:
        out.append(f"build: undefined symbols ({rep.build_source}):")
        for title, syms in rep.undefined.items():
            out.append(f"  {title:<24} {', '.join(syms)}")
        if rep.unmapped:
            out.append(f"  {'(other)':<24} {', '.join(rep.unmapped[:40])}"
                       + (f" ... {len(rep.unmapped) - 40} more" if len(rep.unmapped) > 40 else ""))
    return "\n".join(out) + "\n"


def format_markdown(rep: Report) -> str:
    out = [f"# Porting status of arch/{rep.arch}", "",
           f"Spec: `{rep.spec}`, generated for Linux {rep.linux}.", "",
           "| layer (lowest first) | description |", "|---|---|"]
    out += [f"| `{d}` | {desc} |" for d, desc in rep.layers]
    out += ["", "| responsibility | provided by | files |", "|---|---|---|"]
    for row in rep.rows:
        state = _state(row)
        state = f"`{state}`" if row[3] == "ported" else f"**{state}**"
        out.append(f"| {row[0]} | {state} | {', '.join(f'`{f}`' for f in row[2])} |")
    if rep.parts:
        out += ["", "| part the generic templates need | provided by |", "|---|---|"]
        out += [f"| `{name}` | " + (f"`{prov}`" if prov else "**missing**") + " |"
                for name, prov in rep.parts]
    out += ["", "| layer | spec key | implements | spec value |", "|---|---|---|---|"]
    for layer, key, values, value, ok in rep.implements:
        out.append(f"| `{layer}` | `{key}` | {values} | {value}{'' if ok else ' (NOT IMPLEMENTED)'} |")
    if rep.sharing:
        out += ["", f"Source lines shared with {rep.base_arch} (files both arches are made "
                    "from) and own:", "", "| origin | shared | own |", "|---|---:|---:|"]
        out += [f"| `{o}` | {s_} | {own} |" for o, s_, own in rep.sharing]
    if rep.build_source:
        out += ["", f"Undefined symbols after the last build (`{rep.build_source}`):", ""]
        if not rep.undefined and not rep.unmapped:
            out.append("none.")
        for title, syms in rep.undefined.items():
            out.append(f"- {title}: {', '.join(f'`{s}`' for s in syms)}")
        if rep.unmapped:
            out.append(f"- other: {', '.join(f'`{s}`' for s in rep.unmapped[:40])}")
    return "\n".join(out) + "\n"
