"""LP043-LP047, the record of judges: each rule on a failing file at its exact position, and
the file in the new form that passes; LP036 knows the record's typos."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from labelpool.cli import main

ANA = "Ana Lopez <ana@example.org>"
BO = "Bo Chen <bo@example.org>"
HEAD = f"""\
id: q1
question: Are shops open on Sundays?
judge: {ANA}
relevant_doc_ids:
  - a#1
judged_ids:
  - a#1
  - b#2
grades:
  a#1: 2
"""
POOL = """\
pool:
  - system: bm25
    k: 10
    date: '2026-12-01'
"""
VALID = (
    HEAD
    + f"""\
verdicts:
  a#1:
    - {{judge: {ANA}, verdict: 2}}
    - {{judge: {BO}, verdict: 2}}
  b#2:
    - {{judge: umbrela-3, kind: machine, verdict: irrelevant}}
"""
    + POOL
)


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def run(repo: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, list[str]]:
    (repo / "labels" / "q1.yaml").write_text(text, encoding="utf-8")
    old = Path.cwd()
    os.chdir(repo)
    try:
        code = main(["validate"])
    finally:
        os.chdir(old)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out.splitlines()


def test_the_new_form_validates(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(repo, capsys, VALID) == (0, [])


def test_a_file_with_only_a_judge_validates(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(repo, capsys, HEAD + POOL) == (0, [])
    machine = HEAD.replace(ANA, "umbrela-3\njudge_kind: machine") + POOL
    assert run(repo, capsys, machine) == (0, [])


CASES = {
    "LP043 a judge twice": (
        VALID.replace(f"{{judge: {BO}, verdict: 2}}", f"{{judge: {ANA}, verdict: 1}}"),
        f"labels/q1.yaml:14:7: LP043 verdicts.a#1[1]: {ANA} gives a second verdict on a#1 "
        "(one verdict per judge and document)",
    ),
    "LP043 two adjudicators": (
        VALID.replace(
            "  b#2:\n",
            "    - {adjudicator: Cy <cy@x.org>, verdict: 2}\n"
            "    - {adjudicator: Di <di@x.org>, verdict: 2}\n  b#2:\n",
        ),
        "labels/q1.yaml:16:7: LP043 verdicts.a#1[3]: a second adjudicator line",
    ),
    "LP044 not judged": (
        VALID.replace("  b#2:\n", "  c#3:\n    - {judge: Bo <b@x>, verdict: 1}\n  b#2:\n"),
        "labels/q1.yaml:15:3: LP044 verdicts.c#3: c#3 is not judged (add it to `judged_ids`, "
        "or remove its verdicts)",
    ),
    "LP045 file judge not a person": (
        VALID.replace(f"judge: {ANA}\n", "judge: ana\n"),
        "labels/q1.yaml:3:8: LP045 judge: 'ana' is not a person's `Name <email>` (as git names "
        "an author); a machine judge has `kind: machine`",
    ),
    "LP045 unknown judge_kind": (
        VALID.replace(f"judge: {ANA}\n", f"judge: {ANA}\njudge_kind: robot\n"),
        "labels/q1.yaml:4:13: LP045 judge_kind: 'robot' is not a kind of judge: `person` "
        "(the default) or `machine`",
    ),
    "LP045 unknown kind": (
        VALID.replace("kind: machine", "kind: llm"),
        "labels/q1.yaml:16:32: LP045 verdicts.b#2[0]: kind 'llm' is not `person` or `machine`",
    ),
    "LP045 adjudicator not a person": (
        VALID.replace("  b#2:\n", "    - {adjudicator: umbrela-3, verdict: 2}\n  b#2:\n"),
        "labels/q1.yaml:15:21: LP045 verdicts.a#1[2]: 'umbrela-3' is not a person's "
        "`Name <email>` (as git names an author); a machine judge has `kind: machine`",
    ),
    "LP046 relevance": (
        VALID.replace("kind: machine, verdict: irrelevant", "kind: machine, verdict: relevant"),
        "labels/q1.yaml:15:3: LP046 verdicts.b#2: the verdict that counts is relevant, but "
        "`relevant_doc_ids` and `grades` say irrelevant",
    ),
    "LP046 grade": (
        VALID.replace(f"{{judge: {BO}, verdict: 2}}", f"{{judge: {BO}, verdict: 3}}").replace(
            f"{{judge: {ANA}, verdict: 2}}", f"{{judge: {ANA}, verdict: 3}}"
        ),
        "labels/q1.yaml:12:3: LP046 verdicts.a#1: the verdict that counts is grade 3, but "
        "`relevant_doc_ids` and `grades` say grade 2",
    ),
    "LP046 open dispute not its lowest": (
        VALID.replace(f"{{judge: {BO}, verdict: 2}}", f"{{judge: {BO}, verdict: irrelevant}}"),
        "labels/q1.yaml:12:3: LP046 verdicts.a#1: the verdict that counts (an open dispute: "
        "its lowest) is irrelevant, but `relevant_doc_ids` and `grades` say grade 2",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_rule_reports_exact_position(
    case: str, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = CASES[case]
    code, lines = run(repo, capsys, text)
    assert code == 1
    assert expected in lines, lines


def test_an_open_dispute_is_a_warning(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = VALID.replace(f"{{judge: {BO}, verdict: 2}}", f"{{judge: {BO}, verdict: 1}}")
    text = text.replace("grades:\n  a#1: 2\n", "")
    code, lines = run(repo, capsys, text)
    assert (code, lines) == (
        0,
        [
            "labels/q1.yaml:10:3: LP047 warning: verdicts.a#1: an open dispute (the judges "
            "say grade 2, relevant; no adjudicator): `labelpool pool --adjudicate` makes the "
            "batch that settles it"
        ],
    )


def test_an_adjudicator_settles_a_dispute(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = VALID.replace(f"{{judge: {BO}, verdict: 2}}", f"{{judge: {BO}, verdict: irrelevant}}")
    text = text.replace("  b#2:\n", "    - {adjudicator: Cy Park <cy@x.org>, verdict: 2}\n  b#2:\n")
    assert run(repo, capsys, text) == (0, [])


def test_a_machine_does_not_outrank_a_person(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = VALID.replace(
        "  b#2:\n", "    - {judge: umbrela-3, kind: machine, verdict: irrelevant}\n  b#2:\n"
    )
    assert run(repo, capsys, text) == (0, [])


@pytest.mark.parametrize(
    ("typo", "near"),
    [("judged_by", "judge"), ("judges", "judge"), ("kind", "judge_kind"), ("votes", "verdicts")],
)
def test_lp036_knows_the_record(
    typo: str, near: str, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = run(repo, capsys, VALID + f"{typo}: x\n")
    assert code == 0
    assert lines == [
        f"labels/q1.yaml:21:1: LP036 warning: unknown key `{typo}`: did you mean `{near}`?"
    ]


def test_lp036_inside_a_verdict_line(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run(repo, capsys, VALID.replace("kind: machine", "kind: machine, grade: 1"))
    assert code == 0
    assert lines == [
        "labels/q1.yaml:16:41: LP036 warning: verdicts.b#2[0]: unknown key `grade`: "
        "did you mean `verdict`?"
    ]
