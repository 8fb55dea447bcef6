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
    from . import api

    bad = 0
    for f in _expand(files):
        try:
            loaded = api.load(f, input_format, default_system=system)
            for key, raw in loaded.settings.items():
                api.system_for(key, {key: raw})  # settings are checked too
            _emit(f"ok: {f} ({loaded.system} {loaded.kind})")
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
            if sec == "material":
                extra = f"stops {item['stops_per_cm']} per cm"
            elif sec == "armor":
                extra = f"{item.get('kind', '')}, stops {item['stops']}"
            else:
                extra = f"{item['weapon_class']}, {item['muzzle_energy']}"
            _emit(f"{item['id']:<28} {item['name']}  ({extra})")


OUT_EXT = {"yaml": ".yaml", "json": ".json", "toml": ".toml", "md": ".md"}


@app.command()
def convert(
    inputs: Annotated[list[str], typer.Argument(help="Document files, folders, or - for standard input.")],
    to: Annotated[str, typer.Option("--to", "-t", help="Target system key (or 'neutral').")],
    from_: Annotated[Optional[str], typer.Option("--from", "-f", help="Source system, for files that do not say.")] = None,
    output: Annotated[Optional[Path], typer.Option("--output", "-o", help="Write to this file (one input).")] = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out-dir", help="Write each output here, mirroring input names.")] = None,
    fmt: Annotated[Optional[str], typer.Option("--format", help="yaml, json, toml or md (default: the input's, or yaml).")] = None,
    input_format: Annotated[Optional[str], typer.Option("--input-format", help="yaml, json or toml (for - or odd names).")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Add the trace: rule IDs, seed/assumed, the neutral value between.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Fail (exit 1) when anything is lost.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not print the loss report.")] = False,
    set_: Annotated[list[str], typer.Option("--set", help="System setting SYSTEM.FIELD=VALUE (repeatable).")] = [],
) -> None:
    """Convert NPCs, rosters, scenarios and shots to another system (A -> neutral -> B)."""
    from . import api
    from .output import write_atomic

    if fmt is not None and fmt not in OUT_EXT:
        raise XsysError("unknown output format", expected="yaml, json, toml or md", found=repr(fmt))
    if output is not None and out_dir is not None:
        raise XsysError("give -o or --out-dir, not both")
    settings = api.parse_settings(set_)
    default_registry().entry(to) if to != "neutral" else None
    jobs = _jobs(inputs)
    if len(jobs) > 1 and out_dir is None:
        raise XsysError("several inputs need --out-dir", expected="--out-dir DIR", found=f"{len(jobs)} inputs")
    failed = strict_failed = 0
    show_progress = len(jobs) > 1 and sys.stderr.isatty()
    for n, (src, rel) in enumerate(jobs, 1):
        if show_progress:
            sys.stderr.write(f"\r[{n}/{len(jobs)}] {rel}"[:120].ljust(60))
            sys.stderr.flush()
        try:
            conv = api.convert(src if src != "-" else api.from_plain(
                documents.read_plain("-", input_format or "yaml"), "<stdin>", from_),
                to, default_system=from_, settings=settings, strict=strict, fmt=input_format,
                trace=explain)
            out_fmt = fmt or (documents.format_for(src, input_format) if src != "-" else "yaml")
            data = api.dump(conv, out_fmt, explain)
            if not quiet:
                for loss in conv.losses:
                    if loss.level == "warning" or explain:
                        typer.echo(f"{src}: {loss.render()}", err=True)
            if out_dir is not None:
                write_atomic(out_dir / Path(rel).with_suffix(OUT_EXT[out_fmt]), data)
            elif output is not None:
                write_atomic(output, data)
            else:
                sys.stdout.write(data.decode("utf-8"))
                sys.stdout.flush()
        except XsysError as exc:
            if show_progress:
                sys.stderr.write("\n")
            typer.echo(exc.with_file(str(src)).line(), err=True)
            if exc.exit_code == 1:
                strict_failed += 1
            else:
                failed += 1
    if show_progress:
        sys.stderr.write("\n")
    if len(jobs) > 1:
        typer.echo(f"converted {len(jobs) - failed - strict_failed} of {len(jobs)} file(s)"
                   + (f"; {failed + strict_failed} failed" if failed + strict_failed else ""), err=True)
    if failed:
        raise typer.Exit(2)
    if strict_failed:
        raise typer.Exit(1)


def _jobs(inputs: list[str]) -> list[tuple[str, str]]:
    """(input path, output name relative to --out-dir) for every input file."""
    jobs: list[tuple[str, str]] = []
    for raw in inputs:
        if raw == "-":
            jobs.append(("-", "stdin.yaml"))
            continue
        p = Path(raw)
        if p.is_dir():
            files = sorted(q for q in p.rglob("*") if q.is_file() and q.suffix.lower() in (".yaml", ".yml", ".json", ".toml"))
            jobs.extend((str(q), str(q.relative_to(p))) for q in files)
        else:
            jobs.append((raw, p.name))
    return jobs


@app.command()
def odds(
    file: Annotated[Optional[Path], typer.Argument(help="A shot or scenario document (or use the inline options).")] = None,
    system: Annotated[list[str], typer.Option("--system", "-s", help="Only this system (repeatable).")] = [],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for other tools.")] = False,
    from_: Annotated[Optional[str], typer.Option("--from", "-f", help="System of a file that does not say.")] = None,
    input_format: Annotated[Optional[str], typer.Option("--input-format", help="yaml, json or toml.")] = None,
    set_: Annotated[list[str], typer.Option("--set", help="System setting SYSTEM.FIELD=VALUE (repeatable).")] = [],
    distance: Annotated[Optional[str], typer.Option("--distance", help="Inline shot: distance, e.g. 30m.")] = None,
    light: Annotated[str, typer.Option("--light", help="Illuminance (0.2lx) or a preset (full-moon, daylight ...).")] = "daylight",
    exposure: Annotated[float, typer.Option("--exposure", help="Visible fraction of the target, 0-1.")] = 1.0,
    skill: Annotated[float, typer.Option("--skill", help="Standard-shot chance of the shooter, 0-1.")] = 0.5,
    weapon: Annotated[str, typer.Option("--weapon", help="Weapon class or catalog id (handgun, rifle, glock-17 ...).")] = "handgun",
    target_speed: Annotated[str, typer.Option("--target-speed", help="Target speed (2.7m/s) or gait (walk, run ...).")] = "still",
    shooter_speed: Annotated[str, typer.Option("--shooter-speed", help="Shooter speed or gait.")] = "still",
    posture: Annotated[str, typer.Option("--posture", help="Target posture.")] = "standing",
    shooter_posture: Annotated[str, typer.Option("--shooter-posture", help="Shooter posture.")] = "standing",
    barrier: Annotated[Optional[str], typer.Option("--barrier", help="MATERIAL:THICKNESS, e.g. concrete:15cm.")] = None,
    aim: Annotated[str, typer.Option("--aim", help="Time spent aiming, e.g. 2s.")] = "0 s",
    burst: Annotated[int, typer.Option("--burst", help="Rounds fired at the target.")] = 1,
) -> None:
    """One shot in every installed system side by side: native check, modifiers with rule
    IDs, exact chance."""
    from . import api
    from .inline import inline_shot

    settings = api.parse_settings(set_)
    if file is not None:
        loaded = api.load(file, input_format, from_)
        shots, _ = api.shots_of(loaded, settings=settings)
        settings = api._merge_settings(loaded.settings, settings)
    elif distance is not None:
        shots = [("inline shot", inline_shot(distance=distance, light=light, exposure=exposure, skill=skill,
                                             weapon=weapon, target_speed=target_speed, shooter_speed=shooter_speed,
                                             posture=posture, shooter_posture=shooter_posture, barrier=barrier,
                                             aim=aim, burst=burst))]
    else:
        raise XsysError("odds needs a FILE or an inline shot", expected="a shot/scenario file or --distance ...")
    keys = system or None
    failures: list = []
    all_results = [(name, shot, api.odds(shot, keys, settings=settings, failures=failures)) for name, shot in shots]
    failed = {f.line(): f for f in failures}  # one message per failing system, however many shots
    if as_json:
        if len(all_results) == 1:
            payload: dict = {"shot": all_results[0][0], "results": [r.as_json() for r in all_results[0][2]]}
        else:
            payload = {"shots": [{"shot": n, "results": [r.as_json() for r in rs]} for n, _, rs in all_results]}
        if failed:
            payload["errors"] = list(failed)
        _emit(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        from .report import odds_text

        _emit(odds_text(all_results))
    for line in failed:
        typer.echo(f"xsys: error: {line}", err=True)
    if failed:
        raise typer.Exit(2)


@app.command()
def curve(
    file: Annotated[Optional[Path], typer.Argument(help="A shot document (or use the inline options).")] = None,
    sweep: Annotated[str, typer.Option("--sweep", help="AXIS=FROM..TO: distance=2m..200m, light=100000lx..0lx, "
                                       "exposure=1..0, skill=0.05..0.95, armor=0J..4000J, target-speed=0m/s..8m/s, "
                                       "barrier=0cm..40cm.")] = "distance=2m..200m",
    points: Annotated[int, typer.Option("--points", help="Sampled points.")] = 60,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="chart.png or chart.svg (needs xsys[plot]).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sampled points as JSON.")] = False,
    system: Annotated[list[str], typer.Option("--system", "-s", help="Only this system (repeatable).")] = [],
    shot_index: Annotated[int, typer.Option("--shot", help="Which shot of a scenario (1-based).")] = 1,
    from_: Annotated[Optional[str], typer.Option("--from", "-f", help="System of a file that does not say.")] = None,
    set_: Annotated[list[str], typer.Option("--set", help="System setting SYSTEM.FIELD=VALUE (repeatable).")] = [],
    distance: Annotated[str, typer.Option("--distance", help="Inline shot: distance.")] = "25m",
    light: Annotated[str, typer.Option("--light", help="Inline shot: illuminance or preset.")] = "daylight",
    exposure: Annotated[float, typer.Option("--exposure", help="Inline shot: visible fraction.")] = 1.0,
    skill: Annotated[float, typer.Option("--skill", help="Inline shot: standard-shot chance.")] = 0.5,
    weapon: Annotated[str, typer.Option("--weapon", help="Inline shot: weapon class or catalog id.")] = "handgun",
) -> None:
    """How the chance to hit falls along one axis, in every system, as a chart."""
    from . import api
    from . import curve as curves
    from .inline import inline_shot

    settings = api.parse_settings(set_)
    axis, lo, hi = curves.parse_sweep(sweep)
    if file is not None:
        loaded = api.load(file, None, from_)
        shots, _ = api.shots_of(loaded, settings=settings)
        settings = api._merge_settings(loaded.settings, settings)
        if not 1 <= shot_index <= len(shots):
            raise XsysError("no such shot", path="--shot", expected=f"1 to {len(shots)}", found=str(shot_index))
        name, shot = shots[shot_index - 1]
    else:
        shot = inline_shot(distance=distance, light=light, exposure=exposure, skill=skill, weapon=weapon)
    data = curves.sweep(shot, axis, lo, hi, points, system or None, settings)
    if output:
        curves.plot(data, output)
    if as_json:
        _emit(json.dumps(data.as_json(), indent=2, ensure_ascii=False))
    elif not output:
        _emit(curves.terminal_chart(data))
        _emit("")
        _emit(curves.table(data))
    else:
        _emit(f"wrote {output}")


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
