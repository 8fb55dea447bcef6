"""The ``xsys`` command line (typer). Every user error prints one line to stderr and
exits 2; nothing here prints a traceback for bad input.

Exit status: 0 success, 1 ``--strict`` losses, 2 a usage or input error (also ``xsys``
with no arguments: the help on stderr), 129 SIGHUP, 130 Ctrl-C (SIGINT), 143 SIGTERM (each
after removing its temporary files), 141 standard output closed by its reader (a broken
pipe, as a shell reports a program ended by SIGPIPE)."""

from __future__ import annotations

from .starting import guard, release

_sigint_before = guard()  # Ctrl-C while the modules below load: one line (put back at the end)

import json  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Annotated, Any, Optional  # noqa: E402

import typer  # noqa: E402
from typer.core import TyperCommand, TyperGroup  # noqa: E402

from xsys.core import __version__  # noqa: E402
from xsys.core.errors import XsysError  # noqa: E402
from xsys.core.registry import default_registry  # noqa: E402
from xsys.core.trace import printable  # noqa: E402

from . import documents  # noqa: E402
from .run import (_emit, _emit_bytes, _emit_json, _err, _expand, _info, _is_document, _says_skipped,  # noqa: E402
                  _settings, _told, _write_text, convert_files, main_with, odds_shots, run_command)

# ---- help screens ---------------------------------------------------------------------

def _unwrapped(text: str | None) -> str | None:
    """A docstring's paragraphs each on one line: typer's rich help keeps a docstring's
    single line breaks, so a sentence wrapped in the source broke mid-sentence on screen."""
    if not text:
        return text
    import inspect

    return "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(text).split("\n\n"))


# In the help of an option or argument that takes a system key: the installed systems. They
# are looked up when a help screen is shown, never otherwise (that loads every plugin).
SYSTEMS = "{installed systems}"


def _installed_systems() -> str:
    try:
        keys = default_registry().keys()
    except XsysError:
        keys = []
    return ", ".join(keys) if keys else "none installed"


def _for_the_screen(cmd: Any, ctx: Any) -> None:
    """A command as its help screen shows it: a flag without a value type (typer 0.29 shows
    ``--json <bool>``, its own ``--help`` too, as though they took a value), the installed
    systems where a help says {installed systems}, and square brackets in help texts as
    written (rich markup reads ``xsys[plot]`` as a style)."""
    rich = getattr(cmd, "rich_markup_mode", None) == "rich"
    if rich:
        from rich.markup import escape
    for p in cmd.get_params(ctx):
        if getattr(p, "is_flag", False) and getattr(p, "metavar", None) is None:
            p.metavar = ""
        if getattr(p, "help", None) and SYSTEMS in p.help:
            p.help = p.help.replace(SYSTEMS, _installed_systems())
        if rich and getattr(p, "help", None):
            p.help = escape(p.help)
    if rich and cmd.help:
        cmd.help = escape(cmd.help)


class _Command(TyperCommand):
    """A built-in command: its help reads as written (see :func:`_for_the_screen`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = _unwrapped(self.help)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _for_the_screen(self, ctx)
        super().format_help(ctx, formatter)


class _Group(TyperGroup):
    """The root: its own options, and the first paragraph of each built-in command's help in
    the list of commands, as written."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        _for_the_screen(self, ctx)
        if getattr(self, "rich_markup_mode", None) == "rich":
            from rich.markup import escape

            for cmd in self.commands.values():
                if isinstance(cmd, _Command) and cmd.help:
                    cmd.help = escape(cmd.help)
        super().format_help(ctx, formatter)


