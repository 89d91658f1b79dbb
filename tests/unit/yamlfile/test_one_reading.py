"""One reading of every scalar (issue 11 §3): every command sees the same ids, or all refuse.

Random label files put every ambiguous plain scalar form (``0o17``, ``0x1F``, ``017``,
``1_000``, ``1e3``, yes/no/on/off, ``~``, dates, ``.inf``, ``+1``, ...) quoted and unquoted
in every position (question id and text, doc ids, grades, classes, pool, pending docs and
verdicts). Each file goes through every reader a command uses: ``validate`` (its API),
score's (``labelset.load_files``, the qrels source), export's (qrels rows of that set),
merge's (``merge_collect.read_label``: the round-trip editor and its batches), diff's and
history's (``revisions.parse_label``). Either the one reading refuses the file, and then
every reader refuses it with the same ``line:col: LP0nn message`` that validate lists, or
every reader that builds the label sees exactly the same ids.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from labelpool import config, labelset, schemas, yamlfile
from labelpool.model import Label
from labelpool.workflows import exporting
from labelpool.workflows.audit import revisions
from labelpool.workflows.merge import collect as merge_collect
from labelpool.workflows.validate import full as validate_wf

AMBIGUOUS = [
    "0o17",
    "0x1F",
    "017",
    "0123",
    "1_000",
    "1e3",
    "1.5",
    ".5",
    "+1",
    "-1",
    "15",
    "0",
    "12:30",
    ".inf",
    "-.Inf",
    ".nan",
    "yes",
    "no",
    "No",
    "on",
    "off",
    "OFF",
    "y",
    "n",
    "true",
    "False",
    "null",
    "Null",
    "~",
    "2026-06-02",
    "2026-02-30",
    "2026-06-02T10:00:00Z",
    "=",
]
WORDS = ["d1", "d2", "doc#3", "faq-x", "nope", "yesterday", "0o", "x1e3", "q-1", "é"]
scalar_text = st.sampled_from(AMBIGUOUS + WORDS)


@st.composite
def written(draw: st.DrawFn, text: str | None = None, plain_ok: bool = True) -> str:
    """``text`` (or a drawn one) as written in a file: plain, single- or double-quoted (an
    ambiguous one plain only when ``plain_ok``)."""
    value = draw(scalar_text) if text is None else text
    styles = ["plain", "plain", "'", '"'] if plain_ok or value not in AMBIGUOUS else ["'", '"']
    style = draw(st.sampled_from(styles))
    if style == "'":
        return "'" + value + "'"
    if style == '"':
        return '"' + value + '"'
    return value


@st.composite
def label_files(draw: st.DrawFn) -> str:
    hostile = draw(st.booleans())  # else every ambiguous form is quoted
    written = _written(hostile)
    docs = draw(st.lists(written(), min_size=1, max_size=4))
    lines = [
        f"id: {draw(st.sampled_from(['q1', 'q1', 'q1', 'on', '017'] if hostile else ['q1']))}",
        f"question: {draw(written())}",
        "relevant_doc_ids:",
        *(f"  - {d}" for d in docs[: draw(st.integers(0, len(docs)))]),
        "judged_ids:",
        *(f"  - {d}" for d in docs),
    ]
    if lines[3] == "judged_ids:":
        lines[2] = "relevant_doc_ids: []"
    if draw(st.booleans()):
        lines += [
            "grades:",
            f"  {draw(written())}: {draw(st.sampled_from(['2', '3', *AMBIGUOUS]))}",
        ]
    if draw(st.booleans()):
        lines += ["relevant_classes:", f"  - - {docs[0]}", f"    - {draw(written())}"]
    k = draw(st.sampled_from(["10", "null", "0x10", "1e1", "+5"] if hostile else ["10", "null"]))
    lines += ["pool:", f"  - system: {draw(written())}", f"    k: {k}"]
    lines.append(f"    date: {draw(written(text='2026-06-02'))}")
    if draw(st.booleans()):
        verdict = draw(
            st.one_of(
                st.sampled_from(["relevant", "irrelevant", "null", "2", "0"]),
                written(),
                written().map(lambda d: f"{{duplicate-of: {d}}}"),
            )
        )
        lines += [
            "pending:",
            "  - batch: '2026-12-02-s@10'",
            "    systems:",
            f"      - {draw(written())}",
            "    depth: 10",
            f"    date: {draw(written(text='2026-12-02'))}",
            "    docs:",
            f"      - {{doc: {draw(written())}, verdict: {verdict}}}",
        ]
    return "\n".join(lines) + "\n"


def _written(hostile: bool) -> Any:
    def draw_written(text: str | None = None) -> st.SearchStrategy[str]:
        return written(text, hostile)

    return draw_written


def _ids(label: Label) -> tuple[Any, ...]:
    """Every id a command reads from a label: question, lists, grades, classes, pending."""
    return (
        label.id,
        label.relevant_doc_ids,
        label.judged_ids,
        tuple(sorted(label.grades.items())),
        label.relevant_classes,
        label.pooled_unjudged_ids,
        tuple((d.doc, repr(d.verdict)) for b in label.pending for d in b.docs),
    )


def _place(line: int, col: int, rule: str, message: str) -> str:
    return f":{line}:{col}: {rule} {message}"


class Refused(Exception):
    pass


def _read_all(root: Path, raw: bytes) -> dict[str, Any]:
    """What each command's reader makes of ``labels/<id>.yaml`` holding ``raw``: its ids, or
    the error text it refuses the file with."""
    path = root / "labels" / "q1.yaml"
    path.write_bytes(raw)
    schema_file = schemas.schema_path(schemas.LABEL, root)
    seen: dict[str, Any] = {}
    try:
        labels = labelset.load_files([path], schema_file=schema_file, use_cache=False)
        label = labels[next(iter(labels))]
        seen["score"] = _ids(label)
        rows = exporting.qrels_rows(labels)
        seen["export"] = tuple(sorted({doc for _, doc, _ in rows}))
    except labelset.LabelSetError as exc:
        seen["score"] = Refused(str(exc))
    try:
        data, _, batches = merge_collect.read_label(path)
        seen["merge"] = (
            data.get("id"),
            yamlfile.to_plain(data),
            tuple((e.doc, repr(e.verdict)) for b in batches for e in b.entries),
        )
    except yamlfile.YamlError as exc:
        seen["merge"] = Refused(str(exc))
    except Exception as exc:  # a shape merge's batch reader refuses (the schema says why)
        seen["merge"] = Refused(f"{type(exc).__name__}: {exc}")
    try:
        seen["diff"] = _ids(revisions.parse_label(raw, str(path)))
    except revisions.RevisionError as exc:
        seen["diff"] = Refused(str(exc))
    cfg = config.load(root)
    result = validate_wf.validate(cfg, [path], use_cache=False, jobs=1, cwd=root)
    seen["validate"] = [f for f in result.findings if f.severity == "error"]
    return seen


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("one-reading")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\n\n[tool.labelpool]\nformat = 1\n', encoding="utf-8"
    )
    (root / "labels").mkdir()
    return root


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(label_files())
def test_every_command_sees_the_same_ids_or_all_refuse_alike(repo: Path, text: str) -> None:
    raw = text.encode("utf-8")
    seen = _read_all(repo, raw)
    try:
        data = yamlfile.loads_checked(raw, repo / "labels" / "q1.yaml")
    except yamlfile.YamlError as exc:  # the one reading refuses: every reader, alike
        event(f"refused {exc.rule}")
        where = _place(exc.line, exc.column, exc.rule, exc.message)
        for name in ("score", "merge", "diff"):
            assert isinstance(seen[name], Refused), (name, text)
            assert where in str(seen[name]), (name, str(seen[name]), where)
        assert any(
            (f.line, f.col, f.rule, f.message) == (exc.line, exc.column, exc.rule, exc.message)
            for f in seen["validate"]
        ), (seen["validate"], where)
        return
    event("read; score " + ("refused" if isinstance(seen["score"], Refused) else "built"))
    assert not [f for f in seen["validate"] if f.rule == "LP021" and "YAML 1.1" in f.message]
    merged = seen["merge"]
    if not isinstance(merged, Refused):  # the editor holds exactly the one reading's data
        assert yamlfile.reading.same(merged[1], data), text
    built = {n: seen[n] for n in ("score", "diff") if not isinstance(seen[n], Refused)}
    if len(built) == 2:
        assert built["score"] == built["diff"], text
    if not isinstance(merged, Refused) and built:
        label = next(iter(built.values()))
        assert merged[0] == label[0]
        assert merged[2] == label[6], text
    if not isinstance(seen["score"], Refused):  # export writes what score reads
        ids = seen["score"]
        known = {*ids[1], *ids[2], *ids[5], *(m for cls in ids[4] for m in cls)}
        assert set(seen["export"]) <= known
