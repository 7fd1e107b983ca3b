"""Mutation fuzzing: corpus documents with bytes flipped, deleted and duplicated.

Seeds are the shared corpus's documents of every format (`../shared/corpus`), small enough that
an unmutated trial takes well under the time limit, plus elements JSON written from a few of
them (with `orig_elements`, so the decoder is attacked too). Trial `i` of a run with seed `s`
draws from `random.Random(f"{s}:{i}")`: the same seed and corpus give the same files.

Byte mutations (any format): flip bits, delete a span, duplicate a span elsewhere, insert
"interesting" tokens (huge, negative and non-numeric numbers, control bytes, markup), and
replace a run of digits with a huge or odd number. A docx is mutated inside a valid zip: one
XML part (usually `word/document.xml`) gets the byte mutations and the package is written
again, so the XML reader, not only the zip reader, is attacked; mostly the XML is mutated as a
tree (`mutate_xml`), so it stays well-formed and reaches the partitioner. Elements JSON is
mostly mutated as values (`mutate_json`), so it stays JSON and reaches the element reader.
"""

from __future__ import annotations

import io
import random
import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.shared import shared_corpus

__all__ = [
    "Seed",
    "iter_mutants",
    "load_seeds",
    "mutate",
    "mutate_docx",
    "mutate_json",
    "mutate_xml",
]

SEED_LIMITS = {"pdf": 400_000, "docx": 400_000, "html": 500_000, "md": 200_000, "text": 200_000}
"""The largest corpus file of each format used as a seed, in bytes (larger ones are slow to
partition even unmutated, and their trials would measure size, not robustness)."""

_SUFFIX_FORMATS = {
    ".pdf": "pdf",
    ".docx": "docx",
    ".html": "html",
    ".htm": "html",
    ".md": "md",
    ".txt": "text",
}

INTERESTING = [
    b"0",
    b"-1",
    b"2147483647",
    b"-2147483648",
    b"4294967296",
    b"9999999999999999999999",
    b"1e400",
    b"NaN",
    b"\x00",
    b"\x07\x1b",
    b"\xff\xfe",
    b"\xef\xbb\xbf",
    b"<",
    b">",
    b"&#0;",
    b"&amp",
    b"<table>",
    b"</html>",
    b"<![CDATA[",
    b"]]>",
    b"[[[[",
    b"obj",
    b" R ",
    b"<<",
    b">>",
    b"\\",
    b'"',
    b"{",
    b"}",
    b"[",
]


@dataclass(frozen=True)
class Seed:
    """A corpus document (or elements JSON made from one) to mutate."""

    name: str
    format: str
    suffix: str
    data: bytes


def load_seeds(corpus: Path | None = None, *, json_seeds: int = 3) -> list[Seed]:
    """Return the corpus's seed documents (sorted by name) and `json_seeds` JSON seeds."""
    corpus = corpus or shared_corpus()
    seeds: list[Seed] = []
    for path in sorted(corpus.rglob("*")):
        fmt = _SUFFIX_FORMATS.get(path.suffix.lower())
        if fmt is None or not path.is_file() or path.stat().st_size > SEED_LIMITS[fmt]:
            continue
        name = str(path.relative_to(corpus))
        seeds.append(Seed(name, fmt, path.suffix.lower(), path.read_bytes()))
    return seeds + _json_seeds(seeds, json_seeds)


def _json_seeds(seeds: list[Seed], count: int) -> list[Seed]:
    """Elements JSON of the smallest HTML and docx seeds, and their chunks with orig_elements."""
    import partita

    sources = sorted(
        (s for s in seeds if s.format in ("html", "docx", "md")), key=lambda s: len(s.data)
    )[:count]
    out: list[Seed] = []
    for seed in sources:
        elements = partita.partition(file=io.BytesIO(seed.data), metadata_filename=seed.name)
        chunks = partita.chunk_by_title(elements, max_characters=300)
        for kind, items in (("elements", elements), ("chunks", chunks)):
            text = partita.elements_to_json(items)
            out.append(Seed(f"{seed.name}.{kind}.json", "json", ".json", text.encode()))
    return out


def mutate(data: bytes, rng: random.Random) -> bytes:
    """Return `data` with one to four byte mutations."""
    for _ in range(rng.randint(1, 4)):
        data = rng.choice(_MUTATORS)(data, rng)
    return data