app = typer.Typer(
    name="xsys",
    help="Convert tabletop-RPG combat material between game systems through a neutral physical model.",
    cls=_Group,
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


@app.command(cls=_Command)
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
        _emit_json({"systems": rows, "broken": broken})
        return
    if not rows:
        _emit("no systems installed")
    width = max((len(r["key"]) for r in rows), default=4)
    for r in rows:
        _emit(f"{r['key']:<{width}}  {r['name']} — {r['edition']}  [{r['distribution']} {r['version']}]")
    for b in broken:
        typer.echo(f"broken plugin {b['plugin']} ({b['distribution']}): {b['reason']}", err=True)


@app.command(cls=_Command)
def schema(
    kind: Annotated[Optional[str], typer.Argument(help="npc, roster, scenario or shot (all when omitted).")] = None,
    system: Annotated[str, typer.Option("--system", "-s", metavar="KEY", help=f"A system key ({SYSTEMS}), or neutral.")] = "neutral",
) -> None:
    """Print the JSON Schema of the input documents (from msgspec)."""
    kinds = [kind] if kind else list(documents.KINDS)
    out = {k: documents.schema(k, system) for k in kinds}
    _emit_bytes(json.dumps(out[kind] if kind else out, indent=2, ensure_ascii=False, sort_keys=True).encode("utf-8")
                + b"\n")


@app.command(cls=_Command)
def validate(
    files: Annotated[list[Path], typer.Argument(help="Documents or folders to check (YAML, JSON or TOML).")],
    input_format: Annotated[Optional[str], typer.Option("--input-format", help="yaml, json, toml or a format plugin's "
                                                        "(text, foundry-coc7 ...).")] = None,
    system: Annotated[Optional[str], typer.Option("--from", metavar="KEY", help=f"System of files that do not say: {SYSTEMS}.")] = None,
) -> None:
    """Check documents without converting them; reports every file.

    In a folder, files that are not xsys documents (no system: or kind: key) and special
    files are skipped."""
    from xsys.core.textblock import system_hint

    from . import api
    from .readreport import read_losses

    bad = 0
    for f, folder in _expand([str(x) for x in files]):
        try:
            with system_hint(system):  # a text block with no system line is the --from system's
                data = documents.read_plain(f, input_format)
            if folder is not None and not _is_document(data):
                _info(f"skipped {f}: not an xsys document (it has no system: or kind: key)")
                continue
            loaded = api.from_plain(data, str(f), system)
            for key, raw in loaded.settings.items():
                api.system_for(key, {key: raw})  # settings are checked too
            _emit(f"ok: {printable(f)} ({loaded.system} {loaded.kind})")
            for loss in read_losses(loaded.meta, loaded.system):  # what a format plugin could not read
                typer.echo(f"{printable(str(f))}: {loss.render()}", err=True)
        except XsysError as exc:
            bad += 1
            typer.echo(exc.with_file(str(f)).line(), err=True)
    if bad:
        typer.echo(f"{bad} file(s) invalid", err=True)
        raise typer.Exit(2)


@app.command("catalog", cls=_Command)
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
        _emit_json(plain[section] if section else plain)
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



@app.command(cls=_Command)
@_says_skipped
def convert(
    inputs: Annotated[list[str], typer.Argument(help="Document files, folders, or - for standard input.")],
    to: Annotated[str, typer.Option("--to", "-t", metavar="KEY", help=f"Target system: {SYSTEMS}, or neutral.")],
    from_: Annotated[Optional[str], typer.Option("--from", "-f", metavar="KEY", help=f"Source system, for files that do not say: {SYSTEMS}.")] = None,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write to this file (one input); - for standard output.")] = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out-dir", help="Write each output here, mirroring input names.")] = None,
    fmt: Annotated[Optional[str], typer.Option("--format", help="yaml, json, toml, md or a format plugin's: text, ccfolia, "
                                               "foundry-coc7 ... (default: the -o file's extension, else the input's, "
                                               "else yaml).")] = None,
    input_format: Annotated[Optional[str], typer.Option("--input-format", help="yaml, json, toml or a format plugin's "
                                                        "(text, foundry-coc7 ...) for - or odd names.")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Add the trace: rule IDs, seed/assumed, the neutral value between.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Fail (exit 1) when anything is lost.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Do not print the loss report.")] = False,
    set_: Annotated[list[str], typer.Option("--set", metavar="SYSTEM.FIELD=VALUE", help="A system setting (repeatable).")] = [],
    fresh: Annotated[bool, typer.Option("--fresh", help="Ignore the source a converted document remembers: "
                                        "show the conversion for what it is.")] = False,
    losses: Annotated[str, typer.Option("--losses", metavar="grouped|full",
                                        help="A roster's loss report: grouped (one entry per kind of loss, with "
                                        "its count and first NPCs) or full (one per loss).")] = "grouped",
) -> None:
    """Convert NPCs, rosters, scenarios and shots to another system (A -> neutral -> B).

    Files in a folder that are not xsys documents are skipped (said on stderr)."""
    code = convert_files(inputs, to, from_, output, out_dir, fmt, input_format, explain, strict, quiet, set_, fresh,
                         losses)
    if code:
        raise typer.Exit(code)


