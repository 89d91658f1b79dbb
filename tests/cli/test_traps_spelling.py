"""One spelling per concept (issue 13, "No traps"): ``--format text`` everywhere, ``--depth``
for a pool's depth, ``--k`` for a cut-off, and ``-k`` in no command.

0.1.0: ``score`` alone called its text output ``--format table`` (``--format text`` was exit 2),
and ``pool -k 20`` was the depth while ``score --k 20`` is a cut-off.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import typer
from tests.hostile.injection_scenario import (  # noqa: F401  (fixtures)
    Run,
    example,
    example_template,
    lp,
)

from labelpool.cli import app


def _commands() -> Iterator[tuple[str, Any]]:
    """Every command as ``(name, click command)`` (typer bundles its own click)."""

    def walk(group: Any, prefix: str) -> Iterator[tuple[str, Any]]:
        for name, sub in group.commands.items():
            if hasattr(sub, "commands"):
                yield from walk(sub, f"{prefix}{name} ")
            else:
                yield f"{prefix}{name}", sub

    return walk(typer.main.get_command(app), "")


def _options(command: Any) -> dict[str, Any]:
    return {
        o: p
        for p in command.params
        if p.param_type_name == "option"
        for o in (*p.opts, *p.secondary_opts)
    }


def test_no_visible_short_k_and_one_name_per_cutoff_and_depth() -> None:
    seen_k, seen_depth = set(), set()
    for name, command in _commands():
        options = _options(command)
        short = options.get("-k")
        assert short is None or (name == "pool" and getattr(short, "hidden", False)), name
        if "--k" in options:
            seen_k.add(name)
        if "--depth" in options:
            seen_depth.add(name)
        assert not {"--cutoff", "--cut-off", "--pool-k"} & {
            o for o, p in options.items() if not getattr(p, "hidden", False) and o == p.opts[0]
        }, name
    assert seen_depth == {"pool"}
    assert {"score", "compare", "check", "bias", "pool-info"} <= seen_k


def test_every_format_option_takes_text(example: Path, lp: Run) -> None:  # noqa: F811
    with_format = [name for name, c in _commands() if "--format" in _options(c)]
    assert {"score", "compare", "check", "pool", "diff", "bias", "pool-info", "validate"} <= set(
        with_format
    )
    dups = example.parent / "duplicates.txt"  # outside the work tree: it stays clean
    dups.write_text("faq-shipping#damaged:handbook#returns-damaged\n", encoding="utf-8")
    args = {
        "score": ["runs/bm25.trec"],
        "compare": ["runs/bm25.trec", "runs/dense.trec", "-m", "P@10"],
        "check": ["runs/bm25.trec", "--against", "HEAD", "-m", "P@10"],
        "pool": ["runs/bm25.trec", "runs/dense.trec", "--depth", "3", "--no-commit"],
        "diff": ["HEAD"],
        "bias": [],
        "pool-info": [],
        "validate": [],
        "history": ["returns-damaged"],
        "todo": [],
        "agreement": [],
        "classes propose": ["--questions", "returns-damaged", "--no-commit"],
        "import duplicates": [str(dups), "--no-commit"],
    }
    # import corpus's --format names the format of the file it reads (trec, jsonl or beir, as
    # the issue spells it), not an output: it prints no report
    for name in (n for n in with_format if n != "import corpus"):
        code, _, err = lp(*name.split(), *args[name], "--format", "text")
        assert code in (0, 1, 3), (name, err)  # bias: 1 (one pooled system); never 2
        assert "--format" not in err, (name, err)


def test_score_table_is_an_alias_of_text(example: Path, lp: Run) -> None:  # noqa: F811
    default = lp("score", "runs/bm25.trec", "-m", "P@10")
    assert default[0] == 0
    assert lp("score", "runs/bm25.trec", "-m", "P@10", "--format", "text") == default
    assert lp("score", "runs/bm25.trec", "-m", "P@10", "--format", "table") == default


def test_pool_depth_is_depth_and_short_k_says_so(example: Path, lp: Run) -> None:  # noqa: F811
    code, out, err = lp("pool", "runs/bm25.trec", "runs/dense.trec", "-k", "3", "--no-commit")
    assert (code, out) == (2, "")
    assert err.startswith("error: pool's depth is --depth 3: -k is not an option of pool")
    code, _, err = lp("pool", "runs/bm25.trec", "--no-commit")
    assert (code, err) == (2, "error: missing option --depth K (pool each run's top K)\n")
    code, _, _ = lp("pool", "runs/bm25.trec", "runs/dense.trec", "--depth", "3", "--no-commit")
    assert code == 0
