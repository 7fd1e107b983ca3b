"""The remainder of a split text, held without copying: a short head before a suffix of a root.

Splitting an oversized text returns, after each fragment, a remainder that is an overlap tail, a
space, and the rest of the text. Building that remainder as a string copies the rest of the text
at every split, which makes splitting quadratic in the text's length. A `TextTail` is that
string, `head + root[start:]`, without the copy: the splitters read only a window at its start,
so the work per piece is bounded by the window, not by the text.
"""

from __future__ import annotations

import re

__all__ = ["TextTail"]

_NON_SPACE = re.compile(r"\S")


class TextTail:
    """The string `head + root[start:]`; `head` is short (an overlap tail and a space, or "")."""

    __slots__ = ("head", "root", "start")

    def __init__(self, head: str, root: str, start: int) -> None:
        self.head = head
        self.root = root
        self.start = start

    def __len__(self) -> int:
        return len(self.head) + len(self.root) - self.start

    def __str__(self) -> str:
        return self.head + self.root[self.start :] if self.head else self.root[self.start :]

    def prefix(self, k: int) -> str:
        """`str(self)[:k]`, copying only those characters."""
        head = self.head
        if k <= len(head):
            return head[:k]
        rest = self.root[self.start : self.start + k - len(head)]
        return head + rest if head else rest

    def suffix(self, offset: int) -> TextTail:
        """`str(self)[offset:]`, as a `TextTail`."""
        head = self.head
        if offset < len(head):
            return TextTail(head[offset:], self.root, self.start)
        return TextTail("", self.root, self.start + offset - len(head))

    def first_non_space(self, pos: int) -> int:
        """The index of the first non-whitespace character at or after `pos`, or `len(self)`."""
        head = self.head
        if pos < len(head):
            match = _NON_SPACE.search(head, pos)
            if match is not None:
                return match.start()
            pos = len(head)
        match = _NON_SPACE.search(self.root, self.start + pos - len(head))
        if match is None:
            return len(self)
        return match.start() - self.start + len(head)

    def lstripped(self) -> TextTail:
        """`str(self).lstrip()`, as a `TextTail`."""
        return self.suffix(self.first_non_space(0))

    def with_head(self, head: str) -> TextTail:
        """`head + str(self)`, for a `self` whose own head is empty (or short)."""
        return TextTail(head + self.head, self.root, self.start)
