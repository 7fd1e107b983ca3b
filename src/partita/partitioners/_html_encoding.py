"""HTML bytes to text: a given encoding, a byte-order mark, a plausible declaration, detection.

A document's own declaration (`<meta charset>`, `<meta http-equiv="Content-Type">`, an XML
declaration) is a claim, not a fact. It is honoured only when all the evidence agrees:

- its label is one of the WHATWG Encoding Standard's labels, the only ones browsers honour.
  Python's codec registry is no guide: it also holds codecs that are no text encoding
  (`rot13`, `zlib`, `base64`, `hex`, `uu`, `undefined`) and encodings no browser reads
  (`cp037` and the other EBCDIC code pages, `unicode_escape`). An unknown label is ignored
  (the next declaration, then detection decides), as browsers ignore it;
- the bytes decode with it without error;
- the declaration itself, which is ASCII, reads back as the same ASCII when decoded with it;
- the bytes are not valid UTF-8 holding non-ASCII text while the declaration names another
  encoding: a stale declaration above UTF-8 content (a common authoring slip) would turn every
  accented letter into two wrong ones, and valid multi-byte UTF-8 sequences do not occur by
  chance in text of a legacy encoding.

Detection is UTF-8 when the bytes are UTF-8 (a few invalid bytes among many valid multi-byte
sequences are a damaged UTF-8 document: they become U+FFFD, the rest stays readable), else
Windows-1252, which decodes every byte.
"""

from __future__ import annotations

import codecs
import re

from partita.partitioners._source import decode_explicitly, decode_utf8_or_cp1252

__all__ = ["WHATWG_ENCODINGS", "decode_html", "encoding_for_label"]

_SNIFF_BYTES = 4096
_DECLARED_CHARSET = re.compile(
    rb"""<meta[^>]*?charset\s*=\s*["']?\s*([a-zA-Z0-9_.:-]+)"""
    rb"""|^\s*<\?xml[^>]*?encoding\s*=\s*["']([a-zA-Z0-9_.:-]+)""",
    re.IGNORECASE,
)

_LABELS = {
    "utf-8": "unicode-1-1-utf-8 unicode11utf8 unicode20utf8 utf-8 utf8 x-unicode20utf8",
    "cp866": "866 cp866 csibm866 ibm866",
    "iso8859-2": "csisolatin2 iso-8859-2 iso-ir-101 iso8859-2 iso88592 iso_8859-2 "
    "iso_8859-2:1987 l2 latin2",
    "iso8859-3": "csisolatin3 iso-8859-3 iso-ir-109 iso8859-3 iso88593 iso_8859-3 "
    "iso_8859-3:1988 l3 latin3",
    "iso8859-4": "csisolatin4 iso-8859-4 iso-ir-110 iso8859-4 iso88594 iso_8859-4 "
    "iso_8859-4:1988 l4 latin4",
    "iso8859-5": "csisolatincyrillic cyrillic iso-8859-5 iso-ir-144 iso8859-5 iso88595 "
    "iso_8859-5 iso_8859-5:1988",
    "iso8859-6": "arabic asmo-708 csiso88596e csiso88596i csisolatinarabic ecma-114 iso-8859-6 "
    "iso-8859-6-e iso-8859-6-i iso-ir-127 iso8859-6 iso88596 iso_8859-6 iso_8859-6:1987",
    "iso8859-7": "csisolatingreek ecma-118 elot_928 greek greek8 iso-8859-7 iso-ir-126 "
    "iso8859-7 iso88597 iso_8859-7 iso_8859-7:1987 sun_eu_greek",
    "iso8859-8": "csiso88598e csisolatinhebrew hebrew iso-8859-8 iso-8859-8-e iso-ir-138 "
    "iso8859-8 iso88598 iso_8859-8 iso_8859-8:1988 visual csiso88598i iso-8859-8-i logical",
    "iso8859-10": "csisolatin6 iso-8859-10 iso-ir-157 iso8859-10 iso885910 l6 latin6",
    "iso8859-13": "iso-8859-13 iso8859-13 iso885913",
    "iso8859-14": "iso-8859-14 iso8859-14 iso885914",
    "iso8859-15": "csisolatin9 iso-8859-15 iso8859-15 iso885915 iso_8859-15 l9",
    "iso8859-16": "iso-8859-16",
    "koi8-r": "cskoi8r koi koi8 koi8-r koi8_r",
    "koi8-u": "koi8-ru koi8-u",
    "mac-roman": "csmacintosh mac macintosh x-mac-roman",
    "mac-cyrillic": "x-mac-cyrillic x-mac-ukrainian",
    "cp874": "dos-874 iso-8859-11 iso8859-11 iso885911 tis-620 windows-874",
    "cp1250": "cp1250 windows-1250 x-cp1250",
    "cp1251": "cp1251 windows-1251 x-cp1251",
    # -- browsers read Latin-1 and ASCII as Windows-1252; a declared x-user-defined too --
    "cp1252": "ansi_x3.4-1968 ascii cp1252 cp819 csisolatin1 ibm819 iso-8859-1 iso-ir-100 "
    "iso8859-1 iso88591 iso_8859-1 iso_8859-1:1987 l1 latin1 us-ascii windows-1252 x-cp1252 "
    "x-user-defined",
    "cp1253": "cp1253 windows-1253 x-cp1253",
    "cp1254": "cp1254 csisolatin5 iso-8859-9 iso-ir-148 iso8859-9 iso88599 iso_8859-9 "
    "iso_8859-9:1989 l5 latin5 windows-1254 x-cp1254",
    "cp1255": "cp1255 windows-1255 x-cp1255",
    "cp1256": "cp1256 windows-1256 x-cp1256",
    "cp1257": "cp1257 windows-1257 x-cp1257",
    "cp1258": "cp1258 windows-1258 x-cp1258",
    # -- the WHATWG GBK decoder is the GB18030 decoder --
    "gb18030": "chinese csgb2312 csiso58gb231280 gb2312 gb_2312 gb_2312-80 gbk iso-ir-58 x-gbk "
    "gb18030",
    "big5hkscs": "big5 big5-hkscs cn-big5 csbig5 x-x-big5",
    "euc-jp": "cseucpkdfmtjapanese euc-jp x-euc-jp",
    "iso2022-jp": "csiso2022jp iso-2022-jp",
    "cp932": "csshiftjis ms932 ms_kanji shift-jis shift_jis sjis windows-31j x-sjis",
    "cp949": "cseuckr csksc56011987 euc-kr iso-ir-149 korean ks_c_5601-1987 ks_c_5601-1989 "
    "ksc5601 ksc_5601 windows-949",
    # -- a byte-oriented document that declares UTF-16 is read as UTF-8, as browsers do --
    "utf-16-be": "unicodefffe utf-16be",
    "utf-16-le": "csunicode iso-10646-ucs-2 ucs-2 unicode unicodefeff utf-16 utf-16le",
}
"""Python's codec for each WHATWG encoding, with the encoding's labels. The labels of the
"replacement" encoding (ISO-2022-KR, ISO-2022-CN, HZ), which browsers decode to one U+FFFD so
that nothing of the document survives, are not listed: partita ignores them and detects."""

