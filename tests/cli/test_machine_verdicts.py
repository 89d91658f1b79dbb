"""Machine verdicts in scoring (issue 25): ``--judges people|machines|all``, the machine-judged
rate, compare's reading without the machine verdicts, check's machine gate, agreement's
``machine:NAME`` and ``people`` raters and ``pool --second-opinion --of machines``, through
the CLI and the API on label files holding machine verdicts in the record form."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import jsonschema
import pytest
from tests import disputes_scenario, machines_scenario
from tests.machines_scenario import MACHINE

from labelpool import api
from labelpool.cli import main

ROOT = Path(__file__).resolve().parents[2]
SCORE_SCHEMA = json.loads((ROOT / "schema" / "score-report.schema.json").read_text())
COMPARE_SCHEMA = json.loads((ROOT / "schema" / "compare-report.schema.json").read_text())


@pytest.fixture(autouse=True)
def private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def judged(repo: Path) -> Path:
    return machines_scenario.build(repo)


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def score_json(capsys: pytest.CaptureFixture[str], repo: Path, *extra: str) -> dict:
    code, out, err = run_cli(
        capsys,
        "score",
        "base",
        "chal",
        "-m",
        "P@2",
        "--format",
        "json",
        "--repo",
        str(repo),
        *extra,
    )
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, SCORE_SCHEMA)
    return doc


def system(doc: dict, name: str) -> dict:
    return next(s for s in doc["systems"] if s["system"] == name)


@pytest.mark.parametrize(
    ("judges", "base_p", "chal_p", "base_unj", "chal_unj", "chal_machine"),
    [
        (None, 0.5, 1.0, 0.0, 0.0, 1.0),  # all: the machine's verdicts count where alone
        ("all", 0.5, 1.0, 0.0, 0.0, 1.0),
        ("people", 0.5, 0.0, 0.0, 1.0, None),  # b and c: judged by a machine alone
        ("machines", 0.0, 1.0, 1.0, 0.0, 1.0),  # a and z: judged by a person alone
    ],
)
def test_judges_chooses_whose_verdicts_count(
    judged: Path,
    capsys: pytest.CaptureFixture[str],
    judges: str | None,
    base_p: float,
    chal_p: float,
    base_unj: float,
    chal_unj: float,
    chal_machine: float | None,
) -> None:
    doc = score_json(capsys, judged, *(["--judges", judges] if judges else []))
    base, chal = system(doc, "base"), system(doc, "chal")
    assert base["measures"]["P@2"]["raw"] == base_p
    assert chal["measures"]["P@2"]["raw"] == chal_p
    assert (base["unjudged_rate"], chal["unjudged_rate"]) == (base_unj, chal_unj)
    assert chal.get("machine_rate") == chal_machine
    if chal_machine is not None:
        assert base["machine_rate"] == 0.0
    assert doc.get("judges") == (judges if judges in ("people", "machines") else None)


def test_a_person_outranks_a_machine(judged: Path) -> None:
    """``d``: irrelevant by Ana, relevant by the machine: Ana's verdict counts under all."""
    repo = api.load(judged)
    report = api.score(
        str(judged / "runs" / "base.trec"), measures=["P@1"], repo=repo, per_query=True
    )
    assert report["base"].machine_rate == 0.0
    labels = __import__("labelpool.labelset", fromlist=["scored"]).scored(repo.config, repo.labels)
    assert "q01-d" not in labels["q01"].relevant_doc_ids
    assert "q01-b" in labels["q01"].relevant_doc_ids
    assert labels.machine_judged["q01"] == frozenset({"q01-b", "q01-c"})
    people = __import__("labelpool.labelset", fromlist=["scored"]).scored(
        repo.config, repo.labels, judges="people"
    )
    assert not people.machine_judged
    assert people["q01"].judged == frozenset({"q01-a", "q01-d", "q01-e", "q01-z"})


