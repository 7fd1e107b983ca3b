"""List numbering: `numbering.xml` read once, and the labels Word would render, counted in order.

A paragraph joins a list through a numbering instance (`w:num`, by `numId`) and a level (`ilvl`).
Instances point to an abstract definition (`w:abstractNum`) whose levels give the start value,
the number format and the label template ("%1.%2."). Counters are kept per abstract definition,
so instances of one definition continue each other, except that an instance with a
`w:startOverride` restarts its level when first used. Counting a level resets the deeper ones.

Labels stay short whatever the document says (`_limits`): start values are clamped to a 32-bit
integer, a label template (`w:lvlText`) is cut at `MAX_LEVEL_TEXT` characters (a loss, counted),
and `format_number` writes a number its format cannot show briefly in decimal (Roman numerals
past 3999, letters past 780, i.e. 30 repeated letters, Chinese counting past 9999).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from lxml import etree

from partita.partitioners.docx._limits import (
    MAX_LEVEL_TEXT,
    MAX_LIST_LEVEL,
    MAX_LIST_NUMBER,
    MIN_LIST_NUMBER,
    clamp,
)
from partita.partitioners.docx._losses import LossReport
from partita.partitioners.docx._ns import W_VAL, int_or_none, is_on, w

__all__ = ["Label", "Numbering", "format_number"]

_MAX_LEVELS = MAX_LIST_LEVEL + 1
_MAX_ROMAN = 3999
"""The largest number Roman numerals write without overlines."""
_MAX_LETTERS = 26 * 30
"""The largest number written in repeated letters: "zzz...z", 30 letters (a Word label has at
most 31 characters)."""


@dataclass(frozen=True, slots=True)
class Label:
    """A rendered list label: `text` ("3.2", "a)", "第一章") or a bullet (`is_bullet`)."""

    text: str
    is_bullet: bool
    separator: str
    """What follows the label: " " (for a tab or a space) or "" (`w:suff="nothing"`)."""


@dataclass(frozen=True, slots=True)
class _Level:
    start: int = 1
    fmt: str = "decimal"
    template: str | None = None
    is_legal: bool = False
    separator: str = " "


@dataclass(slots=True)
class _Num:
    abstract_id: str
    starts: dict[int, int] = field(default_factory=dict)
    levels: dict[int, _Level] = field(default_factory=dict)


class Numbering:
    """The numbering definitions of one document and the running counters of its lists."""

    def __init__(
        self,
        root: etree._Element | None,
        numbering_style_nums: Mapping[str, str] | None = None,
        losses: LossReport | None = None,
    ) -> None:
        self._losses = losses if losses is not None else LossReport()
        self._abstract: dict[str, dict[int, _Level]] = {}
        self._links: dict[str, str] = {}
        self._resolved: dict[str, str] = {}
        self._nums: dict[str, _Num] = {}
        self._counters: dict[str, list[int | None]] = {}
        self._started: set[str] = set()
        self.style_levels: dict[str, int] = {}
        """Paragraph style ids named by a level's `w:pStyle`, to that level (`ilvl`)."""
        if root is None:
            return
        for abstract in root.iter(w("abstractNum")):
            abstract_id = abstract.get(w("abstractNumId"))
            if abstract_id is None:
                continue
            levels: dict[int, _Level] = {}
            for lvl in abstract.iter(w("lvl")):
                level = _ilvl(lvl)
                if level is None:
                    continue
                levels[level] = self._read_level(lvl)
                p_style = lvl.find(w("pStyle"))
                if p_style is not None and (style_id := p_style.get(W_VAL)):
                    self.style_levels.setdefault(style_id, level)
            self._abstract[abstract_id] = levels
            link = abstract.find(w("numStyleLink"))
            style = link.get(W_VAL) if link is not None else None
            num_id = (numbering_style_nums or {}).get(style) if style else None
            if num_id is not None:
                self._links[abstract_id] = num_id
        for num in root.iter(w("num")):
            num_id = num.get(w("numId"))
            ref = num.find(w("abstractNumId"))
            if num_id is None or ref is None or ref.get(W_VAL) is None:
                continue
            entry = _Num(ref.get(W_VAL) or "")
            for override in num.iter(w("lvlOverride")):
                level = _ilvl(override)
                if level is None:
                    continue
                start = override.find(w("startOverride"))
                if start is not None and (value := int_or_none(start.get(W_VAL))) is not None:
                    entry.starts[level] = clamp(value, MIN_LIST_NUMBER, MAX_LIST_NUMBER)
                override_lvl = override.find(w("lvl"))
                if override_lvl is not None:
                    entry.levels[level] = self._read_level(override_lvl)
            self._nums[num_id] = entry

    def label(self, num_id: str, ilvl: int) -> Label | None:
        """Count one paragraph of list `num_id` at level `ilvl`; return its label, or None when
        the instance or level is undefined."""
        num = self._nums.get(num_id)
        if num is None or not 0 <= ilvl < _MAX_LEVELS:
            return None
        abstract_id = self._resolve_abstract(num.abstract_id)
        levels = self._abstract.get(abstract_id, {})
        level = num.levels.get(ilvl) or levels.get(ilvl)
        if level is None:
            return None
        counters = self._counters.setdefault(abstract_id, [None] * _MAX_LEVELS)
        if num_id not in self._started:
            self._started.add(num_id)
            for overridden, start in num.starts.items():
                if 0 <= overridden < _MAX_LEVELS:
                    counters[overridden] = start - 1
        for shallower in range(ilvl):  # -- a skipped level shows, and keeps, its start value --
            if counters[shallower] is None:
                ref = num.levels.get(shallower) or levels.get(shallower) or _Level()
                counters[shallower] = ref.start
        current = counters[ilvl]
        counters[ilvl] = level.start if current is None else current + 1
        for deeper in range(ilvl + 1, _MAX_LEVELS):
            counters[deeper] = None
        if level.fmt == "bullet":
            return Label(level.template or "", True, level.separator)
        if level.fmt == "none" or level.template is None:
            return Label("", False, level.separator)
        return Label(self._render(level, counters, num, levels), False, level.separator)

    def _render(
        self, level: _Level, counters: list[int | None], num: _Num, levels: dict[int, _Level]
    ) -> str:
        template = level.template or ""
        out: list[str] = []
        i = 0
        while i < len(template):
            char = template[i]
            if char == "%" and i + 1 < len(template) and template[i + 1] in "123456789":
                index = int(template[i + 1]) - 1
                ref = num.levels.get(index) or levels.get(index) or _Level()
                value = counters[index]
                if value is None:
                    value = ref.start
                out.append(format_number(value, "decimal" if level.is_legal else ref.fmt))
                i += 2
                continue
            out.append(char)
            i += 1
        return "".join(out)

    def _resolve_abstract(self, abstract_id: str) -> str:
        """The definition `abstract_id` stands for, following `w:numStyleLink` chains; cached,
        as a chain can be as long as the document has definitions."""
        resolved = self._resolved.get(abstract_id)
        if resolved is not None:
            return resolved
        start = abstract_id
        seen: set[str] = set()
        while abstract_id in self._links and abstract_id not in seen:
            seen.add(abstract_id)
            num = self._nums.get(self._links[abstract_id])
            if num is None:
                break
            abstract_id = num.abstract_id
        self._resolved[start] = abstract_id
        return abstract_id

    def _read_level(self, lvl: etree._Element) -> _Level:
        start_el = lvl.find(w("start"))
        fmt_el = lvl.find(w("numFmt"))
        text_el = lvl.find(w("lvlText"))
        suff_el = lvl.find(w("suff"))
        start = int_or_none(start_el.get(W_VAL)) if start_el is not None else None
        template = text_el.get(W_VAL) if text_el is not None else None
        if template is not None and len(template) > MAX_LEVEL_TEXT:
            self._losses.add("list label templates cut short")
            template = template[:MAX_LEVEL_TEXT]
        return _Level(
            start=1 if start is None else clamp(start, MIN_LIST_NUMBER, MAX_LIST_NUMBER),
            fmt=(fmt_el.get(W_VAL) or "decimal") if fmt_el is not None else "decimal",
            template=template,
            is_legal=is_on(lvl.find(w("isLgl"))),
            separator="" if suff_el is not None and suff_el.get(W_VAL) == "nothing" else " ",
        )


