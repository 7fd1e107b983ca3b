"""Hypothesis strategies for HTML tables as they arrive in a table element's `text_as_html`.

Tables mix plain `<tr>` rows and `<thead>`/`<tbody>`/`<tfoot>` sections, `<th>` header rows
(some behind blank `<td>` corner cells), `colspan`/`rowspan` (including `rowspan="0"`, spans
past the table's end and unparseable values), empty and whitespace-only cells, `<br>`, inline
tags, a nested table or comment inside a cell, text needing HTML escaping, long cells, long
unbreakable words and CJK text without spaces, and cosmetic attributes and layout whitespace
that compactification removes.
"""

from __future__ import annotations

import functools

from hypothesis import strategies as st

_WORDS = (
    "a",
    "bb",
    "Item",
    "x1",
    "3.00",
    "-",
    "é",
    "naïve",
    "&amp;",
    "&",
    "&lt;b&gt;",
    "&quot;q&quot;",
    "'s",
    "R&amp;D",
    "中文字符",
    "日本語のテキスト",
    "데이터",
    "🙂",
)

_SEPARATORS = (" ", " ", " ", "  ", "\n", "\n  ", "\t")

_words = st.lists(
    st.tuples(st.sampled_from(_WORDS), st.sampled_from(_SEPARATORS)), min_size=1, max_size=6
).map(lambda pairs: "".join(word + sep for word, sep in pairs).strip())

_long_text = st.builds(
    lambda n, word: " ".join([word] * n),
    st.integers(5, 40),
    st.sampled_from(("lorem", "ipsum dolor", "a&amp;b", "x", "data-point")),
)

_unbreakable = st.builds(
    lambda n, ch: ch * n,
    st.integers(20, 150),
    st.sampled_from(("x", "中", "&amp;", "ab", "é")),
)

_inline = st.builds(
    lambda tags, inner, tail: f"<{tags[0]}>{inner}</{tags[1]}>{tail}",
    st.sampled_from(
        (("b", "b"), ("i", "i"), ("span", "span"), ('span class="c"', "span"), ('a href="#"', "a"))
    ),
    _words,
    st.sampled_from(("", " ", " tail", "tail ", "\n")),
)

_br = st.sampled_from(("<br>", "<br/>", " <br> ", "<br>\n"))

_markup = st.sampled_from(
    ("<table><tbody><tr><td>nested</td><td>in</td></tr></tbody></table>", "<!-- a  comment -->")
)

_piece = st.one_of(_words, _words, _inline, _br, _long_text, _unbreakable, _markup)

cell_contents = st.one_of(
    st.just(""),
    st.sampled_from((" ", "\n  ", "&nbsp;")),
    _words,
    _words,
    st.lists(_piece, min_size=1, max_size=4).map(" ".join),
    st.lists(_piece, min_size=1, max_size=3).map("".join),
    _long_text,
    _unbreakable,
)
"""The inner HTML of a cell."""

_span_values = st.one_of(
    st.integers(1, 4).map(str),
    st.sampled_from(("0", "2", "3", "9", "x", "-1", " 2 ")),
)

_header_contents = st.one_of(
    st.just(""),
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3).map(" ".join),
    st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3).map(" ".join),
    cell_contents,
)
"""The inner HTML of a header cell: mostly short, so that header repetition is not disabled."""


@functools.cache
def _chance(percent: int) -> st.SearchStrategy[bool]:
    return st.integers(0, 99).map(lambda n: n < percent)


@st.composite
def _cell(draw: st.DrawFn, tag: str | None, span_rate: int, header: bool) -> str:
    tag = tag or draw(st.sampled_from(("td", "td", "td", "th")))
    attrs = ""
    if draw(_chance(span_rate)):
        attrs += f' colspan="{draw(_span_values)}"'
    if draw(_chance(span_rate * 2)):
        attrs += f' rowspan="{draw(_span_values)}"'
    if draw(_chance(10)):
        attrs += ' class="num" style="text-align: right;"'
    return f"<{tag}{attrs}>{draw(_header_contents if header else cell_contents)}</{tag}>"


@functools.cache
def _cells(
    tag: str | None, span_rate: int, header: bool, min_size: int
) -> st.SearchStrategy[list[str]]:
    """Return a strategy for a list of cells, built once: building strategies is costly."""
    return st.lists(_cell(tag, span_rate, header), min_size=min_size, max_size=4)


