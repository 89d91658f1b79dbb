"""``labelpool merge``: verdicts folded with their judges as authors, refusals, idempotence,
the oracle, and a property test of the fold (kills at every git call and write:
tests/hostile/test_data_loss_merge.py)."""

from __future__ import annotations

import difflib
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import config, yamlfile
from labelpool.model import label_from_data
from labelpool.workflows.merge import commits as merge_wf
from pool_scenario import cli, git, make_repo, snapshot

ALICE = {"GIT_AUTHOR_NAME": "Alice Judge", "GIT_AUTHOR_EMAIL": "alice@example.invalid"}
BOB = {"GIT_AUTHOR_NAME": "Bob Reviewer", "GIT_AUTHOR_EMAIL": "bob@example.invalid"}


def set_verdict(path: Path, doc: str, verdict: str) -> None:
    text = path.read_text(encoding="utf-8")
    doc_yaml = f"'{doc}'" if doc in ("no", "1239") else doc
    old = f"- {{doc: {doc_yaml}, verdict: null}}"
    assert text.count(old) == 1, (doc, text)
    path.write_text(text.replace(old, f"- {{doc: {doc_yaml}, verdict: {verdict}}}"))


def commit_as(repo: Path, who: dict[str, str], message: str) -> None:
    git(repo, "commit", "-q", "-am", message, env=who)


def data(repo: Path, qid: str) -> dict:  # type: ignore[type-arg]
    return yamlfile.load_fast(repo / "labels" / f"{qid}.yaml")  # type: ignore[no-any-return]


@pytest.fixture
def pooled(tmp_path: Path) -> Path:
    """The scenario with a batch of ``a`` and ``b`` at depth 3 committed on its branch."""
    repo = make_repo(tmp_path / "repo")
    assert cli(repo, "pool", "a", "b", "--depth", "3") == 0
    return repo


def label_path(repo: Path, qid: str) -> Path:
    return repo / "labels" / f"{qid}.yaml"


