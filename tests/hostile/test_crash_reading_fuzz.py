"""Fuzzing the label reader and the validator: random bytes and mutated label files never
give a traceback, only a ``LabelpoolError`` (exit 1 with its place) or findings.

Each input goes through validate's API (``workflows.validate.validate`` on the file, and the
per-file rules ``rules.check.check_bytes``), score's reader (``labelset.load_files``), the one
reading (``yamlfile.loads_checked``) and diff's reader (``revisions.parse_label``). Bounded:
about 20 seconds of the suite. 0.1.0: 80 inputs drawn from these strategies, run through its
``validate`` and ``score``, all gave exit 0 or 1 (no traceback); kept, now for every reader.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from labelpool import config, labelset, schemas, yamlfile
from labelpool.errors import LabelpoolError
from labelpool.findings import Finding
from labelpool.rules.check import check_bytes
from labelpool.workflows.audit import revisions
from labelpool.workflows.validate import full as validate_wf

SEED = (
    b"# judged\nid: q1\nquestion: 'no'\nrelevant_doc_ids:\n  - d1\njudged_ids:\n  - '0o17'\n"
    b"  - d1  # eol\n  - d2\ngrades:\n  d1: 2\nrelevant_classes:\n  - - d1\n    - d2\n"
    b"pool:\n  - system: bm25\n    k: 20\n    date: '2026-06-02'\n"
    b"pending:\n  - batch: '2026-12-02-bm25@10'\n    systems: [bm25]\n    depth: 10\n"
    b"    date: '2026-12-02'\n    docs:\n      - {doc: d3, verdict: null}\n"
    b"      - {doc: d4, verdict: {duplicate-of: d1}}\nx-extra: kept\n"
)
PIECES = [
    b"0o17",
    b"0x1F",
    b"017",
    b"1_000",
    b"1e3",
    b"yes",
    b"off",
    b"~",
    b"2026-02-30",
    b".inf",
    b"+1",
    b"=",
    b"<<: {a: 1}\n",
    b"&a ",
    b"*a",
    b"!!str ",
    b"%YAML 1.1\n---\n",
    b"---\n",
    b"? [a]\n: b\n",
    b"[" * 40,
    b"{",
    b"'",
    b'"',
    b"\t",
    b"\r",
    b"\r\n",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\x00",
    b"\xc2\x85",
    b"\xe2\x80\xa8",
    b"\xe2\x80\xae",
    b"=======\n",
    b"\n  - ",
    b": ",
    b"- ",
    b"#",
    b"|\n",
    b"99999999999999999999999",
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    """The seed label with one to four pieces put in, bytes cut out or flipped."""
    raw = SEED
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(raw)))
        action = draw(st.integers(0, 5))
        if action == 0:
            raw = raw[:at] + raw[at + draw(st.integers(1, 8)) :]
        elif action == 1:
            raw = raw[:at] + draw(st.binary(min_size=1, max_size=4)) + raw[at:]
        else:
            raw = raw[:at] + draw(st.sampled_from(PIECES)) + raw[at:]
    return raw


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz")
    (root / "pyproject.toml").write_text(
        '[project]\nname = "x"\nversion = "0"\n\n[tool.labelpool]\nformat = 1\n', encoding="utf-8"
    )
    (root / "labels").mkdir()
    return root


def _no_traceback(root: Path, raw: bytes) -> None:
    path = root / "labels" / "q1.yaml"
    path.write_bytes(raw)
    cfg = config.load(root)
    schema_file = schemas.schema_path(schemas.LABEL, root)
    result = validate_wf.validate(cfg, [path], use_cache=False, jobs=1, cwd=root)
    assert all(isinstance(f, Finding) for f in result.findings)
    per_file = check_bytes(raw, schema_file, max_bytes=cfg.max_file_bytes, max_depth=cfg.max_depth)
    assert all(isinstance(f, Finding) for f in per_file.findings)
    for read in (
        lambda: labelset.load_files([path], schema_file=schema_file, use_cache=False),
        lambda: yamlfile.loads_checked(raw, path),
        lambda: revisions.parse_label(raw, "HEAD:labels/q1.yaml"),
    ):
        try:
            read()
        except LabelpoolError as exc:
            assert exc.line is None or exc.line >= 1
    if not [f for f in result.findings if f.severity == "error"]:
        labelset.load_files([path], schema_file=schema_file, use_cache=False)  # it reads


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(mutated())
def test_mutated_label_files_never_give_a_traceback(repo: Path, raw: bytes) -> None:
    _no_traceback(repo, raw)


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.binary(max_size=300) | st.lists(st.sampled_from(PIECES), max_size=10).map(b"".join))
def test_random_bytes_never_give_a_traceback(repo: Path, raw: bytes) -> None:
    _no_traceback(repo, raw)
