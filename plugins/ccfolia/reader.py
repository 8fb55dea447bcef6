"""CCFOLIA clipboard character JSON -> a coc NPC document (plain data).

The clipboard holds one data model so far (``kind: "character"``: ``data.name``, ``memo``,
``initiative``, ``externalUrl``, ``status[{label, value, max}]``, ``params[{label, value}]``,
``commands``); ``READERS`` is keyed by it. What the sites that export it write inside differs by
edition, so the character is read by one of two sheet readers (``SHEET_READERS``: a 6th- and a
7th-edition sheet), chosen from the whole character (``decide_edition``) and named with the
reason in the ``xsys.read`` block (``reader``, ``edition``). A change upstream is one more entry
in either table.

``params`` hold the characteristics (and, on some sheets, skills that commands refer to),
``status`` the gauges (HP, MP, SAN, 7th-edition 幸運), ``commands`` one BCDice chat command a
line. A command is a check (``CCB<=60 【目星】``, ``CC(1)<={射撃（拳銃）} 射撃（拳銃）``), a damage roll
(``1D3+{DB} 素手``, ``1D10+2 ガバメント``, ``1d10 【ダメージ：拳銃：NAME】``), or the palette's own
furniture (headings, ``:HP-1``). A check of a characteristic, of SAN or of a roll the
characteristics give (Idea, Luck, Know) is checked against the sheet, not read as a skill.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable

import msgspec

from xsys.core.errors import InputError
from xsys.core.textblock import Line, fold, one_line, read_lines
from xsys.plugins.coc.names import SEVENTH_KEY, coc_skill, weapon_skill

FORMAT = "ccfolia"
MARK = "[xsys] "  # the memo line the writer adds: what the character has no place for
CHARACTERISTICS = ("STR", "CON", "POW", "DEX", "APP", "SIZ", "INT", "EDU")

# The Japanese names sheets give the characteristics (6th and 7th edition rulebooks alike).
_CHAR_NAMES = {**{k.lower(): k for k in CHARACTERISTICS}, "筋力": "STR", "体力": "CON", "精神力": "POW",
               "敏捷性": "DEX", "敏捷": "DEX", "外見": "APP", "体格": "SIZ", "知性": "INT", "教育": "EDU"}
# A gauge or param of armor points (a creature's 装甲, a sheet's アーマー): the block's armor line.
_ARMOR_LABELS = frozenset(fold(x) for x in ("装甲", "アーマー", "armor", "armour", "装甲値", "护甲", "護甲"))
# Gauges (status) and the params that hold the same values: the coc document's own HP, MP, SAN, Luck.
_GAUGES = {"hp": "HP", "耐久力": "HP", "mp": "MP", "マジック・ポイント": "MP", "マジックポイント": "MP",
           "san": "SAN", "san値": "SAN", "正気度": "SAN", "正気度ポイント": "SAN", "sanity": "SAN",
           "幸運": "Luck", "luck": "Luck"}
# Params a sheet writes that the characteristics determine (coc recomputes them): not carried.
_RECOMPUTED = {"db", "ダメージボーナス", "ダメージ・ボーナス", "mov", "移動", "移動率", "ビルド", "bld", "build",
               "初期san", "最大san", "不定領域"}
# Params holding the rolls the characteristics give (checked against INT and EDU like their commands).
_ROLL_PARAMS = {"アイデア": "Idea", "アイディア": "Idea", "idea": "Idea", "知識": "Know", "know": "Know",
                "knowledge": "Know"}

# ---- commands -----------------------------------------------------------------------------

# BCDice checks (Cthulhu, Cthulhu7th): an optional S (secret roll), CC / CCB / 1D100, an optional
# modifier (6th edition: CC(98) a malfunction number; 7th: CC(1), CC+1, CC-1 bonus/penalty dice),
# "<=" and the target: a number, a {reference} to a param or gauge, or arithmetic of them.
_CHECK = re.compile(r"^(?P<secret>S)?(?P<cmd>CCB|CC|1D100|D100)(?P<mod>\(\s*[+-]?\d+\s*\)|[+-]?\d+)?\s*(?:<=|≦)\s*"
                    r"(?P<target>(?:\{[^{}]*\}|[0-9()+\-*/xX×])*)\s*(?P<label>.*)$", re.IGNORECASE)
# Combination, resistance-table and 7th-edition full-auto rolls
_COMBO = re.compile(r"^S?CBRB?\s*\(", re.IGNORECASE)
_RESIST = re.compile(r"^S?RESB?\s*\((?P<args>[^)]*)\)\s*(?P<label>.*)$", re.IGNORECASE)
_FULL_AUTO = re.compile(r"^S?FAR\s*\(", re.IGNORECASE)
# A damage roll: dice, numbers and {DB}-style references, then what it is for (a weapon, a skill,
# 'ダメージ判定'); the dice end at a space, a bracket or the first non-ASCII letter ('1D3応急手当回復').
_TERM = r"(?:\d*D\d+|\d+|\{[^{}]*\}|DB)"
_DAMAGE = re.compile(rf"^(?P<secret>S)?(?P<dice>[+-]?\d*D\d+(?:\s*[+\-]\s*{_TERM}|\{{[^{{}}]*\}})*"
                     rf"(?:/\d*D\d+(?:\s*[+\-]\s*{_TERM})*)*)"
                     r"(?=\s|[【〈《\[「『]|[^\x00-\x7f]|$)\s*(?P<label>.*)$", re.IGNORECASE)
# Palette furniture: headings and rules (▼戦闘技能----, ◆能力値, //---, ====), CCFOLIA's own gauge
# commands (:HP-1, :SAN-LZ), and the echo of a gauge (現在SAN値 {SAN}). No character data.
_FURNITURE = re.compile(r"^(?://|#|[▼▽◆◇■□●○◎★☆〇※]|[=\-_~ー―]{3,}|:\S)|^現在.*\{[^}]+\}\s*$"
                        r"|^[【〈《\[『「][^0-9]*[】〉》\]』」]$|^1?D100$", re.IGNORECASE)
_PAIRS = {"【": "】", "〈": "〉", "《": "》", "[": "]", "［": "］", "「": "」", "『": "』", "〔": "〕"}
_DAMAGE_WORD = re.compile(r"(?:ダメ[ー―\-‐－ｰ]ジ(?:判定|ロール)?|damage|dmg)", re.IGNORECASE)
_DB_ROLL = re.compile(r"^[+-]?(?:\d*D\d+|\d+)\s*(?P<label>.*)$", re.IGNORECASE)
_DB_WORDS = {"db", "ダメージボーナス", "ダメージ・ボーナス", "damage bonus"}
_UNARMED = {"素手", "格闘", "拳", "パンチ", "unarmed"}
_MELEE_SKILLS = {"Fist/Punch", "Kick", "Grapple", "Head Butt", "Martial Arts", "Knife", "Club", "Sword", "Axe",
                 "Spear"}
_FIREARM_SKILLS = {"Handgun", "Rifle", "Shotgun", "SMG", "Machine Gun", "Throw"}


def _nf(text: str) -> str:
    """NFKC (full-width letters, digits, brackets, '＜＝' as ASCII), one space, trimmed."""
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text)).strip()


def clean_label(label: str) -> str:
    """A command's label as the sheet writes it (full-width characters kept: it may be a weapon's
    name), without its decoration: brackets (【目星】 〈目星〉 [目星]), the leading ':' or '*' some
    palettes put before it, and a trailing note in double brackets ((注記))."""
    text = re.sub(r"\s+", " ", label).strip()
    text = re.sub(r"\s*[(（][(（][^()（）]*[)）][)）]$", "", text)
    while len(text) >= 2 and _PAIRS.get(text[0]) == text[-1]:
        text = text[1:-1].strip()
    return text.lstrip(":：*＊ ").strip()


@dataclass
class Command:
    """One line of ``commands``, classified."""

    n: int
    raw: str
    path: str
    kind: str  # check | damage | combo | resist | full-auto | furniture | other
    cmd: str = ""  # CCB, CC, 1D100
    target: str = ""  # the check's target as written
    label: str = ""  # cleaned
    dice: str = ""  # damage: the dice as written (NFKC)


def split_commands(text: str) -> tuple[list[str], list[str]]:
    """The command lines, and the clipboard variations met (CRLF line ends; commands whose line
    breaks arrived as the two characters backslash-n: JSON escaped twice)."""
    variations = []
    if "\r\n" in text:
        variations.append("commands with CRLF line ends")
    if "\n" not in text and "\r" not in text and "\\n" in text:
        variations.append("commands whose line breaks are the text '\\n' (escaped twice)")
        text = text.replace("\\r\\n", "\n").replace("\\n", "\n")
    return text.splitlines(), variations


def classify(n: int, raw: str) -> Command:
    """A command line: matched in NFKC ('ＣＣＢ＜＝６０' is 'CCB<=60'), its label kept as written."""
    path = f"$.data.commands line {n}"
    folded, where = [], []
    for i, ch in enumerate(raw.strip()):
        nfkc = unicodedata.normalize("NFKC", ch)
        folded.append(nfkc)
        where += [i] * len(nfkc)
    text = "".join(folded)

    def label(m: re.Match[str]) -> str:
        start = m.start("label")
        return clean_label(raw.strip()[where[start]:] if start < len(where) else "")

    if _FURNITURE.match(_nf(text)):
        return Command(n, raw, path, "furniture")
    m = _CHECK.match(text)
    if m and re.match(r"^1?D100", _nf(label(m)), re.IGNORECASE):
        return Command(n, raw, path, "furniture")  # CCB<=50 【1D100ロール】: the palette's plain d100
    if m:
        # ('{STR}x5', '{CON}×5': the multiplication as sheets print it)
        return Command(n, raw, path, "check", cmd=m.group("cmd").upper(),
                       target=re.sub(r"[xX×](?![^{}]*\})", "*", m.group("target")), label=label(m))
    if _COMBO.match(text):
        return Command(n, raw, path, "combo")
    if _FULL_AUTO.match(text):
        return Command(n, raw, path, "full-auto")
    m = _RESIST.match(text)
    if m:
        return Command(n, raw, path, "resist", target=m.group("args"), label=label(m))
    m = _DB_ROLL.match(text)
    if m and fold(clean_label(m.group("label"))) in _DB_WORDS:
        return Command(n, raw, path, "furniture")  # the damage bonus on its own: what STR + SIZ give
    m = _DAMAGE.match(text)
    if m and re.fullmatch(r"1?D100", m.group("dice"), re.IGNORECASE):
        return Command(n, raw, path, "furniture")  # s1d100 【シークレット】: a plain percentile roll
    if m:
        # "1d3なし 【ダメージ判定】": the damage bonus written as none (iachara's zero DB), no name
        start = m.start("label")
        written = re.sub(r"^(?:なし|無し)(?=\s|[【〈《\[「『]|$)\s*", "", raw.strip()[where[start]:] if start < len(where) else "")
        return Command(n, raw, path, "damage", dice=m.group("dice"), label=clean_label(written))
    return Command(n, raw, path, "other")


def evaluate(expr: str, values: dict[str, int]) -> tuple[int | None, list[str]]:
    """A check's target: {references} replaced by the params' and gauges' values, then + - * / and
    brackets (BCDice arithmetic; division rounds down). (value, references not found)."""
    missing: list[str] = []

    def ref(m: re.Match[str]) -> str:
        key = fold(m.group(1))
        if key in values:
            return str(values[key])
        missing.append(m.group(1))
        return "0"

    text = re.sub(r"\{([^{}]*)\}", ref, expr)
    if missing or not text.strip():
        return None, missing
    try:
        return _arith(ast.parse(text.replace("/", "//"), mode="eval").body), []
    except (SyntaxError, ValueError, ZeroDivisionError):
        return None, [expr]


_OPS: dict[type, Callable[[int, int], int]] = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
                                               ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b}


def _arith(node: ast.AST) -> int:
    """Whole-number arithmetic of a parsed target, nothing else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        v = _arith(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        return _OPS[type(node.op)](_arith(node.left), _arith(node.right))
    raise ValueError("not arithmetic")


# ---- what a check is of ---------------------------------------------------------------------

_CHAR_ROLL = re.compile(r"^(?P<key>STR|CON|POW|DEX|APP|SIZ|INT|EDU|筋力|体力|精神力|敏捷性?|外見|体格|知性|教育)"
                        r"\s*(?:[×xX*]\s*(?P<mult>\d+))?\s*(?:ロール|判定|チェック|対抗|roll)?$", re.IGNORECASE)
_SAN_ROLL = re.compile(r"^(?:正気度|san値?|sanity)\s*(?:ロール|チェック|判定|c|check|roll)?$|^sanc$", re.IGNORECASE)
_DERIVED_ROLL = {"アイデア": "Idea", "アイディア": "Idea", "idea": "Idea", "幸運": "Luck", "luck": "Luck",
                 "知識": "Know", "know": "Know", "knowledge": "Know"}


def roll_of(label: str, refs: list[str]) -> tuple[str, str | None, int | None]:
    """What a check rolls: ('char', KEY, multiplier), ('san', ...), ('Idea'|'Luck'|'Know', ...) or
    ('skill', label, None). A check without a label is what its one reference names."""
    text = _nf(label or (refs[0] if len(refs) == 1 else ""))
    m = _CHAR_ROLL.match(text)
    if m:
        key = _CHAR_NAMES.get(m.group("key").lower(), m.group("key").upper())
        return "char", key, int(m.group("mult")) if m.group("mult") else None
    if _SAN_ROLL.match(text):
        return "san", None, None
    low = re.sub(r"\s*(?:ロール|roll)$", "", text.lower())
    if low in _DERIVED_ROLL:
        return _DERIVED_ROLL[low], None, None
    return "skill", text, None


# ---- the clipboard character ------------------------------------------------------------------

@dataclass
class Param:
    label: str
    key: str  # folded
    value: Any
    path: str


@dataclass
class Sheet:
    """The clipboard character, parsed once, before any edition is decided."""

    name: str
    reading: str
    memo: str
    params: list[Param]
    status: list[dict[str, Any]]
    commands: list[Command]
    url: str
    variations: list[str] = field(default_factory=list)


def claims(plain: Any) -> bool:
    return (isinstance(plain, dict) and plain.get("kind") == "character" and isinstance(plain.get("data"), dict))


def load(data: bytes) -> dict[str, Any]:
    try:
        plain = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        raise InputError(f"malformed CCFOLIA JSON: {exc}") from None
    if not claims(plain):
        raise InputError("not a CCFOLIA clipboard character", path="$.kind",
                         expected='{"kind": "character", "data": {...}}',
                         found=repr(plain.get("kind")) if isinstance(plain, dict) else type(plain).__name__)
    return READERS["character"](plain["data"])


def _int(value: Any, path: str) -> int:
    if isinstance(value, bool):
        raise InputError("wrong type", path=path, expected="a whole number", found=repr(value))
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", unicodedata.normalize("NFKC", value)):
        return int(unicodedata.normalize("NFKC", value))
    raise InputError("not a number", path=path, expected="a whole number (or its digits as text)", found=repr(value))


def _number(value: Any) -> int | None:
    """A param's value when it is a whole number (params are text: '+1D4' is not one)."""
    try:
        return _int(value, "")
    except InputError:
        return None


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise InputError("wrong type", path=f"$.data.{key}", expected="a list", found=type(value).__name__)
    return value


_READING = re.compile(r"^(?P<name>.+?)\s*[(（](?P<reading>[\u3040-\u30ff\s\u3000・ー]+)[)）]\s*$")


def parse_sheet(data: dict[str, Any]) -> Sheet:
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InputError("a character needs a name", path="$.data.name", expected="a name", found=repr(name))
    name, reading = name.strip(), ""
    m = _READING.match(name)
    if m:  # "蓮吟 玄兎 (れんぎん げんと)": the reading in kana is not the name
        name, reading = m.group("name").strip(), re.sub(r"[\s\u3000]+", " ", m.group("reading")).strip()
    params = []
    for i, p in enumerate(_list(data, "params")):
        path = f"$.data.params[{i}]"
        if not isinstance(p, dict) or not isinstance(p.get("label"), str):
            raise InputError("wrong type", path=path, expected="{label, value}", found=repr(p))
        params.append(Param(p["label"].strip(), fold(p["label"]), p.get("value"), path))
    status = []
    variations = []
    for i, st in enumerate(_list(data, "status")):
        path = f"$.data.status[{i}]"
        if not isinstance(st, dict) or not isinstance(st.get("label"), str):
            raise InputError("wrong type", path=path, expected="{label, value, max}", found=repr(st))
        if "max" not in st and "status gauges without max" not in variations:
            variations.append("status gauges without max")
        status.append(st)
    commands = data.get("commands") or ""
    if not isinstance(commands, str):
        raise InputError("wrong type", path="$.data.commands", expected="text, one command a line",
                         found=type(commands).__name__)
    lines, more = split_commands(commands)
    variations += more
    memo = data.get("memo")
    url = data.get("externalUrl")
    return Sheet(name=name, reading=reading, memo=memo if isinstance(memo, str) else "", params=params,
                 status=status, commands=[classify(n, raw) for n, raw in enumerate(lines, 1) if raw.strip()],
                 url=url if isinstance(url, str) else "", variations=variations)


# ---- which edition -----------------------------------------------------------------------------

_SEVENTH_NAME = re.compile(r"^(?:近接戦闘|射撃|隠密$|手さばき$|威圧$|魅惑$|鑑定$|サバイバル|自然$|科学|ほかの言語|芸術/製作|"
                           r"fighting|firearms)", re.IGNORECASE)
_SIXTH_NAMES = {"こぶし", "こぶし(パンチ)", "キック", "組み付き", "組みつき", "頭突き", "マーシャルアーツ", "拳銃", "ライフル",
                "ショットガン", "サブマシンガン", "マシンガン", "忍び歩き", "隠れる", "隠す", "値切り", "写真術", "他の言語"}


def decide_edition(sheet: Sheet) -> tuple[str, str]:
    """'6th' or '7th', and why, from the whole character. The characteristics in params decide
    when most of them are above 18 (7th edition writes them 1-99) or none is (3-18); the
    commands (CC or CCB, {STR}*5 or {STR}), the skill names (近接戦闘（格闘）, 射撃（拳銃） or こぶし,
    拳銃), a 幸運 gauge and a Charaeno sheet's address are the evidence otherwise, and are said."""
    chars = {_CHAR_NAMES[p.key]: v for p in sheet.params if p.key in _CHAR_NAMES
             and (v := _number(p.value)) is not None}
    seventh: list[str] = []
    sixth: list[str] = []
    checks = [c for c in sheet.commands if c.kind == "check"]
    ccb = sum(c.cmd == "CCB" for c in checks)
    cc = sum(c.cmd == "CC" for c in checks)
    if ccb > cc:
        sixth.append(f"CCB commands ({ccb} of {len(checks)} checks)")
    elif cc > ccb:
        seventh.append(f"CC commands ({cc} of {len(checks)} checks)")
    times5 = [c for c in checks if re.search(r"\{(?:STR|CON|POW|DEX|APP|SIZ|INT|EDU)\}\s*\*\s*5", c.target, re.I)]
    if times5:
        sixth.append(f"characteristic rolls x5 ({_nf(times5[0].raw)})")
    new_names = sorted({c.label for c in checks if _SEVENTH_NAME.match(fold(c.label))})
    old_names = sorted({c.label for c in checks if fold(c.label) in _SIXTH_NAMES})
    if new_names:
        seventh.append("7th-edition skill names (" + ", ".join(new_names[:3]) + ")")
    if old_names:
        sixth.append("6th-edition skill names (" + ", ".join(old_names[:3]) + ")")
    if any(fold(str(st.get("label"))) in ("幸運", "luck") for st in sheet.status):
        seventh.append("a 幸運 (Luck) gauge")
    url = re.search(r"charaeno\.com/(6th|7th)/", sheet.url)
    if url:
        (seventh if url.group(1) == "7th" else sixth).append(f"a Charaeno {url.group(1)}-edition sheet")
    if chars:
        shown = ", ".join(f"{k} {v}" for k, v in chars.items())
        above = [k for k, v in chars.items() if v > 18]
        if len(above) * 2 > len(chars):
            return "7th", _said("7th", f"characteristics 1-99 in params ({shown})", seventh, sixth)
        if not above:
            return "6th", _said("6th", f"characteristics 3-18 in params ({shown})", sixth, seventh)
        mixed = f"params mix 3-18 and higher characteristics ({shown})"
        seventh_first = len(seventh) > len(sixth)
        key = "7th" if seventh_first else "6th"
        return key, _said(key, mixed, seventh if seventh_first else sixth, sixth if seventh_first else seventh)
    if len(seventh) > len(sixth):
        return "7th", _said("7th", "no characteristics in params", seventh, sixth)
    if sixth:
        return "6th", _said("6th", "no characteristics in params", sixth, seventh)
    return "6th", ("6th edition (assumed): nothing on the sheet tells the edition (no characteristics in params, "
                   "no CC/CCB commands or edition-only skill names)")


def _said(key: str, first: str, agree: list[str], against: list[str]) -> str:
    out = f"{key} edition: " + "; ".join([first, *agree])
    if against:
        out += "; though " + "; ".join(against)
    return out


# ---- the sheet readers ----------------------------------------------------------------------------

def sixth_onto_coc(chars: dict[str, int]) -> tuple[dict[str, int], str | None]:
    """coc holds CoC 6th-edition characteristics: read as written."""
    return dict(chars), None


def seventh_as_written(chars: dict[str, int]) -> tuple[dict[str, int], str | None]:
    """A 7th-edition sheet's characteristics (1-99) as written: the sheet reads as coc7."""
    return dict(chars), None


@dataclass(frozen=True)
class SheetReader:
    key: str
    edition: str
    name: str
    onto_coc: Callable[[dict[str, int]], tuple[dict[str, int], str | None]]
    system: str  # the system its sheets read as (a 7th-edition sheet: coc7)
    idea_times: int  # Idea = INT x this, Know = EDU x this (6th: 5; 7th: 1)
    char_roll_times: int  # a characteristic roll's target is the characteristic x this


SIXTH = SheetReader("ccfolia-coc6", "6th", "ccfolia clipboard character (kind: character), CoC 6th-edition sheet "
                    "(ccfolia-coc6)", sixth_onto_coc, "coc", 5, 5)
SEVENTH = SheetReader("ccfolia-coc7", "7th", "ccfolia clipboard character (kind: character), CoC 7th-edition sheet "
                      "(ccfolia-coc7)", seventh_as_written, SEVENTH_KEY, 1, 1)
SHEET_READERS = {"6th": SIXTH, "7th": SEVENTH}


def read_character(data: dict[str, Any]) -> dict[str, Any]:
    sheet = parse_sheet(data)
    key, why = decide_edition(sheet)
    return read_sheet(sheet, SHEET_READERS[key], why)


@dataclass
class _Reading:
    """What a sheet reader gathers before the block is composed."""

    unread: list[dict[str, str]] = field(default_factory=list)
    assumed: list[str] = field(default_factory=list)
    chars: dict[str, int] = field(default_factory=dict)  # the sheet's own scale
    char_from: dict[str, str] = field(default_factory=dict)
    own: dict[str, tuple[int, str]] = field(default_factory=dict)  # HP/MP/SAN/Luck -> (value, path)
    lines: list[Line] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)  # an attack's name as the text reader gives it back

    def named(self, name: str) -> str:
        """An attack's name for the composed block: the text reader reads '・' and '、' as item
        separators and folds full-width characters, so the name as written is kept to give back."""
        from xsys.core.textblock import normalize

        safe = name.replace("・", "·").replace("、", "‚").replace(",", "‚").replace(";", "⁏").replace("；", "⁏")
        self.names[normalize(safe)] = name
        return safe

    def drop(self, path: str, text: str) -> None:
        self.unread.append({"path": path, "text": text})


