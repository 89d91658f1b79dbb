"""Run readers: trec_eval order, formats, and every bad-input case with its line."""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from pathlib import Path

import pytest

from labelpool.config import load as load_config
from labelpool.runs import Run, RunError, expand, read_run, resolve, system_name

RUN = """\
q1 Q0 d1 1 1.5 sys
q1 Q0 d3 2 2.0 sys
q1 Q0 d2 3 2.0 sys
q2 Q0 z 1 0.1 sys
q10 Q0 a 1 -3 sys
"""


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def test_trec_order_score_then_doc_id_descending(tmp_path: Path) -> None:
    run = read_run(write(tmp_path / "bm25.trec", RUN))
    assert run.name == "bm25"
    assert list(run.qids) == ["q1", "q10", "q2"]
    assert run.offsets.tolist() == [0, 3, 4, 5]
    # ties at 2.0: d3 before d2 (doc id descending); rank column ignored
    assert run.ranking("q1") == ["d3", "d2", "d1"]
    assert run.ranking("missing") == []
    assert run.top(2) == {"q1": ["d3", "d2"], "q10": ["a"], "q2": ["z"]}
    assert run.qid_set == {"q1", "q2", "q10"}
    assert run.scores.tolist() == [2.0, 2.0, 1.5, -3.0, 0.1]
    assert run.sha256 == hashlib.sha256(RUN.encode()).hexdigest()


def test_shuffled_lines_same_run(tmp_path: Path) -> None:
    lines = RUN.splitlines(keepends=True)
    random.Random(3).shuffle(lines)
    a = read_run(write(tmp_path / "a.run", RUN))
    b = read_run(write(tmp_path / "b.run", "".join(lines)))
    assert a.top(10) == b.top(10)


def test_comments_tabs_and_gzip(tmp_path: Path) -> None:
    text = "# a comment\nq1\tQ0\td1\t1\t1.5\tsys\n\n#x\nq1  Q0 d2 2 2.5 sys  \n"
    run = read_run(write(tmp_path / "c.trec", text))
    assert run.ranking("q1") == ["d2", "d1"]
    gz = write(tmp_path / "g.trec.gz", gzip.compress(RUN.encode()))
    run = read_run(gz)
    assert run.name == "g"
    assert run.ranking("q1") == ["d3", "d2", "d1"]
    # gzip is found by magic bytes, not by the name
    odd = write(tmp_path / "odd.txt", gzip.compress(RUN.encode()))
    assert read_run(odd, name="other").ranking("q1") == ["d3", "d2", "d1"]
    assert read_run(odd, name="other").name == "other"


def test_jsonl_rows_and_lists(tmp_path: Path) -> None:
    rows = [
        {"qid": "q1", "doc_id": "d1", "score": 1},
        {"qid": "q1", "doc_id": "d2", "score": 3.5},
        {"qid": "q2", "doc_id": "x", "score": "2"},
    ]
    path = write(tmp_path / "r.jsonl", "\n".join(json.dumps(r) for r in rows) + "\n")
    run = read_run(path)
    assert run.name == "r"
    assert run.ranking("q1") == ["d2", "d1"]
    lists = [{"qid": "q1", "doc_ids": ["b", "c", "a"]}, {"qid": "q2", "doc_ids": []}]
    path = write(tmp_path / "l.jsonl", "\n".join(json.dumps(r) for r in lists))
    run = read_run(path)
    assert run.ranking("q1") == ["b", "c", "a"]  # list order kept, not doc id order


@pytest.mark.parametrize(
    ("name", "text", "line", "message"),
    [
        ("dup.trec", "q1 Q0 d1 1 1 s\nq2 Q0 d1 1 1 s\n# c\nq1 Q0 d1 2 0.5 s\n", 4, "lines 1 and 4"),
        ("dup-tied.trec", "q1 Q0 d1 1 1 s\nq1 Q0 d1 2 1 s\n", 2, "appears twice"),
        ("fields.trec", "q1 Q0 d1 1 1 s\nq1 Q0 d2 2 1\n", 2, "expected 6 fields"),
        ("score.trec", "q1 Q0 d1 1 1 s\nq1 Q0 d2 2 high s\n", 2, "is not a number"),
        ("nan.trec", "q1 Q0 d1 1 nan s\n", 1, "not a finite number"),
        ("inf.trec", "q1 Q0 d1 1 1 s\n\nq1 Q0 d2 1 -inf s\n", 3, "not a finite number"),
        ("empty.trec", "", 1, "empty run file"),
        ("blank.trec", "\n  \n", 1, "empty run file"),
        ("comments.trec", "# only\n# comments\n", 1, "empty run file"),
        ("bad.jsonl", '{"qid": "q1", "doc_id": "d", "score": 1}\n{"qid": \n', 2, "bad JSON"),
        ("nan.jsonl", '{"qid": "q1", "doc_id": "d", "score": NaN}\n', 1, "not a finite"),
        (
            "dup.jsonl",
            '{"qid": "q1", "doc_id": "d", "score": 1}\n\n'
            '{"qid": "q1", "doc_id": "d", "score": 2}\n',
            3,
            "lines 1 and 3",
        ),
        ("duplist.jsonl", '{"qid": "q1", "doc_ids": ["a", "b", "a"]}\n', 1, "appears twice"),
        ("missing.jsonl", '{"qid": "q1", "doc_id": "d"}\n', 1, '"score"'),
    ],
)
def test_bad_input_names_file_and_line(
    tmp_path: Path, name: str, text: str, line: int, message: str
) -> None:
    path = write(tmp_path / name, text)
    with pytest.raises(RunError) as info:
        read_run(path)
    assert info.value.line == line
    assert str(info.value).startswith(f"{path}:{line}: ")
    assert message in str(info.value)


