"""The "generated, do not edit" header of every produced file.

Why a separate module: the comment syntax depends on the file type, and the
kernel requires the SPDX line to stay the very first line (after a ``#!`` for
scripts), so the header is inserted after it rather than prepended.
"""

from __future__ import annotations

import posixpath
import re
import textwrap

C_LIKE_SUFFIXES = (".h", ".c", ".S", ".lds", ".ld", ".dts", ".dtsi")
HASH_SUFFIXES = (".sh", ".py", ".mk", ".tbl", ".pl", ".cfg")
HASH_NAMES = ("Makefile", "Kbuild", "Platform", ".gitignore")

SPDX_RE = re.compile(r"^\s*(//|/\*|#)\s*SPDX-License-Identifier:")


def comment_style(path: str) -> tuple[str, str] | None:
    """(open, close) comment markers for ``path``, or None if unknown."""
    name = posixpath.basename(path)
    if name.endswith(C_LIKE_SUFFIXES):
        return "/* ", " */"
    if (name in HASH_NAMES or name.startswith(("Makefile.", "Kbuild.", "Kconfig"))
            or name.endswith(("defconfig",) + HASH_SUFFIXES)):
        return "# ", ""
    return None


#: Header text is wrapped to this width so kernel files stay within
#: checkpatch's line-length limit.
HEADER_WIDTH = 76


def make_header(path: str, message: str) -> str | None:
    """The header comment (ending in a newline) for a file at ``path``, or None."""
    style = comment_style(path)
    if style is None:
        return None
    lines = textwrap.wrap(message, HEADER_WIDTH, break_long_words=False,
                          break_on_hyphens=False)
    if style[0] == "/* ":
        if len(lines) == 1:
            return f"/* {lines[0]} */\n"
        return "/*\n" + "".join(f" * {line}\n" for line in lines) + " */\n"
    return "".join(f"# {line}\n" for line in lines)


def insert_header(text: str, header: str) -> str:
    """Insert ``header`` after a leading #! line and SPDX line, else at the top."""
    lines = text.splitlines(keepends=True)
    i = 0
    if lines and lines[0].startswith("#!"):
        i = 1
    if i < len(lines) and SPDX_RE.match(lines[i]):
        # A /* SPDX ... comment may close on a later line; skip to its end.
        if lines[i].lstrip().startswith("/*"):
            while i < len(lines) and "*/" not in lines[i]:
                i += 1
        i += 1
    head = "".join(lines[:i])
    if head and not head.endswith("\n"):
        head += "\n"
    return head + header + "".join(lines[i:])
