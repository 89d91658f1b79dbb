"""Line breaks git and YAML count differently: a lone CR, U+2028 or U+2029 (LP041).

git and GitHub's diff count lines by LF alone; YAML readers also break at a lone CR and
(libyaml, YAML 1.1) at U+2028 and U+2029. Such a character shifts blame lines and can hide a
live key inside what a reviewer sees as one line. LP041 refuses them at ``path:line:col``
(lines counted as git counts them); ``score`` refuses the file too; ``fmt`` replaces one by a
space inside a value (every other byte kept) and refuses to guess anywhere else.

Each docstring says what 0.1.0 did with the same file.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.hostile.labels_scenario import LABEL, cli, make_repo

HIDDEN = """\
id: q1
question: Where is my parcel?{X}
relevant_doc_ids:
  - doc-a#1
  - doc-b#1
judged_ids:
  - doc-a#1
  - doc-b#1
pool:
  - system: bm25
    k: 2
    date: '2026-06-02'
"""
WHY = (
    "YAML reads a line break here, git does not (blame lines shift, a key can hide in one "
    "diff line); use a newline or a space (`labelpool fmt` replaces it inside a value)"
)
NAMES = {
    "\r": "lone CR (U+000D)",
    "\u2028": "LINE SEPARATOR (U+2028)",
    "\u2029": "PARAGRAPH SEPARATOR (U+2029)",
}
GUESS = "between YAML tokens: fmt cannot tell whether a line break or a space was meant; "


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def in_question(text: str) -> str:
    return LABEL.replace("Where is my parcel?", "Where is my parcel?" + text)


def validate_lines(capsys: pytest.CaptureFixture[str], root: Path) -> tuple[int, list[str]]:
    code, out, _ = cli(capsys, root, "validate")
    return code, out.splitlines()


@pytest.mark.parametrize("char", ["\r", "\u2028", "\u2029"])
def test_break_inside_the_question_is_lp041(
    char: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0 for each (``and<CR> more`` read as ``and more``, U+2028 and U+2029 kept
    inside the question)."""
    root = make_repo(tmp_path, {"q1.yaml": in_question(" and" + char + " more")})
    assert validate_lines(capsys, root) == (1, [f"labels/q1.yaml:2:34: LP041 {NAMES[char]}: {WHY}"])


