"""Measure names: the naming rule, case-sensitivity, the spellings whose meaning changed,
trec_eval's ``-m`` grammar (``meas_init.c``) and the C number helpers."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from labelpool.errors import UsageError
from labelpool.scoring.measures import MeasureError, is_trec, parse, parse_one
from labelpool.scoring.trec_eval import select
from labelpool.scoring.trec_eval.cnum import atof, atol, fixed, lround


@pytest.mark.parametrize(
    ("name", "trec"),
    [
        ("P.5", True),
        ("ndcg_cut.10,20", True),
        ("map", True),
        ("P", True),
        ("ndcg", True),
        ("infAP", True),
        ("official", True),
        ("nDCG@10", False),
        ("RBP(p=0.8)", False),
        ("Bpref", False),
        ("ERR@10", False),
        ("Judged@10", False),
        ("p", False),
    ],
)
def test_naming_rule(name: str, trec: bool) -> None:
    assert is_trec(name) is trec


def test_commas_are_parameters_in_trec_names_and_separators_elsewhere() -> None:
    assert [m.name for m in parse(["P.5,10 nDCG@10,AP"])] == ["P_5", "P_10", "nDCG@10", "AP"]
    assert [m.name for m in parse(["ndcg.1=3,2=9"])] == ["ndcg_1=3,2=9"]
    assert [m.name for m in parse(["iprec_at_recall..10,.25"])] == [
        "iprec_at_recall_0.10",
        "iprec_at_recall_0.25",
    ]
    assert [m.name for m in parse(["rbp.p=0.5"])] == ["rbp_p=0.5"]


def test_spellings_whose_meaning_changed() -> None:
    """0.1.0 read names case-insensitively: ``ndcg`` was nDCG@k and ``p`` was P@k."""
    assert [m.name for m in parse(["ndcg"])] == ["ndcg"]  # trec_eval's ndcg, whole ranking
    assert parse(["ndcg"])[0].depth(10) is None
    assert len(parse(["P"])) == 9  # trec_eval's P_5 ... P_1000
    assert [m.name for m in parse(["success"])] == ["success_1", "success_5", "success_10"]
    right = {"p": "P", "ndcg@10": "nDCG@10", "success@1": "Success@1", "judged@10": "Judged@10"}
    right |= {"rr": "RR", "ap": "AP", "r@10": "R@10", "rbp(p=0.5)": "RBP(p=0.5)"}
    for gone, spelling in right.items():
        with pytest.raises(
            MeasureError, match=re.escape(f"(names are case-sensitive: {spelling})")
        ):
            parse([gone])


def test_new_families_and_parameters() -> None:
    rbp, rbp5, err, bpref, infap = parse(["RBP", "RBP(p=0.5)", "ERR@10", "Bpref", "infAP"])
    assert (rbp.name, rbp.param, rbp.depth(10)) == ("RBP", 0.8, None)
    assert (rbp5.name, rbp5.param, rbp5.range_key) == ("RBP(p=0.5)", 0.5, "RBP:0.5")
    assert (err.name, err.cutoff, err.range_key) == ("ERR@10", 10, "ERR")
    assert (bpref.name, bpref.spec) == ("Bpref", "bpref")
    assert (infap.name, infap.spec, infap.range_key) == ("infAP", "infAP", "trec_eval:infAP")
    for bad in ("RBP(p=2)", "RBP(q=0.5)", "nDCG(p=0.5)@10"):
        with pytest.raises(MeasureError):
            parse([bad])


@pytest.mark.parametrize("name", ["gm_map", "gm_bpref", "num_q", "runid", "relstring.15"])
def test_trec_eval_only_measures_are_refused_with_a_reason(name: str) -> None:
    with pytest.raises(MeasureError, match="only in --format trec_eval") as caught:
        parse([name])
    assert isinstance(caught.value, UsageError)


def test_bias_takes_labelpool_measures_only() -> None:
    assert parse_one("nDCG@10").name == "nDCG@10"
    with pytest.raises(MeasureError):
        parse_one("map")


# ------------------------------------------------------------------ trec_eval's -m grammar


def test_select_follows_trec_eval_order_and_defaults() -> None:
    assert [s.name for s in select([])] == [
        "runid",
        "num_q",
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "gm_map",
        "Rprec",
        "bpref",
        "recip_rank",
        "iprec_at_recall",
        "P",
    ]
    chosen = select(["ndcg_cut.20,3", "P.7,1", "map"])
    assert [s.name for s in chosen] == ["map", "P", "ndcg_cut"]
    assert chosen[1].columns == ("P_1", "P_7")  # sorted, as trec_eval
    assert select(["P.5", "P.10"])[0].columns == ("P_5",)  # the first parameters win
    assert select(["utility.1,-1,0,0"])[0].columns == ("utility_1,-1,0,0",)
    assert select(["11pt_avg..4,.2"])[0].values == (0.4, 0.2)  # kept in order


@pytest.mark.parametrize(
    "spec", ["P.0", "P.5,5", "P.", "utility.1,2", "ndcg.1", "nosuch", "prefs_simp"]
)
def test_select_refuses_what_trec_eval_refuses(spec: str) -> None:
    with pytest.raises(MeasureError):
        select([spec])


def test_c_numbers() -> None:
    assert (atol(" 12x"), atol("x"), atol("-3")) == (12, 0, -3)
    assert (atof(".25"), atof("1e1z"), atof("z")) == (0.25, 10.0, 0.0)
    assert list(lround(np.array([0.5, 1.5, 2.4999, -0.5, 2.5]))) == [1, 2, 2, -1, 3]
    assert fixed(0.03125) == "0.0312"  # the exact binary value, as glibc
    assert fixed(-math.nan) == "  -nan"
    assert fixed(-52.7) == "-52.7000"
