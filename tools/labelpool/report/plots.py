"""The report's plots: matplotlib figures rendered to inline SVG, deterministically.

Rendering: matplotlib's own SVG backend (no pyplot, no Agg canvas), with ``svg.hashsalt``
fixed per plot (the clip-path and marker ids it derives are then the same on every run, and
differ between the plots of one page), no date in the metadata, and ``svg.fonttype = 'none'``:
text stays ``<text>`` in the font the viewer has for matplotlib's ``DejaVu Sans, sans-serif``
(no glyph outlines embedded; the page loads no font, its CSP forbids it). Every mark of a
per-question plot gets a gid that :mod:`svgmarks` turns into ``data-q``. Text from files
(system names in labels) passes ``render.sanitize.text`` and is never read as mathtext;
matplotlib escapes it for XML.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ParamSpec

import matplotlib
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.colors import Normalize, to_hex
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle
from matplotlib.transforms import TransformedPatchPath

from labelpool.render import sanitize
from labelpool.report import svgmarks
from labelpool.words import counted

P = ParamSpec("P")

BASELINE_COLOUR = "#1f77b4"  # blue
CHALLENGER_COLOUR = "#d95f02"  # orange
FLIP_COLOUR = "#c0392b"  # red: the sign can still flip
SETTLED_COLOUR = "#7f8c8d"  # grey: settled at zero; the diagonal
BAND_COLOUR = "#cfd8dc"  # light grey-blue: the delta range
CMAP = "viridis"  # unjudged share: dark purple 0%, yellow 100%
SHADES = 200  # unjudged shares are coloured in steps of 1/200
WIDTH = 9.0  # inches (648 pt); the page scales it to its width
_RC: dict[Any, Any] = {  # typed loosely: matplotlib types the keys as a Literal of every rcParam
    "svg.fonttype": "none",
    "text.parse_math": False,  # a `$` in a system name is a dollar sign, not TeX
    "font.family": "sans-serif",
    "font.sans-serif": ["DejaVu Sans"],
    "font.size": 9.0,
    "axes.spines.top": False,
    "axes.spines.right": False,
}


@dataclass(frozen=True)
class Delta:
    """One question's delta of the first measure and what can move it."""

    qid: str
    delta: float
    low: float  # the delta range: what any labelling of the unjudged documents could make it
    high: float
    unjudged_share: float  # mean of both systems' unjudged rate at k on this question


def _styled(plot: Callable[P, str]) -> Callable[P, str]:
    """``plot`` drawn under the report's rcParams (fonts, sizes, SVG settings)."""

    @functools.wraps(plot)
    def styled(*args: P.args, **kwargs: P.kwargs) -> str:
        with matplotlib.rc_context(_RC):
            return plot(*args, **kwargs)

    return styled


def _svg(fig: Figure, salt: str) -> str:
    buf = io.StringIO()
    with matplotlib.rc_context({**_RC, "svg.hashsalt": f"labelpool-{salt}"}):
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return svgmarks.inline(buf.getvalue())


def _figure(height: float, left: float = 0.7, right: float = 0.2, bottom: float = 0.45) -> Figure:
    """A figure with fixed margins in inches (a constrained layout measures every artist:
    half the time of a 1,000-question plot)."""
    fig = Figure(figsize=(WIDTH, height))
    fig.subplots_adjust(
        left=left / WIDTH, right=1 - right / WIDTH, bottom=bottom / height, top=1 - 0.15 / height
    )
    return fig


class _Marks:
    """Adds the artists of per-question marks to one axes, in data coordinates, each with
    the gid of its question and part. Added without the data-limit update of ``add_line`` /
    ``add_patch`` (the plots set their limits), unclipped, with the axes' one clip path given
    so that ``add_artist`` does not build one per mark: a third of a 1,000-question plot."""

    def __init__(self, ax: Axes, salt: str) -> None:
        self.ax, self.salt = ax, salt
        self.clip = TransformedPatchPath(ax.patch)

    def add(self, artist: Artist, index: int, part: int = 0) -> None:
        artist.set_transform(self.ax.transData)
        artist.set_clip_on(False)
        artist.set_clip_path(self.clip)
        artist.set_zorder(2)
        artist.set_gid(svgmarks.gid(self.salt, index, part))
        self.ax.add_artist(artist)


