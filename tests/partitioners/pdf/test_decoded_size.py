"""Measuring decoded sizes (`pdfium.decoded_size`): the size every filter chain really decodes
to, where the data ends, and a stop just past the bound."""

from __future__ import annotations

import binascii
import zlib

from hypothesis import given
from hypothesis import strategies as st
from pdfminer.lzw import lzwdecode
from pdfminer.runlength import rldecode

from partita.partitioners.pdf.pdfium._decoded_size import decoded_size, jpeg_size
from tests.partitioners.pdf.test_preflight import _lzw_zeros
from tests.robustness.pdf_parts import jpeg


def _runlength(data: bytes) -> bytes:
    """RunLength-encode `data` (literal runs of at most 128 bytes), then the end mark."""
    out = bytearray()
    for start in range(0, len(data), 128):
        piece = data[start : start + 128]
        out += bytes([len(piece) - 1]) + piece
    return bytes(out + b"\x80")


@given(st.binary(max_size=5000), st.lists(st.sampled_from(["Fl", "RL", "AHx"]), max_size=3))
def test_every_chain_measures_what_it_decodes_to(data: bytes, chain: list[str]) -> None:
    encoded = data
    for name in reversed(chain):  # -- the first filter is undone first: applied last --
        if name == "Fl":
            encoded = zlib.compress(encoded)
        elif name == "RL":
            encoded = _runlength(encoded)
        else:
            encoded = binascii.hexlify(encoded) + b">"
    if "AHx" in chain[1:] or not chain:
        return  # -- a text filter after another is not measured (inline images never are) --
    measured = decoded_size(encoded + b" trailing EI", chain, 1 << 20)
    assert measured is not None
    assert measured.size == len(data)
    assert not measured.over
    if chain and chain[0] != "AHx":
        assert measured.consumed == len(encoded)  # -- where the data ends, not the trailer --


def test_lzw_measures_as_pdfminer_decodes() -> None:
    data = _lzw_zeros(2)
    measured = decoded_size(data, ["LZW"], 64 << 20)
    assert measured is not None
    assert measured.size == len(lzwdecode(data)) >= 2 << 20
    assert measured.consumed == len(data)
    assert rldecode(b"\x81\x00\x80") == b"\x00" * 128


def test_a_bomb_stops_just_past_the_bound() -> None:
    bomb = zlib.compress(bytes(256 << 20), 9)  # -- 256 MiB of zeros in 250 KB --
    measured = decoded_size(bomb, ["FlateDecode", "FlateDecode"][:1], 1 << 20)
    assert measured is not None
    assert measured.over
    assert (1 << 20) < measured.size <= (3 << 20)
    twice = zlib.compress(bomb, 9)
    again = decoded_size(twice, ["Fl", "Fl"], 1 << 20)
    assert again is not None
    assert again.over


def test_pixel_filters_and_unknown_ones_are_not_measured_as_bytes() -> None:
    assert decoded_size(b"xx", ["DCT"], 10) is None
    assert decoded_size(b"xx", ["JBIG2Decode"], 10) is None


def test_the_jpeg_frame_header_gives_the_claimed_size() -> None:
    assert jpeg_size(jpeg(65_000, 1_234)) == (65_000, 1_234, 1)
    assert jpeg_size(b"not a jpeg") is None