def test_two_reviewers_merge_into_two_commits_authored_by_them(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rd, co = label_path(pooled, "returns-damaged"), label_path(pooled, "cancel-order")
    set_verdict(rd, "faq-shipping#damaged", "relevant")
    set_verdict(rd, "policy-returns-v2#sec-2", "irrelevant")
    commit_as(pooled, ALICE, "alice judges")
    set_verdict(rd, "tenant-acme#returns", "2")
    set_verdict(co, "no", "0")
    set_verdict(co, "1239", "irrelevant")
    commit_as(pooled, BOB, "bob judges")
    head = git(pooled, "rev-parse", "HEAD").strip()
    capsys.readouterr()

    assert cli(pooled, "merge") == 0
    out = capsys.readouterr().out
    assert "Alice Judge <alice@example.invalid>: 2 verdicts" in out
    assert "Bob Reviewer <bob@example.invalid>: 3 verdicts" in out

    log = git(pooled, "log", "--format=%an|%ae|%cn|%s", f"{head}..HEAD").splitlines()
    assert len(log) == 2
    authors = sorted(line.split("|")[0] for line in log)
    assert authors == ["Alice Judge", "Bob Reviewer"]
    assert all(line.split("|")[2] == "Runner" for line in log)  # the committer ran the merge
    assert all("2026" in line or "verdicts by" in line for line in log)

    blame = git(pooled, "blame", "--line-porcelain", "labels/returns-damaged.yaml")
    by_text: dict[str, str] = {}
    author = ""
    for line in blame.splitlines():
        if line.startswith("author "):
            author = line[len("author ") :]
        elif line.startswith("\t"):
            by_text[line[1:]] = author
    assert by_text["  - faq-shipping#damaged"] == "Alice Judge"
    assert by_text["  - policy-returns-v2#sec-2"] == "Alice Judge"
    assert by_text["  - tenant-acme#returns"] == "Bob Reviewer"
    assert by_text["  tenant-acme#returns: 2"] == "Bob Reviewer"

    d = data(pooled, "returns-damaged")
    assert "pending" not in d
    assert d["relevant_doc_ids"] == [
        "faq-shipping#damaged",
        "policy-returns-v3#sec-2",
        "tenant-acme#returns",
    ]
    assert d["judged_ids"] == sorted(d["judged_ids"])
    assert set(d["judged_ids"]) == {
        "faq-shipping#damaged",
        "handbook#returns",
        "policy-returns-v2#sec-2",
        "policy-returns-v3#sec-2",
        "tenant-acme#returns",
    }
    assert d["grades"] == {"tenant-acme#returns": 2}
    blobs = {s: git(pooled, "hash-object", f"runs/{s}.trec").strip() for s in ("a", "b")}
    assert [(p["system"], p["k"], p.get("run")) for p in d["pool"]] == [
        ("a", 2, None),
        ("a", 3, blobs["a"]),
        ("b", 3, blobs["b"]),
    ]
    assert d["owner"] == "support-team"
    text = label_path(pooled, "returns-damaged").read_text()
    assert text.startswith("# Comments are kept by every rewrite.\n")
    assert "# text:" not in text
    assert data(pooled, "cancel-order")["judged_ids"] == [
        "1239",
        "faq-orders#cancel",
        "faq-orders#late",
        "no",
    ]
    assert "      - '1239'" not in text
    assert "  - '1239'" in label_path(pooled, "cancel-order").read_text()
    assert cli(pooled, "validate") == 0


def test_minimal_diff(pooled: Path) -> None:
    rd = label_path(pooled, "returns-damaged")
    before = git(pooled, "show", "main:labels/returns-damaged.yaml")
    before_batch = rd.read_text()
    for doc in ("faq-shipping#damaged", "policy-returns-v2#sec-2", "tenant-acme#returns"):
        set_verdict(rd, doc, "irrelevant")
    assert cli(pooled, "merge", "--no-commit", "--partial") == 0
    after = rd.read_text()
    old, new = before.splitlines(), after.splitlines()
    ops = difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes()
    assert all(tag in ("equal", "insert") for tag, *_ in ops), "only insertions"
    added = [ln for tag, _, _, j1, j2 in ops if tag == "insert" for ln in new[j1:j2]]
    blobs = {s: git(pooled, "hash-object", f"runs/{s}.trec").strip() for s in ("a", "b")}
    date = re.search(r"  - batch: '(\d{4}-\d{2}-\d{2})-", before_batch)
    assert date
    assert added == [
        "  - faq-shipping#damaged",
        "  - policy-returns-v2#sec-2",
        "  - tenant-acme#returns",
        # the record of who judged: the file names no judge and holds judged documents
        "verdicts:",
        "  faq-shipping#damaged:",
        "    - {judge: Runner <runner@example.invalid>, verdict: irrelevant}",
        "  policy-returns-v2#sec-2:",
        "    - {judge: Runner <runner@example.invalid>, verdict: irrelevant}",
        "  tenant-acme#returns:",
        "    - {judge: Runner <runner@example.invalid>, verdict: irrelevant}",
        "  - system: a",
        "    k: 3",
        f"    date: '{date.group(1)}'",
        f"    run: {blobs['a']}",
        "  - system: b",
        "    k: 3",
        f"    date: '{date.group(1)}'",
        f"    run: {blobs['b']}",
    ]


def test_uncommitted_verdict_is_attributed_to_the_current_user(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    set_verdict(label_path(pooled, "cancel-order"), "no", "irrelevant")
    capsys.readouterr()
    assert cli(pooled, "merge", "--partial") == 0
    captured = capsys.readouterr()
    assert "not committed yet" in captured.err and "Runner" in captured.err
    assert git(pooled, "log", "-1", "--format=%an").strip() == "Runner"
    assert "no" in data(pooled, "cancel-order")["judged_ids"]


def test_partial_lists_unresolved_and_keeps_them_with_their_text(
    pooled: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    rd = label_path(pooled, "returns-damaged")
    set_verdict(rd, "policy-returns-v2#sec-2", "irrelevant")
    commit_as(pooled, ALICE, "one verdict")
    capsys.readouterr()
    assert cli(pooled, "merge") == 1
    out = capsys.readouterr().out
    assert re.search(
        r"^still pending: 4 entries in 1 batch: \d{4}-\d\d-\d\d-a\+b@3 \(4\); "
        r"--verbose lists them$",
        out,
        re.M,
    ), out
    assert "returns-damaged.yaml" not in out  # counts, not the entries
    assert cli(pooled, "merge", "--partial", "--verbose") == 0
    out = capsys.readouterr().out
    assert re.search(r"^still pending: 4 entries in 1 batch: .+ \(4\):$", out, re.M), out
    assert re.search(r"returns-damaged\.yaml:\d+:1: returns-damaged faq-shipping#damaged", out)
    text = rd.read_text()
    assert "policy-returns-v2#sec-2, verdict" not in text
    assert "Damaged items may be returned within 14 days" not in text  # its text went too
    lines = text.splitlines()
    i = lines.index("      - {doc: faq-shipping#damaged, verdict: null}")
    assert lines[i - 1].startswith("      # text: If your parcel")
    assert lines[i - 2].startswith("      # question: ")
    assert "policy-returns-v2#sec-2" in data(pooled, "returns-damaged")["judged_ids"]
    assert len(data(pooled, "returns-damaged")["pool"]) == 1  # batch not complete yet
    assert cli(pooled, "merge", "--partial") == 0  # nothing new; still pending, exit 0


def test_merge_twice_changes_nothing(pooled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for doc in ("faq-shipping#damaged", "policy-returns-v2#sec-2", "tenant-acme#returns"):
        set_verdict(label_path(pooled, "returns-damaged"), doc, "relevant")
    commit_as(pooled, BOB, "verdicts")
    assert cli(pooled, "merge", "--partial") == 0
    head = git(pooled, "rev-parse", "HEAD").strip()
    before = snapshot(pooled / "labels")
    capsys.readouterr()
    assert cli(pooled, "merge", "--partial") == 0
    assert "nothing to merge" in capsys.readouterr().out
    assert git(pooled, "rev-parse", "HEAD").strip() == head
    assert snapshot(pooled / "labels") == before


def test_blame_honours_ignore_revs(pooled: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rd = label_path(pooled, "returns-damaged")
    set_verdict(rd, "faq-shipping#damaged", "relevant")
    commit_as(pooled, ALICE, "alice judges")
    bot = {"GIT_AUTHOR_NAME": "Format Bot", "GIT_AUTHOR_EMAIL": "bot@example.invalid"}
    text = rd.read_text()
    rd.write_text(text.replace("verdict: relevant}", "verdict: 'relevant'}"))
    commit_as(pooled, bot, "reformat")
    sha = git(pooled, "rev-parse", "HEAD").strip()
    (pooled / ".git-blame-ignore-revs").write_text(f"# formatting only\n{sha}\n")
    git(pooled, "add", ".git-blame-ignore-revs")
    git(pooled, "commit", "-q", "-m", "ignore the reformat in blame")
    assert cli(pooled, "merge", "--partial") == 0
    assert git(pooled, "log", "-1", "--format=%an").strip() == "Alice Judge"


def test_unknown_verdict_is_a_positioned_error(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rd = label_path(pooled, "returns-damaged")
    set_verdict(rd, "tenant-acme#returns", "maybe")
    set_verdict(rd, "faq-shipping#damaged", "relevant")
    before = snapshot(pooled / "labels")
    capsys.readouterr()
    assert cli(pooled, "merge") == 1
    err = capsys.readouterr().err
    line = rd.read_text().splitlines().index("      - {doc: tenant-acme#returns, verdict: maybe}")
    assert f"returns-damaged.yaml:{line + 1}:1: verdict 'maybe' is not relevant" in err
    assert "Traceback" not in err
    assert snapshot(pooled / "labels") == before


def test_entry_broken_over_two_lines_is_refused(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rd = label_path(pooled, "returns-damaged")
    text = rd.read_text().replace(
        "- {doc: tenant-acme#returns, verdict: null}",
        "- {doc: tenant-acme#returns,\n        verdict: relevant}",
    )
    rd.write_text(text)
    before = snapshot(pooled / "labels")
    assert cli(pooled, "merge") == 1
    assert "must be one line" in capsys.readouterr().err
    assert snapshot(pooled / "labels") == before


def _hand_batch(repo: Path, qid: str, entries: list[tuple[str, str]]) -> Path:
    path = label_path(repo, qid)
    lines = [
        "pending:",
        "  - batch: '2026-12-02-a@3'",
        "    systems:",
        "      - a",
        "    depth: 3",
        "    date: '2026-12-02'",
        "    docs:",
    ]
    for doc, verdict in entries:
        lines += [f"      # text: about {doc}", f"      - {{doc: {doc}, verdict: {verdict}}}"]
    path.write_text(path.read_text() + "\n".join(lines) + "\n")
    git(repo, "commit", "-q", "-am", "hand-made batch")
    return path


def test_contradicting_verdict_names_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = make_repo(tmp_path / "r")
    path = _hand_batch(repo, "returns-damaged", [("handbook#returns", "relevant")])
    before = snapshot(repo / "labels")
    assert cli(repo, "merge") == 1
    err = capsys.readouterr().err
    lines = path.read_text().splitlines()
    verdict_line = lines.index("      - {doc: handbook#returns, verdict: relevant}") + 1
    judged_line = lines.index("  - handbook#returns") + 1
    assert f"returns-damaged.yaml:{verdict_line}:1: verdict 1 for handbook#returns" in err
    assert f"returns-damaged.yaml:{judged_line}:" in err and "judged irrelevant" in err
    assert "Traceback" not in err
    assert snapshot(repo / "labels") == before


def test_judged_document_leaves_pooled_unjudged_ids(tmp_path: Path) -> None:
    labels = {
        "q": "id: q\nquestion: Q?\nrelevant_doc_ids: []\njudged_ids:\n  - a#1\n"
        "pooled_unjudged_ids:\n  - b#1\n  - c#1\n"
        "pool:\n  - system: x\n    k: 1\n    date: '2026-01-01'\n"
    }
    repo = make_repo(tmp_path / "r", labels=labels)
    _hand_batch(repo, "q", [("b#1", "3")])
    assert cli(repo, "merge") == 0
    d = data(repo, "q")
    assert d["pooled_unjudged_ids"] == ["c#1"]
    assert d["relevant_doc_ids"] == ["b#1"] and d["grades"] == {"b#1": 3}
    assert d["judged_ids"] == ["a#1", "b#1"]
    assert d["pool"][-1] == {"system": "a", "k": 3, "date": "2026-12-02"}


def test_superseded_duplicate_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = make_repo(tmp_path / "r")
    _hand_batch(
        repo,
        "returns-damaged",
        [("policy-returns-v2#sec-2", "{duplicate-of: policy-returns-v3#sec-2}")],
    )
    before = snapshot(repo / "labels")
    assert cli(repo, "merge") == 1
    err = capsys.readouterr().err
    assert "policy-returns-v3#sec-2 supersedes policy-returns-v2#sec-2" in err
    assert snapshot(repo / "labels") == before


def test_duplicate_joins_or_creates_a_class(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "r")
    _hand_batch(
        repo,
        "returns-damaged",
        [
            ("faq-shipping#damaged", "{duplicate-of: policy-returns-v3#sec-2}"),
            ("tenant-acme#returns", "{duplicate-of: faq-shipping#damaged}"),
            ("guide-app#login", "{duplicate-of: handbook#returns}"),  # not relevant: stays
        ],
    )
    assert cli(repo, "merge", "--partial") == 0
    d = data(repo, "returns-damaged")
    assert d["relevant_classes"] == [
        ["faq-shipping#damaged", "policy-returns-v3#sec-2", "tenant-acme#returns"]
    ]
    assert "faq-shipping#damaged" in d["judged_ids"] and "tenant-acme#returns" in d["judged_ids"]
    assert d["relevant_doc_ids"] == ["policy-returns-v3#sec-2"]
    label = label_from_data(d)
    assert label.gain["tenant-acme#returns"] == 1
    assert [e.doc for b in label.pending for e in b.docs] == ["guide-app#login"]


def test_pending_counted_by_batch_and_a_stuck_verdict_listed(
    pooled: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """0.2: ``merge`` printed every pending entry on every run (767 lines on the CAsT walk);
    now one line counts them by batch (names sanitised), and only an entry holding a verdict
    that cannot be folded is listed without ``--verbose``."""
    monkeypatch.setenv("COLUMNS", "200")
    path = label_path(pooled, "login")
    path.write_text(
        path.read_text()
        + "pending:\n"
        + '  - batch: "2026-12-01-a\\Lb@3"\n'  # an escaped ESC is refused since issue 29
        + "    systems:\n      - a\n    depth: 3\n    date: '2026-12-01'\n    docs:\n"
        + "      - {doc: x#1, verdict: null}\n"
        + "      - {doc: x#2, verdict: {duplicate-of: x#1}}\n"
    )
    commit_as(pooled, ALICE, "a hand-made batch")
    capsys.readouterr()
    assert cli(pooled, "merge") == 1
    out = capsys.readouterr().out
    assert "\u2028" not in out
    lines = out.splitlines()
    assert lines[0] == "nothing to merge"
    assert re.fullmatch(
        r"still pending: 7 entries in 2 batches: 2026-12-01-a\\u2028b@3 \(2\), "
        r"\d{4}-\d\d-\d\d-a\+b@3 \(5\); --verbose lists them all",
        lines[1],
    ), lines[1]
    assert lines[2] == "  1 entry holds a verdict that cannot be folded yet:"
    assert re.fullmatch(r"  \S+login\.yaml:\d+:1: login x#2 \(.+\): duplicate-of x#1: .+", lines[3])
    assert len(lines) == 4
    assert cli(pooled, "merge", "--verbose") == 1
    out = capsys.readouterr().out
    assert len(out.splitlines()) == 2 + 7 and out.count("login x#1") == 1
    # the count line fits the output width, continued on indented lines
    monkeypatch.setenv("COLUMNS", "60")
    assert cli(pooled, "merge") == 1
    wrapped = capsys.readouterr().out.splitlines()
    end = next(i for i, ln in enumerate(wrapped) if ln.endswith("--verbose lists them all"))
    assert end > 1 and wrapped[1].startswith("still pending: 7 entries in 2 batches:")
    assert all(ln.startswith("  ") and len(ln) <= 60 for ln in wrapped[2 : end + 1])
    assert " ".join(ln.strip() for ln in wrapped[1 : end + 1]) == lines[1]
    assert wrapped[end + 1 :] == lines[2:]


def test_oracle_fills_verdicts_and_lists_what_it_does_not_know(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    qrels = pooled.parent / "reference.qrels"
    qrels.write_text(
        "returns-damaged 0 faq-shipping#damaged 2\n"
        "returns-damaged 0 policy-returns-v2#sec-2 0\n"
        "cancel-order 0 no 1\n"
        "cancel-order 0 1239 -1\n"
    )
    capsys.readouterr()
    assert cli(pooled, "merge", "--oracle", str(qrels)) == 1
    out = capsys.readouterr().out
    assert "still pending: 2" in out and "unknown to the oracle" in out
    assert git(pooled, "log", "-1", "--format=%an <%ae>").strip() == (
        "labelpool oracle <oracle@labelpool.invalid>"
    )
    assert "not by a person" in git(pooled, "log", "-1", "--format=%B")
    d = data(pooled, "returns-damaged")
    assert d["grades"] == {"faq-shipping#damaged": 2}

    assert cli(pooled, "merge", "--oracle", str(qrels), "--oracle-missing", "irrelevant") == 0
    message = git(pooled, "log", "-1", "--format=%B")
    assert "Documents the reference does not know: 2, treated as irrelevant" in message
    assert "pending" not in data(pooled, "cancel-order")
    assert cli(pooled, "validate") == 0


def test_bad_oracle_file_is_a_positioned_error(
    pooled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = pooled.parent / "bad.qrels"
    bad.write_text("q 0 d 1\nq 0 d2 x\n")
    assert cli(pooled, "merge", "--oracle", str(bad)) == 1  # bad data (a missing file: 2)
    err = capsys.readouterr().err
    assert "bad.qrels:2:8: grade 'x' is not an integer" in err


# ------------------------------------------------------------------ property test

DOCS = [f"d{i}#c" for i in range(8)]
VERDICTS = st.one_of(
    st.none(),
    st.sampled_from(["relevant", "irrelevant"]),
    st.integers(min_value=0, max_value=3),
    st.builds(lambda d: {"duplicate-of": d}, st.sampled_from(DOCS)),
)


def _flow(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, dict):
        return f"{{duplicate-of: {v['duplicate-of']}}}"
    return str(v)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    judged=st.dictionaries(st.sampled_from(DOCS), st.integers(0, 2), max_size=4),
    verdicts=st.dictionaries(st.sampled_from(DOCS), VERDICTS, min_size=1, max_size=8),
)
def test_property_merge_keeps_lists_sorted_and_consistent(
    tmp_path_factory: pytest.TempPathFactory,
    judged: dict[str, int],
    verdicts: dict[str, object],
) -> None:
    root = tmp_path_factory.mktemp("prop")
    (root / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n")
    (root / "labels").mkdir()
    pending = {d: v for d, v in verdicts.items() if d not in judged}
    rel = sorted(d for d, g in judged.items() if g > 0)
    lines = ["id: q", "question: Q?"]
    lines += ["relevant_doc_ids:"] + [f"  - {d}" for d in rel] if rel else ["relevant_doc_ids: []"]
    lines += (
        ["judged_ids:"] + [f"  - {d}" for d in sorted(judged)] if judged else ["judged_ids: []"]
    )
    grades = {d: g for d, g in judged.items() if g > 1}
    if grades:
        lines += ["grades:"] + [f"  {d}: {g}" for d, g in sorted(grades.items())]
    if judged:
        lines += ["pool:", "  - system: x", "    k: 1", "    date: '2026-01-01'"]
    if pending:
        lines += [
            "pending:",
            "  - batch: b",
            "    systems:",
            "      - s",
            "    depth: 5",
            "    date: '2026-12-02'",
            "    docs:",
        ]
        for d, v in pending.items():
            lines += [f"      # text: {d}", f"      - {{doc: {d}, verdict: {_flow(v)}}}"]
    (root / "labels" / "q.yaml").write_text("\n".join(lines) + "\n")
    cfg = config.load(root)
    try:
        merge_wf.merge(cfg, commit=False)
    except merge_wf.MergeError:
        return  # contradictions are refused; a refusal writes nothing (tested above)
    d = yamlfile.load_fast(root / "labels" / "q.yaml")
    for key in ("relevant_doc_ids", "judged_ids"):
        assert d[key] == sorted(set(d[key])), key
    assert set(d["relevant_doc_ids"]) <= set(d["judged_ids"])
    classes = d.get("relevant_classes") or []
    assert classes == sorted(classes, key=lambda c: c[0])
    members = [m for c in classes for m in c]
    assert len(members) == len(set(members))
    assert all(c == sorted(c) for c in classes)
    assert set(members) <= set(d["judged_ids"])
    assert set(d.get("grades") or {}) <= set(d["relevant_doc_ids"]) | set(members)
    label = label_from_data(d)
    left = {e.doc for b in label.pending for e in b.docs}
    for doc, v in pending.items():
        if v is None:
            assert doc in left
        elif doc not in left and not isinstance(v, dict):
            want = 1 if v == "relevant" else 0 if v == "irrelevant" else int(v)  # type: ignore[call-overload]
            assert label.gain[doc] == want or doc in label.class_members
    if pending and not left:
        assert "pending" not in d
        assert any(p["system"] == "s" and p["k"] == 5 for p in d["pool"])
    shutil.rmtree(root)
