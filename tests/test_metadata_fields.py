"""The one table of metadata fields (`ElementMetadata`'s declarations) and of element types."""

from __future__ import annotations

import dataclasses
import typing

import partita
from partita import elements
from partita._metadata_fields import ChunkRule, JsonForm
from partita.elements import ELEMENT_TYPES, METADATA_FIELDS, Element, ElementMetadata


def test_every_declared_field_but_extra_has_a_spec() -> None:
    names = [f.name for f in dataclasses.fields(ElementMetadata)]
    assert names[-1] == "extra"
    assert list(METADATA_FIELDS) == names[:-1]


def test_specs_use_the_vocabulary() -> None:
    forms, rules = set(typing.get_args(JsonForm)), set(typing.get_args(ChunkRule))
    for name, spec in METADATA_FIELDS.items():
        assert spec.json in forms, name
        assert spec.chunk in rules, name
    # -- the one field never written: the reference's debugging aid --
    assert [n for n, s in METADATA_FIELDS.items() if s.json == "unwritten"] == ["detection_origin"]


def _subclasses(cls: type[Element]) -> set[type[Element]]:
    found = set(cls.__subclasses__())
    for sub in list(found):
        found |= _subclasses(sub)
    return found


def test_element_types_are_every_element_class_one_per_category() -> None:
    # -- a slots dataclass (`CheckBox`) replaces its class: the module's name holds the one --
    defined = {c for c in _subclasses(Element) if getattr(elements, c.__name__, None) is c}
    assert set(ELEMENT_TYPES) == defined
    assert len({cls.category for cls in ELEMENT_TYPES}) == len(ELEMENT_TYPES)


def test_the_package_exports_every_element_type() -> None:
    for cls in ELEMENT_TYPES:
        assert getattr(partita, cls.__name__) is cls
        assert cls.__name__ in elements.__all__
