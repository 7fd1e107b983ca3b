"""The public surface of `partita` is exactly what `__all__` names, sorted."""

from __future__ import annotations

from pathlib import Path

import partita


def test_all_is_sorted_and_complete() -> None:
    # -- the format partitioners load on first access: `dir` names them before that --
    public = {name for name in dir(partita) if not name.startswith("_")}
    # -- submodules imported as a side effect are not API, except `errors`, which is --
    submodules = {
        "elements",
        "hierarchy",
        "partitioners",
        "serialization",
        "cli",
        "chunking",
        "batch",
        "text",
        "evaluation",
        "embeddings",
        "integrations",
        "inspection",
        "distributed",
    }
    assert set(partita.__all__) == public - submodules
    assert len(set(partita.__all__)) == len(partita.__all__)
    # -- isort style, as ruff keeps it: classes first, then functions and modules --
    assert partita.__all__ == sorted(partita.__all__, key=lambda n: (not n[0].isupper(), n))


def test_every_name_in_all_exists() -> None:
    for name in partita.__all__:
        assert getattr(partita, name) is not None


def test_all_pins_the_api() -> None:
    assert set(partita.__all__) == {
        "Address",
        "CheckBox",
        "chunk",
        "chunk_by_title",
        "chunk_elements",
        "CodeSnippet",
        "CompositeElement",
        "CoordinatesMetadata",
        "DataSourceMetadata",
        "DocumentData",
        "Element",
        "ElementMetadata",
        "elements_from_dicts",
        "elements_from_json",
        "elements_to_dicts",
        "elements_to_json",
        "elements_to_jsonl",
        "EmailAddress",
        "errors",
        "FigureCaption",
        "Footer",
        "Form",
        "FormKeysValues",
        "Formula",
        "Header",
        "Image",
        "iter_chunk_elements",
        "iter_chunks_by_title",
        "iter_elements_from_jsonl",
        "Link",
        "ListItem",
        "NarrativeText",
        "Navigation",
        "PageBreak",
        "PageNumber",
        "partition",
        "partition_code",
        "partition_docx",
        "partition_html",
        "partition_md",
        "partition_pdf",
        "partition_text",
        "split_sentences",
        "Table",
        "TableChunk",
        "Text",
        "Title",
    }


def test_the_package_s_lazy_partitioners_are_the_format_table_s() -> None:
    from partita import _LAZY_EXPORTS  # type: ignore[attr-defined]
    from partita.partitioners._formats import FORMAT_TABLE

    named = {
        name: module for name, module in _LAZY_EXPORTS.items() if name.startswith("partition_")
    }
    assert named == {fmt.function: fmt.module for fmt in FORMAT_TABLE.values()}


def test_import_partita_loads_the_elements_only() -> None:
    import subprocess
    import sys

    code = "import sys, partita; print(sorted(m for m in sys.modules if m.startswith('partita')))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    for heavy in ("partita.chunking", "partita.serialization", "partita.partitioners"):
        assert f"'{heavy}'" not in loaded, loaded


_PUBLIC_MODULES = {
    "partita.batch",
    "partita.chunking.parents",
    "partita.chunking.provenance",
    "partita.elements",
    "partita.errors",
    "partita.evaluation.evidence",
    "partita.evaluation.report",
    "partita.hierarchy",
    "partita.integrations.langchain",
    "partita.integrations.llamaindex",
    "partita.integrations.llamaindex_parents",
    "partita.partitioners.code",
    "partita.partitioners.html",
    "partita.partitioners.markdown",
    "partita.partitioners.text",
    "partita.serialization.records",
    "partita.text.sizing.bpe_engine",
    "partita.text.sizing.openai_encodings",
}
"""The modules users import by name (the docs name each, dotted or as a file); every other
module is a package's `__init__` or internal, named with a leading underscore."""


def test_every_module_but_the_documented_ones_is_internal() -> None:
    src = Path(partita.__file__).parent.parent
    public = set()
    for path in src.joinpath("partita").rglob("*.py"):
        parts = path.relative_to(src).with_suffix("").parts
        if parts[-1] in ("__init__", "__main__") or any(p.startswith("_") for p in parts):
            continue
        public.add(".".join(parts))
    assert public == _PUBLIC_MODULES


def test_the_public_modules_are_the_ones_the_docs_name() -> None:
    root = Path(__file__).resolve().parents[1]
    docs = root.joinpath("README.md").read_text(encoding="utf-8") + "".join(
        p.read_text(encoding="utf-8") for p in sorted(root.joinpath("docs").rglob("*.md"))
    )
    named = {m for m in _PUBLIC_MODULES if m in docs or f"{m.replace('.', '/')}.py" in docs}
    assert named == _PUBLIC_MODULES
