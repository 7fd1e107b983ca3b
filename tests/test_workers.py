"""Worker processes: the CPU-time limit, workers started as a new interpreter, and a pipe of
requests sent ahead."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from partita._workers import STARTS, WorkerPipe, WorkerPool
from partita.errors import DocumentError, DocumentTimeoutError, InternalError, WorkerCrashError
from tests.test_batch import misbehave


def spin(seconds: str) -> str:
    """Burn `seconds` of CPU (a busy loop measured in CPU time, not wall time)."""
    end = os.times()
    budget = float(seconds)
    while (os.times().user + os.times().system) - (end.user + end.system) < budget:
        pass
    return "spun"


def test_the_cpu_limit_counts_cpu_not_wall_time() -> None:
    with WorkerPool(spin, max_cpu=1.0) as pool:
        over = pool.run("30", "hog.pdf")
        within = pool.run("0.2", "light.pdf")
    assert isinstance(over.error, DocumentTimeoutError)
    assert "1 s of CPU" in str(over.error)
    assert over.error.filename == "hog.pdf"
    assert within.value == "spun"
    # -- sleeping uses no CPU: three seconds asleep pass a one-second CPU limit --
    with WorkerPool(misbehave, max_cpu=1.0) as pool:
        assert pool.run("sleep:3", "sleepy").value == "SLEEP:3"


def test_the_cpu_limit_is_per_item() -> None:
    # -- each item may use its own 1.5 s: three items of 0.8 s pass in one reused worker --
    with WorkerPool(spin, max_cpu=1.5) as pool:
        results = list(pool.iter_results(["0.8", "0.8", "0.8"]))
    assert [r.value for r in results] == ["spun"] * 3


@pytest.mark.parametrize("start", STARTS)
def test_both_starts_give_typed_outcomes(start: str) -> None:
    items = ["a", "bug:x", "typed:doc.pdf", "segfault:", "exit:3", "b"]
    with WorkerPool(misbehave, start=start, timeout=30) as pool:
        results = list(pool.iter_results(items))
    assert results[0].value == "A"
    assert isinstance(results[1].error, InternalError)
    assert isinstance(results[2].error, DocumentError)
    assert isinstance(results[3].error, WorkerCrashError)
    assert "SIGSEGV" in str(results[3].error)
    assert isinstance(results[4].error, WorkerCrashError)
    assert "exit status 3" in str(results[4].error)
    assert results[5].value == "B"


def test_a_subprocess_worker_quotes_what_it_said_before_dying() -> None:
    with WorkerPool(say_and_abort, start="subprocess") as pool:
        result = pool.run("out of memory in the parser", "bad.pdf")
    assert isinstance(result.error, WorkerCrashError)
    assert "SIGABRT" in str(result.error)
    assert "out of memory in the parser" in str(result.error)


def say_and_abort(message: str) -> None:
    """Write `message` to standard error, then abort as a C library does."""
    os.write(2, message.encode() + b"\n")
    os.abort()


def test_a_subprocess_worker_never_runs_the_callers_main_module(tmp_path: Path) -> None:
    # -- a script with no `__main__` guard: multiprocessing's spawn and forkserver methods
    # -- would run it again in every worker (and fail); a subprocess worker does not --
    script = tmp_path / "unguarded.py"
    marker = tmp_path / "runs"
    script.write_text(
        textwrap.dedent(
            f"""
            import os
            from partita._workers import WorkerPool
            from tests.test_batch import misbehave

            with open({str(marker)!r}, "a") as runs:
                runs.write(str(os.getpid()) + "\\n")
            with WorkerPool(misbehave, start="subprocess") as pool:
                print(pool.run("pid", "x").value != str(os.getpid()))
            """
        )
    )
    root = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"
    assert len(marker.read_text().split()) == 1


def test_a_pool_refuses_bad_limits() -> None:
    with pytest.raises(ValueError, match="max_cpu"):
        WorkerPool(spin, max_cpu=0)
    with pytest.raises(ValueError, match="start"):
        WorkerPool(spin, start="thread")


def test_a_pipe_answers_requests_sent_ahead_each_to_its_ticket() -> None:
    with WorkerPipe(misbehave, start="subprocess") as pipe:
        tickets = [pipe.send(item, item) for item in ("a", "b", "pid", "c")]
        assert pipe.result(tickets[3]).value == "C"  # -- the earlier answers are kept --
        assert [pipe.result(t).value for t in tickets[:2]] == ["A", "B"]
        worker = pipe.result(tickets[2]).value
        assert worker != str(os.getpid())
        assert pipe.run("pid", "again").value == worker  # -- one worker, reused --


def test_a_pipe_gives_the_death_to_the_request_that_caused_it_and_goes_on() -> None:
    with WorkerPipe(misbehave, start="subprocess", max_cpu=5.0) as pipe:
        first = pipe.send("pid", "first")
        fatal = pipe.send("segfault:", "bad.pdf")
        after = pipe.send("pid", "after")  # -- sent before the worker died: sent again --
        dropped = pipe.send("d", "dropped")
        pipe.drop(dropped)
        old_worker = pipe.result(first).value
        error = pipe.result(fatal).error
        assert isinstance(error, WorkerCrashError)
        assert error.filename == "bad.pdf"
        new_worker = pipe.result(after).value
        assert new_worker not in (None, old_worker)
        assert pipe.run("e", "e").value == "E"


def test_a_pipe_keeps_the_cpu_limit() -> None:
    with WorkerPipe(spin, start="subprocess", max_cpu=1.0) as pipe:
        over = pipe.send("30", "hog.pdf")
        light = pipe.send("0.1", "light.pdf")
        assert isinstance(pipe.result(over).error, DocumentTimeoutError)
        assert pipe.result(light).value == "spun"
