"""``[tool.labelpool] version_pattern`` compiled with RE2 (google-re2): matching is linear in
the document id, so a pattern with nested quantifiers cannot stall ``validate`` on a long id;
a pattern RE2 refuses (backreferences, lookaround) is a configuration error, exit 2, naming
the key and RE2's message, and nothing else is printed (RE2's own log line is off).

Each docstring says what 0.1.0 (Python's ``re``) did with the same configuration.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import LABEL, cli, make_repo

SYNTAX = "(RE2 syntax: no backreferences or lookaround)"


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def configured(tmp_path: Path, pattern: str, label: str = LABEL) -> Path:
    """A repository whose pyproject sets ``version_pattern`` (a TOML literal string)."""
    return make_repo(tmp_path, {"q1.yaml": label}, config=f"version_pattern = '{pattern}'\n")


def refused(capsys: pytest.CaptureFixture[str], root: Path) -> str:
    """The one stderr line of a refused pattern, after exit 2 and nothing on stdout."""
    code, out, err = cli(capsys, root, "validate")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1, err  # no RE2 log lines ("Error parsing ...")
    prefix = f"error: {root}/pyproject.toml: [tool.labelpool] version_pattern"
    assert err.startswith(prefix), err
    return err[len(prefix) :].rstrip("\n")


def test_backreference_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0 (Python's ``re`` took the backreference)."""
    pattern = r"^(?P<family>.+)-v(?P<version>[0-9]+)\1$"
    message = refused(capsys, configured(tmp_path, pattern))
    assert message == f": RE2 refuses {pattern!r}: invalid escape sequence: \\1 {SYNTAX}"


def test_lookahead_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0."""
    pattern = r"^(?P<family>.+)(?=-v)-v(?P<version>[0-9]+)$"
    message = refused(capsys, configured(tmp_path, pattern))
    assert message == f": RE2 refuses {pattern!r}: invalid perl operator: (?= {SYNTAX}"


def test_negative_lookbehind_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 0."""
    pattern = r"^(?P<family>.+)(?<!x)-v(?P<version>[0-9]+)$"
    message = refused(capsys, configured(tmp_path, pattern))
    assert message == f": RE2 refuses {pattern!r}: invalid perl operator: (?<! {SYNTAX}"


def test_unbalanced_parenthesis_gives_re2s_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 2, ``version_pattern: missing ), unterminated subpattern at position 1``
    (Python's message, without the table's name)."""
    message = refused(capsys, configured(tmp_path, "(("))
    assert message == f": RE2 refuses '((': missing ): (( {SYNTAX}"


def test_missing_named_groups_still_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 2, ``version_pattern needs named groups (?P<family>) and (?P<version>)``
    (kept, now naming the table)."""
    message = refused(capsys, configured(tmp_path, r"^(?P<family>.+)-v([0-9]+)$"))
    assert message == " needs named groups (?P<family>) and (?P<version>)"


def test_unicode_class_is_re2_syntax(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: exit 2, ``version_pattern: bad escape \\p at position 12`` (Python's ``re`` has
    no ``\\p{L}``). RE2 reads it: the pattern links ``policy-v3`` over ``policy-v2`` (LP031)."""
    label = LABEL.replace(
        "pool:", "relevant_classes:\n  - - doc-a#1\n    - policy-v2\n    - policy-v3\npool:"
    )
    root = configured(tmp_path, r"^(?P<family>\p{L}+)-v(?P<version>[0-9]+)$", label)
    code, out, _ = cli(capsys, root, "validate")
    assert (code, out) == (
        1,
        "labels/q1.yaml:13:7: LP031 relevant_classes[0]: policy-v3 supersedes policy-v2; a "
        "class must not mix versions (keep the current one)\n",
    )


def _class_with(doc: str) -> str:
    """:data:`LABEL` with ``doc`` relevant, judged and in a class with ``doc-a#1`` (the
    version pattern runs on both)."""
    return (
        LABEL.replace("relevant_doc_ids:\n", f"relevant_doc_ids:\n  - {doc}\n")
        .replace("judged_ids:\n", f"judged_ids:\n  - {doc}\n")
        .replace("pool:", f"relevant_classes:\n  - - {doc}\n    - doc-a#1\npool:")
    )


@pytest.mark.parametrize(
    "pattern",
    [
        r"^(?P<family>(a+)+)-v(?P<version>[0-9]+)$",
        r"^(?P<family>(a|aa)+)-v(?P<version>[0-9]+)$",
        r"^(?P<family>(a*)*b)-v(?P<version>[0-9]+)$",
    ],
)
def test_nested_quantifiers_are_linear(
    pattern: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: ``^(?P<family>(a+)+)-v...`` took 6.9 s on a 27-character id ``aaa...a!`` and
    doubled with each further ``a``; ``(a|aa)+`` 2.5 s at 35 characters (exponential
    backtracking in Python's ``re``). With RE2 a 5,000-character id is checked at once."""
    doc = "a" * 4999 + "!"
    root = configured(tmp_path, pattern, _class_with(doc))
    start = time.monotonic()
    code, out, err = cli(capsys, root, "validate")
    assert time.monotonic() - start < 10  # 0.1.0 would need longer than the universe's age
    assert (code, out) == (0, "")
    assert err == "labelpool validate: 1 file(s), 0 error(s), 0 warning(s)\n"


def test_default_pattern_still_links_versions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 1, LP031 (kept: the default pattern is RE2 syntax too)."""
    label = LABEL.replace(
        "pool:",
        "relevant_classes:\n  - - doc-a#1\n    - policy-returns-v2\n    - policy-returns-v3\npool:",
    )
    root = make_repo(tmp_path, {"q1.yaml": label})
    code, out, _ = cli(capsys, root, "validate")
    assert (code, out) == (
        1,
        "labels/q1.yaml:13:7: LP031 relevant_classes[0]: policy-returns-v3 supersedes "
        "policy-returns-v2; a class must not mix versions (keep the current one)\n",
    )
