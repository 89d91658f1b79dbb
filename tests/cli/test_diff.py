"""``labelpool diff``: the semantic diff of the label set between two revisions."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from history_scenario import BOB, Scenario, build, commit_all
from labelpool.cli import main
from labelpool.model import label_from_data
from labelpool.workflows.audit.diff import diff_labels


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Scenario:
    return build(tmp_path_factory.mktemp("diff"))


@pytest.fixture
def fresh(tmp_path: Path) -> Scenario:
    return build(tmp_path)


def run_diff(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["diff", *args, "--repo", str(repo)])
    return code, capsys.readouterr().out


def diff_json(capsys: pytest.CaptureFixture[str], repo: Path, *args: str) -> Any:
    code, out = run_diff(capsys, repo, *args, "--format", "json")
    assert code == 0
    return json.loads(out)


EMPTY_QUESTION: dict[str, Any] = {
    "text": None,
    "judgments_added": [],
    "judgments_removed": [],
    "flips": [],
    "grades_changed": [],
    "classes_created": [],
    "classes_removed": [],
    "classes_merged": [],
    "classes_split": [],
    "classes_changed": [],
    "pool_added": [],
    "pool_removed": [],
    "pending_opened": [],
    "pending_closed": [],
    "pending_changed": [],
    "unjudged_added": [],
    "unjudged_removed": [],
}
DENSE = {"system": "dense", "k": 20, "date": "2026-12-05", "run": None}


def test_second_batch_lists_exactly_added_judgments_flip_and_pool(
    scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    data = diff_json(capsys, scenario.repo, scenario.batch1, scenario.batch2)
    assert data["from"] == scenario.batch1 and data["to"] == scenario.batch2
    assert data["changed"] is True
    assert data["questions_added"] == [] and data["questions_removed"] == []
    assert data["questions"] == [
        {
            **EMPTY_QUESTION,
            "question": "q1",
            "judgments_added": [{"doc": "doc-d", "grade": 2}, {"doc": "doc-e", "grade": 0}],
            "flips": [{"doc": "doc-b", "before": 0, "after": 1}],
            "pool_added": [DENSE],
        },
        {
            **EMPTY_QUESTION,
            "question": "q2",
            "judgments_added": [{"doc": "doc-y", "grade": 0}],
            "pool_added": [DENSE],
        },
    ]
    assert data["summary"] == {
        "questions_added": 0,
        "questions_removed": 0,
        "questions_changed": 2,
        "judgments_added": 3,
        "judgments_removed": 0,
        "flips": 1,
        "grades_changed": 0,
        "pool_added": 2,
        "pool_removed": 0,
        "pending_opened": 0,
        "pending_closed": 0,
    }
    assert data["scores"] == []


def test_text_and_markdown_say_the_same(
    scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    code, text = run_diff(capsys, scenario.repo, scenario.batch1, scenario.batch2)
    assert code == 0
    assert text.splitlines() == [
        f"labels {scenario.batch1} -> {scenario.batch2}: "
        "2 questions changed, 3 judgments added, 1 flip, 2 pool added",
        "q1:",
        "  + judged doc-d: relevant (grade 2)",
        "  + judged doc-e: irrelevant",
        "  ~ flipped doc-b: irrelevant -> relevant (grade 1)",
        "  + pool dense@20 on 2026-12-05",
        "q2:",
        "  + judged doc-y: irrelevant",
        "  + pool dense@20 on 2026-12-05",
    ]
    code, md = run_diff(
        capsys, scenario.repo, scenario.batch1, scenario.batch2, "--format", "markdown"
    )
    assert code == 0
    rows = [line for line in md.splitlines() if line.startswith(("| q1 ", "| q2 "))]
    assert rows == [
        r"| q1 | + judged doc-d: relevant (grade 2) |",
        r"| q1 | + judged doc-e: irrelevant |",
        r"| q1 | \~ flipped doc-b: irrelevant -&gt; relevant (grade 1) |",
        r"| q1 | + pool dense@20 on 2026-12-05 |",
        r"| q2 | + judged doc-y: irrelevant |",
        r"| q2 | + pool dense@20 on 2026-12-05 |",
    ]
    assert md.startswith("### Label changes:")


def test_reformatting_commit_is_no_change(
    scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    data = diff_json(capsys, scenario.repo, scenario.batch1, scenario.fmt)
    assert data["changed"] is False and data["questions"] == []
    code, text = run_diff(capsys, scenario.repo, scenario.batch1, scenario.fmt)
    assert code == 0
    assert text.strip().endswith("no semantic change")


def test_pure_reordering_is_no_change(fresh: Scenario, capsys: pytest.CaptureFixture[str]) -> None:
    path = fresh.repo / "labels" / "q1.yaml"
    text = path.read_text(encoding="utf-8")
    judged = "  - 'doc-a'\n  - 'doc-b'\n  - 'doc-c'\n  - 'doc-d'\n  - 'doc-e'\n"
    assert judged in text
    text = text.replace(judged, "  - 'doc-e'\n  - 'doc-c'\n  - 'doc-a'\n  - 'doc-d'\n  - 'doc-b'\n")
    pool = "  - system: bm25\n    k: 20\n    date: '2026-12-01'\n"
    assert pool in text
    text = text.replace(pool, "") + pool  # bm25's entry after dense's
    path.write_text(text, encoding="utf-8")
    # working tree against HEAD, and as a commit
    assert diff_json(capsys, fresh.repo, "HEAD")["changed"] is False
    commit_all(fresh.repo, "reorder", BOB)
    assert diff_json(capsys, fresh.repo, "HEAD~1", "HEAD")["questions"] == []
    # ... while a real change in the same file still shows
    path.write_text(text.replace("  - 'doc-c'\n", ""), encoding="utf-8")
    data = diff_json(capsys, fresh.repo, "HEAD")
    assert data["questions"][0]["judgments_removed"] == [{"doc": "doc-c", "grade": 0}]


def test_questions_added_removed_and_text_edited(
    fresh: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = fresh.repo / "labels"
    shutil.copy(labels / "q2.yaml", labels / "q3.yaml")
    text = (labels / "q3.yaml").read_text(encoding="utf-8").replace("id: q2", "id: q3")
    (labels / "q3.yaml").write_text(text, encoding="utf-8")
    (labels / "q1.yaml").unlink()
    data = diff_json(capsys, fresh.repo, fresh.batch2)
    assert data["questions_added"] == [{"question": "q3", "judgments": 2}]
    assert data["questions_removed"] == [{"question": "q1", "judgments": 5}]
    assert data["to"] == "working tree"
    assert [q["question"] for q in data["questions"]] == ["q2"]
    assert data["questions"][0]["text"] == {
        "before": "How long does a refund take?",
        "after": "How many days does a refund take?",
    }


def test_the_first_batch_on_empty_labels(
    scenario: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    # from nothing judged: every judgment is an addition (deepdiff must not lump the map)
    data = diff_json(capsys, scenario.repo, scenario.imported, scenario.batch1)
    q1 = data["questions"][0]
    assert q1["judgments_added"] == [
        {"doc": "doc-a", "grade": 1},
        {"doc": "doc-b", "grade": 0},
        {"doc": "doc-c", "grade": 0},
    ]
    assert q1["pool_added"] == [{"system": "bm25", "k": 20, "date": "2026-12-01", "run": None}]


def lab(**fields: Any) -> Any:
    data: dict[str, Any] = {"id": "q", "question": "Q?", "judged_ids": [], "pool": []}
    data.update(fields)
    return label_from_data(data)


def test_classes_created_merged_split_changed_removed() -> None:
    before = lab(
        judged_ids=["a", "b", "c", "d", "e", "f", "g", "h"],
        relevant_doc_ids=["a", "c", "e", "g"],
        relevant_classes=[["a", "b"], ["c", "d"], ["e", "f", "x"], ["g", "h"]],
    )
    after = lab(
        judged_ids=["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "y"],
        relevant_doc_ids=["a", "c", "e", "g", "i"],
        relevant_classes=[["a", "b", "c", "d"], ["e"], ["f", "x"], ["i", "j"], ["g", "h", "y"]],
    )
    (q,) = diff_labels({"q": before}, {"q": after}, "A", "B").questions
    assert q.classes_merged == (((("a", "b"), ("c", "d")), ("a", "b", "c", "d")),)
    assert q.classes_split == ((("e", "f", "x"), (("e",), ("f", "x"))),)
    assert q.classes_created == (("i", "j"),)
    assert q.classes_changed == ((("g", "h"), ("g", "h", "y")),)
    (q2,) = diff_labels({"q": after}, {"q": before}, "B", "A").questions
    assert q2.classes_removed == (("i", "j"),)


def test_pending_batches_opened_changed_closed_and_unjudged() -> None:
    batch = {"batch": "b1", "systems": ["bm25"], "depth": 10, "date": "2026-12-01"}
    empty = lab(pooled_unjudged_ids=["u"])
    opened = lab(pending=[{**batch, "docs": [{"doc": "p", "verdict": None}]}])
    filled = lab(pending=[{**batch, "docs": [{"doc": "p", "verdict": {"duplicate-of": "z"}}]}])
    (q,) = diff_labels({"q": empty}, {"q": opened}, "A", "B").questions
    assert q.pending_opened == (("b1", 1),)
    assert q.unjudged_removed == ("u",)
    (q,) = diff_labels({"q": opened}, {"q": filled}, "A", "B").questions
    assert [(b, c.doc, c.before, c.after) for b, c in q.pending_changed] == [
        ("b1", "p", None, {"duplicate-of": "z"})
    ]
    (q,) = diff_labels({"q": filled}, {"q": empty}, "A", "B").questions
    assert q.pending_closed == (("b1", 1),)
    assert q.unjudged_added == ("u",)


DOCS = [f"d{i}" for i in range(8)]


@st.composite
def labels(draw: st.DrawFn) -> dict[str, Any]:
    judged = draw(st.lists(st.sampled_from(DOCS), unique=True))
    relevant = [d for d in judged if draw(st.booleans())]
    grades = {d: draw(st.integers(2, 3)) for d in relevant if draw(st.booleans())}
    pool = draw(
        st.lists(
            st.tuples(st.sampled_from(["bm25", "dense"]), st.sampled_from([10, 20])),
            unique=True,
        )
    )
    return {
        "judged_ids": judged,
        "relevant_doc_ids": relevant,
        "grades": grades,
        "pool": [{"system": s, "k": k, "date": "2026-12-01"} for s, k in pool],
    }


@settings(max_examples=100, deadline=None)
@given(labels(), labels(), st.randoms(use_true_random=False))
def test_diff_matches_set_arithmetic_and_ignores_order(
    a: dict[str, Any], b: dict[str, Any], rnd: Any
) -> None:
    la, lb = lab(**a), lab(**b)
    result = diff_labels({"q": la}, {"q": lb}, "A", "B")
    q = result.questions[0] if result.questions else None
    added = {c.doc: c.after for c in q.judgments_added} if q else {}
    removed = {c.doc: c.before for c in q.judgments_removed} if q else {}
    flips = {c.doc for c in q.flips} if q else set()
    regraded = {c.doc for c in q.grades_changed} if q else set()
    ga, gb = la.gain, lb.gain
    assert added == {d: gb[d] for d in set(gb) - set(ga)}
    assert removed == {d: ga[d] for d in set(ga) - set(gb)}
    both = set(ga) & set(gb)
    assert flips == {d for d in both if (ga[d] == 0) != (gb[d] == 0)}
    assert regraded == {d for d in both if ga[d] != gb[d] and ga[d] > 0 and gb[d] > 0}
    pool_a = {(p.system, p.k) for p in la.pool}
    pool_b = {(p.system, p.k) for p in lb.pool}
    assert {(p.system, p.k) for p in (q.pool_added if q else ())} == pool_b - pool_a
    assert {(p.system, p.k) for p in (q.pool_removed if q else ())} == pool_a - pool_b
    # shuffling every list of b changes nothing
    shuffled = {key: list(v) if isinstance(v, list) else v for key, v in b.items()}
    for value in shuffled.values():
        if isinstance(value, list):
            rnd.shuffle(value)
    assert diff_labels({"q": lb}, {"q": lab(**shuffled)}, "B", "B'").empty


def test_scores_move_with_the_labels(fresh: Scenario, capsys: pytest.CaptureFixture[str]) -> None:
    import pytrec_eval

    from labelpool.workflows.audit.revisions import labels_at

    runs = fresh.repo / "runs"
    (runs / "make_runs.py").write_text("print('not a run')\n", encoding="utf-8")
    (runs / "bm25.trec").write_text(
        "q1 Q0 doc-a 1 3.0 bm25\nq1 Q0 doc-b 2 2.0 bm25\nq1 Q0 doc-d 3 1.0 bm25\n"
        "q2 Q0 doc-y 1 1.0 bm25\nq2 Q0 doc-q 2 0.5 bm25\n",
        encoding="utf-8",
    )
    (runs / "dense.trec").write_text(
        "q1 Q0 doc-z 1 3.0 dense\nq1 Q0 doc-b 2 2.0 dense\nq2 Q0 doc-y 1 1.0 dense\n",
        encoding="utf-8",
    )
    code, out = run_diff(
        capsys,
        fresh.repo,
        fresh.batch1,
        fresh.batch2,
        "--format",
        "json",
        "--scores",
        str(runs / "bm25.trec"),
        str(runs / "dense.trec"),  # a second file after one --scores (as `runs/*` expands)
        str(runs / "make_runs.py"),  # not a run: left out with a warning
    )
    assert code == 0, out
    scores = {s["run"]: s for s in json.loads(out)["scores"]}
    assert sorted(scores) == ["bm25", "dense"]

    from labelpool import config

    cfg = config.load(fresh.repo)

    def expected(rev: str, run_file: Path) -> tuple[float, float]:
        labels = labels_at(cfg, rev)
        qrels = {q: {d: int(g) for d, g in lab.gain.items()} for q, lab in labels.items()}
        run: dict[str, dict[str, float]] = {}
        for line in run_file.read_text(encoding="utf-8").splitlines():
            q, _, d, _, s, _ = line.split()
            run.setdefault(q, {})[d] = float(s)
        ev = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"})
        per = ev.evaluate(run)
        ndcg = sum(per.get(q, {}).get("ndcg_cut_10", 0.0) for q in qrels) / len(qrels)
        seen = sum(min(10, len(run.get(q, {}))) for q in qrels)
        judged = sum(1 for q in qrels for d in run.get(q, {}) if d in labels[q].judged)
        return ndcg, 1 - judged / seen

    for name in ("bm25", "dense"):
        s = scores[name]
        assert s["measure"] == "nDCG@10"
        before, unj_before = expected(fresh.batch1, runs / f"{name}.trec")
        after, unj_after = expected(fresh.batch2, runs / f"{name}.trec")
        assert s["before"] == pytest.approx(before, abs=1e-9)
        assert s["after"] == pytest.approx(after, abs=1e-9)
        assert s["change"] == pytest.approx(after - before, abs=1e-9)
        assert s["unjudged_before"] == pytest.approx(unj_before, abs=1e-9)
        assert s["unjudged_after"] == pytest.approx(unj_after, abs=1e-9)
    assert scores["bm25"]["unjudged_before"] > scores["bm25"]["unjudged_after"]
    # markdown carries the score table
    code, md = run_diff(
        capsys, fresh.repo, fresh.batch1, "--scores", "bm25", "-m", "P@5", "--format", "markdown"
    )
    assert code == 0
    assert "| bm25 | P@5 |" in md


def test_errors_are_messages(
    scenario: Scenario, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["diff", "no-such-rev", "--repo", str(scenario.repo)]) == 1
    assert "not a commit" in capsys.readouterr().err
    assert main(["diff", "HEAD", "--format", "yaml", "--repo", str(scenario.repo)]) == 2
    # no such run file: a usage error (2), as in compare, check, pool and validate
    assert main(["diff", "HEAD", "--scores", "nope", "--repo", str(scenario.repo)]) == 2
    err = capsys.readouterr().err
    assert "nope" in err and "Traceback" not in err
    assert main(["diff", "HEAD", "HEAD~1", "HEAD~2", "--repo", str(scenario.repo)]) == 2


def test_markdown_escapes_untrusted_text(
    fresh: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    path = fresh.repo / "labels" / "q2.yaml"
    text = path.read_text(encoding="utf-8").replace(
        "question: How many days does a refund take?",
        "question: '::set-output name=x:: | <img src=x> @admin'",
    )
    path.write_text(text, encoding="utf-8")
    code, md = run_diff(capsys, fresh.repo, "HEAD", "--format", "markdown")
    assert code == 0
    assert not any(line.startswith("::") for line in md.splitlines())
    assert "<img" not in md and "@admin" not in md
    row = next(line for line in md.splitlines() if "question text" in line)
    assert row.count(" | ") == 1  # the text's | cannot open a new cell


def test_cli_subprocess_runs(scenario: Scenario) -> None:
    proc = subprocess.run(
        ["labelpool", "diff", scenario.batch1, scenario.batch2, "--repo", str(scenario.repo)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "~ flipped doc-b: irrelevant -> relevant (grade 1)" in proc.stdout


def test_broken_label_is_a_positioned_error(
    fresh: Scenario, capsys: pytest.CaptureFixture[str]
) -> None:
    (fresh.repo / "labels" / "q3.yaml").write_text(
        "id: q3\nquestion: [unclosed\n", encoding="utf-8"
    )
    capsys.readouterr()
    assert main(["diff", "HEAD", "--repo", str(fresh.repo)]) == 1
    err = capsys.readouterr().err
    assert "labels/q3.yaml:" in err and "Traceback" not in err
    assert err.split("labels/q3.yaml:")[1].split(":")[0].isdigit()  # a line number
    # a broken file committed at REV is named as REV:path
    commit_all(fresh.repo, "broken", BOB)
    (fresh.repo / "labels" / "q3.yaml").unlink()
    assert main(["diff", "HEAD", "--repo", str(fresh.repo)]) == 1
    assert "HEAD:labels/q3.yaml:" in capsys.readouterr().err


def test_markdown_table_is_capped_for_the_job_summary() -> None:
    from labelpool.render.diff import render_markdown

    before = lab(judged_ids=[])
    after = lab(judged_ids=[f"d{i:04d}" for i in range(1200)], pool=[])
    result = diff_labels({"q": before}, {"q": after}, "A", "B")
    md = render_markdown(result, max_rows=500)
    rows = [line for line in md.splitlines() if line.startswith("| q |")]
    assert len(rows) == 500
    assert "700 more changes" in md
    assert len(render_markdown(result, max_rows=5000).splitlines()) > 1200