def read_sheet(sheet: Sheet, reader: SheetReader, why: str) -> dict[str, Any]:
    r = _Reading()
    values: dict[str, int] = {}  # what a {reference} finds: params, then gauges
    skill_params: dict[str, Param] = {}
    used_params: set[str] = set()
    for i, st in enumerate(sheet.status):  # the gauges first: a param of the same name does not override one
        _gauge(r, st, f"$.data.status[{i}]", values)
    for p in sheet.params:
        num = _number(p.value)
        if p.key in _CHAR_NAMES:
            r.chars[_CHAR_NAMES[p.key]] = _int(p.value, f"{p.path}.value")
            r.char_from[_CHAR_NAMES[p.key]] = p.path
        elif p.key in _GAUGES and num is not None:
            _own(r, _GAUGES[p.key], num, p.path)
        elif p.key in _RECOMPUTED and num is None and re.search(r"\d", str(p.value)) \
                and not re.fullmatch(r"\s*[+-]?\d*\s*[dD]\s*\d+\s*", str(p.value)):
            # more than the one value the characteristics give ('MOV 8/10 泳ぎ': a swimming speed too)
            r.drop(p.path, f"{p.label} {p.value} (recomputed from the characteristics; the rest has no place "
                           "in a coc document)")
        elif p.key in _RECOMPUTED or p.key in _ROLL_PARAMS:
            pass  # what the characteristics give: recomputed (Idea / Know checked below)
        elif num is not None:
            skill_params[p.key] = p
        else:
            r.drop(p.path, f"{p.label} {p.value} (no place in a coc document)")
        if num is not None:
            values.setdefault(p.key, num)
    for k, v in r.chars.items():
        values.setdefault(k.lower(), v)
    for p in sheet.params:  # アイデア 70 as a param: checked against INT like its command
        if p.key in _ROLL_PARAMS and (num := _number(p.value)) is not None:
            _derived_check(r, reader, p.path, f"{p.label} {p.value}", _ROLL_PARAMS[p.key], num)

    damage_names = {fold(_attack_name(c.label)[0]) for c in sheet.commands if c.kind == "damage"} - {""}
    weapon_checks: dict[str, tuple[int, Command]] = {}  # a check named by a weapon: its attack chance
    skills_seen: set[str] = set()
    # Idea and Know against INT and EDU, which a palette may list after them (an iachara export's
    # characteristic checks come last)
    derived: list[tuple[str, str, str, int]] = []
    for c in sheet.commands:
        if c.kind != "check":
            continue
        value, missing = evaluate(c.target, values) if c.target else (None, [])
        refs = re.findall(r"\{([^{}]*)\}", c.target)
        what, key, times = roll_of(c.label, refs)
        for ref in refs:
            used_params.add(fold(ref))
        if not c.target:
            if c.label:
                r.drop(c.path, f"{_nf(c.raw)} (a check without a target)")
            continue  # 'CCB<=' alone: the palette's plain d100
        if value is None:
            r.drop(c.path, f"{_nf(c.raw)} (" + ", ".join(f"{{{m}}}" for m in missing) + " is no param or gauge)")
            continue
        if what == "char":
            _char_roll(r, reader, c, key or "", times, value, refs)
        elif what == "san":
            if not refs:
                _stated(r, "SAN", value, c.path)
        elif what == "Luck":
            if not (refs and reader is SIXTH and value == r.chars.get("POW", -1) * 5):
                _stated(r, "Luck", value, c.path)  # a {POW}*5 reference is the rule's Luck, not the sheet's
        elif what in ("Idea", "Know"):
            derived.append((c.path, _nf(c.raw), what, value))  # checked once every characteristic is read
        elif fold(c.label) in damage_names and not coc_skill(c.label):
            weapon_checks[fold(c.label)] = (value, c)
        else:
            name = c.label or refs[0]
            skills_seen.update(coc_skill(name) or (name,))
            if not 0 <= value <= 200:  # coc holds a skill chance of 0-200%
                r.drop(c.path, f"{_nf(c.raw)} ({value} is no skill chance)")
                continue
            if value == 0 and fold(_nf(name)) in _SKILL_GROUPS:
                # iachara's CC<=0 【近接戦闘】 and CC<=0 【射撃】: a 7th-edition skill group's heading, not
                # its Brawl or Handgun at 0 (their bases are 25 and 20)
                r.drop(c.path, f"{_nf(c.raw)} (the heading of a skill group at 0: no skill of its own)")
                continue
            r.lines.append((f"Skills: {name} {value}%", c.path))
    for path, shown, what, value in derived:
        _derived_check(r, reader, path, shown, what, value)
    if "POW" not in r.chars and "MP" in r.own and r.own["MP"][0] > 0:
        # no POW on the sheet: its Magic Points state it (6th edition MP = POW; 7th MP = POW / 5, coc7.derived)
        mp, where = r.own["MP"]
        r.chars["POW"] = mp * 5 if reader.idea_times == 1 else mp
        r.char_from["POW"] = where
        r.assumed.append(f"{where}: POW {r.chars['POW']}: the sheet states no POW; its MP {mp} is "
                         + ("POW / 5 (7th edition, coc7.derived)" if reader.idea_times == 1 else "POW (6th edition)"))
    for key, p in skill_params.items():
        if key in used_params:
            continue
        if coc_skill(p.label):  # a skill kept in params (no command rolls it)
            r.lines.append((f"Skills: {p.label} {_number(p.value)}%", p.path))
            skills_seen.update(coc_skill(p.label))
        elif fold(p.label) in _ARMOR_LABELS and _number(p.value):  # its armor points (装甲 1)
            r.lines.append((f"Armor: {_number(p.value)}", p.path))
        else:
            r.drop(p.path, f"{p.label} {p.value} (no place in a coc document)")
    _attacks(r, sheet, weapon_checks, skills_seen)
    for c in sheet.commands:
        if c.kind == "combo":
            r.drop(c.path, f"{_nf(c.raw)} (a combination roll of two values: no skill of its own)")
        elif c.kind == "full-auto":
            r.drop(c.path, f"{_nf(c.raw)} (a full-auto fire roll: the weapon and skill are read elsewhere, "
                           "not the burst)")
        elif c.kind == "resist" and not (_CHAR_ROLL.match(_nf(c.label)) or re.search(
                r"\{(?:STR|CON|POW|DEX|APP|SIZ|INT|EDU)\}", c.target, re.IGNORECASE)):
            r.drop(c.path, f"{_nf(c.raw)} (a resistance roll of no characteristic)")
        elif c.kind == "other":
            r.drop(c.path, _nf(c.raw))
    r.unread.sort(key=_where)
    return _compose(sheet, reader, why, r)


