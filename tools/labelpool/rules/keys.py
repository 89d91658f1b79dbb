"""LP036: unknown keys that look like a typo of a known one (a warning: unknown keys are fine)."""

from __future__ import annotations

import difflib
from functools import lru_cache

from labelpool.findings import Finding
from labelpool.model import KNOWN_KEYS
from labelpool.rules.view import View

POOL_KEYS = ("system", "k", "date", "run")
BATCH_KEYS = ("batch", "systems", "depth", "date", "task", "seat", "judge", "docs")
VERDICT_KEYS = ("judge", "adjudicator", "class", "kind", "verdict")
CLASS_KEYS = ("members", "extends", "proposed")  # a class in the mapping form (issue 26)
# words for a known key that no edit distance finds (the record of judges, issue 24)
ALIASES = {
    "judged_by": "judge",
    "judges": "judge",
    "assessor": "judge",
    "annotator": "judge",
    "rater": "judge",
    "kind": "judge_kind",
    "judge_type": "judge_kind",
    "judgekind": "judge_kind",
    "judgements": "verdicts",
    "judgments": "verdicts",
    "votes": "verdicts",
    "ratings": "verdicts",
    "adjudicator": "verdicts",
}
LINE_ALIASES = {
    "judge_kind": "kind",
    "type": "kind",
    "grade": "verdict",
    "label": "verdict",
    "adjudicated_by": "adjudicator",
    "adjudicate": "adjudicator",
    "judged_by": "judge",
    "assessor": "judge",
}


def edit_distance(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


@lru_cache(maxsize=4096)
def close_to(key: str, known: tuple[str, ...]) -> str | None:
    """The known key ``key`` most likely mistypes, or None."""
    folded = key.lower().replace("-", "_").replace(" ", "_")
    best: tuple[float, str] | None = None
    for name in known:
        if folded == name:
            return name
        dist = edit_distance(folded, name)
        ratio = difflib.SequenceMatcher(None, folded, name).ratio()
        if (len(name) > 3 and dist <= 2) or ratio >= 0.8:
            score = ratio - dist / 100
            if best is None or score > best[0]:
                best = (score, name)
    return best[1] if best else None


def _scan(
    view: View,
    keypath: tuple[str | int, ...],
    known: tuple[str, ...],
    aliases: dict[str, str] | None = None,
) -> list[Finding]:
    mapping = view.get(keypath)
    if not isinstance(mapping, dict):
        return []
    out: list[Finding] = []
    for key in mapping:
        if key in known:
            continue
        folded = str(key).lower().replace("-", "_").replace(" ", "_")
        near = (aliases or {}).get(folded) or close_to(key, known)
        if near is not None:
            line, col = view.pos((*keypath, key), key=True)
            where = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keypath)[1:]
            prefix = f"{where}: " if where else ""
            out.append(
                Finding(
                    "",
                    line,
                    col,
                    "LP036",
                    f"{prefix}unknown key `{key}`: did you mean `{near}`?",
                    "warning",
                )
            )
    return out


def check(view: View) -> list[Finding]:
    out = _scan(view, (), KNOWN_KEYS, ALIASES)
    record = view.get(("verdicts",))
    if isinstance(record, dict):
        for doc, entries in record.items():
            for i, _ in enumerate(entries if isinstance(entries, list) else ()):
                out.extend(_scan(view, ("verdicts", doc, i), VERDICT_KEYS, LINE_ALIASES))
    for section, known in (
        ("pool", POOL_KEYS),
        ("pending", BATCH_KEYS),
        ("relevant_classes", CLASS_KEYS),
    ):
        items = view.get((section,))
        if isinstance(items, list):
            for i in range(len(items)):
                out.extend(_scan(view, (section, i), known))
    return out
