"""Who pooled which questions, from the label index's columns (issue 27): ``compare``'s pool
counts and pooled questions and ``bias``'s pooled systems equal those read label by label,
cold and warm, and a warm read builds no label for them."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import config, labelset
from labelpool.workflows.evaluate import pooled

SYSTEMS = ("bm25", "dense", "unknown")
Entry = tuple[str, int | None]


def text(qid: str, judged: bool, pool: list[Entry]) -> str:
    out = [f"id: {qid}", f"question: Where is {qid}?", "relevant_doc_ids: []"]
    out.append(f"judged_ids: [{'d1' if judged else ''}]")
    if pool:
        out.append("pool:")
        for system, k in pool:
            out += [f"  - system: {system}", f"    k: {'null' if k is None else k}"]
            out.append("    date: '2026-06-02'")
    return "\n".join(out) + "\n"


entries = st.lists(st.tuples(st.sampled_from(SYSTEMS), st.none() | st.integers(1, 30)), max_size=4)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    labels=st.lists(st.tuples(st.booleans(), entries), min_size=1, max_size=6),
    chosen=st.sets(st.integers(0, 5)),
    cutoff=st.integers(1, 31),
)
def test_pools_from_columns_equal_the_labels(
    labels: list[tuple[bool, list[Entry]]],
    chosen: set[int],
    cutoff: int,
    repo: Path,
    cache: Path,
) -> None:
    for old in (repo / "labels").glob("*.yaml"):
        old.unlink()
    for i, (judged, pool) in enumerate(labels):
        (repo / "labels" / f"q{i}.yaml").write_text(text(f"q{i}", judged, pool))
    qids = [f"q{i}" for i in sorted(chosen) if i < len(labels)]
    cfg = config.load(repo)
    for _ in range(2):  # cold (the columns projected), then warm (served by the index)
        through = labelset.load(cfg)
        assert through.columns is not None
        plain = dict(through.labels)  # the reference: label by label
        assert pooled.pool_counts(through, qids) == pooled.pool_counts(plain, qids)
        assert pooled.pooled_systems(through) == pooled.pooled_systems(plain)
        for system in SYSTEMS:
            assert pooled.pooled_on(through, qids, system, cutoff) == pooled.pooled_on(
                plain, qids, system, cutoff
            )


def test_a_warm_read_counts_pools_without_building_a_label(repo: Path, cache: Path) -> None:
    for i in range(4):
        pool: list[Entry] = [("bm25", 10), ("dense", 5 + i)] if i else [("unknown", 10)]
        (repo / "labels" / f"q{i}.yaml").write_text(text(f"q{i}", True, pool))
    cfg = config.load(repo)
    labelset.load(cfg)
    warm = labelset.load(cfg)
    qids = [f"q{i}" for i in range(4)]
    assert pooled.pool_counts(warm, qids) == {"bm25": 3, "dense": 3}
    assert pooled.pooled_on(warm, qids, "dense", 7) == 2
    assert pooled.pooled_systems(warm) == ["bm25", "dense"]
    assert "0 built" in repr(warm.labels)
