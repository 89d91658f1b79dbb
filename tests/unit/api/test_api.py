"""``labelpool.api``: each call's ``to_json()`` equals the CLI's ``--format json`` output on the
example; calls raise the ``LabelpoolError`` classes and print nothing; ``pool`` writes only
when asked."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

from api_scenario import IDENTITY, ROOT, copy_example
from labelpool import api
from labelpool.cli import main
from labelpool.runs import RunError
from labelpool.scoring.measures import MeasureError


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for key, value in IDENTITY.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    repo = copy_example(tmp_path / "example")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "labels"]):
        subprocess.run(["git", *args], cwd=repo, check=True)
    return repo


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def schema(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads((ROOT / "schema" / name).read_text()))


def test_public_names() -> None:
    assert sorted(api.__all__) == api.__all__
    for name in api.__all__:
        assert hasattr(api, name), name
    assert {"load", "score", "compare", "pool"} <= set(api.__all__)


def test_load(example: Path) -> None:
    repo = api.load(example / "labels")  # any folder inside the repository
    assert repo.root == example.resolve()
    assert len(repo.questions) == 60
    assert repo.questions == tuple(sorted(repo.questions))
    assert repo.label(repo.questions[0]).id == repo.questions[0]


def test_score_to_json_is_the_cli_json(
    example: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = ["runs/bm25.trec", "runs/dense.trec", "runs/hybrid.trec"]
    monkeypatch.chdir(example)  # relative run paths are read from the working folder
    wanted = cli_json(capsys, "score", *runs, "--format", "json")
    report = api.score(runs)
    by_name = api.score(["bm25", "dense", "hybrid"], repo=api.load("."))
    assert capsys.readouterr() == ("", "")
    assert report.to_json() == wanted
    schema("score-report.schema.json").validate(report.to_json())
    assert by_name.to_json()["systems"][1]["measures"] == wanted["systems"][1]["measures"]  # type: ignore[index]
    assert report["dense"].system == "dense"
    per_query = cli_json(
        capsys, "score", "bm25", "--per-query", "--format", "json", "--repo", str(example)
    )
    assert api.score("bm25", per_query=True, repo=example).to_json() == per_query


def test_compare_to_json_is_the_cli_json(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wanted = cli_json(
        capsys,
        *("compare", "runs/bm25.trec", "runs/dense.trec", "-m", "P@10,nDCG@10"),
        *("--format", "json", "--repo", str(example)),
    )
    got = api.compare(
        example / "runs" / "bm25.trec",
        example / "runs" / "dense.trec",
        measures=["P@10", "nDCG@10"],
        repo=example,
    )
    assert capsys.readouterr() == ("", "")
    assert got.to_json() == wanted
    schema("compare-report.schema.json").validate(got.to_json())
    several = cli_json(
        capsys,
        *("compare", "dense", "bm25", "hybrid", "--baseline", "bm25", "-m", "RR@10"),
        *("--format", "json", "--repo", str(example)),
    )
    repo = api.load(example)
    assert api.compare("bm25", ["dense", "hybrid"], measures=["RR@10"], repo=repo).to_json() == (
        several
    )


def test_pool_writes_only_when_asked_and_to_json_is_the_cli_json(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def tree() -> dict[str, bytes]:
        return {str(p): p.read_bytes() for p in sorted((example / "labels").iterdir())}

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=example, check=True, capture_output=True, text=True
        ).stdout

    before = tree()
    planned = api.pool(["bm25", "dense"], depth=20, repo=example)
    assert tree() == before and git("status", "--porcelain") == ""
    assert git("branch", "--list").split() == ["*", "main"]
    schema("pool-report.schema.json").validate(planned.to_json())
    assert planned.plan.documents > 0
    some = api.pool(
        ["bm25", "dense"], depth=20, questions="cancel-order, lamp-warranty", repo=example
    )
    assert [q["question"] for q in some.to_json()["questions"]] == ["cancel-order", "lamp-warranty"]

    wanted = cli_json(
        capsys, "pool", "bm25", "dense", "--depth", "20", "--format", "json", "--repo", str(example)
    )
    schema("pool-report.schema.json").validate(wanted)
    written = {k: v for k, v in wanted.items() if k not in ("written", "branch", "commit")}
    plan_only = {k: v for k, v in planned.to_json().items() if k not in written}
    assert plan_only == {"written": [], "branch": None, "commit": None}
    assert {k: v for k, v in planned.to_json().items() if k in written} == written
    branch = wanted["branch"]
    assert isinstance(branch, str)

    # the same batch written through the API: the same commit, the same JSON
    git("checkout", "-q", "main")
    git("branch", "-q", "-D", branch)
    done = api.pool(["bm25", "dense"], depth=20, write=True, repo=example)
    assert capsys.readouterr() == ("", "")
    assert done.to_json() == wanted
    assert git("rev-parse", "HEAD").strip() == wanted["commit"]
    assert done.to_text().startswith(f"batch {done.plan.batch}: systems bm25, dense")


def test_errors_are_raised_never_printed(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RunError) as missing:
        api.score(["no-such-system"], repo=example)
    assert isinstance(missing.value, api.InputError)
    with pytest.raises(MeasureError) as measure:
        api.compare("bm25", "dense", measures=["ndcg@10"], repo=example)
    assert isinstance(measure.value, api.UsageError)
    assert "nDCG@10" in str(measure.value)
    with pytest.raises(api.UsageError, match="--depth must be at least 1, not 0"):
        api.pool(["bm25"], depth=0, repo=example)
    with pytest.raises(api.UsageError, match="two runs are named 'bm25'"):
        api.score(["bm25", example / "runs" / "bm25.trec"], repo=example)
    (example / "labels" / "broken.yaml").write_text("id: [\n")
    with pytest.raises(api.LabelpoolError):
        api.load(example)
    assert capsys.readouterr() == ("", "")
