"""One page's content run under the page bounds, into the layout pdfplumber reads its objects from.

pdfplumber runs pdfminer's `PDFPageInterpreter` the first time a page's objects are asked for
(`Page.layout`). `read_layout` does that work instead and stores the result as the page's
layout, so pdfplumber reads its characters, lines and rectangles from it unchanged. The
interpreter and device are pdfminer's and pdfplumber's own, with these differences:

- **Counted.** Every content token (an operator, or an operand: an array or dictionary counts
  its items; a form's, each time it is drawn), every content stream run (also as
  `STREAM_TOKENS` tokens), every line, rectangle or curve painted (as `PATH_TOKENS` tokens) and
  every glyph drawn (as a glyph, and as `GLYPH_TOKENS` tokens) is counted against a
  `PageMeter`; arrays and dictionaries still open may hold at most `MAX_OPEN_ITEMS` items
  (checked at each 4 KB of input), so one never closed is bounded too. When a count runs out
  the page stops there (`PageCut`): what was drawn so far is kept and the caller warns.
  Form XObjects nested deeper than `MAX_FORM_DEPTH` are skipped (and counted).
- **Clamped.** Numeric operands beyond what PDF allows (integers beyond ±2**31-1, reals beyond
  ±3.403e38: the format's implementation limits) are clamped to them, so pdfminer's
  arithmetic sees no 400-digit integers; pending operands no operator takes are dropped beyond
  the last 256 (no operator takes more than 33), and saved graphics states beyond the last
  4,096 (an unbalanced `q` flood).
- **Linear.** Inline image data is gathered in linear time (pdfminer's concatenation is
  quadratic) and bounded by `MAX_INLINE_IMAGE_BYTES`; a token longer than `MAX_TOKEN_BYTES`
  stops the page, and the copying a long token costs is counted (see `_pdfminer_bounds`).
- **In range.** Objects whose coordinates (a character's baseline too) are not finite or lie
  beyond `MAX_COORDINATE` (an overflowing font size or matrix) are left out of the layout as
  they are drawn; the characters are counted.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from pdfminer import settings
from pdfminer.converter import PDFLayoutAnalyzer
from pdfminer.pdfinterp import PDFContentParser, PDFInterpreterError, PDFPageInterpreter
from pdfminer.pdftypes import stream_value
from pdfminer.psparser import PSEOF, PSKeyword, keyword_name
from pdfplumber.page import PDFPageAggregatorWithMarkedContent

from partita.partitioners.pdf import _limits as limits
from partita.partitioners.pdf._limits import DocumentBudget, PageCut, PageMeter

__all__ = ["PageLayout", "read_layout"]

_MAX_INT = 2**31 - 1
_MAX_REAL = 3.403e38
_PENDING_OPERANDS = 256
_SAVED_STATES = 4096
_EOL_AT_END = re.compile(rb"(\x0d\x0a|[\x0d\x0a])$")


@dataclass(frozen=True, slots=True)
class PageLayout:
    """What reading a page's content left out (empty when nothing)."""

    cuts: tuple[str, ...]
    """Why parts of the page were left out, each a phrase ("stopped after ... glyphs")."""


