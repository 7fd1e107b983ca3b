"""`tests.shared`: a test lacking what it needs skips saying why, or fails under
`PARTITA_REQUIRE_ALL=1`; and every test and benchmark finds the shared material through it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests import shared

MISSING = "partita_no_such_module"


def test_a_missing_module_skips_naming_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared, "REQUIRE_ALL", False)
    reason = re.escape(f"needs {MISSING}, from the embed extra: pip install '.[embed]'")
    with pytest.raises(pytest.skip.Exception, match=reason):
        shared.require_module(MISSING, extra="embed")


def test_under_require_all_a_missing_module_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared, "REQUIRE_ALL", True)
    with pytest.raises(pytest.fail.Exception, match=r"needs .* \[PARTITA_REQUIRE_ALL=1"):
        shared.require_module(MISSING, extra="embed")


def test_a_module_that_fails_inside_is_an_error_not_a_skip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "partita_broken_module.py").write_text(f"import {MISSING}\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ModuleNotFoundError, match=MISSING):
        shared.require_module("partita_broken_module", extra="test")


def test_a_missing_program_skips_naming_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shared, "REQUIRE_ALL", False)
    with pytest.raises(pytest.skip.Exception, match="not on PATH: apt-get install it"):
        shared.require_program("partita-no-such-program", install="apt-get install it")


def test_without_the_corpus_its_tests_skip_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared, "REQUIRE_ALL", False)
    monkeypatch.setattr(shared, "CORPUS", tmp_path / "corpus")
    # -- one placeholder parameter, so a parametrized corpus test is collected and skipped --
    assert shared.corpus_files("*.pdf") == [shared._NO_CORPUS]
    with pytest.raises(
        pytest.skip.Exception, match=r"the shared corpus is missing.*PARTITA_SHARED"
    ):
        shared.shared_corpus()
    with pytest.raises(FileNotFoundError, match="the shared corpus is missing"):
        shared.find_corpus()  # -- the fuzzers, outside pytest --
    monkeypatch.setattr(shared, "REQUIRE_ALL", True)
    with pytest.raises(pytest.fail.Exception, match="the shared corpus is missing"):
        shared.shared_corpus()


def test_with_the_corpus_its_files_are_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    corpus = tmp_path / "corpus"
    (corpus / "a").mkdir(parents=True)
    for name in ("manifest.tsv", "a/x.pdf", "a/y.md", "z.pdf"):
        (corpus / name).write_text("", encoding="utf-8")
    monkeypatch.setattr(shared, "CORPUS", corpus)
    assert shared.shared_corpus() == corpus
    assert shared.corpus_files("*.pdf", "*.md") == [
        corpus / "a/x.pdf",
        corpus / "a/y.md",
        corpus / "z.pdf",
    ]


def test_no_test_or_benchmark_finds_the_shared_material_its_own_way() -> None:
    own_way = re.compile(r"""/ "shared"|importorskip\(""")
    sources = [*(shared.REPO / "tests").rglob("*.py"), *(shared.REPO / "benchmarks").rglob("*.py")]
    offenders = [
        str(path.relative_to(shared.REPO))
        for path in sources
        if path not in (Path(shared.__file__), Path(__file__))
        and own_way.search(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "use tests.shared (SHARED, CORPUS, shared_corpus, require_module)"
