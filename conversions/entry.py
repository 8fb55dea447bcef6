"""The ``xsys`` console command. A plain ``xsys convert`` or ``xsys odds FILE`` (its inputs and
the options its help lists, each written out: ``--to gurps``, ``-o out.yaml``, ``--set=coc.x=1``)
runs at once on xsys.conversions.run, without building the typer app (typer alone takes about
half of a cold command's time): a cold command loads only what it uses. Anything else (another
command, --help, a usage error, a short option with its value attached, odds' inline shot)
goes to the whole app (xsys.conversions.cli), which runs the same functions, so the two ways
behave alike; a test holds the arguments each reads to be the same."""

from __future__ import annotations

from .starting import guard, release

_sigint_before = guard()  # Ctrl-C while the modules below load: one line

import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, NamedTuple  # noqa: E402


class _Spec(NamedTuple):
    """A command the launcher reads: its flags and valued options (name -> parameter), the
    parameters an option may repeat, the positional parameter (a list, or one Path), the
    parameters it must have, and every parameter's default (the app's)."""

    flags: dict[str, str]
    values: dict[str, str]
    repeated: frozenset[str]
    positional: str
    many: bool
    required: tuple[str, ...]
    defaults: dict[str, Any]


_SPECS = {
    # xsys.conversions.cli.convert
    "convert": _Spec(
        flags={"--explain": "explain", "--strict": "strict", "--quiet": "quiet", "-q": "quiet", "--fresh": "fresh"},
        values={"--to": "to", "-t": "to", "--from": "from_", "-f": "from_", "--output": "output", "-o": "output",
                "--out-dir": "out_dir", "--format": "fmt", "--input-format": "input_format", "--set": "set_",
                "--losses": "losses"},
        repeated=frozenset({"set_"}), positional="inputs", many=True, required=("inputs", "to"),
        defaults={"inputs": [], "to": None, "from_": None, "output": None, "out_dir": None, "fmt": None,
                  "input_format": None, "explain": False, "strict": False, "quiet": False, "set_": [],
                  "fresh": False, "losses": "grouped"}),
    # xsys.conversions.cli.odds, of a file (the inline shot's typed options are the app's to read)
    "odds": _Spec(
        flags={"--json": "as_json"},
        values={"--system": "system", "-s": "system", "--from": "from_", "-f": "from_",
                "--input-format": "input_format", "--set": "set_"},
        repeated=frozenset({"system", "set_"}), positional="file", many=False, required=("file",),
        defaults={"file": None, "system": [], "as_json": False, "from_": None, "input_format": None, "set_": [],
                  "distance": None, "light": "daylight", "exposure": 1.0, "skill": "0.5", "weapon": "handgun",
                  "target_speed": "still", "shooter_speed": "still", "posture": "standing",
                  "shooter_posture": "standing", "barrier": None, "aim": "0 s", "burst": 1}),
}
_PATHS = {"out_dir", "file"}  # parameters the app reads as a Path


def plain_command(args: list[str]) -> tuple[str, dict[str, Any]] | None:
    """The command and its function's arguments for a plain command line (_SPECS), as the
    app's parser would give them; None for any other command line (the app then reads it, and
    says what is wrong with it)."""
    spec = _SPECS.get(args[0]) if args else None
    if spec is None:
        return None
    kw = {k: list(v) if isinstance(v, list) else v for k, v in spec.defaults.items()}
    given: list[str] = []
    i = 1
    while i < len(args):
        arg = args[i]
        if arg == "-" or not arg.startswith("-"):
            given.append(arg)
            i += 1
            continue
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in spec.flags and not eq:
            kw[spec.flags[name]] = True
            i += 1
            continue
        if name not in spec.values:
            return None  # --help, a typo, "--", "-qt", "-ofile": the app's to read
        if not eq:
            if i + 1 >= len(args):
                return None  # an option without its value: the app says so
            value = args[i + 1]
        i += 1 if eq else 2
        key = spec.values[name]
        if key in spec.repeated:
            kw[key].append(value)
        else:
            kw[key] = Path(value) if key in _PATHS else value
    if spec.many:
        kw[spec.positional] = given
    elif len(given) == 1:
        kw[spec.positional] = Path(given[0]) if spec.positional in _PATHS else given[0]
    elif given:
        return None  # an extra argument: the app's usage error
    if any(kw[k] is None or kw[k] == [] for k in spec.required):
        return None  # the app's usage error
    return args[0], kw


def main(argv: list[str] | None = None) -> None:
    """Console entry point (pyproject.toml: ``xsys``)."""
    args = list(sys.argv[1:] if argv is None else argv)
    plain = plain_command(args)
    if plain is None:
        from .cli import main as whole

        release(_sigint_before)
        whole(args)
        return
    from . import run

    command, kw = plain
    work = run._says_skipped(run.convert_files if command == "convert" else run.odds_shots)
    release(_sigint_before)
    run.main_with(lambda _: run.run_command(lambda: work(**kw)), args)