def mutate_docx(data: bytes, rng: random.Random) -> bytes:
    """Return the docx `data` with one XML part mutated, re-zipped into a valid package."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            parts = {info.filename: archive.read(info) for info in archive.infolist()}
    except zipfile.BadZipFile:
        return mutate(data, rng)
    xml_names = sorted(n for n in parts if n.endswith((".xml", ".rels")))
    if not xml_names:
        return mutate(data, rng)
    main = "word/document.xml"
    name = main if main in parts and rng.random() < 0.6 else rng.choice(xml_names)
    parts[name] = mutate_xml(parts[name], rng) if rng.random() < 0.7 else mutate(parts[name], rng)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for part_name, content in parts.items():
            archive.writestr(part_name, content)
    return out.getvalue()


def mutate_xml(data: bytes, rng: random.Random) -> bytes:
    """Return the XML `data` with one to four tree mutations, still well-formed XML.

    Elements are duplicated (up to 1000 times), deleted, moved under another element or
    emptied; attributes get huge, negative or non-numeric values or are deleted; text gets
    markup characters, invisible ones, or a long run of one character. Falls back to byte
    mutations when `data` does not parse.
    """
    from lxml import etree

    try:
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, huge_tree=True))
    except etree.XMLSyntaxError:
        return mutate(data, rng)
    elements = [e for e in root.iter() if isinstance(e.tag, str)]
    for _ in range(rng.randint(1, 4)):
        element = rng.choice(elements)
        parent = element.getparent()
        action = rng.randrange(6)
        if action == 0 and parent is not None:
            for _ in range(rng.choice((1, 2, 10, 1000))):
                parent.insert(parent.index(element), _copy(element))
        elif action == 1 and parent is not None:
            parent.remove(element)
            elements = [e for e in root.iter() if isinstance(e.tag, str)]
        elif action == 2 and parent is not None:
            host = rng.choice(elements)
            if element not in host.iterancestors() and host is not element:
                host.append(_copy(element))
        elif action == 3 and element.attrib:
            key = rng.choice(sorted(element.attrib))
            if rng.random() < 0.2:
                del element.attrib[key]
            else:
                element.attrib[key] = rng.choice(INTERESTING[:8]).decode()
        elif action == 4:
            element.text = rng.choice(("x" * 100_000, " " * 10_000, "&", "]]>", "\u200b\xad"))
        else:
            element.clear()
    result: bytes = etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=True)
    return result


def _copy(element: object) -> object:
    import copy

    return copy.deepcopy(element)


def mutate_json(data: bytes, rng: random.Random) -> bytes:
    """Return the JSON `data` with one to four value mutations, still valid JSON (mostly).

    A value anywhere is replaced by one of another type, a huge or odd number, a long string,
    deep nesting, or a copy of another value; falls back to byte mutations when `data` does
    not parse.
    """
    import json

    try:
        value = json.loads(data)
    except ValueError:
        return mutate(data, rng)
    for _ in range(rng.randint(1, 4)):
        holders = list(_iter_holders(value))
        if not holders:
            break
        holder, key = rng.choice(holders)
        holder[key] = rng.choice(_JSON_VALUES)(rng)
    # -- a lone surrogate escaped (ensure_ascii) or as CESU-8 bytes: both are hostile --
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5)
    text = _NESTED.sub(lambda m: "[" * int(m[1]) + "]" * int(m[1]), text)
    return text.encode("utf-8", "surrogatepass")


def _iter_holders(value: object) -> Iterator[tuple[Any, Any]]:
    """Yield (container, key) for every value inside `value`."""
    stack = [value]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            for key in current:
                yield current, key
                stack.append(current[key])
        elif isinstance(current, list):
            for index, item in enumerate(current):
                yield current, index
                stack.append(item)


_JSON_VALUES: list[Callable[[random.Random], object]] = [
    lambda rng: None,
    lambda rng: rng.choice((True, False)),
    lambda rng: rng.choice((0, -1, 2**31, 2**63, 10**30, 1e300, -0.5)),
    lambda rng: rng.choice(("", "x" * 100_000, "\x00\x1b", "\ud800", "Title", "NaN")),
    lambda rng: rng.choice(([], [1, "a", None], ["x"] * 1000)),
    lambda rng: rng.choice(({}, {"type": "Title"}, {"a": {"b": {"c": [1]}}})),
    lambda rng: _nested(rng.choice((50, 500, 5000))),
]


_NESTED = re.compile(r'"nested-(\d+)-deep"')


def _nested(depth: int) -> str:
    """A placeholder that `mutate_json` writes as `depth` nested arrays (json cannot)."""
    return f"nested-{depth}-deep"


def iter_mutants(seeds: list[Seed], seed: int, trials: int) -> Iterator[tuple[int, Seed, bytes]]:
    """Yield (trial number, seed, mutated bytes) for `trials` trials, deterministically."""
    for number in range(trials):
        rng = random.Random(f"{seed}:{number}")
        source = rng.choice(seeds)
        if source.format == "docx" and rng.random() < 0.8:
            yield number, source, mutate_docx(source.data, rng)
        elif source.format == "json" and rng.random() < 0.8:
            yield number, source, mutate_json(source.data, rng)
        else:
            yield number, source, mutate(source.data, rng)


def _span(data: bytes, rng: random.Random) -> tuple[int, int]:
    start = rng.randrange(len(data) + 1)
    length = min(len(data) - start, int(rng.expovariate(1 / 64)) + 1)
    return start, start + length


def _flip_bits(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    out = bytearray(data)
    for _ in range(rng.randint(1, 16)):
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def _delete(data: bytes, rng: random.Random) -> bytes:
    start, end = _span(data, rng)
    return data[:start] + data[end:]


def _duplicate(data: bytes, rng: random.Random) -> bytes:
    start, end = _span(data, rng)
    where = rng.randrange(len(data) + 1)
    copies = rng.choice((1, 1, 2, 8, 64))
    return data[:where] + data[start:end] * copies + data[where:]


def _insert(data: bytes, rng: random.Random) -> bytes:
    where = rng.randrange(len(data) + 1)
    return data[:where] + rng.choice(INTERESTING) + data[where:]


_DIGITS = re.compile(rb"\d+")


def _renumber(data: bytes, rng: random.Random) -> bytes:
    matches = list(_DIGITS.finditer(data[:2_000_000]))
    if not matches:
        return _insert(data, rng)
    match = rng.choice(matches)
    number = rng.choice(INTERESTING[:8])
    return data[: match.start()] + number + data[match.end() :]


_MUTATORS: list[Callable[[bytes, random.Random], bytes]] = [
    _flip_bits,
    _delete,
    _duplicate,
    _insert,
    _renumber,
]
