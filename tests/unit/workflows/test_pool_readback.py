"""pool's read-back of the batches it appends (workflows.pool.readback) agrees with the full
read-back, or declines (the caller then reads the whole text)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool import batch as batch_mod
from labelpool import yamlfile
from labelpool.workflows.pool import readback
from labelpool.yamlfile.reading import same

BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391"
OLD = "# a comment\nid: q1\nquestion: How?\njudged_ids:\n  - D1\n"

_ids = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=12
)
_olds = st.sampled_from(
    [
        OLD,
        OLD + "pool: []\n",
        "id: q1\nnotes: |\n  text\n",
        "---\nid: q1\n",
        "{id: q1}\n",
        "id: q1\npending: []\n",
        "id: q1\nquestion: >-\n  folded\n# end\n",
    ]
)


def _read(text: str) -> object:
    try:
        return yamlfile.loads_written(text)
    except (yamlfile.YamlError, yamlfile.UnwritableError):
        return None


@settings(max_examples=200, deadline=None)
@given(
    old=_olds,
    docs=st.lists(_ids, min_size=1, max_size=5, unique=True),
    systems=st.lists(_ids, min_size=1, max_size=3, unique=True),
    question=st.one_of(st.none(), st.text(max_size=40)),
    seats=st.integers(min_value=1, max_value=2),
)
def test_fast_read_back_is_the_full_one(
    old: str, docs: list[str], systems: list[str], question: str | None, seats: int
) -> None:
    new = batch_mod.NewBatch(
        batch="b1",
        systems=tuple(systems),
        depth=10,
        date="2026-01-01",
        runs={s: BLOB for s in systems},
        docs=tuple(docs),
    )
    items = [batch_mod.render(new, question=question, texts=None) for _ in range(seats)]
    text = old
    for item in items:
        text = batch_mod.append(text, item)
    old_data = _read(old)
    got = readback.appended(old, text, items, old_data, {})
    if got is not None:
        assert same(got, _read(text))


def test_a_plain_batch_is_read_back_by_its_lines() -> None:
    new = batch_mod.NewBatch(
        batch="b1",
        systems=("bm25",),
        depth=10,
        date="2026-01-01",
        runs={"bm25": BLOB},
        docs=("D2", "D3"),
    )
    items = [batch_mod.render(new, question="How?", texts={"D2": "two"})]
    text = batch_mod.append(OLD, items[0])
    got = readback.appended(OLD, text, items, _read(OLD), {})
    assert got is not None and same(got, _read(text))
