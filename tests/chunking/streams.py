"""Hypothesis strategies for chunking: element streams (as dicts) and option sets.

`element_streams` and `chunking_options` feed the differential suite; `hostile_streams` and
`hostile_options` feed partita-only properties with the inputs the reference hangs on (long
texts without cuts, its token-mode overlap loop, small windows with large overlaps).
"""

from __future__ import annotations

import html
import random
from typing import Any

from hypothesis import strategies as st

WORDS = (
    "alpha",
    "beta",
    "gamma",
    "the",
    "of",
    "a",
    "quick",
    "brown",
    "fox",
    "end.",
    "x" * 70,
    "中文没有空格的句子",
    "日本語",
    "👍🏽",
)

words = st.sampled_from(WORDS)
gaps = st.sampled_from([" ", " ", " ", "", "\n", "  ", "\t"])


blank_runs = st.builds(
    lambda unit, n: unit * n,
    st.sampled_from([" ", "\n", "\t", " \n", "\n    "]),
    st.integers(8, 120),
)
"""A run of whitespace: for a CodeSnippet (kept verbatim) or a table (only stripped), content
that the token-mode splitter cuts as it is."""


@st.composite
def texts(draw: st.DrawFn, max_words: int = 60) -> str:
    """Generate element text: words with irregular whitespace, sometimes empty or blank, one
    letter repeated, or runs of whitespace between words (indentation)."""
    kind = draw(
        st.sampled_from(
            ["words", "words", "words", "empty", "blank", "long-word", "letter-run", "indented"]
        )
    )
    if kind == "empty":
        return ""
    if kind == "blank":
        return draw(st.one_of(st.sampled_from([" ", "\n", " \t \n "]), blank_runs))
    if kind == "long-word":
        return draw(st.sampled_from(["y" * 700, "中" * 400]))
    if kind == "letter-run":
        return draw(st.sampled_from("ax中")) * draw(st.integers(20, 700))
    n = draw(st.integers(1, max_words))
    if kind == "indented":
        return "".join(draw(words) + draw(st.one_of(gaps, blank_runs)) for _ in range(n))
    return "".join(draw(words) + draw(gaps) for _ in range(n))


