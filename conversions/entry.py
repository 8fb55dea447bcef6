"""The ``xsys`` console command. A plain ``xsys convert`` (its inputs and the options its help
lists, each written out: ``--to gurps``, ``-o out.yaml``, ``--set=coc.x=1``) runs at once on
xsys.conversions.run, without building the typer app (typer alone takes about half of a cold
conversion's time): a cold command loads only what it uses. Anything else (another command,
--help, a usage error, a short option with its value attached) goes to the whole app
(xsys.conversions.cli), which runs the same conversion, so the two ways behave alike; a test
holds the arguments each reads to be the same."""

from __future__ import annotations

from .starting import guard, release

_sigint_before = guard()  # Ctrl-C while the modules below load: one line

import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

# the convert command's options (xsys.conversions.cli.convert): flags, and options that take a value
_FLAGS = {"--explain": "explain", "--strict": "strict", "--quiet": "quiet", "-q": "quiet", "--fresh": "fresh"}
_VALUES = {"--to": "to", "-t": "to", "--from": "from_", "-f": "from_", "--output": "output", "-o": "output",
           "--out-dir": "out_dir", "--format": "fmt", "--input-format": "input_format", "--set": "set_",
           "--losses": "losses"}


def plain_convert(args: list[str]) -> dict[str, Any] | None:
    """The arguments of ``convert_files`` for a plain ``xsys convert`` command line, as the
    app's parser would give them; None for any other command line (the app then reads it, and
    says what is wrong with it)."""
    if not args or args[0] != "convert":
        return None
    kw: dict[str, Any] = {"inputs": [], "to": None, "from_": None, "output": None, "out_dir": None, "fmt": None,
                          "input_format": None, "explain": False, "strict": False, "quiet": False, "set_": [],
                          "fresh": False, "losses": "grouped"}
    i = 1
    while i < len(args):
        arg = args[i]
        if arg == "-" or not arg.startswith("-"):
            kw["inputs"].append(arg)
            i += 1
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in _FLAGS and not eq:
            kw[_FLAGS[name]] = True
            i += 1
            continue
        if name not in _VALUES:
            return None  # --help, a typo, "--", "-qt", "-ofile": the app's to read
        if not eq:
            if i + 1 >= len(args):
                return None  # an option without its value: the app says so
            value = args[i + 1]
        i += 1 if eq else 2
        key = _VALUES[name]
        if key == "set_":
            kw[key].append(value)
        else:
            kw[key] = Path(value) if key == "out_dir" else value
    if not kw["inputs"] or kw["to"] is None:
        return None  # the app's usage error
    return kw


def main(argv: list[str] | None = None) -> None:
    """Console entry point (pyproject.toml: ``xsys``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    plain = plain_convert(args)
    if plain is None:
        from .cli import main as whole

        release(_sigint_before)
        whole(args)
        return
    from .run import _says_skipped, convert_files, main_with, run_command

    release(_sigint_before)
    main_with(lambda _: run_command(lambda: _says_skipped(convert_files)(**plain)), args)