def read_layout(page: Any, budget: DocumentBudget) -> PageLayout:
    """Run the pdfplumber `page`'s content under the page bounds (within what is left of the
    document's `budget`) and store the result as its layout.

    Raises `DocumentLimitError` when the document's budget runs out on this page: its glyphs as
    they are drawn, its tokens when the page is done (the page's bound caps what it adds).
    """
    if budget.tokens >= budget.max_tokens:
        raise _document_exhausted(budget, "tokens")
    meter = budget.page_meter()
    if meter.glyphs <= 0:
        raise _document_exhausted(budget, "glyphs")
    pdf = page.pdf
    device = _Device(pdf.rsrcmgr, meter, pageno=page.page_number, laparams=pdf.laparams)
    interpreter = _Interpreter(pdf.rsrcmgr, device, meter, 0)
    cuts: list[str] = []
    try:
        interpreter.process_page(page.page_obj)
    except PageCut as cut:
        if cut.reason == "glyphs" and meter.document_glyphs:
            raise _document_exhausted(budget, cut.reason) from None
        cuts.append(_describe_cut(cut.reason, meter))
        while device._stack:  # -- the figures (forms) being drawn when the page stopped --
            device.end_figure("")
        device.end_page(page.page_obj)
    finally:
        budget.settle(meter)
    if budget.tokens > budget.max_tokens:
        raise _document_exhausted(budget, "tokens")
    if meter.deep_forms:
        cuts.append(
            f"{meter.deep_forms} form XObject(s) nested more than {limits.MAX_FORM_DEPTH} deep "
            "were not drawn"
        )
    layout = device.get_result()
    dropped = device.dropped_chars
    if dropped:
        cuts.append(
            f"{dropped} character(s) drawn at positions or sizes out of range (not finite, or "
            f"beyond ±{limits.MAX_COORDINATE:.0e} pt) were left out"
        )
    page._layout = layout  # -- pdfplumber's cache of `Page.layout`, read by `Page.objects` --
    return PageLayout(tuple(cuts))


def _document_exhausted(budget: DocumentBudget, reason: str) -> Exception:
    if reason == "tokens":
        return budget.refuse(
            f"its pages hold more than {budget.max_tokens:,} content tokens to parse",
            "parsed tokens",
        )
    return budget.refuse(f"its pages draw more than {budget.max_glyphs:,} glyphs", "glyphs")


def _describe_cut(reason: str, meter: PageMeter) -> str:
    if reason == "tokens":
        return (
            f"stopped after {meter.token_limit:,} content tokens (operators and operands; forms,"
            " paths and glyphs drawn counted as several)"
        )
    if reason == "glyphs":
        return f"stopped after {meter.glyph_limit:,} glyphs"
    if reason == "streams":
        return f"stopped after {limits.MAX_PAGE_STREAMS:,} content streams (forms included)"
    if reason == "token":
        return f"stopped at a token longer than {limits.MAX_TOKEN_BYTES:,} bytes"
    if reason == "open":
        return (
            "stopped at arrays or dictionaries left open with more than "
            f"{limits.MAX_OPEN_ITEMS:,} items"
        )
    return f"stopped at an inline image larger than {limits.MAX_INLINE_IMAGE_BYTES:,} bytes"


# -- the interpreter ----------------------------------------------------------------------------


class _ContentParser(PDFContentParser):
    """pdfminer's content parser, bounding open arrays and long tokens and gathering inline
    images linearly. (The interpreter counts the objects it returns.)"""

    def __init__(self, streams: Sequence[object], meter: PageMeter) -> None:
        self._meter = meter
        super().__init__(streams)

    def fillfp(self) -> bool:
        if not self.fp and self.istream < len(self.streams):  # -- a stream is opened --
            meter = self._meter
            meter.tokens -= limits.STREAM_TOKENS
            if meter.tokens < 0:
                raise PageCut("tokens")
        return PDFContentParser.fillfp(self)

    def fillbuf(self) -> bool:
        if self.charpos < len(self.buf):
            return False  # -- pdfminer's own first step: no refill, nothing to check --
        meter = self._meter
        size = len(self._curtoken)
        if size:  # -- see `_pdfminer_bounds.charge_long_token` --
            if size > limits.MAX_TOKEN_BYTES:
                raise PageCut("token")
            meter.tokens -= size >> 14
        if self.context:  # -- arrays or dictionaries still open: their items count already --
            pending = len(self.curstack) + sum(len(stack) for _, _, stack in self.context)
            if pending + len(self.context) > meter.tokens:
                raise PageCut("tokens")
            if pending + len(self.context) > limits.MAX_OPEN_ITEMS:
                raise PageCut("open")
        return PDFContentParser.fillbuf(self)

    def get_inline_data(self, pos: int, target: bytes = b"EI") -> tuple[int, bytes]:
        """pdfminer's scan for the end of inline image data (`target` then a space), bounded."""
        meter = self._meter
        self.seek(pos)
        i = 0
        data = bytearray()
        while i <= len(target):
            self.fillbuf()
            if i:
                c = self.buf[self.charpos : self.charpos + 1]
                data += c
                self.charpos += 1
                meter.tokens -= 1
                if meter.tokens < 0:
                    raise PageCut("tokens")
                if (len(target) <= i and c.isspace()) or (i < len(target) and c[0] == target[i]):
                    i += 1
                else:
                    i = 0
            else:
                j = self.buf.find(target[0], self.charpos)
                if j >= 0:
                    data += self.buf[self.charpos : j + 1]
                    self.charpos = j + 1
                    i = 1
                else:
                    data += self.buf[self.charpos :]
                    self.charpos = len(self.buf)
            if len(data) > limits.MAX_INLINE_IMAGE_BYTES:
                raise PageCut("inline image")
        found = bytes(data[: -(len(target) + 1)])
        return (pos, _EOL_AT_END.sub(b"", found))


