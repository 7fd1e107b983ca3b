"""Hostile HTML, Markdown and plain-text files, and files that attack format detection.

Each builder is deterministic and fast; the files are tiny unless the attack needs size (a text
node or a data URI over libxml2's 10 MB limit, Markdown whose cost grows with its nesting bound).
The regression tests of the exact behaviour are in `tests/partitioners/test_html_hostile.py`,
`test_markdown_hostile.py` and `test_text_hostile.py`.
"""

from __future__ import annotations

from tests.robustness.cases import HostileCase

__all__ = ["CASES", "DECLARED_CHARSETS_NOT_TEXT", "declared_charset_page"]

DECLARED_CHARSETS_NOT_TEXT = ("rot13", "zlib", "base64", "hex", "uu", "undefined")
"""Python codec names that are no text encoding (bytes-to-bytes, text-to-text, or failing)."""


def declared_charset_page(label: str, body: str = "caf\u00e9 na\u00efve") -> bytes:
    """Return a page declaring `<meta charset=label>` whose text is `body`, in UTF-8."""
    return f'<html><head><meta charset="{label}"></head><body><p>{body}</p></body></html>'.encode()


def _comment_run() -> bytes:
    # -- 30 empty comments and no tag: a backtracking detection regex took 2**n steps --
    return b"<!---->" * 30 + b"<zz>"


def _declared_cp037() -> bytes:
    return b'<meta charset="cp037"><p>plain ASCII text</p>'


def _declared_unicode_escape() -> bytes:
    return b'<meta charset="unicode_escape"><p>C:\\new\\table \\x41</p>'


def _huge_text_node() -> bytes:
    return b"<p>" + b"word " * (3 << 20) + b"</p>"


def _huge_data_uri() -> bytes:
    return (
        b'<p>before <img alt="pic" src="data:image/png;base64,'
        + b"A" * (12 << 20)
        + b'"> after</p>'
    )


def _deep_nesting() -> bytes:
    return b"<div>" * 3000 + b"lost?" + b"</div>" * 3000


def _attribute_flood() -> bytes:
    # -- libxml2 compares each attribute with every earlier one: 100,000 took minutes --
    return b"<p " + b" ".join(b"a%d" % i for i in range(100_000)) + b">text</p>"


def _element_flood() -> bytes:
    return b"<p>a</p>" * 250_000


def _link_across_blocks() -> bytes:
    # -- an open link continues into every following block: its URL is in each element --
    return b'<a href="/' + b"u" * (1 << 20) + b'">' + b"<p>x</p>" * 300