@st.composite
def table_html(draw: st.DrawFn) -> tuple[str, str]:
    """Generate `(text, text_as_html)` for a table with headers, spans, empty and huge cells."""
    n_cols = draw(st.integers(1, 4))
    n_rows = draw(st.integers(1, 10))
    header = draw(st.booleans())
    rows: list[str] = []
    cell_texts: list[str] = []
    for i in range(n_rows):
        cells: list[str] = []
        for _ in range(n_cols):
            tag = "th" if header and i == 0 else "td"
            attrs = ""
            if draw(st.integers(0, 9)) == 0:
                attrs += ' colspan="2"'
            if draw(st.integers(0, 9)) == 0:
                attrs += f' rowspan="{draw(st.sampled_from([0, 2, 3]))}"'
            size = draw(st.sampled_from([0, 8, 8, 30, 300]))
            cell = draw(texts(max_words=20))[:size]
            cell_texts.append(cell)
            cells.append(f"<{tag}{attrs}>{html.escape(cell)}</{tag}>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    if header and draw(st.booleans()):
        markup = f"<table><thead>{rows[0]}</thead><tbody>{''.join(rows[1:])}</tbody></table>"
    else:
        markup = f"<table>{''.join(rows)}</table>"
    return " ".join(" ".join(cell_texts).split()), markup


ELEMENT_TYPES = (
    "Title",
    "Title",
    "NarrativeText",
    "NarrativeText",
    "ListItem",
    "CodeSnippet",
    "PageBreak",
    "Image",
    "UncategorizedText",
    "Header",
    "Table",
    "TableChunk",
)


@st.composite
def element_streams(draw: st.DrawFn, max_size: int = 25) -> list[dict[str, Any]]:
    """Generate a list of element dicts with pages, languages, emphasis, links and tables."""
    n = draw(st.integers(0, max_size))
    page = 1
    items: list[dict[str, Any]] = []
    for i in range(n):
        type_name = draw(st.sampled_from(ELEMENT_TYPES))
        page = max(1, page + draw(st.sampled_from([0, 0, 0, 0, 1, -1])))
        metadata: dict[str, Any] = {"filename": "doc.docx"}
        if draw(st.integers(0, 9)):
            metadata["page_number"] = page
        if draw(st.integers(0, 4)) == 0:
            metadata["languages"] = draw(
                st.lists(st.sampled_from(["eng", "fra", "zho"]), min_size=1, max_size=3)
            )
        if draw(st.integers(0, 7)) == 0:
            metadata["emphasized_text_contents"] = ["x"]
            metadata["emphasized_text_tags"] = ["b"]
        if draw(st.integers(0, 7)) == 0:
            metadata["link_texts"] = ["here"]
            metadata["link_urls"] = ["https://example.com"]
            metadata["links"] = [{"text": "here", "url": "https://example.com", "start_index": 0}]
        if draw(st.integers(0, 7)) == 0:
            metadata["parent_id"] = "p"
            metadata["category_depth"] = 1
        if draw(st.integers(0, 7)) == 0:  # -- declared, and dropped from chunks, since 0.27.35 --
            metadata["style_name"] = draw(st.sampled_from(["Title", "Heading 1", "Normal"]))
        if type_name in ("Table", "TableChunk"):
            text, markup = draw(table_html())
            if draw(st.integers(0, 5)):
                metadata["text_as_html"] = markup
        elif type_name == "PageBreak":
            text = ""
        else:
            text = draw(texts())
        items.append({"type": type_name, "element_id": f"e{i}", "text": text, "metadata": metadata})
    return items


@st.composite
def chunking_options(draw: st.DrawFn, *, by_title: bool, tokens: bool) -> dict[str, Any]:
    """Generate a valid option set for one strategy, in character or token mode.

    Beside options drawn independently, some cases are drawn on purpose: a soft maximum below
    `combine_text_under_n_chars` (combining is capped at it), and in token mode small windows
    with large overlaps.
    """
    opts: dict[str, Any] = {}
    soft_key = "new_after_n_tokens" if tokens else "new_after_n_chars"
    if tokens:
        hard_max = draw(st.sampled_from([3, 5, 8, 10, 16, 20, 50, 120, 128]))
        opts["max_tokens"] = hard_max
        opts["tokenizer"] = "cl100k_base"
        if draw(st.booleans()):
            opts[soft_key] = draw(st.integers(0, hard_max + 5))
    else:
        hard_max = draw(st.sampled_from([10, 20, 40, 60, 89, 100, 200, 300, 500]))
        if hard_max != 500 or draw(st.booleans()):
            opts["max_characters"] = hard_max
        if draw(st.booleans()):
            opts[soft_key] = draw(st.integers(0, hard_max + 10))
    overlap_kind = draw(st.sampled_from(["none", "none", "any", "large"]))
    if overlap_kind == "any":
        opts["overlap"] = draw(st.integers(0, hard_max - 1))
    elif overlap_kind == "large":  # -- most of the window: a fragment must count more --
        opts["overlap"] = draw(st.integers(hard_max // 2, hard_max - 1))
    if "overlap" in opts and draw(st.booleans()):
        opts["overlap_all"] = True
    if draw(st.integers(0, 4)) == 0:
        opts["include_orig_elements"] = False
    table_mode = draw(st.sampled_from(["default", "default", "no-isolate", "skip"]))
    if table_mode == "no-isolate":
        opts["isolate_table"] = False
    elif table_mode == "skip":
        opts["skip_table_chunking"] = True
    if draw(st.integers(0, 4)) == 0:
        opts["repeat_table_headers"] = False
    if by_title:
        combine_kind = draw(st.sampled_from(["default", "any", "above-soft"]))
        if combine_kind == "any":
            opts["combine_text_under_n_chars"] = draw(st.integers(0, hard_max))
        elif combine_kind == "above-soft" and hard_max > 1:
            # -- combining is capped at the soft maximum: measured in the window's unit --
            soft = draw(st.integers(0, hard_max - 1))
            opts[soft_key] = soft
            opts["combine_text_under_n_chars"] = draw(st.integers(soft + 1, hard_max))
        if draw(st.booleans()):
            opts["multipage_sections"] = False
    return opts


# ------------------------------------------------------------------------------------------------
# hostile streams: the inputs on which the reference hangs (partita-only properties)
# ------------------------------------------------------------------------------------------------

_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _hostile_text(kind: str, size: int, seed: int) -> str:
    """A text of about `size` characters of one hostile `kind`, from a seeded generator."""
    rng = random.Random(seed)
    if kind == "letters":  # -- no space, no cut: a single pre-token piece --
        return "".join(rng.choice(_LETTERS) for _ in range(size))
    if kind == "chinese":  # -- no punctuation: one to three tokens per character --
        return "".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(size))
    if kind == "overlap-loop":  # -- the reference's token-mode overlap returns its input --
        return "a " + "x" * size
    if kind == "whitespace":
        return "start" + rng.choice([" ", "\n", " \t\n"]) * size + "end"
    if kind == "long-words":
        words = (rng.choices(_LETTERS, k=rng.randint(20, 200)) for _ in range(1 + size // 100))
        return " ".join("".join(word) for word in words)
    return " ".join(rng.choice(WORDS) for _ in range(max(1, size // 5)))


@st.composite
def hostile_streams(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Generate one to four text elements, some oversized in a way the reference hangs on."""
    kinds = ("letters", "chinese", "overlap-loop", "whitespace", "long-words", "words")
    items: list[dict[str, Any]] = []
    for i in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(kinds))
        text = _hostile_text(kind, draw(st.integers(1, 1500)), draw(st.integers(0, 2**16)))
        type_name = draw(st.sampled_from(("NarrativeText", "Title", "ListItem")))
        metadata = {"filename": "h.txt"}
        items.append({"type": type_name, "element_id": f"h{i}", "text": text, "metadata": metadata})
    return items


@st.composite
def hostile_options(draw: st.DrawFn, *, by_title: bool, tokens: bool) -> dict[str, Any]:
    """Generate small windows with large overlaps: many pieces per element."""
    opts: dict[str, Any] = {}
    if tokens:
        hard_max = draw(st.integers(4, 40))
        opts.update(max_tokens=hard_max, tokenizer="cl100k_base")
    else:
        hard_max = draw(st.integers(5, 120))
        opts["max_characters"] = hard_max
    if draw(st.booleans()):
        opts["overlap"] = draw(st.integers(0, hard_max - 1))
        opts["overlap_all"] = draw(st.booleans())
    if by_title and draw(st.booleans()):
        opts["combine_text_under_n_chars"] = draw(st.integers(0, hard_max))
    return opts
