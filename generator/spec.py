"""Load arch-spec.yaml into a normalized dict, keeping line numbers.

Why not ``yaml.safe_load``: it loses line numbers and silently accepts
duplicate keys. ``generator.yamlio`` composes the file (nodes carry marks;
size, encoding, characters and tags checked) and ``Walker`` walks the node
tree against the declarative schema in ``generator.schema``, producing the
normalized data (sizes as ints, defaults filled) plus a map from key path
("mmu.pte_bits.dirty.bit", "platform.devices[1].base") to line number.
Every problem becomes a ``Diagnostic``; all of them are reported together
(``SpecError``) after the cross-field rules of ``generator.checks`` ran.
The same walker reads the layers' ``layer.yaml`` against their schema
(``generator.layers.LAYER_SCHEMA``).
"""

from __future__ import annotations

import difflib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from . import schema as S
from . import yamlio
from .derive import SPEC_VALUES_BY_PATH, derive_fields, how_derived
from .errors import Diagnostic, SpecError

_SIZE_RE = re.compile(r"(0x[0-9a-f]+|\d+)\s*([kmgt])(?:i?b)?", re.IGNORECASE)
_UNITS = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def parse_int(value: Any, allow_units: bool = False) -> int | None:
    """Return ``value`` as an int (int, "0x10", "4K" if allow_units), or None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip().replace("_", "")
    try:
        return int(text, 0)
    except ValueError:
        pass
    m = _SIZE_RE.fullmatch(text) if allow_units else None
    if not m:
        return None
    return int(m.group(1), 0) * _UNITS[m.group(2).lower()]


def join_path(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def parent_path(path: str) -> str:
    """'a.b[2].c' -> 'a.b[2]' -> 'a.b' -> 'a' -> ''."""
    m = re.match(r"^(.*?)(?:\.[^.\[\]]+|\[\d+\])$", path)
    return m.group(1) if m else ""


@dataclass
class Spec:
    """A validated spec: normalized ``data`` plus where each key was written."""

    path: Path
    display: str
    data: dict[str, Any]
    lines: dict[str, int] = field(default_factory=dict)
    #: key path -> the file that stated it (the spec itself or a base it extends)
    files: dict[str, str] = field(default_factory=dict)
    #: the chain of spec files, leaf first: display name -> absolute path
    chain: dict[str, Path] = field(default_factory=dict)

    def dir_of(self, path: str) -> Path:
        """Directory of the spec file that stated ``path`` (relative paths resolve there)."""
        return self.chain.get(self.file_of(path), self.path.resolve()).parent

    def _stated(self, path: str) -> str:
        """The key a message about ``path`` points at: ``path`` if it was written; for
        a computed value that was not, the first of its inputs that was (a derived
        value is wrong because of what it is computed from)."""
        if path not in self.lines and path in SPEC_VALUES_BY_PATH:
            for source in SPEC_VALUES_BY_PATH[path].inputs:
                if source in self.lines:
                    return source
        return path

    def file_of(self, path: str) -> str:
        p = self._stated(path)
        while p:
            if p in self.files:
                return self.files[p]
            p = parent_path(p)
        return self.display

    def line_of(self, path: str) -> int:
        """Line of ``path`` or, if it was not written, of the input it is computed
        from or of its nearest ancestor."""
        p = self._stated(path)
        while p:
            if p in self.lines:
                return self.lines[p]
            p = parent_path(p)
        return 1

    def diag(self, path: str, message: str) -> Diagnostic:
        return Diagnostic(self.file_of(path), self.line_of(path), path, message)


def _line(node: Node) -> int:
    return node.start_mark.line + 1


def _file(node: Node, default: str) -> str:
    name = getattr(node.start_mark, "name", None)
    return name if name and not name.startswith("<") else default


class Walker:
    """Walks YAML nodes against schema fields; collects diagnostics.

    ``what`` names the kind of file in messages ("spec", "layer.yaml")."""

    def __init__(self, display: str, what: str = "spec"):
        self.display = display
        self.what = what
        self.diags: list[Diagnostic] = []
        self.lines: dict[str, int] = {}
        self.files: dict[str, str] = {}
        self.visited = 0
        self._ctor = SafeConstructor()

    def error(self, where: "Node | int", path: str, message: str) -> None:
        """Report at a node (its own file and line: it may come from a base spec) or a line."""
        if isinstance(where, Node):
            self.diags.append(Diagnostic(_file(where, self.display), _line(where), path, message))
        else:
            self.diags.append(Diagnostic(self.display, where, path, message))

    def note(self, path: str, knode: Node) -> None:
        self.lines[path] = _line(knode)
        self.files[path] = _file(knode, self.display)

    def scalar(self, node: ScalarNode, path: str) -> tuple[bool, Any]:
        try:
            return True, self._ctor.construct_object(node, deep=True)
        except ConstructorError as exc:
            self.error(node, path, f"cannot read value: {exc.problem}")
            return False, None

    @staticmethod
    def describe(node: Node, value: Any = None) -> str:
        if isinstance(node, MappingNode):
            return "a mapping"
        if isinstance(node, SequenceNode):
            return "a list"
        if value is None:
            return "nothing (null)"
        if isinstance(value, bool):
            return f"boolean {node.value!r}"
        if isinstance(value, int):
            return f"integer {node.value}"
        if isinstance(value, float):
            return f"number {node.value}"
        if isinstance(value, str):
            return f"string {value!r}"
        return f"{type(value).__name__} {node.value!r}"

    # -- dispatch ---------------------------------------------------------
    def walk(self, f: S.Field, node: Node, path: str) -> Any:
        self.visited += 1
        if self.visited > MAX_SPEC_VALUES:
            raise SpecError([Diagnostic(_file(node, self.display), _line(node), path,
                                        f"the {self.what} expands to more than {MAX_SPEC_VALUES} "
                                        "values (YAML aliases nested too deep?); refusing it")],
                            what="spec" if self.what == "spec" else self.display)
        if isinstance(f, S.Map):
            return self.walk_map(f, node, path)
        if isinstance(f, S.Table):
            return self.walk_table(f, node, path)
        if isinstance(f, S.List):
            return self.walk_list(f, node, path)
        if isinstance(f, S.Value):
            return self.walk_free(f, node, path)
        return self.walk_scalar(f, node, path)

    def _expect_mapping(self, node: Node, path: str, what: str) -> bool:
        if isinstance(node, MappingNode):
            return True
        found = self.describe(node, self.scalar(node, path)[1] if isinstance(node, ScalarNode) else None)
        self.error(node, path, f"expected {what}, found {found}")
        return False

    def _pairs(self, node: MappingNode, path: str):
        """Yield (key, key_node, value_node), reporting duplicates and bad keys."""
        seen: dict[str, int] = {}
        for knode, vnode in node.value:
            ok, key = self.scalar(knode, path) if isinstance(knode, ScalarNode) else (False, None)
            if not ok or not isinstance(key, (str, int)) or isinstance(key, bool):
                self.error(knode, path, "expected a plain name as key, found "
                           + self.describe(knode, key))
                continue
            key = str(key)
            if key in seen:
                self.error(knode, join_path(path, key),
                           f"duplicate key '{key}' (first given at line {seen[key]})")
                continue
            seen[key] = _line(knode)
            yield key, knode, vnode

    def walk_map(self, f: S.Map, node: Node, path: str) -> dict[str, Any] | None:
        if not self._expect_mapping(node, path, "a mapping with keys " + ", ".join(f.fields)):
            return None
        out: dict[str, Any] = {}
        for key, knode, vnode in self._pairs(node, path):
            kpath = join_path(path, key)
            if key not in f.fields:
                close = difflib.get_close_matches(key, list(f.fields), n=1, cutoff=0.6)
                if close:
                    msg = f"unknown key '{key}' (did you mean '{close[0]}'?)"
                else:
                    msg = f"unknown key '{key}'; allowed keys: {', '.join(f.fields)}"
                if " " in key and isinstance(vnode, ScalarNode) and vnode.tag.endswith(":null"):
                    msg += ("\nhint: this looks like the end of a value cut at a comma inside a "
                            "flow mapping {...}; quote the value that contains the comma")
                self.error(knode, kpath, msg)
                continue
            if isinstance(f.fields[key], S.Derived):
                self.error(knode, kpath, f"'{key}' is derived, not stated: {how_derived(kpath)}"
                           "\nfix: remove this key (one fact, one place)")
                continue
            self.note(kpath, knode)
            out[key] = self.walk_value(f.fields[key], vnode, kpath)
        for key, sub in f.fields.items():
            if key in out:
                continue
            if sub.optional:
                out[key] = sub.default_value()
            else:
                where = f"'{path}'" if path else "the top level"
                doc = f" ({sub.doc})" if sub.doc else ""
                msg = f"missing required key '{key}'{doc} in {where}"
                if path and path in self.lines:
                    self.diags.append(Diagnostic(self.files.get(path, self.display),
                                                 self.lines[path], join_path(path, key), msg))
                else:
                    self.error(node, join_path(path, key), msg)
                out[key] = None
        return out

    def walk_table(self, f: S.Table, node: Node, path: str) -> dict[str, Any] | None:
        if not self._expect_mapping(node, path, "a mapping of names"):
            return None
        out: dict[str, Any] = {}
        for key, knode, vnode in self._pairs(node, path):
            kpath = join_path(path, key)
            self.note(kpath, knode)
            if not re.fullmatch(f.key_pattern, key):
                want = f.key_doc or f"a name matching {f.key_pattern}"
                found = self.describe(knode, self.scalar(knode, kpath)[1])
                self.error(knode, kpath, f"expected {want} as key, found {found}")
                continue
            out[key] = self.walk_value(f.value, vnode, kpath)
        return out

    def walk_list(self, f: S.List, node: Node, path: str) -> list[Any] | None:
        if isinstance(node, SequenceNode):
            items = node.value
        elif f.scalar_ok and isinstance(node, ScalarNode):
            items = [node]
        else:
            found = self.describe(node, self.scalar(node, path)[1] if isinstance(node, ScalarNode) else None)
            self.error(node, path, f"expected a list, found {found}")
            return None
        n = len(items)
        if n < f.min_len or (f.max_len is not None and n > f.max_len):
            if f.max_len == f.min_len:
                want = f"exactly {f.min_len}"
            elif f.max_len is None:
                want = f"at least {f.min_len}"
            else:
                want = f"{f.min_len} to {f.max_len}"
            why = f"\nwhy: {f.why}" if f.why else ""
            self.error(node, path, f"expected {want} item(s), found {n}{why}")
        out = []
        for i, item in enumerate(items):
            ipath = join_path(path, i)
            self.note(ipath, item)
            out.append(self.walk_value(f.item, item, ipath))
        return out

    def walk_value(self, f: S.Field, node: Node, path: str) -> Any:
        # An explicit null on an optional key means "use the default".
        if isinstance(node, ScalarNode) and node.tag == "tag:yaml.org,2002:null" and f.optional:
            return f.default_value()
        return self.walk(f, node, path)

    def walk_free(self, f: S.Value, node: Node, path: str) -> Any:
        """A scalar or a list of scalars, as YAML reads it (its declarer checks it)."""
        items = node.value if isinstance(node, SequenceNode) else [node]
        for i, item in enumerate(items):
            if not isinstance(item, ScalarNode):
                where = join_path(path, i) if isinstance(node, SequenceNode) else path
                self.error(item, where, f"expected {f.doc}, found {self.describe(item)}")
                return None
        if isinstance(node, SequenceNode):
            for i, item in enumerate(items):
                self.note(join_path(path, i), item)
            return [self.scalar(item, join_path(path, i))[1] for i, item in enumerate(items)]
        return self.scalar(node, path)[1]

    def walk_scalar(self, f: S.Field, node: Node, path: str) -> Any:
        if not isinstance(node, ScalarNode):
            self.error(node, path, f"expected {self.expected(f)}, found {self.describe(node)}")
            return None
        ok, value = self.scalar(node, path)
        if not ok:
            return None
        found = self.describe(node, value)
        if isinstance(f, S.Int):
            n = parse_int(value, allow_units=isinstance(f, S.Size))
            if n is None:
                self.error(node, path, f"expected {self.expected(f)}, found {found}")
                return None
            if f.choices is not None and n not in f.choices:
                self.error(node, path, f"expected {self.expected(f)}, found {n}")
                return None
            if (f.min is not None and n < f.min) or (f.max is not None and n > f.max):
                shown = f"0x{n:x}" if str(node.value).strip().lower().startswith("0x") else n
                self.error(node, path, f"expected {self.expected(f)}, found {shown}")
                return None
            return n
        if isinstance(f, S.Scalar):
            if isinstance(value, (str, int, float, bool)):
                return value
            self.error(node, path, f"expected {f.doc or 'a value'}, found {found}")
            return None
        if isinstance(f, S.Bool):
            if not isinstance(value, bool):
                self.error(node, path, f"expected true or false, found {found}")
                return None
            return value
        if isinstance(f, S.Str):
            if not isinstance(value, str):
                hint = ""
                if isinstance(value, (int, float)) and not isinstance(value, bool):
                    hint = f" (write it quoted: \"{node.value}\")"
                self.error(node, path, f"expected {self.expected(f)}, found {found}{hint}")
                return None
            if f.choices is not None and value not in f.choices:
                close = difflib.get_close_matches(value, list(f.choices), n=1, cutoff=0.6)
                tip = f" (did you mean '{close[0]}'?)" if close else ""
                self.error(node, path, f"expected {self.expected(f)}, found {found}{tip}")
                return None
            if f.pattern is not None and not re.fullmatch(f.pattern, value):
                tip = f"\nhint: {f.hint}" if f.hint else ""
                self.error(node, path, f"expected {self.expected(f)}, found {found}{tip}")
                return None
            if f.max_len is not None and len(value) > f.max_len:
                self.error(node, path, f"expected {self.expected(f)}, found a string of "
                           f"{len(value)} characters")
                return None
            problem = f.check(value) if f.check is not None else None
            if problem:
                self.error(node, path, f"expected {self.expected(f)}: {problem}")
                return None
            return value
        raise TypeError(f"unknown schema field {f!r}")  # internal bug

    @staticmethod
    def expected(f: S.Field) -> str:
        if isinstance(f, S.Int):
            if f.choices is not None:
                return "one of " + ", ".join(str(c) for c in f.choices)
            return f.kind + S.range_text(f.min, f.max)
        if isinstance(f, S.Str):
            if f.choices is not None:
                return "one of " + ", ".join(f.choices)
            text = (f.pattern_doc or f"a string matching {f.pattern}") if f.pattern is not None \
                else "a string"
            if f.max_len is not None and "characters" not in text:
                text += f" of at most {f.max_len} characters"
            return text
        if isinstance(f, S.Bool):
            return "true or false"
        if isinstance(f, S.Scalar):
            return f.doc or "a value"
        if isinstance(f, S.List):
            return "a list"
        return "a mapping"


#: Specs larger than this are refused before parsing (a real spec is ~10 KiB).
MAX_SPEC_BYTES = yamlio.MAX_BYTES
#: At most this many values are walked (aliases can make a small file huge).
MAX_SPEC_VALUES = yamlio.MAX_VALUES
#: How deep ``extends:`` chains may go.
MAX_EXTENDS_DEPTH = 8
#: The one tag a spec may carry (see ``_Merger``).
REPLACE = "!replace"


def _compose(path: Path, display: str) -> Node | None:
    return yamlio.compose_file(path, display, "spec", local_tags=(REPLACE,))


def _display_for(path: Path, leaf: Path, leaf_display: str) -> str:
    if path == leaf:
        return leaf_display
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _item_name(node: Node) -> str | None:
    if isinstance(node, MappingNode):
        for k, v in node.value:
            if isinstance(k, ScalarNode) and k.value == "name" and isinstance(v, ScalarNode):
                return v.value
    return None


def _untag(node: Node) -> Node:
    """A node tagged ``!replace`` as it would read without the tag."""
    if isinstance(node, MappingNode):
        node.tag = yamlio.TAG + "map"
    elif isinstance(node, SequenceNode):
        node.tag = yamlio.TAG + "seq"
    else:
        node.tag = yamlio.resolve_plain(node)  # a plain `true` stays a boolean
    return node


def _drop_replace_tags(root: Node) -> None:
    """``!replace`` where there is nothing to replace (a key the base does not
    state, a spec without a base) is the value itself."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.tag == REPLACE:
            _untag(node)
        if isinstance(node, MappingNode):
            stack.extend(v for pair in node.value for v in pair)
        elif isinstance(node, SequenceNode):
            stack.extend(node.value)