def test_text_csv_and_markdown_show_the_machine_rate(
    judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_cli(capsys, "score", "base", "chal", "-m", "P@2", "--repo", str(judged))
    assert code == 0, err
    assert "machine@10" in out.splitlines()[0]
    assert "100.0%" in next(line for line in out.splitlines() if line.startswith("chal"))
    assert "judged only by a machine" in out
    code, out, _ = run_cli(
        capsys, "score", "base", "chal", "-m", "P@2", "--format", "csv", "--repo", str(judged)
    )
    assert "machine_rate" in out.splitlines()[0]
    code, out, _ = run_cli(
        capsys, "score", "base", "chal", "-m", "P@2", "--format", "markdown", "--repo", str(judged)
    )
    assert "machine@10" in out and "Machine@10: the share" in out
    code, out, _ = run_cli(
        capsys, "score", "base", "chal", "-m", "P@2", "--judges", "people", "--repo", str(judged)
    )
    assert "machine" not in out


def test_no_machine_verdict_no_machine_rate(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    disputes_scenario.build(repo)
    for judges in ("all", "people"):
        doc = score_json(capsys, repo, "--judges", judges, "--per-query")
        assert all("machine_rate" not in s for s in doc["systems"])
        assert "judges" not in doc or judges != "all"
    code, out, _ = run_cli(capsys, "score", "base", "chal", "--repo", str(repo))
    assert code == 0 and "machine" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--judges", "robots"], "--judges must be one of people, machines, all"),
        (["--judge", MACHINE, "--judges", "people"], "is a machine"),
        (["--judge", "ana@example.org", "--judges", "machines"], "is a person"),
        (["--judges", "people", "--format", "trec_eval"], "not with --format trec_eval"),
    ],
)
def test_contradictory_combinations_are_usage_errors(
    judged: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run_cli(capsys, "score", "base", "chal", "--repo", str(judged), *args)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_judge_and_judges_combine(judged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--judge MACHINE under all: the machine's own verdict wherever it gave one (d counts
    relevant, judged by a machine); --judge ANA under people: Ana's own."""
    doc = score_json(capsys, judged, "--judge", MACHINE, "--per-query")
    assert system(doc, "chal")["machine_rate"] == 1.0
    doc = score_json(capsys, judged, "--judge", "ana@example.org", "--judges", "people")
    assert system(doc, "chal")["unjudged_rate"] == 1.0


def test_config_default_judges(judged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with (judged / "pyproject.toml").open("a", encoding="utf-8") as f:
        f.write('score_judges = "people"\n')
    doc = score_json(capsys, judged)
    assert doc["judges"] == "people"
    assert system(doc, "chal")["unjudged_rate"] == 1.0
    doc = score_json(capsys, judged, "--judges", "all")
    assert system(doc, "chal")["machine_rate"] == 1.0


def test_bad_config_values_are_usage_errors(
    judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (judged / "pyproject.toml").read_text(encoding="utf-8")
    for line in ('score_judges = "robots"', "machine_min_agreement = 2", "machine_min_sample = 0"):
        (judged / "pyproject.toml").write_text(text + line + "\n", encoding="utf-8")
        code, _, err = run_cli(capsys, "score", "base", "--repo", str(judged))
        assert code == 2, line
        assert line.split(" =")[0] in err


def test_compare_says_the_reading_without_machines(
    judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", "base", "chal", "-m", "P@2", "--repo", str(judged)]
    code, out, err = run_cli(capsys, *args, "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    jsonschema.validate(doc, COMPARE_SCHEMA)
    c = doc["comparisons"][0]
    assert (c["baseline_machine"], c["challenger_machine"]) == (0.0, 1.0)
    assert c["verdict_code"] == "improvement"
    assert doc["without_machines"] == [
        "P@2 chal vs base: improvement with the machine verdicts, uninterpretable on people's "
        "verdicts alone (--judges people)"
    ]
    code, out, _ = run_cli(capsys, *args)
    assert "without the machine verdicts the reading changes:" in out
    assert "machine@k: the share" in out
    code, out, _ = run_cli(capsys, *args, "--format", "markdown")
    assert "Without the machine verdicts the reading changes:" in out
    code, out, _ = run_cli(capsys, *args, "--judges", "people", "--format", "json")
    doc = json.loads(out)
    jsonschema.validate(doc, COMPARE_SCHEMA)
    assert doc["judges"] == "people"
    assert "without_machines" not in doc and "baseline_machine" not in doc["comparisons"][0]
    assert doc["comparisons"][0]["verdict_code"] == "uninterpretable"


def test_compare_api_without_machines(judged: Path) -> None:
    report = api.compare("base", "chal", measures=["P@2"], repo=judged)
    assert report.result.without_machines
    assert report.comparisons[0].challenger_machine == 1.0
    same = api.compare("base", "chal", measures=["P@2"], repo=judged, judges="machines")
    assert same.result.without_machines == ()
    assert same.result.judges == "machines"


def test_compare_without_machine_verdicts_is_as_before(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    disputes_scenario.build(repo)
    code, out, _ = run_cli(
        capsys, "compare", "base", "chal", "--repo", str(repo), "--format", "json"
    )
    assert code == 0
    doc = json.loads(out)
    assert "without_machines" not in doc and "judges" not in doc
    assert "baseline_machine" not in doc["comparisons"][0]


def _gate(repo: Path, agreement: float | None, sample: int | None = None) -> None:
    with (repo / "pyproject.toml").open("a", encoding="utf-8") as f:
        if agreement is not None:
            f.write(f"machine_min_agreement = {agreement}\n")
        if sample is not None:
            f.write(f"machine_min_sample = {sample}\n")


def _check(capsys: pytest.CaptureFixture[str], repo: Path, *extra: str) -> tuple[int, str]:
    code, out, err = run_cli(
        capsys,
        "check",
        str(repo / "runs" / "chal.trec"),
        "--against",
        str(repo / "runs" / "base.trec"),
        "-m",
        "P@2",
        "--repo",
        str(repo),
        *extra,
    )
    return code, out + err


def test_check_machine_gate_off_by_default(
    judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _check(capsys, judged)
    assert code == 0
    assert "machine@k" in out and "kappa" not in out


def test_check_fails_while_a_machine_disagrees_with_people(
    judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """d and e of 20 questions: 40 documents both judged; the machine says relevant to all,
    Ana to half: kappa 0."""
    _gate(judged, 0.4, 40)
    code, out = _check(capsys, judged)
    assert code == 3
    assert "check: not-meaningful" in out
    assert f"machine judge {MACHINE}: kappa with people 0.00 on 40" in " ".join(out.split())
    code, out = _check(capsys, judged, "--format", "json")
    doc = json.loads(out[: out.rindex("}") + 1])
    jsonschema.validate(doc, COMPARE_SCHEMA)
    assert doc["check"]["exit_code"] == 3
    assert "machine_min_agreement 0.4" in doc["check"]["reasons"][0]
    code, out = _check(capsys, judged, "--judges", "people")  # the machine does not count
    assert "kappa" not in out


def test_check_passes_with_a_low_bar(judged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _gate(judged, -0.5, 40)
    code, out = _check(capsys, judged)
    assert code == 0
    assert "kappa with people 0.00 on 40 documents" in " ".join(out.split())


def test_check_agreement_not_measured_yet(judged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _gate(judged, 0.4)  # machine_min_sample 50 by default: 40 is fewer
    code, out = _check(capsys, judged)
    assert code == 0
    assert "not measured yet (40 documents both judged, machine_min_sample 50)" in " ".join(
        out.split()
    )


def test_agreement_machine_against_people(judged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        capsys,
        "agreement",
        "--judges",
        "machine:umbrela,people",
        "--format",
        "json",
        "--repo",
        str(judged),
    )
    assert code == 0, err
    doc = json.loads(out)
    pair = doc["pairs"][0]
    assert pair["judges"] == [MACHINE, "people"]
    assert pair["documents"] == 40
    kappa = next(s for s in pair["statistics"] if s["weighting"] == "unweighted, relevance")
    assert kappa["value"] == 0.0
    code, _, err = run_cli(
        capsys, "agreement", "--judges", "machine:nobody,people", "--repo", str(judged)
    )
    assert code == 2 and "no machine judge 'nobody'" in err


def test_agreement_each_prompt_is_its_own_row(
    judged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A second identity of the same machine judge (a changed prompt) is a row of its own."""
    newer = "umbrela@sha256:fedcba987654"
    path = judged / "labels" / "q01.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            f"    - {{judge: {MACHINE}, kind: machine, verdict: relevant}}\n  q01-e:",
            f"    - {{judge: {newer}, kind: machine, verdict: irrelevant}}\n  q01-e:",
        ),
        encoding="utf-8",
    )
    code, out, err = run_cli(
        capsys,
        "agreement",
        "--judges",
        "machine:umbrela,people",
        "--format",
        "json",
        "--repo",
        str(judged),
    )
    assert code == 0, err
    doc = json.loads(out)
    # the two identities judged no document in common: no pair of them
    assert [p["judges"] for p in doc["pairs"]] == [[MACHINE, "people"], [newer, "people"]]
    assert next(p for p in doc["pairs"] if newer in p["judges"])["documents"] == 1


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True)
    return done.stdout


def test_second_opinion_of_machines(judged: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Only documents a machine alone judged (b, c) are sampled, stratified by question and
    grade; a person's verdict merged beside the machine's then outranks it and feeds
    agreement."""
    plan = api.pool(second_opinion=1.0, of="machines", repo=judged).plan
    assert {d for q in plan.questions for d in q.docs} == {
        f"{machines_scenario.qid(i)}-{d}" for i in range(1, 21) for d in "bc"
    }
    people = api.pool(second_opinion=1.0, of="people", repo=judged).plan
    assert {d[-1] for q in people.questions for d in q.docs} == {"a", "z"}
    code, _, err = run_cli(
        capsys, "pool", "--second-opinion", "0.5", "--of", "machines", "--repo", str(judged)
    )
    assert code == 0, err
    text = (judged / "labels" / "q01.yaml").read_text(encoding="utf-8")
    pending = text[text.index("pending:") :]
    assert "task: second-opinion" in pending
    assert ("q01-b" in pending) != ("q01-c" in pending)  # one of two, per question
    for path in (judged / "labels").glob("*.yaml"):
        path.write_text(
            path.read_text(encoding="utf-8").replace("verdict: null}", "verdict: irrelevant}"),
            encoding="utf-8",
        )
    _git(
        judged, "-c", "user.name=Bo Chen", "-c", "user.email=bo@example.org", "commit", "-qam", "j"
    )
    code, _, err = run_cli(capsys, "merge", "--repo", str(judged))
    assert code == 0, err
    doc = score_json(capsys, judged)
    assert system(doc, "chal")["machine_rate"] == 0.5  # one of b, c now a person's
    assert system(doc, "chal")["measures"]["P@2"]["raw"] == 0.5


@pytest.mark.parametrize(
    "args",
    [["--of", "machines"], ["--second-opinion", "0.5", "--of", "robots"]],
)
def test_of_needs_second_opinion(
    judged: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    code, _, err = run_cli(capsys, "pool", *args, "--repo", str(judged))
    assert code == 2 and "--of" in err


def test_report_shows_the_machine_rate(
    judged: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pytest.importorskip("matplotlib")
    page = tmp_path / "report.html"
    code, _, err = run_cli(
        capsys, "report", "base", "chal", "-m", "P@2", "-o", str(page), "--repo", str(judged)
    )
    assert code == 0, err
    html = page.read_text(encoding="utf-8")
    assert "machine-judged at 10" in html
    assert "Without the machine verdicts the reading changes:" in html
    assert "uninterpretable on people&#x27;s verdicts alone" in html or (
        "uninterpretable on people's verdicts alone" in html
    )
