"""The one YAML reader of the kit: specs, layer.yaml files and the contract.

Every YAML file portkit reads goes through ``compose_file`` (a node tree
whose marks name the file and line) with the same safety:

* a size limit (a real spec is ~10 KiB, a layer.yaml ~2 KiB), checked
  before the file is read;
* UTF-8 only; a byte that is not, a NUL or any other character YAML does
  not allow is reported at its line and column;
* only the standard tags (str, int, float, bool, null, map, seq, timestamp)
  and the ones the caller knows (``!replace`` in specs): an unknown or
  misspelt tag (``!replce``, ``!include``, ``!!python/...``) on any node,
  scalar, mapping or list, is an error; so are YAML merge keys (``<<:``);
* aliases are never expanded here: the node tree is a graph the size of the
  file; whoever turns it into values counts them (``MAX_VALUES``), so a
  small file of nested aliases is refused instead of exploding.

Duplicate keys are reported by the walker that turns nodes into values
(``generator.spec.Walker``, for the spec and layer.yaml schemas) or by
``load_plain`` (for free-form data), never silently resolved.
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .errors import Diagnostic, SpecError

#: Files larger than this are refused before parsing (a real spec is ~10 KiB).
MAX_BYTES = 1 << 20
#: At most this many values are made from one file (aliases can make a small file huge).
MAX_VALUES = 100_000

TAG = "tag:yaml.org,2002:"
#: Tags a value may carry (implicitly, or written as !!str, !!int...).
STANDARD_TAGS = frozenset(TAG + t for t in ("str", "int", "float", "bool", "null", "map", "seq",
                                            "timestamp"))
MERGE_TAG = TAG + "merge"
_RESOLVER = yaml.resolver.Resolver()  # the implicit tags of plain scalars, as SafeLoader resolves


def _char_name(ch: str) -> str:
    name = unicodedata.name(ch, "")
    if not name:
        name = {"\x00": "NUL"}.get(ch, "a control character")
    return f"U+{ord(ch):04X} ({name})"


def _label(what: str, display: str) -> str:
    """How the closing line of an error names what was read: "spec", or the file."""
    return "spec" if what == "spec" else display


def _line_col(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def read_text(path: Path, display: str, what: str = "spec") -> str:
    """The file as text, or SpecError naming the file (and line) of the problem."""
    try:
        size = path.stat().st_size
        if size > MAX_BYTES:
            raise SpecError([Diagnostic(display, 0, "", f"the file is {size} bytes; the limit is "
                                        f"{MAX_BYTES} bytes (a real {what} is a few KiB)")],
                            what=_label(what, display))
        raw = path.read_bytes()
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path itself
        reason = getattr(exc, "strerror", None) or str(exc)
        raise SpecError([Diagnostic(display, 0, "", f"cannot read {what}: {reason}")],
                        what=_label(what, display)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise SpecError([Diagnostic(display, line, "", f"not UTF-8: byte 0x{raw[exc.start]:02x} "
                                    f"at column {col}; save the file as UTF-8")],
                        what=_label(what, display)) from None
    return text


def _reader_error(text: str, display: str, what: str,
                  exc: yaml.reader.ReaderError) -> SpecError:
    """A character YAML does not accept (NUL, other control characters)."""
    index = exc.position if isinstance(exc.position, int) else 0
    line, col = _line_col(text, index)
    ch = text[index] if index < len(text) else "\x00"
    return SpecError([Diagnostic(display, line, "", f"character {_char_name(ch)} at column "
                                 f"{col} is not allowed in a YAML file; remove it")],
                     what=_label(what, display))


def compose_file(path: Path, display: str, what: str = "spec",
                 local_tags: tuple[str, ...] = ()) -> Node | None:
    """The file's node tree (None for an empty document), checked as described above.

    ``local_tags``: the application tags the caller interprets (``!replace``)."""
    text = read_text(path, display, what)
    try:
        loader = yaml.SafeLoader(text)  # checks the characters: inside the try
    except yaml.reader.ReaderError as exc:
        raise _reader_error(text, display, what, exc) from None
    loader.name = display  # marks (hence every node) remember their file
    try:
        node = loader.get_single_node()
    except yaml.reader.ReaderError as exc:
        raise _reader_error(text, display, what, exc) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise SpecError([Diagnostic(display, line, "",
                                    f"YAML syntax error: {exc.problem or exc.context}")],
                        what=_label(what, display)) from None
    except yaml.YAMLError as exc:
        raise SpecError([Diagnostic(display, 0, "", f"YAML error: {exc}")],
                        what=_label(what, display)) from None
    except RecursionError:
        line = loader.line + 1 if getattr(loader, "line", None) is not None else 0
        raise SpecError([Diagnostic(display, line, "", "the YAML nests mappings or lists too "
                                    "deeply to be read (a spec nests a few levels)")],
                        what=_label(what, display)) from None
    finally:
        loader.dispose()
    if node is not None:
        diags = check_tags(node, display, local_tags)
        if diags:
            raise SpecError(diags, what=_label(what, display))
    return node


def _describe_tag(tag: str) -> str:
    return "!!" + tag[len(TAG):] if tag.startswith(TAG) else tag


def check_tags(root: Node, display: str, local_tags: tuple[str, ...] = ()) -> list[Diagnostic]:
    """Unknown tags and merge keys anywhere in the tree (each node visited once)."""
    diags: list[Diagnostic] = []
    seen: set[int] = set()
    known = ", ".join(local_tags) if local_tags else "none"
    stack: list[tuple[Node, str]] = [(root, "")]
    while stack:
        node, path = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        line = node.start_mark.line + 1
        if node.tag not in STANDARD_TAGS and node.tag not in local_tags:
            if node.tag == TAG + "value" and isinstance(node, ScalarNode):
                node.tag = TAG + "str"  # a plain '=' is just the string "="
            elif node.tag == MERGE_TAG:
                diags.append(Diagnostic(display, line, path, "YAML merge keys ('<<') are not "
                                        "supported: write the keys out"
                                        + (" (a spec shares a base with extends:)"
                                           if "!replace" in local_tags else "")))
            else:
                diags.append(Diagnostic(display, line, path, f"unknown YAML tag "
                                        f"'{_describe_tag(node.tag)}' (tags portkit knows "
                                        f"here: {known}); remove it"))
        if isinstance(node, MappingNode):
            for knode, vnode in node.value:
                key = knode.value if isinstance(knode, ScalarNode) else "?"
                kpath = f"{path}.{key}" if path else str(key)
                stack.append((vnode, kpath))
                stack.append((knode, kpath))
        elif isinstance(node, SequenceNode):
            for i, item in enumerate(node.value):
                stack.append((item, f"{path}[{i}]"))
    return sorted(set(diags))


def resolve_plain(node: ScalarNode) -> str:
    """The tag a scalar would have without an explicit tag (quoted: a string)."""
    if node.style not in (None, ""):
        return TAG + "str"
    return _RESOLVER.resolve(ScalarNode, node.value, (True, False))


def load_plain(path: Path, display: str, what: str = "file") -> Any:
    """Free-form YAML as Python values, with the same safety as the spec
    (duplicate keys, tags, size, value count refused with file and line)."""
    node = compose_file(path, display, what)
    if node is None:
        return None
    ctor = SafeConstructor()
    count = 0

    def convert(n: Node, where: str) -> Any:
        nonlocal count
        count += 1
        if count > MAX_VALUES:
            raise SpecError([Diagnostic(display, n.start_mark.line + 1, where, f"the file expands "
                                        f"to more than {MAX_VALUES} values (YAML aliases nested "
                                        "too deep?); refusing it")], what=_label(what, display))
        if isinstance(n, MappingNode):
            out: dict[Any, Any] = {}
            lines: dict[Any, int] = {}
            for knode, vnode in n.value:
                key = convert(knode, where)
                if isinstance(key, (dict, list)):
                    raise SpecError([Diagnostic(display, knode.start_mark.line + 1, where,
                                                "expected a plain name as key")],
                                    what=_label(what, display))
                kwhere = f"{where}.{key}" if where else str(key)
                if key in out:
                    raise SpecError([Diagnostic(display, knode.start_mark.line + 1, kwhere,
                                                f"duplicate key '{key}' (first given at line "
                                                f"{lines[key]})")], what=_label(what, display))
                lines[key] = knode.start_mark.line + 1
                out[key] = convert(vnode, kwhere)
            return out
        if isinstance(n, SequenceNode):
            return [convert(item, f"{where}[{i}]") for i, item in enumerate(n.value)]
        try:
            return ctor.construct_object(n, deep=True)
        except ConstructorError as exc:
            raise SpecError([Diagnostic(display, n.start_mark.line + 1, where,
                                        f"cannot read value: {exc.problem}")],
                            what=_label(what, display)) from None

    return convert(node, "")