class _Interpreter(PDFPageInterpreter):
    """pdfminer's page interpreter with `execute` counted and its operands clamped."""

    def __init__(self, rsrcmgr: Any, device: Any, meter: PageMeter, depth: int) -> None:
        super().__init__(rsrcmgr, device)
        self._meter = meter
        self._depth = depth

    def dup(self) -> _Interpreter:
        # -- called by `subinterp` to draw a form XObject: one level deeper --
        return _Interpreter(self.rsrcmgr, self.device, self._meter, self._depth + 1)

    def init_state(self, ctm: Any) -> None:
        super().init_state(ctm)
        self.gstack: Any = deque(maxlen=_SAVED_STATES)

    def execute(self, streams: Sequence[object]) -> None:
        """pdfminer's `execute` (circular forms refused, each keyword dispatched to its `do_`
        method with its operands), counted and clamped; see the module docstring."""
        meter = self._meter
        if self._depth > limits.MAX_FORM_DEPTH:
            meter.deep_forms += 1
            return
        cut = len(streams) > meter.streams
        if cut:  # -- the streams within the bound are run, then the page stops --
            streams = streams[: max(meter.streams, 0)]
        meter.streams -= len(streams)
        valid_streams: list[Any] = []
        self.stream_ids.clear()
        for ref in streams:
            stream = stream_value(ref)
            if stream.objid is None or stream.objid in self.parent_stream_ids:
                continue
            valid_streams.append(stream)
            self.stream_ids.add(stream.objid)
        self._run(valid_streams)
        if cut:
            raise PageCut("streams")

    def _run(self, streams: list[Any]) -> None:
        try:
            parser = _ContentParser(streams, self._meter)
        except PSEOF:
            return
        meter = self._meter
        obj: Any
        while True:
            try:
                (_, obj) = parser.nextobject()
            except PSEOF:
                break
            meter.tokens -= 1
            if meter.tokens < 0:
                raise PageCut("tokens")
            if isinstance(obj, PSKeyword):
                name = keyword_name(obj)
                method = "do_{}".format(
                    name.replace("*", "_a").replace('"', "_w").replace("'", "_q")
                )
                if hasattr(self, method):
                    func = getattr(self, method)
                    nargs = func.__code__.co_argcount - 1
                    if nargs:
                        args = self.pop(nargs)
                        if len(args) == nargs:
                            func(*args)
                    else:
                        func()
                elif settings.STRICT:
                    raise PDFInterpreterError(f"Unknown operator: {name!r}")
            else:
                kind = type(obj)
                if kind is int:
                    if not -_MAX_INT <= obj <= _MAX_INT:
                        obj = _MAX_INT if obj > 0 else -_MAX_INT
                elif kind is float:
                    if not -_MAX_REAL <= obj <= _MAX_REAL:
                        obj = _MAX_REAL if obj > 0 else -_MAX_REAL
                elif kind is list:
                    obj = _clamped_list(obj, meter)
                elif kind is dict:
                    meter.tokens -= 2 * len(obj)
                argstack = self.argstack
                argstack.append(obj)
                if len(argstack) > 2 * _PENDING_OPERANDS:
                    del argstack[:-_PENDING_OPERANDS]