WHATWG_ENCODINGS = {label: codec for codec, labels in _LABELS.items() for label in labels.split()}
"""Every WHATWG encoding label (lowercase) to the Python codec partita decodes it with."""


def encoding_for_label(label: str) -> str | None:
    """Return the Python codec for the WHATWG encoding `label` (case and surrounding whitespace
    ignored), or None when browsers would not honour the label."""
    return WHATWG_ENCODINGS.get(label.strip().lower())


def decode_html(data: str | bytes, encoding: str | None = None, name: str | None = None) -> str:
    """Return HTML `data` as text: with `encoding` when given, else by byte-order mark, else by a
    plausible declaration in the first 4 KiB, else by detection (see the module docstring).

    `encoding` may be any Python text encoding, or a WHATWG label Python does not know;
    `DocumentError` naming `name` is raised when it is unknown, no text encoding, or fails on the
    bytes.
    """
    if isinstance(data, str):
        return data
    if encoding:
        try:
            codecs.lookup(encoding)
        except LookupError:  # -- a WHATWG label Python does not know, such as "x-mac-roman" --
            encoding = encoding_for_label(encoding) or encoding
        return decode_explicitly(data, encoding, name)
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16", errors="replace")
    declared = _plausibly_declared(data)
    if declared is not None:
        return declared
    return decode_utf8_or_cp1252(data)


def _plausibly_declared(data: bytes) -> str | None:
    """Return `data` decoded by the first declaration in its head that browsers honour, when the
    evidence agrees with it (see the module docstring); else None."""
    head = data[:_SNIFF_BYTES]
    for match in _DECLARED_CHARSET.finditer(head):
        label = (match.group(1) or match.group(2)).decode("ascii")
        codec = encoding_for_label(label)
        if codec is None:
            continue
        if codec.startswith("utf-16"):
            codec = "utf-8"
        declaration = match.group()
        if not declaration.isascii():
            declaration = match.group(1) or match.group(2)
        try:
            if declaration.decode(codec) != declaration.decode("ascii"):
                return None
            text = data.decode(codec)
        except UnicodeDecodeError:
            return None
        if codec != "utf-8" and not text.isascii() and _is_utf8_with_non_ascii(data):
            return None
        return text
    return None


def _is_utf8_with_non_ascii(data: bytes) -> bool:
    if data.isascii():
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
