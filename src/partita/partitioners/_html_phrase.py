"""The phrase accumulator: inline text of one HTML block, normalized as it arrives.

`Phrase` collects the text nodes of a block (its own text and that of its inline descendants)
with whitespace collapsed on the fly, so the offsets of links and emphasized runs are offsets
into the finished text. `flush()` returns the text and its link/emphasis metadata and resets.
Characters that are not text (`partita.text._whitespace.NOT_TEXT`) are taken out at the
flush, offsets moved along: a finished text holds none.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from partita.elements import Link
from partita.text._whitespace import LARGE_TEXT, NOT_TEXT, normalize_space

__all__ = ["Phrase"]


class Phrase:
    """Accumulates the normalized inline text of one block, with its links and emphasis.

    Whitespace runs become one space, leading and trailing whitespace is dropped, and a line
    break (`add_break`) becomes a "\\n" unless nothing follows it.
    """

    __slots__ = ("_emphasis", "_length", "_links", "_open_links", "_parts", "_pending")

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._length = 0
        self._pending = ""
        self._links: list[Link] = []
        self._open_links: list[tuple[str, int | None]] = []
        self._emphasis: list[list[Any]] = []

    @property
    def is_empty(self) -> bool:
        """`True` when no text has been added since the last flush."""
        return self._length == 0

    def add_text(self, raw: str, emphasis: str = "") -> None:
        """Append `raw` (a text node), emphasized by `emphasis` ("b", "i", "bi" or "")."""
        if len(raw) < LARGE_TEXT:
            words = raw.split()
            norm = " ".join(words) if words else ""
        else:
            norm = normalize_space(raw)
        if not norm:
            if raw and self._length and not self._pending:
                self._pending = " "
            return
        sep = (self._pending or (" " if raw[0].isspace() else "")) if self._length else ""
        start = self._length + len(sep)
        self._parts.append(sep + norm if sep else norm)
        self._length = start + len(norm)
        self._pending = " " if raw[-1].isspace() else ""
        if self._open_links and self._open_links[-1][1] is None:
            self._open_links = [(url, start if s is None else s) for url, s in self._open_links]
        if emphasis:
            last = self._emphasis[-1] if self._emphasis else None
            if last is not None and last[0] == emphasis and last[2] == start - len(sep):
                last[2] = self._length
            else:
                self._emphasis.append([emphasis, start, self._length])

    def add_break(self) -> None:
        """Append a line break (`<br>`), ignored at the start of the text."""
        if self._length:
            self._pending = "\n"

    def open_link(self, url: str) -> None:
        """Start a link to `url`; its text is whatever is added until `close_link`."""
        self._open_links.append((url, None))

    def close_link(self) -> None:
        """End the innermost open link (recording it when it has text)."""
        if not self._open_links:
            return
        url, start = self._open_links.pop()
        if start is not None and start < self._length:
            self._links.append(Link(text=self._text()[start:], url=url, start_index=start))

    def flush(self) -> tuple[str, dict[str, Any]]:
        """Return the text and its link and emphasis metadata, and start afresh.

        Links still open are cut at the end of this text and continue in the next one.
        """
        text = self._text()
        links = self._links
        for url, start in self._open_links:
            if start is not None and start < len(text):
                links.append(Link(text=text[start:], url=url, start_index=start))
        emphasis = self._emphasis
        if not text.isprintable() and NOT_TEXT.search(text) is not None:
            text, links, emphasis = _without_not_text(text, links, emphasis)
        meta: dict[str, Any] = {}
        if links:
            links.sort(key=lambda link: link.start_index or 0)
            meta["links"] = tuple(links)
            meta["link_texts"] = tuple(link.text or "" for link in links)
            meta["link_urls"] = tuple(link.url for link in links)
        if emphasis:
            meta["emphasized_text_contents"] = tuple(text[s:e] for _, s, e in emphasis)
            meta["emphasized_text_tags"] = tuple(tag for tag, _, _ in emphasis)
        self._parts = []
        self._length = 0
        self._pending = ""
        self._links = []
        self._open_links = [(url, None) for url, _ in self._open_links]
        self._emphasis = []
        return text, meta

    def _text(self) -> str:
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""


_WHITESPACE_TO_COLLAPSE = re.compile(r"^[ \n]+|[ \n]+$|[ \n]{2,}")


def _without_not_text(
    text: str, links: list[Link], emphasis: list[list[Any]]
) -> tuple[str, list[Link], list[list[Any]]]:
    """Return normalized `text` without its `NOT_TEXT` characters (C0 controls dropped, the others
    replaced by U+FFFD), whitespace normalized again where a dropped character sat between two
    spaces, and `links` and `emphasis` spans moved to the new offsets (empty ones dropped)."""
    pieces: list[str] = []
    dropped: list[int] = []
    last = 0
    for match in NOT_TEXT.finditer(text):
        at = match.start()
        pieces.append(text[last:at])
        if ord(text[at]) >= 0xD800:
            pieces.append("\ufffd")
        else:
            dropped.append(at)
        last = at + 1
    pieces.append(text[last:])
    stripped = "".join(pieces)
    collapsed: list[int] = []
    kept: list[str] = []
    last = 0
    for match in _WHITESPACE_TO_COLLAPSE.finditer(stripped):
        start, end = match.span()
        run = match.group()
        keep = "" if start == 0 or end == len(stripped) else ("\n" if "\n" in run else " ")
        kept.append(stripped[last:start] + keep)
        collapsed.extend(range(start + len(keep), end))
        last = end
    kept.append(stripped[last:])
    result = "".join(kept)

    def moved(offset: int) -> int:
        offset -= bisect.bisect_left(dropped, offset)
        return offset - bisect.bisect_left(collapsed, offset)

    new_links = []
    for link in links:
        start = link.start_index or 0
        new_start, new_end = moved(start), moved(start + len(link.text or ""))
        if new_end > new_start:
            new_links.append(
                Link(text=result[new_start:new_end], url=link.url, start_index=new_start)
            )
    new_emphasis = [[tag, moved(s), moved(e)] for tag, s, e in emphasis if moved(e) > moved(s)]
    return result, new_links, new_emphasis
