"""WordprocessingML names: namespaces and the Clark-notation tags the partitioner compares against.

Tags are plain strings (`"{namespace}local"`), so a walk over an lxml tree compares `el.tag` with
a constant instead of calling XPath per element.
"""

from __future__ import annotations

from lxml import etree

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
MC_NS = "http://schemas.openxmlformats.org/markup-compatibility/2006"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
PKG_REL_NS = "http://schemas.openxmlformats.org/package/2006/relationships"

REL_OFFICE_DOCUMENT = (
    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
)
STRICT_REL_OFFICE_DOCUMENT = (
    "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"
)


def w(local: str) -> str:
    """Return the Clark name of the WordprocessingML element or attribute `local`."""
    return f"{{{W_NS}}}{local}"


W_VAL = w("val")
R_ID = f"{{{R_NS}}}id"

BODY = w("body")
P = w("p")
R = w("r")
T = w("t")
TBL = w("tbl")
TR = w("tr")
TC = w("tc")
SDT = w("sdt")
SDT_CONTENT = w("sdtContent")
CUSTOM_XML = w("customXml")
SMART_TAG = w("smartTag")
HYPERLINK = w("hyperlink")
FLD_SIMPLE = w("fldSimple")
FLD_CHAR = w("fldChar")
INSTR_TEXT = w("instrText")
DEL_INSTR_TEXT = w("delInstrText")
INS = w("ins")
DEL = w("del")
MOVE_TO = w("moveTo")
MOVE_FROM = w("moveFrom")
DIR = w("dir")
BDO = w("bdo")
TAB = w("tab")
BR = w("br")
CR = w("cr")
NO_BREAK_HYPHEN = w("noBreakHyphen")
SOFT_HYPHEN = w("softHyphen")
SYM = w("sym")
LAST_RENDERED_PAGE_BREAK = w("lastRenderedPageBreak")
FOOTNOTE_REFERENCE = w("footnoteReference")
ENDNOTE_REFERENCE = w("endnoteReference")
FOOTNOTE = w("footnote")
ENDNOTE = w("endnote")
DRAWING = w("drawing")
PICT = w("pict")
OBJECT = w("object")
TXBX_CONTENT = w("txbxContent")
RUBY = w("ruby")
RUBY_BASE = w("rubyBase")
PPR = w("pPr")
RPR = w("rPr")
TRPR = w("trPr")
TCPR = w("tcPr")
SECT_PR = w("sectPr")
ALT_CHUNK = w("altChunk")
ALTERNATE_CONTENT = f"{{{MC_NS}}}AlternateContent"
MC_CHOICE = f"{{{MC_NS}}}Choice"
MC_FALLBACK = f"{{{MC_NS}}}Fallback"
M_T = f"{{{M_NS}}}t"
M_OMATH = f"{{{M_NS}}}oMath"
M_OMATH_PARA = f"{{{M_NS}}}oMathPara"

BLOCK_WRAPPERS = frozenset((CUSTOM_XML, INS, MOVE_TO))
"""Elements whose block content (paragraphs, tables, rows, cells) is read as if they were not
there: custom XML, and content inserted or moved to with revisions tracked."""


def is_on(el: etree._Element | None) -> bool:
    """True when the toggle property element `el` (`w:b`, `w:tblHeader`, ...) is present and on.

    A toggle is on when it has no `w:val` or a value other than "0", "false", "off" or "none".
    """
    if el is None:
        return False
    value = el.get(W_VAL)
    return value is None or value.lower() not in ("0", "false", "off", "none")


def int_or_none(value: str | None) -> int | None:
    """Return `value` as an int, or None when it is missing or not an integer."""
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None
