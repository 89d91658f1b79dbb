"""The near-duplicate finder (``labelpool.dedup``, issue 26): its precision and recall, and its
speed and memory beside a floor measured in the same run.

    python bench/run.py --commands dedup           # part of the benchmark
    python bench/bench_dedup.py WORK STEP CORPUS   # one measured step (what run.py starts)

Quality, at Jaccard 0.8 (containment 0.9):

* **example**: ``corpus/corpus.jsonl`` against the classes it was built with: chunks to which
  ``corpus/make_corpus.py`` gives the same source text (the passage copied three times, the
  PDF pages that repeat a section, the product pages' shared delivery tab), less any pair of
  versions (``corpus/versions.yaml`` and the ``-vN`` pattern). Within one "question" holding
  the whole corpus (exact), and corpus-wide (LSH).
* **vaswani** (``../shared/data/vaswani``, 11,429 abstracts) with near-copies injected here,
  seeded: of abstracts of at least 60 words, copies reflowed (line breaks, spacing, case), with
  a run of a tenth of the words dropped ("a sentence": the abstracts have no punctuation), with
  one word in 50 changed, and put inside a longer document (a third more words from another
  abstract around it). True pairs: each copy with its abstract (and with any abstract the finder
  pairs with that one among the originals: Vaswani's own duplicates, counted apart). Precision
  counts the pairs that hold a copy; recall is given per kind of copy too.

* **CAsT 2021** (``../shared/data/trec-cast-2021``): the official qrels imported (158 turns,
  BM25 and ANCE runs), ``import duplicates --prefix MARCO_`` with the MS MARCO map, every
  proposal accepted by a reviewer and merged; how many judged documents the map joins, and
  ``compare`` BM25 vs ANCE before and after (``bench_cast_duplicates.py``; ``docs/cast.md``
  says why nothing moves).

Speed: each step is a fresh process (``bench_measure.measure``): ``floor`` reads the corpus and
shingles every text once; ``within`` is the exact pairwise search over all of it (a question's
batch: 1,335 generated passages, the size of a TREC CAsT 2021 judged batch); ``across`` is the
corpus-wide LSH search with every document a target (Vaswani with its copies; 100,000
generated passages, 5,000 under ``--quick``), its peak memory against 1 GiB.
"""

from __future__ import annotations

import itertools
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bench_cast_duplicates import Quality, cast_quality
from bench_goals import Goal
from bench_measure import Measurement, measure

ROOT = Path(__file__).resolve().parents[1]
VASWANI = ROOT.parent / "shared" / "data" / "vaswani" / "corpus" / "doc-text.trec"
THRESHOLD, CONTAINMENT = 0.8, 0.9
BATCH = 1_335  # the documents of TREC CAsT 2021's largest judged batch
PASSAGES, QUICK_PASSAGES = 100_000, 5_000
MEMORY_MIB = 1024
KINDS = ("reflowed", "sentence dropped", "words changed", "inside a longer text")


# --------------------------------------------------------------------------- corpora


def generated(n: int, seed: int, copies: float = 0.02) -> list[tuple[str, str]]:
    """``n`` passages of 40 to 120 words from a Zipf-like vocabulary of 30,000 words, a share
    ``copies`` of them near-copies of earlier ones (one word in 50 changed)."""
    rng = random.Random(seed)
    vocab = [f"w{i}" for i in range(30_000)]
    cumulative = list(itertools.accumulate(1 / (i + 1) for i in range(len(vocab))))
    out: list[tuple[str, str]] = []
    for i in range(n):
        if out and rng.random() < copies:
            base = rng.choice(out)[1].split()
            out.append((f"gen-{i}#copy", " ".join(_changed(base, rng, vocab))))
        else:
            words = rng.choices(vocab, cum_weights=cumulative, k=rng.randint(40, 120))
            out.append((f"gen-{i}#p", " ".join(words)))
    return out


def vaswani(path: Path = VASWANI) -> list[tuple[str, str]]:
    """(DOCNO, text) of every abstract of the TREC-format file."""
    out = []
    for chunk in path.read_text(encoding="utf-8").split("</DOC>"):
        if "<DOCNO>" not in chunk:
            continue
        head, _, text = chunk.partition("</DOCNO>")
        out.append((head.split("<DOCNO>", 1)[1].strip(), text.strip()))
    return out