_corner = st.lists(st.sampled_from(("<td></td>", "<td> </td>")), min_size=1, max_size=2)


@st.composite
def _row(draw: st.DrawFn, span_rate: int, header: bool) -> str:
    if header:
        kind = draw(st.sampled_from(("plain", "th", "th", "corner")))
    else:
        kind = draw(st.sampled_from(("plain", "plain", "plain", "th", "corner", "empty")))
    short = header or kind in ("th", "corner")
    if kind == "empty":
        cells: list[str] = []
    elif kind == "th":
        cells = draw(_cells("th", span_rate, short, 1))
    elif kind == "corner":
        cells = draw(_corner) + draw(_cells("th", span_rate, short, 0))
    else:
        cells = draw(_cells(None, span_rate, short, 1))
    sep = draw(st.sampled_from(("", "", "\n  ")))
    return f"<tr>{sep}{sep.join(cells)}{sep}</tr>"


@functools.cache
def _rows(span_rate: int, header: bool, max_size: int) -> st.SearchStrategy[list[str]]:
    return st.lists(_row(span_rate, header), min_size=1, max_size=max_size)


@st.composite
def html_tables(draw: st.DrawFn, *, max_rows: int = 8, span_rate: int = 15) -> str:
    """Generate the HTML of one `<table>`; `span_rate` percent of cells get a colspan (twice as
    many a rowspan)."""
    rows = _rows(span_rate, False, max_rows)
    header_rows = _rows(span_rate, True, 3)
    parts: list[str] = []
    if draw(_chance(10)):
        parts.append(f"<caption>{draw(_words)}</caption>")
    layout = draw(st.sampled_from(("plain", "plain", "sections", "sections", "mixed")))
    if layout == "plain":
        if draw(st.booleans()):
            parts.extend(draw(header_rows))
        parts.extend(draw(rows))
    else:
        if draw(st.booleans()):
            parts.append(f"<thead>{''.join(draw(header_rows))}</thead>")
        if layout == "mixed":
            parts.extend(draw(rows))
        for _ in range(draw(st.integers(1, 2))):
            parts.append(f"<tbody>{''.join(draw(rows))}</tbody>")
        if draw(_chance(30)):
            parts.append(f"<tfoot>{''.join(draw(rows))}</tfoot>")
    sep = draw(st.sampled_from(("", "\n")))
    attrs = draw(st.sampled_from(("", ' border="1" class="dataframe"')))
    return f"<table{attrs}>{sep}{sep.join(parts)}{sep}</table>"


