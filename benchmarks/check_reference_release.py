"""Check partita's chunking against the newest `unstructured` release on PyPI.

partita's "basic" and "by_title" output is the reference library's, release for release: the
test and bench extras pin the release the suites check (`unstructured[docx,md]==...` in
pyproject.toml). A new release may change chunking. This script answers "is partita still
identical to the unstructured users install today?" without touching the development venv:

1. it makes a scratch venv (`python -m venv`, in a temporary directory unless `--venv`);
2. installs there `unstructured[docx,md]` (the newest release, or `--release X`), partita from a
   copy of this checkout's `pyproject.toml`, `README.md` and `src/` (its `fast` extra, as the
   test extra has it; nothing is built inside the checkout), and the test tools at the versions
   of the interpreter running this script (pytest, hypothesis);
3. runs the parity tests there, from the checkout: the differential suite
   (`tests/chunking/test_differential.py`, generated element streams and options, at least
   1,200 character-mode and 500 token-mode cases) and the tests that compare with the reference
   or pin its documented behaviour (`PARITY_TESTS`);
4. prints the release tested, the differential suite's case counts, and each failing test with
   the options of its first failing case, then the path of the full log. Failing cases are not
   shrunk (`PARTITA_TEST_NO_SHRINK`): shrinking a case the reference is slow on takes minutes
   per test; rerun a failing test in a venv with that release for a minimal case. A test that
   runs over `TEST_TIMEOUT_SECONDS`, or a run that passes `MEMORY_LIMIT_BYTES`, fails.

Run it from the repository root (PyPI must be reachable; the tests themselves run offline):

    python benchmarks/check_reference_release.py [--release 0.27.35] [--venv DIR] [--keep]
        [--timeout 900] [--tests tests/chunking/test_differential.py ...]

The exit status is 0 when every parity test passes, 1 when some differ, 2 when the scratch
environment could not be set up.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PARITY_TESTS = (
    "tests/chunking/test_differential.py",
    "tests/chunking/test_examples.py",
    "tests/chunking/test_options.py",
    "tests/chunking/test_split_origins.py",
    "tests/chunking/test_hostile_chunking.py",
    "tests/chunking/tables/test_split.py",
    "tests/text/splitting/test_splitter.py",
)
"""The tests run against the release: the differential suite, and every chunking test that runs
the reference or states its behaviour."""

TEST_TOOLS = ("pytest", "pytest-timeout", "pytest-xdist", "hypothesis")
"""Installed in the scratch venv at this interpreter's versions (the suites' own settings)."""

TEST_TIMEOUT_SECONDS = 900
"""A test that runs longer fails (`pytest-timeout`): a new release may loop where partita ends
(unstructured 0.27.32 did, on token-mode overlaps)."""

MEMORY_LIMIT_BYTES = 6 << 30
"""The address space of the test run: a release that loops while collecting chunks fails with
`MemoryError` instead of taking the machine's memory."""

_SOURCE_FILES = ("pyproject.toml", "README.md", "LICENSE")
_NOTE = re.compile(r"by_title=(True|False) options=\{.*\}")
_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+)")


def _run(
    command: Sequence[str],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    capture: bool = False,
    limit_memory: bool = False,
) -> subprocess.CompletedProcess[str]:
    print("$", " ".join(command), flush=True)
    return subprocess.run(
        command,
        cwd=cwd,
        env=env,
        capture_output=capture,
        text=True,
        check=False,
        preexec_fn=_limit_memory if limit_memory else None,
    )


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT_BYTES, MEMORY_LIMIT_BYTES))


def _pinned(name: str) -> str:
    try:
        return f"{name}=={version(name)}"
    except PackageNotFoundError:
        return name


def _source_copy(into: Path) -> Path:
    """A copy of what building partita needs, so that nothing is written inside the checkout."""
    copy = into / "partita-source"
    copy.mkdir()
    for name in _SOURCE_FILES:
        if (REPO / name).exists():
            shutil.copy2(REPO / name, copy / name)
    shutil.copytree(
        REPO / "src",
        copy / "src",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc"),
    )
    return copy