def _where(entry: dict[str, str]) -> tuple[int, int, str]:
    """Report entries in the order of the clipboard: params, status, commands by line."""
    path = entry["path"]
    m = re.search(r"(params|status)\[(\d+)\]|line (\d+)", path)
    if not m:
        return (3, 0, path)
    if m.group(3):
        return (2, int(m.group(3)), path)
    return (0 if m.group(1) == "params" else 1, int(m.group(2)), path)


def _gauge(r: _Reading, st: dict[str, Any], path: str, values: dict[str, int]) -> None:
    label = fold(str(st["label"]))
    now, top = st.get("value"), st.get("max")
    if label in _ARMOR_LABELS and _number(top if top not in (None, "") else now):
        # an armor gauge (a creature's 装甲 1): its armor points, a line of the stat block
        r.lines.append((f"Armor: {_number(top if top not in (None, '') else now)}", path))
        return
    if label not in _GAUGES:
        r.drop(path, f"{st['label']} {top if top not in (None, '') else now} (no place in a coc document)")
        return
    own = _GAUGES[label]
    # SAN: a sheet's SAN max is 99 minus Cthulhu Mythos, not the character's sanity; Luck: the max of a
    # 7th-edition Luck gauge is the 99 cap on some sheets, the starting Luck on others. HP and MP: the
    # gauge's full value (older exports write no max: the value).
    use_max = own in ("HP", "MP") and top not in (None, 0, "")
    written, where = (top, f"{path}.max") if use_max else (now, f"{path}.value")
    value = _number(written)
    if value is None:
        r.drop(where, f"{st['label']} {written!r} (not a number)")
        return
    if use_max and now not in (None, "") and str(now) != str(top):
        # spent or hurt in play (HP 4 of 11): a stat block holds the NPC whole; said, not kept
        r.drop(f"{path}.value", f"{st['label']} {now} of {value} (used up in play: a stat block holds the full value)")
    _own(r, own, value, path)
    values[label] = _number(now) if _number(now) is not None else value


