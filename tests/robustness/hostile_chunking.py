"""Hostile chunking inputs, built in code: elements JSON files that attack the chunker's bounds.

Each case is an elements JSON file (written with `partita.elements_to_json`) and the options to
chunk it with. They attack what an oversized element costs: splitting time in character and token
mode (megabytes of text, without spaces, Chinese without punctuation, whitespace runs, the
reference's token-mode overlap loop), and the output's size (`orig_elements` and bulky metadata
repeated by every piece of a split element or table). `tests/chunking/test_hostile_chunking.py`
chunks the same elements and asserts the exact outcome.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import partita
from partita.elements import CodeSnippet, Element, ElementMetadata, NarrativeText, Table
from tests.robustness.cases import HostileCase

__all__ = [
    "CASES",
    "chinese",
    "huge_cell_table",
    "letters",
    "linked_paragraph",
    "long_table",
    "overlap_loop",
    "paragraph",
    "spaced_code",
]

_MB = 1_000_000
_TOKENS = {"max_tokens": 256, "tokenizer": "cl100k_base"}


def letters(size: int, seed: int = 0) -> str:
    """`size` random lowercase letters: no space, no cut, one pre-token piece."""
    rng = random.Random(seed)
    return "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=size))


def chinese(size: int, seed: int = 0) -> str:
    """`size` random CJK ideographs, no punctuation."""
    rng = random.Random(seed)
    return "".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(size))


def words(size: int, seed: int = 0) -> str:
    """About `size` characters of random words separated by spaces."""
    rng = random.Random(seed)
    parts: list[str] = []
    length = 0
    while length < size:
        word = "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(1, 9)))
        parts.append(word)
        length += len(word) + 1
    return " ".join(parts)[:size]


def paragraph(text: str) -> list[Element]:
    """One NarrativeText holding `text`."""
    return [NarrativeText(text, element_id="p1", metadata=ElementMetadata(filename="h.txt"))]


def overlap_loop(size: int) -> list[Element]:
    """The reference's token-mode loop: with max_tokens=10 and overlap=3 it returns its input."""
    return paragraph("a " + "x" * size)


def spaced_code(size: int) -> list[Element]:
    """A CodeSnippet (never whitespace-normalized) with `size` spaces between two words."""
    return [CodeSnippet("begin" + " " * size + "end", element_id="c1")]


def linked_paragraph(links: int) -> list[Element]:
    """A paragraph of `links` linked words: its link lists grow with its text."""
    texts = [f"w{i}" for i in range(links)]
    metadata = ElementMetadata(link_texts=texts, link_urls=[f"https://e.x/{t}" for t in texts])
    return [NarrativeText(" ".join(texts), element_id="p1", metadata=metadata)]


def long_table(rows: int) -> list[Element]:
    """A table of `rows` rows of four cells, with a header row."""
    body = "".join(
        f"<tr><td>r{i}</td><td>c{i % 7}</td><td>v{i * 7 % 1000}</td><td>x</td></tr>"
        for i in range(rows)
    )
    html = f"<table><thead><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr></thead>{body}</table>"
    text = "A B C D " + " ".join(f"r{i} c{i % 7} v{i * 7 % 1000} x" for i in range(rows))
    return [Table(text, element_id="t1", metadata=ElementMetadata(text_as_html=html))]


def huge_cell_table(cell: str) -> list[Element]:
    """A one-row table whose first cell holds `cell`."""
    html = f"<table><tr><td>{cell}</td><td>small</td></tr></table>"
    return [Table(f"{cell} small", element_id="t1", metadata=ElementMetadata(text_as_html=html))]


def _json(build: Callable[[], list[Element]]) -> Callable[[], bytes]:
    def build_json() -> bytes:
        return partita.elements_to_json(build()).encode()

    return build_json


CASES: list[HostileCase] = [
    HostileCase(
        "chunking/characters-16mb-paragraph",
        "paragraph.json",
        _json(lambda: paragraph(words(16 * _MB))),
        {"chunking_strategy": "basic", "include_orig_elements": False},
    ),
    HostileCase(
        "chunking/characters-16mb-no-spaces",
        "letters.json",
        _json(lambda: paragraph(letters(16 * _MB))),
        {"chunking_strategy": "basic", "include_orig_elements": False},
    ),
    HostileCase(
        "chunking/tokens-1mb-no-spaces",
        "letters.json",
        _json(lambda: paragraph(letters(_MB))),
        {"chunking_strategy": "basic", **_TOKENS},
    ),
    HostileCase(
        "chunking/tokens-100k-chinese",
        "chinese.json",
        _json(lambda: paragraph(chinese(100_000))),
        {"chunking_strategy": "basic", **_TOKENS},
    ),
    HostileCase(
        "chunking/tokens-4mb-paragraph",
        "paragraph.json",
        _json(lambda: paragraph(words(4 * _MB))),
        {"chunking_strategy": "by_title", **_TOKENS},
    ),
    HostileCase(
        "chunking/tokens-overlap-loop",
        "loop.json",
        _json(lambda: overlap_loop(200_000)),
        {"chunking_strategy": "basic", "max_tokens": 10, "overlap": 3, "tokenizer": "cl100k_base"},
    ),
    HostileCase(
        "chunking/tokens-4mb-whitespace-run",
        "code.json",
        _json(lambda: spaced_code(4 * _MB)),
        {"chunking_strategy": "basic", **_TOKENS},
    ),
    HostileCase(
        "chunking/orig-elements-1mb-paragraph",
        "paragraph.json",
        _json(lambda: paragraph(words(_MB))),
        {"chunking_strategy": "by_title"},
    ),
    HostileCase(
        "chunking/orig-elements-100k-links",
        "links.json",
        _json(lambda: linked_paragraph(100_000)),
        {"chunking_strategy": "by_title"},
    ),
    HostileCase(
        "chunking/table-100000-rows",
        "table.json",
        _json(lambda: long_table(100_000)),
        {"chunking_strategy": "by_title"},
    ),
    HostileCase(
        "chunking/table-100000-rows-tokens",
        "table.json",
        _json(lambda: long_table(100_000)),
        {"chunking_strategy": "by_title", **_TOKENS},
    ),
    HostileCase(
        "chunking/table-4mb-cell",
        "cell.json",
        _json(lambda: huge_cell_table(words(4 * _MB))),
        {"chunking_strategy": "by_title"},
    ),
    HostileCase(
        "chunking/table-1mb-cell-no-spaces-tokens",
        "cell.json",
        _json(lambda: huge_cell_table(letters(_MB))),
        {"chunking_strategy": "by_title", **_TOKENS},
    ),
]
"""Chunking cases; each one took minutes, or gigabytes, before partita bounded it."""
