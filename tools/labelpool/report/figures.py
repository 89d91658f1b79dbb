"""The plots of the report, each with its explanation in words beside it."""

from __future__ import annotations

from labelpool.report import plots
from labelpool.report.gather import ReportData, unjudged_of
from labelpool.report.html import figure, h
from labelpool.report.sections import comparisons
from labelpool.words import counted
from labelpool.workflows.evaluate.compare import Comparison


def per_question(d: ReportData) -> str:
    """The first measure's per-question plots, one set per challenger."""
    assert d.compared is not None
    first = d.compared.comparisons[0].measure
    by_name = {s.system: s for s in d.scores}
    out = [f"<h2>Per question: {h(first)}</h2>\n"]
    for n, c in enumerate(x for x in d.compared.comparisons if x.measure == first):
        b_unj = unjudged_of(by_name[c.baseline])
        c_unj = unjudged_of(by_name[c.challenger])
        deltas = [
            plots.Delta(q, cs - bs, lo, hi, (b_unj[q] + c_unj[q]) / 2)
            for q, bs, cs, (lo, hi) in zip(
                c.qids,
                c.baseline_per_query,
                c.challenger_per_query,
                c.delta_range.per_question,
                strict=True,
            )
        ]
        names = (c.baseline, c.challenger)
        out.append(f"<h3>{h(c.challenger)} against {h(c.baseline)}</h3>\n")
        out.append(figure(plots.delta_bars(f"delta{n}", deltas, first), _delta_caption(c), True))
        out.append(
            figure(
                plots.scores(
                    f"scores{n}",
                    c.qids,
                    c.baseline_per_query,
                    c.challenger_per_query,
                    names,
                    first,
                ),
                f"<b>Which questions moved.</b> One orange dot per question: across, the "
                f"baseline {h(c.baseline)}'s {h(first)}; up, {h(c.challenger)}'s. On the grey "
                f"diagonal both score the same; above it {h(c.challenger)} is better, below it "
                "worse. Dots are half transparent: a darker dot is several questions.",
                True,
            )
        )
        out.append(
            figure(
                plots.unjudged(
                    f"unjudged{n}",
                    c.qids,
                    [b_unj[q] for q in c.qids],
                    [c_unj[q] for q in c.qids],
                    d.k,
                ),
                f"<b>How much of each top {d.k} was never judged.</b> One column per question: "
                f"the blue tick is {h(c.baseline)}'s unjudged rate at {d.k}, the orange tick "
                f"{h(c.challenger)}'s (0 at the bottom, all unjudged at the top). Questions are "
                "sorted by the orange tick. Orange high and blue low: the challenger is "
                "measured on documents nobody judged.",
                True,
            )
        )
    return "".join(out)


def _delta_caption(c: Comparison) -> str:
    flip = sum(1 for lo, hi in c.delta_range.per_question if lo <= 0 <= hi and not lo == hi == 0)
    return (
        f"<b>Which questions moved, and how far the unjudged documents could move them.</b> "
        f"One bar per question: its delta ({h(c.challenger)} minus {h(c.baseline)}), sorted. "
        "The thin black line through a bar is the question's delta range: every value any "
        "labelling of its unjudged documents could give. A bar's colour is the question's "
        "unjudged share (the mean of both systems' unjudged rate at k): dark purple, all "
        f"judged; yellow, nothing judged. {flip} of {counted(len(c.qids), 'question')} "
        f"{'has' if flip == 1 else 'have'} a range that holds zero: "
        f"{'its' if flip == 1 else 'their'} sign could still flip."
    )


def _flip_row(c: Comparison, label: str) -> plots.FlipRow:
    up = down = zero = flip = 0
    for lo, hi in c.delta_range.per_question:
        if lo == hi == 0:
            zero += 1
        elif lo > 0:
            up += 1
        elif hi < 0:
            down += 1
        else:
            flip += 1
    return plots.FlipRow(label, up, down, flip, zero)


def overview(d: ReportData) -> str:
    """The forest plot and the flip counts of every (challenger, measure)."""
    assert d.compared is not None
    comps = d.compared.comparisons
    several = len({c.challenger for c in comps}) > 1
    labels = [f"{c.challenger}: {c.measure}" if several else c.measure for c in comps]
    forest = plots.forest(
        "forest",
        [
            plots.ForestRow(lab, c.delta, c.ci95, c.delta_range.low, c.delta_range.high)
            for lab, c in zip(labels, comps, strict=True)
        ],
    )
    flips = plots.flips("flips", [_flip_row(c, lab) for lab, c in zip(labels, comps, strict=True)])
    return (
        "<h2>Every measure</h2>\n"
        + figure(
            forest,
            "<b>Where the delta, its 95% interval and its delta range lie.</b> One row per "
            "measure: the orange dot is the mean delta (challenger minus baseline), the black "
            "line its 95% bootstrap interval (the noise of this sample of questions), the wide "
            "light band its delta range (what any labelling of the unjudged documents could "
            "make it). The vertical line is zero: a band across it means the sign is not "
            "settled by the labels.",
        )
        + figure(
            flips,
            "<b>How many questions could still flip sign.</b> Per measure, the questions whose "
            "delta is above zero for every labelling of the unjudged documents (green), below "
            "zero for every labelling (purple), could still land on either side (red), or is "
            "zero whatever the labelling (grey). The number in a bar is its count of questions.",
        )
        + comparisons(d)
    )