def _per_question(fig: Figure, salt: str, qids: Sequence[str]) -> str:
    return svgmarks.tag(_svg(fig, salt), salt, qids)


def _question_axis(ax: Axes, n: int, label: str) -> None:
    ax.set_xlim(-0.75, n - 0.25)
    ax.set_xticks([])
    ax.set_xlabel(label)


def _span(values: Sequence[float]) -> tuple[float, float]:
    """Y limits holding ``values`` and zero, with a margin."""
    low, high = min([*values, 0.0]), max([*values, 0.0])
    pad = 0.05 * max(1e-6, high - low)
    return low - pad, high + pad


@_styled
def delta_bars(salt: str, deltas: Sequence[Delta], measure: str) -> str:
    """The per-question delta, sorted, each bar with its delta-range whisker, coloured by the
    question's unjudged share."""
    rows = sorted(deltas, key=lambda d: (d.delta, d.qid))
    fig = _figure(3.2, right=1.0)
    ax = fig.subplots()
    marks = _Marks(ax, salt)
    norm = Normalize(0.0, 1.0)
    cmap = matplotlib.colormaps[CMAP]
    # the colour of each share in steps of 0.5% as hex, converted once (not once per bar)
    shades = [to_hex(cmap(i / SHADES)) for i in range(SHADES + 1)]
    for i, d in enumerate(rows):
        colour = shades[round(min(1.0, max(0.0, d.unjudged_share)) * SHADES)]
        bar = Rectangle((i - 0.4, min(0.0, d.delta)), 0.8, abs(d.delta), facecolor=colour)
        bar.set_edgecolor("none")
        marks.add(bar, i, 0)
        marks.add(Line2D([i, i], [d.low, d.high], color="black", linewidth=0.6), i, 1)
    ax.set_ylim(*_span([d.low for d in rows] + [d.high for d in rows]))
    _question_axis(ax, len(rows), f"{counted(len(rows), 'question')}, sorted by delta")
    ax.axhline(0.0, color="black", linewidth=0.5, zorder=1)
    ax.set_ylabel(f"delta {sanitize.text(measure)}")
    bar_axes = fig.add_axes((1 - 0.85 / WIDTH, 0.45 / 3.2, 0.12 / WIDTH, 1 - 0.6 / 3.2))
    colorbar = fig.colorbar(ScalarMappable(norm=norm, cmap=cmap), cax=bar_axes)
    colorbar.set_label("unjudged share at k")
    return _per_question(fig, salt, [d.qid for d in rows])


@_styled
def scores(
    salt: str,
    qids: Sequence[str],
    base: Sequence[float],
    chal: Sequence[float],
    names: tuple[str, str],
    measure: str,
) -> str:
    """Per question the challenger's score against the baseline's; the diagonal is a tie."""
    fig = _figure(4.0, left=2.9, right=2.6, bottom=0.5)
    ax = fig.subplots()
    marks = _Marks(ax, salt)
    top = max([1.0, *base, *chal])
    ax.plot([0.0, top], [0.0, top], color=SETTLED_COLOUR, linewidth=0.6, zorder=1)
    for i in range(len(qids)):
        dot = Line2D([base[i]], [chal[i]], linestyle="none", marker="o", markersize=4)
        dot.set_markerfacecolor(CHALLENGER_COLOUR)
        dot.set_markeredgecolor("none")
        dot.set_alpha(0.6)
        marks.add(dot, i, 0)
    ax.set_xlim(-0.02 * top, 1.02 * top)
    ax.set_ylim(-0.02 * top, 1.02 * top)
    ax.set_xlabel(sanitize.text(f"{names[0]} (baseline) {measure}"))
    ax.set_ylabel(sanitize.text(f"{names[1]} {measure}"))
    return _per_question(fig, salt, qids)


@_styled
def unjudged(
    salt: str, qids: Sequence[str], base: Sequence[float], chal: Sequence[float], k: int
) -> str:
    """Both systems' unjudged rate at k per question: a blue tick for the baseline, an orange
    one for the challenger; questions sorted by the challenger's rate, then the baseline's."""
    order = sorted(range(len(qids)), key=lambda i: (chal[i], base[i], qids[i]))
    fig = _figure(2.6)
    ax = fig.subplots()
    marks = _Marks(ax, salt)
    for x, i in enumerate(order):
        b = Line2D([x - 0.45, x + 0.45], [base[i], base[i]], color=BASELINE_COLOUR, linewidth=2)
        c = Line2D([x - 0.45, x + 0.45], [chal[i], chal[i]], color=CHALLENGER_COLOUR, linewidth=2)
        marks.add(b, x, 0)
        marks.add(c, x, 1)
    ax.set_ylim(-0.03, 1.03)
    _question_axis(ax, len(qids), "questions, sorted by the challenger's unjudged rate")
    ax.set_ylabel(f"unjudged at {k}")
    return _per_question(fig, salt, [qids[i] for i in order])


