"""``import jsonl``: one question a JSON line, ``{id, question, relevant_doc_ids, judged_ids?}``;
every id and the question text checked as ``validate`` would, each error at its line."""

from __future__ import annotations

from pathlib import Path

from labelpool.labelfile import NewLabel
from labelpool.rules.identity import fold
from labelpool.workflows.importing.input import (
    ImportFailed,
    Judgments,
    Origin,
    case_clash,
    check_doc,
    check_id,
    check_text,
    json_object,
    lines,
)


def read_jsonl(path: Path) -> Judgments:
    """Records ``{id, question, relevant_doc_ids, judged_ids?}``, one per line."""
    out: list[NewLabel] = []
    seen: dict[str, int] = {}
    folded: dict[str, tuple[str, int]] = {}
    for n, line in lines(path, "a JSON Lines file"):
        if not line.strip():
            continue
        record = json_object(line, path, n)
        qid, question = record.get("id"), record.get("question")
        if not isinstance(qid, str) or not isinstance(question, str):
            raise ImportFailed("expected string `id` and `question`", path=path, line=n, column=1)
        check_id(qid, path, n, 1)
        other = folded.setdefault(fold(qid), (qid, n))
        if other[0] != qid:
            raise case_clash(qid, f"{other[0]!r} (line {other[1]})", path, n)
        if qid in seen:
            raise ImportFailed(
                f"question {qid!r} appears twice (first on line {seen[qid]})",
                path=path,
                line=n,
                column=1,
            )
        seen[qid] = n
        text = " ".join(question.split())
        check_text(text, f"question {qid!r}: the text", path, n)
        relevant = _id_list(record, "relevant_doc_ids", path, n, required=True)
        judged = _id_list(record, "judged_ids", path, n, required=False)
        out.append(
            NewLabel(
                qid=qid,
                question=text,
                relevant=tuple(sorted(set(relevant))),
                judged=tuple(sorted(set(judged) | set(relevant))),
            )
        )
    return Judgments(out, {qid: Origin(path, n) for qid, n in seen.items()})


def _id_list(
    record: dict[str, object], key: str, path: Path, n: int, *, required: bool
) -> list[str]:
    value = record.get(key)
    if value is None and not required:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ImportFailed(f"`{key}` must be a list of strings", path=path, line=n, column=1)
    for doc in value:
        check_doc(doc, path, n, 1)
    return list(value)