def _stated(r: _Reading, own: str, value: int, path: str) -> None:
    """A value the sheet states in a command (正気度ロール at 55, 幸運 at 60): the gauge's, if there is
    one, else this; a command that disagrees with the gauge is said."""
    if own in r.own:
        if r.own[own][0] != value:
            r.drop(path, f"{own} roll at {value}, but {r.own[own][1]} says {r.own[own][0]} (the gauge is read)")
        return
    _own(r, own, value, path)


# what coc holds: SAN and Luck are percentages, HP and MP points (the coc model's bounds)
_OWN_RANGE = {"HP": (0, 999), "MP": (0, 999), "SAN": (0, 99), "Luck": (0, 99)}


# 7th edition's skill groups, printed bare as headings (a speciality names the skill: 近接戦闘（格闘）)
_SKILL_GROUPS = frozenset({"近接戦闘", "射撃", "fighting", "firearms"})


def _own(r: _Reading, own: str, value: int, path: str) -> None:
    lo, hi = _OWN_RANGE[own]
    if own in r.own:
        return  # the first the sheet states (the gauge before a param of the same name)
    if not lo <= value <= hi:
        r.drop(path, f"{own} {value} (coc holds {own} {lo}-{hi})")
        return
    r.own[own] = (value, path)


def _char_roll(r: _Reading, reader: SheetReader, c: Command, key: str, times: int | None, value: int,
               refs: list[str]) -> None:
    """A characteristic roll is checked against the params (or, where params lack it, states the
    characteristic). Its target is the characteristic x the label's multiplier ('STR × 5'), else
    x5 on a 6th-edition sheet when the target is above 18 (CCB<=65 STR), else as written."""
    if refs:
        return  # CCB<={STR}*5: what the params give
    mult = times or (reader.char_roll_times if value > 18 else 1)
    if value % mult:
        r.drop(c.path, f"{_nf(c.raw)} (a {key} roll at {value}, not {key} x {mult})")
        return
    stated = value // mult
    if key in r.chars:
        if r.chars[key] != stated:
            r.drop(c.path, f"{_nf(c.raw)} (a {key} roll at {value}, but {r.char_from[key]} says {key} "
                           f"{r.chars[key]}: the params are read)")
        return
    r.chars[key] = stated
    r.char_from[key] = c.path
    if mult != 1 and not times:
        r.assumed.append(f"{c.path}: {key} {stated}: a 6th-edition roll at {value} is {key} x {mult}")


