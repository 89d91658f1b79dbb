"""``svgmarks``: one ``<g data-q>`` per question around its marks, on matplotlib's real SVG."""

from __future__ import annotations

import re

import pytest

from labelpool.report import plots, svgmarks

QIDS = ["q1", "q<2>", 'q"3"']


def deltas() -> list[plots.Delta]:
    return [
        plots.Delta(q, d, d - 0.2, d + 0.1, share)
        for q, d, share in zip(QIDS, (0.3, -0.1, 0.0), (0.0, 0.5, 1.0), strict=True)
    ]


def test_each_question_is_one_group_holding_bar_and_whisker() -> None:
    svg = plots.delta_bars("t", deltas(), "nDCG@10")
    marks = re.findall(r'<g data-q="([^"]*)">', svg)
    assert sorted(marks) == sorted(["q1", "q&lt;2&gt;", "q&quot;3&quot;"])
    # no id of a part is left, and matplotlib's generic ids are gone
    assert not re.search(r'id="t-\d+-\d+"', svg) and 'id="patch_' not in svg
    assert "<?xml" not in svg and "<metadata>" not in svg


def test_same_input_same_bytes_and_no_date() -> None:
    assert plots.delta_bars("t", deltas(), "R@10") == plots.delta_bars("t", deltas(), "R@10")


def test_marks_not_adjacent_are_refused() -> None:
    svg = '<svg><g id="p-0-0"><path/></g><g id="p-1-0"><path/></g><g id="p-0-1"></g></svg>'
    with pytest.raises(ValueError, match="not adjacent"):
        svgmarks.tag(svg, "p", ["a", "b"])


def test_a_question_without_a_mark_is_refused() -> None:
    svg = '<svg><g id="p-0-0"><g><path/></g></g></svg>'
    with pytest.raises(ValueError, match="1 question"):
        svgmarks.tag(svg, "p", ["a", "b"])
    assert svgmarks.tag(svg, "p", ["a"]) == '<svg><g data-q="a"><g><g><path/></g></g></g></svg>'
