"""One exception family for everything a user can get wrong.

Every error carries where it happened (file and field path), what was expected and what
was found, and renders as one line. The CLI prints that line to stderr and exits 2.
"""

from __future__ import annotations


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
            parts.append(str(self.file))
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
        return ": ".join(parts).replace("\n", " ")

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