def _oversized_document() -> bytes:
    return b"<p>" + b"word " * ((49 << 20) // 5) + b"</p>"


def _reference_at_every_use() -> bytes:
    return b"[x]: /" + b"u" * (1 << 20) + b"\n\n" + b"[a][x] " * 300 + b"\n"


def _front_matter_in_every_element() -> bytes:
    return b"---\nkey: " + b"v" * (1 << 20) + b"\n---\n\n" + b"para\n\n" * 300


def _lazy_lines_in_deep_quote() -> bytes:
    # -- markdown-it reads each lazy line again at each of the 98 levels: a minute --
    return b">" * 98 + b" a\n" + b"b\n" * 90_000


def _deep_list() -> bytes:
    return "".join("  " * level + "- item\n" for level in range(60)).encode()


CASES: list[HostileCase] = [
    HostileCase(
        "html/control-character-in-table-cell",
        "cell.html",
        lambda: b"<table><tr><td>a\x01b</td><td><p>c\x0cd</p>e\x1b</td></tr></table>",
    ),
    HostileCase(
        "html/control-character-reference-in-table-cell",
        "cell-reference.html",
        lambda: b"<table><tr><td><div>a&#1;b</div>&#xFFFE;c&#x0B;</td></tr></table>",
    ),
    HostileCase(
        "html/control-characters-around-a-link",
        "link.html",
        lambda: b'<p>\x01 see <a href="/u">the\x02 <b>li\x7fnk</b></a> \x03</p>',
    ),
    HostileCase(
        "md/control-character-in-table-and-html-block",
        "cell.md",
        lambda: b"|a\x01|b|\n|-|-|\n|c\x02|d|\n\n<table><tr><td>e\x03f</td></tr></table>\n",
    ),
    HostileCase("detect/comment-run-without-tag", "comments.txt", _comment_run),
    *(
        HostileCase(
            f"html/meta-charset-{label}",
            f"charset-{label}.html",
            lambda label=label: declared_charset_page(label),
        )
        for label in DECLARED_CHARSETS_NOT_TEXT
    ),
    HostileCase("html/meta-charset-cp037", "cp037.html", _declared_cp037),
    HostileCase(
        "html/meta-charset-unicode-escape", "unicode-escape.html", _declared_unicode_escape
    ),
    HostileCase("html/text-node-over-10-mb", "big-text.html", _huge_text_node),
    HostileCase("html/data-uri-over-10-mb", "big-uri.html", _huge_data_uri),
    HostileCase(
        "html/content-after-html-end",
        "after-end.html",
        lambda: b"<html><body><p>alpha</p></body></html><p>beta</p>gamma</body> delta",
    ),
    HostileCase(
        "html/bare-text-in-table",
        "table-text.html",
        lambda: b"<table>alpha<tr><td>beta</td> gamma </tr><div>delta</div></table>",
    ),
    HostileCase(
        "html/head-after-body",
        "late-head.html",
        lambda: b"<body><p>alpha</p></body><head><title>t</title><p>beta</p></head><p>gamma</p>",
    ),
    HostileCase(
        "html/html-in-unclosed-svg",
        "svg.html",
        lambda: b"<p>alpha</p><svg><g><text>label</text><p>beta</p>gamma</g>delta",
    ),
    HostileCase(
        "html/misplaced-table-content-nested-deep",
        "fostered.html",
        lambda: b"<table><tr><td>c</td></tr><div>d " * 1_000,
    ),
    HostileCase("html/nesting-past-libxml2-limit", "deep.html", _deep_nesting),
    HostileCase("html/attribute-flood-in-one-tag", "attributes.html", _attribute_flood),
    HostileCase("html/element-flood", "elements.html", _element_flood),
    HostileCase("html/link-url-repeated-across-blocks", "link-url.html", _link_across_blocks),
    HostileCase("html/document-over-size-bound", "huge.html", _oversized_document),
    HostileCase("md/reference-url-at-every-use", "references.md", _reference_at_every_use),
    HostileCase("md/unclosed-brackets", "brackets.md", lambda: b"[" * 140_000 + b"a"),
    HostileCase("md/unclosed-image-brackets", "images.md", lambda: b"![" * 70_000 + b"a"),
    HostileCase("md/unclosed-footnote-references", "footnotes.md", lambda: b"[^" * 70_000),
    HostileCase("md/lazy-lines-in-deep-quote", "quote.md", _lazy_lines_in_deep_quote),
    HostileCase("md/emphasis-flood", "emphasis.md", lambda: b"*a" * 600_000),
    HostileCase("md/empty-list-item-flood", "items.md", lambda: b"-\n" * 600_000),
    HostileCase("md/list-nested-60-deep", "deep-list.md", _deep_list),
    HostileCase(
        "md/backtick-runs",
        "backticks.md",
        lambda: b"".join(b"`" * (i % 100 + 1) + b"a" for i in range(2_000)),
    ),
    HostileCase(
        "md/deep-emphasis-and-links",
        "nested.md",
        lambda: b"*" * 5_000 + b"[" * 5_000 + b"a" + b"](u)" * 5_000 + b"*" * 5_000,
    ),
    HostileCase(
        "text/long-cjk-line-before-a-block",
        "cjk.txt",
        lambda: "\u4e2d".encode() * 4_000_000 + b"\n\nb",
    ),
    HostileCase("text/many-blank-lines", "blank.txt", lambda: b"\n" * 4_000_000 + b"a"),
    HostileCase(
        "text/long-line-of-spaces", "spaces.txt", lambda: b"a" + b" " * 4_000_000 + b"b\n\nc"
    ),
    HostileCase("text/utf16-bom-odd-length", "odd.txt", lambda: b"\xff\xfea\x00b\x00c"),
    HostileCase(
        "md/front-matter-in-every-element", "front-matter.md", _front_matter_in_every_element
    ),
]
