"""An accepted extension read before ``merge`` folds it is the class ``merge`` writes: the
rewrite of :mod:`labelpool.workflows.merge.accept` held to :func:`labelpool.model.split_classes`
(hypothesis), every other byte of the file kept."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool import yamlfile
from labelpool.labelfile.classes import add_proposals
from labelpool.model import label_from_data
from labelpool.workflows.merge.accept import accepted_lines, rewrite

HEAD = """\
# kept
id: q1
judged_ids:
  - a#1
relevant_classes:
"""
TAIL = """\
pool:
  - system: bm25
    k: 20
    date: '2026-06-02'
extra: kept  # a comment
"""

ids = st.from_regex(r"[a-z]{1,6}#[0-9]{1,2}", fullmatch=True)


@settings(max_examples=60, deadline=None)
@given(
    classes=st.lists(st.lists(ids, min_size=2, max_size=4, unique=True), min_size=1, max_size=3),
    extensions=st.lists(st.lists(ids, min_size=1, max_size=3, unique=True), max_size=3),
    sort=st.booleans(),
    data=st.data(),
)
def test_merge_writes_the_class_the_accepted_extension_was_read_as(
    classes: list[list[str]],
    extensions: list[list[str]],
    sort: bool,
    data: st.DataObject,
) -> None:
    seen: set[str] = set()
    kept_classes = []
    for c in classes:  # no document in two entries (LP030)
        c = [d for d in c if d not in seen]
        seen.update(c)
        if c:
            kept_classes.append(sorted(c) if sort else c)
    body = "".join("  - - " + "\n    - ".join(c) + "\n" for c in kept_classes)
    proposals = []
    for e in extensions:
        e = sorted(d for d in e if d not in seen)
        if not e:
            continue
        seen.update(e)
        target = data.draw(st.sampled_from([d for c in kept_classes for d in c]))
        proposals.append((e, "m", 0.9, f"proposed: {', '.join(e)}", target))
    text = add_proposals(HEAD + body + TAIL, proposals)
    accepted = text.replace("    proposed: {method: m, score: 0.9}\n", "")
    before = label_from_data(yamlfile.loads_fast(accepted))
    after_text = rewrite(accepted, accepted_lines(accepted))
    after = label_from_data(yamlfile.loads_fast(after_text))
    assert [set(c) for c in after.relevant_classes] == [set(c) for c in before.relevant_classes]
    assert after.proposed_classes == ()
    assert "extends:" not in after_text and "members:" not in after_text
    assert after_text.startswith("# kept\n") and after_text.endswith(TAIL)
    for members in after.relevant_classes:
        if sort:
            assert list(members) == sorted(members)
