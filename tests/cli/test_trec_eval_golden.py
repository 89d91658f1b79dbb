"""``labelpool score RUN --format trec_eval`` byte for byte against trec_eval 10.0's own output.

Each line of ``../shared/data/trec_eval-golden/COMMANDS.tsv`` names a trec_eval command and the
file holding what it printed. The qrels become a label repository the public way (``labelpool
init``, ``labelpool import trec``), the trec_eval flags become labelpool's long options
(``-q`` ``--per-query``, ``-c`` ``--complete``, ``-M50`` ``--max-depth 50``, ``-l2``
``--relevance-level 2``, ``-J`` ``--judged-only``, ``-m`` ``-m``), and the output must equal the
file. The golden files are read where they are, never copied.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest
from tests.conftest import TREC_EVAL_GOLDEN as GOLDEN

from labelpool.cli import main


def _cases() -> list[object]:
    """One case per line of COMMANDS.tsv, named by its expected-output file; without the file,
    one case named ``absent`` (its ``trec_eval_golden`` fixture skips it, saying why)."""
    commands = GOLDEN / "COMMANDS.tsv"
    if not commands.is_file():
        return [pytest.param("", "", id="absent")]
    rows = commands.read_text(encoding="utf-8").splitlines()[1:]
    cases = [row.split("\t", 1) for row in rows if row.strip()]
    return [pytest.param(expected, command, id=expected) for expected, command in cases]


@pytest.fixture(autouse=True)
def _private_cache(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


_REPOS: dict[str, Path] = {}


def repo_for(qrels: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A label repository holding ``qrels`` (built once per qrels file)."""
    if qrels.name not in _REPOS:
        root = tmp_path_factory.mktemp(qrels.stem)
        repo = root / "repo"
        assert main(["init", str(repo)]) == 0
        qids = sorted({line.split()[0] for line in qrels.read_text().splitlines() if line})
        queries = root / "queries.tsv"
        queries.write_text("".join(f"{q}\tquestion {q}\n" for q in qids), encoding="utf-8")
        argv = ["import", "trec", str(qrels), "--queries", str(queries), "--repo", str(repo)]
        assert main(argv) == 0
        _REPOS[qrels.name] = repo
    return _REPOS[qrels.name]


def labelpool_argv(command: str) -> tuple[list[str], Path, Path]:
    """(labelpool score options, qrels, run) for a trec_eval command line."""
    args = shlex.split(command)[1:]
    out: list[str] = []
    files: list[Path] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "-m":
            out += ["-m", args[i + 1]]
            i += 1
        elif arg == "-q":
            out.append("--per-query")
        elif arg == "-c":
            out.append("--complete")
        elif arg == "-J":
            out.append("--judged-only")
        elif arg.startswith("-M"):
            out += ["--max-depth", arg[2:]]
        elif arg.startswith("-l"):
            out += ["--relevance-level", arg[2:]]
        else:
            files.append(GOLDEN / arg)
        i += 1
    qrels, run = files
    return out, qrels, run


@pytest.mark.parametrize(("expected", "command"), _cases())
def test_byte_equal_to_trec_eval(
    expected: str,
    command: str,
    trec_eval_golden: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    options, qrels, run = labelpool_argv(command)
    repo = repo_for(qrels, tmp_path_factory)
    capsys.readouterr()
    code = main(["score", str(run), "--format", "trec_eval", *options, "--repo", str(repo)])
    out = capsys.readouterr().out
    assert code == 0
    assert out.encode() == (GOLDEN / expected).read_bytes()


def test_missing_question_stops_without_complete(
    trec_eval_golden: Path,
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """trec_eval 10.0 exits 4 when a judged question is missing from the run; labelpool refuses
    the run as an input error (exit 1) naming the questions, and --complete scores them."""
    repo = repo_for(GOLDEN / "partial.qrels", tmp_path_factory)
    capsys.readouterr()
    code = main(
        ["score", str(GOLDEN / "partial.run"), "--format", "trec_eval", "--repo", str(repo)]
    )
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert "2 judged question(s) missing from the run (105, 118)" in captured.err
    assert "--complete" in captured.err
