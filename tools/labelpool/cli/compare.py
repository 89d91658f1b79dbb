"""``labelpool compare BASELINE CHALLENGER`` / ``labelpool compare RUN... --baseline NAME``."""

from __future__ import annotations

import os
import shlex
from pathlib import Path
from typing import Annotated

import typer

from labelpool.cli import _common as common
from labelpool.cli import _lazy, _runs
from labelpool.cli._common import app, load_config, usage_error, warn
from labelpool.cli._width import output_width


@app.command("compare")
def compare(
    runs: common.ComparedRunsArgument,
    baseline: common.BaselineOption = None,
    measure: common.MeasuresOption = None,
    k: common.CutoffOption = 10,
    relevance_level: common.RelevanceLevelOption = 1,
    fmt: common.ReportFormatOption = common.ReportFormat.text,
    seed: common.SeedOption = 0,
    draws: common.DrawsOption = None,
    resamples: common.ResamplesOption = None,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            help="Also the 95% CI, the detectable effect, the delta range and its method, "
            "per-question wins and the most changed questions.",
        ),
    ] = False,
    wide: Annotated[
        bool, typer.Option("--wide", help="Ignore the width ($COLUMNS, the terminal's, 80).")
    ] = False,
    judge: common.JudgeOption = None,
    disputes: common.DisputesOption = None,
    judges: common.JudgesOption = None,
    repo: common.RepoOption = None,
) -> None:
    """Compare systems: one table per pair with a row per measure (scores, delta, both
    unjudged rates and their reading, p, verdict), the verdict and the next step."""
    cfg = load_config(repo)
    common.comparison_options(measure, k, relevance_level, seed, draws, resamples)
    specs = _runs.select(cfg, runs, measure)
    if len(specs) < 2 and baseline is None:
        usage_error("compare needs two runs (BASELINE CHALLENGER) or --baseline NAME")
    if len(specs) > 2 and baseline is None:
        usage_error("with more than two runs, say which is the baseline: --baseline NAME")
    compared = _lazy.api_compare.compare(
        specs[0] if baseline is None else baseline,
        specs[1:] if baseline is None else specs,
        measures=measure,
        k=k,
        relevance_level=relevance_level,
        seed=seed,
        repo=cfg.root,
        show_path=_shown if _cwd_in(cfg.root) else None,
        judge=judge,
        disputes=disputes,
        judges=judges,
        draws=draws,
        resamples=resamples,
    )
    result, loaded = compared.result, compared.runs
    for note in result.warnings:
        warn(note)
    if fmt is common.ReportFormat.json:
        print(compared.to_json(), end="")
    elif fmt is common.ReportFormat.markdown:
        print(compared.to_markdown(), end="")
    else:
        options = _options(measure, k, relevance_level, seed, repo)
        options += _counts(draws, resamples)
        chosen = [*runs, *(["--baseline", baseline] if baseline is not None else [])]
        reading = [
            *(["--judge", judge] if judge else []),
            *(["--disputes", disputes] if disputes else []),
            *(["--judges", judges] if judges else []),
        ]
        steps = _lazy.compare_text.NextSteps(
            verbose=shlex.join(["labelpool", "compare", *chosen, *options, *reading, "--verbose"]),
            gates={
                r.name: shlex.join(
                    [
                        "labelpool",
                        "check",
                        _shown(r.path),
                        "--against",
                        _shown(loaded[0].path),
                        *options,
                    ]
                )
                for r in loaded[1:]
            },
        )
        text = _lazy.compare_text.render(result, output_width(wide), verbose=verbose, steps=steps)
        print(text, end="")


def _shown(path: object) -> str:
    """A run's path as the user can type it here: relative to the working folder."""
    return os.path.relpath(str(path))


def _cwd_in(root: Path) -> bool:
    """Whether the working folder is inside the repository: then a suggested command names
    runs relative to it (it runs as printed here); else relative to the repository's root."""
    here = Path.cwd().resolve()
    return here == root.resolve() or root.resolve() in here.parents


def _counts(draws: int | None, resamples: int | None) -> list[str]:
    """``--draws`` and ``--resamples`` as given, as words of a command line."""
    words = ["--draws", str(draws)] if draws is not None else []
    return words + (["--resamples", str(resamples)] if resamples is not None else [])


def _options(
    measure: list[str] | None, k: int, relevance_level: int, seed: int, repo: Path | None
) -> list[str]:
    """The comparison options given, as words of a command line (defaults left out)."""
    words = [w for m in measure or [] for w in ("-m", m)]
    words += ["--k", str(k)] if k != 10 else []
    words += ["--relevance-level", str(relevance_level)] if relevance_level != 1 else []
    words += ["--seed", str(seed)] if seed else []
    words += ["--repo", str(repo)] if repo is not None else []
    return words