def _derived_check(r: _Reading, reader: SheetReader, path: str, shown: str, what: str, value: int) -> None:
    """Idea and Know are what INT and EDU give (6th edition x5, 7th edition the characteristic itself):
    coc recomputes them, so a sheet's value is checked, and one that differs is said."""
    base = "INT" if what == "Idea" else "EDU"
    times = reader.idea_times
    if base not in r.chars and value > 0 and value % times == 0:
        # a sheet whose params state no characteristics: its Idea and Know state INT and EDU (6th
        # edition: x5), as a GM reads them; said, not the average adult's beside them
        r.chars[base] = value // times
        r.char_from[base] = path
        r.assumed.append(f"{path}: {base} {value // times}: the sheet states no {base}; its {what} {value} is "
                         + (f"{base} x {times}" if times != 1 else base))
    elif base not in r.chars:
        r.drop(path, f"{shown} ({what} {value}: {base} is not on the sheet to check it against)")
    elif r.chars[base] * reader.idea_times != value and not (
            reader.idea_times == 5 and value == 99 and r.chars[base] * 5 >= 99):
        # (6th edition's Know and Idea stop at 99: EDU 20 is Know 99, not 100)
        r.drop(path, f"{shown} ({what} {value}, not {base} x {reader.idea_times} = "
                     f"{r.chars[base] * reader.idea_times}: no place in a coc document)")


