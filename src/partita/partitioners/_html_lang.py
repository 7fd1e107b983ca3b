"""Language tags (`lang="en-US"`, front matter `lang: de`) to ISO 639-3 codes, as `languages`."""

from __future__ import annotations

import functools

__all__ = ["language_codes"]

_ISO_639_1_TO_3 = {
    "af": "afr", "ar": "ara", "bg": "bul", "bn": "ben", "ca": "cat", "cs": "ces", "cy": "cym",
    "da": "dan", "de": "deu", "el": "ell", "en": "eng", "es": "spa", "et": "est", "eu": "eus",
    "fa": "fas", "fi": "fin", "fr": "fra", "ga": "gle", "gl": "glg", "gu": "guj", "he": "heb",
    "hi": "hin", "hr": "hrv", "hu": "hun", "hy": "hye", "id": "ind", "is": "isl", "it": "ita",
    "ja": "jpn", "ka": "kat", "kk": "kaz", "kn": "kan", "ko": "kor", "lt": "lit", "lv": "lav",
    "mk": "mkd", "ml": "mal", "mr": "mar", "ms": "msa", "mt": "mlt", "nb": "nob", "ne": "nep",
    "nl": "nld", "nn": "nno", "no": "nor", "pa": "pan", "pl": "pol", "pt": "por", "ro": "ron",
    "ru": "rus", "sk": "slk", "sl": "slv", "sq": "sqi", "sr": "srp", "sv": "swe", "sw": "swa",
    "ta": "tam", "te": "tel", "th": "tha", "tl": "tgl", "tr": "tur", "uk": "ukr", "ur": "urd",
    "uz": "uzb", "vi": "vie", "zh": "zho",
}  # fmt: skip
"""The ISO 639-1 codes of the languages the reference's detector reports, to ISO 639-3."""


@functools.lru_cache(maxsize=64)
def language_codes(tag: str) -> tuple[str, ...] | None:
    """Return `(iso_639_3,)` for a BCP 47 language `tag` ("en", "en-US", "deu", "zh_Hant"), or
    None when the tag is empty or names no language this table knows."""
    primary = tag.strip().replace("_", "-").split("-", 1)[0].lower()
    if len(primary) == 3 and primary.isalpha() and primary in _ISO_639_1_TO_3.values():
        return (primary,)
    code = _ISO_639_1_TO_3.get(primary)
    return (code,) if code else None
