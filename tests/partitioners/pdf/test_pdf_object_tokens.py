"""One object parsed by pdfminer is bounded (`_pdfminer_bounds.MAX_OBJECT_TOKENS`): a page
dictionary holding 200,000 inline link annotations, written in the file or in an object stream,
is refused when the document is opened, after a bounded amount of work, by both backends; pages
with thousands of links are read."""

from __future__ import annotations

import io
import struct
import time
import zlib

import pytest

from partita.errors import DocumentLimitError
from partita.partitioners.pdf import _pdfminer_bounds, partition_pdf
from partita.partitioners.pdf._open import open_pdf
from tests.robustness.hostile_pdf import (
    FONT,
    catalog_and_pages,
    compressed_stream,
    pdf_file,
    stream,
    text_content,
)

_TEXT_LINK = b"https://example.com/text"
_CPU_RATIO = 4.0
"""CPU time the refusal of the 200,000-link file may take, as a multiple of the CPU time of
opening the same file with 10,000 links (under the bound, so read in full) in the same process:
the refusal stops at the bound, whatever the machine's speed. A fixed number of seconds failed
on a day the machine ran at half its speed. Measured on one 2-core machine, with the bound at
600,000 tokens and 20,000 links for the reference: refusal 5.8 s against 3.65 s (1.6x); with
the bound lifted the refusal's parse took 32.9 s (9.0x)."""


def _page_with_links(count: int) -> bytes:
    """A page dictionary holding `count` link annotations written inline (about 100 bytes and 20
    tokens each, each with its own URI), the first one over the page's text."""
    links = [
        b"<< /Type /Annot /Subtype /Link /Rect [70 716 200 734] /A << /S /URI /URI (%s) >> >>"
        % _TEXT_LINK
    ]
    links += [
        b"<< /Type /Annot /Subtype /Link /Rect [72 %d 200 %d] /A << /S /URI "
        b"/URI (https://example.com/%d) >> >>" % (100 + k % 400, 110 + k % 400, k)
        for k in range(1, count)
    ]
    return (
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R /Annots [%s] >>"
        % b"\n".join(links)
    )


def _inline_links_pdf(count: int) -> bytes:
    """A one-page PDF whose page (object 4) is `_page_with_links(count)`."""
    content = stream(text_content("A page with many links."))
    return pdf_file({**catalog_and_pages([4]), 3: FONT, 4: _page_with_links(count), 5: content})


def _object_stream_links_pdf(count: int) -> bytes:
    """`_inline_links_pdf(count)` with the page in an object stream (object 6), which a
    cross-reference stream (object 7) names."""
    head = b"4 0 "
    objects = {
        **catalog_and_pages([4]),
        3: FONT,
        5: stream(text_content("A page with many links.")),
        6: compressed_stream(
            zlib.compress(head + _page_with_links(count)), b"/Type /ObjStm /N 1 /First 4 "
        ),
    }
    out = io.BytesIO()
    out.write(b"%PDF-1.7\n")
    offsets: dict[int, int] = {}
    for number, body in sorted(objects.items()):
        offsets[number] = out.tell()
        out.write(b"%d 0 obj\n%s\nendobj\n" % (number, body))
    entries = b"".join(
        struct.pack(">BIH", 2, 6, 0)
        if number == 4
        else struct.pack(">BIH", 1, offsets[number], 0)
        if number in offsets
        else struct.pack(">BIH", 0, 0, 0)
        for number in range(7)
    )
    xref = out.tell()
    out.write(
        b"7 0 obj\n%s\nendobj\nstartxref\n%d\n%%%%EOF\n"
        % (stream(entries, b"/Type /XRef /Size 7 /W [1 4 2] /Root 1 0 R "), xref)
    )
    return out.getvalue()


@pytest.fixture(scope="module")
def flood() -> bytes:
    data = _inline_links_pdf(200_000)
    assert len(data) > 19_000_000
    return data


@pytest.mark.parametrize("backend", ["pdfium", "pdfplumber"])
def test_a_page_of_200000_inline_links_is_refused_naming_the_file_and_the_bound(
    flood: bytes, backend: str
) -> None:
    with pytest.raises(DocumentLimitError) as caught:
        partition_pdf(file=io.BytesIO(flood), metadata_filename="links.pdf", backend=backend)
    assert caught.value.limit == "object tokens"
    assert str(caught.value) == (
        "links.pdf: its object at byte 225 holds more than 300,000 tokens to parse"
    )


@pytest.fixture(scope="module")
def compressed_flood() -> bytes:
    data = _object_stream_links_pdf(200_000)
    assert len(data) < 2_000_000  # -- a document token budget of more than 4 million tokens --
    return data


