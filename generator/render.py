"""Render templates and overrides into an in-memory arch tree.

Nothing here touches the output directory: ``render_tree()`` returns the
complete set of files (path -> bytes), and ``generator.output`` decides what
to write. Sources:

* ``templates/`` mirrors ``arch/<name>/``; ``*.j2`` files are rendered, other
  files copied. Path components may hold Jinja expressions; a component that
  renders empty, or a file whose content renders to whitespace only, is not
  produced. Path components starting with ``_`` hold helper templates (macros
  to import or include) and are never output themselves.
* override layers (``arch.layers`` in the spec, lowest first; default the
  arch's own ``overrides/<name>/``) replace or add files at the same relative
  output path, with the same rules: the highest layer providing a path wins.
The Jinja loader exposes ``templates/...`` and ``overrides/<layer>/...`` so an
override can ``{% extends "templates/x.h.j2" %}`` or extend a lower layer's
file; ``{% extends parent_template %}`` names whatever the next lower layer (or
templates/) provides at the same path. A child that fills a block its parent
chain does not define is an error naming the file and line.

Build files (``Makefile``, ``Kbuild``) are rendered last, with the set of
produced paths known: ``arch_files``, ``has(path)``, ``objs(dir)`` (the .o of
every .c/.S in dir), ``subdirs(dir)`` (subdirectories with a Makefile) and
``generic_y(names)`` (asm-generic headers the arch does not provide itself)
and ``obj_config(path)`` (``$(CONFIG_X)`` for an object a layer's ``kbuild:``
builds only with option X, else ``y``), so Kbuild lists never name a file
the arch does not have.
"""

from __future__ import annotations

import os
import re
import stat
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import jinja2.ext
from jinja2 import nodes

from . import __version__
from .families import family_context
from .derive import DeriveError, derive
from .errors import Diagnostic, LayoutError, SpecError, TemplateError
from .filters import FILTERS, GLOBAL_FUNCTIONS, TESTS, FilterError
from .headers import insert_header, make_header
from .kernelsrc import KernelSourceError, exact_version, has_change
from .schema import SECTIONS
from .spec import Spec

IGNORED_NAMES = {"__pycache__", ".DS_Store", ".git"}
IGNORED_SUFFIXES = ("~", ".swp", ".swo", ".pyc", ".orig", ".rej")


@dataclass
class Source:
    """One file under templates/ or the override directory."""

    kind: str           # "template" or "override"
    rel: str            # path relative to its root, posix
    abspath: Path
    display: str        # how messages and headers name it, e.g. templates/Makefile.j2
    loader_name: str    # name in the Jinja loader
    layer: str = ""     # override layer name ("" for templates/)

    @property
    def is_jinja(self) -> bool:
        return self.rel.endswith(".j2")


@dataclass
class Layer:
    """One override layer: a directory of files merged over templates/ and lower layers."""

    name: str           # loader prefix: overrides/<name>/...
    path: Path
    display: str        # e.g. overrides/mips32
    meta: dict          # layer.yaml (see generator.layers)


LAYER_META = "layer.yaml"
# Rendered last, with the list of what the arch really has (kbuild_helpers):
# the build files, and Kconfig, whose SMP option needs the SMP bring-up code.
BUILD_FILES = ("Makefile", "Kbuild", "Kconfig")


@dataclass
class Rendered:
    """One produced file."""

    path: str           # relative to OUTDIR, e.g. arch/<name>/include/asm/page.h
    data: bytes
    mode: int
    source: str


