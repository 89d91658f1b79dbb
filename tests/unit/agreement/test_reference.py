"""The agreement statistics equal the reference libraries to 1e-12: ``krippendorff.alpha``
(ordinal and nominal), scikit-learn's ``cohen_kappa_score`` (plain and quadratic), scipy's
``kendalltau`` (tau-b); Gwet's AC2 is checked by hand on a small table (below), and against a
direct loop over the published formula on generated panels.

Panels are generated with missing verdicts, documents with one judge, all judges agreeing, and
grades on a 0-4 scale. Undefined is NaN in both (the references raise or return NaN)."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import kendalltau
from sklearn.metrics import cohen_kappa_score

from labelpool.agreement import alpha, gwet, kappa
from labelpool.agreement.panel import categories, relevance, value_counts
from labelpool.agreement.tau import tau_b

SCALE = 5  # grades 0..4


def _same(ours: float, theirs: float) -> None:
    if math.isnan(theirs):
        assert math.isnan(ours), (ours, theirs)
    else:
        assert ours == pytest.approx(theirs, abs=1e-12, rel=0)


@st.composite
def panels(draw: st.DrawFn) -> np.ndarray:
    """(units, judges) grades with NaN for a missing verdict; sometimes every verdict agrees,
    sometimes every document has one judge only."""
    judges = draw(st.integers(2, 5))
    units = draw(st.integers(1, 25))
    top = draw(st.integers(0, SCALE - 1))
    cell = st.one_of(st.none(), st.integers(0, top))
    rows = draw(
        st.lists(st.lists(cell, min_size=judges, max_size=judges), min_size=units, max_size=units)
    )
    grades = np.array([[np.nan if v is None else v for v in r] for r in rows], dtype=float)
    shape = draw(st.sampled_from(["as drawn", "all agree", "one judge per document"]))
    if shape == "all agree":
        grades = np.where(np.isnan(grades), np.nan, draw(st.integers(0, top)))
    elif shape == "one judge per document":
        keep = np.arange(units) % judges
        grades[np.arange(judges)[None, :] != keep[:, None]] = np.nan
    return grades


def _krippendorff(grades: np.ndarray, level: str) -> float:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return float(krippendorff.alpha(reliability_data=grades.T, level_of_measurement=level))
    except ValueError:  # "more than one value in the domain", "no unit with two coders"
        return math.nan


@given(panels())
@settings(max_examples=400, deadline=None)
def test_alpha_equals_krippendorff(grades: np.ndarray) -> None:
    values = _values(grades)
    counts = value_counts(grades, values)
    _same(alpha.alpha(counts, alpha.ORDINAL), _krippendorff(grades, "ordinal"))
    _same(alpha.alpha(counts, alpha.NOMINAL), _krippendorff(grades, "nominal"))
    relevant = np.where(np.isnan(grades), np.nan, grades >= 1)
    both = relevance(counts, values)
    _same(alpha.alpha(both, alpha.NOMINAL), _krippendorff(relevant, "nominal"))


def _values(grades: np.ndarray) -> np.ndarray:
    """The categories as the panel takes them: the grades given."""
    present = np.unique(grades[~np.isnan(grades)]).astype(np.int64)
    return present if present.size else np.zeros(1, dtype=np.int64)


def _sklearn(a: np.ndarray, b: np.ndarray, weights: str | None) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(cohen_kappa_score(a, b, weights=weights, labels=list(range(SCALE))))


@given(panels())
@settings(max_examples=400, deadline=None)
def test_kappa_equals_scikit_learn(grades: np.ndarray) -> None:
    both = ~np.isnan(grades[:, 0]) & ~np.isnan(grades[:, 1])
    if not both.any():
        return
    a, b = grades[both, 0].astype(int), grades[both, 1].astype(int)
    values = _values(grades[both][:, :2])
    index = categories(grades[both][:, :2], values)
    confusion = kappa.confusion(index[:, 0], index[:, 1], values.size).astype(float)
    _same(float(kappa.kappa_of(confusion, kappa.PLAIN, values)), _sklearn(a, b, None))
    theirs = _sklearn(a, b, "quadratic")
    _same(float(kappa.kappa_of(confusion, kappa.QUADRATIC, values)), theirs)
    at_threshold = kappa.kappa_of(kappa.collapse(confusion, values), kappa.PLAIN)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = float(cohen_kappa_score(a >= 1, b >= 1, labels=[False, True]))
    _same(float(at_threshold), theirs)
    assert float(kappa.raw_of(confusion)) == pytest.approx(float(np.mean(a == b)), abs=1e-12)


def test_kappa_is_scikit_learn_with_labels_on_the_grade_scale() -> None:
    """Quadratic weights are on the grades themselves: sklearn's default weighs the labels
    present by their index, so grades 0 and 3 with nothing between would be 1 apart there."""
    a, b = np.array([0, 3, 3, 0]), np.array([0, 3, 0, 0])
    confusion = kappa.confusion(a // 3, b // 3, 2).astype(float)  # categories 0 and 3
    ours = float(kappa.kappa_of(confusion, kappa.QUADRATIC, np.array([0, 3])))
    assert ours == pytest.approx(
        cohen_kappa_score(a, b, weights="quadratic", labels=[0, 1, 2, 3]), abs=1e-12
    )


def _gwet_loop(grades: np.ndarray, values: np.ndarray, weights: np.ndarray) -> float:
    """Gwet (2014), eq. for AC2 with several raters and missing ratings, one unit at a time;
    the categories ``values``, the weights between them ``weights``."""
    q = weights.shape[0]
    pa_terms, pis = [], []
    for row in grades:
        given_ = [int(v) for v in row if not math.isnan(v)]
        if not given_:
            continue
        r_i = len(given_)
        r = [given_.count(int(values[k])) for k in range(q)]
        pis.append([r[k] / r_i for k in range(q)])
        if r_i >= 2:
            star = [sum(weights[k, m] * r[m] for m in range(q)) for k in range(q)]
            pa_terms.append(sum(r[k] * (star[k] - 1) for k in range(q)) / (r_i * (r_i - 1)))
    if not pa_terms or q < 2:
        return math.nan
    pa = sum(pa_terms) / len(pa_terms)
    pi = [sum(p[k] for p in pis) / len(pis) for k in range(q)]
    pe = weights.sum() / (q * (q - 1)) * sum(p * (1 - p) for p in pi)
    return math.nan if pe == 1 else (pa - pe) / (1 - pe)


@given(panels())
@settings(max_examples=300, deadline=None)
def test_gwet_equals_the_published_formula(grades: np.ndarray) -> None:
    values = _values(grades)
    counts = value_counts(grades, values)
    if values.size >= 2:  # quadratic weights between a single category: none to weigh
        w = 1 - (values[:, None] - values[None, :]) ** 2 / (values.max() - values.min()) ** 2
        _same(gwet.ac2(counts, values, gwet.QUADRATIC), _gwet_loop(grades, values, w))
    eye = np.eye(values.size)
    _same(gwet.ac2(counts, values, gwet.IDENTITY), _gwet_loop(grades, values, eye))


def test_gwet_ac2_by_hand() -> None:
    """Three documents, judges A B C, grades 0-2 (q = 3), quadratic weights
    w(k, l) = 1 - (k - l)^2 / 4: w(0,1) = w(1,2) = 3/4, w(0,2) = 0, sum(w) = 3 + 4 * 3/4 = 6.

        doc   A  B  C   r_i0 r_i1 r_i2   r*_ik = sum_l w(k,l) r_il
        d1    0  0  1     2    1    0    r* = (2 + 3/4, 3/2 + 1, 3/4)
        d2    2  2  -     0    0    2    r*_2 = 2
        d3    1  2  -     0    1    1    r*_1 = r*_2 = 1 + 3/4

    p_a per document, sum_k r_ik (r*_ik - 1) / (r_i (r_i - 1)):
        d1: (2 * 7/4 + 1 * 3/2) / 6 = 5/6;  d2: 2 * 1 / 2 = 1;  d3: (3/4 + 3/4) / 2 = 3/4
        p_a = (5/6 + 1 + 3/4) / 3 = 31/36
    pi_k, the mean of r_ik / r_i: pi = ((2/3) / 3, (1/3 + 1/2) / 3, (1 + 1/2) / 3)
        = (2/9, 5/18, 1/2); sum pi (1 - pi) = 14/81 + 65/324 + 1/4 = 101/162
    p_e = sum(w) / (q (q - 1)) * 101/162 = 6/6 * 101/162 = 101/162
    AC2 = (31/36 - 101/162) / (1 - 101/162) = (77/324) / (122/324) = 77/122

    At the relevance threshold (AC1, identity weights, q = 2): d1 (2, 1), d2 (0, 2), d3 (0, 2);
        p_a = ((2 * 1 + 1 * 0) / 6 + 1 + 1) / 3 = 7/9; pi = (2/9, 7/9);
        p_e = 2/2 * 2 * (2/9)(7/9) = 28/81; AC1 = (7/9 - 28/81) / (1 - 28/81) = 35/53
    """
    grades = np.array([[0, 0, 1], [2, 2, np.nan], [1, 2, np.nan]])
    values = np.array([0, 1, 2])
    counts = value_counts(grades, values)
    ac2 = gwet.ac2(counts, values, gwet.QUADRATIC)
    assert ac2 == pytest.approx(float(Fraction(77, 122)), abs=1e-15)
    ac1 = gwet.ac2(relevance(counts, values), np.array([0, 1]), gwet.IDENTITY)
    assert ac1 == pytest.approx(float(Fraction(35, 53)), abs=1e-15)


@given(
    st.integers(min_value=2, max_value=12).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 4).map(lambda v: v / 4), min_size=n, max_size=n),
            st.lists(st.integers(0, 4).map(lambda v: v / 4), min_size=n, max_size=n),
        )
    )
)
@settings(max_examples=300, deadline=None)
def test_tau_b_equals_scipy(xy: tuple[list[float], list[float]]) -> None:
    x, y = xy
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = float(kendalltau(x, y).statistic)
    _same(tau_b(x, y), theirs)