def _changed(words: list[str], rng: random.Random, vocab: list[str]) -> list[str]:
    out = list(words)
    for at in rng.sample(range(len(out)), max(1, len(out) // 50)):
        out[at] = rng.choice(vocab)
    return out


def inject(
    docs: list[tuple[str, str]], seed: int, per_kind: int = 100
) -> tuple[list[tuple[str, str]], dict[str, tuple[str, str]]]:
    """``docs`` with near-copies added; ``{copy id: (original id, kind)}``."""
    rng = random.Random(seed)
    long = [(d, t) for d, t in docs if len(t.split()) >= 60]
    vocab = sorted({w for _, t in docs[:2000] for w in t.split()})
    chosen = rng.sample(long, min(len(long), per_kind * len(KINDS)))
    out, truth = list(docs), {}
    for i, (doc, text) in enumerate(chosen):
        kind = KINDS[i % len(KINDS)]
        words = text.split()
        if kind == "reflowed":
            new = "\n".join(
                " ".join(w.upper() if rng.random() < 0.2 else w for w in words[j : j + 7])
                + rng.choice(["", " ", "  "])
                for j in range(0, len(words), 7)
            )
        elif kind == "sentence dropped":
            size = max(3, len(words) // 10)
            at = rng.randrange(0, len(words) - size)
            new = " ".join(words[:at] + words[at + size :])
        elif kind == "words changed":
            new = " ".join(_changed(words, rng, vocab))
        else:
            size = max(1, len(words) // 3)  # a part of a longer abstract: never contained
            other = rng.choice([t for _, t in long if len(t.split()) >= 2 * size]).split()
            extra = other[:size]
            half = len(extra) // 2
            new = " ".join(extra[:half] + words + extra[half:])
        copy = f"{doc}-copy-{i}"
        out.append((copy, new))
        truth[copy] = (doc, kind)
    return out, truth


def write_jsonl(path: Path, rows: list[tuple[str, str]]) -> Path:
    with path.open("w", encoding="utf-8") as fh:
        for doc, text in rows:
            fh.write(json.dumps({"_id": doc, "text": text}) + "\n")
    return path


def read_jsonl(path: Path) -> Iterator[tuple[str, str]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            yield row["_id"], row["text"]


# --------------------------------------------------------------------------- quality


def _unlinked(a: str, b: str) -> bool:
    return False


def _pr(found: set[frozenset[str]], truth: set[frozenset[str]]) -> tuple[float, float]:
    hit = len(found & truth)
    return (hit / len(found) if found else 1.0), (hit / len(truth) if truth else 1.0)


def example_quality() -> list[Quality]:
    import importlib.util

    from labelpool import corpus
    from labelpool.config import DEFAULT_VERSION_PATTERN
    from labelpool.dedup.pairs import across, within

    spec = importlib.util.spec_from_file_location("make_corpus", ROOT / "corpus" / "make_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    versions = corpus.read_versions(
        ROOT / "corpus" / "versions.yaml", DEFAULT_VERSION_PATTERN, ROOT
    )

    def linked(a: str, b: str) -> bool:
        return versions.supersedes(a, b) or versions.supersedes(b, a)

    texts: dict[str, str] = {}
    by_text: dict[str, list[str]] = {}
    for doc, _, text in module.chunks():
        texts[doc] = text
        by_text.setdefault(text, []).append(doc)
    truth = {
        frozenset({a, b})
        for docs in by_text.values()
        for i, a in enumerate(docs)
        for b in docs[i + 1 :]
        if not linked(a, b)
    }
    out = []
    for name, search in (
        ("within", lambda: within(texts, containment=CONTAINMENT, linked=linked)),
        ("across", lambda: across(texts.items(), texts, containment=CONTAINMENT, linked=linked)),
    ):
        found = search()
        pairs = {frozenset({p.a, p.b}) for p in found.pairs}
        p, r = _pr(pairs, truth)
        tenants = sum(all(d.startswith("tenant-") for d in pair) for pair in pairs)
        detail = (
            f"{len(truth)} true pairs, {len(pairs)} found; {found.version_pairs} version "
            f"pairs set aside; tenant pairs proposed: {tenants}"
        )
        out.append(Quality(f"example, {name}", p, r, detail))
    return out


def vaswani_quality(seed: int) -> list[Quality]:
    from labelpool.dedup.pairs import Found, across, within

    if not VASWANI.is_file():
        return [Quality(f"vaswani, {m}", None, None, "../shared/data absent") for m in ("across",)]
    docs, truth_of = inject(vaswani(), seed)
    out = []
    searches: dict[str, Callable[[], Found]] = {
        "across": lambda: across(
            docs, {d for d, _ in docs}, containment=CONTAINMENT, linked=_unlinked
        ),
        "within": lambda: within(dict(docs), containment=CONTAINMENT, linked=_unlinked),
    }
    for name, search in searches.items():
        found = search()
        pairs = {frozenset({p.a, p.b}) for p in found.pairs}
        natural = {p for p in pairs if not p & truth_of.keys()}
        twins: dict[str, set[str]] = {}
        for pair in natural:
            a, b = sorted(pair)
            twins.setdefault(a, set()).add(b)
            twins.setdefault(b, set()).add(a)
        truth = set()
        for copy, (doc, _) in truth_of.items():
            truth |= {frozenset({copy, t}) for t in {doc} | twins.get(doc, set())}
        with_copy = pairs - natural
        hit = with_copy & truth
        precision = len(hit) / len(with_copy) if with_copy else 1.0
        recall_kind = []
        for kind in KINDS:
            wanted = [c for c, (_, k) in truth_of.items() if k == kind]
            got = sum(frozenset({c, truth_of[c][0]}) in pairs for c in wanted)
            recall_kind.append(f"{kind} {got}/{len(wanted)}")
        direct = sum(frozenset({c, d}) in pairs for c, (d, _) in truth_of.items())
        detail = (
            f"{len(truth_of)} copies; {len(with_copy)} pairs found with a copy, {len(hit)} true; "
            f"recall by kind: {', '.join(recall_kind)}; Vaswani's own pairs: {len(natural)}"
        )
        out.append(Quality(f"vaswani, {name}", precision, direct / len(truth_of), detail))
    return out


# --------------------------------------------------------------------------- in run.py


@dataclass
class Results:
    """What ``run.py --commands dedup`` measured: steps (floor first per corpus) and quality."""

    steps: dict[str, tuple[str, Measurement]]  # name -> (its floor's name, measurement)
    quality: list[Quality]
    passages: int


def _corpora(work: Path, seed: int, passages: int) -> list[tuple[str, str, Path]]:
    """(label, the search measured, corpus file) of each timed corpus, written once."""
    out = []
    batch = work / f"dedup-batch-{BATCH}-{seed}.jsonl"
    if not batch.exists():
        write_jsonl(batch, generated(BATCH, seed, copies=0.05))
    out.append((f"{BATCH:,} passages (a question's batch)", "within", batch))
    if VASWANI.is_file():
        path = work / f"dedup-vaswani-{seed}.jsonl"
        if not path.exists():
            write_jsonl(path, inject(vaswani(), seed)[0])
        out.append(("Vaswani + 400 copies (corpus-wide)", "across", path))
    big = work / f"dedup-passages-{passages}-{seed}.jsonl"
    if not big.exists():
        write_jsonl(big, generated(passages, seed))
    out.append((f"{passages:,} passages (corpus-wide)", "across", big))
    return out


def run(work: Path, seed: int, repeat: int, quick: bool) -> Results:
    passages = QUICK_PASSAGES if quick else PASSAGES
    steps: dict[str, tuple[str, Measurement]] = {}
    me = [sys.executable, str(Path(__file__).resolve()), str(work)]
    for label, search, path in _corpora(work, seed, passages):
        floor = f"dedup floor, {label}"
        steps[floor] = ("", measure(floor, [*me, "floor", str(path)], work, repeat))
        name = f"dedup {search}, {label}"
        steps[name] = (floor, measure(name, [*me, search, str(path)], work, repeat))
        print(f"  [dedup] {name}: {steps[name][1].seconds}", file=sys.stderr, flush=True)
    quality = example_quality() + vaswani_quality(seed) + cast_quality(work)
    return Results(steps, quality, passages)


def _ratio(results: Results, name: str) -> tuple[float, float] | None:
    floor_name, m = results.steps.get(name, ("", None))
    floor = results.steps.get(floor_name, ("", None))[1]
    if m is None or floor is None or m.seconds is None or floor.seconds is None:
        return None
    if m.cpu is None or floor.cpu is None or floor.seconds <= 0 or floor.cpu <= 0:
        return None
    return m.seconds / floor.seconds, m.cpu / floor.cpu


def table(results: Results) -> str:
    rows = [
        "**near-duplicates (labelpool.dedup)**\n",
        "| command | seconds | cpu s | peak MiB | vs floor |",
        "|---|---|---|---|---|",
    ]
    for name, (_, m) in results.steps.items():
        ratio = _ratio(results, name)
        versus = "" if ratio is None else f"{ratio[0]:.2f}x (dedup floor); cpu {ratio[1]:.2f}x"
        secs = "-" if m.seconds is None else f"{m.seconds:.2f}"
        shown = secs if m.ok else f"failed: {m.note}"
        cpu = "-" if m.cpu is None else f"{m.cpu:.2f}"
        peak = "-" if m.peak_mib is None else f"{m.peak_mib:,.0f}"
        rows.append(f"| {name} | {shown} | {cpu} | {peak} | {versus} |")
    rows += ["", *(f"* {q.name}: {q.detail}" for q in results.quality)]
    return "\n".join(rows) + "\n"


def _quality_goal(results: Results, name: str, text: str) -> Goal:
    q = next((q for q in results.quality if q.name == name), None)
    if q is None or q.precision is None or q.recall is None:
        return Goal(text, q.detail if q else "", "not measured")
    met = q.precision >= 0.95 and q.recall >= 0.95
    return Goal(text, f"precision {q.precision:.3f}, recall {q.recall:.3f}", "yes" if met else "NO")


def r_at(results: Results, label: str) -> bool:
    """Whether the figure is at the size the goal names (the passages: 100,000)."""
    return "passages (corpus-wide)" not in label or results.passages == PASSAGES


def _speed_goal(results: Results, search: str, label: str, limit: float, text: str) -> Goal:
    name = next((n for n in results.steps if n.startswith(f"dedup {search}, {label}")), None)
    ratio = None if name is None else _ratio(results, name)
    if name is None:
        return Goal(text, "", "not measured")
    if ratio is None:
        return Goal(text, f"failed: {results.steps[name][1].note}", "NO")
    where = "" if r_at(results, label) else f" (at {results.passages:,})"
    met = "yes" if ratio[0] <= limit else "NO"
    return Goal(text, f"{ratio[0]:.2f}x (dedup floor); cpu {ratio[1]:.2f}x{where}", met)


def goals(results: Results | None) -> list[Goal]:
    """The near-duplicate goals, every one present (``not measured`` without results)."""
    r = results or Results({}, [], PASSAGES)
    texts = [
        ("example, within", "dedup on the example, within a question: precision, recall >= 0.95"),
        ("example, across", "dedup on the example, corpus-wide: precision, recall >= 0.95"),
        ("vaswani, within", "dedup on Vaswani + injected copies, exact: precision, recall >= 0.95"),
        ("vaswani, across", "dedup on Vaswani + injected copies, LSH: precision, recall >= 0.95"),
    ]
    out = [_quality_goal(r, name, text) for name, text in texts]
    out += [
        _speed_goal(
            r,
            "within",
            f"{BATCH:,} passages",
            3,
            f"dedup within a {BATCH:,}-document batch <= 3x floor",
        ),
        _speed_goal(r, "across", "Vaswani", 3, "dedup corpus-wide over Vaswani <= 3x floor"),
        _speed_goal(
            r,
            "across",
            f"{r.passages:,} passages",
            3,
            "dedup corpus-wide over 100,000 passages <= 3x floor",
        ),
    ]
    big = next(
        (m for n, (_, m) in r.steps.items() if n.startswith("dedup across") and "passages" in n),
        None,
    )
    text = f"dedup corpus-wide peak < {MEMORY_MIB} MiB at 100,000 passages"
    if big is None or big.peak_mib is None:
        out.append(
            Goal(
                text,
                "" if big is None else f"failed: {big.note}",
                "not measured" if big is None else "NO",
            )
        )
    else:
        at = "" if r.passages == PASSAGES else f" (at {r.passages:,})"
        out.append(
            Goal(text, f"{big.peak_mib:,.0f} MiB{at}", "yes" if big.peak_mib < MEMORY_MIB else "NO")
        )
    return out


# --------------------------------------------------------------------------- one step


def step(kind: str, corpus_path: Path) -> str:
    """One measured step (in its own process): ``floor``, ``within`` or ``across``."""
    from labelpool.dedup.pairs import across, within
    from labelpool.dedup.text import hashed_array

    rows = list(read_jsonl(corpus_path))
    if kind == "floor":
        shingles = sum(len(hashed_array(text)) for _, text in rows)
        return f"{len(rows)} texts, {shingles} shingles"
    if kind == "within":
        found = within(dict(rows), containment=CONTAINMENT, linked=_unlinked)
    else:
        ids = {d for d, _ in rows}
        found = across(rows, ids, containment=CONTAINMENT, linked=_unlinked)
    return f"{len(found.pairs)} pairs, {found.candidates} candidates"


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] not in ("floor", "within", "across"):
        print("usage: bench_dedup.py WORK floor|within|across CORPUS.jsonl", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    said = step(argv[1], Path(argv[2]))
    print(f"{said} in {time.perf_counter() - t0:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
