"""The ``xsys`` command line (typer). Every user error prints one line to stderr and
exits 2; nothing here prints a traceback for bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from xsys.core import __version__
from xsys.core.errors import XsysError
from xsys.core.registry import default_registry

from . import documents

app = typer.Typer(
    name="xsys",
    help="Convert tabletop-RPG combat material between game systems through a neutral physical model.",
    add_completion=False,
    pretty_exceptions_enable=False,
    no_args_is_help=True,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"xsys {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[Optional[bool], typer.Option("--version", callback=_version, is_eager=True,
                                                    help="Print the version and exit.")] = None,
) -> None:
    """xsys: NPCs, weapons, armor and firefight scenarios from one game system to another."""


def _emit(text: str) -> None:
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


@app.command()
def systems(
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """List the installed game systems (and any plugin that failed to load)."""
    reg = default_registry().load()
    rows = []
    for key in reg.keys():
        e = reg.entry(key)
        cls = e.cls
        rows.append({"key": key, "name": cls.name, "edition": cls.edition, "dice": cls.dice,
                     "plugin": e.plugin, "distribution": e.distribution, "version": e.version})
    broken = [{"plugin": b.name, "distribution": b.distribution, "reason": b.reason} for b in reg.broken]
    if as_json:
        _emit(json.dumps({"systems": rows, "broken": broken}, indent=2, ensure_ascii=False))
        return
    if not rows:
        _emit("no systems installed")
    width = max((len(r["key"]) for r in rows), default=4)
    for r in rows:
        _emit(f"{r['key']:<{width}}  {r['name']} — {r['edition']}  [{r['distribution']} {r['version']}]")
    for b in broken:
        typer.echo(f"broken plugin {b['plugin']} ({b['distribution']}): {b['reason']}", err=True)


@app.command()
def schema(
    kind: Annotated[Optional[str], typer.Argument(help="npc, roster, scenario or shot (all when omitted).")] = None,
    system: Annotated[str, typer.Option("--system", "-s", help="A system key, or 'neutral'.")] = "neutral",
) -> None:
    """Print the JSON Schema of the input documents (from msgspec)."""
    kinds = [kind] if kind else list(documents.KINDS)
    out = {k: documents.schema(k, system) for k in kinds}
    _emit(json.dumps(out[kind] if kind else out, indent=2, ensure_ascii=False, sort_keys=True))


@app.command()
def validate(
    files: Annotated[list[Path], typer.Argument(help="Documents to check (YAML, JSON or TOML).")],
    input_format: Annotated[Optional[str], typer.Option("--input-format", help="yaml, json or toml.")] = None,
    system: Annotated[Optional[str], typer.Option("--from", help="System of files that do not say.")] = None,
) -> None:
    """Check documents without converting them; reports every file."""
    bad = 0
    for f in _expand(files):
        try:
            doc = documents.load(f, input_format, default_system=system)
            _emit(f"ok: {f} ({doc.system} {doc.kind})")
        except XsysError as exc:
            bad += 1
            typer.echo(exc.with_file(str(f)).line(), err=True)
    if bad:
        typer.echo(f"{bad} file(s) invalid", err=True)
        raise typer.Exit(2)


@app.command("catalog")
def catalog_cmd(
    section: Annotated[Optional[str], typer.Argument(help="weapon, armor or material (all when omitted).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """List the catalog of real weapons, armor and barrier materials."""
    cat = default_registry().catalog()
    plain = cat.as_plain()
    if section is not None and section not in plain:
        raise XsysError("unknown catalog section", expected="weapon, armor or material", found=repr(section))
    if as_json:
        _emit(json.dumps(plain[section] if section else plain, indent=2, ensure_ascii=False))
        return
    for sec in [section] if section else list(plain):
        _emit(f"# {sec}")
        for item in plain[sec]:
            extra = item.get("weapon_class") or item.get("kind") or item.get("stops_per_cm", "")
            _emit(f"{item['id']:<28} {item['name']}  ({extra})")


def _expand(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix.lower() in (".yaml", ".yml", ".json", ".toml")))
        else:
            out.append(p)
    return out


_commands_added = False


def build_app() -> typer.Typer:
    """The root app with plugin-provided commands added (once)."""
    global _commands_added
    if not _commands_added:
        _commands_added = True
        try:
            default_registry().register_commands(app)
        except XsysError:
            pass
    return app


def main(argv: list[str] | None = None) -> None:
    """Console entry point: run the app, turning user errors into one line and exit 2."""
    try:
        rv = build_app()(args=argv, prog_name="xsys", standalone_mode=False)
    except XsysError as exc:
        typer.echo(f"xsys: error: {exc.line()}", err=True)
        sys.exit(exc.exit_code)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.echo("xsys: aborted", err=True)
        sys.exit(130)
    except KeyboardInterrupt:
        typer.echo("xsys: interrupted", err=True)
        sys.exit(130)
    except Exception as exc:  # click usage errors and the like
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(2)
        raise
    # click returns the code of a typer.Exit instead of raising it when not standalone
    sys.exit(rv if isinstance(rv, int) else 0)
