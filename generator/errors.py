"""Exceptions that reach the user as clean messages (never a traceback).

Each carries the process exit code the CLI returns, so the top level only has
to catch ``PortkitError`` and print ``str(exc)``.
"""

from __future__ import annotations

from dataclasses import dataclass


class PortkitError(Exception):
    """Base class of user-facing errors."""

    exit_code = 2


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One spec problem: where (file:line), which key, and what is wrong.

    Ordering is (file, line, path, message) so that a list of diagnostics sorts
    into reading order of the spec file.
    """

    file: str
    line: int
    path: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        head = f"{where}: {self.path}: " if self.path else f"{where}: "
        # Continuation lines (explanations) are indented under the message.
        return head + self.message.replace("\n", "\n    ")


#: At most this many diagnostics are printed (a broken spec can produce thousands).
MAX_SHOWN_ERRORS = 50


class SpecError(PortkitError):
    """The spec failed to load or validate; carries every problem found."""

    exit_code = 2

    def __init__(self, diagnostics: list[Diagnostic], what: str = "spec"):
        self.diagnostics = sorted(set(diagnostics))
        #: what was read: "spec", or the file (a layer.yaml) the problems are in
        self.what = what
        super().__init__(self._format())

    def _format(self) -> str:
        n = len(self.diagnostics)
        lines = [f"error: {d}" for d in self.diagnostics[:MAX_SHOWN_ERRORS]]
        if n > MAX_SHOWN_ERRORS:
            lines.append(f"... and {n - MAX_SHOWN_ERRORS} more errors not shown")
        lines.append(f"{n} error{'s' if n != 1 else ''} in {self.what}; nothing written.")
        return "\n".join(lines)


class TemplateError(PortkitError):
    """A template or override failed to load or render."""

    exit_code = 2

    def __init__(self, source: str, line: int | None, message: str):
        self.source = source
        self.line = line
        self.detail = message
        where = f"{source}:{line}" if line else source
        super().__init__(f"error: {where}: {message}\nnothing written.")


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


class ErrorList(PortkitError):
    """Every problem of one kind found at once: an "error: " line each, then
    the summary (what failed; nothing written)."""

    exit_code = 2

    def __init__(self, messages: list[str], summary: str):
        self.messages = messages
        super().__init__("\n".join(f"error: {m}" for m in messages) + "\n" + summary)


class LayoutError(ErrorList):
    """Templates/overrides that cannot be mapped to a unique output tree."""

    def __init__(self, messages: list[str]):
        super().__init__(sorted(messages), "nothing written.")


class DriftError(PortkitError):
    """Files in the output were edited or added by hand."""

    exit_code = 3

    def __init__(self, message: str):
        super().__init__(message)
