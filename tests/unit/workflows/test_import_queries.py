"""The question readers of ``import`` against generated files: CAsT's nested topics and flat
JSON lists in any layout, and qrels with comment lines anywhere, read as the data says; an
error names the line of the object at fault."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool.workflows.importing import labels as importing
from labelpool.workflows.importing.input import ImportFailed

TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1
).filter(lambda s: s.strip() != "")
NUMBER = st.integers(min_value=0, max_value=10**6) | st.from_regex(
    r"[A-Za-z0-9]{1,6}", fullmatch=True
)

TURN = st.fixed_dictionaries(
    {"raw_utterance": TEXT},
    optional={"manual_rewritten_utterance": TEXT, "passage": TEXT, "passage_id": st.integers()},
)


@st.composite
def cast_topics(draw: st.DrawFn) -> list[dict[str, object]]:
    numbers = draw(st.lists(NUMBER, min_size=1, max_size=4, unique_by=str))
    topics = []
    for number in numbers:
        turn_numbers = draw(st.lists(NUMBER, min_size=1, max_size=4, unique_by=str))
        turns = [{"number": n, **draw(TURN)} for n in turn_numbers]
        topics.append({"number": number, "turn": turns})
    return topics


def read(text: str, text_field: str | None = None) -> dict[str, str]:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "topics.json"
        path.write_text(text, encoding="utf-8")
        return importing.read_queries(path, text_field)


@settings(max_examples=60, deadline=None)
@given(cast_topics(), st.sampled_from([None, 0, 1, 2, 4]))
def test_cast_topics_in_any_layout_read_as_the_data_says(
    topics: list[dict[str, object]], indent: int | None
) -> None:
    want = {}
    for topic in topics:
        for turn in topic["turn"]:  # type: ignore[attr-defined]
            text = turn.get("manual_rewritten_utterance", turn["raw_utterance"])
            want[f"{topic['number']}_{turn['number']}"] = " ".join(text.split())
    assert read(json.dumps(topics, indent=indent, ensure_ascii=False)) == want


@settings(max_examples=60, deadline=None)
@given(cast_topics(), st.data())
def test_a_missing_field_is_named_at_its_turn_line(
    topics: list[dict[str, object]], data: st.DataObject
) -> None:
    flat = [(t, turn) for t in topics for turn in t["turn"]]  # type: ignore[attr-defined]
    topic, turn = data.draw(st.sampled_from(flat))
    turn.pop("raw_utterance")
    turn.pop("manual_rewritten_utterance", None)
    text = json.dumps(topics, indent=2, ensure_ascii=False)
    qid = f"{topic['number']}_{turn['number']}"
    # the line of the turn's "{": indent=2 puts each object's brace on a line of its own,
    # the first turn without both fields is the one reported
    first = next(
        (t, u)
        for t, u in flat
        if "raw_utterance" not in u and "manual_rewritten_utterance" not in u
    )
    assert first[1] is turn
    try:
        read(text)
    except ImportFailed as exc:
        assert exc.line is not None
        lines = text.split("\n")
        assert lines[exc.line - 1].strip() == "{"
        assert f'"number": {json.dumps(turn["number"])}' in lines[exc.line]
        assert str(exc).endswith(
            f"turn {qid} has no `manual_rewritten_utterance` or `raw_utterance`"
        )
    else:
        raise AssertionError("no error")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.from_regex(r"q[0-9]{1,2}", fullmatch=True),
            st.from_regex(r"d[0-9]{1,3}", fullmatch=True),
            st.integers(-1, 3),
        ),
        min_size=1,
        max_size=20,
        unique_by=lambda r: (r[0], r[1]),
    ),
    st.lists(st.text(st.characters(codec="ascii", exclude_categories=("Cc",))), max_size=20),
    st.randoms(),
)
def test_comment_lines_anywhere_change_nothing(
    rows: list[tuple[str, str, int]], comments: list[str], rnd: object
) -> None:
    lines = [f"{q} 0 {d} {g}" for q, d, g in rows]
    mixed = list(lines)
    for comment in comments:
        mixed.insert(rnd.randint(0, len(mixed)), f"#{comment}")  # type: ignore[attr-defined]
    with tempfile.TemporaryDirectory() as tmp:
        plain, commented = Path(tmp) / "a", Path(tmp) / "b"
        plain.write_text("\n".join(lines) + "\n")
        commented.write_text("\n".join(mixed) + "\n")
        got = [(r.qid, r.doc, r.grade) for r in importing.read_qrels(commented)]
        assert got == [(r.qid, r.doc, r.grade) for r in importing.read_qrels(plain)]