@app.command(cls=_Command)
@_says_skipped
def odds(
    file: Annotated[Optional[Path], typer.Argument(help="A shot or scenario document (or use the inline options).")] = None,
    system: Annotated[list[str], typer.Option("--system", "-s", metavar="KEY", help=f"Only this system (repeatable): {SYSTEMS}.")] = [],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for other tools.")] = False,
    from_: Annotated[Optional[str], typer.Option("--from", "-f", metavar="KEY", help=f"System of a file that does not say: {SYSTEMS}.")] = None,
    input_format: Annotated[Optional[str], typer.Option("--input-format", help="yaml, json or toml.")] = None,
    set_: Annotated[list[str], typer.Option("--set", metavar="SYSTEM.FIELD=VALUE", help="A system setting (repeatable).")] = [],
    distance: Annotated[Optional[str], typer.Option("--distance", help="Inline shot: distance, e.g. 30m.")] = None,
    light: Annotated[str, typer.Option("--light", help="Illuminance (0.2lx) or a preset (full-moon, daylight ...).")] = "daylight",
    exposure: Annotated[float, typer.Option("--exposure", help="Visible fraction of the target, 0-1.")] = 1.0,
    skill: Annotated[str, typer.Option("--skill", metavar="COMPETENCE|SYSTEM:LEVEL",
                                       help="The shooter's skill: a competence from 0 to 1, or a system's own level, "
                                       "equated as converting it would (coc:55, coc-zh:55, gurps:14, pl-trudnosc:3; "
                                       "a pool's attribute after a comma: nwod:3,Dexterity=3). See "
                                       "docs/calibration.md.")] = "0.5",
    weapon: Annotated[str, typer.Option("--weapon", help="Weapon class or catalog id (handgun, rifle, glock-17 ...).")] = "handgun",
    target_speed: Annotated[str, typer.Option("--target-speed", help="Target speed (2.7m/s) or gait (walk, run ...).")] = "still",
    shooter_speed: Annotated[str, typer.Option("--shooter-speed", help="Shooter speed or gait.")] = "still",
    posture: Annotated[str, typer.Option("--posture", help="Target posture.")] = "standing",
    shooter_posture: Annotated[str, typer.Option("--shooter-posture", help="Shooter posture.")] = "standing",
    barrier: Annotated[Optional[str], typer.Option("--barrier", help="MATERIAL:THICKNESS, e.g. concrete:15cm.")] = None,
    aim: Annotated[str, typer.Option("--aim", help="Time spent aiming, e.g. 2s.")] = "0 s",
    burst: Annotated[int, typer.Option("--burst", help="Rounds fired at the target.")] = 1,
) -> None:
    """One shot in every installed system side by side.

    Each system's own check, its modifiers with their rule IDs, and the exact chance. The
    shot is a document's, or typed in with --distance and the other inline options; --skill
    takes a competence from 0 to 1 or a system's own skill level (coc:55, gurps:14,
    nwod:3,Dexterity=3)."""
    code = odds_shots(file, system, as_json, from_, input_format, set_, distance, light, exposure, skill, weapon,
                      target_speed, shooter_speed, posture, shooter_posture, barrier, aim, burst)
    if code:
        raise typer.Exit(code)