class _Merger:
    """Delta over base: mappings merge key by key; lists of named mappings (devices,
    frame slots...) merge item by item on ``name`` (new names are appended);
    anything else is replaced. A delta node tagged ``!replace`` replaces the
    base's value outright (to drop list items or mapping keys).

    Counts its steps: two files of nested aliases would otherwise merge path
    by path, exponentially."""

    def __init__(self, display: str):
        self.display = display
        self.steps = 0

    def merge(self, base: Node, delta: Node) -> Node:
        self.steps += 1
        if self.steps > MAX_SPEC_VALUES:
            raise SpecError([Diagnostic(_file(delta, self.display), _line(delta), "",
                                        f"merging the spec over its base takes more than "
                                        f"{MAX_SPEC_VALUES} steps (YAML aliases nested too "
                                        "deep?); refusing it")])
        if delta.tag == REPLACE:
            return _untag(delta)
        if isinstance(base, SequenceNode) and isinstance(delta, SequenceNode) and delta.value:
            bnames = [_item_name(n) for n in base.value]
            dnames = [_item_name(n) for n in delta.value]
            if all(bnames) and all(dnames) and len(set(dnames)) == len(dnames):
                items = list(base.value)
                where: dict[str, int] = {}
                for i, name in enumerate(bnames):
                    where.setdefault(name, i)
                for n, name in zip(delta.value, dnames):
                    if name in where:
                        items[where[name]] = self.merge(items[where[name]], n)
                    else:
                        items.append(n)
                return SequenceNode(delta.tag, items, base.start_mark, base.end_mark,
                                    flow_style=base.flow_style)
            return delta
        if not (isinstance(base, MappingNode) and isinstance(delta, MappingNode)):
            return delta
        index = {}
        for i, (k, _) in enumerate(base.value):
            if isinstance(k, ScalarNode):
                index.setdefault(k.value, i)
        pairs = list(base.value)
        for k, v in delta.value:
            i = index.pop(k.value, None) if isinstance(k, ScalarNode) else None
            if i is None:
                pairs.append((k, v))  # new key (or a duplicate: the walker reports it)
            else:
                pairs[i] = (k, self.merge(pairs[i][1], v))
        return MappingNode(delta.tag, pairs, base.start_mark, base.end_mark,
                           flow_style=base.flow_style)


