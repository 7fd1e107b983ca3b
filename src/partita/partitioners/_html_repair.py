"""Where libxml2's tree differs from a browser's, moving content to where a browser shows it.

lxml parses with libxml2, whose HTML parser tokenizes as HTML5 does but builds the tree by
older rules. Where its tree would make text a browser shows disappear from the walk, the tree is
changed here before the walk, by moving elements only (never by writing a string into the tree:
lxml's setters refuse characters the document may hold):

- **Content after `</body>` or `</html>`.** libxml2 leaves it after `<body>` in `<html>`, or
  in a second root element; browsers append it to the body. The second roots are moved into the
  first (`gather_content_outside_body`), and `start_of_content` then starts the walk at
  `<html>` rather than `<body>` (the real `<head>` is dropped there as anywhere).
- **HTML in an unclosed `<svg>`.** An HTML tag such as `<p>` ends the SVG to a browser;
  libxml2 nests everything after it in the `<svg>`, which is dropped. It is moved out
  (`break_out_of_svg`).
- **A `<head>` after the body** (or a second one) is no head to a browser, which ignores the tag
  and shows its content; it becomes a `<div>` (its `<title>`, `<meta>`, `<style>` and
  `<script>` are dropped as anywhere else).

Content misplaced in a table (text or an element that is no table part directly in `<table>`,
a row group or a row), which browsers "foster-parent" before the table, needs no move: the table
reader finds it while it reads the rows (`_html_tables.TableContent.misplaced`) and the walk
gives it before the table (a misplaced `<table>`, which closes the table to browsers, after it).
Cells directly in a table or a row group (no `<tr>`) are an implied row, to browsers and there.
"""

from __future__ import annotations

from lxml import etree

__all__ = ["break_out_of_svg", "gather_content_outside_body", "start_of_content"]

_BREAKOUT_TAGS = frozenset(
    {
        *("b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt"),
        *("em", "embed", "h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li"),
        *("listing", "menu", "meta", "nobr", "ol", "p", "pre", "ruby", "s", "small", "span"),
        *("strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var"),
    }
)
"""HTML tags that end foreign content (SVG, MathML) to a browser (and `font` with `color`,
`face` or `size`)."""
_SVG_HTML_POINTS = frozenset({"foreignobject", "foreignObject", "desc", "title"})
"""SVG elements whose content is HTML: breakout tags inside them do not end the SVG."""


def gather_content_outside_body(root: etree._Element) -> bool:
    """Move the second root elements after `root` (content after `</html>`) into it, turn a
    `<head>` after the body into a `<div>`, and return True when content lies outside the body
    (after `</body>` or `</html>`, or no body at all)."""
    for stray in list(root.itersiblings()):
        if isinstance(stray.tag, str):
            root.append(stray)
    body = root.find("body")
    if body is None:
        return True
    outside = bool(body.tail and not body.tail.isspace())
    for element in body.itersiblings():
        outside = True
        if element.tag == "head":
            element.tag = "div"
    return outside


def start_of_content(root: etree._Element, *, outside_body: bool) -> etree._Element:
    """Return the element whose walk covers the text a browser shows of the document `root`:
    its first visible `<main>`, else `<body>`, else `root` itself when `outside_body`."""
    for main in root.iter("main"):
        if main.get("hidden") is None and main.get("aria-hidden") != "true":
            return main
    body = None if outside_body else root.find("body")
    return body if body is not None else root


def break_out_of_svg(root: etree._Element) -> None:
    """Move the HTML that libxml2 nests in an unclosed `<svg>` out of it, as browsers read it
    (to just after the `<svg>`'s own element: the text after `</svg>` stays before it).

    In an `<svg>`, an HTML tag such as `<p>`, `<div>`, `<b>` or `<table>` ends the SVG to a
    browser (the HTML standard's "breakout" tags): it and everything after it are HTML. libxml2
    knows no SVG and keeps nesting them in the `<svg>`, which partita drops with its content.
    Here the first breakout element and everything after it move after the `<svg>`; an element
    of the SVG that held them moves too, for the text after it, renamed `svg` (so the walk still
    drops its SVG content but keeps that text).
    """
    for svg in list(root.iter("svg")):
        breakout = _first_breakout(svg)
        if breakout is None:
            continue
        chain: list[etree._Element] = []
        node = breakout
        while node is not svg:
            chain.append(node)
            parent = node.getparent()
            assert parent is not None
            node = parent
        anchor = svg
        for node in chain:
            if node is not breakout:
                node.tag = "svg"
            for element in [node, *node.itersiblings()]:
                anchor.addnext(element)
                anchor = element


def _first_breakout(svg: etree._Element) -> etree._Element | None:
    """Return the first element under `svg` (in document order, outside its HTML integration
    points) whose tag makes a browser leave SVG, or None."""
    walker = etree.iterwalk(svg, events=("start",))
    for _, element in walker:
        assert isinstance(element, etree._Element)
        tag = element.tag
        if not isinstance(tag, str) or element is svg:
            continue
        if tag in _SVG_HTML_POINTS:
            walker.skip_subtree()
        elif tag in _BREAKOUT_TAGS or (
            tag == "font" and any(k in element.attrib for k in ("color", "face", "size"))
        ):
            return element
    return None