@pytest.mark.parametrize("backend", ["pdfium", "pdfplumber"])
def test_the_same_page_in_an_object_stream_is_refused_too(
    compressed_flood: bytes, backend: str
) -> None:
    with pytest.raises(DocumentLimitError) as caught:
        partition_pdf(
            file=io.BytesIO(compressed_flood), metadata_filename="links.pdf", backend=backend
        )
    assert caught.value.limit == "object tokens"
    assert str(caught.value) == (
        "links.pdf: an object in one of its object streams holds more than 300,000 tokens to parse"
    )


def test_the_refusal_takes_a_bounded_cpu_time(flood: bytes) -> None:
    # -- in this process, where the document is opened (both backends open it so) --
    twentieth = _inline_links_pdf(10_000)
    started = time.process_time()
    open_pdf(io.BytesIO(twentieth), "links.pdf", size=len(twentieth)).pdf.close()
    reference = time.process_time() - started
    started = time.process_time()
    with pytest.raises(DocumentLimitError, match=r"^links\.pdf: its object at byte 225 "):
        open_pdf(io.BytesIO(flood), "links.pdf", size=len(flood))
    assert time.process_time() - started < _CPU_RATIO * reference


@pytest.mark.parametrize("backend", ["pdfium", "pdfplumber"])
def test_a_page_of_5000_inline_links_is_read_with_its_link(backend: str) -> None:
    data = _inline_links_pdf(5_000)  # -- 100,000 tokens, all read (`links.MAX_ANNOTATIONS`) --
    elements = partition_pdf(file=io.BytesIO(data), metadata_filename="links.pdf", backend=backend)
    assert [element.text for element in elements] == ["A page with many links."]
    links = elements[0].metadata.links or ()
    assert [(link.text, link.url) for link in links] == [
        ("A page with many links.", _TEXT_LINK.decode())
    ]


@pytest.mark.parametrize(("count", "refused"), [(40, False), (60, True)])
def test_the_bound_counts_the_tokens_of_one_object(
    monkeypatch: pytest.MonkeyPatch, count: int, refused: bool
) -> None:
    # -- about 20 tokens a link: 40 links fit in 1,000 tokens, 60 do not --
    monkeypatch.setattr(_pdfminer_bounds, "MAX_OBJECT_TOKENS", 1_000)
    data = _inline_links_pdf(count)
    if refused:
        with pytest.raises(DocumentLimitError, match="more than 1,000 tokens to parse"):
            open_pdf(io.BytesIO(data), "links.pdf", size=len(data))
    else:
        opened = open_pdf(io.BytesIO(data), "links.pdf", size=len(data))
        try:
            assert opened.page_count() == 1
        finally:
            opened.close()


def _indirect_length_pdf() -> bytes:
    """A one-page PDF whose content stream (object 5, with 60 more numbers in its dictionary)
    has its `/Length` in object 6."""
    content = text_content("Text of a stream with an indirect length.")
    numbers = b" ".join(b"%d" % k for k in range(60))
    objects = {
        **catalog_and_pages([4]),
        3: FONT,
        4: b"<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>",
        5: b"<< /Length 6 0 R /Extra [%s] >>\nstream\n%s\nendstream" % (numbers, content),
        6: b"%d" % len(content),
    }
    return pdf_file(objects)


@pytest.mark.parametrize(("bound", "refused"), [(75, False), (74, True)])
def test_an_object_parsed_inside_another_has_its_own_allowance(
    monkeypatch: pytest.MonkeyPatch, bound: int, refused: bool
) -> None:
    # -- pdfminer parses object 6 (the /Length) on the same parser while it parses object 5:
    # -- object 5 costs its 70 tokens up to `stream`, `endstream endobj`, and the `6 0 obj`
    # -- that starts object 6 (75); object 6's own two tokens count against its allowance --
    monkeypatch.setattr(_pdfminer_bounds, "MAX_OBJECT_TOKENS", bound)
    data = _indirect_length_pdf()
    start = data.index(b"\n5 0 obj") + len(b"\n5 0 obj")
    if refused:
        with pytest.raises(DocumentLimitError) as caught:
            _first_page_lines(data)
        assert str(caught.value) == (
            f"length.pdf: its object at byte {start} holds more than 74 tokens to parse"
        )
    else:
        assert _first_page_lines(data) == ["Text of a stream with an indirect length."]


def _first_page_lines(data: bytes) -> list[str]:
    """The text lines of the first page of `data`, opened and read with pdfminer."""
    opened = open_pdf(io.BytesIO(data), "length.pdf", size=len(data))
    try:
        return [line.text for line in opened.read_page(1).lines]
    finally:
        opened.close()
