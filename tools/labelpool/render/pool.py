"""Render a pooling plan (``labelpool pool``) as text, JSON or a pull-request description."""

from __future__ import annotations

from typing import Any

from labelpool.render import sanitize
from labelpool.render.sanitize import markdown as md
from labelpool.words import counted
from labelpool.workflows.pool.write import PoolPlan, PoolResult


def _pct(x: float) -> str:
    return f"{100.0 * x:.1f}%"


def text(result: PoolResult, verbose: bool = False) -> str:
    """The summary first; each question's line only when ``verbose``. The notes are not
    repeated here: the command prints each once, as a warning."""
    plan = result.plan
    if plan.task is not None:
        return _task_text(result, verbose)
    lines = [
        f"batch {plan.batch}: systems {', '.join(plan.systems)} at depth {plan.depth}",
        f"union of the top {plan.depth}: {counted(plan.union, 'document')} over "
        f"{counted(len(plan.questions), 'question')}",
        f"already judged: {plan.judged} ({_pct(plan.judged_fraction)})",
        f"waiting in earlier batches: {plan.waiting}",
        *([f"carried by classes: {counted(plan.carried, 'verdict')}"] if plan.carried else []),
        f"remainder: {plan.remainder}; in this batch: {counted(plan.documents, 'document')} in "
        f"{counted(len(plan.batched), 'question')}",
    ]
    if plan.max_docs is not None:
        lines.append(
            f"budget --max-docs {plan.max_docs}: {plan.remainder - plan.documents} left for later"
        )
    lines += seat_lines(plan)
    lines.append(f"unjudged rate at {plan.depth} before judging:")
    lines += [f"  {s}: {plan.unjudged_before.get(s, float('nan')):.3f}" for s in plan.systems]
    if plan.complete:
        complete = counted(len(plan.complete), "question")
        lines.append(f"judged in full already (pool entries added): {complete}")
    if result.branch:
        lines.append(f"branch: {result.branch}")
    if result.commit:
        lines.append(f"commit: {result.commit}")
    elif result.written:
        lines.append(f"wrote {counted(len(result.written), 'label file')} (not committed)")
    if plan.carried and verbose:
        lines.append("carried by classes (document from member):")
        lines += [f"  {q.qid}: {d} from {m}" for q in plan.questions for d, m in q.carried]
    if plan.batched and verbose:
        lines.append("per question (to judge / union):")
        lines += [f"  {q.qid}: {len(q.docs)} / {q.union}" for q in plan.batched]
    elif plan.batched:
        lines.append(f"per question: --verbose lists the {counted(len(plan.batched), 'question')}")
    # every line: names shown escaped, no line starting a workflow command
    return "\n".join(sanitize.text(line) for line in lines) + "\n"


def _task_text(result: PoolResult, verbose: bool) -> str:
    """``pool --adjudicate`` and ``--second-opinion``: what the batch holds."""
    plan = result.plan
    what = "disputed documents to adjudicate" if plan.task == "adjudicate" else "second opinions"
    lines = [
        f"batch {plan.batch}: {plan.task}",
        f"{what}: {counted(plan.documents, 'document')} in "
        f"{counted(len(plan.batched), 'question')}",
        *seat_lines(plan),
    ]
    if result.branch:
        lines.append(f"branch: {result.branch}")
    if result.commit:
        lines.append(f"commit: {result.commit}")
    elif result.written:
        lines.append(f"wrote {counted(len(result.written), 'label file')} (not committed)")
    if plan.batched and verbose:
        lines += [f"  {q.qid}: {len(q.docs)}" for q in plan.batched]
    return "\n".join(sanitize.text(line) for line in lines) + "\n"


def seat_lines(plan: PoolPlan) -> list[str]:
    """What the text says of the seats: nothing for one judge (today's output)."""
    out = []
    if plan.judges > 1:
        out.append(f"judges: {plan.judges} per document, one seat each, blind")
    if plan.assign:
        out += [f"  seat {i}: {j}" for i, j in enumerate(plan.assign, start=1)]
    return out