@app.command(cls=_Command)
def curve(
    file: Annotated[Optional[Path], typer.Argument(help="A shot document (or use the inline options).")] = None,
    sweep: Annotated[str, typer.Option("--sweep", help="AXIS=FROM..TO: distance=2m..200m, light=100000lx..0lx, "
                                       "exposure=1..0, skill=0.05..0.95, armor=0J..4000J, target-speed=0m/s..8m/s, "
                                       "barrier=0cm..40cm.")] = "distance=2m..200m",
    points: Annotated[int, typer.Option("--points", help="Sampled points.")] = 60,
    output: Annotated[Optional[str], typer.Option("--output", "-o", help="Write the chart to chart.png or chart.svg "
                                                  '(drawing it needs the plot extra: pip install "xsys[plot]").')] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the sampled points as JSON.")] = False,
    system: Annotated[list[str], typer.Option("--system", "-s", metavar="KEY", help=f"Only this system (repeatable): {SYSTEMS}.")] = [],
    shot_index: Annotated[int, typer.Option("--shot", help="Which shot of a scenario (1-based).")] = 1,
    from_: Annotated[Optional[str], typer.Option("--from", "-f", metavar="KEY", help=f"System of a file that does not say: {SYSTEMS}.")] = None,
    set_: Annotated[list[str], typer.Option("--set", metavar="SYSTEM.FIELD=VALUE", help="A system setting (repeatable).")] = [],
    distance: Annotated[str, typer.Option("--distance", help="Inline shot: distance.")] = "25m",
    light: Annotated[str, typer.Option("--light", help="Inline shot: illuminance or preset.")] = "daylight",
    exposure: Annotated[float, typer.Option("--exposure", help="Inline shot: visible fraction.")] = 1.0,
    skill: Annotated[str, typer.Option("--skill", metavar="COMPETENCE|SYSTEM:LEVEL",
                                       help="Inline shot: a competence from 0 to 1, or a system's own level "
                                       "(coc:55, gurps:14, nwod:3,Dexterity=3).")] = "0.5",
    weapon: Annotated[str, typer.Option("--weapon", help="Inline shot: weapon class or catalog id.")] = "handgun",
) -> None:
    """How the chance to hit falls along one axis, in every system, as a chart."""
    from . import api
    from . import curve as curves
    from .inline import inline_shot, inline_skill

    settings = _settings(set_)
    axis, lo, hi = curves.parse_sweep(sweep)
    if file is not None:
        loaded = api.load(file, None, from_)
        shots, _ = api.shots_of(loaded, settings=settings)
        settings = api._merge_settings(loaded.settings, settings)
        if not 1 <= shot_index <= len(shots):
            raise XsysError("no such shot", path="--shot", expected=f"1 to {len(shots)}", found=str(shot_index))
        name, shot = shots[shot_index - 1]
    else:
        given = inline_skill(skill, weapon)
        shot = inline_shot(distance=distance, light=light, exposure=exposure, skill=given.competence,
                           characteristics=given.characteristics, weapon=weapon)
        if given.native is not None and not as_json:
            _info(given.native.line())
    data = curves.sweep(shot, axis, lo, hi, points, system or None, settings)
    if output:
        curves.plot(data, output)
    if as_json:
        _emit_json(data.as_json())
    elif not output:
        _emit(curves.terminal_chart(data))
        _emit("")
        _emit(curves.table(data))
    else:
        _emit(f"wrote {printable(output)}")


@app.command(cls=_Command)
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on (localhost only by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    workers: Annotated[int, typer.Option("--workers", help="Processes converting at once (one core each).")] = 1,
) -> None:
    """A local web page (and its JSON API): paste a stat block, see it in every system."""
    from . import serve_main

    serve_main.run(host, port, _info, workers)


