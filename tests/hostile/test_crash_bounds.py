"""Numbers too large for the scorer's int64 arrays: LP042 refuses them with ``path:line:col``;
``score``, ``compare``, ``pool-info`` and ``validate --provenance`` exit 1 naming the place,
never 70 with an ``OverflowError``, whatever schema the repository holds.

Each docstring says what 0.1.0 did with the same files (measured with 0.1.0's command line).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.hostile.labels_scenario import LABEL, OTHER_RUN, RUN, cli, make_repo

from labelpool.schemas import PACKAGE_DATA

HUGE_GRADE = "100000000000000000000"  # 10^20
HUGE_K = "100000000000000000000000"  # 10^23
GRADE_AT = "labels/q1.yaml:9:12"
K_AT = "labels/q1.yaml:12:8"
GRADE_MESSAGE = (
    f"LP042 grades.doc-a#1: {HUGE_GRADE} is out of bounds (a grade is at most 1,000,000)"
)
K_MESSAGE = f"LP042 pool[0].k: {HUGE_K} is out of bounds (a cut-off is at most 1,000,000,000)"
HINT = " (`labelpool validate` lists every problem)"
PENDING = """\
pending:
  - batch: b1
    systems:
      - bm25
    depth: {depth}
    date: '2026-12-02'
    docs:
      - {{doc: doc-c#1, verdict: {verdict}}}
"""


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LABELPOOL_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def huge_grade(tmp_path: Path) -> Path:
    return make_repo(
        tmp_path,
        {"q1.yaml": LABEL.replace("doc-a#1: 2", f"doc-a#1: {HUGE_GRADE}")},
        runs={"bm25.trec": RUN, "dense.trec": OTHER_RUN},
    )


def huge_k(tmp_path: Path) -> Path:
    return make_repo(
        tmp_path,
        {"q1.yaml": LABEL.replace("k: 2", f"k: {HUGE_K}")},
        runs={"bm25.trec": RUN, "dense.trec": OTHER_RUN},
    )


def validated(capsys: pytest.CaptureFixture[str], root: Path, *args: str) -> tuple[int, list[str]]:
    code, out, err = cli(capsys, root, "validate", *args)
    assert err.splitlines()[-1].startswith("labelpool validate: ")
    return code, out.splitlines()


def test_grade_of_ten_to_the_twenty_is_refused_by_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, ``1 file(s), 0 error(s)`` (then score crashed on it)."""
    root = huge_grade(tmp_path)
    assert validated(capsys, root) == (1, [f"{GRADE_AT}: {GRADE_MESSAGE}"])


def test_grade_of_ten_to_the_twenty_in_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 70, ``internal error: OverflowError: Python int too large to convert to C
    long``."""
    root = huge_grade(tmp_path)
    code, out, err = cli(capsys, root, "score", "runs/bm25.trec")
    assert (code, out) == (1, "")
    assert err == f"error: {root}/{GRADE_AT}: {GRADE_MESSAGE}{HINT}\n"


def test_grade_of_ten_to_the_twenty_in_compare(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 70, ``internal error: OverflowError: Python int too large to convert to C
    long``."""
    root = huge_grade(tmp_path)
    code, out, err = cli(capsys, root, "compare", "runs/bm25.trec", "runs/dense.trec")
    assert (code, out) == (1, "")
    assert err == f"error: {root}/{GRADE_AT}: {GRADE_MESSAGE}{HINT}\n"


def test_grade_of_ten_to_the_twenty_in_validate_provenance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, ``provenance: 1 pool entries checked``, ``0 error(s)``."""
    root = huge_grade(tmp_path)
    assert validated(capsys, root, "--provenance") == (1, [f"{GRADE_AT}: {GRADE_MESSAGE}"])


def test_pool_k_of_ten_to_the_twenty_three_is_refused_by_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, ``1 file(s), 0 error(s)``."""
    root = huge_k(tmp_path)
    assert validated(capsys, root) == (1, [f"{K_AT}: {K_MESSAGE}"])


def test_pool_k_of_ten_to_the_twenty_three_in_validate_provenance(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 70, ``internal error: OverflowError: Python int too large to convert to C
    long``."""
    root = huge_k(tmp_path)
    code, out, err = cli(capsys, root, "validate", "--provenance")
    assert (code, out.splitlines()) == (1, [f"{K_AT}: {K_MESSAGE}"])
    assert err.splitlines() == [
        "provenance: 0 pool entries checked",
        "labelpool validate: 1 file(s), 1 error(s), 0 warning(s)",
    ]


def test_pool_k_of_ten_to_the_twenty_three_in_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, the scores printed as if the label were sound."""
    root = huge_k(tmp_path)
    code, out, err = cli(capsys, root, "score", "runs/bm25.trec")
    assert (code, out) == (1, "")
    assert err == f"error: {root}/{K_AT}: {K_MESSAGE}{HINT}\n"


def test_pool_k_of_ten_to_the_twenty_three_in_pool_info(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0, ``bm25  1/1  k=100000000000000000000000 on 1`` and ``[fair at k=10]``."""
    root = huge_k(tmp_path)
    code, out, err = cli(capsys, root, "pool-info")
    assert (code, out) == (1, "")
    assert err == f"error: {root}/{K_AT}: {K_MESSAGE}{HINT}\n"


def test_batch_depth_of_ten_to_the_twenty_three(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0 from ``validate --allow-pending`` and from ``score``."""
    text = LABEL + PENDING.format(depth=HUGE_K, verdict="null")
    root = make_repo(tmp_path, {"q1.yaml": text})
    message = (
        f"labels/q1.yaml:18:12: LP042 pending[0].depth: {HUGE_K} is out of bounds (a cut-off "
        "is at most 1,000,000,000)"
    )
    assert validated(capsys, root, "--allow-pending") == (1, [message])
    code, out, err = cli(capsys, root, "score", "runs/bm25.trec")
    assert (code, out, err) == (1, "", f"error: {root}/{message}{HINT}\n")


def test_pending_verdict_grade_of_ten_to_the_twenty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0 from ``validate`` (an integer verdict >= 0 passed) and from ``score``.
    Now LP042 alone at the verdict (not also LP035: the bound explains the schema's error)."""
    text = LABEL + PENDING.format(depth="10", verdict=HUGE_GRADE)
    root = make_repo(tmp_path, {"q1.yaml": text})
    message = (
        f"labels/q1.yaml:21:33: LP042 pending[0].docs[0].verdict: {HUGE_GRADE} is out of "
        "bounds (a grade is at most 1,000,000)"
    )
    assert validated(capsys, root) == (1, [message])


def test_full_depth_of_a_batch_is_a_cut_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0 (``full_depth`` becomes a pool entry's ``k`` at the merge)."""
    text = LABEL + PENDING.format(depth="10", verdict="null").replace(
        "    docs:", "    full_depth:\n      bm25: 1000000000000\n    docs:"
    )
    root = make_repo(tmp_path, {"q1.yaml": text})
    assert validated(capsys, root, "--allow-pending") == (
        1,
        [
            "labels/q1.yaml:21:13: LP042 pending[0].full_depth.bm25: 1000000000000 is out of "
            "bounds (a cut-off is at most 1,000,000,000)"
        ],
    )


@pytest.mark.parametrize(("grade", "code"), [("1000000", 0), ("1000001", 1)])
def test_grade_bound_is_one_million(
    grade: str, code: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0 for both."""
    root = make_repo(tmp_path, {"q1.yaml": LABEL.replace("doc-a#1: 2", f"doc-a#1: {grade}")})
    expected = (
        []
        if code == 0
        else [
            f"{GRADE_AT}: LP042 grades.doc-a#1: {grade} is out of bounds (a grade is at most "
            "1,000,000)"
        ]
    )
    assert validated(capsys, root) == (code, expected)


@pytest.mark.parametrize(("k", "code"), [("1000000000", 0), ("1000000001", 1)])
def test_cut_off_bound_is_one_billion(
    k: str, code: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 0 for both."""
    root = make_repo(tmp_path, {"q1.yaml": LABEL.replace("k: 2", f"k: {k}")})
    expected = (
        []
        if code == 0
        else [f"{K_AT}: LP042 pool[0].k: {k} is out of bounds (a cut-off is at most 1,000,000,000)"]
    )
    assert validated(capsys, root) == (code, expected)


def test_negative_grade_of_ten_to_the_twenty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: exit 1, ``LP020 grades.doc-a#1: -100000000000000000000 is less than the minimum
    of 1`` (the schema's minimum caught it; a schema without one would not)."""
    root = make_repo(tmp_path, {"q1.yaml": LABEL.replace("doc-a#1: 2", f"doc-a#1: -{HUGE_GRADE}")})
    message = (
        f"LP042 grades.doc-a#1: -{HUGE_GRADE} is out of bounds (a grade is at least -1,000,000)"
    )
    assert validated(capsys, root) == (1, [f"{GRADE_AT}: {message}"])
    code, out, err = cli(capsys, root, "score", "runs/bm25.trec")
    assert (code, out, err) == (1, "", f"error: {root}/{GRADE_AT}: {message}{HINT}\n")


def test_float_grade_of_ten_to_the_three_hundred_in_score(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """0.1.0: ``validate`` exit 1 (LP021: quote it), ``score`` exit 70 with ``OverflowError``.
    Now both exit 1 with LP021 at its place (LP042 not repeated at the same place)."""
    root = make_repo(tmp_path, {"q1.yaml": LABEL.replace("doc-a#1: 2", "doc-a#1: 1.0e+300")})
    message = (
        "LP021 grades.doc-a#1: plain 1.0e+300 is read as a non-string by YAML 1.1 or 1.2 "
        "readers; quote it ('1.0e+300') or run `labelpool fmt`"
    )
    assert validated(capsys, root) == (1, [f"{GRADE_AT}: {message}"])
    code, out, err = cli(capsys, root, "score", "runs/bm25.trec")
    assert (code, out) == (1, "")
    assert err.startswith(f"error: {root}/{GRADE_AT}: LP0")


def _schema_without_maximum() -> str:
    """The packaged label schema as 0.1.0 shipped it: no ``maximum`` anywhere."""

    def strip(node: object) -> object:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k != "maximum"}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node

    schema = json.loads((PACKAGE_DATA / "label.schema.json").read_text(encoding="utf-8"))
    return json.dumps(strip(schema), indent=2)


def test_repository_schema_without_maximum_still_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A repository keeps its own copy of the schema (``init`` writes one); an old copy has no
    ``maximum``. 0.1.0: exit 0 from validate, 70 from score. Now LP042 holds whatever the
    copy says: validate and score exit 1 at the same place."""
    root = huge_grade(tmp_path)
    (root / "schema").mkdir()
    (root / "schema" / "label.schema.json").write_text(_schema_without_maximum())
    assert "maximum" not in (root / "schema" / "label.schema.json").read_text()
    assert validated(capsys, root) == (1, [f"{GRADE_AT}: {GRADE_MESSAGE}"])
    code, out, err = cli(capsys, root, "score", "runs/bm25.trec")
    assert (code, out, err) == (1, "", f"error: {root}/{GRADE_AT}: {GRADE_MESSAGE}{HINT}\n")


def test_packaged_schema_has_the_bounds() -> None:
    """0.1.0's schema had no ``maximum``: a grade of 10^20 was schema-valid."""
    schema = json.loads((PACKAGE_DATA / "label.schema.json").read_text(encoding="utf-8"))
    defs = schema["$defs"]
    assert schema["properties"]["grades"]["additionalProperties"]["maximum"] == 1_000_000
    assert defs["pool_entry"]["properties"]["k"]["maximum"] == 1_000_000_000
    assert defs["batch"]["properties"]["depth"]["maximum"] == 1_000_000_000
    assert {"type": "integer", "minimum": 0, "maximum": 1_000_000} in defs["verdict"]["anyOf"]
    root_copy = Path(__file__).resolve().parents[2] / "schema" / "label.schema.json"
    assert root_copy.read_bytes() == (PACKAGE_DATA / "label.schema.json").read_bytes()


FIVE_THOUSAND_DIGITS = "9" * 5000
LONG_MESSAGE = (
    "LP042 pool[0].k: an integer of 5,000 digits is out of bounds "
    "(a label's numbers are at most 1,000,000,000)"
)


def five_thousand_digits(tmp_path: Path) -> Path:
    return make_repo(
        tmp_path,
        {"q1.yaml": LABEL.replace("k: 2", f"k: {FIVE_THOUSAND_DIGITS}")},
        runs={"bm25.trec": RUN, "dense.trec": OTHER_RUN},
    )


def test_integer_of_five_thousand_digits_is_refused_by_validate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 70, ``ValueError: Exceeds the limit (4300 digits) for integer string
    conversion`` (Python's int() refuses such text)."""
    root = five_thousand_digits(tmp_path)
    assert validated(capsys, root) == (1, [f"{K_AT}: {LONG_MESSAGE}"])
    assert validated(capsys, root, "--provenance")[0] == 1


@pytest.mark.parametrize(
    "command", [("score", "runs/bm25.trec"), ("compare", "runs/bm25.trec", "runs/dense.trec")]
)
def test_integer_of_five_thousand_digits_in_scoring_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    """Before: exit 70 with the same ValueError."""
    root = five_thousand_digits(tmp_path)
    code, out, err = cli(capsys, root, *command)
    assert (code, out) == (1, "")
    assert f"{root}/{K_AT}: {LONG_MESSAGE}" in err


def test_integer_of_five_thousand_digits_in_fmt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: exit 1 at ``1:1`` with Python's ValueError text; the place is named now and
    the file is left as it was."""
    root = five_thousand_digits(tmp_path)
    before = (root / "labels/q1.yaml").read_bytes()
    code, out, _err = cli(capsys, root, "fmt")
    assert code == 1
    assert f"{K_AT}: {LONG_MESSAGE}" in out
    assert (root / "labels/q1.yaml").read_bytes() == before
