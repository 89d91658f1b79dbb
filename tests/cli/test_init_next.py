"""``labelpool init DIR`` leaves a repository the next commands work in (issue 13, "No
traps"): ``git init -b main`` when DIR is in no work tree (no commit), the next commands
printed and run as printed, local hooks (no placeholder URL) that a real ``pre-commit run``
passes, and ``--hook-repo``/``--hook-rev`` for published hooks.

0.1.0: no git repository, no next step printed, and a pre-commit config pointing at
``https://github.com/labelpool/labelpool`` (which pre-commit cannot clone offline).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from conftest import skip_unless
from labelpool.cli import main


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)


def _env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "LABELPOOL_CACHE_DIR": str(tmp_path / "cache"),
            "GIT_AUTHOR_NAME": "Ana Judge",
            "GIT_AUTHOR_EMAIL": "ana@example.invalid",
            "GIT_COMMITTER_NAME": "Ana Judge",
            "GIT_COMMITTER_EMAIL": "ana@example.invalid",
        }
    )
    return env


def test_init_runs_git_init_without_committing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "new labels"
    assert main(["init", str(target)]) == 0
    out = capsys.readouterr().out
    assert (target / ".git").is_dir()
    assert _git(target, "symbolic-ref", "HEAD").stdout.strip() == "refs/heads/main"
    assert _git(target, "rev-parse", "--verify", "-q", "HEAD").returncode != 0  # no commit
    assert f"git init -b main in {target} (nothing committed)" in out
    assert out.endswith(
        "next:\n"
        f"  cd '{target}'\n"
        "  labelpool add where-is-my-order 'Where is my order?'  # your first question\n"
        "  pre-commit install  # label files formatted and validated before every commit\n"
    )


def test_init_inside_a_work_tree_makes_no_nested_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _git(tmp_path, "init", "-q", "-b", "trunk").returncode == 0
    target = tmp_path / "labels-here"
    assert main(["init", str(target)]) == 0
    assert not (target / ".git").exists()
    assert "git init" not in capsys.readouterr().out


def test_init_inside_a_work_tree_says_first_where_labels_are_committed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/cast.md followed from inside a checkout: init says first (stderr) which repository
    the labels will be committed in, and the command that gives them their own, which runs as
    printed (from where init ran) and makes ``labelpool add``'s file the new repository's."""
    outer = tmp_path / "labelpool"
    outer.mkdir()
    assert _git(outer, "init", "-q", "-b", "main").returncode == 0
    monkeypatch.chdir(outer)
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["init", "cast labels"]) == 0
    captured = capsys.readouterr()
    note, rest = captured.err.split("\n    git init", 1)
    assert " ".join(note.split()) == (
        f"note: cast labels is inside the git work tree of {outer}: its labels will be "
        "committed in that repository (right for a monorepo's labels/; not for a clone of "
        "another project). For a repository of their own, run now:"
    )
    command = "git init" + rest.splitlines()[0]
    assert command == "git init -b main 'cast labels'"
    assert "git init" not in captured.out
    ran = subprocess.run(["bash", "-c", command], cwd=outer, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stderr
    target = outer / "cast labels"
    top = _git(target, "rev-parse", "--show-toplevel").stdout.strip()
    assert Path(top) == target
    assert main(["init", "cast labels"]) == 0  # now a repository of its own: nothing to say
    assert "note:" not in capsys.readouterr().err


def test_init_says_nothing_of_a_work_tree_it_made_or_the_folder_owns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", str(tmp_path / "fresh")]) == 0  # in no work tree: git init ran
    assert "note:" not in capsys.readouterr().err
    own = tmp_path / "own"
    assert _git(tmp_path, "init", "-q", "-b", "main", str(own)).returncode == 0
    assert main(["init", str(own)]) == 0
    assert "note:" not in capsys.readouterr().err


def test_init_in_a_folder_holding_only_a_fresh_git_repository(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``git init DIR && labelpool init DIR`` works without --force."""
    target = tmp_path / "r"
    assert _git(tmp_path, "init", "-q", "-b", "main", str(target)).returncode == 0
    assert main(["init", str(target)]) == 0
    assert (target / "pyproject.toml").is_file()
    capsys.readouterr()


def test_hook_repo_and_rev(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "r"
    url = "https://git.example.invalid/ml/labelpool"
    assert main(["init", str(target), "--hook-repo", url, "--hook-rev", "v0.2.0"]) == 0
    config = yaml.safe_load((target / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert config["repos"] == [
        {
            "repo": url,
            "rev": "v0.2.0",
            "hooks": [{"id": "labelpool-fmt"}, {"id": "labelpool-validate"}],
        }
    ]
    capsys.readouterr()
    for args, message in (
        (["--hook-repo", url], "--hook-repo needs --hook-rev"),
        (["--hook-rev", "v1"], "--hook-rev needs --hook-repo"),
        (["--hook-repo", "a b", "--hook-rev", "v1"], "--hook-repo must be printable ASCII"),
        (["--hook-repo", url, "--hook-rev", "v1\n"], "--hook-rev must be printable ASCII"),
    ):
        other = tmp_path / "other"
        assert main(["init", str(other), *args]) == 2
        assert message in capsys.readouterr().err
        assert not other.exists()  # refused before anything is written


def test_printed_next_commands_run_and_pre_commit_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The next commands run as printed (through a shell, from where init ran), then a real
    ``pre-commit run --all-files`` and a real commit pass the local hooks; an unsorted list
    is fixed by the fmt hook."""
    on_path = shutil.which("pre-commit") is not None and shutil.which("labelpool") is not None
    skip_unless(on_path, "pre-commit or labelpool is not on PATH", "os")
    env = _env(tmp_path)
    proc = subprocess.run(
        ["labelpool", "init", "my labels"], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    nexts = proc.stdout.split("next:\n", 1)[1].splitlines()
    script = "set -e\n" + "".join(line.strip() + "\n" for line in nexts)
    assert script.startswith("set -e\ncd 'my labels'\nlabelpool add ")
    ran = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    repo = tmp_path / "my labels"
    assert (repo / "labels" / "where-is-my-order.yaml").is_file()
    assert (repo / ".git" / "hooks" / "pre-commit").is_file()

    def precommit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["pre-commit", *args], cwd=repo, env=env, capture_output=True, text=True, timeout=600
        )

    assert _git(repo, "add", "-A").returncode == 0
    green = precommit("run", "--all-files")
    assert green.returncode == 0, green.stdout + green.stderr
    assert "labelpool fmt" in green.stdout and "labelpool validate" in green.stdout

    label = repo / "labels" / "where-is-my-order.yaml"
    canonical = label.read_text(encoding="utf-8")
    hand_written = canonical.replace("judged_ids: []\n", "judged_ids:\n  - doc-b\n  - doc-a\n")
    pool = "pool:\n  - system: bm25\n    k: 10\n    date: '2026-06-02'\n"
    assert hand_written != canonical
    label.write_text(hand_written + pool, encoding="utf-8")
    assert _git(repo, "add", "-A").returncode == 0
    commit = subprocess.run(
        ["git", "commit", "-q", "-m", "first question"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert commit.returncode != 0  # the fixer changed the file: stage it and commit again
    assert "  - doc-a\n  - doc-b\n" in label.read_text(encoding="utf-8")
    assert _git(repo, "add", "-A").returncode == 0
    commit = subprocess.run(
        ["git", "commit", "-q", "-m", "first question"],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert commit.returncode == 0, commit.stdout + commit.stderr
    capsys.readouterr()


def test_ci_runs_the_hooks_but_not_the_fixer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hand-written order is valid (LP028 warns): CI runs the hooks with the fixing
    ``labelpool-fmt`` skipped, so an unsorted list never turns a pull request red."""
    target = tmp_path / "r"
    assert main(["init", str(target)]) == 0
    capsys.readouterr()
    workflow = yaml.safe_load((target / ".github/workflows/labels.yml").read_text("utf-8"))
    (hooks,) = [s for s in workflow["jobs"]["labels"]["steps"] if s.get("name") == "Hooks"]
    assert hooks["env"] == {"SKIP": "labelpool-fmt"}
    config = yaml.safe_load((target / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    ids = [h["id"] for r in config["repos"] for h in r["hooks"]]
    assert ids == ["labelpool-fmt", "labelpool-validate"]
