"""The pool entries from the label index's columns (issue 27): the ``pool_run`` column and
the entries provenance and ``bias`` read equal each label's own ``pool``, on the example and
on generated labels, cold and warm."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import columns, config, labelset
from labelpool.model import Label
from labelpool.workflows.validate.pooledruns import Entries, entries_of

EXAMPLE = Path(__file__).resolve().parents[3]
SYSTEMS = ("bm25", "dense", "unknown")
BLOBS = ("3b18e512dba79e4c8391dd0fbdfbe7e6b1ad5a0c", "0" * 40)


def plain(entries: Entries) -> list[tuple[Any, ...]]:
    """Each entry as (question, index, system, k, known, run)."""
    e = entries
    return [
        (e.qid(i), int(e.index[i]), e.system[i], int(e.k[i]), bool(e.known[i]), e.run[i])
        for i in range(len(e.q))
    ]


def expected(labels: dict[str, Label]) -> list[tuple[Any, ...]]:
    return [
        (q, i, p.system, p.k or 0, not p.unknown, p.run)
        for q, lab in labels.items()
        for i, p in enumerate(lab.pool)
    ]


def check(cfg: config.Config) -> None:
    """The columns' pool entries against the labels', read through the index twice."""
    for _ in range(2):  # cold (the columns projected), then warm (served by the index)
        through = labelset.load(cfg)
        cols = columns.of(through)
        assert cols is not None
        built = dict(through.labels)
        rows = cols.table.to_pylist()
        assert [r["id"] for r in rows] == list(built)
        for row in rows:
            pool = built[row["id"]].pool
            assert row["pool_run"] == [p.run for p in pool]
            assert row["pool_system"] == [p.system for p in pool]
        assert plain(entries_of(through)) == expected(built) == plain(entries_of(built))


def test_the_example_s_pool_entries_from_the_columns(cache: Path) -> None:
    cfg = config.load(EXAMPLE)
    assert any(lab.pool for lab in labelset.load(cfg, use_cache=False).values())
    check(cfg)


def text(qid: str, pool: list[tuple[str, int | None, str | None]]) -> str:
    out = [f"id: {qid}", f"question: Where is {qid}?", "relevant_doc_ids: []"]
    out.append(f"judged_ids: [{'d1' if pool else ''}]")
    if pool:
        out.append("pool:")
        for system, k, run in pool:
            out += [f"  - system: {system}", f"    k: {'null' if k is None else k}"]
            out.append("    date: '2026-06-02'")
            if run is not None:
                out.append(f"    run: '{run}'")
    return "\n".join(out) + "\n"


entry = st.tuples(
    st.sampled_from(SYSTEMS), st.none() | st.integers(1, 30), st.none() | st.sampled_from(BLOBS)
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pools=st.lists(st.lists(entry, max_size=4), min_size=1, max_size=6))
def test_generated_pool_entries_from_the_columns(
    pools: list[list[tuple[str, int | None, str | None]]], repo: Path, cache: Path
) -> None:
    for old in (repo / "labels").glob("*.yaml"):
        old.unlink()
    for i, pool in enumerate(pools):
        (repo / "labels" / f"q{i}.yaml").write_text(text(f"q{i}", pool))
    check(config.load(repo))
