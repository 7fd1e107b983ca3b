"""Bounds inside pdfminer: the few pdfminer methods partita replaces, and why.

pdfminer.six (pinned to 20260107) trusts the file: `PDFStream.decode` inflates a stream whole
(a 1.5 MB flate bomb asks for 1.5 GB), `PDFObjRef.resolve` and `resolve1` follow a reference to
a reference forever when it points at itself, and its parsers and CMap readers do whatever the
decoded data asks (one `bfrange` line maps four billion codes). These are reached from
everywhere in pdfminer and pdfplumber, so they cannot be bounded from outside; `install`
replaces them once, at import:

- `PDFStream.decode` (`_pdfminer_streams.decode`): the same filters, predictors and corruption
  handling, with every filter's output bounded (`DocumentBudget.charge_stream`) while it is
  produced; `CCITTFaxDecode`, an image-only filter, is passed through like `DCTDecode` (partita
  never reads image data); PNG predictor columns are clamped to what the data can hold (the
  same output); the work of the filters and predictors pdfminer runs in Python, byte by byte
  or code by code, is counted as tokens (LZW: one per code; predictors: one per 16 bytes);
  ASCII85's `<~` and `~>` are stripped in linear time (pdfminer's regular expressions backtrack
  quadratically over whitespace: 40 KB of spaces took 7 s).
- `PDFDocument.read_xref_from`, which reads a cross-reference section and, recursively, the
  ones its trailer's `/Prev` and `/XRefStm` name: each section is read once (a `/Prev` naming
  its own section read the whole table again and again), at most `MAX_XREF_SECTIONS`.
- `PDFObjRef.resolve`: follows a chain of references to its end (resolve1 gets the same value
  in one call), counts each reference followed (`charge_resolution`), resolves a cycle to
  `default` (null, as a missing object), refuses a chain longer than `MAX_REFERENCE_CHAIN`.
- `nexttoken` of `PDFStreamParser` (object streams), `CMapParser` and `Type1FontHeaderParser`:
  counts tokens parsed from decoded data (`charge_tokens`); the page interpreter counts its own.
- `nextobject` and `nexttoken` of `PDFParser` and `PDFStreamParser` (an object read from the
  file, or from an object stream): one object of more than `MAX_OBJECT_TOKENS` tokens refuses
  the document. The file's own objects are not counted in the document's token budget
  (pdfminer parses each once, at most a token or so per byte of the file, below the budget's
  `TOKENS_PER_BYTE`), and an object stream's grows with the file's size; either way one object
  could cost seconds when the document is opened, before any page bound applies (a page
  dictionary holding 200,000 inline link annotations: 9 s written in the file, 10 s in a 1.6 MB
  object stream).
- `FileCMap.add_code2cid` and `FileUnicodeMap.add_cid2unichr`: count mapped codes
  (`charge_cmap_entry`); `TrueTypeFont.create_unicode_map` (an embedded TrueType font's own
  cmap, read when a CID font has no ToUnicode): the same, with each code its subtables map
  counted as it is read (one format-12 group can span four billion codes).
- `get_widths` and `get_widths2` of `pdfminer.pdffont` (a CID font's `/W` and `/W2`): a range
  `c_first c_last w` is clamped to the CIDs PDF allows (0 to 65,535), one of four billion
  otherwise filling a dictionary entry by entry.
- `PSBaseParser.fillbuf`, `_parse_string` and `_parse_string_1`, pdfminer's lexer: a token
  being read grows by concatenating bytes, once per buffer and once per escape in a string,
  which is quadratic (a 2 MB string of escapes takes 17 s, 4 MB two minutes). From its first
  escape a literal string is gathered in a `bytearray` (each escape counted as a token) and
  added as bytes, the same token in linear time; `_parse_string` differs from pdfminer's only
  in that last conversion, which no bytes token meets. At each buffer refill in
  the middle of a token, a token longer than `MAX_TOKEN_BYTES` is refused and the copying it
  costs is counted as tokens (one per 16 KiB copied).

Each replacement looks up `_limits.ACTIVE` first and, when no partita document is being read
(it is None), calls pdfminer's own method unchanged: other users of pdfminer in the process see
no difference.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterable
from typing import Any, cast

from pdfminer import pdffont
from pdfminer.cmapdb import CMapParser, FileCMap, FileUnicodeMap
from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdffont import TrueTypeFont, Type1FontHeaderParser
from pdfminer.pdfparser import PDFParser, PDFStreamParser
from pdfminer.pdftypes import PDFObjRef, PDFStream, resolve1
from pdfminer.psparser import END_STRING, PSBaseParser

from partita.partitioners.pdf import _limits as limits
from partita.partitioners.pdf import _pdfminer_streams
from partita.partitioners.pdf._limits import ACTIVE, DocumentBudget

__all__ = ["MAX_OBJECT_TOKENS", "install"]

MAX_OBJECT_TOKENS = 300_000
"""Tokens of one object read from the file or from an object stream (a page dictionary with its
inline annotations, an array...), a stream's data aside; beyond it the document is refused. The
corpus's largest object has 3,456 tokens (chelsea_pdta.pdf: 1.2% of the bound; a flat page
tree of 100,000 pages has 300,000); pdfminer's parser takes 2.5 to 10 µs a token by the host,
so one object costs at most about 3 s, what one page's content may (`MAX_PAGE_TOKENS`); at
600,000, a refused object cost 6 s of CPU on a host at half speed. A page's dictionary is
parsed when the document is opened, before any page bound applies: one holding 200,000 inline
link annotations (4 million tokens) cost 9 s of CPU and 185 MB there (400 MB with PDFium's own
copy) written in a 19 MB file, 10 s in a 1.6 MB object stream. Above the document token budget
of a small file (`MAX_DOCUMENT_TOKENS` plus `TOKENS_PER_BYTE` per byte), which an object stream
meets first."""


_ORIGINAL_RESOLVE = PDFObjRef.resolve
_ORIGINAL_READ_XREF_FROM = PDFDocument.read_xref_from
_ORIGINAL_ADD_CODE2CID = FileCMap.add_code2cid
_ORIGINAL_ADD_CID2UNICHR = FileUnicodeMap.add_cid2unichr
_ORIGINAL_CREATE_UNICODE_MAP = TrueTypeFont.create_unicode_map
_ORIGINAL_GET_WIDTHS = pdffont.get_widths
_ORIGINAL_GET_WIDTHS2 = pdffont.get_widths2
_MAX_CID = 65_535
_ORIGINAL_FILLBUF = PSBaseParser.fillbuf
_ORIGINAL_PARSE_STRING_1 = PSBaseParser._parse_string_1
_TOKEN_PARSERS = (CMapParser, Type1FontHeaderParser)
_ORIGINAL_NEXTTOKEN = {cls: cls.nexttoken for cls in _TOKEN_PARSERS}
_ORIGINAL_OBJECT_NEXTTOKEN = PDFParser.nexttoken  # -- `PDFStreamParser`'s too --
_ORIGINAL_NEXTOBJECT = PDFParser.nextobject
_TOKENS_LEFT = "_partita_object_tokens_left"
"""The key, in a parser's `__dict__`, of the tokens the object it is parsing may still take
(absent or None outside `nextobject`)."""
_OBJECT_START = "_partita_object_start"
_installed = False


def install() -> None:
    """Replace the pdfminer methods listed in the module docstring (once)."""
    global _installed
    if _installed:
        return
    replacements: list[tuple[type, str, Callable[..., Any]]] = [
        (PDFStream, "decode", _pdfminer_streams.decode),
        (PDFObjRef, "resolve", _resolve),
        (PDFDocument, "read_xref_from", _read_xref_from),
        (FileCMap, "add_code2cid", _add_code2cid),
        (FileUnicodeMap, "add_cid2unichr", _add_cid2unichr),
        (PSBaseParser, "fillbuf", _fillbuf),
        (PSBaseParser, "_parse_string", _parse_string),
        (PSBaseParser, "_parse_string_1", _parse_string_1),
        (TrueTypeFont, "create_unicode_map", _create_unicode_map),
    ]
    replacements += [
        (cls, "nexttoken", _counting_nexttoken(_ORIGINAL_NEXTTOKEN[cls])) for cls in _TOKEN_PARSERS
    ]
    replacements += [
        (PDFParser, "nexttoken", _object_nexttoken(charged=False)),
        (PDFStreamParser, "nexttoken", _object_nexttoken(charged=True)),
        (PDFParser, "nextobject", _nextobject),  # -- inherited by `PDFStreamParser` --
    ]
    for cls, name, replacement in replacements:
        setattr(cls, name, replacement)
    pdffont.get_widths = _get_widths  # -- looked up by name in pdffont at each call --
    pdffont.get_widths2 = _get_widths2
    _installed = True


# -- references -----------------------------------------------------------------------------------


def _resolve(self: PDFObjRef, default: object = None) -> Any:
    budget = ACTIVE.get()
    if budget is None:
        return _ORIGINAL_RESOLVE(self, default)
    budget.charge_resolution()
    obj = _ORIGINAL_RESOLVE(self, default)
    if not isinstance(obj, PDFObjRef):
        return obj  # -- the usual case: a reference to an object that is not a reference --
    seen = {self.objid}
    while isinstance(obj, PDFObjRef):
        if obj.objid in seen:
            return default  # -- a cycle: no object at its end, read as a missing one --
        if len(seen) >= limits.MAX_REFERENCE_CHAIN:
            raise budget.refuse(
                f"object {self.objid} starts a chain of more than "
                f"{limits.MAX_REFERENCE_CHAIN} references",
                "reference chain",
            )
        seen.add(obj.objid)
        budget.charge_resolution()
        obj = _ORIGINAL_RESOLVE(obj, default)
    return obj


def _read_xref_from(self: PDFDocument, parser: Any, start: int, xrefs: list[Any]) -> None:
    budget = ACTIVE.get()
    if budget is None:
        _ORIGINAL_READ_XREF_FROM(self, parser, start, xrefs)
        return
    starts: set[int] = self.__dict__.setdefault("_partita_xref_starts", set())
    if start in starts:
        return  # -- a section named again: read once --
    starts.add(start)
    if len(starts) > limits.MAX_XREF_SECTIONS:
        raise budget.refuse(
            f"it has more than {limits.MAX_XREF_SECTIONS} cross-reference sections",
            "cross-reference sections",
        )
    _ORIGINAL_READ_XREF_FROM(self, parser, start, xrefs)


# -- tokens and CMap entries -----------------------------------------------------------------------


def _counting_nexttoken(original: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def nexttoken(self: Any) -> Any:
        budget = ACTIVE.get()
        if budget is not None:
            budget.tokens += 1  # -- `charge_tokens(1)`, inline: this runs for every token --
            if budget.tokens > budget.max_tokens:
                budget.charge_tokens(0)
        return original(self)

    return nexttoken


def _object_nexttoken(*, charged: bool) -> Callable[[Any], Any]:
    """`nexttoken` of a `PDFParser`, counting each token against the allowance of the object
    being parsed (`_nextobject`) and, when `charged` (decoded data: an object stream's), against
    the document's token budget first."""

    def nexttoken(self: PDFParser) -> Any:
        budget = ACTIVE.get()
        if budget is not None:
            if charged:
                budget.tokens += 1
                if budget.tokens > budget.max_tokens:
                    budget.charge_tokens(0)
            state = self.__dict__
            left = state.get(_TOKENS_LEFT)
            if left is not None:
                if left <= 0:
                    raise _object_refused(self, budget)
                state[_TOKENS_LEFT] = left - 1
        return _ORIGINAL_OBJECT_NEXTTOKEN(self)

    return nexttoken


def _nextobject(self: PDFParser) -> Any:
    if ACTIVE.get() is None:
        return _ORIGINAL_NEXTOBJECT(self)
    # -- an object parsed while another is (its stream's /Length, resolved on the same parser)
    # -- has its own allowance; the outer one resumes with what it had left --
    state = self.__dict__
    outer = state.get(_TOKENS_LEFT), state.get(_OBJECT_START)
    state[_TOKENS_LEFT] = MAX_OBJECT_TOKENS
    state[_OBJECT_START] = self.bufpos + self.charpos
    try:
        return _ORIGINAL_NEXTOBJECT(self)
    finally:
        state[_TOKENS_LEFT], state[_OBJECT_START] = outer


def _object_refused(parser: PDFParser, budget: DocumentBudget) -> Exception:
    where = (
        "an object in one of its object streams"
        if isinstance(parser, PDFStreamParser)
        else f"its object at byte {parser.__dict__.get(_OBJECT_START) or 0:,}"
    )
    return budget.refuse(
        f"{where} holds more than {MAX_OBJECT_TOKENS:,} tokens to parse", "object tokens"
    )


def _add_code2cid(self: FileCMap, code: str, cid: int) -> None:
    budget = ACTIVE.get()
    if budget is not None:
        budget.charge_cmap_entry()
    _ORIGINAL_ADD_CODE2CID(self, code, cid)


def _add_cid2unichr(self: FileUnicodeMap, cid: int, code: Any) -> None:
    budget = ACTIVE.get()
    if budget is not None:
        budget.charge_cmap_entry()
    _ORIGINAL_ADD_CID2UNICHR(self, cid, code)


def _create_unicode_map(self: TrueTypeFont) -> FileUnicodeMap:
    budget = ACTIVE.get()
    if budget is None:
        return _ORIGINAL_CREATE_UNICODE_MAP(self)
    # -- pdfminer's, with `char2gid` counting its entries as the subtables' loops fill it --
    if b"cmap" not in self.tables:
        raise TrueTypeFont.CMapNotFound
    (base_offset, _length) = self.tables[b"cmap"]
    fp = self.fp
    fp.seek(base_offset)
    (_version, nsubtables) = struct.unpack(">HH", fp.read(4))
    subtables = [struct.unpack(">HHL", fp.read(8)) for _ in range(nsubtables)]
    char2gid = _CountingDict(budget)
    parsers = {
        0: self.parse_cmap_format_0,
        2: self.parse_cmap_format_2,
        4: self.parse_cmap_format_4,
        6: self.parse_cmap_format_6,
        10: self.parse_cmap_format_10,
        12: self.parse_cmap_format_12,
    }
    for platform_id, encoding_id, st_offset in subtables:
        if not (platform_id == 0 or (platform_id == 3 and encoding_id in [1, 10])):
            continue
        fp.seek(base_offset + st_offset)
        (fmttype,) = struct.unpack(">H", fp.read(2))
        parser = parsers.get(fmttype)
        if parser is None:
            raise AssertionError(str(("Unhandled", fmttype)))
        budget.charge_cmap_entry()  # -- format 0 fills its 256 codes with `update` --
        parser(fp, char2gid)
    if not char2gid:
        raise TrueTypeFont.CMapNotFound
    unicode_map = FileUnicodeMap()
    for char, gid in char2gid.items():
        unicode_map.add_cid2unichr(gid, char)
    return unicode_map


class _CountingDict(dict[int, int]):
    """A dictionary charging each item set to a document's CMap entries."""

    def __init__(self, budget: DocumentBudget) -> None:
        super().__init__()
        self._budget = budget

    def __setitem__(self, key: int, value: int) -> None:
        self._budget.charge_cmap_entry()
        super().__setitem__(key, value)


def _get_widths(seq: Iterable[object]) -> dict[str | int, float]:
    if ACTIVE.get() is None:
        return _ORIGINAL_GET_WIDTHS(seq)
    return _ORIGINAL_GET_WIDTHS(_clamped_ranges(seq, 3, resolve=True))


def _get_widths2(seq: Iterable[object]) -> dict[int, tuple[float, Any]]:
    if ACTIVE.get() is None:
        return _ORIGINAL_GET_WIDTHS2(seq)
    return _ORIGINAL_GET_WIDTHS2(_clamped_ranges(seq, 5, resolve=False))


def _clamped_ranges(seq: Iterable[object], group: int, *, resolve: bool) -> list[object]:
    """`seq` (a `/W` or `/W2` array) with the first and last CID of each range (a run of
    `group` numbers: first, last, width...) clamped to 0..65,535, read as `get_widths`
    (which resolves each item) or `get_widths2` (which does not) reads it."""
    out: list[object] = []
    run: list[int] = []  # -- positions in `out` of the numbers read since the last array --
    for value in seq:
        if resolve:
            value = resolve1(value)
        out.append(value)
        if isinstance(value, list):
            run = []
        elif isinstance(value, int | float):
            run.append(len(out) - 1)
            if len(run) == group:
                first, last = run[0], run[1]
                if isinstance(out[first], int) and isinstance(out[last], int):
                    out[first] = min(max(cast(int, out[first]), 0), _MAX_CID + 1)
                    out[last] = min(max(cast(int, out[last]), -1), _MAX_CID)
                run = []
    return out


# -- the lexer ----------------------------------------------------------------------------------


def _fillbuf(self: PSBaseParser) -> bool:
    if self.charpos < len(self.buf):
        return False  # -- pdfminer's own first step: no refill, nothing to check --
    budget = ACTIVE.get()
    if budget is not None and self._curtoken:
        charge_long_token(budget, len(self._curtoken))
    return _ORIGINAL_FILLBUF(self)


def charge_long_token(budget: DocumentBudget, size: int) -> None:
    """Count the copying a token of `size` bytes, still growing, costs at a buffer refill;
    refuse it beyond `MAX_TOKEN_BYTES`."""
    if size > limits.MAX_TOKEN_BYTES:
        raise budget.refuse(
            f"it holds a token longer than {limits.MAX_TOKEN_BYTES:,} bytes", "token size"
        )
    budget.charge_tokens(size >> 14)


def _parse_string(self: PSBaseParser, s: bytes, i: int) -> int:
    # -- pdfminer's, except that a token gathered in a bytearray (see `_parse_string_1`) is
    # added as bytes: for a bytes token, exactly pdfminer's steps --
    m = END_STRING.search(s, i)
    if not m:
        self._curtoken += s[i:]
        return len(s)
    j = m.start(0)
    self._curtoken += s[i:j]
    c = s[j : j + 1]
    if c == b"\\":
        self.oct = b""
        self._parse1 = self._parse_string_1
        return j + 1
    if c == b"(":
        self.paren += 1
        self._curtoken += c
        return j + 1
    if c == b")":
        self.paren -= 1
        if self.paren:
            self._curtoken += c
            return j + 1
    token: Any = self._curtoken
    self._add_token(bytes(token) if type(token) is bytearray else token)
    self._parse1 = self._parse_main
    return j + 1


def _parse_string_1(self: PSBaseParser, s: bytes, i: int) -> int:
    budget = ACTIVE.get()
    if budget is not None:
        budget.tokens += 1  # -- an escape costs as a token --
        if budget.tokens > budget.max_tokens:
            budget.charge_tokens(0)
        parser: Any = self  # -- `_curtoken` is declared bytes; a bytearray stands in for it --
        if type(parser._curtoken) is bytes:  # -- from here the string grows in place --
            parser._curtoken = bytearray(parser._curtoken)
    return _ORIGINAL_PARSE_STRING_1(self, s, i)
