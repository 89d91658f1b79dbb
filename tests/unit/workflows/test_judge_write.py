"""workflows.judge_write: a verdict written only when the entry is what the page saw, under
the repository's lock, atomically, and read back before it lands."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import batch, schemas
from labelpool.model import DuplicateOf, Verdict
from labelpool.workflows.judge import queue as judge_queue
from labelpool.workflows.judge import write as judge_write
from labelpool.workflows.judge.queue import Entry
from labelpool.workflows.judge.tokens import Tokens
from labelpool.workflows.judge.write import Conflict, Rules, WriteRefused, Written
from pool_scenario import git

TEXT = """\
# kept
id: q
question: Q?
judged_ids: []
pending:
  - batch: 'b'
    systems:
      - s
    depth: 2
    date: '2026-12-02'
    docs:
      # question: Q?
      # text: one
      - {doc: d#1, verdict: null}
      # text: two
      - {doc: d#2, verdict: null}  # a reviewer's note
      - {doc: d#3, verdict: relevant}
owner: me
"""


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q")
    (tmp_path / "q.yaml").write_text(TEXT, encoding="utf-8")
    return tmp_path


TOKENS = Tokens()
RULES = Rules(schemas.schema_path(schemas.LABEL), 4 * 1024 * 1024, 32)


def token(path: Path, entry: Entry) -> str:
    return TOKENS.of(path, "b", entry)


def block(path: Path, doc: str) -> str:
    """The token of ``doc``'s entry as it is on disk (what the page holds of it)."""
    _d, text, batches = judge_queue.read_file(path)
    return token(path, next(e for e in judge_queue.entries_of(text, batches, "b") if e.doc == doc))


def write(
    repo: Path,
    path: Path,
    doc: str,
    expect: str,
    verdict: Verdict,
    reason: str | None = None,
) -> Written:
    return judge_write.write_verdict(
        repo, path, "b", doc, expect, verdict, reason, tokens=TOKENS, rules=RULES
    )


def test_a_verdict_changes_its_token_only(repo: Path) -> None:
    path = repo / "q.yaml"
    done = write(repo, path, "d#2", block(path, "d#2"), 2)
    assert done.changed and done.before.verdict is None and done.after.verdict == 2
    assert path.read_text() == TEXT.replace("d#2, verdict: null}", "d#2, verdict: 2}")
    undo = write(repo, path, "d#2", token(path, done.after), None)
    assert undo.changed and path.read_text() == TEXT


def test_a_stale_page_gets_a_conflict_and_nothing_changes(repo: Path) -> None:
    path = repo / "q.yaml"
    seen = block(path, "d#1")
    edited = TEXT.replace("d#1, verdict: null}", "d#1, verdict: irrelevant}")
    path.write_text(edited)
    with pytest.raises(Conflict) as caught:
        write(repo, path, "d#1", seen, "relevant")
    assert caught.value.current is not None and caught.value.current.verdict == "irrelevant"
    assert path.read_text() == edited
    with pytest.raises(Conflict):  # no longer in the file (merged, or another batch)
        write(repo, path, "d#9", seen, "relevant")


def test_cant_judge_note_added_replaced_and_removed(repo: Path) -> None:
    path = repo / "q.yaml"
    first = write(repo, path, "d#1", block(path, "d#1"), None, "unclear")
    assert (
        "      # text: one\n      # can't judge: unclear\n      - {doc: d#1, verdict: null}\n"
        in (path.read_text())
    )
    assert first.after.reason == "unclear"
    again = write(repo, path, "d#1", token(path, first.after), None, "still\nno")
    assert again.after.reason == "still no"
    assert path.read_text().count("can't judge") == 1
    done = write(repo, path, "d#1", token(path, again.after), "relevant")
    assert path.read_text() == TEXT.replace("d#1, verdict: null}", "d#1, verdict: relevant}")
    # undo brings the note back, as the page's undo does
    write(repo, path, "d#1", token(path, done.after), None, "still no")
    assert "# can't judge: still no\n      - {doc: d#1, verdict: null}" in path.read_text()
    # and the queue reads the note back as that entry's
    _d, text, batches = judge_queue.read_file(path)
    assert {e.doc: e.reason for e in judge_queue.entries_of(text, batches, "b")} == {
        "d#1": "still no",
        "d#2": None,
        "d#3": None,
    }
    assert {e.doc: e.batch_text for e in judge_queue.entries_of(text, batches, "b")} == {
        "d#1": "one",
        "d#2": "two",
        "d#3": None,
    }


def test_an_entry_in_another_layout_is_refused(repo: Path) -> None:
    path = repo / "q.yaml"
    odd = TEXT.replace("- {doc: d#1, verdict: null}", "- {doc: 'd#1', verdict: null}")
    path.write_text(odd)
    seen = block(path, "d#1")
    write(repo, path, "d#1", seen, "relevant")  # quoted id: fine
    assert "{doc: 'd#1', verdict: relevant}" in path.read_text()
    tricky = TEXT.replace("- {doc: d#1, verdict: null}", "- {doc: 'a, verdict: x', verdict: null}")
    path.write_text(tricky)
    seen = block(path, "a, verdict: x")
    with pytest.raises(WriteRefused):
        write(repo, path, "a, verdict: x", seen, "relevant")
    assert path.read_text() == tricky


def test_writers_in_parallel_lose_nothing(repo: Path) -> None:
    """Threads of two pages write the same file: each sees the lock, none loses a verdict."""
    path = repo / "q.yaml"
    lines = "".join(f"      - {{doc: x#{i}, verdict: null}}\n" for i in range(40))
    path.write_text(
        TEXT.replace("owner: me\n", "").replace("      - {doc: d#3, verdict: relevant}\n", lines)
    )
    errors: list[BaseException] = []

    def judge(i: int) -> None:
        for _ in range(20):  # a 409 is retried with what is on disk now, as the page does
            try:
                write(repo, path, f"x#{i}", block(path, f"x#{i}"), i % 3)
                return
            except Conflict:
                continue
            except BaseException as exc:
                errors.append(exc)
                return

    threads = [threading.Thread(target=judge, args=(i,)) for i in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    text = path.read_text()
    for i in range(40):
        assert f"{{doc: x#{i}, verdict: {i % 3}}}" in text


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    steps=st.lists(
        st.tuples(
            st.sampled_from(["d#1", "d#2", "d#3"]),
            st.one_of(
                st.none(),
                st.sampled_from(["relevant", "irrelevant"]),
                st.integers(0, 9),
                st.just(DuplicateOf("d#3")),
            ),
        ),
        max_size=8,
    )
)
def test_any_sequence_changes_only_tokens(repo: Path, steps: list[tuple[str, object]]) -> None:
    path = repo / "q.yaml"
    path.write_text(TEXT)
    for doc, verdict in steps:
        write(repo, path, doc, block(path, doc), verdict)  # type: ignore[arg-type]
        assert batch.first_change_beyond_verdicts(TEXT, path.read_text()) is None
    last = {doc: v for doc, v in steps}
    _d, text, batches = judge_queue.read_file(path)
    got = {e.doc: e.verdict for e in judge_queue.entries_of(text, batches, "b")}
    for doc, v in last.items():
        assert got[doc] == v


def test_crlf_line_ends_are_read_and_written_back_as_merge_does(repo: Path) -> None:
    """A CRLF label is read as LF and a verdict writes it back with LF, as ``merge`` and
    ``pool`` do (merge_collect.read_label_roundtrip): one convention for every writer."""
    path = repo / "q.yaml"
    path.write_bytes(TEXT.replace("\n", "\r\n").encode())
    done = write(repo, path, "d#2", block(path, "d#2"), 2)
    assert done.changed
    assert path.read_bytes() == TEXT.replace("d#2, verdict: null}", "d#2, verdict: 2}").encode()


@pytest.mark.parametrize("tail", ["", "pending: []\n"])
def test_a_file_with_nothing_pending_reads_as_no_batches(tmp_path: Path, tail: str) -> None:
    path = tmp_path / "q.yaml"
    path.write_text("id: q\nquestion: Q?\njudged_ids: []\n" + tail, encoding="utf-8")
    _d, _text, batches = judge_queue.read_file(path)
    assert batches == []