def rel_display(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` in posix form (never absolute in output)."""
    return Path(os.path.relpath(os.path.abspath(path), os.path.abspath(root))).as_posix()


def _walk(base: Path) -> list[str]:
    """Sorted posix relative paths of the files under ``base``."""
    out = []
    if not base.is_dir():
        return out
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = sorted(d for d in dirnames if d not in IGNORED_NAMES)
        for name in filenames:
            if name in IGNORED_NAMES or name.endswith(IGNORED_SUFFIXES) or name.startswith(".#"):
                continue
            rel = Path(dirpath, name).relative_to(base).as_posix()
            out.append(rel)
    return sorted(out)


class Project:
    """Where things are: project root, templates, overrides, the spec."""

    def __init__(self, root: Path, spec: Spec):
        self.root = Path(root)
        self.spec = spec
        self.arch = spec.data["arch"]["name"]
        self.templates_dir = self.root / "templates"
        # The spec as named in headers and the manifest: relative to the root,
        # or just its file name when it lives elsewhere (no host paths).
        self.spec_display = rel_display(spec.path, self.root)
        if self.spec_display.startswith("../"):
            self.spec_display = spec.path.name
        from .layers import load_layers  # noqa: PLC0415 (layers imports this module)

        self.layers: list[Layer] = load_layers(self)
        from .bindings import collect  # noqa: PLC0415

        # Device properties, declared by the layers that drive the devices
        # (checked against the spec with the contract: generator.layers).
        self.bindings = collect(self.layers)
        # kbuild: object -> kernel option, over the layers (a higher layer's wins).
        self.kbuild_options: dict[str, str] = {}
        for layer in self.layers:
            self.kbuild_options.update(layer.meta.get("kbuild") or {})
        # The arch's own layer (the last one): where hand changes belong.
        self.overrides_dir = self.layers[-1].path
        self.overrides_display = self.layers[-1].display

    def layer_dirs(self) -> list[tuple[str, Path]]:
        """(spec path of the entry, directory) of each layer, lowest first."""
        arch = self.spec.data["arch"]
        if arch.get("layers"):
            out = []
            for i, entry in enumerate(arch["layers"]):
                key = f"arch.layers[{i}]"
                if "/" in entry or entry.startswith("."):
                    out.append((key, (self.spec.dir_of(key) / entry)))
                else:
                    out.append((key, self.root / "overrides" / entry))
            return out
        if arch.get("overrides"):
            return [("arch.overrides", self.spec.dir_of("arch.overrides") / arch["overrides"])]
        return [("arch.name", self.root / "overrides" / self.arch)]

    def sources(self) -> list[Source]:
        from .layers import escaping_links  # noqa: PLC0415

        links = escaping_links(self.templates_dir, self.root, "templates") \
            if self.templates_dir.exists() else []
        for layer in self.layers:
            if layer.path.exists():
                links += escaping_links(layer.path, self.root, layer.display)
        if links:  # checked when the layers were loaded; templates/ and later changes here
            raise LayoutError(links)
        out = []
        for rel in _walk(self.templates_dir):
            out.append(Source("template", rel, self.templates_dir / rel,
                              f"templates/{rel}", f"templates/{rel}"))
        for layer in self.layers:
            for rel in _walk(layer.path):
                if rel == LAYER_META:
                    continue
                out.append(Source("override", rel, layer.path / rel, f"{layer.display}/{rel}",
                                  f"overrides/{layer.name}/{rel}", layer.name))
        return out


class NoneOutputError(ValueError):
    """A template printed None: almost always an optional spec key left unset."""


@dataclass(frozen=True)
class PartKind:
    """Text of a generic template that belongs to one contract axis: the
    template includes ``<function>("name")`` and a layer of the stack has
    ``<directory>/name.j2`` (never output: a ``_`` path)."""

    function: str       # the template function: family_part, mmu_part
    directory: str      # where a layer keeps such parts
    axis: str           # the contract key whose layer writes them
    owner: str          # how messages name that layer


#: A part's name: a relative path inside the layer's part directory.
PART_NAME = r"[A-Za-z0-9_-]+(?:/[A-Za-z0-9_-]+)*"
PART_NAME_DOC = "words of letters, digits, '_' and '-' joined by '/'"
PART_KINDS = (PartKind("family_part", "_family", "isa.family", "family layer"),
              PartKind("mmu_part", "_mmu", "mmu.walker", "MMU-design layer"))
#: ``family_part("name")``, ``mmu_part("name", optional=True)`` in a template's
#: text: the function, the part's name, and whether it is optional.
PART_CALL = re.compile(r"\b(" + "|".join(k.function for k in PART_KINDS) + r")\(\s*[\"']("
                       + PART_NAME + r")[\"']\s*(,\s*optional\s*=\s*True\s*)?\)")
PART_KIND_BY_FUNCTION = {k.function: k for k in PART_KINDS}


class PartError(ValueError):
    """A generic template includes a family or MMU part no layer of the stack has."""


def _refuse_none(value: Any) -> Any:
    if value is None:
        raise NoneOutputError("the template prints a None value (an optional spec key that is "
                              "not set?); test it with {% if ... %} or give it a value")
    return value


class ParentTemplateExtension(jinja2.ext.Extension):
    """Resolve ``{% extends parent_template %}`` per file, before parsing.

    A render-time variable would be the same for the whole render, so in a
    chain (arch layer extends the MMU layer, which extends the family layer,
    which extends the template) every level would extend itself. Each file
    instead gets the loader name of the source below it, from
    ``environment.portkit_parents`` (loader name -> Source).
    """

    _EXTENDS = re.compile(r"(\{%-?\s*extends\s+)parent_template(\s*-?%\})")

    def preprocess(self, source, name, filename=None):
        parent = getattr(self.environment, "portkit_parents", {}).get(name)
        if parent is None:
            return source
        return self._EXTENDS.sub(lambda m: f'{m.group(1)}"{parent.loader_name}"{m.group(2)}',
                                 source)


class FullNameLoader(jinja2.BaseLoader):
    """A PrefixLoader that compiles each template under its full loader name
    (``overrides/<layer>/<path>``), so ``ParentTemplateExtension`` can tell the
    layers' files at one path apart (PrefixLoader would use ``<path>``)."""

    def __init__(self, inner: jinja2.BaseLoader):
        self.inner = inner

    def get_source(self, environment, template):
        return self.inner.get_source(environment, template)

    def list_templates(self):
        return self.inner.list_templates()


def make_environment(project: Project) -> jinja2.Environment:
    loader = jinja2.PrefixLoader({
        "templates": jinja2.FileSystemLoader(str(project.templates_dir)),
        "overrides": jinja2.PrefixLoader({
            layer.name: jinja2.FileSystemLoader(str(layer.path)) for layer in project.layers
        }),
    })
    env = jinja2.Environment(
        loader=FullNameLoader(loader),
        finalize=_refuse_none,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
        extensions=[ParentTemplateExtension],
    )
    env.filters.update(FILTERS)
    env.tests.update(TESTS)
    env.globals.update(GLOBAL_FUNCTIONS)
    return env


def build_context(project: Project) -> dict[str, Any]:
    data = project.spec.data
    try:
        derived = derive(data)
    except DeriveError as exc:
        raise SpecError([Diagnostic(project.spec.display, 1, "", f"cannot derive values: {exc}")]) from None
    series = data["arch"]["kernel_series"]
    try:
        linux_version = exact_version(project.root, series)
    except KernelSourceError as exc:
        raise SpecError([project.spec.diag("arch.kernel_series", str(exc))]) from None
    ctx: dict[str, Any] = {"spec": data, "derived": derived,
                           "portkit_version": __version__, "spec_path": project.spec_display,
                           "linux_version": linux_version,
                           "linux_version_text": ".".join(map(str, linux_version)),
                           "linux_has": lambda name: has_change(linux_version, name)}
    for section in SECTIONS:
        ctx[section] = data[section]
    ctx["family"] = family_context(data)
    from .bindings import dts_lines  # noqa: PLC0415

    ctx["dts_properties"] = lambda dev: dts_lines(project.bindings, dev)
    from .hwdesc import kernel_register_maps  # noqa: PLC0415

    ctx["register_maps"] = kernel_register_maps(project)
    return ctx


class Renderer:
    """Renders every source of a project into ``Rendered`` files, in memory."""

    def __init__(self, project: Project):
        self.project = project
        self.env = make_environment(project)
        self.context = build_context(project)
        self.env.globals.update(self.context)
        self.env.globals["generated_header"] = self._generated_header
        for kind in PART_KINDS:
            self.env.globals[kind.function] = self._part_function(kind)
        # Absolute file name (as Jinja reports it) -> display name.
        self._display_by_file: dict[str, str] = {}
        self._by_loader: dict[str, Source] = {}
        # loader name -> the source it overrides (next lower layer or template)
        self._parents: dict[str, Source] = {}
        self.env.portkit_parents = self._parents
        self.providers: dict[str, list[Source]] = {}

    # -- family and MMU parts ----------------------------------------------
    def _part_function(self, kind: PartKind):
        def part(name: str, optional: bool = False) -> str | list[str]:
            return self.part(kind, name, optional)
        return part

    def part(self, kind: PartKind, name: str, optional: bool = False) -> str | list[str]:
        """``{% include family_part("ptrace/user_mode") %}``: the ISA family's
        text at that point of a generic template, from the highest layer that
        has ``_family/<name>.j2`` (the family layer, or a layer above it that
        replaces it); ``mmu_part`` likewise from ``_mmu/`` (the MMU-design
        layer). A generic template stays free of one ISA's or one MMU's
        names; those layers fill in registers, instructions, entry formats.

        Without such a file: an error naming the template line and the part
        (the layer does not implement what the generic template relies on;
        ``generator.layers`` reports it before rendering); with
        ``optional=True``, nothing (include it with ``ignore missing``).
        """
        if not re.fullmatch(PART_NAME, name):
            raise PartError(f"{kind.function}: {name!r} is not a part name ({PART_NAME_DOC})")
        rel = f"{kind.directory}/{name}.j2"
        for layer in reversed(self.project.layers):
            if (layer.path / rel).is_file():
                return f"overrides/{layer.name}/{rel}"
        if optional:
            return [f"overrides/{layer.name}/{rel}" for layer in self.project.layers]
        shown = ", ".join(layer.display for layer in self.project.layers)
        raise PartError(
            f"{kind.function} '{name}' missing: no layer of the stack ({shown}) has {rel}\n"
            f"why: this generic template leaves that text to the {kind.owner} of {kind.axis}")

    # -- errors ------------------------------------------------------------
    def _error(self, exc: Exception, source: Source) -> TemplateError:
        if isinstance(exc, jinja2.TemplateSyntaxError):
            where = self._display(exc.filename) or source.display
            return TemplateError(where, exc.lineno, f"syntax error: {exc.message}")
        where, line = source.display, None
        for frame in traceback.extract_tb(exc.__traceback__):
            shown = self._display(frame.filename)
            if shown:
                where, line = shown, frame.lineno
        if isinstance(exc, jinja2.UndefinedError):
            msg = f"undefined: {exc.message}"
        elif isinstance(exc, jinja2.TemplateNotFound):
            names = ", ".join(f"overrides/{layer.name}/<path>" for layer in self.project.layers)
            msg = f"template not found: {exc.name} (templates are named templates/<path> " \
                  f"and {names})"
        elif isinstance(exc, (NoneOutputError, FilterError, PartError)):
            msg = str(exc)
        else:
            msg = f"{type(exc).__name__}: {exc}"
        return TemplateError(where, line, msg)

    def _display(self, filename: str | None) -> str | None:
        """Display name of a file Jinja names in a traceback, or None if not ours."""
        if not filename:
            return None
        norm = os.path.normpath(os.path.abspath(filename))
        if norm in self._display_by_file:
            return self._display_by_file[norm]
        bases = [(self.project.templates_dir, "templates")]
        bases += [(layer.path, layer.display) for layer in self.project.layers]
        for base, shown in bases:
            base_norm = os.path.normpath(os.path.abspath(base))
            if norm.startswith(base_norm + os.sep):
                return f"{shown}/{Path(os.path.relpath(norm, base_norm)).as_posix()}"
        return None

    # -- paths -------------------------------------------------------------
    def output_rel(self, source: Source) -> str | None:
        """Output path relative to arch/<name>/, or None when switched off."""
        parts = source.rel.split("/")
        if any(p.startswith("_") for p in parts):
            return None
        if parts[-1].endswith(".j2"):
            parts[-1] = parts[-1][:-3]
        out = []
        for part in parts:
            if "{{" in part or "{%" in part:
                try:
                    part = self.env.from_string(part).render().strip()
                except jinja2.TemplateError as exc:
                    detail = exc.message if hasattr(exc, "message") else str(exc)
                    raise TemplateError(source.display, None,
                                        f"in the file name {part!r}: {detail}") from None
                if "/" in part or part in (".", ".."):
                    raise TemplateError(source.display, None,
                                        f"file name component renders to {part!r}")
                if not part:
                    return None
                if part == "None":
                    raise TemplateError(source.display, None, f"file name component {part!r} "
                                        "renders to None (an optional spec key that is not set?)")
            out.append(part)
        return "/".join(out)

    # -- headers -----------------------------------------------------------
    def header_message(self, source: Source, out_rel: str, extends: str | None) -> str:
        spec = self.project.spec_display
        ovr = f"{self.project.overrides_display}/{out_rel}"
        resp = getattr(self, "stubs", {}).get(out_rel)
        if resp is not None:
            return (f"Stub generated by portkit from {source.display}: {resp.title} is not "
                    f"ported. Provide it in {self.project.overrides_display}/ and list it under "
                    f"provides: {resp.key} in its layer.yaml.")
        if source.kind == "template":
            if source.is_jinja:
                return (f"Generated by portkit from {source.display} and {spec}: do not edit. "
                        f"Change the template, the spec, or add {ovr}.")
            return (f"Copied by portkit from {source.display}: do not edit. "
                    f"Change that file, or add {ovr}.")
        if source.is_jinja:
            if extends:
                return (f"Generated by portkit from {source.display} (extending {extends}) "
                        f"and {spec}: do not edit. Change the override, the template or the spec.")
            return (f"Generated by portkit from {source.display} and {spec}: do not edit. "
                    f"Change that override or the spec.")
        return f"Copied by portkit from {source.display}: edit that file."

    @jinja2.pass_context
    def _generated_header(self, context: Any) -> str:
        """``{{ generated_header() }}``: place the header yourself (no newline)."""
        header = context.get("_portkit_header")
        if not header:
            return ""
        return header.rstrip("\n")

    def _parse(self, source: Source):
        try:
            text = source.abspath.read_text(encoding="utf-8")
            return self.env.parse(text, source.loader_name, str(source.abspath))
        except (jinja2.TemplateSyntaxError, UnicodeDecodeError):
            return None  # reported properly when rendering

    def _extends_node(self, source: Source):
        ast = self._parse(source)
        if ast is None:
            return None
        return next(iter(ast.find_all(nodes.Extends)), None)

    def _parent_name(self, source: Source, node) -> str | None:
        """Loader name of the template ``source`` extends (None if not static)."""
        if isinstance(node.template, nodes.Const):
            return str(node.template.value)
        if isinstance(node.template, nodes.Name) and node.template.name == "parent_template":
            parent = self._parents.get(source.loader_name)
            return parent.loader_name if parent else None
        return None

    def _extends_of(self, source: Source) -> str | None:
        """The template an override extends (for its header), if any."""
        node = self._extends_node(source)
        return self._parent_name(source, node) if node is not None else None

    def _blocks_of(self, loader_name: str, seen: frozenset = frozenset()) -> set[str]:
        """Every block a template defines, itself or through the templates it extends."""
        src = self._by_loader.get(loader_name)
        if src is None or loader_name in seen:
            return set()
        ast = self._parse(src)
        if ast is None:
            return set()
        names = {b.name for b in ast.find_all(nodes.Block)}
        ext = next(iter(ast.find_all(nodes.Extends)), None)
        if ext is not None:
            parent = self._parent_name(src, ext)
            if parent:
                names |= self._blocks_of(parent, seen | {loader_name})
        return names

    def check_blocks(self, source: Source) -> None:
        """A child may only fill blocks its parent chain defines."""
        node = self._extends_node(source)
        if node is None:
            return
        if isinstance(node.template, nodes.Name) and node.template.name == "parent_template" \
                and source.loader_name not in self._parents:
            raise TemplateError(source.display, node.lineno, "extends parent_template, but no "
                                "lower layer or template provides this path")
        parent = self._parent_name(source, node)
        if parent is None or parent not in self._by_loader:
            return  # dynamic, or missing: the render reports "template not found"
        available = self._blocks_of(parent)
        ast = self._parse(source)
        for block in ast.find_all(nodes.Block):
            if block.name not in available:
                shown = self._by_loader[parent].display
                known = ", ".join(sorted(available)) or "none"
                raise TemplateError(source.display, block.lineno,
                                    f"block '{block.name}' does not exist in {shown} "
                                    f"(blocks there: {known})")

    # -- rendering ---------------------------------------------------------
    def render_source(self, source: Source, out_rel: str,
                      extra: dict[str, Any] | None = None) -> Rendered | None:
        out_path = f"arch/{self.project.arch}/{out_rel}"
        self._display_by_file[os.path.normpath(os.path.abspath(source.abspath))] = source.display
        mode = 0o755 if source.abspath.stat().st_mode & stat.S_IXUSR else 0o644
        extends = None
        if source.is_jinja:
            self.check_blocks(source)
            if source.kind == "override":
                extends = self._extends_of(source)
        header = make_header(out_rel, self.header_message(source, out_rel, extends))
        if source.is_jinja:
            try:
                template = self.env.get_template(source.loader_name)
                parent = self._parents.get(source.loader_name)
                resp = getattr(self, "stubs", {}).get(out_rel)
                if resp is not None:
                    extra = dict(extra or {}, responsibility=resp.title, responsibility_key=resp.key,
                                 arch_layer=self.project.overrides_display)
                text = template.render(output_path=out_path, source_path=source.display,
                                       _portkit_header=header, **(extra or {}),
                                       parent_template=parent.loader_name if parent else None)
            except Exception as exc:  # any failure inside a template is the template's
                raise self._error(exc, source) from None
        else:
            raw = source.abspath.read_bytes()
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                return Rendered(out_path, raw, mode, source.display)  # binary: verbatim
        text = text.replace("\r\n", "\n")
        if not text.strip():
            return None
        if header and header.rstrip("\n") not in text:
            text = insert_header(text, header)
        return Rendered(out_path, text.encode("utf-8"), mode, source.display)

    def plan_sources(self) -> dict[str, Source]:
        """Output path (relative to arch dir) -> winning source (highest layer)."""
        chosen: dict[str, list[Source]] = {}
        per_origin: dict[tuple[str, str], Source] = {}
        problems = []
        for source in self.project.sources():
            self._display_by_file[os.path.normpath(os.path.abspath(source.abspath))] = source.display
            self._by_loader[source.loader_name] = source
            out_rel = self.output_rel(source)
            if out_rel is None:
                continue
            key = (source.layer, out_rel)
            if key in per_origin:
                problems.append(f"{per_origin[key].display} and {source.display} both produce "
                                f"arch/{self.project.arch}/{out_rel}; remove one")
                continue
            per_origin[key] = source
            chosen.setdefault(out_rel, []).append(source)  # sources() is lowest first
        if problems:
            raise LayoutError(problems)
        # Responsibilities no layer provides: generated stubs (if the project has them).
        from .layers import stubs_needed  # noqa: PLC0415

        self.stubs: dict[str, Any] = {}
        for resp in stubs_needed(self.project):
            for tmpl, out_rel in resp.stubs:
                rel = f"_stubs/{tmpl}"
                path = self.project.templates_dir / rel
                if not path.is_file() or out_rel in chosen:
                    continue
                src = Source("template", rel, path, f"templates/{rel}", f"templates/{rel}")
                self._display_by_file[os.path.normpath(os.path.abspath(path))] = src.display
                self._by_loader[src.loader_name] = src
                self.stubs[out_rel] = resp
                chosen[out_rel] = [src]
        self.providers = {rel: stack for rel, stack in sorted(chosen.items())}
        for stack in chosen.values():
            for lower, higher in zip(stack, stack[1:]):
                self._parents[higher.loader_name] = lower
        return {rel: stack[-1] for rel, stack in sorted(chosen.items())}

    def render_tree(self) -> dict[str, Rendered]:
        """Every produced file, keyed by its path relative to OUTDIR, sorted.

        Build files come last, with the produced file set in their context."""
        out: dict[str, Rendered] = {}
        plan = self.plan_sources()
        late = {rel: src for rel, src in plan.items() if rel.split("/")[-1] in BUILD_FILES}
        for out_rel, source in plan.items():
            if out_rel not in late:
                rendered = self.render_source(source, out_rel)
                if rendered is not None:
                    out[out_rel] = rendered
        # Deepest first: a parent's list of subdirectories sees whether each
        # subdirectory's Makefile was produced (one with no objects is not).
        pending = set(late)
        for out_rel in sorted(late, key=lambda r: (-r.count("/"), r)):
            pending.discard(out_rel)
            helpers = kbuild_helpers(set(out) | pending | {out_rel}, self.project.kbuild_options)
            rendered = self.render_source(late[out_rel], out_rel, helpers)
            if rendered is not None:
                out[out_rel] = rendered
        return {r.path: r for _, r in sorted(out.items())}


def kbuild_helpers(produced: set[str], options: dict[str, str] | None = None) -> dict[str, Any]:
    """Functions build-file templates use to list what the arch really has."""
    files = sorted(produced)
    options = options or {}

    def obj_config(path: str) -> str:
        """'$(CONFIG_X)' for an object a layer builds only with option X (kbuild:), else 'y'."""
        return f"$(CONFIG_{options[path]})" if path in options else "y"

    def has(path: str) -> bool:
        return path in produced

    def objs(directory: str, exclude: tuple[str, ...] = ()) -> list[str]:
        prefix = directory.rstrip("/") + "/" if directory not in ("", ".") else ""
        out = []
        for f in files:
            if not f.startswith(prefix) or "/" in f[len(prefix):]:
                continue
            name = f[len(prefix):]
            stem, dot, ext = name.rpartition(".")
            if dot and ext in ("c", "S") and name not in exclude:
                out.append(stem + ".o")
        return sorted(set(out))

    def subdirs(directory: str = "", exclude: tuple[str, ...] = ()) -> list[str]:
        prefix = directory.rstrip("/") + "/" if directory not in ("", ".") else ""
        out = set()
        for f in files:
            if f.startswith(prefix):
                parts = f[len(prefix):].split("/")
                if len(parts) == 2 and parts[1] == "Makefile" and parts[0] not in exclude:
                    out.add(parts[0] + "/")
        return sorted(out)

    def generic_y(names: list[str], directory: str = "include/asm") -> list[str]:
        return [n for n in names if f"{directory}/{n}" not in produced]

    return {"arch_files": files, "has": has, "objs": objs, "subdirs": subdirs,
            "generic_y": generic_y, "obj_config": obj_config}