def _ilvl(el: etree._Element) -> int | None:
    return int_or_none(el.get(w("ilvl")))


_CN_DIGITS = "零一二三四五六七八九"
_CN_TRAD_DIGITS = "零壹贰叁肆伍陆柒捌玖"
_STEMS = "甲乙丙丁戊己庚辛壬癸"
_BRANCHES = "子丑寅卯辰巳午未申酉戌亥"
_ROMAN = (
    (1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"),
    (50, "l"), (40, "xl"), (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"),
)  # fmt: skip


def format_number(value: int, fmt: str) -> str:
    """Return `value` written in the Word number format `fmt` (decimal for unknown formats).

    The label is short for any `value`: a number the format cannot write briefly (Roman past
    3999, letters past 780, Chinese counting past 9999, a negative number) is written in decimal.
    """
    if value < 0:
        return str(value)
    if fmt in ("lowerRoman", "upperRoman"):
        if value > _MAX_ROMAN:
            return str(value)
        text = _roman(value) if value > 0 else "0"
        return text.upper() if fmt == "upperRoman" else text
    if fmt in ("lowerLetter", "upperLetter"):
        if value <= 0 or value > _MAX_LETTERS:
            return str(value)
        letter = chr(ord("a") + (value - 1) % 26) * ((value - 1) // 26 + 1)
        return letter.upper() if fmt == "upperLetter" else letter
    if fmt == "decimalZero":
        return f"{value:02d}"
    if fmt == "ordinal":
        suffix = (
            "th" if 10 <= value % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(value % 10, "th")
        )
        return f"{value}{suffix}"
    if fmt in (
        "chineseCounting",
        "chineseCountingThousand",
        "japaneseCounting",
        "taiwaneseCounting",
    ):
        return _chinese(value, _CN_DIGITS, "十百千")
    if fmt in ("chineseLegalSimplified", "ideographLegalTraditional"):
        return _chinese(value, _CN_TRAD_DIGITS, "拾佰仟")
    if fmt in ("ideographDigital", "japaneseDigitalTenThousand", "taiwaneseDigital"):
        return "".join(_CN_DIGITS[int(d)] for d in str(value)).replace("零", "〇")
    if fmt == "ideographTraditional" and 1 <= value <= 10:
        return _STEMS[value - 1]
    if fmt == "ideographZodiac" and 1 <= value <= 12:
        return _BRANCHES[value - 1]
    if fmt == "decimalFullWidth" or fmt == "decimalFullWidth2":
        return "".join(chr(0xFF10 + int(d)) for d in str(value))
    if fmt in ("decimalEnclosedCircle", "decimalEnclosedCircleChinese") and 1 <= value <= 20:
        return chr(0x2460 + value - 1)
    if fmt in ("decimalEnclosedParen",) and 1 <= value <= 20:
        return chr(0x2474 + value - 1)
    if fmt in ("decimalEnclosedFullstop",) and 1 <= value <= 20:
        return chr(0x2488 + value - 1)
    return str(value)


def _roman(value: int) -> str:
    out = []
    for amount, numeral in _ROMAN:
        while value >= amount:
            out.append(numeral)
            value -= amount
    return "".join(out)


def _chinese(value: int, digits: str, units: str) -> str:
    if value == 0:
        return digits[0]
    if value >= 10000:
        return str(value)
    parts: list[str] = []
    text = str(value)
    zero_pending = False
    for position, char in enumerate(text):
        digit = int(char)
        power = len(text) - position - 1
        if digit == 0:
            zero_pending = bool(parts)
            continue
        if zero_pending:
            parts.append(digits[0])
            zero_pending = False
        if not (digit == 1 and power == 1 and not parts):
            parts.append(digits[digit])
        if power:
            parts.append(units[power - 1])
    return "".join(parts)
