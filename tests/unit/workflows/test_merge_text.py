"""workflows/merge_text (the text fold) and merge_read (the fast reading of pending blocks)
against the round-trip path: random labels in labelpool's block layout (and some outside
it), pending batches with verdicts; the text fold's output is byte-identical to the
round-trip fold's, the fast reading gives the same batches as the round-trip reading, and a
file outside the layout falls back."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from labelpool import batch as batch_mod
from labelpool.labelfile import record as record_file
from labelpool.model import JudgeVerdict
from labelpool.workflows.merge import read as merge_read
from labelpool.workflows.merge.collect import read_label_roundtrip
from labelpool.workflows.merge.file import fold_tree, plan
from labelpool.workflows.merge.fold import Decision, Judge, fold, state_of
from labelpool.workflows.merge.text import fold_text
from labelpool.workflows.pool.entries import new_entries

PATH = Path("labels/q.yaml")
JUDGE = Judge("Jo", "jo@example.invalid")
BO = Judge("Bo Chen", "bo@example.org")  # the judge of an earlier record, or a second judge
# ids: plain ones, ones a reader may misread (quoted), odd characters
IDS = [f"D{i}" for i in range(12)] + ["a#b", "x.y", "0123", "yes", "1e3", "it's", "b c", "~x", "_z"]
VERDICTS = ["null", "relevant", "irrelevant", "0", "1", "2", "3", "dup"]

ids = st.lists(st.sampled_from(IDS), unique=True, max_size=6)


def _block_list(key: str, items: list[str], flow_empty: bool) -> str:
    if not items:
        return f"{key}: []\n" if flow_empty else ""
    return f"{key}:\n" + "".join(f"  - {batch_mod.quote(i)}\n" for i in items)


@st.composite
def labels(draw: st.DrawFn) -> tuple[str, list[tuple[str, str | None]]]:
    """(label text, [(doc, verdict text or None) of its pending entries])."""
    judged = draw(ids)
    relevant = [d for d in judged if draw(st.booleans())]
    graded = [d for d in relevant if draw(st.booleans())]
    unjudged = draw(st.lists(st.sampled_from(IDS), unique=True, max_size=4))
    unjudged = [d for d in unjudged if d not in judged]
    if draw(st.booleans()):
        judged, relevant = sorted(judged), sorted(relevant)
    # a record already there (issue 24): a file judge, and Bo's verdicts on some documents
    record = {
        d: (JudgeVerdict(str(BO), "relevant" if d in relevant else "irrelevant"),)
        for d in judged
        if draw(st.booleans())
    }
    verdicts = record_file.verdicts_lines(record) if draw(st.booleans()) else []
    sections = {
        "id": "id: q1\n",
        "judge": draw(st.sampled_from(["", "", f"judge: {BO}\n"])),
        "verdicts": "".join(line + "\n" for line in verdicts),
        "question": draw(
            st.sampled_from(
                ["question: How to return?\n", "question: 'Yes: or no?'\n", "question: Ça va\n"]
            )
        ),
        "relevant_doc_ids": _block_list("relevant_doc_ids", relevant, draw(st.booleans())),
        "judged_ids": _block_list("judged_ids", judged, draw(st.booleans())),
        "grades": (
            "grades:\n"
            + "".join(f"  {batch_mod.quote(d)}: {2 + i % 2}\n" for i, d in enumerate(graded))
            if graded
            else draw(st.sampled_from(["", "grades: {}\n"]))
        ),
        "pooled_unjudged_ids": _block_list(
            "pooled_unjudged_ids", sorted(unjudged), draw(st.booleans())
        ),
        "pool": draw(
            st.sampled_from(
                [
                    "",
                    "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n",
                    "pool:\n  - system: bm25\n    k: 40\n    date: '2026-06-02'\n"
                    "  - system: dense\n    k: 10\n    date: '2026-06-02'\n",
                    "pool: []\n",
                ]
            )
        ),
        "owner": draw(
            st.sampled_from(
                [
                    "",
                    "owner: team\n",
                    "meta:\n  a: 1\n  b: x\n",
                    "note: |\n  two\n  lines\n",
                    "tags: [a, b]\n",
                    "meta:\n  x: {a: 1}\n  z:\n    - 2\n",
                    "empty: {}\n",
                ]
            )
        ),
    }
    if len(relevant) >= 2 and draw(st.booleans()):
        a, b = sorted(relevant)[:2]
        sections["relevant_classes"] = (
            f"relevant_classes:\n  - - {batch_mod.quote(a)}\n    - {batch_mod.quote(b)}\n"
        )
    order = [
        "id",
        "question",
        "judge",
        *[k for k in sections if k not in ("id", "question", "judge")],
    ]
    order.insert(
        order.index("relevant_classes")
        if "relevant_classes" in order
        else order.index("pooled_unjudged_ids"),
        order.pop(order.index("verdicts")),
    )
    if draw(st.booleans()):
        order = draw(st.permutations(order[2:]))
        order = ["id", "question", *order]
    body = "".join(sections[k] for k in order)
    header = draw(st.sampled_from(["", "# a label\n", "# a\n# b\n"]))
    entries: list[tuple[str, str | None]] = []
    n_batches = draw(st.integers(1, 2))
    pending = "pending:\n"
    for bi in range(n_batches):
        docs = draw(st.lists(st.sampled_from(IDS), unique=True, min_size=1, max_size=5))
        systems = draw(st.sampled_from([["bm25"], ["bm25", "dense"], ["dense", "yes"]]))
        runs = draw(st.booleans())
        pending += f"  - batch: '2026-12-0{bi + 1}-x@30'\n    systems:\n"
        pending += "".join(f"      - {batch_mod.quote(s)}\n" for s in systems)
        pending += f"    depth: {draw(st.sampled_from([10, 30]))}\n    date: '2026-12-0{bi + 1}'\n"
        if runs:
            pending += "    runs:\n" + "".join(
                f"      {batch_mod.quote(s)}: {'ab12' * 10}\n" for s in systems
            )
        pending += "    docs:\n"
        if draw(st.booleans()):
            pending += "      # question: How to return?\n"
        for d in docs:
            if draw(st.booleans()):
                pending += f"      # text: the text of {d}\n"
            v = draw(st.sampled_from(VERDICTS))
            target = draw(st.sampled_from(IDS))
            written = f"{{duplicate-of: {batch_mod.quote(target)}}}" if v == "dup" else v
            pending += f"      - {{doc: {batch_mod.quote(d)}, verdict: {written}}}\n"
            entries.append((d, None if v == "null" else written))
    tail = draw(st.sampled_from(["", "", "", "after: 1\n", "# end\n"]))
    return header + body + pending + tail, entries


def _decisions(
    data: object, text: str, batches: list[batch_mod.PendingBatch], judge: Judge = JUDGE
) -> list[Decision] | None:
    """What merge's dry run keeps: verdicts that fold (or are already so), in commit order;
    None when one contradicts the label (merge refuses the file)."""
    state = state_of(data, PATH, text)
    out: list[Decision] = []
    plain: list[Decision] = []
    dups: list[Decision] = []
    for b in batches:
        for e in b.entries:
            if e.verdict is None:
                continue
            v = e.verdict
            if hasattr(v, "doc"):
                dups.append(Decision(PATH, "q1", b.batch, e.doc, e.line, judge, duplicate_of=v.doc))
            else:
                g = 1 if v == "relevant" else 0 if v == "irrelevant" else int(v)
                plain.append(Decision(PATH, "q1", b.batch, e.doc, e.line, judge, grade=g))
    for d in plain + dups:
        outcome, _ = fold(state, d, None)
        if outcome == "error":
            return None
        if outcome != "pending":
            out.append(d)
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(labels(), st.sampled_from([JUDGE, BO]))
def test_text_fold_is_the_round_trip_fold(
    case: tuple[str, list[tuple[str, str | None]]], judge: Judge
) -> None:
    text, _ = case
    tree, _, rt_batches = read_label_roundtrip(PATH, text)
    fast = merge_read.read_fast(PATH, text)
    if fast is not None:  # the fast reading gives the round-trip reading's batches
        assert fast[2] == rt_batches
        assert fast[1] == text
    assume(fast is not None)
    data, _, batches = fast
    ds = _decisions(data, text, batches, judge)
    assume(ds is not None)
    assert ds is not None
    p = plan(PATH, data, text, batches, ds, None)
    pool = new_entries(data.get("pool"), p.entries)
    got = fold_text(text, data, batches, p.before, p.after, p.drop, pool, str(PATH))
    expected = fold_tree(PATH, tree, text, rt_batches, plan(PATH, tree, text, rt_batches, ds, None))
    event("text fold" if got is not None else "round-trip fallback")
    if got is not None and p.after.record != p.before.record:
        event("text fold of the record" + (" (a verdicts block there)" if p.before.record else ""))
    if got is not None and p.before.relevant - p.after.relevant:
        event("text fold of a lowered verdict")
    if got is not None:
        assert got == expected


def test_a_pooled_label_takes_the_text_fold() -> None:
    """The layout ``pool`` writes, as the benchmark generates it, takes the text fold."""
    text = (
        "# generated\nid: q1\nquestion: Why?\nrelevant_doc_ids: []\njudged_ids:\n  - D1\n  - D9\n"
        "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\nowner: team\npending:\n"
        "  - batch: '2026-12-04-bm25+dense@30'\n    systems:\n      - bm25\n      - dense\n"
        "    depth: 30\n    date: '2026-12-04'\n    runs:\n      bm25: " + "ab12" * 10 + "\n"
        "    docs:\n      - {doc: D5, verdict: relevant}\n      - {doc: D0, verdict: 2}\n"
        "      - {doc: D7, verdict: irrelevant}\n"
    )
    fast = merge_read.read_fast(PATH, text)
    assert fast is not None
    data, _, batches = fast
    ds = _decisions(data, text, batches)
    assert ds is not None
    p = plan(PATH, data, text, batches, ds, None)
    pool = new_entries(data.get("pool"), p.entries)
    got = fold_text(text, data, batches, p.before, p.after, p.drop, pool, str(PATH))
    tree, _, rt = read_label_roundtrip(PATH, text)
    assert got is not None
    assert got == fold_tree(PATH, tree, text, rt, plan(PATH, tree, text, rt, ds, None))
    assert "pending" not in got and "grades:\n  D0: 2\n" in got


def test_a_second_judge_takes_the_text_fold_and_a_dispute_lowers_the_lists() -> None:
    """Bo's seat on a file where Jo's verdicts are in the record (older documents judged by
    nobody named): Bo's lines join Jo's, a 2 against irrelevant leaves the lists (its lowest
    verdict), all by the text fold, byte for byte the round trip's."""
    text = (
        "id: q1\nquestion: Why?\nrelevant_doc_ids:\n  - D1\n  - D5\njudged_ids:\n  - D0\n"
        "  - D1\n  - D5\n  - D7\ngrades:\n  D5: 2\nverdicts:\n  D1:\n"
        f"    - {{judge: {JUDGE}, verdict: relevant}}\n"
        f"  D5:\n    - {{judge: {JUDGE}, verdict: 2}}\n"
        f"  D7:\n    - {{judge: {JUDGE}, verdict: irrelevant}}\n"
        "pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\npending:\n"
        "  - batch: '2026-12-04-seats@20'\n    systems:\n      - seats\n    depth: 20\n"
        f"    date: '2026-12-04'\n    seat: 2\n    judge: {BO}\n    docs:\n"
        "      - {doc: D5, verdict: irrelevant}\n      - {doc: D1, verdict: relevant}\n"
        "      - {doc: D7, verdict: irrelevant}\n"
    )
    fast = merge_read.read_fast(PATH, text)
    assert fast is not None
    data, _, batches = fast
    ds = _decisions(data, text, batches, BO)
    assert ds is not None
    p = plan(PATH, data, text, batches, ds, None)
    got = fold_text(text, data, batches, p.before, p.after, p.drop, [], str(PATH))
    tree, _, rt = read_label_roundtrip(PATH, text)
    assert got is not None
    assert got == fold_tree(PATH, tree, text, rt, plan(PATH, tree, text, rt, ds, None))
    assert "relevant_doc_ids:\n  - D1\njudged_ids" in got and "grades" not in got
    assert (
        f"  D5:\n    - {{judge: {JUDGE}, verdict: 2}}\n    - {{judge: {BO}, verdict: irrelevant}}\n"
        in got
    )