# ---- attacks ------------------------------------------------------------------------------------

def _attack_name(label: str) -> tuple[str, str]:
    """A damage roll's (weapon or attack name, skill name written beside it): 'ダメージ：拳銃：NAME'
    (the writer's form) -> (NAME, 拳銃); 'こぶしダメージ', 'ニューナンブ ダメ―ジ' -> the name;
    'ダメージ判定' -> ('', '')."""
    text = _DAMAGE_WORD.sub(" ", label).strip(" :：")
    parts = [x.strip() for x in re.split(r"\s*[:：]\s*", text) if x.strip()]
    if len(parts) >= 2 and coc_skill(parts[0]):
        return ":".join(parts[1:]) if len(parts) > 2 else parts[1], parts[0]
    return re.sub(r"\s+", " ", text), ""


def _dice(c: Command, values: dict[str, int]) -> tuple[str | None, bool]:
    """The dice as coc writes them (lower-case d, no spaces) and whether the wielder's damage bonus
    ({DB}, DB) is added; None when a reference is neither the damage bonus nor a number."""
    text = re.sub(r"\s+", "", c.dice)
    db = False

    def ref(m: re.Match[str]) -> str:
        nonlocal db
        name = fold(m.group(1) or "db")
        if name in ("db", "ダメージボーナス", "ダメージ・ボーナス"):
            db = True
            return ""
        if name in values:
            return f"+{values[name]}" if values[name] >= 0 else str(values[name])
        raise KeyError(name)

    try:
        text = re.sub(r"[+-]?\{([^{}]*)\}|[+-]?\b(DB)\b", ref, text, flags=re.IGNORECASE)
    except KeyError:
        return None, False
    text = re.sub(r"(?i)(?<![\d)])d", "1d", text).lower().replace("+-", "-")
    # a shotgun's damage by range band ('4d6/2d6/1d6') is one roll per band
    return (text if re.fullmatch(r"\d+d\d+([+-](\d+d\d+|\d+))*(/\d+d\d+([+-](\d+d\d+|\d+))*)*", text)
            else None), db


