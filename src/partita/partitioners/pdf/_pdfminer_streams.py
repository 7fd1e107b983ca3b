"""Stream decoding inside pdfminer, bounded: `decode` stands for `PDFStream.decode` while a
partita document is read (installed by `_pdfminer_bounds`, whose docstring says what it changes).

The same filters, predictors and corruption handling as pdfminer's, with every filter's output
bounded (`DocumentBudget.charge_stream`) while it is produced, the filters and predictors pdfminer
runs byte by byte or code by code counted as tokens, and image-only filters passed through.
"""

from __future__ import annotations

import zlib
from base64 import a85decode
from collections.abc import Iterable
from io import BytesIO
from typing import Any

from pdfminer import settings
from pdfminer.ascii85 import asciihexdecode
from pdfminer.lzw import LZWDecoder
from pdfminer.pdftypes import (
    LITERAL_CRYPT,
    LITERALS_ASCII85_DECODE,
    LITERALS_ASCIIHEX_DECODE,
    LITERALS_CCITTFAX_DECODE,
    LITERALS_DCT_DECODE,
    LITERALS_FLATE_DECODE,
    LITERALS_JBIG2_DECODE,
    LITERALS_JPX_DECODE,
    LITERALS_LZW_DECODE,
    LITERALS_RUNLENGTH_DECODE,
    PDFException,
    PDFNotImplementedError,
    PDFStream,
    int_value,
)
from pdfminer.utils import apply_png_predictor, apply_tiff_predictor

from partita.partitioners.pdf import _limits as limits
from partita.partitioners.pdf._limits import ACTIVE, DocumentBudget

__all__ = ["ORIGINAL_DECODE", "decode"]

ORIGINAL_DECODE = PDFStream.decode
"""pdfminer's own `PDFStream.decode`, run when no partita document is being read."""


def decode(self: PDFStream) -> None:
    """`PDFStream.decode` under the active document's bounds (pdfminer's own without one)."""
    budget = ACTIVE.get()
    if budget is None:
        ORIGINAL_DECODE(self)
        return
    assert self.data is None, str((self.data, self.rawdata))
    assert self.rawdata is not None, str((self.data, self.rawdata))
    data = self.rawdata
    if self.decipher:
        assert self.objid is not None
        assert self.genno is not None
        data = self.decipher(self.objid, self.genno, data, self.attrs)
    for f, params in self.get_filters():
        if f in LITERALS_FLATE_DECODE:
            data = _inflate(data, budget)
        elif f in LITERALS_LZW_DECODE:
            data = _joined(LZWDecoder(BytesIO(data)).run(), budget)
        elif f in LITERALS_ASCII85_DECODE:
            data = a85decode(_without_ascii85_marks(data))
        elif f in LITERALS_ASCIIHEX_DECODE:
            data = asciihexdecode(data)
        elif f in LITERALS_RUNLENGTH_DECODE:
            data = _run_length_decode(data, budget)
        elif (
            f in LITERALS_CCITTFAX_DECODE
            or f in LITERALS_DCT_DECODE
            or f in LITERALS_JBIG2_DECODE
            or f in LITERALS_JPX_DECODE
        ):
            pass  # -- image data: partita never reads it --
        elif f == LITERAL_CRYPT:
            raise PDFNotImplementedError("/Crypt filter is unsupported")
        else:
            raise PDFNotImplementedError(f"Unsupported filter: {f!r}")
        budget.charge_stream(len(data))
        if params and "Predictor" in params:
            budget.charge_tokens(len(data) >> 4)
            data = _unpredict(params, data)
    self.data = data
    self.rawdata = None


def _inflate(data: bytes, budget: DocumentBudget) -> bytes:
    """pdfminer's flate decoding (a corrupt stream keeps what decodes before an error in its
    last three bytes, the checksum, and is empty otherwise), refusing more than
    `MAX_STREAM_BYTES` of output before producing it."""
    inflater = zlib.decompressobj()
    out = bytearray()

    def feed(chunk: bytes) -> None:
        while chunk:
            out.extend(inflater.decompress(chunk, limits.MAX_STREAM_BYTES + 1 - len(out)))
            if len(out) > limits.MAX_STREAM_BYTES:
                budget.charge_stream(len(out))
            chunk = inflater.unconsumed_tail

    body, tail = data[:-3], data[-3:]
    try:
        feed(body)
    except zlib.error as exc:
        if settings.STRICT:
            raise PDFException(f"Invalid zlib bytes: {exc!r}") from exc
        return b""
    for byte in tail:  # -- one at a time: an error here keeps the output so far --
        try:
            feed(bytes((byte,)))
        except zlib.error as exc:
            if settings.STRICT:
                raise PDFException(f"Invalid zlib bytes: {exc!r}") from exc
            break
    return bytes(out)


def _joined(chunks: Iterable[bytes], budget: DocumentBudget) -> bytes:
    out = bytearray()
    for chunk in chunks:
        budget.charge_tokens(1)  # -- one LZW code --
        out.extend(chunk)
        if len(out) > limits.MAX_STREAM_BYTES:
            budget.charge_stream(len(out))
    return bytes(out)


def _without_ascii85_marks(data: bytes) -> bytes:
    """`data` without a leading `<~` (or `~`) and a trailing `~>` (or `~`) and the whitespace
    around them: pdfminer's `ascii85decode` substitutions, in linear time."""
    head = data.lstrip()
    if head[:1] == b"<":
        head = head[1:].lstrip()
    if head[:1] == b"~":
        data = head[1:].lstrip()
    tail = data.rstrip()
    if tail[-1:] == b">":
        tail = tail[:-1].rstrip()
    if tail[-1:] == b"~":
        data = tail[:-1].rstrip()
    return data


def _run_length_decode(data: bytes, budget: DocumentBudget) -> bytes:
    """pdfminer's RunLengthDecode (a length byte, then 1-128 literal bytes or one byte repeated
    2-128 times; 128 ends), ending quietly at truncated data, output bounded."""
    out = bytearray()
    i, end = 0, len(data)
    while i < end:
        length = data[i]
        if length == 128:
            break
        if length < 128:
            out.extend(data[i + 1 : i + 2 + length])
            i += 2 + length
        else:
            if i + 1 >= end:
                break
            out.extend(data[i + 1 : i + 2] * (257 - length))
            i += 2
        if len(out) > limits.MAX_STREAM_BYTES:
            budget.charge_stream(len(out))
    return bytes(out)


def _unpredict(params: dict[str, Any], data: bytes) -> bytes:
    pred = int_value(params["Predictor"])
    if pred == 1:
        return data
    colors = int_value(params.get("Colors", 1))
    columns = int_value(params.get("Columns", 1))
    bits = int_value(params.get("BitsPerComponent", 8))
    if pred == 2:
        return apply_tiff_predictor(colors, columns, bits, data)
    if pred >= 10:
        # -- a row wider than the data is one partial row whatever its width: the same output
        # without allocating a row of the declared width --
        columns = min(columns, 8 * len(data) + 8)
        return apply_png_predictor(pred, colors, columns, bits, data)
    raise PDFNotImplementedError(f"Unsupported predictor: {pred!r}")