def _describe_node(node: Node) -> str:
    if isinstance(node, SequenceNode):
        return "a list"
    if isinstance(node, ScalarNode):
        return "nothing (null)" if node.tag.endswith(":null") else f"the value {node.value[:40]!r}"
    return "a mapping"


def _load_chain(path: Path, display: str, seen: list[Path]) -> tuple[Node, list[str]]:
    """The spec's node tree with every ``extends:`` base merged under it."""
    node = _compose(path, display)
    if node is None:
        raise SpecError([Diagnostic(display, 1, "", "the spec is empty")])
    chain = {display: path}
    if not isinstance(node, MappingNode):
        return node, chain
    ext = [(k, v) for k, v in node.value if isinstance(k, ScalarNode) and k.value == "extends"]
    if not ext:
        return node, chain
    knode, vnode = ext[0]
    if len(ext) > 1:
        raise SpecError([Diagnostic(display, _line(ext[1][0]), "extends", "duplicate key 'extends'")])
    if not isinstance(vnode, ScalarNode) or not vnode.value or vnode.tag.endswith(":null"):
        raise SpecError([Diagnostic(display, _line(knode), "extends",
                                    "expected the path of the base spec (relative to this file)")])
    base_path = (path.parent / vnode.value).resolve()
    if base_path in seen:
        cycle = " -> ".join(str(p.name) for p in seen + [base_path])
        raise SpecError([Diagnostic(display, _line(knode), "extends", f"circular extends: {cycle}")])
    if len(seen) >= MAX_EXTENDS_DEPTH:
        raise SpecError([Diagnostic(display, _line(knode), "extends",
                                    f"more than {MAX_EXTENDS_DEPTH} levels of extends")])
    if not base_path.is_file():
        raise SpecError([Diagnostic(display, _line(knode), "extends",
                                    f"base spec '{vnode.value}' not found ({base_path})")])
    base_display = _display_for(base_path, path, display)
    base, base_chain = _load_chain(base_path, base_display, seen + [base_path])
    if not isinstance(base, MappingNode):
        shown = f"{vnode.value}'" if vnode.value == base_display \
            else f"{vnode.value}' ({base_display})"
        raise SpecError([Diagnostic(display, _line(knode), "extends",
                                    f"base spec '{shown} is not a spec: "
                                    f"it holds {_describe_node(base)}, not a mapping of "
                                    f"{', '.join(S.SECTIONS)}")])
    node.value = [(k, v) for k, v in node.value if k is not knode]
    chain.update(base_chain)
    return _Merger(display).merge(base, node), chain


def load_spec(path: str | Path, display: str | None = None, run_checks: bool = True) -> Spec:
    """Parse, validate and normalize a spec file; raise SpecError listing every problem."""
    path = Path(path)
    display = display or str(path)
    root, chain = _load_chain(path.resolve(), display, [path.resolve()])
    _drop_replace_tags(root)

    walker = Walker(display)
    data = walker.walk(S.SPEC, root, "")
    spec = Spec(path=path, display=display, data=data or {}, lines=walker.lines,
                files=walker.files, chain=chain)
    diags = list(walker.diags)
    if data is not None:
        derive_fields(data)
    if data is not None and run_checks:
        from .checks import run_checks as _run

        diags += _run(spec, partial=bool(diags))
    if diags:
        raise SpecError(diags)
    return spec
