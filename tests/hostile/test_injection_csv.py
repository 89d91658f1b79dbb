"""Injection, CSV channel: no cell from a name is a spreadsheet formula or a control.

``labelpool score --format csv`` is opened in spreadsheets. A run file named
``=HYPERLINK(1).trec`` put the cell ``=HYPERLINK(1)`` in the ``system`` column, which a
spreadsheet evaluates (and ``=cmd|...`` formulas have run programs). labelpool now writes a
``'`` before a cell starting with ``= + - @`` and shows control and bidi characters escaped.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hostile import injection_scenario as scenario
from tests.hostile.injection_scenario import BIDI, ESC, FORMULA, Run, add_run, no_raw_control

example_template, example, lp = scenario.example_template, scenario.example, scenario.lp

DENSE = (
    ",all,58,0.4603448275862069,retrieves outside the pool,0.6568144499178982,"
    "0.7450738916256158,0.9674037169726826"
)


@pytest.mark.parametrize("name", [FORMULA, "+1", "-1", "@SUM(1)"])
def test_score_csv_formula_cell_is_quoted(name: str, example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the row began with the name as written (``=HYPERLINK(1),all,58,...``,
    ``+1,all,...``, ``-1,all,...``, ``@SUM(1),all,...``): a formula in the spreadsheet."""
    code, out, err = lp("score", add_run(example, name), "-m", "R@10", "--format", "csv")
    assert code == 0
    assert out.split("\n")[1] == f"'{name}{DENSE}"
    no_raw_control(out, err)


def test_score_csv_escape_sequence(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the cell held the raw ESC (``\\x1b[31mred,all,58,...``)."""
    code, out, err = lp("score", add_run(example, ESC), "-m", "R@10", "--format", "csv")
    assert code == 0
    assert out.split("\n")[1] == f"\\x1b[31mred{DENSE}"
    no_raw_control(out, err)


def test_score_csv_right_to_left_override(example: Path, lp: Run) -> None:
    """0.1.0: exit 0; the cell held the raw U+202E (``evil\\u202etxt,all,58,...``), which
    reverses the rest of the row in a viewer."""
    code, out, err = lp("score", add_run(example, BIDI), "-m", "R@10", "--format", "csv")
    assert code == 0
    assert out.split("\n")[1] == f"evil\\u202etxt{DENSE}"
    no_raw_control(out, err)


def test_score_csv_ordinary_names_unchanged(example: Path, lp: Run) -> None:
    """0.1.0: exit 0, ``dense,all,58,...``; an ordinary name (a hyphen inside, not first) is
    written as it always was."""
    add_run(example, "dense-v2")
    code, out, err = lp("score", "runs/dense-v2.trec", "-m", "R@10", "--format", "csv")
    assert code == 0
    assert out.split("\n")[1] == f"dense-v2{DENSE}"
    no_raw_control(out, err)
