"""The response cache of ``judge --machine``: answers kept, no-answers not, a line cut by a
kill ignored and not swallowing the next one, one file per judge identity."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from labelpool.machine.protocol import Reply
from labelpool.workflows.judge.responses import Responses, cache_file, keeps


def test_kept_answers_come_back_for_any_document(tmp_path: Path) -> None:
    r = Responses(tmp_path, "toy@sha256:abc")
    r.put("Q?", "text", Reply("d1", 2, raw="2", cost=12.0))
    r.put("Q?", "other", Reply("d2", None, "can't judge: off", raw="hm"))
    again = Responses(tmp_path, "toy@sha256:abc")
    assert again.get("Q?", "text", "d9") == Reply("d9", 2, raw="2", cost=12.0)
    assert again.get("Q?", "other", "d2") == Reply("d2", None, "can't judge: off", raw="hm")
    assert again.get("Q!", "text", "d1") is None
    assert Responses(tmp_path, "toy@sha256:abd").get("Q?", "text", "d1") is None


def test_no_answer_is_not_kept(tmp_path: Path) -> None:
    assert not keeps(Reply("d", None, "no answer: timed out", raw="partial"))
    assert not keeps(Reply("d", None, "the program died"))
    assert keeps(Reply("d", None, "can't judge", raw="Relevant"))
    r = Responses(tmp_path, "j")
    r.put("q", "t", Reply("d", None, "no answer: timed out"))
    assert not cache_file(tmp_path, "j").exists()


def test_a_cut_line_is_ignored_and_the_next_one_kept(tmp_path: Path) -> None:
    r = Responses(tmp_path, "j")
    r.put("q", "t1", Reply("d1", 1))
    f = cache_file(tmp_path, "j")
    with open(f, "ab") as fh:
        fh.write(b'{"key": "abc", "gra')  # a kill mid-append
    Responses(tmp_path, "j").put("q", "t2", Reply("d2", 3))
    back = Responses(tmp_path, "j")
    assert back.get("q", "t1", "d1") == Reply("d1", 1)
    assert back.get("q", "t2", "d2") == Reply("d2", 3)


def test_answers_that_came_together_are_kept_in_one_append(tmp_path: Path) -> None:
    r = Responses(tmp_path, "j")
    r.put_many(
        [
            ("q", "t1", Reply("d1", 1, raw="1")),
            ("q", "t2", Reply("d2", None, "no answer: timed out")),  # not kept
            ("q", "t3", Reply("d3", None, "can't judge", raw="Relevant")),
        ]
    )
    assert len(cache_file(tmp_path, "j").read_bytes().splitlines()) == 2
    back = Responses(tmp_path, "j")
    assert back.get("q", "t1", "d1") == Reply("d1", 1, raw="1")
    assert back.get("q", "t2", "d2") is None
    assert back.get("q", "t3", "d3") == Reply("d3", None, "can't judge", raw="Relevant")
    r.put_many([])
    assert len(cache_file(tmp_path, "j").read_bytes().splitlines()) == 2


@given(st.text(max_size=40), st.text(max_size=40), st.integers(0, 1000))
def test_any_text_round_trips(question: str, text: str, grade: int) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        Responses(Path(d), "j").put(question, text, Reply("x", grade, raw=text))
        assert Responses(Path(d), "j").get(question, text, "x") == Reply("x", grade, raw=text)
