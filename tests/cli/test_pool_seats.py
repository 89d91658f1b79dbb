"""``pool --judges N`` and ``--assign``: one pending entry per seat, blind, each shuffled; the
seat rules LP048-LP049; ``todo`` counts each seat (issue 24)."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelpool import batch, yamlfile
from labelpool.model import label_from_data
from pool_scenario import cli, git, make_repo

ANA = "Ana Lopez <ana@example.org>"
RUNNER = "Runner <runner@example.invalid>"


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    return make_repo(tmp_path / "repo")


def _label(repo: Path, qid: str):  # type: ignore[no-untyped-def]
    return label_from_data(yamlfile.load_fast(repo / "labels" / f"{qid}.yaml"))


def test_judges_two_writes_one_entry_per_seat_each_with_every_document(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(scenario, "pool", "a", "b", "--depth", "3", "--judges", "2") == 0
    out = capsys.readouterr().out
    assert "judges: 2 per document, one seat each, blind" in out
    label = _label(scenario, "returns-damaged")
    assert [b.seat for b in label.pending] == [1, 2]
    assert len({b.batch for b in label.pending}) == 1
    first, second = ([d.doc for d in b.docs] for b in label.pending)
    assert (
        sorted(first)
        == sorted(second)
        == sorted(["faq-shipping#damaged", "policy-returns-v2#sec-2", "tenant-acme#returns"])
    )
    # each seat in the order seeded from (question, batch, seat): the same on every run
    name = label.pending[0].batch
    assert tuple(first) == batch.seat_order(first, "returns-damaged", name, 1)
    assert tuple(second) == batch.seat_order(first, "returns-damaged", name, 2)
    assert all(b.judge is None for b in label.pending)
    assert "Judges: 2, each judging every document blind." in git(
        scenario, "log", "-1", "--format=%B"
    )
    assert cli(scenario, "validate", "--allow-pending") == 0


def test_seat_orders_differ_and_are_stable() -> None:
    docs = [f"d{i}" for i in range(12)]
    one = batch.seat_order(docs, "q", "b", 1)
    assert one == batch.seat_order(list(reversed(docs)), "q", "b", 1)
    assert one != batch.seat_order(docs, "q", "b", 2)
    assert sorted(one) == sorted(docs)


def test_assign_writes_each_seats_judge_by_email_or_full_identity(
    scenario: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # runner@example.invalid is the author of the repository's commit: known by email
    code = cli(
        scenario, "pool", "a", "b", "--depth", "3", "--judges", "2",
        "--assign", f"{ANA},runner@example.invalid",
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    label = _label(scenario, "cancel-order")
    assert [(b.seat, b.judge) for b in label.pending] == [(1, ANA), (2, RUNNER)]
    text = (scenario / "labels" / "cancel-order.yaml").read_text("utf-8")
    assert f"    judge: {ANA}\n" in text  # plain, one line, as a reviewer reads it
    assert cli(scenario, "validate", "--allow-pending") == 0
    assert cli(scenario, "todo") == 0
    out = capsys.readouterr().out
    assert "seat 1: 0/5 filled" in out and "seat 2: 0/5 filled" in out
    assert f"judge: {ANA}" in out


def test_judges_one_is_todays_form(scenario: Path) -> None:
    assert cli(scenario, "pool", "a", "b", "--depth", "3", "--judges", "1") == 0
    text = (scenario / "labels" / "cancel-order.yaml").read_text("utf-8")
    assert "seat:" not in text and "judge:" not in text


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--judges", "0"), "--judges must be at least 1"),
        (("--judges", "2", "--assign", ANA), "--assign names 1 judge for 2 seats"),
        (("--judges", "2", "--assign", f"{ANA},{ANA}"), "names a judge twice"),
        (
            ("--judges", "2", "--assign", f"{ANA},nobody@example.org"),
            "'nobody@example.org' is not a known judge",
        ),
    ],
)
def test_seat_usage_errors_exit_2_and_write_nothing(
    scenario: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    before = (scenario / "labels" / "cancel-order.yaml").read_bytes()
    assert cli(scenario, "pool", "a", "b", "--depth", "3", *args) == 2
    err = capsys.readouterr().err
    assert message in err, err
    if "known judge" in message:
        assert RUNNER in err  # the known judges are listed
    assert (scenario / "labels" / "cancel-order.yaml").read_bytes() == before


HEAD = """\
id: q1
question: Which?
judge: Ana Lopez <ana@example.org>
relevant_doc_ids:
  - d1
judged_ids:
  - d1
pool:
  - system: a
    k: 1
    date: '2026-06-02'
pending:
"""


def _entry(seat: object, docs: str, judge: str | None = None, task: str | None = None) -> str:
    out = "  - batch: 'b1'\n    systems:\n      - a\n    depth: 1\n    date: '2026-06-02'\n"
    if task is not None:
        out += f"    task: {task}\n"
    if seat is not None:
        out += f"    seat: {seat}\n"
    if judge is not None:
        out += f"    judge: {judge}\n"
    out += "    docs:\n"
    out += "".join(f"      - {{doc: {d}, verdict: null}}\n" for d in docs.split())
    return out


@pytest.mark.parametrize(
    ("entries", "found"),
    [
        ((_entry(1, "d2"), _entry(1, "d2")), "LP048 pending[1] (b1): seat 1 is taken twice"),
        ((_entry(1, "d2"), _entry(3, "d2")), "LP048 pending[1] (b1): seat 3 is not from 1 to 2"),
        ((_entry(None, "d2"), _entry(2, "d2")), "each needs a `seat` from 1 to 2"),
        ((_entry(None, "d2", task="review"),), "LP048 pending[0]: task 'review' is"),
        ((_entry(None, "d1", judge=ANA),), f"LP049 pending[0] (b1): {ANA} judged d1 already"),
        (
            (_entry(1, "d2", judge=ANA), _entry(2, "d2", judge=ANA)),
            f"LP049 pending[1] (b1): {ANA} holds a seat of this batch already (pending[0])",
        ),
        (
            (_entry(None, "d1", task="adjudicate", judge="Cy Park <cy@example.org>"),),
            "LP049 pending[0] (b1): d1 has fewer than two verdicts",
        ),
    ],
)
def test_seat_rules(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    entries: tuple[str, ...],
    found: str,
) -> None:
    repo = make_repo(tmp_path / "repo", labels={"q1": HEAD + "".join(entries)}, commit=False)
    assert cli(repo, "validate", "--allow-pending") == 1
    out = capsys.readouterr().out
    assert found in out, out


def test_valid_seats_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = HEAD + _entry(1, "d2", judge=ANA) + _entry(2, "d2", judge=RUNNER)
    repo = make_repo(tmp_path / "repo", labels={"q1": text}, commit=False)
    assert cli(repo, "validate", "--allow-pending") == 0, capsys.readouterr().out
