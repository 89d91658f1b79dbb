"""Time ``labelpool validate`` (cold and warm) beside check-jsonschema on generated label sets.

    python bench/validate.py                 # 10,000 questions
    python bench/validate.py --sizes 10000 100000 --keep /tmp/lp-bench

Each set is realistic: 5-50 judged ids per question (a fifth to a half relevant), some grades,
relevance classes of near-duplicates, one or two pool entries, unknown keys and comments.
Every run is a whole process, as a user or a hook would start it: `labelpool validate` with
an empty cache folder (cold) and again (warm: nothing changed), and `check-jsonschema` over
the same files and schema (its file list split into batches that fit a command line).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schema" / "label.schema.json"
WORDS = [
    "parcel",
    "refund",
    "warranty",
    "invoice",
    "address",
    "battery",
    "charger",
    "order",
    "coffee",
    "descale",
    "return",
    "damaged",
    "late",
    "cancel",
    "account",
    "password",
    "tenant",
    "policy",
    "shipping",
    "label",
]


def label_text(rng: random.Random, i: int) -> str:
    qid = f"q{i:06d}-{rng.choice(WORDS)}"
    docs = sorted(
        {
            f"{rng.choice(WORDS)}-{rng.randrange(400)}#s{rng.randrange(9)}"
            for _ in range(rng.randint(5, 50))
        }
    )
    relevant = sorted(rng.sample(docs, max(1, len(docs) * rng.randint(20, 50) // 100)))
    lines = [
        f"# judged by annotator {rng.randrange(5)}",
        f"id: {qid}",
        f"question: How do I {' '.join(rng.choices(WORDS, k=rng.randint(4, 12)))}?",
        "relevant_doc_ids:",
        *(f"  - {d}" for d in relevant),
        "judged_ids:",
        *(f"  - {d}" for d in docs),
    ]
    graded = [d for d in relevant if rng.random() < 0.3]
    if graded:
        lines += ["grades:", *(f"  {d}: {rng.randint(2, 3)}" for d in graded)]
    if len(relevant) >= 2 and rng.random() < 0.4:
        lines += ["relevant_classes:", f"  - - {relevant[0]}", f"    - {relevant[1]}"]
    lines.append("pool:")
    for system in sorted(rng.sample(["bm25", "dense", "hybrid"], rng.randint(1, 2))):
        lines += [
            f"  - system: {system}",
            f"    k: {rng.choice([10, 20, 50])}",
            f"    date: '2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}'",
        ]
    if rng.random() < 0.1:
        lines.append(f"notes: checked twice ({rng.choice(WORDS)})")
    return "\n".join(lines) + "\n"


def make_set(folder: Path, n: int, seed: int = 0) -> Path:
    rng = random.Random(seed)
    (folder / "labels").mkdir(parents=True)
    (folder / "schema").mkdir()
    shutil.copy(SCHEMA, folder / "schema" / SCHEMA.name)
    (folder / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n", encoding="utf-8")
    for i in range(n):
        text = label_text(rng, i)
        qid = text.split("\nid: ", 1)[1].split("\n", 1)[0]
        (folder / "labels" / f"{qid}.yaml").write_text(text, encoding="utf-8")
    return folder


CPU: list[float] = []  # CPU seconds (user + sys, children included) of each timed run


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, int, list[str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall, proc.returncode, proc.stderr.strip().splitlines()[-1:]


def check_jsonschema(folder: Path, env: dict[str, str]) -> tuple[float, int]:
    files = sorted(str(p.relative_to(folder)) for p in (folder / "labels").iterdir())
    total, worst = 0.0, 0
    batch = 8000  # keeps each command line well under ARG_MAX
    for i in range(0, len(files), batch):
        seconds, code, _ = timed(
            ["check-jsonschema", "--schemafile", str(SCHEMA), *files[i : i + batch]], folder, env
        )
        total += seconds
        worst = max(worst, code)
    return total, worst


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    parser.add_argument("--keep", type=Path, help="generate the sets here and keep them")
    parser.add_argument("--no-check-jsonschema", action="store_true")
    args = parser.parse_args()

    base = args.keep or Path(tempfile.mkdtemp(prefix="labelpool-bench-"))
    rows: list[list[float]] = []
    cpus: list[list[float]] = []
    try:
        for n in args.sizes:
            folder = base / f"set-{n}"
            if not folder.exists():
                t0 = time.perf_counter()
                make_set(folder, n)
                print(
                    f"generated {n} labels in {time.perf_counter() - t0:.1f} s: {folder}",
                    file=sys.stderr,
                )
            cache = Path(tempfile.mkdtemp(prefix="labelpool-bench-cache-"))
            env = {**os.environ, "LABELPOOL_CACHE_DIR": str(cache)}
            cold, code, tail = timed(["labelpool", "validate"], folder, env)
            cold_cpu = CPU[-1]
            warm, code2, _ = timed(["labelpool", "validate"], folder, env)
            warm_cpu = CPU[-1]
            shutil.rmtree(cache, ignore_errors=True)
            row: list[float] = [n, cold, warm, code, code2]
            cpu = [cold_cpu, warm_cpu]
            if not args.no_check_jsonschema:
                mark = len(CPU)
                cj, cj_code = check_jsonschema(folder, env)
                row += [cj, cj_code]
                cpu.append(sum(CPU[mark:]))
            rows.append(row)
            cpus.append(cpu)
            print(f"  {n}: labelpool {tail}", file=sys.stderr)
    finally:
        if args.keep is None:
            shutil.rmtree(base, ignore_errors=True)

    print(
        f"{'labels':>8} | {'validate cold':>13} | {'validate warm':>13} | "
        f"{'check-jsonschema':>16} | exit codes (cold, warm, cj)"
    )
    print(f"{'-' * 8}-+-{'-' * 13}-+-{'-' * 13}-+-{'-' * 16}-+-{'-' * 27}")
    for row, cpu in zip(rows, cpus, strict=True):
        cj_text = f"{row[5]:>14.2f} s" if len(row) > 5 else f"{'-':>16}"
        codes = ", ".join(str(int(c)) for c in (row[3], row[4], *row[6:7]))
        print(f"{int(row[0]):>8} | {row[1]:>11.2f} s | {row[2]:>11.2f} s | {cj_text} | {codes}")
        cj_cpu = f"{cpu[2]:>14.2f} s" if len(cpu) > 2 else f"{'-':>16}"
        print(f"{'cpu':>8} | {cpu[0]:>11.2f} s | {cpu[1]:>11.2f} s | {cj_cpu} |")
    print(
        f"(wall clock, then CPU seconds user+sys incl. worker processes; cpus: "
        f"{os.cpu_count()}; load average at the end: {os.getloadavg()[0]:.2f}; every figure "
        "is one whole process run)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
