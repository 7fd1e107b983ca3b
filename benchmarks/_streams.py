"""Seeded synthetic element streams in unstructured's JSON schema, in several named shapes.

A stream is an endless, deterministic sequence of element dicts (`type`, `element_id`, `text`,
`metadata`) as `unstructured.staging.base.elements_to_dicts` writes them: titles, English and
Chinese paragraphs, list items, HTML tables, short elements (headers, footers, figure captions,
uncategorized lines), page numbers, emphasis and links. A `StreamShape` holds every knob; the
named shapes are in `STREAMS`:

- `default`: the stream `bench_chunking.py` has always measured (the same dicts for a seed);
- `tables`: tables with header rows, rowspans and colspans, wide and long ones, about 10 %
  Chinese, a title every 9 elements, pages of 150 elements;
- `cjk`: a Chinese-heavy document: about 60 % Chinese paragraphs, long paragraphs, few tables;
- `short`: many short elements (list items, short lines, headers, footers, captions), a title
  every 3-5 elements, small tables: like a slide deck or a form.

Tables are written as the reference's partitioners write them: either `<thead>`/`<tbody>` with
`<th>` header cells (as hi_res table structure does), or compact `<tr><td>` rows with `<td/>`
for a blank cell and `colspan`/`rowspan` attributes (as its docx/pptx/HTML partitioners do),
the table's `text` being the cell texts in source order joined by spaces.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from _stream_tables import CellTexts, TableKnobs, table_html  # benchmarks/ is on sys.path

__all__ = [
    "DEFAULT",
    "STREAMS",
    "StreamShape",
    "build_element_dicts",
    "iter_element_dicts",
    "stream_summary",
]

ElementDict = dict[str, Any]
Range = tuple[int, int]

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

SHORT_KINDS: tuple[tuple[str, float], ...] = (
    ("Header", 0.2),
    ("Footer", 0.2),
    ("FigureCaption", 0.2),
    ("UncategorizedText", 0.4),
)
PDF = "application/pdf"
DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation"


@dataclass(frozen=True)
class StreamShape:
    """Every knob of a stream. Ranges are inclusive (`random.randint`), shares probabilities.

    A share of 0 (or a single table kind) draws nothing from the generator, which is how the
    `default` shape keeps generating the stream it generated before the other knobs existed.
    """

    name: str
    description: str
    title_every: Range = (3, 8)
    """Elements between two titles."""
    page_every: Range = (30, 50)
    """Elements on a page."""
    english_words_per_paragraph: Range = (5, 300)
    cjk_characters_per_paragraph: Range = (20, 600)
    cjk_share: float = 0.10
    """Share of paragraphs in Chinese (`languages=["zho"]`)."""
    cjk_title_share: float = 0.0
    list_item_share: float = 0.2
    """Share of English paragraphs that are `ListItem`s."""
    emphasis_share: float = 0.06
    link_share: float = 0.04
    short_share: float = 0.0
    """Share of non-title elements that are short ones (`SHORT_KINDS`)."""
    hierarchy: bool = False
    """Titles carry `category_depth`, other elements the `parent_id` of their title."""
    table_share: float = 0.05
    table: TableKnobs = field(default_factory=TableKnobs)
    filename: str = "bench-report-{seed}.pdf"
    filetype: str = PDF


DEFAULT = StreamShape(
    name="default",
    description="the original stream: a title every 3-8 elements, pages of 30-50, "
    "10 % Chinese paragraphs, 5 % plain tables (3-40 rows, 2-6 columns, half with a header row)",
)

STREAMS: Mapping[str, StreamShape] = {
    "default": DEFAULT,
    "tables": StreamShape(
        name="tables",
        description="10 % tables: header rows (thead, several rows, blank-corner th rows), "
        "rowspan and colspan cells, wide (8-16 columns) and long (60-200 rows) ones; "
        "10 % Chinese, a title every 9 elements, pages of 150 elements",
        title_every=(9, 9),
        page_every=(150, 150),
        table_share=0.10,
        table=TableKnobs(
            kinds=(
                ("plain", 0.10),
                ("header_rows", 0.30),
                ("spans", 0.35),
                ("wide", 0.15),
                ("long", 0.10),
            ),
            columns=(3, 7),
            empty_cell_share=0.05,
            symbol_cell_share=0.05,
            cjk_cell_share=0.05,
            line_break_cell_share=0.03,
            compact_share=0.3,
        ),
    ),
    "cjk": StreamShape(
        name="cjk",
        description="a Chinese-heavy document: 60 % Chinese paragraphs of 100-1,500 "
        "characters, 60 % Chinese titles, English paragraphs of 40-400 words, a title every "
        "4-12 elements, 1 % tables (half their cells Chinese), titles with depths and parents",
        title_every=(4, 12),
        page_every=(20, 40),
        english_words_per_paragraph=(40, 400),
        cjk_characters_per_paragraph=(100, 1500),
        cjk_share=0.60,
        cjk_title_share=0.60,
        list_item_share=0.10,
        hierarchy=True,
        table_share=0.01,
        table=TableKnobs(
            kinds=(("plain", 0.5), ("header_rows", 0.25), ("spans", 0.25)),
            cjk_cell_share=0.5,
            compact_share=0.5,
        ),
        filename="bench-cjk-{seed}.docx",
        filetype=DOCX,
    ),
    "short": StreamShape(
        name="short",
        description="a slide deck or form: a title every 3-5 elements, pages of 8-20, 30 % "
        "short elements (headers, footers, captions, short lines), half the paragraphs list "
        "items of 3-40 words, 3 % Chinese, 8 % small tables (2-6 rows, 2-4 columns)",
        title_every=(3, 5),
        page_every=(8, 20),
        english_words_per_paragraph=(3, 40),
        cjk_characters_per_paragraph=(10, 80),
        cjk_share=0.03,
        list_item_share=0.5,
        short_share=0.3,
        hierarchy=True,
        table_share=0.08,
        table=TableKnobs(
            kinds=(("plain", 0.4), ("header_rows", 0.3), ("spans", 0.3)),
            rows=(2, 6),
            columns=(2, 4),
            empty_cell_share=0.1,
            compact_share=0.5,
        ),
        filename="bench-deck-{seed}.pptx",
        filetype=PPTX,
    ),
}


@dataclass
class StreamState:
    """What the element stream carries from one element to the next."""

    rng: random.Random
    seed: int
    shape: StreamShape
    index: int = 0
    page: int = 1
    left_on_page: int = 0
    left_in_section: int = 0
    figure: int = 0
    title_ids: dict[int, str] = field(default_factory=dict)
    """The element id of the latest title at each depth (`hierarchy` only)."""


# ------------------------------------------------------------------------------------------------
# texts
# ------------------------------------------------------------------------------------------------


def english_sentence(rng: random.Random, n_words: int) -> str:
    words = rng.choices(ENGLISH_WORDS, k=n_words)
    return " ".join(words).capitalize() + "."


def english_paragraph(rng: random.Random, words: Range) -> str:
    total = rng.randint(*words)
    sentences: list[str] = []
    while total > 0:
        n = min(total, rng.randint(4, 24))
        sentences.append(english_sentence(rng, n))
        total -= n
    return " ".join(sentences)


def cjk_paragraph(rng: random.Random, characters: Range) -> str:
    total = rng.randint(*characters)
    pieces: list[str] = []
    while total > 0:
        n = min(total, rng.randint(8, 40))
        pieces.append("".join(rng.choices(CJK_CHARACTERS, k=n)) + "。")
        total -= n
    return "".join(pieces)


def title_text(rng: random.Random) -> str:
    return " ".join(rng.choices(ENGLISH_WORDS, k=rng.randint(2, 8))).title()


def cjk_word(rng: random.Random, low: int, high: int) -> str:
    return "".join(rng.choices(CJK_CHARACTERS, k=rng.randint(low, high)))


def cell_text(rng: random.Random, knobs: TableKnobs) -> str:
    """A body cell: blank, Chinese, a symbol, a number or one to three words (two lines)."""
    if drawn(rng, knobs.empty_cell_share):
        return ""
    if drawn(rng, knobs.cjk_cell_share):
        return cjk_word(rng, 2, 8)
    if drawn(rng, knobs.symbol_cell_share):
        symbols = ("R&D", "<5%", "n/a", "—", f"{rng.randint(0, 999)}.{rng.randint(0, 9)}%")
        return rng.choice(symbols)
    if rng.random() < knobs.number_cell_share:
        return f"{rng.randint(0, 99999):,}"
    words = " ".join(rng.choices(ENGLISH_WORDS, k=rng.randint(1, 3)))
    if drawn(rng, knobs.line_break_cell_share):
        words += "\n" + " ".join(rng.choices(ENGLISH_WORDS, k=rng.randint(1, 3)))
    return words


def header_text(rng: random.Random, knobs: TableKnobs) -> str:
    """A header cell or row label: Chinese, a year or quarter, or one or two words."""
    if drawn(rng, knobs.cjk_cell_share):
        return cjk_word(rng, 2, 4)
    if rng.random() < 0.3:
        return rng.choice(["Q1", "Q2", "Q3", "Q4", "FY"]) + f" {rng.randint(2015, 2025)}"
    return " ".join(rng.choices(ENGLISH_WORDS, k=rng.randint(1, 2))).title()


def table_fields(rng: random.Random, knobs: TableKnobs) -> tuple[str, str, ElementDict]:
    texts = CellTexts(lambda: cell_text(rng, knobs), lambda: header_text(rng, knobs))
    markup, text = table_html(rng, knobs, texts)
    return "Table", text, {"languages": ["eng"], "text_as_html": markup}


def short_text(rng: random.Random, kind: str, state: StreamState) -> str:
    """The text of a short element of `kind` (one of `SHORT_KINDS`)."""
    if kind == "Header":
        return title_text(rng)
    if kind == "Footer":
        return rng.choice([f"Page {state.page}", "Confidential", f"© 2024 {title_text(rng)}"])
    if kind == "FigureCaption":
        state.figure += 1
        return f"Figure {state.figure}: {english_sentence(rng, rng.randint(3, 12))}"
    pick = rng.random()
    if pick < 0.3:
        return f"{rng.randint(2000, 2030)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if pick < 0.5:
        return f"${rng.randint(0, 999_999):,}"
    return " ".join(rng.choices(ENGLISH_WORDS, k=rng.randint(1, 6))).capitalize()


def add_emphasis_and_links(
    rng: random.Random, shape: StreamShape, text: str, metadata: ElementDict
) -> None:
    words = text.split()
    if len(words) < 2:
        return
    if rng.random() < shape.emphasis_share:
        picked = rng.sample(words, k=min(len(words), rng.randint(1, 2)))
        metadata["emphasized_text_contents"] = [w.strip(".") for w in picked]
        metadata["emphasized_text_tags"] = [rng.choice(["b", "i"]) for _ in picked]
    if rng.random() < shape.link_share:
        word = rng.choice(words).strip(".")
        metadata["link_texts"] = [word]
        metadata["link_urls"] = [f"https://example.com/{word.lower()}"]


def drawn(rng: random.Random, share: float) -> bool:
    """Whether an event of probability `share` happens; draws nothing when `share` is 0."""
    return share > 0 and rng.random() < share


def pick_kind(rng: random.Random, kinds: tuple[tuple[str, float], ...]) -> str:
    """One of `kinds` by weight; draws nothing when there is one kind."""
    if len(kinds) == 1:
        return kinds[0][0]
    return rng.choices([k for k, _ in kinds], weights=[w for _, w in kinds])[0]


# ------------------------------------------------------------------------------------------------
# elements
# ------------------------------------------------------------------------------------------------


def next_page_number(state: StreamState) -> int:
    if state.left_on_page <= 0:
        if state.index > 0:
            state.page += 1
        state.left_on_page = state.rng.randint(*state.shape.page_every)
    state.left_on_page -= 1
    return state.page


def title_fields(state: StreamState) -> tuple[str, str, ElementDict]:
    rng, shape = state.rng, state.shape
    if drawn(rng, shape.cjk_title_share):
        return "Title", cjk_word(rng, 4, 16), {"languages": ["zho"]}
    return "Title", title_text(rng), {"languages": ["eng"]}


def paragraph_fields(state: StreamState) -> tuple[str, str, ElementDict]:
    rng, shape = state.rng, state.shape
    if rng.random() < shape.cjk_share:
        text = cjk_paragraph(rng, shape.cjk_characters_per_paragraph)
        kind, metadata = "NarrativeText", {"languages": ["zho"]}
    else:
        kind = "ListItem" if rng.random() < shape.list_item_share else "NarrativeText"
        text = english_paragraph(rng, shape.english_words_per_paragraph)
        metadata = {"languages": ["eng"]}
    add_emphasis_and_links(rng, shape, text, metadata)
    return kind, text, metadata


def next_type_text_metadata(state: StreamState) -> tuple[str, str, ElementDict]:
    rng, shape = state.rng, state.shape
    if state.left_in_section <= 0:
        state.left_in_section = rng.randint(*shape.title_every)
        return title_fields(state)
    state.left_in_section -= 1
    if rng.random() < shape.table_share:
        return table_fields(rng, shape.table)
    if drawn(rng, shape.short_share):
        kind = pick_kind(rng, SHORT_KINDS)
        return kind, short_text(rng, kind, state), {"languages": ["eng"]}
    return paragraph_fields(state)


def add_hierarchy(state: StreamState, kind: str, element_id: str, metadata: ElementDict) -> None:
    """Titles get a `category_depth` (0 or 1), other elements their title's `parent_id`."""
    if kind == "Title":
        depth = 0 if not state.title_ids or state.rng.random() < 0.3 else 1
        metadata["category_depth"] = depth
        if depth and 0 in state.title_ids:
            metadata["parent_id"] = state.title_ids[0]
        state.title_ids = {d: i for d, i in state.title_ids.items() if d < depth}
        state.title_ids[depth] = element_id
    elif state.title_ids:
        metadata["parent_id"] = state.title_ids[max(state.title_ids)]


