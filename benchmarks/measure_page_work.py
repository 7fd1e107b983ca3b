"""What one page at the page bound costs on this host, by what the page is made of.

`partita.partitioners.pdf._limits` bounds a page read by the pdfminer interpreter with one count,
`MAX_PAGE_TOKENS`: its content tokens, each form drawn counting as `STREAM_TOKENS`, each path as
`PATH_TOKENS` and each glyph as `GLYPH_TOKENS`. The weights are what keeps every kind of page
within the same CPU time. This script checks them: it builds one-page PDFs made of one thing
each, each past the bound, reads them in this process (`backend="pdfplumber"`,
`isolation="none"`: the work the worker would do) and prints the CPU seconds of the best of
`--repeat` reads, with what stopped the page. A kind that costs much more than the others has a
weight too low.

- `tokens`: colour operators (`0 g 1 g 0.5 0.5 0.5 rg`), 7 tokens a line;
- `glyphs`: lines of 25 letters in 4-pt Helvetica;
- `rectangles`: filled 1-pt squares on a grid (`re f`);
- `forms`: a fan-out of forms (4 levels of 10) whose leaf sets a colour;
- `forms drawing text`: a fan-out whose leaf shows a word (forms, tokens and glyphs at once).

`sum(range(10**6))`'s time is printed beside them, to compare hosts.

    python benchmarks/measure_page_work.py [--repeat 2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import timeit
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # -- the PDF builders of tests/robustness --

from tests.robustness.hostile_pdfium import fan_out  # noqa: E402
from tests.robustness.pdf_parts import encoded_stream, one_page  # noqa: E402


def _page(content: bytes) -> bytes:
    return one_page(encoded_stream(content))


KINDS: dict[str, Callable[[], bytes]] = {
    "tokens": lambda: _page(b"0 g 1 g 0.5 0.5 0.5 rg\n" * 60_000),
    "glyphs": lambda: _page(
        b"BT /F1 4 Tf 10 10 Td " + b"(abcdefghijklmnopqrstuvwxy) Tj 0 5 Td\n" * 2_800 + b"ET"
    ),
    "rectangles": lambda: _page(
        b"".join(b"%d %d 1 1 re f\n" % (i % 600, (i // 600) % 800) for i in range(40_000))
    ),
    "forms": lambda: fan_out(4, 10, operands=("plain",), leaf=b"0 g"),
    "forms drawing text": lambda: fan_out(
        4, 10, operands=("plain",), leaf=b"BT /F1 12 Tf 72 400 Td (Leaf.) Tj ET"
    ),
}


def measure(path: Path, repeat: int) -> tuple[float, str]:
    """The least CPU seconds of `repeat` reads of `path`, and what stopped its page."""
    from partita.partitioners.pdf import partition_pdf

    best, stopped = float("inf"), ""
    for _ in range(repeat):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            started = time.process_time()
            partition_pdf(path, backend="pdfplumber", isolation="none")
            best = min(best, time.process_time() - started)
        stopped = next((str(w.message).split(": ", 2)[-1] for w in caught), "nothing")
    return best, stopped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="reads of each page (best kept)")
    args = parser.parse_args(argv)
    reference = min(timeit.repeat("sum(range(10**6))", number=1, repeat=5))
    print(f"sum(range(10**6)): {1000 * reference:.1f} ms")
    print("| page made of | CPU s | stopped by |\n|---|---:|---|")
    with tempfile.TemporaryDirectory() as folder:
        for kind, build in KINDS.items():
            path = Path(folder) / f"{kind.replace(' ', '-')}.pdf"
            path.write_bytes(build())
            seconds, stopped = measure(path, args.repeat)
            print(f"| {kind} | {seconds:.2f} | {stopped} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
