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
    assert public == set(errors.__all__)
