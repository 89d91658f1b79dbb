"""``compare`` and ``check`` where open disputes are among the documents to judge (issue 24,
``disputes = "bounds"``): the ``next:`` lines, the verdicts and the JSON point at ``pool
--adjudicate`` (``pool --depth`` leaves an open dispute out: it is judged), and at ``pool
--depth`` only for the documents nobody judged."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from tests import disputes_scenario as scenario

from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
COMPARE_SCHEMA = json.loads((ROOT / "schema" / "compare-report.schema.json").read_text())
ADJUDICATE = "labelpool pool --adjudicate"


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(folder))
    return folder


def with_mixed_run(repo: Path) -> Path:
    """``scenario`` plus ``mix``: each question's disputed ``b`` and ``n``, which nobody
    judged."""
    rows = [
        f"{scenario.qid(i)} Q0 {scenario.qid(i)}-{d} {r} {10 - r} mix"
        for i in range(1, scenario.N + 1)
        for r, d in enumerate("bn", start=1)
    ]
    (repo / "runs" / "mix.trec").write_text("\n".join(rows) + "\n", encoding="utf-8")
    scenario.commit_all(repo, "mix")
    return repo


@pytest.fixture
def disputed(repo: Path) -> Path:
    return with_mixed_run(scenario.build(repo))


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def compare(capsys: pytest.CaptureFixture[str], repo: Path, chal: str, *extra: str) -> str:
    code, out, err = run_cli(
        capsys, "compare", "base", chal, "-m", "P@2", "--wide", "--repo", str(repo), *extra
    )
    assert code == 0, err
    return out


def nexts(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("next:")]


def test_every_document_to_judge_disputed_suggests_adjudication_only(
    disputed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = compare(capsys, disputed, "chal")
    assert nexts(out) == [f"next: {ADJUDICATE}"]
    assert "40 documents over 20 questions to judge, 40 of them open disputes" in out


def test_some_documents_disputed_suggests_both_batches(
    disputed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = compare(capsys, disputed, "mix")
    assert nexts(out) == [
        f"next: {ADJUDICATE}",
        "next: labelpool pool runs/base.trec runs/mix.trec --depth 2",
    ]
    assert "40 documents over 20 questions to judge, 20 of them open disputes" in out


def test_json_names_the_adjudication(disputed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(compare(capsys, disputed, "mix", "--format", "json"))
    jsonschema.validate(doc, COMPARE_SCHEMA)
    (c,) = doc["comparisons"]
    assert c["adjudicate_command"] == ADJUDICATE
    assert c["judge_cost"] == {"documents": 40, "questions": 20, "fraction": 0.5, "disputed": 20}
    assert c["verdict"].endswith(
        "judge 40 documents over 20 questions (labelpool pool runs/base.trec runs/mix.trec "
        f"--depth 2; 20 of them open disputes: {ADJUDICATE})"
    )


def test_settled_disputes_keep_the_pool_hint_alone(
    disputed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Under another policy the disputes count as settled: nothing to adjudicate for the
    scores, and the output is as without disputes (the JSON has no adjudicate field)."""
    out = compare(capsys, disputed, "mix", "--disputes", "max")
    assert nexts(out) == ["next: labelpool pool runs/base.trec runs/mix.trec --depth 2"]
    doc = json.loads(compare(capsys, disputed, "mix", "--disputes", "max", "--format", "json"))
    (c,) = doc["comparisons"]
    assert "adjudicate_command" not in c and "disputed" not in c["judge_cost"]


def test_check_points_at_adjudication(disputed: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys,
        "check",
        "runs/chal.trec",
        "--against",
        "runs/base.trec",
        "-m",
        "P@2",
        "--wide",
        "--repo",
        str(disputed),
    )
    assert code == 3, err
    assert nexts(out) == [f"next: {ADJUDICATE}"]
    assert out.endswith(
        "  P@2: uninterpretable (challenger unjudged 100% vs 0%); judge 40 documents over 20 "
        f"questions, every one an open dispute ({ADJUDICATE})\n"
    )
    code, out, _ = run_cli(
        capsys,
        "check",
        "runs/mix.trec",
        "--against",
        "runs/base.trec",
        "-m",
        "P@2",
        "--format",
        "json",
        "--repo",
        str(disputed),
    )
    assert code == 3
    (reason,) = json.loads(out)["check"]["reasons"]
    assert reason.endswith(
        "(labelpool pool runs/base.trec runs/mix.trec --depth 2; 20 of them open disputes: "
        f"{ADJUDICATE})"
    )