_IDS = st.lists(st.sampled_from(["D1", "D10", "D2", "D3", "a", "b", "b1", "z"]), max_size=6)


@settings(max_examples=300, deadline=None)
@given(_IDS, _IDS, st.booleans())
def test_ids_added_at_once_as_one_by_one(old: list[str], new: list[str], empty: bool) -> None:
    """The list edit of many ids at once is the one-by-one insert's, in a sorted list, an
    unsorted one (duplicates and all), an emptied one and a missing one."""
    from labelpool.workflows.merge import text as merge_text

    def sections() -> list[merge_text._Section]:
        if empty:
            return [merge_text._Section("id", "id: x", [])]
        body = [f"  - {i}" for i in old]
        head = "judged_ids:" if old else "judged_ids: []"
        return [
            merge_text._Section("id", "id: x", []),
            merge_text._Section("judged_ids", head, body, list(old)),
        ]

    items = sorted(set(new))
    fast = sections()
    merge_text._add_ids(fast, "judged_ids", items)
    slow = sections()
    for item in items:
        s = merge_text._find(slow, "judged_ids")
        if s is None:
            merge_text._insert_key(
                slow, merge_text._Section("judged_ids", "judged_ids:", [f"  - {item}"], [item])
            )
        elif item not in (s.items or []):
            merge_text._sorted_insert(s, item, f"  - {item}")
    assert [(s.key, s.head, s.body, s.items) for s in fast] == [
        (s.key, s.head, s.body, s.items) for s in slow
    ]
