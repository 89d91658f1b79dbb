"""The GitHub workflow (this repository's and the template `labelpool init` copies): schema-valid
and safe by construction."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import ROOT

WORKFLOW = ROOT / ".github" / "workflows" / "labels.yml"
TEMPLATE = ROOT / "tools" / "labelpool" / "data" / "workflow.yml"
BOTH = pytest.mark.parametrize("path", [WORKFLOW, TEMPLATE], ids=["repo", "template"])

# Event text an attacker controls (titles, bodies, branch names, commit messages, ...).
EVENT_TEXT = re.compile(r"github\.(event|head_ref)|inputs\.")


def load(path: Path) -> dict[Any, Any]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def triggers(data: dict[Any, Any]) -> Any:
    # PyYAML reads the key `on` as the boolean True (YAML 1.1).
    return data.get("on", data.get(True))


def steps(data: dict[Any, Any]) -> list[dict[str, Any]]:
    return [step for job in data["jobs"].values() for step in job["steps"]]


def check_schema(*paths: Path) -> subprocess.CompletedProcess[str]:
    exe = Path(sys.executable).with_name("check-jsonschema")
    return subprocess.run(
        [str(exe), "--builtin-schema", "vendor.github-workflows", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_schema_check_passes() -> None:
    proc = check_schema(WORKFLOW, TEMPLATE)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_schema_check_can_fail(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text(
        WORKFLOW.read_text(encoding="utf-8").replace("runs-on:", "runs_on:"), encoding="utf-8"
    )
    assert check_schema(broken).returncode == 1


@BOTH
def test_pull_request_only_and_read_only(path: Path) -> None:
    data = load(path)
    on = triggers(data)
    assert list(on) == ["pull_request"] if isinstance(on, dict) else on == "pull_request"
    assert "pull_request_target" not in on
    assert data["permissions"] == {"contents": "read"}
    for job in data["jobs"].values():
        assert job.get("permissions", {"contents": "read"}) == {"contents": "read"}
        assert isinstance(job.get("timeout-minutes"), int) and 0 < job["timeout-minutes"] <= 60


@BOTH
def test_checkout_keeps_no_credentials_and_fetches_history(path: Path) -> None:
    checkouts = [
        s for s in steps(load(path)) if str(s.get("uses", "")).startswith("actions/checkout@")
    ]
    assert checkouts
    for step in checkouts:
        assert step["with"]["persist-credentials"] is False
        assert step["with"]["fetch-depth"] == 0


@BOTH
def test_no_expression_in_any_run_line(path: Path) -> None:
    runs = [s["run"] for s in steps(load(path)) if "run" in s]
    assert runs
    for script in runs:
        for line in script.splitlines():
            assert "${{" not in line, line
            assert not EVENT_TEXT.search(line), line
    # Expressions live only in env: and none of them is event text.
    for step in steps(load(path)):
        for value in (step.get("env") or {}).values():
            assert not EVENT_TEXT.search(str(value)), value


@BOTH
def test_runs_the_hooks_validation_and_diff(path: Path) -> None:
    data = load(path)
    scripts = "\n".join(s["run"] for s in steps(data) if "run" in s)
    assert "pre-commit run --all-files" in scripts
    assert "labelpool validate --provenance" in scripts
    assert "--allow-pending" not in scripts
    diff_step = next(s for s in steps(data) if "labelpool diff" in s.get("run", ""))
    assert diff_step["env"] == {"BASE": "${{ github.base_ref }}"}
    assert 'labelpool diff "origin/${BASE}"' in diff_step["run"]
    assert "--scores" in diff_step["run"] and "--format markdown" in diff_step["run"]
    assert '>> "$GITHUB_STEP_SUMMARY"' in diff_step["run"]
    # every step printing label-derived text switches workflow commands off first
    for step in steps(data):
        if "labelpool" in step.get("run", "") and "pip install" not in step["run"]:
            assert "::stop-commands::" in step["run"], step.get("name")
        if "pre-commit run" in step.get("run", ""):
            assert "::stop-commands::" in step["run"]


def test_repo_installs_itself_and_template_installs_its_source() -> None:
    repo = "\n".join(s.get("run", "") for s in steps(load(WORKFLOW)))
    assert "pip install -e" in repo
    (install,) = [s for s in steps(load(TEMPLATE)) if "pip install" in s.get("run", "")]
    assert install["run"] == 'python -m pip install "$LABELPOOL_SOURCE" "matplotlib>=3.8"'
    assert install["env"] == {"LABELPOOL_SOURCE": "@LABELPOOL_SOURCE@"}  # init replaces it


PINS = {
    "actions/checkout": "3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1",
    "actions/setup-python": "5fda3b95a4ea91299a34e894583c3862153e4b97 # v7.0.0",
    "actions/upload-artifact": "b7c566a772e6b6bfb58ed0dc250532a479d7789f # v6.0.0",
}


@BOTH
def test_actions_pinned_by_commit_id_with_the_version(path: Path) -> None:
    uses = re.findall(r"^\s*-?\s*uses:\s*(\S+)@(.*)$", path.read_text(encoding="utf-8"), re.M)
    assert {action for action, _ in uses} == set(PINS)
    for action, ref in uses:
        assert ref == PINS[action]
        assert re.fullmatch(r"[0-9a-f]{40} # v\d+\.\d+\.\d+", ref)
    # the parsed value is the bare commit id (the version is a YAML comment)
    for step in steps(load(path)):
        if "uses" in step:
            assert re.fullmatch(r"actions/[a-z-]+@[0-9a-f]{40}", step["uses"])


def test_pre_commit_hook_checks_both_files() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = [h for repo in config["repos"] for h in repo["hooks"]]
    (hook,) = [h for h in hooks if "vendor.github-workflows" in h.get("entry", "")]
    assert hook["entry"].startswith("check-jsonschema --builtin-schema vendor.github-workflows")
    pattern = re.compile(hook["files"])
    assert pattern.search(".github/workflows/labels.yml")
    assert pattern.search("tools/labelpool/data/workflow.yml")
    assert not pattern.search("labels/q.yaml")


def test_diff_step_script_runs_with_and_without_runs(tmp_path: Path) -> None:
    """The diff step's shell, run for real against a git repository standing in for a PR."""
    from history_scenario import build

    s = build(tmp_path)
    script = next(
        st["run"] for st in steps(load(WORKFLOW)) if "labelpool diff" in st.get("run", "")
    )
    subprocess.run(["git", "branch", "-f", "base", s.batch1], cwd=s.repo, check=True)
    subprocess.run(
        ["git", "update-ref", "refs/remotes/origin/base", s.batch1], cwd=s.repo, check=True
    )
    summary = tmp_path / "summary.md"

    def run_step() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
            cwd=s.repo,
            env={**_env(), "BASE": "base", "GITHUB_STEP_SUMMARY": str(summary)},
            capture_output=True,
            text=True,
            timeout=120,
        )

    proc = run_step()  # runs/ is empty
    assert proc.returncode == 0, proc.stderr
    text = summary.read_text(encoding="utf-8")
    assert "flipped doc-b" in text and "| run |" not in text
    (s.repo / "runs" / "bm25.trec").write_text("q1 Q0 doc-a 1 1.0 bm25\n", encoding="utf-8")
    (s.repo / "runs" / "make_runs.py").write_text("", encoding="utf-8")
    summary.unlink()
    proc = run_step()
    assert proc.returncode == 0, proc.stderr
    text = summary.read_text(encoding="utf-8")
    assert "| bm25 | nDCG@10 |" in text
    assert proc.stdout.startswith("::stop-commands::")


