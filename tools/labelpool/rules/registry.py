"""Every validation rule: its id, its severity and a one-line doc (docs/formats.md shows them)."""

from __future__ import annotations

from dataclasses import dataclass

from labelpool.findings import Severity

# Bump whenever a rule changes what it reports: cached per-file results are keyed by it.
# 9: extensions of a class (LP064); 8: verdicts a class carried (LP063); 7: proposed classes
# (LP061, LP062)
RULES_VERSION = "9"


@dataclass(frozen=True)
class Rule:
    id: str
    severity: Severity
    doc: str


def _rules(*rows: tuple[str, Severity, str]) -> dict[str, Rule]:
    return {rid: Rule(rid, sev, doc) for rid, sev, doc in rows}


RULES: dict[str, Rule] = _rules(
    (
        "LP020",
        "error",
        "the file matches schema/label.schema.json (JSON Schema 2020-12, formats on)",
    ),
    (
        "LP021",
        "error",
        "a plain scalar a YAML 1.1 or 1.2 reader would take as a non-string "
        "(`no`, `0123`, `1e3`, `2026-06-02`, ...) must be quoted (`labelpool fmt` fixes it)",
    ),
    ("LP022", "error", "`id` equals the file's stem"),
    ("LP023", "error", "question ids are unique across files, also after case-folding and NFC"),
    ("LP024", "error", "ids (question and document) are in Unicode NFC form"),
    ("LP025", "error", "every id in `relevant_doc_ids` is also in `judged_ids`"),
    ("LP026", "error", "no list holds the same id twice"),
    ("LP027", "error", "`grades` only for relevant documents or members of a relevance class"),
    (
        "LP028",
        "warning",
        "lists are in code-point order, classes by their first member (`labelpool fmt` fixes it; "
        "a hand-written order is valid)",
    ),
    (
        "LP029",
        "error",
        "every accepted relevance class holds a judged document (relevant, or judged "
        "irrelevant: its members then share grade 0)",
    ),
    (
        "LP030",
        "error",
        "no document sits in two relevance classes of one question, accepted or proposed",
    ),
    (
        "LP031",
        "error",
        "no relevance class, accepted or proposed, mixes a document with one it supersedes "
        "(corpus/versions.yaml and the version pattern, transitively)",
    ),
    ("LP032", "error", "`pool` is present and non-empty once anything is judged"),
    ("LP033", "warning", "a pool of unknown origin (`system: unknown` or `k: null`)"),
    (
        "LP034",
        "error",
        "unresolved pending verdicts (`verdict: null`); allowed with "
        "--allow-pending on a batch branch",
    ),
    (
        "LP035",
        "error",
        "a pending verdict is `relevant`, `irrelevant`, an integer grade >= 0 "
        "or `{duplicate-of: ID}` naming another document",
    ),
    (
        "LP036",
        "warning",
        "an unknown key that looks like a typo of a known one (`grade`, `judged_id`, ...)",
    ),
    ("LP037", "error", "no symlinks under labels/"),
    (
        "LP038",
        "warning",
        "a judged id missing from the configured corpus (stale after re-chunking?)",
    ),
    ("LP039", "error", "the file can be read and holds one mapping"),
    ("LP040", "error", "an id is not both judged and in `pooled_unjudged_ids`"),
    (
        "LP041",
        "error",
        "no lone CR, U+2028 or U+2029: YAML reads a line break where git does not "
        "(`labelpool fmt` replaces them inside a value)",
    ),
    (
        "LP042",
        "error",
        "a grade is at most 1,000,000; a cut-off (`k`, `depth`, `full_depth`) at most "
        "1,000,000,000",
    ),
    (
        "LP043",
        "error",
        "a judge gives at most one verdict per document (no judge twice in one document's "
        "`verdicts`, at most one adjudicator line)",
    ),
    ("LP044", "error", "`verdicts` lists only judged documents (in `judged_ids` or a class)"),
    (
        "LP045",
        "error",
        "a judge's kind (`judge_kind`, `kind`) is `person` or `machine`; a person is "
        "`Name <email>`; an adjudicator is a person",
    ),
    (
        "LP046",
        "error",
        "`relevant_doc_ids` and `grades` say the verdict that counts (for an open dispute its "
        "lowest): the relevance, and the grade where it is 2 or more",
    ),
    (
        "LP047",
        "warning",
        "an open dispute (judges disagree, no adjudicator): `labelpool pool --adjudicate` "
        "makes the batch that settles it",
    ),
    (
        "LP048",
        "error",
        "the seats of a batch for several judges are numbered 1..N, each once, and a `task` is "
        "`second-opinion` or `adjudicate`",
    ),
    (
        "LP049",
        "error",
        "a seat's judge has not judged one of its documents already and holds one seat of the "
        "batch; an `adjudicate` entry lists only documents with two or more verdicts",
    ),
    (
        "LP050",
        "error",
        "a machine judge's file (judges/NAME.yaml) matches schema/machine-judge.schema.json",
    ),
    (
        "LP051",
        "error",
        "a machine judge's files hold no secret: no field named like a key, token or secret with "
        "a value, no value like `sk-...` (api_key_env names the variable that holds the key)",
    ),
    (
        "LP052",
        "error",
        "a machine judge's `prompt` is a UTF-8 file beside it (no `..`), with `{question}` and "
        "`{passage}`",
    ),
    (
        "LP053",
        "error",
        "a machine judge's file is named NAME.yaml (letters, digits, `._-`), its answer words name "
        "grades of its scale, and it sets only its kind's fields",
    ),
    ("LP060", "error", "(--provenance) each document in a pool entry's top k of its run is judged"),
    (
        "LP061",
        "error",
        "a proposed class (`members` with `proposed: {method, score}`) names two documents or "
        "more (an extension, with `extends`, one or more)",
    ),
    (
        "LP062",
        "error",
        "a proposed class waits for review (delete its `proposed:` line to accept it, the entry "
        "to reject it); allowed with --allow-pending on a proposals branch",
    ),
    (
        "LP063",
        "error",
        "a verdict a class carried (`{class: MEMBER, verdict: V}` in `verdicts`) names another "
        "member of an accepted class holding the document and says that class's grade; one a "
        "document",
    ),
    (
        "LP064",
        "error",
        "an extension of a class (`members` with `extends: MEMBER`) names a member of an accepted "
        "class of the file, whose members it joins once accepted",
    ),
)


def all_rules() -> dict[str, Rule]:
    """The YAML safety rules of ``yamlfile`` (LP001-LP019) followed by these."""
    # yamlfile imports PyYAML and ruamel: validate's warm path reads RULES_VERSION only
    from labelpool.yamlfile import SAFETY_RULES

    out: dict[str, Rule] = {}
    for rid, doc in sorted(SAFETY_RULES.items()):
        out[rid] = Rule(rid, "error", doc)
    out.update(RULES)
    return out
