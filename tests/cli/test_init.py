"""``labelpool init DIR``: a usable label repository, never overwriting anything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib
import yaml

from labelpool import __version__, config
from labelpool.cli import main
from labelpool.render.sanitize import text as safe

PACKAGE_DATA = Path(__file__).resolve().parents[2] / "tools" / "labelpool" / "data"


def test_init_scaffolds_a_repository(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "labels-repo"
    assert main(["init", str(target)]) == 0
    out = capsys.readouterr().out
    pyproject = tomllib.loads((target / "pyproject.toml").read_text(encoding="utf-8"))
    assert pyproject["tool"]["labelpool"]["format"] == 1
    cfg = config.load(target)
    assert cfg.labels_dir == target / "labels" and cfg.runs_dir == target / "runs"
    assert (target / "labels" / ".gitkeep").is_file() and (target / "runs" / ".gitkeep").is_file()
    attributes = (target / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert [a for a in attributes if not a.startswith("#")] == [
        "labels/** text eol=lf",
        "judges/** text eol=lf",
    ]
    hooks = yaml.safe_load((target / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    assert hooks == {  # no placeholder URL: local hooks running the installed labelpool
        "repos": [
            {
                "repo": "local",
                "hooks": [
                    {
                        "id": "labelpool-fmt",
                        "name": "labelpool fmt",
                        "entry": "labelpool fmt",
                        "language": "system",
                        "files": r"^labels/.*\.ya?ml$",
                        "require_serial": True,
                    },
                    {
                        "id": "labelpool-validate",
                        "name": "labelpool validate",
                        "entry": "labelpool validate --allow-pending",
                        "language": "system",
                        "files": r"^(labels/.*\.ya?ml|judges/.*)$",
                        "require_serial": True,
                    },
                ],
            }
        ]
    }
    schema = target / "schema" / "label.schema.json"
    packaged = PACKAGE_DATA / "label.schema.json"
    if packaged.is_file():
        assert schema.read_bytes() == packaged.read_bytes()
        assert json.loads(schema.read_text(encoding="utf-8"))["type"] == "object"
    workflow = target / ".github" / "workflows" / "labels.yml"
    template = (PACKAGE_DATA / "workflow.yml").read_text(encoding="utf-8")
    assert workflow.read_text(encoding="utf-8") == template.replace(
        '"@LABELPOOL_SOURCE@"', f'"labelpool=={__version__}"'
    )
    assert f"created {target / 'pyproject.toml'}" in out


def test_init_refuses_a_non_empty_folder_and_force_never_overwrites(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "existing"
    target.mkdir()
    (target / "pyproject.toml").write_text("[project]\nname = 'mine'\n", encoding="utf-8")
    code = main(["init", str(target)])
    captured = capsys.readouterr()
    assert code == 2 and "not empty" in captured.err and "--force" in captured.err
    assert not (target / "labels").exists()

    assert main(["init", str(target), "--force"]) == 0
    out = capsys.readouterr().out
    assert (target / "pyproject.toml").read_text(encoding="utf-8") == "[project]\nname = 'mine'\n"
    assert f"skipped {target / 'pyproject.toml'} (exists; left unchanged)" in out
    assert (target / ".gitattributes").is_file() and (target / "labels" / ".gitkeep").is_file()

    # a second forced run creates nothing and skips everything
    assert main(["init", str(target), "--force"]) == 0
    assert "0 created" in capsys.readouterr().out


def test_init_refuses_a_file_as_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("x", encoding="utf-8")
    assert main(["init", str(target), "--force"]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_initialised_repository_works_end_to_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path / "cache"))
    target = tmp_path / "repo"
    assert main(["init", str(target)]) == 0
    subprocess.run(["git", "init", "-q", str(target)], check=True)
    monkeypatch.chdir(target / "labels")
    assert main(["add", "where-is-my-order", "Where is my order?"]) == 0
    assert main(["fmt", "--check"]) == 0
    capsys.readouterr()
    code = main(["validate"])
    captured = capsys.readouterr()
    assert code == 0, captured.out + captured.err
    attr = subprocess.run(
        ["git", "check-attr", "eol", "labels/where-is-my-order.yaml"],
        cwd=target,
        capture_output=True,
        text=True,
        check=True,
    )
    assert attr.stdout.strip().endswith("eol: lf")


def _install_step(workflow: Path) -> dict[str, object]:
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    (step,) = [s for s in data["jobs"]["labels"]["steps"] if "pip install" in s.get("run", "")]
    assert isinstance(step, dict)
    return step


def test_init_default_source_is_this_version_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    target = tmp_path / "r"
    assert main(["init", str(target)]) == 0
    err = capsys.readouterr().err
    assert _install_step(target / ".github" / "workflows" / "labels.yml") == {
        "name": "Install labelpool",
        "env": {"LABELPOOL_SOURCE": f"labelpool=={__version__}"},
        "run": 'python -m pip install "$LABELPOOL_SOURCE" "matplotlib>=3.8"',
    }
    assert " ".join(err.split()) == (
        f"warning: the CI workflow installs labelpool=={__version__} from PyPI, which assumes "
        "the package is published under that name; if it is not, point it elsewhere with "
        "--labelpool-source SPEC (or edit .github/workflows/labels.yml)"
    )
    assert max(len(line) for line in err.splitlines()) <= 80  # wrapped at $COLUMNS


@pytest.mark.parametrize(
    "spec",
    [
        "labelpool @ git+https://github.com/example/labelpool@v0.2.0",
        'labelpool[fast]>=0.2,<0.3; python_version >= "3.11"',
        "labelpool==0.2.0 # pinned: it's 'ours'",
        "https://example.invalid/labelpool-0.2.0-py3-none-any.whl",
    ],
)
def test_init_labelpool_source_is_written_verbatim(
    spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "r"
    assert main(["init", str(target), "--labelpool-source", spec]) == 0
    assert "warning" not in capsys.readouterr().err
    workflow = target / ".github" / "workflows" / "labels.yml"
    assert _install_step(workflow)["env"] == {"LABELPOOL_SOURCE": spec}
    exe = Path(sys.executable).with_name("check-jsonschema")
    proc = subprocess.run(
        [str(exe), "--builtin-schema", "vendor.github-workflows", str(workflow)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("spec", "problem"),
    [
        ("", "is empty"),
        ("labelpool\n  run: evil", "must be printable ASCII (no control character, no line break)"),
        ("labelpool\u202e", "must be printable ASCII (no control character, no line break)"),
        ("--index-url=https://evil.invalid labelpool", "must be a requirement, not a pip option"),
        ("labelpool==${{ github.head_ref }}", "must not hold a GitHub expression (${{ ... }})"),
    ],
)
def test_init_refuses_a_source_the_workflow_cannot_hold(
    spec: str, problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "r"
    assert main(["init", str(target), "--labelpool-source", spec]) == 2
    err = capsys.readouterr().err
    assert err == f"error: --labelpool-source {problem}: {safe(repr(spec))}\n"
    assert not target.exists()
