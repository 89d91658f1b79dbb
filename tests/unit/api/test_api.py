"""``labelpool.api``: each call's ``to_json()`` is exactly the CLI's ``--format json`` output
on the example, ``to_dict()`` that output parsed; calls raise the ``LabelpoolError`` classes
and print nothing; ``pool`` writes only when asked."""

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


def cli_text(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """What the command prints on stdout."""
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    return out


def cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    data = json.loads(cli_text(capsys, *argv))
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
    printed = cli_text(capsys, "score", *runs, "--format", "json")
    wanted = json.loads(printed)
    report = api.score(runs)
    by_name = api.score(["bm25", "dense", "hybrid"], repo=api.load("."))
    assert capsys.readouterr() == ("", "")
    assert report.to_json() == printed  # a string, as the command prints it (was the dict)
    assert report.to_dict() == wanted
    schema("score-report.schema.json").validate(report.to_dict())
    assert by_name.to_dict()["systems"][1]["measures"] == wanted["systems"][1]["measures"]  # type: ignore[index]
    assert report["dense"].system == "dense"
    per_query = cli_json(
        capsys, "score", "bm25", "--per-query", "--format", "json", "--repo", str(example)
    )
    assert api.score("bm25", per_query=True, repo=example).to_dict() == per_query


def test_compare_to_json_is_the_cli_json(example: Path, capsys: pytest.CaptureFixture[str]) -> None:
    printed = cli_text(
        capsys,
        *("compare", "runs/bm25.trec", "runs/dense.trec", "-m", "P@10,nDCG@10"),
        *("--format", "json", "--repo", str(example)),
    )
    wanted = json.loads(printed)
    got = api.compare(
        example / "runs" / "bm25.trec",
        example / "runs" / "dense.trec",
        measures=["P@10", "nDCG@10"],
        repo=example,
    )
    assert capsys.readouterr() == ("", "")
    assert got.to_json() == printed
    assert got.to_dict() == wanted
    schema("compare-report.schema.json").validate(got.to_dict())
    several = cli_json(
        capsys,
        *("compare", "dense", "bm25", "hybrid", "--baseline", "bm25", "-m", "RR@10"),
        *("--format", "json", "--repo", str(example)),
    )
    repo = api.load(example)
    assert api.compare("bm25", ["dense", "hybrid"], measures=["RR@10"], repo=repo).to_dict() == (
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
    schema("pool-report.schema.json").validate(planned.to_dict())
    assert planned.plan.documents > 0
    some = api.pool(
        ["bm25", "dense"], depth=20, questions="cancel-order, lamp-warranty", repo=example
    )
    assert [q["question"] for q in some.to_dict()["questions"]] == ["cancel-order", "lamp-warranty"]

    printed = cli_text(
        capsys, "pool", "bm25", "dense", "--depth", "20", "--format", "json", "--repo", str(example)
    )
    wanted = json.loads(printed)
    schema("pool-report.schema.json").validate(wanted)
    written = {k: v for k, v in wanted.items() if k not in ("written", "branch", "commit")}
    plan_only = {k: v for k, v in planned.to_dict().items() if k not in written}
    assert plan_only == {"written": [], "branch": None, "commit": None}
    assert {k: v for k, v in planned.to_dict().items() if k in written} == written
    branch = wanted["branch"]
    assert isinstance(branch, str)

    # the same batch written through the API: the same commit, the same JSON
    git("checkout", "-q", "main")
    git("branch", "-q", "-D", branch)
    done = api.pool(["bm25", "dense"], depth=20, write=True, repo=example)
    assert capsys.readouterr() == ("", "")
    assert done.to_dict() == wanted
    assert done.to_json() == printed
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


def test_compare_and_check_mark_a_dirty_tree_as_score_does(
    example: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``compare``'s and ``check``'s headers said ``labels <commit>`` with uncommitted label
    edits, where ``score`` says ``(dirty)``."""
    repo = ("--repo", str(example))
    runs = ("runs/bm25.trec", "runs/dense.trec", "-m", "P@10")

    def out(*argv: str) -> str:
        capsys.readouterr()
        assert main(list(argv)) in (0, 1, 3)  # check: 3 when unsure
        return capsys.readouterr().out

    clean = out("compare", *runs, *repo)
    assert clean.startswith("labels ") and "(dirty)" not in clean
    assert api.compare("bm25", "dense", repo=example).to_dict()["labels_dirty"] is False
    label = next((example / "labels").glob("*.yaml"))
    label.write_text(label.read_text(encoding="utf-8") + "# an edit not committed\n", "utf-8")
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=example, check=True, capture_output=True, text=True
    ).stdout.strip()
    assert f"labels at commit {commit} (dirty)" in out("score", "bm25", *repo)
    assert out("compare", *runs, *repo).startswith(f"labels {commit[:12]} (dirty)  k=10")
    check = out("check", "runs/dense.trec", "--against", "runs/bm25.trec", "-m", "P@10", *repo)
    assert check.startswith(f"labels {commit[:12]} (dirty)  k=10")
    markdown = out("compare", *runs, "--format", "markdown", *repo)
    assert f"Labels `{commit[:12]}` (dirty), k = 10" in markdown
    doc = json.loads(out("compare", *runs, "--format", "json", *repo))
    assert (doc["labels_commit"], doc["labels_dirty"]) == (commit, True)
    schema("compare-report.schema.json").validate(doc)
    report = api.compare("bm25", "dense", measures=["P@10"], repo=example)
    assert report.to_dict()["labels_dirty"] is True
    assert report.to_markdown() == markdown


@pytest.mark.parametrize("call", ["load", "score", "compare", "pool"])
def test_outside_a_repository_the_error_names_repo_not_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], call: str
) -> None:
    """The API's ConfigError said "use --repo DIR", an option its caller does not have."""
    nowhere = tmp_path / "nowhere"
    nowhere.mkdir()
    calls = {
        "load": lambda: api.load(nowhere),
        "score": lambda: api.score("bm25", repo=nowhere),
        "compare": lambda: api.compare("bm25", "dense", repo=nowhere),
        "pool": lambda: api.pool("bm25", depth=5, repo=nowhere),
    }
    with pytest.raises(api.UsageError) as refused:
        calls[call]()
    message = str(refused.value)
    assert "not inside a label repository" in message
    assert "pass repo=PATH, or see `labelpool init --help`" in message
    assert "--repo" not in message
    assert capsys.readouterr() == ("", "")