def iter_element_dicts(seed: int, shape: StreamShape = DEFAULT) -> Iterator[ElementDict]:
    """Generate an endless, deterministic stream of element dicts in unstructured's schema."""
    state = StreamState(rng=random.Random(seed), seed=seed, shape=shape)
    filename = shape.filename.format(seed=seed)
    while True:
        page = next_page_number(state)
        kind, text, metadata = next_type_text_metadata(state)
        metadata.update(filename=filename, filetype=shape.filetype, page_number=page)
        element_id = hashlib.sha256(f"{seed}:{state.index}".encode()).hexdigest()[:32]
        if shape.hierarchy:
            add_hierarchy(state, kind, element_id, metadata)
        yield {"type": kind, "element_id": element_id, "text": text, "metadata": metadata}
        state.index += 1


def build_element_dicts(n: int, seed: int, shape: StreamShape = DEFAULT) -> list[ElementDict]:
    return list(islice(iter_element_dicts(seed, shape), n))


def stream_summary(dicts: list[ElementDict]) -> str:
    """Counts of a stream's elements by type, Chinese ones, tables with spans, and pages."""
    counts: dict[str, int] = {}
    for d in dicts:
        counts[d["type"]] = counts.get(d["type"], 0) + 1
    chinese = sum(1 for d in dicts if d["metadata"].get("languages") == ["zho"])
    tables = [d["metadata"]["text_as_html"] for d in dicts if d["type"] == "Table"]
    spanned = sum(1 for t in tables if "span=" in t)
    headed = sum(1 for t in tables if "<th" in t)
    characters = sum(len(d["text"]) for d in dicts)
    pages = dicts[-1]["metadata"]["page_number"] if dicts else 0
    by_type = ", ".join(f"{n:,} {kind}" for kind, n in sorted(counts.items(), key=lambda i: -i[1]))
    return (
        f"{by_type}; {chinese:,} in Chinese; tables: {headed:,} with <th> cells, {spanned:,} "
        f"with spans; {characters / len(dicts):,.0f} characters per element; {pages:,} pages"
    )
