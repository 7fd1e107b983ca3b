"""Coverage-guided fuzzing of the XML and JSON readers with atheris (libFuzzer for Python).

    pip install ".[fuzz]"
    python -m tests.robustness.coverage_fuzz json  -- -runs=200000
    python -m tests.robustness.coverage_fuzz docx  -- -max_total_time=600

Targets:
- `json`: `partita.elements_from_json(text=...)` on the fuzzer's bytes (as UTF-8 with
  surrogates escaped), then, for whatever loads, chunking and export;
- `docx`: the fuzzer's bytes as `word/document.xml` of an otherwise valid package (from the
  bundled sample), then `partition_docx`, chunking and export;
- `html`: `partition_html(text=...)`.

The contract is the suite's: a typed error (`partita.errors.PartitaError`) is a normal outcome;
any other exception is a crash, which libFuzzer reports with the input that caused it (saved as
`crash-<sha1>` in the working directory). The corpus starts from the shared corpus's documents
of the target's format, kept (and grown) in the temporary folder `partita-coverage-fuzz-<target>`
between runs. Memory and time per input are libFuzzer's `-rss_limit_mb` (default
2048) and `-timeout` (default 1200 s: set e.g. `-timeout=20`).
"""

from __future__ import annotations

import io
import sys
import tempfile
import warnings
import zipfile
from collections.abc import Callable
from pathlib import Path

import atheris

with atheris.instrument_imports():
    import partita
    from partita.chunking import chunk_by_title, chunk_elements
    from partita.errors import PartitaError
    from partita.partitioners.docx import partition_docx
    from partita.partitioners.html import partition_html

REPO = Path(__file__).resolve().parent.parent.parent
SAMPLE_DOCX = REPO / "fixtures" / "sample.docx"


def _chunk_and_export(elements: list[partita.Element]) -> None:
    partita.elements_to_json(elements)
    for chunks in (
        chunk_by_title(elements, max_characters=200, overlap=20),
        chunk_elements(elements, max_characters=100),
    ):
        partita.elements_to_json(chunks)


def _json_target(data: bytes) -> None:
    text = (
        data.decode("utf-8", "surrogateescape")
        .encode("utf-8", "surrogatepass")
        .decode("utf-8", "replace")
    )
    try:
        elements = partita.elements_from_json(text=text)
    except PartitaError:
        return
    _chunk_and_export(elements)


def _docx_parts() -> dict[str, bytes]:
    with zipfile.ZipFile(SAMPLE_DOCX) as archive:
        return {info.filename: archive.read(info) for info in archive.infolist()}


_PARTS = _docx_parts()


def _docx_target(data: bytes) -> None:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, content in _PARTS.items():
            archive.writestr(name, data if name == "word/document.xml" else content)
    try:
        elements = partition_docx(file=io.BytesIO(out.getvalue()))
    except PartitaError:
        return
    _chunk_and_export(elements)


def _html_target(data: bytes) -> None:
    try:
        elements = partition_html(file=io.BytesIO(data))
    except PartitaError:
        return
    _chunk_and_export(elements)


TARGETS: dict[str, tuple[Callable[[bytes], None], tuple[str, ...]]] = {
    "json": (_json_target, (".json",)),
    "docx": (_docx_target, (".docx",)),
    "html": (_html_target, (".html", ".htm")),
}


def _seed_corpus(target: str, folder: Path) -> None:
    """Write the target's starting inputs into `folder` (kept between runs)."""
    from tests.shared import find_corpus

    folder.mkdir(parents=True, exist_ok=True)
    if any(folder.iterdir()):
        return
    corpus = find_corpus()
    if target == "docx":
        for path in sorted(corpus.rglob("*.docx")):
            if path.stat().st_size < 200_000:
                with zipfile.ZipFile(path) as archive:
                    if "word/document.xml" in archive.NameToInfo:
                        (folder / path.name).write_bytes(archive.read("word/document.xml"))
    elif target == "html":
        for path in sorted(corpus.rglob("*.htm*")):
            if path.stat().st_size < 100_000:
                (folder / path.name).write_bytes(path.read_bytes())
    else:
        for path in sorted(corpus.rglob("*.md"))[:4]:
            elements = partita.partition(path)
            (folder / f"{path.stem}.json").write_text(partita.elements_to_json(elements))
            chunks = chunk_by_title(elements, max_characters=300)
            (folder / f"{path.stem}.chunks.json").write_text(partita.elements_to_json(chunks))


def main() -> None:
    target = sys.argv[1] if len(sys.argv) > 1 else ""
    if target not in TARGETS:
        sys.exit(f"usage: python -m tests.robustness.coverage_fuzz {{{','.join(TARGETS)}}} ...")
    run, _ = TARGETS[target]
    folder = Path(tempfile.gettempdir()) / f"partita-coverage-fuzz-{target}"
    _seed_corpus(target, folder)
    warnings.simplefilter("ignore")
    libfuzzer_args = [arg for arg in sys.argv[2:] if arg != "--"]
    atheris.Setup([sys.argv[0], *libfuzzer_args, str(folder)], run)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