def _clamped_list(values: list[Any], meter: PageMeter) -> list[Any]:
    """`values` (an array operand) counted as tokens, its numbers clamped (a new list only when
    one is out of range)."""
    meter.tokens -= len(values)
    for value in values:
        kind = type(value)
        if kind is list:
            values = [_clamped_list(v, meter) if type(v) is list else v for v in values]
            break
        if (kind is int and not -_MAX_INT <= value <= _MAX_INT) or (
            kind is float and not -_MAX_REAL <= value <= _MAX_REAL
        ):
            values = [_clamped(v) for v in values]
            break
    return values


def _clamped(value: Any) -> Any:
    kind = type(value)
    if kind is int and not -_MAX_INT <= value <= _MAX_INT:
        return _MAX_INT if value > 0 else -_MAX_INT
    if kind is float and not -_MAX_REAL <= value <= _MAX_REAL:
        return _MAX_REAL if value > 0 else -_MAX_REAL
    if kind is list:
        return [_clamped(v) for v in value]
    return value


# -- the device ---------------------------------------------------------------------------------


class _Device(PDFPageAggregatorWithMarkedContent):
    """pdfplumber's layout device, counting glyphs and leaving out objects out of range."""

    def __init__(self, rsrcmgr: Any, meter: PageMeter, **kwargs: Any) -> None:
        super().__init__(rsrcmgr, **kwargs)
        self._meter = meter
        self.dropped_chars = 0

    def render_char(self, *args: Any, **kwargs: Any) -> float:
        # -- pdfplumber's `render_char` (pdfminer's, then `tag_cur_item`), counted and checked --
        meter = self._meter
        meter.glyphs -= 1
        if meter.glyphs < 0:
            raise PageCut("glyphs")
        meter.tokens -= limits.GLYPH_TOKENS
        if meter.tokens < 0:
            raise PageCut("tokens")
        adv: float = PDFLayoutAnalyzer.render_char(self, *args, **kwargs)
        objs = self.cur_item._objs
        char: Any = objs[-1]
        if (
            char.x0 >= -_LIMIT
            and char.x1 <= _LIMIT
            and char.y0 >= -_LIMIT
            and char.y1 <= _LIMIT  # -- each false for NaN --
            and -_LIMIT <= char.matrix[5] <= _LIMIT  # -- the baseline partita sorts by --
        ):
            self.tag_cur_item()
        else:
            objs.pop()
            self.dropped_chars += 1
        return adv

    def paint_path(self, *args: Any, **kwargs: Any) -> None:
        kept = self._render_in_range(super().paint_path, *args, **kwargs)
        if kept is not None:
            meter = self._meter  # -- a line, rectangle or curve costs as `PATH_TOKENS` tokens --
            meter.tokens -= limits.PATH_TOKENS * kept
            if meter.tokens < 0:
                raise PageCut("tokens")

    def render_image(self, *args: Any, **kwargs: Any) -> None:
        self._render_in_range(super().render_image, *args, **kwargs)

    def _render_in_range(
        self, render: Callable[..., object], *args: Any, **kwargs: Any
    ) -> int | None:
        """Call `render`, then leave out the layout objects it added that lie out of range;
        return how many it added that were kept, or None when it added none."""
        objs = self.cur_item._objs
        count = len(objs)
        render(*args, **kwargs)
        if len(objs) <= count:
            return None
        objs[count:] = [item for item in objs[count:] if _in_range(item)]
        return len(objs) - count


_LIMIT = limits.MAX_COORDINATE


def _in_range(item: Any) -> bool:
    return bool(
        item.x0 >= -_LIMIT and item.x1 <= _LIMIT and item.y0 >= -_LIMIT and item.y1 <= _LIMIT
    )
