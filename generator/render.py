"""Render templates and overrides into an in-memory arch tree.

Nothing here touches the output directory: ``render_tree()`` returns the
complete set of files (path -> bytes), and ``generator.output`` decides what
to write. Sources:

* ``templates/`` mirrors ``arch/<name>/``; ``*.j2`` files are rendered, other
  files copied. Path components may hold Jinja expressions; a component that
  renders empty, or a file whose content renders to whitespace only, is not
  produced. Path components starting with ``_`` hold helper templates (macros
  to import or include) and are never output themselves.
* ``overrides/<name>/`` (or ``arch.overrides`` in the spec) replaces or adds
  files at the same relative output path, with the same rules.
The Jinja loader exposes ``templates/...`` and ``overrides/<name>/...`` so an
override can ``{% extends "templates/x.h.j2" %}`` the template it replaces.
"""

from __future__ import annotations

import os
import posixpath
import stat
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from jinja2 import nodes

from . import __version__
from .derive import DeriveError, derive
from .errors import Diagnostic, LayoutError, SpecError, TemplateError
from .filters import FILTERS, GLOBAL_FUNCTIONS, TESTS, FilterError
from .headers import insert_header, make_header
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

    @property
    def is_jinja(self) -> bool:
        return self.rel.endswith(".j2")


@dataclass
class Rendered:
    """One produced file."""

    path: str           # relative to OUTDIR, e.g. arch/tsar/include/asm/page.h
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
        custom = spec.data["arch"].get("overrides")
        if custom:
            self.overrides_dir = (spec.path.parent / custom)
        else:
            self.overrides_dir = self.root / "overrides" / self.arch
        # The spec as named in headers and the manifest: relative to the root,
        # or just its file name when it lives elsewhere (no host paths).
        self.spec_display = rel_display(spec.path, self.root)
        if self.spec_display.startswith("../"):
            self.spec_display = spec.path.name
        self.overrides_display = rel_display(self.overrides_dir, self.root)

    def sources(self) -> list[Source]:
        out = []
        for rel in _walk(self.templates_dir):
            out.append(Source("template", rel, self.templates_dir / rel,
                              f"templates/{rel}", f"templates/{rel}"))
        for rel in _walk(self.overrides_dir):
            out.append(Source("override", rel, self.overrides_dir / rel,
                              f"{self.overrides_display}/{rel}", f"overrides/{self.arch}/{rel}"))
        return out


class NoneOutputError(ValueError):
    """A template printed None: almost always an optional spec key left unset."""


def _refuse_none(value: Any) -> Any:
    if value is None:
        raise NoneOutputError("the template prints a None value (an optional spec key that is "
                              "not set?); test it with {% if ... %} or give it a value")
    return value


def make_environment(project: Project) -> jinja2.Environment:
    loader = jinja2.PrefixLoader({
        "templates": jinja2.FileSystemLoader(str(project.templates_dir)),
        "overrides": jinja2.PrefixLoader({
            project.arch: jinja2.FileSystemLoader(str(project.overrides_dir)),
        }),
    })
    env = jinja2.Environment(
        loader=loader,
        finalize=_refuse_none,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
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
    ctx: dict[str, Any] = {"spec": data, "derived": derived,
                           "portkit_version": __version__, "spec_path": project.spec_display}
    for section in SECTIONS:
        ctx[section] = data[section]
    return ctx


class Renderer:
    """Renders every source of a project into ``Rendered`` files, in memory."""

    def __init__(self, project: Project):
        self.project = project
        self.env = make_environment(project)
        self.context = build_context(project)
        self.env.globals.update(self.context)
        self.env.globals["generated_header"] = self._generated_header
        # Absolute file name (as Jinja reports it) -> display name.
        self._display_by_file: dict[str, str] = {}

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
            msg = f"template not found: {exc.name} (templates are named templates/<path> " \
                  f"and overrides/{self.project.arch}/<path>)"
        elif isinstance(exc, (NoneOutputError, FilterError)):
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
        for base, shown in ((self.project.templates_dir, "templates"),
                            (self.project.overrides_dir, self.project.overrides_display)):
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

    def _extends_of(self, source: Source) -> str | None:
        """The template an override extends (for its header), if any."""
        try:
            text = source.abspath.read_text(encoding="utf-8")
            ast = self.env.parse(text, source.loader_name, str(source.abspath))
        except (jinja2.TemplateSyntaxError, UnicodeDecodeError):
            return None  # reported properly when rendering
        for node in ast.find_all(nodes.Extends):
            if isinstance(node.template, nodes.Const):
                return str(node.template.value)
        return None

    # -- rendering ---------------------------------------------------------
    def render_source(self, source: Source, out_rel: str) -> Rendered | None:
        out_path = f"arch/{self.project.arch}/{out_rel}"
        self._display_by_file[os.path.normpath(os.path.abspath(source.abspath))] = source.display
        mode = 0o755 if source.abspath.stat().st_mode & stat.S_IXUSR else 0o644
        extends = self._extends_of(source) if source.kind == "override" and source.is_jinja else None
        header = make_header(out_rel, self.header_message(source, out_rel, extends))
        if source.is_jinja:
            try:
                template = self.env.get_template(source.loader_name)
                text = template.render(output_path=out_path, source_path=source.display,
                                       _portkit_header=header)
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
        """Output path (relative to arch dir) -> winning source."""
        chosen: dict[str, dict[str, Source]] = {"template": {}, "override": {}}
        problems = []
        for source in self.project.sources():
            self._display_by_file[os.path.normpath(os.path.abspath(source.abspath))] = source.display
            out_rel = self.output_rel(source)
            if out_rel is None:
                continue
            table = chosen[source.kind]
            if out_rel in table:
                problems.append(f"{table[out_rel].display} and {source.display} both produce "
                                f"arch/{self.project.arch}/{out_rel}; remove one")
                continue
            table[out_rel] = source
        if problems:
            raise LayoutError(problems)
        merged = dict(chosen["template"])
        merged.update(chosen["override"])
        return dict(sorted(merged.items()))

    def render_tree(self) -> dict[str, Rendered]:
        """Every produced file, keyed by its path relative to OUTDIR, sorted."""
        out: dict[str, Rendered] = {}
        for out_rel, source in self.plan_sources().items():
            rendered = self.render_source(source, out_rel)
            if rendered is not None:
                out[rendered.path] = rendered
        return dict(sorted(out.items()))