def test_bad_input_in_gzip_counts_physical_lines(tmp_path: Path) -> None:
    text = "q1 Q0 d1 1 1 s\n# note\nq1 Q0 d2 2 x s\n"
    path = write(tmp_path / "g.trec.gz", gzip.compress(text.encode()))
    with pytest.raises(RunError, match=r"g\.trec\.gz:3: score 'x' is not a number"):
        read_run(path)


def test_system_name_strips_known_suffixes() -> None:
    assert system_name(Path("runs/bm25.trec.gz")) == "bm25"
    assert system_name(Path("hybrid-v2.run")) == "hybrid-v2"
    assert system_name(Path("dense.v1.jsonl")) == "dense.v1"
    assert system_name(Path(".trec")) == ".trec"


def test_resolve_by_path_or_system_name(repo: Path) -> None:
    cfg = load_config(repo)
    bm25 = write(repo / "runs" / "bm25.trec", RUN)
    write(repo / "runs" / "dense.trec", RUN)
    write(repo / "runs" / "dense.jsonl", '{"qid": "q", "doc_id": "d", "score": 1}\n')
    assert resolve(cfg, str(bm25)) == bm25
    assert resolve(cfg, "bm25") == bm25
    with pytest.raises(RunError, match=r"ambiguous.*dense\.jsonl, dense\.trec"):
        resolve(cfg, "dense")
    with pytest.raises(RunError, match=r"known: bm25, dense"):
        resolve(cfg, "splade")


def test_tied_questions(tmp_path: Path) -> None:
    run = read_run(
        write(
            tmp_path / "t.trec",
            "a Q0 x 1 1 s\na Q0 y 2 1 s\nb Q0 x 1 2 s\nb Q0 y 1 1 s\nc Q0 z 1 1 s\n",
        )
    )
    assert run.tied_questions == ("a",)
    assert run.ranking("a") == ["y", "x"]


def test_real_cast_run_order_matches_trec_eval(cast_dir: Path) -> None:
    """Ties in a real run: our order equals a plain sort by (-score, doc id desc)."""
    path = cast_dir / "baselines" / "document_runs" / "org_manual_bm25.run"
    run = read_run(path)
    assert isinstance(run, Run)
    rows: dict[str, list[tuple[float, str]]] = {}
    for line in path.read_text().splitlines():
        q, _, d, _, s, _ = line.split()
        rows.setdefault(q, []).append((float(s), d))
    assert sorted(rows) == list(run.qids)
    for q, items in rows.items():
        expected = [d for _, d in sorted(items, key=lambda t: (t[0], t[1]), reverse=True)]
        assert run.ranking(q) == expected


@pytest.mark.parametrize(
    "text",
    [
        # grouped, in trec order, questions not in code-point order: blocks reordered
        "q2 Q0 b 1 3 s\nq2 Q0 a 2 3 s\nq10 Q0 z 1 1 s\nq10 Q0 y 2 0 s\n",
        # grouped, tie written doc id ascending: not trec order, full sort
        "q10 Q0 z 1 1 s\nq10 Q0 y 2 0 s\nq2 Q0 a 1 3 s\nq2 Q0 b 2 3 s\n",
        # not grouped
        "q2 Q0 a 1 3 s\nq10 Q0 y 2 0 s\nq2 Q0 b 2 3 s\nq10 Q0 z 1 1 s\n",
        # already in order
        "q10 Q0 z 1 1 s\nq10 Q0 y 2 0 s\nq2 Q0 b 1 3 s\nq2 Q0 a 2 3 s\n",
    ],
)
def test_every_layout_gives_trec_order(tmp_path: Path, text: str) -> None:
    run = read_run(write(tmp_path / "r.trec", text))
    assert list(run.qids) == ["q10", "q2"]
    assert run.top(5) == {"q10": ["z", "y"], "q2": ["b", "a"]}
    assert run.docs.to_pylist() == ["z", "y", "b", "a"]
    assert run.scores.tolist() == [1.0, 0.0, 3.0, 3.0]
    assert len(run) == 4


def test_expand_folder_to_its_run_files(repo: Path) -> None:
    cfg = load_config(repo)
    write(repo / "runs" / "bm25.trec", RUN)
    write(
        repo / "runs" / "dense.jsonl.gz", gzip.compress(b'{"qid": "q", "doc_id": "d", "score": 1}')
    )
    write(repo / "runs" / "README.md", "# how the runs were made\n")
    write(repo / "runs" / "make_runs.py", "print('hi')\n")
    names = [p.name for p in expand(cfg, str(repo / "runs"))]
    assert names == ["bm25.trec", "dense.jsonl.gz"]
    assert expand(cfg, "bm25") == [repo / "runs" / "bm25.trec"]
    (repo / "empty").mkdir()
    with pytest.raises(RunError, match="no run files in this folder"):
        expand(cfg, str(repo / "empty"))
