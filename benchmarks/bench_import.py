"""Time `import partita` in fresh interpreters (median of several runs).

python benchmarks/bench_import.py [--runs 15]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys

CODE = "import time; t = time.perf_counter(); import partita; print(time.perf_counter() - t)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    times = [
        float(
            subprocess.run(
                [sys.executable, "-c", CODE], capture_output=True, text=True, check=True
            ).stdout
        )
        for _ in range(args.runs)
    ]
    print(
        f"import partita: median {statistics.median(times) * 1000:.1f} ms, "
        f"min {min(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms over {args.runs} runs"
    )


if __name__ == "__main__":
    main()
