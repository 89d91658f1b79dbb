"""What a run argument is, in every command that takes runs (issue 13, "No traps").

0.1.0: ``score -m nDCG@10 R@10 runs/bm25.trec`` exited 1 with ``R@10: no such run file ...
(known: README.md, bm25, dense, hybrid, make_runs.py)``; ``score runs/*`` failed on
``runs/README.md:3: score 'Q0' is not a number``.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from tests.hostile.injection_scenario import (  # noqa: F401  (fixtures)
    Run,
    example,
    example_template,
    lp,
)

TRAP = "error: R@10 is a measure, not a run; write -m nDCG@10 -m R@10\n"


@pytest.mark.parametrize(
    "args",
    [
        ["score", "-m", "nDCG@10", "R@10", "runs/bm25.trec"],
        ["score", "-m", "nDCG@10", "R@10", "runs/bm25.trec", "--format", "json"],
        ["compare", "-m", "nDCG@10", "R@10", "runs/bm25.trec", "runs/dense.trec"],
        ["check", "-m", "nDCG@10", "R@10", "runs/bm25.trec", "--against", "HEAD"],
        ["diff", "HEAD", "-m", "nDCG@10", "R@10", "--scores", "runs/bm25.trec"],
    ],
    ids=["score", "score-json", "compare", "check", "diff-scores"],
)
def test_a_measure_where_a_run_belongs_is_a_usage_error(
    example: Path,  # noqa: F811
    lp: Run,  # noqa: F811
    args: list[str],
) -> None:
    code, out, err = lp(*args)
    assert (code, out, err) == (2, "", TRAP)


def test_trec_eval_format_and_pool_name_the_trap_too(example: Path, lp: Run) -> None:  # noqa: F811
    code, _, err = lp(
        "score", "-m", "P.10", "ndcg_cut.10", "runs/bm25.trec", "--format", "trec_eval"
    )
    assert (code, err) == (
        2,
        "error: ndcg_cut.10 is a measure, not a run; write -m P.10 -m ndcg_cut.10\n",
    )
    code, _, err = lp("pool", "runs/bm25.trec", "nDCG@10", "--depth", "5", "--no-commit")
    assert (code, err) == (2, "error: nDCG@10 is a measure, not a run; this command takes no -m\n")


def test_bias_names_the_trap_too(example: Path, lp: Run) -> None:  # noqa: F811
    """0.1.0: ``Got unexpected extra argument (R@10)`` from the parser."""
    code, _, err = lp("bias", "-m", "nDCG@10", "R@10")
    assert (code, err) == (
        2,
        "error: R@10 is a measure, not a run; bias rescores one measure (-m)\n",
    )
    code, _, err = lp("bias", "runs/bm25.trec")
    assert code == 2 and "bias scores every run in runs/" in err


def test_a_missing_run_lists_only_runs(example: Path, lp: Run) -> None:  # noqa: F811
    code, _, err = lp("compare", "runs/bm25.trec", "nope")
    assert code == 2
    assert err.endswith("(known: bm25, dense)\n"), err  # not README.md, make_runs.py


def _clutter(repo: Path) -> list[str]:
    """``runs/*`` as a shell expands it, with a README, a script, .gitkeep and a subfolder."""
    (repo / "runs" / ".gitkeep").write_text("", encoding="utf-8")
    (repo / "runs" / "old").mkdir()
    (repo / "runs" / "old" / "x.trec").write_text("q 0 d 1 1 t\n", encoding="utf-8")
    return sorted(f"runs/{p.name}" for p in (repo / "runs").iterdir())


def test_runs_star_leaves_out_what_is_not_a_run_with_one_note(
    example: Path,  # noqa: F811
    lp: Run,  # noqa: F811
) -> None:
    specs = _clutter(example)
    note = "note: not runs, left out: runs/.gitkeep, runs/README.md, runs/make_runs.py, runs/old/\n"
    code, out, err = lp("score", *specs, "--format", "csv", "-m", "P@10")
    assert code == 0 and err == note
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == ["bm25", "dense"]
    code, out, err = lp("compare", *specs, "-m", "P@10", "--format", "json")
    assert code == 0 and err.count("note:") == 1
    code, _, err = lp("diff", "HEAD", "--scores", *specs)
    assert code == 0 and err == note
    code, _, err = lp("pool", *specs, "--depth", "3", "--no-commit")
    assert code == 0 and err.startswith(note)


def test_nothing_left_is_exit_2(example: Path, lp: Run) -> None:  # noqa: F811
    code, out, err = lp("score", "runs/README.md", "runs/make_runs.py")
    assert (code, out) == (2, "")
    assert err == (
        "error: no run among runs/README.md, runs/make_runs.py: a run is a file ending in "
        f".trec .run .txt .tsv .jsonl, optionally .gz, or a system name in {example}/runs\n"
    )


def test_a_folder_alone_stands_for_its_runs(example: Path, lp: Run) -> None:  # noqa: F811
    code, out, err = lp("score", "runs", "--format", "csv", "-m", "P@10")
    assert code == 0
    assert err == "note: not runs, left out: runs/README.md, runs/make_runs.py\n"
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == ["bm25", "dense"]


def _rows(repo: Path) -> list[list[str]]:
    text = (repo / "runs" / "bm25.trec").read_text(encoding="utf-8")
    return [line.split() for line in text.splitlines() if line.strip()]


def test_fields_after_the_sixth_are_ignored_and_fewer_than_six_refused(
    example: Path,  # noqa: F811
    lp: Run,  # noqa: F811
) -> None:
    rows = _rows(example)
    base = lp("score", "runs/bm25.trec", "--format", "csv", "-m", "P@10,nDCG@10")[1]
    expected = base.split("\n", 1)[1].split(",", 1)[1]  # every value after the system name
    wide = ["\t".join([*r, "extra", "7 8"]) for r in rows]  # tabs, then spaces: 9 fields
    mixed = [f"{r[0]}  {r[1]}\t{r[2]} \t{r[3]} {r[4]}\t{r[5]}" for r in rows]
    regrouped = [*wide[1::2], *wide[::2]]  # questions come back: read whole, not streamed
    (example / "runs" / "wide.trec").write_text("\n".join(wide) + "\n", encoding="utf-8")
    (example / "runs" / "mixed.run").write_text("\n".join(mixed) + "\n", encoding="utf-8")
    (example / "runs" / "regrouped.txt").write_text("\n".join(regrouped) + "\n", "utf-8")
    with gzip.open(example / "runs" / "packed.tsv.gz", "wt", encoding="utf-8") as f:
        f.write("\n".join(wide) + "\n")
    for name in ("wide.trec", "mixed.run", "regrouped.txt", "packed.tsv.gz"):
        code, out, err = lp("score", f"runs/{name}", "--format", "csv", "-m", "P@10,nDCG@10")
        assert code == 0, err
        assert out.split("\n", 1)[1].split(",", 1)[1] == expected, name
    short = [" ".join(r[:5]) for r in rows]
    (example / "runs" / "short.trec").write_text("\n".join(short) + "\n", encoding="utf-8")
    code, out, err = lp("score", "runs/short.trec")
    assert code == 1 and out == ""
    assert err == (
        "error: runs/short.trec:1: expected 6 fields `qid Q0 docid rank score tag`, found 5\n"
    )


def test_streamed_runs_read_fields_alike(
    example: Path,  # noqa: F811
    lp: Run,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The windowed reader (runs over 64 MiB; here every run) agrees with the whole read on
    fields after the sixth, one tab or one space between fields; a run mixing separators is
    read whole, with a note and the same values; fewer than six fields are refused alike."""
    from labelpool.workflows.evaluate import score as score_workflow

    rows = _rows(example)
    runs = {
        "spaced.trec": [" ".join([*r, "extra", "fields"]) for r in rows],
        "tabbed.run": ["\t".join([*r, "extra"]) for r in rows],
        "mixed.txt": [f"{r[0]}  {r[1]}\t{r[2]} \t{r[3]} {r[4]}\t{r[5]} x" for r in rows],
    }
    for name, lines in runs.items():
        (example / "runs" / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    args = ("--format", "csv", "-m", "P@10,nDCG@10")
    whole = lp("score", "runs/bm25.trec", *args)[1].split("\n", 1)[1].split(",", 1)[1]
    monkeypatch.setattr(score_workflow, "STREAM_BYTES", 0)
    for name in runs:
        code, out, err = lp("score", f"runs/{name}", *args)
        assert code == 0, err
        assert ("read whole" in err) == (name == "mixed.txt"), (name, err)
        assert out.split("\n", 1)[1].split(",", 1)[1] == whole, name
    short = [" ".join(r[:5]) for r in rows]
    (example / "runs" / "short.trec").write_text("\n".join(short) + "\n", encoding="utf-8")
    code, _, err = lp("score", "runs/short.trec")
    assert code == 1
    assert err == (
        "error: runs/short.trec:1: expected 6 fields `qid Q0 docid rank score tag`, found 5\n"
    )
