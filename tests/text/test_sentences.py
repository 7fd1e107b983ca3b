"""`partita.text.sentences`: the Golden Rules, the rules of the module docstring by example, the
contract as properties, whole documents split as before, and linear work on hostile inputs."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from partita.text._whitespace import join_lines
from partita.text.sentences import iter_sentence_spans, split_sentences
from partita.text.sentences._scanner import SentenceScanner
from tests.shared import shared_path
from tests.text.golden_rules import ENGLISH, ENGLISH_EXTRA, OTHER_LANGUAGES, GoldenRule
from tests.text.sentences_before import split_sentences_before

KNOWN_ENGLISH_FAILURES = {
    "en-18 A.M. / P.M. as non sentence boundary and sentence boundary": (
        "`6 P.M. Mr. Smith` reads like `5 a.m. Mr. Smith`: an abbreviation before a title and a"
        " name is kept inside the sentence"
    ),
    "en-42 lower case list separated by newline": (
        "a single line break is read as a wrapped line (rules 40 and 41), not a list"
    ),
    "en-52 no whitespace in between sentences": (
        "`world.Today` looks like `os.Path` or `Console.WriteLine`: a period needs a space after it"
    ),
}
"""The English Golden Rules this segmenter fails, and why."""


def joined(sentences: list[str]) -> list[str]:
    """Return `sentences` with the lines of each joined, as the Golden Rules compare them."""
    return [join_lines(sentence.splitlines()) for sentence in sentences]


def passes(rule: GoldenRule) -> bool:
    _, text, expected = rule
    return joined(split_sentences(text)) == joined(expected)


def rule_params(rules: tuple[GoldenRule, ...]) -> list[object]:
    return [
        pytest.param(
            rule,
            id=rule[0].split()[0],
            marks=[pytest.mark.xfail(strict=True, reason=KNOWN_ENGLISH_FAILURES[rule[0]])]
            if rule[0] in KNOWN_ENGLISH_FAILURES
            else [],
        )
        for rule in rules
    ]


# ------------------------------------------------------------------------------------------------
# the Golden Rules
# ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule", rule_params(ENGLISH + ENGLISH_EXTRA))
def test_english_golden_rule(rule: GoldenRule) -> None:
    name, text, expected = rule
    assert joined(split_sentences(text)) == joined(expected), name


@pytest.mark.parametrize(
    "rule",
    [
        pytest.param(rule, id=rule[0].split()[0])
        for rules in OTHER_LANGUAGES.values()
        for rule in rules
    ],
)
def test_other_language_golden_rule(rule: GoldenRule) -> None:
    name, text, expected = rule
    assert joined(split_sentences(text)) == joined(expected), name


def test_english_golden_score_is_at_least_45_of_48() -> None:
    failures = [name for name, text, expected in ENGLISH if not passes((name, text, expected))]
    assert len(ENGLISH) == 48
    assert len(ENGLISH) - len(failures) >= 45, f"failing: {failures}"
    assert set(failures) <= set(KNOWN_ENGLISH_FAILURES), f"new failures: {failures}"


# ------------------------------------------------------------------------------------------------
# the rules, by example
# ------------------------------------------------------------------------------------------------

EXAMPLES = [
    # -- file names, URLs, e-mail addresses, decimals, money --
    (
        "Please open test.txt and read it. Then close it.",
        ["Please open test.txt and read it.", "Then close it."],
    ),
    ("Edit config.yaml and restart the server.", ["Edit config.yaml and restart the server."]),
    ("Visit www.example.com. Then log in.", ["Visit www.example.com.", "Then log in."]),
    ("Write to jane.doe@example.com today.", ["Write to jane.doe@example.com today."]),
    ("Pi is 3.14. It costs $5.50 today.", ["Pi is 3.14.", "It costs $5.50 today."]),
    # -- abbreviations and initials --
    ("Mr. Smith met Dr. Jones.", ["Mr. Smith met Dr. Jones."]),
    ("Use e.g. Python or i.e. Go.", ["Use e.g. Python or i.e. Go."]),
    ("Apples vs. Oranges is a classic.", ["Apples vs. Oranges is a classic."]),
    (
        "Bring pens, paper, etc. The store opens at 9.",
        ["Bring pens, paper, etc.", "The store opens at 9."],
    ),
    ("Bring pens, paper, etc. and a bag.", ["Bring pens, paper, etc. and a bag."]),
    ("The meeting is on Jan. 5. We will see.", ["The meeting is on Jan. 5.", "We will see."]),
    ("See No. 5 for details.", ["See No. 5 for details."]),
    ("I work for the U.S. Army.", ["I work for the U.S. Army."]),
    ("J. R. R. Tolkien wrote it.", ["J. R. R. Tolkien wrote it."]),
    ("He arrived at 5 p.m. He was late.", ["He arrived at 5 p.m.", "He was late."]),
    (
        "See Fed. R. Bankr. P. 3015. The court agreed.",
        ["See Fed. R. Bankr. P. 3015.", "The court agreed."],
    ),
    # -- quotes and brackets after the end mark, ellipses --
    ('He said "Stop." Then...', ['He said "Stop."', "Then..."]),
    ('"I came. I saw." he said.', ['"I came. I saw." he said.']),
    ("(See below. It helps.) Then go.", ["(See below. It helps.)", "Then go."]),
    ("Wait... What was that?", ["Wait...", "What was that?"]),
    ("Wait… what was that?", ["Wait… what was that?"]),
    # -- lists and bullets --
    ("1. Buy milk 2. Buy bread", ["1. Buy milk", "2. Buy bread"]),
    ("Steps:\n1. Open it.\n2. Close it.", ["Steps:", "1. Open it.", "2. Close it."]),
    ("Intro:\n- one\n- two", ["Intro:", "- one", "- two"]),
    ("Home • About • Contact", ["Home", "• About", "• Contact"]),
    # -- line breaks --
    ("A title\n\nThe body starts here", ["A title", "The body starts here"]),
    ("A line that wraps\nin the middle.", ["A line that wraps\nin the middle."]),
    ("One.\u2029Two.", ["One.", "Two."]),
    # -- German, French, Spanish, Russian --
    ("Am 3. Oktober feiern wir. Das ist gut.", ["Am 3. Oktober feiern wir.", "Das ist gut."]),
    ("Das ist z.B. gut, bzw. sehr gut.", ["Das ist z.B. gut, bzw. sehr gut."]),
    ("Il a dit « Bonjour. » Puis il est parti.", ["Il a dit « Bonjour. »", "Puis il est parti."]),
    ("M. Dupont est arrivé. Il pleut.", ["M. Dupont est arrivé.", "Il pleut."]),
    ("¿Qué hora es? ¡Es tarde! Vamos.", ["¿Qué hora es?", "¡Es tarde!", "Vamos."]),
    ("Он живёт на ул. Ленина. Это далеко.", ["Он живёт на ул. Ленина.", "Это далеко."]),
    (
        "«К чему ты готовишься? – спросила мама.» Я молчал.",
        ["«К чему ты готовишься? – спросила мама.»", "Я молчал."],
    ),
]


@pytest.mark.parametrize(("text", "expected"), EXAMPLES)
def test_example(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


SEED_000_PATH = (
    '我測試時是放在 "C:\\Users\\meebo\\data\\test.txt", token 數量為 23,'
    " 所以減去 23 就是 1001 個 token。"
)
"""From seed 000 (a blog post on llama_index's splitting, which cuts `test.` from `txt`)."""

CJK_EXAMPLES = [
    ("这是第一句。这是第二句！这是第三句？", ["这是第一句。", "这是第二句！", "这是第三句？"]),
    ("你好?我很好!谢谢.", ["你好?", "我很好!", "谢谢."]),
    (
        "これはペンです｡それはマーカーです．次です。",
        ["これはペンです｡", "それはマーカーです．", "次です。"],
    ),
    ("他走了……我也走了…", ["他走了……", "我也走了…"]),
    ("这个……，那个。", ["这个……，那个。"]),
    ("他说：“我走了。”然后离开了。", ["他说：“我走了。”", "然后离开了。"]),
    ("「おはよう。」「元気？」", ["「おはよう。」", "「元気？」"]),
    ("彼は「行こう！」と言った。次の文。", ["彼は「行こう！」と言った。", "次の文。"]),
    ("「おはよう。元気？」と聞いた。", ["「おはよう。元気？」と聞いた。"]),
    (
        "（注意！）下一句。『終わり。』【完了！】次へ。",
        ["（注意！）", "下一句。", "『終わり。』", "【完了！】", "次へ。"],
    ),
    ("我们去看《摔跤吧！爸爸》好吗？", ["我们去看《摔跤吧！爸爸》好吗？"]),
    ("价格是３．５元。", ["价格是３．５元。"]),
    ("中文.txt 是文件名。", ["中文.txt 是文件名。"]),
    ("他用Python.然后用Go。", ["他用Python.", "然后用Go。"]),
    (
        "English first. 然后是中文。Then English again.",
        ["English first.", "然后是中文。", "Then English again."],
    ),
    (SEED_000_PATH, [SEED_000_PATH]),
]


@pytest.mark.parametrize(("text", "expected"), CJK_EXAMPLES)
def test_chinese_and_japanese_example(text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


def test_chinese_text_is_cut_at_its_sentence_ends_only() -> None:
    text = (
        "检索增强生成是大语言模型应用构建的常用技术，它将专有知识检索与通用文本生成相结合。"
        "这项技术显著提高了模型在问答、知识抽取等任务中的表现！它已成为常用的架构吗？"
        "是的……\n\n第二段：分块是将文档切割成多个块，以便于进行向量化。"
    )
    assert split_sentences(text) == [
        "检索增强生成是大语言模型应用构建的常用技术，它将专有知识检索与通用文本生成相结合。",
        "这项技术显著提高了模型在问答、知识抽取等任务中的表现！",
        "它已成为常用的架构吗？",
        "是的……",
        "第二段：分块是将文档切割成多个块，以便于进行向量化。",
    ]


# ------------------------------------------------------------------------------------------------
# properties
# ------------------------------------------------------------------------------------------------

_PIECE_VALUES = [
    *"aZé中文ペン한국 \n\t\u3000\u2029.!?…。！？｡．，、",
    *"\"'“”‘’«»„()[]「」『』《》（）【】•⁃-$%:;0123",
    "Mr.",
    "U.S.",
    "e.g.",
    " 1. ",
    " a) ",
    "test.txt",
    ". . .",
    "...",
    "\n\n",
    " The ",
    " the ",
    "No. 5",
    "3.14",
]
_PIECES = st.sampled_from(_PIECE_VALUES)
texts = st.one_of(st.text(max_size=200), st.lists(_PIECES, max_size=60).map("".join))


@given(texts)
def test_spans_are_stripped_increasing_and_separated_by_whitespace(text: str) -> None:
    previous_end = 0
    for start, end in iter_sentence_spans(text):
        assert previous_end <= start < end <= len(text)
        sentence = text[start:end]
        assert sentence == sentence.strip()
        assert not text[previous_end:start].strip()
        previous_end = end
    assert not text[previous_end:].strip()


@given(texts)
def test_sentences_concatenate_to_the_text_without_whitespace_between_them(text: str) -> None:
    """The text is its sentences, in order, with only whitespace between (and around) them."""
    position = 0
    for sentence in split_sentences(text):
        assert sentence
        assert sentence == sentence.strip()
        start = position
        while text[start].isspace():
            start += 1
        assert text.startswith(sentence, start)
        position = start + len(sentence)
    assert not text[position:].strip()


@given(texts)
def test_split_sentences_slices_the_spans(text: str) -> None:
    spans = list(iter_sentence_spans(text))
    assert split_sentences(text) == [text[start:end] for start, end in spans]


@given(texts)
def test_segmentation_is_deterministic(text: str) -> None:
    assert list(iter_sentence_spans(text)) == list(iter_sentence_spans(text))
    assert split_sentences(text) == split_sentences(text)


@given(
    st.lists(st.sampled_from([*"中文字句子我们你好", "，", "、", "；", "：", "，，"]), max_size=80)
)
def test_chinese_commas_never_end_a_sentence(pieces: list[str]) -> None:
    text = "".join(pieces)
    assert split_sentences(text) == ([text] if text else [])


@given(
    st.lists(st.sampled_from(["我们", "你好", "句子", "，", "。", "！", "？", "…"]), max_size=60)
)
def test_chinese_sentences_end_at_end_marks(pieces: list[str]) -> None:
    """Inside a sentence, an end mark is followed only by more end marks or a comma-like mark."""
    text = "".join(pieces)
    for sentence in split_sentences(text):
        for index, char in enumerate(sentence[:-1]):
            if char in "。！？":
                assert sentence[index + 1] in "。！？…，", sentence


# ------------------------------------------------------------------------------------------------
# whole documents: a paragraph's last end mark is left to the blank line after it, unchanged
# ------------------------------------------------------------------------------------------------

_PARAGRAPH_PIECES = st.sampled_from(
    [
        *_PIECE_VALUES,
        "\n\n",
        " \n \n",
        "\n \n\n",
        "\r\n\r\n",
        "\n\u2029",
        "\u2029\n\n",
        ".\n\n",
        "?\n\n",
        "...\n\n",
        ".)\n\n",
        ".”\n\n",
        "2.",
        " 2.",
        "b.",
        "Milk",
        "Mr.",
        " »",
        "« ",
        "—",
        "[",
        "]",
    ]
)


def _list(first: str, count: int, style: str, text: str) -> str:
    """A paragraph numbering `count` items from `first` (`1` or `a`) in `style`, each followed
    by `text` but the last."""
    numbers = [
        str(int(first) + i) if first.isdigit() else chr(ord(first) + i) for i in range(count)
    ]
    return (
        " ".join(f"{number}{style} Milk" for number in numbers[:-1])
        + f" {numbers[-1]}{style}{text}"
    )


_LIST_ITEMS = st.builds(
    _list,
    st.sampled_from(["1", "a", "2"]),
    st.integers(1, 4),
    st.sampled_from([".", ".)", ")"]),
    st.sampled_from(["", " Bread.", " Bread"]),
)
"""Numbered paragraphs (`1. Milk 2. Milk 3.`), their last item empty or not."""

_PARAGRAPHS = st.one_of(texts, st.lists(_PARAGRAPH_PIECES, max_size=30).map("".join), _LIST_ITEMS)
documents = st.tuples(
    st.lists(_PARAGRAPHS, max_size=7),
    st.one_of(_LIST_ITEMS, _PARAGRAPHS),
    st.sampled_from(["", "\n\n", " \n\n ", "\n", " "]),
).map(lambda parts: "\n\n".join([*parts[0], parts[1]]) + parts[2])
"""Paragraphs (random texts, pieces around paragraph ends, list items; the last one more often
a list) joined by blank lines, with whitespace or not at the end."""


@settings(max_examples=500)
@given(st.one_of(texts, documents))
def test_a_document_splits_as_it_did_before_paragraph_ends_were_left_to_the_blank_line(
    text: str,
) -> None:
    assert split_sentences(text) == split_sentences_before(text)


@pytest.mark.parametrize(
    "text",
    [
        "1. Milk 2.\n\n",  # -- nothing after the blank line: no list item to start --
        "1. Milk 2.\n\nThe end.",  # -- the second item starts before the blank line --
        "a. Milk b.\n\nBread.",
        "He met Mr.\n\nSmith left.",  # -- the blank line cuts after an abbreviation too --
        "Il a dit « Bonjour. »\n\nPuis.",
        "(See below.\n\nIt helps.)",
        "One. \u2029\nTwo.",
        "Wait...\n\n\n  what?",
    ],
)
def test_a_paragraph_end_splits_as_before(text: str) -> None:
    assert split_sentences(text) == split_sentences_before(text)


def chroma_documents() -> list[str]:
    folder = shared_path("eval", "chroma", "corpora")
    texts = [path.read_text(encoding="utf-8") for path in sorted(folder.glob("*.md"))]
    assert len(texts) == 5, f"expected Chroma's five corpora in {folder}"
    return texts


def test_whole_english_documents_split_as_before() -> None:
    """Chroma's five English corpora, each a whole document, and all five as one of 1.45 MB."""
    documents = chroma_documents()
    whole = "\n\n".join(documents)
    assert len(whole.encode("utf-8")) >= 1_000_000
    for text in [*documents, whole]:
        assert split_sentences(text) == split_sentences_before(text)


# ------------------------------------------------------------------------------------------------
# linear work
# ------------------------------------------------------------------------------------------------

HOSTILE_UNITS = [
    ".",
    "a.",
    "a.a.a.",
    "a",
    "a b c ",
    " ",
    "\n",
    "\n\n",
    "\u2029",
    "a\n",
    "a\n- ",
    "a. ",
    "A. ",
    "Ab. ",
    ". ",
    ". . . . A ",
    "…",
    "!?",
    "。",
    "「a。",
    "《",
    "(",
    "(Ab. ",
    '"Ab. ',
    ")",
    "1) ",
    "1. ",
    "a. b. ",
    "Mr. ",
    "U.S. ",
    "• ",
    "»",
    "A. » B ",
]
"""Repeated to a large size: dots, periods between letters, text without punctuation,
whitespace, line breaks, unclosed brackets, list markers, abbreviations, ..."""

WORK_PER_CHARACTER = 200
"""The most work (characters looked at) per character of the text the scan may do."""


def work(text: str) -> int:
    scanner = SentenceScanner(text)
    scanner.run()
    return scanner.work


@pytest.mark.parametrize("unit", HOSTILE_UNITS)
def test_work_is_linear_on_hostile_input(unit: str) -> None:
    small = unit * (50_000 // len(unit))
    large = unit * (200_000 // len(unit))
    small_work, large_work = work(small), work(large)
    assert small_work <= WORK_PER_CHARACTER * len(small)
    assert large_work <= WORK_PER_CHARACTER * len(large)
    assert large_work <= 4.2 * max(small_work, len(small))


@pytest.mark.parametrize("unit", [".", "a.a.a.", "a"])
def test_a_megabyte_of_hostile_input_is_linear_work(unit: str) -> None:
    text = unit * (1_000_000 // len(unit))
    assert work(text) <= 2 * len(text)
    assert len(split_sentences(text)) == 1


def test_text_without_capitals_ends_sentences_at_periods_after_ordinary_words() -> None:
    text = (
        "the facility may be drawn upon during a period of five years from november 22, 2017."
        " the revolving credit facility includes a letter of credit. see note 3 for details,"
        " e.g. the terms of the u.s. notes. is it due? yes it is."
    )
    assert split_sentences(text) == [
        "the facility may be drawn upon during a period of five years from november 22, 2017.",
        "the revolving credit facility includes a letter of credit.",
        "see note 3 for details, e.g. the terms of the u.s. notes.",
        "is it due?",
        "yes it is.",
    ]


def test_cased_text_keeps_a_period_before_a_lower_case_word_inside() -> None:
    text = "Jane and co. at the party said the plan was fine. it was late. Then we left."
    assert split_sentences(text) == [
        "Jane and co. at the party said the plan was fine. it was late.",
        "Then we left.",
    ]