def _label_room(rows: Sequence[FlipRow | ForestRow]) -> float:
    """Inches left of the axes for the row labels (about 0.075 in per character at 9 pt)."""
    return min(4.0, 0.3 + 0.075 * max((len(r.label) for r in rows), default=1))


@dataclass(frozen=True)
class FlipRow:
    label: str  # the measure
    up: int  # questions whose delta is > 0 for every labelling of the unjudged documents
    down: int  # ... < 0 for every labelling
    flip: int  # questions whose delta range holds zero (a tie included)
    settled_zero: int  # questions whose delta is 0 whatever the labelling


@_styled
def flips(salt: str, rows: Sequence[FlipRow]) -> str:
    """Per measure, how many questions could still flip sign (red) and how many are settled
    (green: up, purple: down, grey: zero whatever the labelling)."""
    fig = _figure(0.6 + 0.3 * len(rows), left=_label_room(rows), right=0.3, bottom=0.4)
    ax = fig.subplots()
    colours = (
        ("up", "#1b9e77"),
        ("down", "#7570b3"),
        ("flip", FLIP_COLOUR),
        ("settled_zero", SETTLED_COLOUR),
    )
    for y, r in enumerate(reversed(rows)):
        left = 0
        for name, colour in colours:
            n = getattr(r, name)
            ax.barh([y], [n], left=[left], color=colour, height=0.6)
            if n:
                ax.text(
                    left + n / 2, y, str(n), ha="center", va="center", color="white", fontsize=8
                )
            left += n
    ax.set_yticks(range(len(rows)), [sanitize.text(r.label) for r in reversed(rows)])
    ax.set_xlabel("questions")
    return _svg(fig, salt)


@dataclass(frozen=True)
class ForestRow:
    label: str  # "dense vs bm25: nDCG@10"
    delta: float
    ci: tuple[float, float]
    low: float
    high: float


@_styled
def forest(salt: str, rows: Sequence[ForestRow]) -> str:
    """Each comparison's delta (dot) with its 95% interval (black line) and its delta range
    (light band), one row per (challenger, measure)."""
    fig = _figure(0.6 + 0.3 * len(rows), left=_label_room(rows), right=0.3, bottom=0.4)
    ax = fig.subplots()
    for y, r in enumerate(reversed(rows)):
        ax.plot([r.low, r.high], [y, y], color=BAND_COLOUR, linewidth=7, solid_capstyle="butt")
        ax.plot([r.ci[0], r.ci[1]], [y, y], color="black", linewidth=1.2)
        ax.plot([r.delta], [y], marker="o", markersize=5, color=CHALLENGER_COLOUR)
    ax.axvline(0.0, color="black", linewidth=0.5, zorder=0)
    ax.set_yticks(range(len(rows)), [sanitize.text(r.label) for r in reversed(rows)])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel("delta (challenger - baseline)")
    return _svg(fig, salt)


@_styled
def verdicts_over_time(
    salt: str, days: Sequence[str], judges: Sequence[tuple[str, Sequence[int]]]
) -> str:
    """Verdicts merged so far, per judge, on each day a commit changed the labels: one line
    per judge (its colour named in the legend)."""
    fig = _figure(2.4, left=0.7, right=2.2, bottom=0.75)
    ax = fig.subplots()
    for name, counts in judges:
        ax.step(
            range(len(days)),
            counts,
            where="post",
            marker="o",
            markersize=3,
            label=sanitize.text(name),
        )
    ax.set_xticks(range(len(days)), days, rotation=30, ha="right")
    ax.set_ylim(0, 1.1 * max([1, *(c for _, counts in judges for c in counts)]))
    ax.set_xlim(-0.5, len(days) - 0.5)
    ax.set_ylabel("verdicts merged")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return _svg(fig, salt)
