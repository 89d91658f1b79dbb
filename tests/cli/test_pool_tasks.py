"""``pool --adjudicate`` and ``pool --second-opinion FRACTION [--seed S]`` (issue 24): batches
of judged documents, and ``merge`` keeping every verdict beside the new one."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelpool import api, yamlfile
from labelpool.model import label_from_data
from labelpool.verdicts import disputed, record
from labelpool.workflows.pool.tasks import sample
from pool_scenario import cli, git, make_repo

ANA = "Ana Lopez <ana@example.org>"
BO = "Bo Chen <bo@example.org>"
CY = "Cy Park <cy@example.org>"


def _label_text(qid: str, relevant: list[str], irrelevant: list[str], extra: str = "") -> str:
    judged = sorted(relevant + irrelevant)
    return (
        f"id: {qid}\nquestion: Which {qid}?\njudge: {ANA}\nrelevant_doc_ids:\n"
        + "".join(f"  - {d}\n" for d in sorted(relevant))
        + "judged_ids:\n"
        + "".join(f"  - {d}\n" for d in judged)
        + extra
        + "pool:\n  - system: a\n    k: 10\n    date: '2026-06-02'\n"
    )


LABELS = {
    "q1": _label_text("q1", [f"r{i}" for i in range(4)], [f"i{i}" for i in range(6)]),
    "q2": _label_text("q2", [f"r{i}" for i in range(2)], [f"i{i}" for i in range(8)]),
}


def _label(repo: Path, qid: str):  # type: ignore[no-untyped-def]
    return label_from_data(yamlfile.load_fast(repo / "labels" / f"{qid}.yaml"))


def _fill(repo: Path, qid: str, verdict: str) -> None:
    path = repo / "labels" / f"{qid}.yaml"
    path.write_text(path.read_text("utf-8").replace("verdict: null}", f"verdict: {verdict}}}"))


def test_second_opinion_samples_each_question_and_grade_seeded(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", labels=LABELS)
    plan = api.pool(second_opinion=0.5, seed=7, repo=repo).plan
    got = {q.qid: list(q.docs) for q in plan.batched}
    assert got == {q: sample(_label(repo, q), q, 0.5, 7) for q in ("q1", "q2")}
    for qid, docs in got.items():  # half of each stratum, rounded up or down
        label = _label(repo, qid)
        for grade in (0, 1):
            stratum = [d for d in label.judged if label.gain[d] == grade]
            k = sum(1 for d in docs if label.gain[d] == grade)
            assert abs(k - len(stratum) / 2) <= 0.5
    assert got == {
        q.qid: list(q.docs) for q in api.pool(second_opinion=0.5, seed=7, repo=repo).plan.batched
    }
    other = api.pool(second_opinion=0.5, seed=8, repo=repo).plan
    assert {q.qid: list(q.docs) for q in other.batched} != got
    assert plan.batch.endswith("-second-opinion")


def test_second_opinion_merged_beside_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo", labels=LABELS)
    assert cli(repo, "pool", "--second-opinion", "0.5", "--assign", BO) == 0
    text = (repo / "labels" / "q1.yaml").read_text("utf-8")
    assert "    task: second-opinion\n" in text and f"    judge: {BO}\n" in text
    # a task batch pools no system: its commit says no union and no unjudged rate
    message = git(repo, "log", "-1", "--format=%B")
    assert "Task: second-opinion; date: " in message and "Documents to judge: " in message
    assert "Union of the top" not in message and "Unjudged rate" not in message
    assert cli(repo, "validate", "--allow-pending") == 0
    picked = [d.doc for d in _label(repo, "q1").pending[0].docs]
    _fill(repo, "q1", "irrelevant")
    _fill(repo, "q2", "irrelevant")
    git(repo, "commit", "-qam", "second opinions")
    capsys.readouterr()
    assert cli(repo, "merge", "--verbose") == 0
    out = capsys.readouterr().out
    label = _label(repo, "q1")
    for doc in picked:
        first = "relevant" if doc.startswith("r") else "irrelevant"
        assert {(v.judge, v.verdict) for v in record(label, doc)} == {
            (ANA, first),
            (BO, "irrelevant"),
        }
    flipped = sorted(d for d in picked if d.startswith("r"))
    assert sorted(disputed(label)) == flipped
    assert not set(flipped) & set(label.relevant_doc_ids)  # an open dispute: its lowest
    if flipped:
        assert "new disputes:" in out and f"  q1: {flipped[0]}" in out
    assert cli(repo, "validate") == 0


def test_adjudicate_batches_the_disputes_and_the_adjudicator_wins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    extra = (
        "verdicts:\n  r0:\n"
        f"    - {{judge: {ANA}, verdict: relevant}}\n    - {{judge: {BO}, verdict: irrelevant}}\n"
    )
    text = _label_text("q1", ["r1"], ["i0", "r0"], extra)
    repo = make_repo(tmp_path / "repo", labels={"q1": text, "q2": LABELS["q2"]})
    assert cli(repo, "validate") == 0  # LP047: a warning
    assert cli(repo, "pool", "--adjudicate", "--assign", CY) == 0
    out = capsys.readouterr().out
    assert "disputed documents to adjudicate: 1 document in 1 question" in out
    label = _label(repo, "q1")
    assert [(b.task, b.judge, [d.doc for d in b.docs]) for b in label.pending] == [
        ("adjudicate", CY, ["r0"])
    ]
    assert "pending" not in (repo / "labels" / "q2.yaml").read_text("utf-8")
    _fill(repo, "q1", "2")
    git(repo, "commit", "-qam", "adjudicated")
    assert cli(repo, "merge") == 0
    label = _label(repo, "q1")
    assert record(label, "r0")[-1].adjudicator and record(label, "r0")[-1].judge == CY
    assert "r0" in label.relevant_doc_ids and label.grades["r0"] == 2
    assert not disputed(label)
    assert cli(repo, "validate") == 0


def test_second_opinion_needs_the_first_judge_recorded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo")  # labels without judge:
    assert cli(repo, "pool", "--second-opinion", "1") == 1
    assert "`labelpool fmt --upgrade` records who gave it" in capsys.readouterr().err


def test_a_second_opinion_for_the_first_judge_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "repo", labels=LABELS)
    before = (repo / "labels" / "q1.yaml").read_bytes()
    assert cli(repo, "pool", "--second-opinion", "1", "--assign", ANA) == 1
    assert "LP049" in capsys.readouterr().err
    assert (repo / "labels" / "q1.yaml").read_bytes() == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--adjudicate", "--second-opinion", "0.5"), "one at a time"),
        (("a", "--adjudicate"), "no runs, --depth or --max-docs"),
        (("--second-opinion", "0"), "a fraction above 0 and at most 1"),
        (("--second-opinion", "1.5"), "a fraction above 0 and at most 1"),
        ((), "missing argument RUN"),
    ],
)
def test_task_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    repo = make_repo(tmp_path / "repo", labels=LABELS)
    assert cli(repo, "pool", *args) == 2
    assert message in capsys.readouterr().err