@app.command("rules", cls=_Command, context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def rules_cmd(
    ctx: typer.Context,
    system: Annotated[Optional[str], typer.Argument(metavar="SYSTEM", help=f"A system key: {SYSTEMS} (all when omitted).")] = None,
    rule: Annotated[Optional[str], typer.Argument(metavar="RULE-ID",
                                                help="A rule ID of SYSTEM; a formula takes --NAME VALUE after it.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for other tools.")] = False,
    only: Annotated[list[str], typer.Option("--system", "-s", metavar="KEY",
                                            help=f"Only this system's rules (repeatable): {SYSTEMS}.")] = [],
) -> None:
    """Every rule of every system, one rule in full, or a formula evaluated.

    Without arguments: each system's rules with their titles and where each comes from
    (seed: the rule text states it; assumed: xsys's own choice). With SYSTEM (or --system):
    that system's. With SYSTEM RULE-ID: the rule's description and its table rows, with
    units. A formula takes its parameters after the rule ID, e.g. xsys rules coc
    coc-ja.conceal --length 21cm."""
    from . import rules_cmd as rules_

    args = list(ctx.args)
    if only and system is not None:  # xsys rules -s coc coc-ja.conceal ...: the first argument is the rule
        if len(only) > 1:
            raise XsysError("a rule ID after several systems", path="rules", expected="xsys rules SYSTEM RULE-ID",
                            found=f"--system {' --system '.join(only)} {system}")
        args = ([rule] if rule is not None else []) + args
        system, rule, only = only[0], system, []
    if len(only) == 1:
        system, only = only[0], []
    rules_.run(system, rule, args, as_json, _emit, _emit_json, systems=only)


@app.command("skills", cls=_Command)
def skills_cmd(
    system: Annotated[str, typer.Argument(metavar="SYSTEM", help=f"A system key: {SYSTEMS}.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for other tools.")] = False,
) -> None:
    """The skill names SYSTEM recognises.

    What each covers in the neutral model, and the other names stat blocks print for it
    (7th-edition, Japanese, Chinese)."""
    from . import skills_cmd as skills_

    skills_.run(system, as_json, _emit, _emit_json)


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


def app_for(args: list[str]) -> typer.Typer:
    """The app to run `args` with: for a built-in command, an app holding only that command
    (typer builds, and reads the annotations of, only what it holds, and no plugin is asked
    for commands); for anything else (a plugin's command, --help, a typo), every command."""
    from xsys.core.registry import _command_name

    name = next((a for a in args if not a.startswith("-")), None)
    if name is None or args[0].startswith("-"):
        return build_app()
    mine = [c for c in app.registered_commands if _command_name(c) == name]
    if len(mine) != 1:
        return build_app()
    one = typer.Typer(name="xsys", help=app.info.help, cls=_Group, add_completion=False,
                      pretty_exceptions_enable=False, no_args_is_help=True)
    one.registered_callback = app.registered_callback
    one.registered_commands = mine
    return one


def _usage_error_type() -> type | None:
    """The base class of typer's usage errors (click's ClickException): typer >= 0.26
    bundles its own click, older versions use click itself. Found through what typer
    exports in every version, never by importing click or typer's private modules."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            return cls
    return None


def _is_usage_error(exc: BaseException) -> bool:
    base = _usage_error_type()
    if base is not None:
        return isinstance(exc, base)
    return callable(getattr(exc, "show", None)) and isinstance(getattr(exc, "exit_code", None), int)


def _dispatch(args: list[str]) -> int:
    """Run the app on `args`; user errors become one line on stderr. The exit status."""
    app_ = app_for(args)
    if not args:
        # no command: the help, on stderr as for any other usage error, and exit 2
        saved, sys.stdout = sys.stdout, sys.stderr
        try:
            app_(args=["--help"], prog_name="xsys", standalone_mode=False)
        except Exception as exc:  # typer.Exit from --help, in the versions that raise it
            if not isinstance(exc, typer.Exit) and not _is_usage_error(exc):
                raise
        finally:
            sys.stdout = saved
        return 2
    return run_command(lambda: app_(args=args, prog_name="xsys", standalone_mode=False), _typer_ending)


def _typer_ending(exc: Exception) -> int | None:
    """The exit status of how typer ended a command (None: not typer's)."""
    if isinstance(exc, typer.Exit):
        return exc.exit_code
    if isinstance(exc, typer.Abort):
        _err("xsys: aborted")
        return 1
    if _is_usage_error(exc):
        exc.show()  # typer's own message: usage, a hint, and what was wrong
        return exc.exit_code  # type: ignore[attr-defined, no-any-return]
    return None


def main(argv: list[str] | None = None) -> None:
    """Console entry point of the whole app (xsys.conversions.entry runs a plain ``xsys
    convert`` without it): every user error, Ctrl-C, and a standard output that cannot be
    written end with one line on stderr and the exit status documented at the top of this
    module, never a traceback."""
    main_with(_dispatch, argv)


release(_sigint_before)  # started: Ctrl-C from now on is main()'s to report
