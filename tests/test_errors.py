"""Typed errors: every one pickles whole (batches send them between processes)."""

from __future__ import annotations

import pickle

import pytest

from partita import errors

CASES = [
    errors.DocumentError("corrupt", filename="a.docx"),
    errors.DocumentLimitError("too big", filename="a.pdf", limit="decompressed size"),
    errors.DocumentTimeoutError("took longer than 2 s", filename="b.pdf", limit=2.0),
    errors.DocumentMemoryError("needed more than 1 GiB", filename="c.pdf", limit=2.0**30),
    errors.WorkerCrashError(filename="d.pdf", reason="killed by SIGSEGV"),
    errors.InternalError(filename="e.html", type_name="KeyError", message="'x'", traceback="tb"),
    errors.FileReadError("cannot read f.txt: No such file"),
    errors.UnsupportedFormatError("g.zip: zip is not supported", format="zip"),
    errors.MalformedJSONError("not JSON", position="line 3"),
    errors.UnknownElementTypeError("Nope", position="element 2"),
]


@pytest.mark.parametrize("error", CASES, ids=lambda e: type(e).__name__)
def test_errors_pickle_with_their_attributes(error: errors.PartitaError) -> None:
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is type(error)
    assert str(again) == str(error)
    assert again.__dict__ == error.__dict__


def test_limit_errors_kinds_and_messages() -> None:
    assert isinstance(CASES[2], errors.LimitExceededError)
    assert isinstance(CASES[3], errors.LimitExceededError)
    assert isinstance(CASES[1], errors.DocumentError)
    assert str(CASES[1]) == "a.pdf: too big"
    assert str(CASES[4]) == "d.pdf: the worker process died (killed by SIGSEGV)"


def test_every_public_error_is_listed() -> None:
    public = {
        name
        for name, value in vars(errors).items()
        if isinstance(value, type)
        and issubclass(value, (errors.PartitaError, Warning))
        and value.__module__ == errors.__name__
    }
    assert public | {"one_line"} == set(errors.__all__)


def test_one_line_keeps_partitas_own_last_line() -> None:
    wrapped = ValueError(
        "Unknown encoding nope.\nPlugins found: []\n\nUnknown tokenizer name 'nope'"
    )
    assert errors.one_line(wrapped) == "Unknown tokenizer name 'nope'"
    assert errors.one_line("  single  ") == "single"


def _nested(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "type_value",
    [_nested(5_000), ["x"] * 100_000, "T" * 1_000_000, {"k" * 10_000: _nested(900)}],
    ids=["nested-5000", "long-list", "1M-string", "dict"],
)
def test_unknown_type_errors_stay_small_and_pickle(type_value: object) -> None:
    # -- a fuzzed elements JSON gave a type nested a thousand deep: the error's message and
    # -- pickle (a worker sends it back) must not carry it --
    error = errors.UnknownElementTypeError(type_value, position="element 0")
    assert len(str(error)) < 400
    assert isinstance(error.type_name, str)
    assert len(error.type_name) < 400
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error)


def test_unknown_type_errors_keep_a_short_type_name_as_read() -> None:
    error = errors.UnknownElementTypeError("Nope", position="element 2")
    assert error.type_name == "Nope"
    assert str(error) == "unknown element type 'Nope' (at element 2)"


def test_a_deeply_nested_type_read_from_json_is_a_small_typed_error() -> None:
    import partita

    text = '[{"type": ' + "[" * 3_000 + "]" * 3_000 + ', "text": "x"}]'
    with pytest.raises(errors.SerializationError) as caught:
        partita.elements_from_json(text=text)
    pickle.loads(pickle.dumps(caught.value))
    assert len(str(caught.value)) < 400