def _attacks(r: _Reading, sheet: Sheet, weapon_checks: dict[str, tuple[int, Command]], skills: set[str]) -> None:
    """Each damage roll is a weapon's or an attack's damage: named by a weapon (its attack chance on
    the check of the same name), by a skill (こぶし), or by nothing ('ダメージ判定'), when the check
    just before it is the attack it follows. What cannot be told is said, never dropped."""
    values = {p.key: v for p in sheet.params if (v := _number(p.value)) is not None}
    cmds = sheet.commands
    firearms = sorted(s for s in skills if s in _FIREARM_SKILLS)
    paired: set[str] = set()
    for i, c in enumerate(cmds):
        if c.kind != "damage":
            continue
        shown = _nf(c.raw)
        if "回復" in c.label:
            r.drop(c.path, f"{shown} (a recovery roll, not an attack)")
            continue
        name, said_skill = _attack_name(c.label)
        dice, db = _dice(c, values)
        if dice is None:
            r.drop(c.path, f"{shown} (dice not read)")
            continue
        if re.search(r"\+\s*MA$|マーシャルアーツ", name, re.IGNORECASE):
            r.drop(c.path, f"{shown} (martial-arts damage: coc has no martial-arts doubling)")
            continue
        before = cmds[i - 1] if i > 0 and cmds[i - 1].kind == "check" else None
        pct: int | None = None
        skill: str | None = None
        if said_skill:
            skill = weapon_skill(said_skill, name)
        elif coc_skill(name):  # 'こぶしダメージ', 【拳銃】: the attack named by its skill
            skill = weapon_skill(name, name)
        elif fold(name) in _UNARMED:
            skill = "Fist/Punch"
        if fold(name) in weapon_checks:  # CCB<=70 【試作ライフル】 and 2D6+1 【試作ライフルダメージ】
            pct = weapon_checks[fold(name)][0]
            paired.add(fold(name))
        elif not name:
            run = (i + 1 < len(cmds) and cmds[i + 1].kind == "damage" and not _attack_name(cmds[i + 1].label)[0]) or (
                i > 0 and cmds[i - 1].kind == "damage")
            combat = coc_skill(before.label) if before is not None else ()
            # (a characteristic, SAN, Idea, Luck or Know roll is no attack: CCB<=({STR}*5) 【STR × 5】
            # then 1d3+{DB} 【ダメージ判定】 is no damage of 'STR × 5')
            rolled = roll_of(before.label, re.findall(r"\{([^{}]*)\}", before.target))[0] if before else "skill"
            if before is None or not before.label or run or fold(before.label) in paired or rolled != "skill" or (
                    combat and not set(combat) & (_MELEE_SKILLS | _FIREARM_SKILLS)):
                r.drop(c.path, f"{shown} (a damage roll that names no weapon)")
                continue
            name = before.label  # CC<=45 【杖】 then 1d3+1D4 【ダメージ判定】: the attack it follows
            paired.add(fold(name))
            if coc_skill(name):
                skill = weapon_skill(name, name)
            else:
                pct = int(before.target) if before.target.isdigit() else None
                skills.discard(name)
                r.lines[:] = [x for x in r.lines if x[1] != before.path]
            r.assumed.append(f"{c.path}: {shown}: read as the damage of {name} (the check on the line before)")
        # the wielder's damage bonus, written in ({DB}) or added as dice (1D4+2+1D4): a close-combat blow
        db_like = db or bool(re.search(r"\d+d\d+.*[+-](1d4|1d6|2d6)$", dice))
        if skill is None:
            skill = _firearm_of(name)  # a catalog weapon, or a word of its name (ライフル, リボルバー)
        if skill is None and before is not None and coc_skill(before.label) and fold(name) not in weapon_checks:
            # CCB<=65 【拳銃】 then 1D10+2 ガバメント: the skill on the line before makes the attack, when
            # the damage agrees (a firearm's has no damage bonus in it, a blow's has or is bare-handed)
            near = weapon_skill(before.label, name)
            if (near in _FIREARM_SKILLS and not db_like) or (near in _MELEE_SKILLS and (
                    db_like or _is_melee_name(name))):
                skill = near
                r.assumed.append(f"{c.path}: {name}: made with {near} (the check on the line before)")
        if skill is None and not db_like and not _is_melee_name(name) and len(firearms) == 1:
            skill = firearms[0]
            r.assumed.append(f"{c.path}: {name}: fired with {skill}, the one firearm skill on the sheet")
        melee = db_like or skill in _MELEE_SKILLS or (skill is None and (_is_melee_name(name) or pct is not None))
        if skill is None and not melee:
            r.drop(c.path, f"{shown} (which skill makes this attack is not said)")
            continue
        if melee and skill not in _FIREARM_SKILLS:
            parts = [r.named(name) + (f" {pct}%" if pct is not None else ""), f"damage {dice}" + ("+db" if db else "")]
            if skill:
                parts.append(f"skill {skill}")
            r.lines.append(("Melee: " + ", ".join(parts) + ";", c.path))
            continue
        if pct is not None and skill is not None and skill not in skills:
            r.assumed.append(f"{c.path}: {name}: the sheet states no {skill} skill; the weapon's attack chance "
                             f"({pct}%) is read as it")
        parts = [r.named(name) + (f" {pct}%" if pct is not None else ""), f"damage {dice}"]
        if skill:
            parts.append(f"skill {skill}")
        r.lines.append(("Weapons: " + ", ".join(parts) + ";", c.path))
    for key, (value, c) in weapon_checks.items():
        if key not in paired:  # a damage roll names it, but none could be read: keep the check
            r.lines.append((f"Skills: {c.label} {value}%", c.path))


