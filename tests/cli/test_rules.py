"""Every validation rule on a failing input: exact ``path:line:col: LPnnn``, no traceback."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from labelpool.cli import main

VALID = """\
# a comment
id: q1
question: Where is my parcel?
relevant_doc_ids:
  - doc-a#1
judged_ids:
  - doc-a#1
  - doc-b#1
pool:
  - system: bm25
    k: 20
    date: '2026-06-02'
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def write(repo: Path, name: str, text: str) -> Path:
    path = repo / "labels" / name
    path.write_text(text, encoding="utf-8")
    return path


def run(repo: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    old = Path.cwd()
    os.chdir(repo)
    try:
        code = main(["validate", *args])
    finally:
        os.chdir(old)
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out.splitlines(), err


def test_valid_label_is_clean(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "q1.yaml", VALID)
    code, lines, err = run(repo, capsys)
    assert (code, lines) == (0, [])
    assert "1 file(s), 0 error(s), 0 warning(s)" in err


# (file text, expected finding line) for one file q1.yaml; every case exits 1 unless a warning.
CASES = {
    "LP020 type": (
        VALID.replace("  - doc-b#1\n", "  - doc-b#1\nextra: 1\n").replace("    k: 20", "    k: 0"),
        "labels/q1.yaml:12:8: LP020 pool[0].k: 0 is less than the minimum of 1",
    ),
    "LP020 required": (
        VALID.replace("question: Where is my parcel?\n", ""),
        "labels/q1.yaml:2:1: LP020 (top level): 'question' is a required property",
    ),
    "LP020 format date": (
        VALID.replace("'2026-06-02'", "'2026-02-30'"),
        "labels/q1.yaml:12:11: LP020 pool[0].date: '2026-02-30' is not a 'date'",
    ),
    "LP021 plain date": (
        VALID.replace("'2026-06-02'", "2026-06-02"),
        "labels/q1.yaml:12:11: LP021 pool[0].date: plain 2026-06-02 is read as a non-string "
        "by YAML 1.1 or 1.2 readers; quote it ('2026-06-02') or run `labelpool fmt`",
    ),
    "LP021 plain no": (
        VALID.replace("  - doc-b#1", "  - doc-b#1\n  - no"),
        "labels/q1.yaml:9:5: LP021 judged_ids[2]: plain no is read as a non-string by YAML "
        "1.1 or 1.2 readers; quote it ('no') or run `labelpool fmt`",
    ),
    "LP021 plain number where a string goes": (
        VALID.replace("  - doc-b#1", "  - doc-b#1\n  - 1239"),
        "labels/q1.yaml:9:5: LP021 judged_ids[2]: plain 1239 is read as a non-string; quote "
        "it ('1239') or run `labelpool fmt`",
    ),
    "LP021 octal-looking": (
        VALID.replace("  - doc-b#1", "  - doc-b#1\n  - 0123"),
        "labels/q1.yaml:9:5: LP021 judged_ids[2]: plain 0123 is read as a non-string by YAML "
        "1.1 or 1.2 readers; quote it ('0123') or run `labelpool fmt`",
    ),
    "LP022 id vs file name": (
        VALID.replace("id: q1", "id: q2"),
        "labels/q1.yaml:2:5: LP022 id: q2 does not match the file name q1; rename the file to "
        "q2.yaml or fix the id",
    ),
    "LP024 non-NFC doc id": (
        VALID.replace("  - doc-b#1", "  - doc-b#1\n  - e\u0301"),
        "labels/q1.yaml:9:5: LP024 judged_ids: 'e\u0301' is not in Unicode NFC form",
    ),
    "LP025 relevant not judged": (
        VALID.replace("  - doc-a#1\njudged_ids:", "  - doc-a#1\n  - doc-c#1\njudged_ids:"),
        "labels/q1.yaml:6:5: LP025 relevant_doc_ids: doc-c#1 is not in judged_ids (add it there)",
    ),
    "LP026 duplicate": (
        VALID.replace("  - doc-b#1", "  - doc-b#1\n  - doc-b#1"),
        "labels/q1.yaml:9:5: LP026 judged_ids: doc-b#1 is listed twice (first as item 2)",
    ),
    "LP027 grade of an irrelevant doc": (
        VALID + "grades:\n  doc-b#1: 2\n",
        "labels/q1.yaml:14:3: LP027 grades: doc-b#1 is neither relevant nor in a relevance "
        "class (a judged-irrelevant document has grade 0 and no entry here)",
    ),
    "LP029 class without a judged doc": (
        VALID + "relevant_classes:\n  - - doc-c#1\n    - doc-d#1\n",
        "labels/q1.yaml:14:5: LP029 relevant_classes[0]: no member is judged (in "
        "relevant_doc_ids or judged_ids); a class carries its judged members' grade",
    ),
    "LP029 an accepted mapping without a judged doc": (
        VALID + "relevant_classes:\n  - members: [doc-c#1, doc-d#1]\n",
        "labels/q1.yaml:14:5: LP029 relevant_classes[0]: no member is judged (in "
        "relevant_doc_ids or judged_ids); a class carries its judged members' grade",
    ),
    "LP030 a proposal overlaps a class": (
        VALID
        + "relevant_classes:\n  - - doc-a#1\n    - doc-c#1\n"
        + "  - members: [doc-c#1, doc-d#1]\n    proposed: {method: m, score: 0.9}\n",
        "labels/q1.yaml:16:15: LP030 relevant_classes[1]: doc-c#1 is also in "
        "relevant_classes[0]; merge the two classes",
    ),
    "LP031 a proposal mixes versions": (
        VALID
        + "relevant_classes:\n  - members: [policy-v2#1, policy-v3#1]\n"
        + "    proposed: {method: shingle-jaccard, score: 0.97}\n",
        "labels/q1.yaml:14:28: LP031 relevant_classes[0]: policy-v3#1 supersedes policy-v2#1; "
        "a class must not mix versions (keep the current one)",
    ),
    "LP061 a proposal of one document": (
        VALID + "relevant_classes:\n  - members: [doc-c#1]\n    proposed: {method: m, score: 1}\n",
        "labels/q1.yaml:14:14: LP061 relevant_classes[0]: a proposed class names two "
        "documents or more",
    ),
    "LP062 a proposal waits for review": (
        VALID
        + "relevant_classes:\n  - members: [doc-c#1, doc-d#1]\n"
        + "    proposed: {method: shingle-jaccard, score: 0.86}\n",
        "labels/q1.yaml:15:15: LP062 relevant_classes[0]: proposed class doc-c#1, doc-d#1 "
        "waits for review (delete the `proposed:` line to accept it, the entry to reject it)",
    ),
    "LP064 an extension of a class no accepted class holds": (
        VALID
        + "relevant_classes:\n  - members: [doc-c#1]\n    extends: doc-b#1\n"
        + "    proposed: {method: m, score: 0.9}\n",
        "labels/q1.yaml:15:14: LP064 relevant_classes[0]: extends doc-b#1, which no accepted "
        "class holds (its class was changed or removed since the proposal: delete the entry, "
        "or propose again)",
    ),
    "LP064 an accepted extension whose class was removed": (
        VALID + "relevant_classes:\n  - members: [doc-c#1]\n    extends: doc-a#1\n",
        "labels/q1.yaml:15:14: LP064 relevant_classes[0]: extends doc-a#1, which no accepted "
        "class holds (its class was changed or removed since the proposal: delete the entry, "
        "or propose again)",
    ),
    "LP030 an extension names a member of its class": (
        VALID
        + "relevant_classes:\n  - - doc-a#1\n    - doc-b#1\n"
        + "  - members: [doc-b#1]\n    extends: doc-a#1\n",
        "labels/q1.yaml:16:15: LP030 relevant_classes[1]: doc-b#1 is also in "
        "relevant_classes[0]; merge the two classes",
    ),
    "LP031 an extension mixes versions with its class": (
        VALID
        + "relevant_classes:\n  - - doc-a#1\n    - policy-v2#1\n"
        + "  - members: [policy-v3#1]\n    extends: doc-a#1\n",
        "labels/q1.yaml:16:15: LP031 relevant_classes[1]: policy-v3#1 supersedes policy-v2#1; "
        "a class must not mix versions (keep the current one)",
    ),
    "LP063 a carried verdict says the class's grade": (
        VALID
        + "relevant_classes:\n  - - doc-a#1\n    - doc-c#1\n"
        + "verdicts:\n  doc-c#1:\n    - {class: doc-a#1, verdict: irrelevant}\n",
        "labels/q1.yaml:18:33: LP063 verdicts.doc-c#1[0]: the class carried irrelevant from "
        "doc-a#1, but its grade is relevant now (write `verdict: relevant`)",
    ),
    "LP063 a carried verdict of a class rejected": (
        VALID + "verdicts:\n  doc-c#1:\n    - {class: doc-a#1, verdict: relevant}\n",
        "labels/q1.yaml:15:7: LP063 verdicts.doc-c#1[0]: carried from doc-a#1, but no accepted "
        "class holds doc-c#1 and doc-a#1 (the class was changed or rejected: delete the line)",
    ),
    "LP020 a proposal's score": (
        VALID
        + "relevant_classes:\n  - members: [doc-c#1, doc-d#1]\n"
        + "    proposed: {method: shingle-jaccard, score: 1.5}\n",
        "labels/q1.yaml:15:48: LP020 relevant_classes[0].proposed.score: 1.5 is greater than "
        "the maximum of 1",
    ),
    "LP030 doc in two classes": (
        VALID + "relevant_classes:\n  - - doc-a#1\n    - doc-c#1\n  - - doc-a#1\n",
        "labels/q1.yaml:16:7: LP030 relevant_classes[1]: doc-a#1 is also in "
        "relevant_classes[0]; merge the two classes",
    ),
    "LP031 class mixes versions (version pattern)": (
        VALID + "relevant_classes:\n  - - doc-a#1\n    - policy-v2#1\n    - policy-v3#1\n",
        "labels/q1.yaml:16:7: LP031 relevant_classes[0]: policy-v3#1 supersedes policy-v2#1; "
        "a class must not mix versions (keep the current one)",
    ),
    "LP032 judged without pool": (
        VALID.split("pool:")[0],
        "labels/q1.yaml:6:1: LP032 pool: judged documents need a non-empty `pool` saying which "
        "systems' top-k was judged (use `system: unknown, k: null, date: null` for an import "
        "of unknown origin)",
    ),
    "LP034 pending": (
        VALID + "pending:\n  - batch: b1\n    systems:\n      - bm25\n    depth: 10\n"
        "    date: '2026-12-02'\n    docs:\n      # text: ...\n"
        "      - {doc: doc-c#1, verdict: null}\n",
        "labels/q1.yaml:21:9: LP034 pending[0] (b1): doc-c#1 has no verdict yet",
    ),
    "LP035 invalid verdict": (
        VALID + "pending:\n  - batch: b1\n    systems:\n      - bm25\n    depth: 10\n"
        "    date: '2026-12-02'\n    docs:\n      - {doc: doc-c#1, verdict: maybe}\n",
        "labels/q1.yaml:20:33: LP035 pending[0].docs[0].verdict: 'maybe' is not a verdict: use "
        "relevant, irrelevant, an integer grade >= 0 or {duplicate-of: ID}",
    ),
    "LP035 duplicate of itself": (
        VALID + "pending:\n  - batch: b1\n    systems:\n      - bm25\n    depth: 10\n"
        "    date: '2026-12-02'\n    docs:\n"
        "      - {doc: doc-c#1, verdict: {duplicate-of: doc-c#1}}\n",
        "labels/q1.yaml:20:33: LP035 pending[0].docs[0]: doc-c#1 cannot be a duplicate of itself",
    ),
    "LP039 not a mapping": (
        "- id: q1\n",
        "labels/q1.yaml:1:1: LP039 a label is a mapping with an `id` at the top level",
    ),
    "LP040 judged and unjudged": (
        VALID + "pooled_unjudged_ids:\n  - doc-b#1\n",
        "labels/q1.yaml:14:5: LP040 pooled_unjudged_ids: doc-b#1 is judged; remove it from "
        "pooled_unjudged_ids",
    ),
    "LP041 lone CR": (
        VALID.replace("Where is my parcel?", "Where is my\r parcel?"),
        "labels/q1.yaml:3:22: LP041 lone CR (U+000D): YAML reads a line break here, git does "
        "not (blame lines shift, a key can hide in one diff line); use a newline or a space "
        "(`labelpool fmt` replaces it inside a value)",
    ),
    "LP042 grade over the bound": (
        VALID + "grades:\n  doc-a#1: 2000000\n",
        "labels/q1.yaml:14:12: LP042 grades.doc-a#1: 2000000 is out of bounds (a grade is at "
        "most 1,000,000)",
    ),
    "LP009 anchor (yamlio safety, passed through)": (
        VALID.replace("question: Where", "question: &a Where"),
        "labels/q1.yaml:3:11: LP009 anchor &a; write the value out",
    ),
    "LP014 duplicate key (yamlio safety)": (
        VALID + "id: q1\n",
        "labels/q1.yaml:13:1: LP014 duplicate key 'id' (lines 2 and 13)",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_rule_reports_exact_position(
    case: str, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, expected = CASES[case]
    write(repo, "q1.yaml", text)
    code, lines, _ = run(repo, capsys)
    assert expected in lines, "\n".join(lines)
    assert code == 1


WARNINGS = {
    "LP036 a class mapping's key mistyped": (
        VALID
        + "relevant_classes:\n  - - doc-a#1\n    - doc-c#1\n"
        + "  - members: [doc-b#1, doc-d#1]\n    extend: doc-a#1\n",
        "labels/q1.yaml:17:5: LP036 warning: relevant_classes[1]: unknown key `extend`: did you "
        "mean `extends`?",
    ),
    "LP028 order": (
        VALID.replace("  - doc-a#1\n  - doc-b#1", "  - doc-b#1\n  - doc-a#1"),
        "labels/q1.yaml:8:5: LP028 warning: judged_ids: doc-a#1 comes before doc-b#1 in "
        "code-point order; `labelpool fmt` fixes it",
    ),
    "LP028 classes by first member": (
        VALID.replace(
            "relevant_doc_ids:\n  - doc-a#1\n", "relevant_doc_ids:\n  - doc-a#1\n  - doc-b#1\n"
        )
        + "relevant_classes:\n  - - doc-b#1\n    - doc-c#1\n  - - doc-a#1\n    - doc-d#1\n",
        "labels/q1.yaml:17:5: LP028 warning: relevant_classes: the class starting with doc-a#1 "
        "comes before the one starting with doc-b#1; `labelpool fmt` fixes it",
    ),
    "LP033 unknown origin": (
        VALID.replace("system: bm25", "system: unknown").replace("k: 20", "k: null"),
        "labels/q1.yaml:10:5: LP033 warning: pool[0]: unknown origin (system unknown, k None): "
        "reports flag scores on these labels",
    ),
    "LP036 typo key": (
        VALID + "relevant_docs:\n  - doc-a#1\n",
        "labels/q1.yaml:13:1: LP036 warning: unknown key `relevant_docs`: did you mean "
        "`relevant_doc_ids`?",
    ),
    "LP036 typo key grade": (
        VALID + "grade:\n  doc-a#1: 2\n",
        "labels/q1.yaml:13:1: LP036 warning: unknown key `grade`: did you mean `grades`?",
    ),
}


@pytest.mark.parametrize("case", sorted(WARNINGS))
def test_warnings_do_not_fail(case: str, repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, expected = WARNINGS[case]
    write(repo, "q1.yaml", text)
    code, lines, err = run(repo, capsys)
    assert lines == [expected]
    assert code == 0
    assert "0 error(s), 1 warning(s)" in err


def test_unknown_keys_without_a_near_known_key_pass(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, "q1.yaml", VALID + "notes: checked by Ana\nsource: faq import\n")
    assert run(repo, capsys)[:2] == (0, [])


def test_allow_pending(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, _ = CASES["LP034 pending"]
    write(repo, "q1.yaml", text)
    assert run(repo, capsys, "--allow-pending")[:2] == (0, [])
    bad, expected = CASES["LP035 invalid verdict"]
    write(repo, "q1.yaml", bad)
    code, lines, _ = run(repo, capsys, "--allow-pending")
    assert (code, lines) == (1, [expected])


def test_ids_unique_across_files_after_case_folding(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(repo, "q1.yaml", VALID)
    write(repo, "Q1.yaml", VALID.replace("id: q1", "id: Q1"))
    # Checking one file still reads the whole folder (pre-commit splits file lists).
    code, lines, _ = run(repo, capsys, "labels/Q1.yaml")
    assert lines == ["labels/Q1.yaml:2:5: LP023 id: Q1 is also used by labels/q1.yaml (q1)"]
    assert code == 1
    code, lines, _ = run(repo, capsys)
    assert lines == [
        "labels/Q1.yaml:2:5: LP023 id: Q1 is also used by labels/q1.yaml (q1)",
        "labels/q1.yaml:2:5: LP023 id: q1 is also used by labels/Q1.yaml (Q1)",
    ]


def test_symlink_under_labels(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = repo / "elsewhere.yaml"
    target.write_text(VALID, encoding="utf-8")
    (repo / "labels" / "q1.yaml").symlink_to(target)
    code, lines, _ = run(repo, capsys)
    assert lines == ["labels/q1.yaml:1:1: LP037 symlink under labels/; store the label file itself"]
    assert code == 1


def test_corpus_ids(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pyproject = repo / "pyproject.toml"
    pyproject.write_text(pyproject.read_text() + 'corpus = "corpus/corpus.jsonl"\n')
    (repo / "corpus").mkdir()
    (repo / "corpus" / "corpus.jsonl").write_text(
        json.dumps({"_id": "doc-a#1", "title": "A", "text": "alpha"}) + "\n", encoding="utf-8"
    )
    write(repo, "q1.yaml", VALID)
    code, lines, _ = run(repo, capsys)
    assert lines == [
        "labels/q1.yaml:8:5: LP038 warning: doc-b#1 is not in the corpus (re-chunked or renamed?)"
    ]
    assert code == 0


def test_explicit_supersession_from_versions_file(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "corpus").mkdir()
    (repo / "corpus" / "versions.yaml").write_text(
        "supersedes:\n  doc-new:\n    - doc-a\n", encoding="utf-8"
    )
    text = VALID.replace("  - doc-b#1", "  - doc-b#1\n  - doc-new#1") + (
        "relevant_classes:\n  - - doc-a#1\n    - doc-new#1\n"
    )
    write(repo, "q1.yaml", text)
    code, lines, _ = run(repo, capsys)
    assert lines == [
        "labels/q1.yaml:16:7: LP031 relevant_classes[0]: doc-new#1 supersedes doc-a#1; a "
        "class must not mix versions (keep the current one)"
    ]
    assert code == 1


@pytest.mark.parametrize(
    "raw",
    [
        b"\xff\xfe\x00garbage",
        b"{",
        b"- a\n- b\n",
        b":",
        b"",
        b"id: [\n" * 50,
        b"a: &x [1]\nb: *x\n",
        b"\x00\x01\x02",
        b"id: q1\nquestion: [unclosed\n",
        b"? [a, b]\n: c\n",
        b"<<<<<<< HEAD\nid: q1\n=======\nid: q2\n>>>>>>> other\n",
    ],
)
def test_garbage_never_tracebacks(
    raw: bytes, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "labels" / "q1.yaml").write_bytes(raw)
    code, lines, _ = run(repo, capsys)
    assert code == 1
    assert lines and all(line.startswith("labels/q1.yaml:") for line in lines)


def test_usage_errors_exit_2(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(repo, "q1.yaml", VALID)
    code, _, err = run(repo, capsys, "labels/missing.yaml")
    assert code == 2 and "no such file" in err
    assert run(repo, capsys, "--format", "xml")[0] == 2


def test_json_format(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, _ = CASES["LP026 duplicate"]
    write(repo, "q1.yaml", text)
    code, lines, _ = run(repo, capsys, "--format", "json")
    assert code == 1
    assert json.loads("\n".join(lines)) == [
        {
            "path": "labels/q1.yaml",
            "line": 9,
            "col": 5,
            "rule": "LP026",
            "severity": "error",
            "message": "judged_ids: doc-b#1 is listed twice (first as item 2)",
        }
    ]


def test_outside_a_label_repository_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(tmp_path, capsys)[0] == 2


def test_rules_registry_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    ids = [line.split()[0] for line in out.splitlines()]
    assert ids == sorted(ids) and len(ids) == len(set(ids))
    for rid in [*(f"LP{n:03d}" for n in range(20, 43)), "LP001", "LP015"]:
        assert rid in ids
    assert main(["validate", "--list-rules"]) == 0
    assert capsys.readouterr().out == out


KEYWORDS = [
    "no",
    "No",
    "NO",
    "yes",
    "y",
    "N",
    "on",
    "Off",
    "true",
    "FALSE",
    "null",
    "~",
    "",
    "=",
    "<<",
    "0123",
    "1e3",
    ".5",
    ".inf",
    "-.NaN",
    "1:20",
    "2026-06-02",
    "0x1F",
    "0o17",
    "0b1",
    "1_000",
    "+1",
    "2026-06-02T10:00:00Z",
    "190:20:30",
    "doc#1",
]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.sampled_from(KEYWORDS),
        st.text(max_size=12),
        st.from_regex(r"[-+.0-9:eE_xXoObB]{1,10}", fullmatch=True),
    )
)
def test_prefilter_never_hides_a_misread_scalar(text: str) -> None:
    """The view only resolver-checks plain scalars matching _SUSPECT: it must catch them all."""
    from labelpool.yamlfile import misread
    from labelpool.yamlfile.nodes import SUSPECT as _SUSPECT

    if misread(text):
        assert _SUSPECT.match(text), text


def test_broken_versions_file_is_reported_at_its_position(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (repo / "corpus").mkdir()
    (repo / "corpus" / "versions.yaml").write_text(
        "supersedes:\n  doc-new:\n    - has space\n", encoding="utf-8"
    )
    write(repo, "q1.yaml", VALID + "relevant_classes:\n  - - doc-a#1\n    - doc-b#1\n")
    code, lines, _ = run(repo, capsys, "labels/q1.yaml")
    assert lines == ["corpus/versions.yaml:3:7: LP031 'has space' does not match '^[^\\\\s#]+$'"], (
        lines
    )
    assert code == 1


YAMLISH = st.lists(
    st.sampled_from(
        [
            "id: q1\n",
            "question: x\n",
            "judged_ids:\n",
            "  - a\n",
            "  - {doc: a}\n",
            "pool: []\n",
            "- - x\n",
            "grades: {a: 2}\n",
            ": \n",
            "&a\n",
            "*a\n",
            "!!str\n",
            "%YAML 1.1\n",
            "---\n",
            "\t\n",
            "'\n",
            '"\\x"\n',
            "[\n",
            "?\n",
        ]
    ),
    max_size=12,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=200), YAMLISH.map(str.encode), st.text(max_size=200).map(str.encode)
    )
)
def test_per_file_rules_never_raise(raw: bytes) -> None:
    from labelpool import schemas
    from labelpool.rules.check import check_bytes

    schema = schemas.schema_path(schemas.LABEL)
    result = check_bytes(raw, schema, max_bytes=10_000, max_depth=32)
    for finding in result.findings:
        assert finding.line >= 1 and finding.col >= 1 and finding.rule.startswith("LP")


def test_proposals_are_listed_and_allowed_on_a_proposals_branch(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        VALID
        + "relevant_classes:\n  - - doc-a#1\n    - doc-e#1\n"
        + "  # proposed: doc-c#1, doc-d#1 differ in: nothing\n"
        + "  - members: [doc-c#1, doc-d#1]\n"
        + "    proposed: {method: shingle-jaccard, score: 0.86}\n"
    )
    write(repo, "q1.yaml", text)
    code, lines, _ = run(repo, capsys)
    assert code == 1
    assert [line.split(": ")[1].split()[0] for line in lines] == ["LP062"]
    code, lines, _ = run(repo, capsys, "--allow-pending")
    assert (code, lines) == (0, [])
    # accepting is deleting the `proposed:` line: an accepted class of unjudged documents
    # waits for one judged member (LP029)
    write(
        repo, "q1.yaml", text.replace("    proposed: {method: shingle-jaccard, score: 0.86}\n", "")
    )
    code, lines, _ = run(repo, capsys)
    assert code == 1 and "LP029" in lines[0]
    accepted = text.replace("doc-c#1, doc-d#1]", "doc-b#1, doc-d#1]")
    write(
        repo,
        "q1.yaml",
        accepted.replace("    proposed: {method: shingle-jaccard, score: 0.86}\n", ""),
    )
    assert run(repo, capsys)[:2] == (0, [])