@st.composite
def spanning_tables(draw: st.DrawFn) -> str:
    """Generate a table dominated by `rowspan`s, so row groups outgrow the window."""
    n_rows = draw(st.integers(2, 10))
    n_cols = draw(st.integers(1, 4))
    rows: list[str] = []
    for _ in range(n_rows):
        cells: list[str] = []
        for _ in range(draw(st.integers(0, n_cols))):
            rowspan = draw(st.sampled_from(("1", "1", "2", "3", "5", "12", "0")))
            colspan = draw(st.sampled_from(("1", "1", "1", "2", "3")))
            text = draw(st.one_of(st.just(""), _words, _long_text, _unbreakable))
            cells.append(f'<td rowspan="{rowspan}" colspan="{colspan}">{text}</td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    # -- header rows, whose rowspans may bind body rows into their group --
    header = draw(st.one_of(st.just([]), _rows(30, True, 2)))
    if draw(st.booleans()):
        cut = draw(st.integers(0, n_rows))
        head = f"<thead>{''.join(header)}</thead>" if header else ""
        body = f"<tbody>{''.join(rows[:cut])}</tbody><tbody>{''.join(rows[cut:])}</tbody>"
        return f"<table>{head}{body}</table>"
    return f"<table>{''.join(header + rows)}</table>"


char_windows = st.one_of(st.integers(50, 160), st.integers(50, 300))
"""Character windows the reference splits by HTML (it splits text alone below 50)."""

token_windows = st.one_of(st.integers(15, 60), st.integers(15, 200))
"""Token windows the reference splits by HTML (it splits text alone below 15)."""


# -- tables the fast path reads (`tables.read.simple_reader`), and near misses --

_SIMPLE_TEXTS = (
    "",
    " ",
    "\n ",
    "a",
    "Item 1",
    "1,234.50",
    "  two  spaces ",
    "\tTab\tand\nline ",
    "a &amp; b",
    "x &lt; y &gt; z",
    "&quot;q&quot; &#39;s&#x27;",
    "non&nbsp;breaking",
    "&nbsp;",
    "1 > 0",
    "naïve 中文 🙂",
    "lorem ipsum dolor sit amet " * 4,
    "x" * 70,
    "line 1<br/>line 2",
    "a <br> b&amp;c",
    "<br>",
    "<br/> <br />\n",
    " x<br />\n  y<br>z ",
    "<br>&nbsp;<br> > ",
)
"""Cell texts within the fast path's grammar."""

_PLAIN_TEXTS = (
    "a",
    "Item 1",
    "1,234.50",
    "naïve 中文 🙂",
    "x" * 70,
    "R2-D2's",
    ("lorem " * 9).strip(),
)
"""Cell texts already compact: no entity, `>`, whitespace other than single inner spaces."""

_NEAR_MISS_TEXTS = (
    "&apos;",
    "&copy; 2024",
    "&#65;",
    "&amp",
    "a & b",
    "a\rb",
    "a\r\nb",
    "\x0cform",
    "ctl\x01",
    "\x85nel",
    "thin\u2009space",
    "<b>bold</b>",
    "a<br>b",
    "<!-- c -->",
    "a</br>b",
    "a<BR>b",
    '<br class="x">',
    "<br/ >",
)
"""Cell texts just outside the fast path's grammar (the lxml path must take them)."""

_RICH_TEXTS = (
    "<b>bold</b> tail",
    "a <b>b</b>",
    "<b> x </b>y",
    "x<i></i>y",
    "<i> </i>",
    '<a href="#x" class="l">link</a> &amp; more',
    '<span colspan="2" rowspan="0" style="s">spanned</span>',
    "<em>one<strong>two</strong></em>three",
    "<p>para one</p><p>para two</p>",
    "<div>\n  block\n</div>\n",
    "line<br>break <b>b<br>c</b>",
    "<th>nested header</th>",
    "<table><tr><td>nested</td><th>table</th></tr></table>",
    "<sup>1</sup>&nbsp;<sub>2</sub>",
    "&lt;tag&gt; &quot;q&quot; &copy; &foo;",
    "<img src='x'>after image",
)
"""Cell contents with inline and block markup, for the tree path."""

_RICH_NEAR_MISS_TEXTS = (
    "<o:p>office</o:p>",
    "<!-- comment --> text",
    "<table><tbody><tr><td>nested body</td></tr></tbody></table>",
    "ctl\x01",
)
"""Cell contents with markup out of the tree path's reach."""

_SIMPLE_ATTRS = (
    "",
    "",
    "",
    ' colspan="2"',
    ' rowspan="2"',
    ' rowspan="3" colspan="2"',
    ' colspan="2" rowspan="0"',
    ' rowspan="0"',
    ' rowspan="9"',
    ' rowspan=" 2 "',
    ' colspan="x" rowspan="-1"',
    ' class="num" style="text-align: right;"',
    ' style="a" rowspan="2" data-x="1"',
    ' id="i" xmlns="x" rowspan="2"',
)

_NEAR_MISS_ATTRS = (
    ' colspan="2" colspan="3"',
    " rowspan=2",
    " rowspan='2'",
    ' ROWSPAN="2"',
    '  colspan="2"',
    ' nowrap colspan="2"',
    ' title="a&amp;b"',
    ' title="a\nb"',
)

_SIMPLE_SEPS = ("", "", "", " ", "\n", "\n  ", "\t")
_NEAR_MISS_SEPS = ("\r\n", "\xa0", "\x0c", "x", "<!-- c -->")


@st.composite
def _simple_cell(draw: st.DrawFn, near_miss: bool, plain: bool, rich: bool = False) -> str:
    tag = draw(st.sampled_from(("td", "td", "td", "th")))
    if plain:
        return f"<{tag}>{draw(st.sampled_from(_PLAIN_TEXTS))}</{tag}>"
    texts: tuple[str, ...] = _SIMPLE_TEXTS + _NEAR_MISS_TEXTS if near_miss else _SIMPLE_TEXTS
    if rich:
        texts = _SIMPLE_TEXTS + _RICH_TEXTS + _RICH_TEXTS
        if near_miss:
            texts += _RICH_NEAR_MISS_TEXTS
    attrs_pool = _SIMPLE_ATTRS + _NEAR_MISS_ATTRS if near_miss else _SIMPLE_ATTRS
    close = tag
    if near_miss and draw(_chance(3)):
        close = "th" if tag == "td" else "td"
    if near_miss and draw(_chance(3)):
        tag = close = tag.upper()
    attrs = draw(st.sampled_from(attrs_pool))
    if draw(_chance(8)):
        return f"<{tag}{attrs}/>"  # -- void, as the reference's partitioners write a blank cell
    return f"<{tag}{attrs}>{draw(st.sampled_from(texts))}</{close}>"


@st.composite
def _simple_row(
    draw: st.DrawFn, near_miss: bool, header: bool, plain: bool, rich: bool = False
) -> str:
    if plain:
        sep = draw(st.sampled_from(("", "", "", "\n  ", " ")))
        cells = draw(st.lists(_simple_cell(False, True), min_size=1, max_size=5))
        return f"<tr>{sep}{sep.join(cells)}{sep}</tr>"
    seps = _SIMPLE_SEPS + _NEAR_MISS_SEPS if near_miss and draw(_chance(10)) else _SIMPLE_SEPS
    sep = draw(st.sampled_from(seps))
    if header and draw(st.booleans()):
        corner = draw(st.lists(st.sampled_from(("<td></td>", "<td> </td>", "<td>x</td>"))))
        cells = corner + [f"<th>{draw(st.sampled_from(_SIMPLE_TEXTS))}</th>" for _ in range(2)]
    else:
        cells = draw(st.lists(_simple_cell(near_miss, False, rich), min_size=0, max_size=5))
    attrs = draw(st.sampled_from(("", "", ' class="r"', ' style="x" class="y"')))
    return f"<tr{attrs}>{sep}{sep.join(cells)}{sep}</tr>"


@st.composite
def simple_tables(
    draw: st.DrawFn,
    *,
    near_miss: bool = False,
    plain: bool = False,
    rich: bool = False,
    max_rows: int = 10,
) -> str:
    """Generate a table within the fast path's grammar or, with `near_miss`, often just outside
    it: sections, headers, attributes, entities, empty and whitespace-only cells and rows, and
    layout whitespace. A `plain` table has only attribute-less rows and cells of compact text,
    often without layout whitespace; a `rich` one has cells with inline and block markup."""
    rows = st.lists(_simple_row(near_miss, False, plain, rich), min_size=0, max_size=max_rows)
    header_rows = st.lists(_simple_row(near_miss, True, plain, rich), min_size=1, max_size=2)
    sep = draw(st.sampled_from(("", "", "\n") if plain else _SIMPLE_SEPS))
    layout = draw(st.sampled_from(("plain", "sections", "sections", "mixed")))
    parts: list[str] = []
    if layout == "plain":
        if draw(st.booleans()):
            parts.extend(draw(header_rows))
        parts.extend(draw(rows))
    else:
        if draw(st.booleans()):
            thead_attrs = "" if plain else draw(st.sampled_from(("", ' class="h"')))
            parts.append(f"<thead{thead_attrs}>{sep}{sep.join(draw(header_rows))}{sep}</thead>")
        if layout == "mixed":
            parts.extend(draw(rows))
        for _ in range(draw(st.integers(1, 2))):
            parts.append(f"<tbody>{sep}{sep.join(draw(rows))}{sep}</tbody>")
        if draw(_chance(30)):
            parts.append(f"<tfoot>{sep.join(draw(rows))}</tfoot>")
        if layout == "mixed":
            parts.extend(draw(rows))
    attrs = draw(st.sampled_from(("", ' border="1" class="dataframe"')))
    table = f"<table{attrs}>{sep}{sep.join(parts)}{sep}</table>"
    if near_miss and draw(_chance(10)):
        table = draw(
            st.sampled_from(
                (
                    f"{table}<p>x</p>",
                    f"text {table}",
                    f"<div>{table}</div>",
                    f"{table} tail",
                    table.replace("</table>", ""),
                    table.replace("<tbody>", "<tbody><thead>", 1),
                    table.replace("<table", "<TABLE", 1),
                )
            )
        )
    return (
        f"{draw(st.sampled_from(('', ' ', chr(10))))}{table}{draw(st.sampled_from(('', chr(10))))}"
    )
