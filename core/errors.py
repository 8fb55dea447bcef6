"""One exception family for everything a user can get wrong.

Every error carries where it happened (file and field path), what was expected and what
was found, and renders as one line. The CLI prints that line to stderr and exits 2.
"""

from __future__ import annotations

import re
from typing import Any

# Characters that must not reach a terminal as they are: C0 and C1 controls (escape
# sequences, carriage returns, backspaces, newlines that fake a second line), DEL, and
# the Unicode line separators and bidirectional overrides that reorder what is shown.
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")


def printable(text: Any) -> str:
    """`text` for one line of a terminal: every control character shown as an escape
    (``\\x1b``, ``\\n``, ``\\u202e``) instead of acting on the terminal."""
    text = str(text)
    if not _UNPRINTABLE.search(text):
        return text
    return _UNPRINTABLE.sub(_escape_char, text)


def _escape_char(m: "re.Match[str]") -> str:
    c = m.group(0)
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    if c in named:
        return named[c]
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


class XsysError(Exception):
    """Base of every error xsys reports to a user (never shown as a traceback)."""

    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        path: str | None = None,
        expected: str | None = None,
        found: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.path = path
        self.expected = expected
        self.found = found

    def with_file(self, file: str) -> "XsysError":
        if self.file is None:
            self.file = file
        return self

    def line(self) -> str:
        """The one-line rendering: ``file: $.path: message (expected X, found Y)``."""
        parts = []
        if self.file:
            parts.append(str(self.file))  # a file name may hold any character but "/" and NUL
        if self.path:
            parts.append(self.path)
        text = self.message
        details = []
        if self.expected is not None:
            details.append(f"expected {self.expected}")
        if self.found is not None:
            details.append(f"found {self.found}")
        if details:
            text = f"{text} ({', '.join(details)})"
        parts.append(text)
        # one line, and nothing in it acts on a terminal: a control character in a file name
        # or a message is shown as its escape ('e\x1b[31mvil.yaml'), not dropped or obeyed
        return printable(": ".join(parts).replace("\n", " "))

    def __str__(self) -> str:
        return self.line()


class InputError(XsysError, ValueError):
    """A document or option is malformed, out of range, or of the wrong unit."""


class UnitError(InputError):
    """A quantity has the wrong dimension or an unknown unit."""


class UnknownSystemError(InputError):
    """A system key that no installed plugin registers."""


class PluginError(XsysError):
    """A plugin failed to load, clashed with another, or returned garbage."""


class LossError(XsysError):
    """Raised under --strict when a conversion loses information."""

    exit_code = 1
