"""The label schema: metaschema-valid, shipped in the package, and the fast pre-check agrees
with jsonschema (the source of every message) on valid and invalid instances."""

from __future__ import annotations

import filecmp
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from labelpool import schemas
from labelpool.rules import schema as schema_rule

ROOT = Path(__file__).resolve().parents[3]
LABEL_SCHEMA = ROOT / "schema" / "label.schema.json"
SCHEMA = json.loads(LABEL_SCHEMA.read_text(encoding="utf-8"))
FULL = jsonschema.Draft202012Validator(
    SCHEMA, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
)


@pytest.mark.parametrize("name", [schemas.LABEL, schemas.VERSIONS, schemas.MACHINE_JUDGE])
def test_repository_schema_and_packaged_copy_are_identical(name: str) -> None:
    assert filecmp.cmp(ROOT / "schema" / name, schemas.PACKAGE_DATA / name, shallow=False)


@pytest.mark.parametrize("name", [schemas.LABEL, schemas.VERSIONS, schemas.MACHINE_JUDGE])
def test_schemas_are_valid_2020_12_without_https_id(name: str) -> None:
    schema = json.loads((ROOT / "schema" / name).read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "$id" not in schema
    text = json.dumps(schema)
    for keyword in ("unevaluatedProperties", "dependentRequired", "prefixItems"):
        assert keyword not in text


def test_schema_lookup_prefers_the_repository(tmp_path: Path) -> None:
    assert schemas.schema_path(schemas.LABEL, tmp_path) == schemas.PACKAGE_DATA / schemas.LABEL
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / schemas.LABEL).write_text("{}", encoding="utf-8")
    assert schemas.schema_path(schemas.LABEL, tmp_path) == tmp_path / "schema" / schemas.LABEL


def test_seed_example_is_valid() -> None:
    seed = {
        "id": "returns-damaged",
        "question": "My parcel arrived damaged. Can I send it back?",
        "relevant_doc_ids": ["faq-shipping#damaged", "policy-returns-v3#sec-2"],
        "judged_ids": ["faq-shipping#damaged", "handbook#returns"],
        "grades": {"policy-returns-v3#sec-2": 2},
        "relevant_classes": [["faq-shipping#damaged", "policy-returns-v3#sec-2"]],
        "pool": [{"system": "bm25", "k": 20, "date": "2026-06-02", "run": "a" * 40}],
        "pending": [
            {
                "batch": "b",
                "systems": ["bm25"],
                "depth": 20,
                "date": "2026-12-02",
                "docs": [
                    {"doc": "x#1", "verdict": None},
                    {"doc": "x#2", "verdict": {"duplicate-of": "x#1"}},
                ],
            }
        ],
        "some_unknown_key": {"kept": True},
    }
    assert FULL.is_valid(seed)
    for bad in (
        {"grades": {"d": 0}},
        {"pool": [{"system": "s", "k": 0, "date": None}]},
        {"id": "-x"},
        {"judged_ids": ["has space"]},
        {"pool": [{"system": "s", "k": 1, "date": "2026-13-01"}]},
    ):
        assert not FULL.is_valid({**seed, **bad}), bad


fast = schema_rule.fast_check(LABEL_SCHEMA)
assert fast is not None, "jsonschema-rs is a dependency: its fast check must be available"


def needs_fast(test: Any) -> Any:
    """Was a skip when jsonschema-rs is missing; the assert above now fails instead."""
    return test


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.floats(allow_nan=False, width=32)
    | st.sampled_from(["", "a b", "doc#1", "2026-06-02", "2026-02-30", "relevant", "x" * 41]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["system", "k", "date", "doc", "verdict", "duplicate-of", "x"]),
            inner,
            max_size=3,
        )
    ),
    max_leaves=8,
)


@st.composite
def mutated(draw: st.DrawFn) -> Any:
    """A schema-valid label with one value somewhere replaced by arbitrary JSON."""
    instance = draw(from_schema(SCHEMA))
    paths: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for k in node:
                paths.append((node, k))
                walk(node[k])
        elif isinstance(node, list):
            for i in range(len(node)):
                paths.append((node, i))
                walk(node[i])

    walk(instance)
    if paths:
        parent, key = draw(st.sampled_from(paths))
        parent[key] = draw(JSON)
    return instance


@needs_fast
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(from_schema(SCHEMA))
def test_fast_check_accepts_what_jsonschema_generates(instance: Any) -> None:
    assert fast is not None
    assert fast(instance) == FULL.is_valid(instance)


@needs_fast
@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated())
def test_fast_check_agrees_with_jsonschema_on_mutated_labels(instance: Any) -> None:
    assert fast is not None
    assert fast(instance) == FULL.is_valid(instance)


@needs_fast
@pytest.mark.parametrize("doc", ["\ufeff", "a\ufeff", "\x1c", "\x85", "a b", "\u3000", "ok#1"])
def test_fast_and_full_checks_agree_on_whitespace_in_ids(doc: str) -> None:
    # a JSON Schema pattern is ECMA-262: its \s holds U+FEFF, Python's holds U+001C-U+001F and
    # U+0085; the schema names both sets, so jsonschema and jsonschema-rs agree (hypothesis
    # found U+FEFF)
    assert fast is not None
    instance = {"id": "q", "question": "x", "relevant_doc_ids": [doc], "judged_ids": [doc]}
    assert fast(instance) == FULL.is_valid(instance) == (doc == "ok#1")