def set_up(venv: Path, release: str | None, python: str) -> str | None:
    """Make the scratch venv and install the release, partita and the test tools; return the
    installed release, or None (the failure printed)."""
    if _run([python, "-m", "venv", str(venv)]).returncode:
        return None
    pip = [str(venv / "bin" / "python"), "-m", "pip", "--disable-pip-version-check"]
    requirement = "unstructured[docx,md]" + (f"=={release}" if release else "")
    source = _source_copy(venv)
    tools = [_pinned(name) for name in TEST_TOOLS]
    install = [*pip, "install", "--quiet", "--quiet", requirement, f"{source}[fast]", *tools]
    if _run(install).returncode:
        return None
    checked = _run([*pip, "check"], capture=True)
    if checked.returncode:
        print(checked.stdout.strip(), checked.stderr.strip(), sep="\n")
    show = "import unstructured.__version__ as v; print(v.__version__)"
    shown = _run([str(venv / "bin" / "python"), "-c", show], capture=True)
    return shown.stdout.strip() or None


def run_parity_tests(
    venv: Path, tests: Sequence[str], log: Path, timeout: int = TEST_TIMEOUT_SECONDS
) -> tuple[int, str]:
    """Run `tests` with the scratch venv's interpreter from the checkout; return the exit code
    and the output (also written to `log`)."""
    env = dict(os.environ)
    env.update(
        PYTHONDONTWRITEBYTECODE="1",
        HYPOTHESIS_STORAGE_DIRECTORY=str(venv / "hypothesis"),
        DO_NOT_TRACK="1",
        SCARF_NO_ANALYTICS="true",
        UNSTRUCTURED_DISABLE_NOTICE="1",
        PARTITA_TEST_NO_SHRINK="1",
    )
    env.pop("PYTHONPATH", None)
    command = [
        str(venv / "bin" / "python"),
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-n",
        "0",  # -- in one process: the session summary prints the differential counts --
        "-q",
        "-rfE",
        "--tb=short",
        f"--timeout={timeout}",
        *tests,
    ]
    result = _run(command, cwd=REPO, env=env, capture=True, limit_memory=True)
    output = result.stdout + result.stderr
    log.write_text(output, encoding="utf-8")
    return result.returncode, output


def report(release: str, code: int, output: str, log: Path) -> None:
    """Print the release, the differential counts and the failing tests with their cases."""
    lines = output.splitlines()
    print()
    print(f"unstructured {release} (from PyPI) against partita at {REPO}")
    for line in lines:
        if line.startswith("differential chunking,"):
            print("  " + line)
    summary = next((line for line in reversed(lines) if " passed" in line or " failed" in line), "")
    print("  tests: " + summary.strip("= "))
    failed = [match[1] for line in lines if (match := _FAILED.match(line))]
    if code == 0:
        print(f"  identical: every parity test passes (log: {log})")
        return
    if not failed:
        print(f"  the tests did not finish (pytest exit status {code}); log: {log}")
        return
    print(f"  {len(failed)} tests differ:")
    for node in failed:
        print(f"    {node}")
    notes = sorted({match[0] for line in lines if (match := _NOTE.search(line))})
    if notes:
        print("  falsifying cases (the first found, not shrunk):")
        for note in notes:
            print(f"    {note}")
    print(f"  full log: {log}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", help="an unstructured release (default: the newest)")
    parser.add_argument("--venv", type=Path, help="the scratch venv's directory (default: a temp)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch venv")
    parser.add_argument("--python", default=sys.executable, help="the interpreter for the venv")
    parser.add_argument("--tests", nargs="+", default=list(PARITY_TESTS), help="tests to run")
    parser.add_argument(
        "--timeout", type=int, default=TEST_TIMEOUT_SECONDS, help="seconds per test at most"
    )
    args = parser.parse_args(argv)
    venv = args.venv or Path(tempfile.mkdtemp(prefix="partita-reference-")) / "venv"
    log = venv.parent / "parity-tests.log"
    try:
        release = set_up(venv, args.release, args.python)
        if release is None:
            print("could not set up the scratch venv", file=sys.stderr)
            return 2
        code, output = run_parity_tests(venv, args.tests, log, args.timeout)
        report(release, code, output, log)
        return 0 if code == 0 else 1
    finally:
        if not args.keep and args.venv is None:
            shutil.rmtree(venv, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