def markdown(result: PoolResult) -> str:
    """A pull-request description: what to judge, how, and what it costs."""
    plan = result.plan
    batch = sanitize.code_span(plan.batch)  # a code span: no escape works inside
    out = [
        f"## Judging batch `{batch}`",
        "",
        f"Pooled **{', '.join(md(s) for s in plan.systems)}** at depth **{plan.depth}** "
        f"on {md(plan.date)}.",
        "",
        "| | documents |",
        "|---|---:|",
        f"| union of the top {plan.depth} | {plan.union} |",
        f"| already judged | {plan.judged} ({_pct(plan.judged_fraction)}) |",
        f"| waiting in earlier batches | {plan.waiting} |",
        f"| **to judge in this batch** | **{plan.documents}** in "
        f"{counted(len(plan.batched), 'question')} |",
    ]
    if plan.max_docs is not None:
        out.append(f"| left for a later batch (budget) | {plan.remainder - plan.documents} |")
    if plan.judges > 1:
        out += ["", f"Judges per document: **{plan.judges}** (one seat each, blind)."]
    if plan.assign:
        out += ["", *(f"- seat {i}: {md(j)}" for i, j in enumerate(plan.assign, start=1))]
    out += [
        "",
        f"Unjudged rate at {plan.depth} before judging:",
        "",
        "| system | unjudged |",
        "|---|---:|",
        *(f"| {md(s)} | {plan.unjudged_before.get(s, float('nan')):.3f} |" for s in plan.systems),
        "",
        "### How to judge",
        "",
        "Each document is one line `- {doc: ID, verdict: null}` under its chunk text. Replace "
        "`null` with `relevant`, `irrelevant`, a grade (`0` irrelevant, `1`, `2`, ...) or "
        "`{duplicate-of: ID}` (a GitHub suggestion per line works). Your commit names you as "
        "the judge: `labelpool merge` keeps that author on the folded judgments.",
    ]
    if plan.batched:
        out += ["", "### Questions", "", "| question | to judge | union |", "|---|---:|---:|"]
        out += [
            f"| `{sanitize.code_span(q.qid, table=True)}` | {len(q.docs)} | {q.union} |"
            for q in plan.batched
        ]
    return sanitize.lines("\n".join(out) + "\n")


def to_json(result: PoolResult) -> dict[str, Any]:
    """``labelpool pool --format json`` (``schema/pool-report.schema.json``): the batch,
    its cost, every batched question's documents in review order, and what was written."""
    plan = result.plan
    return {
        "batch": plan.batch,
        "systems": list(plan.systems),
        "depth": plan.depth,
        "date": plan.date,
        "max_docs": plan.max_docs,
        "union": plan.union,
        "judged": plan.judged,
        "waiting": plan.waiting,
        "carried": [
            {"question": q.qid, "document": d, "from": m}
            for q in plan.questions
            for d, m in q.carried
        ],
        "remainder": plan.remainder,
        "documents": plan.documents,
        "unjudged_before": {s: plan.unjudged_before.get(s) for s in plan.systems},
        "questions": [
            {
                "question": q.qid,
                "path": str(q.path),
                "union": q.union,
                "judged": q.judged,
                "waiting": q.waiting,
                "documents": list(q.docs),
                "left_out": q.left_out,
                "full_depth": None if q.full_depth is None else dict(q.full_depth),
            }
            for q in plan.batched
        ],
        "complete": [q.qid for q in plan.complete],
        "written": [str(p) for p in result.written],
        "branch": result.branch,
        "commit": result.commit,
        "notes": list(result.notes),
        **({"task": plan.task} if plan.task is not None else {}),
        **({"judges": plan.judges} if plan.judges > 1 else {}),
        **({"assign": list(plan.assign)} if plan.assign else {}),
    }


def render_json(result: PoolResult) -> str:
    """``labelpool pool --format json`` as printed: :func:`to_json` indented, ASCII, and a
    final line break."""
    return sanitize.json_dumps(to_json(result), indent=2) + "\n"