@pytest.mark.parametrize("char", ["\r", "\u2028", "\u2029"])
def test_key_hidden_on_the_questions_git_line(
    char: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``question: ...<U+2028>grades: {doc-b#1: 3}`` is one line in git's diff, two keys to
    the YAML reader. 0.1.0: ``validate`` exit 0 and ``score`` used the hidden grade (nDCG@10
    0.7967 instead of 1.0). Now both exit 1 at 2:30."""
    root = make_repo(tmp_path, {"q1.yaml": HIDDEN.replace("{X}", char + "grades: {doc-b#1: 3}")})
    found = f"labels/q1.yaml:2:30: LP041 {NAMES[char]}: {WHY}"
    assert validate_lines(capsys, root) == (1, [found])
    code, out, err = cli(capsys, root, "score", "runs/bm25.trec", "-m", "nDCG@10")
    assert (code, out, err) == (1, "", f"error: {root}/{found}\n")


def test_key_hidden_after_a_comment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``# reviewed<CR>grades: {doc-b#1: 3}``: a comment to git, a comment and a key to YAML.
    0.1.0: validate exit 0, score read the grade; ``fmt`` rewrote the file, turning the hidden
    key into a visible one without a word. Now validate exits 1 and fmt refuses to guess."""
    text = HIDDEN.replace("{X}", "").replace("pool:", "# reviewed\rgrades: {doc-b#1: 3}\npool:")
    root = make_repo(tmp_path, {"q1.yaml": text})
    assert validate_lines(capsys, root) == (
        1,
        [f"labels/q1.yaml:9:11: LP041 lone CR (U+000D): {WHY}"],
    )
    code, out, _ = cli(capsys, root, "fmt")
    path = root / "labels" / "q1.yaml"
    assert (code, out) == (
        1,
        f"{path}:9:11: LP041 lone CR (U+000D) {GUESS}replace it by hand\n"
        "0 file(s) reformatted, 0 unchanged, 1 unreadable\n",
    )
    assert path.read_bytes() == text.encode()


def test_fmt_refuses_the_hidden_key_and_leaves_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: fmt exit 1, ``2:37: LP015 mapping values are not allowed here`` (ruamel, YAML
    1.2, does not break at U+2028: the two readers disagree). Now LP041 at the character."""
    text = HIDDEN.replace("{X}", "\u2028grades: {doc-b#1: 3}")
    root = make_repo(tmp_path, {"q1.yaml": text})
    code, out, _ = cli(capsys, root, "fmt")
    path = root / "labels" / "q1.yaml"
    assert (code, out) == (
        1,
        f"{path}:2:30: LP041 LINE SEPARATOR (U+2028) {GUESS}replace it by hand\n"
        "0 file(s) reformatted, 0 unchanged, 1 unreadable\n",
    )
    assert path.read_bytes() == text.encode()


@pytest.mark.parametrize("char", ["\r", "\u2028"])
def test_fmt_replaces_a_break_inside_a_value_by_a_space(
    char: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: fmt rewrote the question (``and more`` for the CR, ``"...and\\Lmore"`` for
    U+2028) and validate had passed the file. Now the one character becomes a space and every
    other byte stays; validate is clean afterwards."""
    text = in_question(" and" + char + " more")
    root = make_repo(tmp_path, {"q1.yaml": text})
    code, out, _ = cli(capsys, root, "fmt")
    path = root / "labels" / "q1.yaml"
    assert (code, out) == (
        0,
        f"{path}: reformatted\n1 file(s) reformatted, 0 unchanged, 0 unreadable\n",
    )
    assert path.read_bytes() == text.replace(char, " ").encode()
    assert validate_lines(capsys, root) == (0, [])


def test_fmt_replaces_a_break_inside_double_quotes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: validate exit 0; fmt folded the CR away (the same value). Now LP041, then fmt
    writes the space in place."""
    text = LABEL.replace("question: Where is my parcel?", 'question: "Where is\rmy parcel?"')
    root = make_repo(tmp_path, {"q1.yaml": text})
    assert validate_lines(capsys, root) == (
        1,
        [f"labels/q1.yaml:2:20: LP041 lone CR (U+000D): {WHY}"],
    )
    assert cli(capsys, root, "fmt")[0] == 0
    assert (root / "labels" / "q1.yaml").read_bytes() == text.replace("\r", " ").encode()
    assert validate_lines(capsys, root) == (0, [])


def test_fmt_replaces_a_break_ending_its_git_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """U+2029 right before the LF (an empty line to YAML). 0.1.0: validate exit 0, fmt
    dropped it. Now LP041 at 2:30, and fmt drops it too (the rest of the line is blank)."""
    root = make_repo(tmp_path, {"q1.yaml": in_question("\u2029")})
    assert validate_lines(capsys, root) == (
        1,
        [f"labels/q1.yaml:2:30: LP041 PARAGRAPH SEPARATOR (U+2029): {WHY}"],
    )
    assert cli(capsys, root, "fmt")[0] == 0
    assert (root / "labels" / "q1.yaml").read_bytes() == LABEL.encode()


def test_fmt_refuses_a_separator_that_starts_a_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``and<U+2029>more`` with ``more`` at column 1: libyaml reads a new line and fails.
    0.1.0: validate and fmt exit 1, ``4:1: LP015 could not find expected ':'``. Now validate
    names the character first, and fmt refuses to guess (the file kept)."""
    text = in_question(" and\u2029more")
    root = make_repo(tmp_path, {"q1.yaml": text})
    code, lines = validate_lines(capsys, root)
    assert code == 1
    assert lines[0] == f"labels/q1.yaml:2:34: LP041 PARAGRAPH SEPARATOR (U+2029): {WHY}"
    assert cli(capsys, root, "fmt")[0] == 1
    assert (root / "labels" / "q1.yaml").read_bytes() == text.encode()


def test_crlf_line_ends_are_not_lone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0.1.0: validate exit 0 (kept: git and YAML count a CRLF as one line end)."""
    root = make_repo(tmp_path, {"q1.yaml": LABEL.replace("\n", "\r\n")})
    assert validate_lines(capsys, root) == (0, [])


def test_findings_are_capped_at_twenty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """25 lone CRs on one line. 0.1.0: validate exit 0. Now 20 findings (the per-rule cap of
    the text checks), git's line 2 for each."""
    root = make_repo(tmp_path, {"q1.yaml": in_question("\r x" * 25)})
    code, lines = validate_lines(capsys, root)
    assert code == 1
    assert lines == [
        f"labels/q1.yaml:2:{30 + 3 * i}: LP041 lone CR (U+000D): {WHY}" for i in range(20)
    ]


def test_nel_stays_lp003(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """U+0085 (NEL) is a C1 control, LP003's. 0.1.0: exit 1, ``2:30: LP003 control character
    U+0085 (NEL)`` (kept; not reported twice)."""
    root = make_repo(tmp_path, {"q1.yaml": in_question("\u0085x")})
    assert validate_lines(capsys, root) == (
        1,
        ["labels/q1.yaml:2:30: LP003 control character U+0085 (NEL)"],
    )
