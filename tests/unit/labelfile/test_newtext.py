"""The direct writer of a new label file (:mod:`labelpool.labelfile.newtext`) writes exactly
what the ruamel dump writes, or leaves the file to it (None)."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from labelpool.labelfile import new
from labelpool.labelfile.newtext import NewLabel, PoolEntry, label_text
from labelpool.yamlfile import UnwritableError, YamlError, loads_checked

# ids and text with the characters that change quoting: indicators, resolver words, quotes,
# spaces, non-ASCII, escapes (tab, NEL, LS, BOM), a character beyond the BMP
_CHARS = st.sampled_from(
    [
        *"aAnNyYeE019_./#+@=~-:,?!&*%|>[]{}'\" \u00e9\u4e2d",
        *("\t", "\x85", "\u2028", "\ufeff", "\U0001f600", "\x07"),
    ]
)
_WORDS = st.sampled_from(
    ["yes", "No", "null", "~", "1e3", "0o17", "017", "2026-06-02", "1:20", ".inf", "<<", "="]
)
_ID = st.one_of(st.text(_CHARS, max_size=10), _WORDS, st.from_regex(r"[A-Za-z][A-Za-z0-9#_-]{0,8}"))
_QUESTION = st.one_of(
    st.text(_CHARS, max_size=40),
    _WORDS,
    st.text(st.sampled_from("ab "), min_size=995, max_size=1010),
)
_POOL = st.one_of(
    st.none(),
    st.builds(
        PoolEntry,
        system=_ID,
        k=st.one_of(st.none(), st.integers(-3, 1000)),
        date=st.one_of(st.none(), _WORDS, _ID),
    ),
)


@st.composite
def _labels(draw: st.DrawFn) -> NewLabel:
    judged = draw(st.lists(_ID, max_size=6))
    return NewLabel(
        qid=draw(_ID),
        question=draw(_QUESTION),
        relevant=tuple(
            draw(st.lists(st.one_of(st.sampled_from(judged or ["x"]), _ID), max_size=4))
        ),
        judged=tuple(judged),
        grades=draw(
            st.dictionaries(
                st.one_of(_ID, st.integers(90, 140).map(lambda n: "b" * n)),
                st.integers(-2, 5),
                max_size=3,
            )
        ),
        pooled_unjudged=tuple(draw(st.lists(_ID, max_size=3))),
        pool=draw(_POOL),
    )


def _written(label: NewLabel, write: Callable[[NewLabel], str | None]) -> str | None:
    """What ``write`` makes of ``label``; None when it refuses (the dump's read-back check:
    a scalar read otherwise, or a character validate refuses, issue 29)."""
    try:
        return write(label)
    except (YamlError, UnwritableError):
        return None


@given(_labels())
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(
    NewLabel(
        qid="q1",
        question="It's: #a 'b' \"x\"",
        relevant=("b", "a"),
        judged=("a", "b", "yes", "1e3"),
        grades={"a": 2, "yes": 0},
        pooled_unjudged=("z",),
        pool=PoolEntry("bm25", 10, "2026-06-02"),
    )
)
def test_direct_text_is_the_ruamel_dump(label: NewLabel) -> None:
    assert _written(label, new.label_file_text) == _written(label, new._dumped)


@given(_labels())
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@example(NewLabel(qid="q1", question="\x85"))
def test_a_direct_text_reads_as_the_data_it_gives(label: NewLabel) -> None:
    """``import`` checks a direct text's data (``text_and_data``) against the schema without
    reading the text back: the two must be one. A label the writer refuses (a character
    validate refuses, issue 29; ``import`` refuses it earlier, naming the input) has none."""
    try:
        text, data = new.written_label(label)
    except (YamlError, UnwritableError):
        return
    if data is None:
        return
    assert loads_checked(text.encode("utf-8")) == data


def test_the_common_label_takes_the_direct_path() -> None:
    assert label_text(
        NewLabel(
            "q000001",
            "What is the answer to question 1?",
            relevant=("D2",),
            judged=("D2", "D10"),
            grades={"D2": 2},
            pool=PoolEntry("bm25", 10, "2026-06-02"),
        )
    ) == (
        "id: q000001\nquestion: What is the answer to question 1?\nrelevant_doc_ids:\n  - D2\n"
        "judged_ids:\n  - D10\n  - D2\ngrades:\n  D2: 2\npool:\n  - system: bm25\n    k: 10\n"
        "    date: '2026-06-02'\n"
    )


def test_ids_given_once_reach_the_dump_when_the_direct_writer_gives_up() -> None:
    """The id lists may be iterators: a judged id the direct writer leaves to ruamel (a tab)
    must not cost the dump the relevant ids the direct writer had already read."""
    text = new.new_label_text(
        "q1", "Q?", relevant=iter(["D1"]), judged=iter(["D1", "D\t2"]), pooled_unjudged=iter([])
    )
    assert "relevant_doc_ids:\n  - D1\n" in text
