"""The judging loop as a whole (issue 27): ``pool`` -> one judge's verdicts committed ->
``merge`` -> ``compare``, warm, timed as one figure with its steps beside it.

Each sample starts from the generated commit with a fresh cache that one untimed ``compare``
of the repository has filled (the label index as a team's machine has it before the loop:
warm for every label that the loop has not changed). One process (:data:`LOOP`) then runs,
timing each step: ``pool bm25 dense hybrid --depth 30`` onto a new branch; the judge checks
it out, fills every verdict (a seeded stand-in for judging, timed apart and not counted) and
commits (``git add`` + ``git commit``, counted); ``merge``; ``compare bm25 dense``. The
figure is the sum of the counted steps; ``peak`` is the largest process of the loop.
"""

from __future__ import annotations

import json
import sys

import bench_batches
from bench_measure import measure
from bench_repo import Repo
from bench_state import Bench, drop_branch
from bench_tables import LOOP as NAME

BRANCH = "bench-loop"
STEPS = ("pool", "commit", "merge", "compare")  # counted; "verdicts" (the judge's) is not

LOOP = r"""
import json, os, random, re, subprocess, sys, time
spec = json.loads(sys.argv[1])
steps = {}
def run(step, cmd, env=None):
    start = time.perf_counter()
    code = subprocess.call(cmd, stdout=subprocess.DEVNULL, env={**os.environ, **(env or {})})
    steps[step] = steps.get(step, 0.0) + time.perf_counter() - start
    if code != 0:
        print(f"loop: {step} exited {code}", file=sys.stderr)
        sys.exit(1)
lp = spec["labelpool"]
run("pool", lp + spec["pool"] + ["--branch", spec["branch"]])
run("commit", ["git", "checkout", "-q", spec["branch"]])
start = time.perf_counter()
rng = random.Random(spec["seed"])
null = re.compile(r"verdict: null")
for name in sorted(os.listdir("labels")):
    path = os.path.join("labels", name)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if "verdict: null" in text:
        text = null.sub(lambda _: "verdict: " + rng.choice(spec["verdicts"]), text)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
steps["verdicts"] = time.perf_counter() - start
run("commit", ["git", "add", "--", "labels"], spec["judge"])
run("commit", ["git", "commit", "-q", "-m", "verdicts"], spec["judge"])
run("merge", lp + ["merge"])
run("compare", lp + ["compare", "bm25", "dense", "--format", "json"])
with open(spec["steps"], "w") as fh:
    json.dump(steps, fh)
with open(spec["timing"], "w") as fh:
    fh.write(str(sum(v for k, v in steps.items() if k != "verdicts")))
"""


def bench_loop(b: Bench, repo: Repo) -> None:
    timing = b.work / "loop-timing"
    steps_file = b.work / "loop-steps.json"
    spec = {
        "labelpool": b.lp(),
        "pool": list(bench_batches.POOL_ARGS),
        "branch": BRANCH,
        "seed": b.seed,
        "verdicts": bench_batches.VERDICTS,
        "judge": bench_batches.JUDGE_ENV,
        "timing": str(timing),
        "steps": str(steps_file),
    }
    m = measure(
        NAME,
        [sys.executable, "-c", LOOP, json.dumps(spec)],
        repo.root,
        b.repeat,
        before=lambda: drop_branch(repo, BRANCH),
        after=lambda: drop_branch(repo, BRANCH),
        timing_file=timing,
        prime=b.lp("compare", "bm25", "dense", "--format", "json"),
    )
    if m.ok and steps_file.is_file():
        steps: dict[str, float] = json.loads(steps_file.read_text(encoding="utf-8"))
        shown = ", ".join(f"{k} {steps.get(k, 0.0):.1f} s" for k in STEPS)
        b.notes.append(
            f"loop at {repo.n:,} questions (last sample): {shown}; the judge's verdicts written "
            f"in {steps.get('verdicts', 0.0):.1f} s (not counted)"
        )
    b.put(repo.n, m)
