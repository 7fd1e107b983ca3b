"""The PDFium functions the character source calls per character or per object, with
prototypes of its own.

pypdfium2's raw bindings return typed pointers (`LP_struct_fpdf_pageobject_t__`), which cost a
conversion to compare, and convert every argument; the functions here return plain addresses
(`int`), so a text object can key a dictionary, and those called once per character take their
arguments unconverted (see `_per_character`). They are new function objects on
pypdfium2's own library handle: pypdfium2's prototypes are left as they are.
"""

from __future__ import annotations

import ctypes
from typing import Any

import pypdfium2_raw.bindings as _bindings  # type: ignore[import-untyped]

__all__ = [
    "FS_MATRIX",
    "FS_RECTF",
    "address",
    "count_form_objects",
    "count_page_objects",
    "count_segments",
    "get_base_font_name",
    "get_bounds",
    "get_char_origin",
    "get_font_flags",
    "get_form_object",
    "get_loose_char_box",
    "get_matrix",
    "get_object_type",
    "get_page_object",
    "get_path_segment",
    "get_segment_close",
    "get_segment_point",
    "get_segment_type",
    "get_text_font",
    "get_text_font_size",
    "get_text_object",
    "has_unicode_map_error",
]

FS_RECTF: Any = _bindings.FS_RECTF
FS_MATRIX: Any = _bindings.FS_MATRIX

_LIBRARY: Any = next(iter(_bindings._libs.values()))
_P = ctypes.c_void_p


def _function(name: str, restype: Any, *argtypes: Any) -> Any:
    """A new function object for `name` (not pypdfium2's) with this prototype."""
    function = _LIBRARY[name]
    function.restype = restype
    function.argtypes = argtypes
    return function


def _per_character(name: str, restype: Any) -> Any:
    """A new function object for `name` returning `restype`, called once per character: no
    argument types are set, since ctypes' conversion of each argument costs more than the call.
    Callers pass the text page as a `c_void_p`, indexes as Python ints, pointers as `byref`."""
    function = _LIBRARY[name]
    function.restype = restype
    return function


def address(handle: Any) -> int:
    """The address a pypdfium2 raw handle points to."""
    value = ctypes.cast(handle, _P).value
    return int(value or 0)


get_text_object = _per_character("FPDFText_GetTextObject", _P)
get_loose_char_box = _per_character("FPDFText_GetLooseCharBox", ctypes.c_int)
get_char_origin = _per_character("FPDFText_GetCharOrigin", ctypes.c_int)
get_text_font_size = _function(
    "FPDFTextObj_GetFontSize", ctypes.c_int, _P, ctypes.POINTER(ctypes.c_float)
)
get_matrix = _function("FPDFPageObj_GetMatrix", ctypes.c_int, _P, ctypes.POINTER(FS_MATRIX))
get_text_font = _function("FPDFTextObj_GetFont", _P, _P)
_FLOAT_P = ctypes.POINTER(ctypes.c_float)
get_bounds = _function(
    "FPDFPageObj_GetBounds", ctypes.c_int, _P, _FLOAT_P, _FLOAT_P, _FLOAT_P, _FLOAT_P
)
get_font_flags = _function("FPDFFont_GetFlags", ctypes.c_int, _P)
has_unicode_map_error = _per_character("FPDFText_HasUnicodeMapError", ctypes.c_int)
get_base_font_name = _function(
    "FPDFFont_GetBaseFontName", ctypes.c_size_t, _P, ctypes.c_char_p, ctypes.c_size_t
)
count_page_objects = _function("FPDFPage_CountObjects", ctypes.c_int, _P)
get_page_object = _function("FPDFPage_GetObject", _P, _P, ctypes.c_int)
count_form_objects = _function("FPDFFormObj_CountObjects", ctypes.c_int, _P)
get_form_object = _function("FPDFFormObj_GetObject", _P, _P, ctypes.c_ulong)
get_object_type = _function("FPDFPageObj_GetType", ctypes.c_int, _P)
count_segments = _function("FPDFPath_CountSegments", ctypes.c_int, _P)
get_path_segment = _function("FPDFPath_GetPathSegment", _P, _P, ctypes.c_int)
get_segment_point = _function(
    "FPDFPathSegment_GetPoint",
    ctypes.c_int,
    _P,
    ctypes.POINTER(ctypes.c_float),
    ctypes.POINTER(ctypes.c_float),
)
get_segment_type = _function("FPDFPathSegment_GetType", ctypes.c_int, _P)
get_segment_close = _function("FPDFPathSegment_GetClose", ctypes.c_int, _P)
