"""Line patterns the text-based partitioners share: bullets and list numbers."""

from __future__ import annotations

import re

__all__ = ["BULLET_LINE", "NUMBERED_LINE"]

BULLET_LINE = re.compile(r"^[ \t]*([•●○◦▪▫■□‣⁃∙·⦿⦾◆◇►▸▹–—*+\-])[ \t\u00a0\u3000]+(?=\S)")
"""A line that starts with a bullet and a space; group 1 is the bullet."""

NUMBERED_LINE = re.compile(
    r"^[ \t]*(?:(?:\(?\d{1,3}[.)]|[a-z][.)]|\([a-zA-Z]\)|\([ivxlcdm]{1,5}\)|[ivxlcdm]{1,5}[.)])"
    r"[ \t\u00a0\u3000]+|(?:[一二三四五六七八九十百]+|\d{1,3})[、．][ \t\u3000]*)(?=\S)"
)
"""A line that starts with a list number such as `1.`, `2)`, `(3)`, `a.`, `iv)`, `一、`."""
