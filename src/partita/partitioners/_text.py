"""Line patterns the partitioners share: bullets, list numbers and page numbers."""

from __future__ import annotations

import re

__all__ = ["BULLET_LINE", "NUMBERED_LINE", "PAGE_NUMBER"]

BULLET_LINE = re.compile(r"^[ \t]*([•●○◦▪▫■□‣⁃∙·⦿⦾◆◇►▸▹–—*+\-])[ \t\u00a0\u3000]+(?=\S)")
"""A line that starts with a bullet and a space; group 1 is the bullet."""

NUMBERED_LINE = re.compile(
    r"^[ \t]*(?:(?:\(?\d{1,3}[.)]|[a-z][.)]|\([a-zA-Z]\)|\([ivxlcdm]{1,5}\)|[ivxlcdm]{1,5}[.)])"
    r"[ \t\u00a0\u3000]+|(?:[一二三四五六七八九十百]+|\d{1,3})[、．][ \t\u3000]*)(?=\S)"
)
"""A line that starts with a list number such as `1.`, `2)`, `(3)`, `a.`, `iv)`, `一、`."""

PAGE_NUMBER = re.compile(
    r"^(?:(?:page|p\.|seite|página|pagina|страница|페이지)\s*)?[-–—(\[]?\s*"
    r"(?:\d{1,4}|(?=[ivxlcdm])m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3}))\s*[-–—)\]]?(?:\s*(?:of|/|von|de|sur|из)\s*\d{1,4})?$"
    r"|^第\s*\d{1,4}\s*[页頁]",
    re.IGNORECASE,
)
"""A page number on its own, trimmed: "7", "- 7 -", "(7)", "Page 7", "Page 7 of 20", "vii" (a
well-formed roman numeral: "civil" is no page number),
"第7页"."""