@BOTH
def test_diff_step_exits_0_beside_a_readme_a_script_and_a_folder(
    path: Path, tmp_path: Path
) -> None:
    """runs/ holding a README, .gitkeep, a script and a subfolder: the summary step exits 0
    and scores the one run. 0.1.0: exit 1, `error: 'runs/sub' is not a commit in this
    repository` (the subfolder, a positional word after `--scores runs/*`, was read as REV2).
    """
    from history_scenario import build

    s = build(tmp_path)
    script = next(st["run"] for st in steps(load(path)) if "labelpool diff" in st.get("run", ""))
    subprocess.run(
        ["git", "update-ref", "refs/remotes/origin/base", s.batch1], cwd=s.repo, check=True
    )
    runs = s.repo / "runs"
    (runs / "README.md").write_text("# runs\n", encoding="utf-8")
    (runs / ".gitkeep").write_text("", encoding="utf-8")
    (runs / "make_runs.sh").write_text("#!/bin/sh\n", encoding="utf-8")
    (runs / "sub").mkdir()
    (runs / "sub" / "old.trec").write_text("q1 Q0 doc-a 1 1.0 old\n", encoding="utf-8")
    (runs / "bm25.trec").write_text("q1 Q0 doc-a 1 1.0 bm25\n", encoding="utf-8")
    summary = tmp_path / "summary.md"
    proc = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        cwd=s.repo,
        env={**_env(), "BASE": "base", "GITHUB_STEP_SUMMARY": str(summary)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [  # one note (issue 13)
        "note: not runs, left out: runs/README.md, runs/make_runs.sh, runs/sub/",
    ]
    text = summary.read_text(encoding="utf-8")
    assert "| bm25 | nDCG@10 |" in text and "old" not in text


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)


@BOTH
def test_compare_and_report_step_runs(path: Path, tmp_path: Path) -> None:
    """The compare-and-report step's shell, run for real on the example: the comparison
    against the pooling system in the job summary, report.html written for the artifact."""
    from report_scenario import example_repo

    repo = example_repo(tmp_path)
    (step,) = [s for s in steps(load(path)) if "labelpool report" in s.get("run", "")]
    (upload,) = [s for s in steps(load(path)) if "upload-artifact" in s.get("uses", "")]
    assert upload["with"]["path"] == "report.html"
    summary = tmp_path / "summary.md"
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
        cwd=repo,
        env={**_env(), "GITHUB_STEP_SUMMARY": str(summary)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    text = summary.read_text(encoding="utf-8")
    assert "**dense vs bm25, R@10**" in text and "**hybrid vs bm25, R@10**" in text
    assert (repo / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