def _firearm_of(name: str) -> str | None:
    """The firearm skill a weapon's name gives: a catalog weapon's class, else a word of the name."""
    from xsys.core.textblock import catalog_match
    from xsys.plugins.coc.names import skill_by_keyword, skill_of_class

    entry = catalog_match(name)
    return skill_of_class(entry.weapon_class) if entry is not None else skill_by_keyword(name)


def _is_melee_name(name: str) -> bool:
    from xsys.core.model import melee_class_of

    return fold(name) in _UNARMED or melee_class_of(name) != "improvised"


# ---- the composed document ------------------------------------------------------------------------

def _compose(sheet: Sheet, reader: SheetReader, why: str, r: _Reading) -> dict[str, Any]:
    coc, note = reader.onto_coc(r.chars)
    if note:
        r.assumed.insert(0, f"$.data.params: {note}")
    lines: list[Line] = [(sheet.name, "$.data.name")]
    if coc:
        lines.append((" ".join(f"{k} {v}" for k, v in coc.items()), "$.data.params"))
    lines += r.lines
    memo = "\n".join(x for x in sheet.memo.splitlines() if not x.startswith(MARK))
    notes = " ".join(x for x in (one_line(memo) if memo.strip() else "",
                                 f"(読み: {sheet.reading})" if sheet.reading else "") if x)
    if notes:
        lines.append((f"Notes: {notes}", "$.data.memo"))
    doc = read_lines(lines, FORMAT, reader.system, assumed=r.assumed, unread=r.unread)
    doc.update(coc)  # the text reader would take a characteristic above 18 (a monster's) for 7th edition
    report = doc.setdefault("xsys", {}).setdefault("read", {"format": FORMAT})
    kept = [a for a in report.get("assumed", []) if "a 7th-edition block (characteristics above 18)" not in a]
    if kept:
        report["assumed"] = kept
    else:
        report.pop("assumed", None)
    for own in ("HP", "MP", "SAN", "Luck"):
        if own in r.own:
            doc[own] = r.own[own][0]
    for entry in (doc.get("weapons") or []) + (doc.get("melee") or []):
        entry["name"] = r.names.get(entry["name"], entry["name"])
    reader_name = reader.name + (f"; clipboard variations read: {', '.join(sheet.variations)}"
                                 if sheet.variations else "")
    report["reader"] = reader_name
    report["edition"] = why + (" (read into coc7 as written)" if reader is SEVENTH else "")
    return doc


READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {"character": read_character}
