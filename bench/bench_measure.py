"""Timing one command: wall clock, CPU and peak memory, each run in a fresh process.

Every measurement starts a small wrapper process (:data:`WRAPPER`) that starts the command,
waits for it and reports its wall time and ``resource.getrusage(RUSAGE_CHILDREN)``: the peak
resident memory (``ru_maxrss``) of the command and everything it started, and its CPU time.
The wrapper is small, so the command's peak does not start from the size of this (large)
benchmark process, which a child forked from it would inherit until it execs.

Floors that report their own time (``--timing FILE``: the seconds of their measured part) are
timed by that figure, not by the whole process.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

WRAPPER = r"""
import json, os, resource, signal, subprocess, sys, time
spec = json.loads(sys.argv[1])
with open(spec["stdout"], "wb") as out, open(spec["stderr"], "wb") as err:
    start = time.perf_counter()
    proc = subprocess.Popen(spec["cmd"], cwd=spec["cwd"], env=spec["env"], stdout=out,
                            stderr=err, start_new_session=True)
    try:
        code = proc.wait(timeout=spec["timeout"])
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        err.write(b"\ntimed out after %d s (killed)\n" % spec["timeout"])
        code = -9
    wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "rss_kib": usage.ru_maxrss, "rc": code,
                  "cpu": usage.ru_utime + usage.ru_stime}))
"""


TIMEOUT = [3600]  # seconds before a command is killed (``--timeout``)


@dataclass(frozen=True)
class Sample:
    wall: float
    cpu: float
    peak_mib: float
    rc: int
    err: str  # the last line of stderr


@dataclass(frozen=True)
class Measurement:
    """The samples of one command; ``ok`` when every one exited as expected."""

    name: str
    samples: tuple[Sample, ...] = ()
    ok: bool = True
    note: str = ""
    extra: dict[str, float] = field(default_factory=dict)

    @property
    def seconds(self) -> float | None:
        if not self.ok or not self.samples:
            return None
        return statistics.median(s.wall for s in self.samples)

    @property
    def cpu(self) -> float | None:
        if not self.ok or not self.samples:
            return None
        return statistics.median(s.cpu for s in self.samples)

    @property
    def peak_mib(self) -> float | None:
        if not self.ok or not self.samples:
            return None
        return max(s.peak_mib for s in self.samples)


def sample(
    cmd: Sequence[str],
    cwd: Path,
    env: dict[str, str] | None = None,
    timing_file: Path | None = None,
) -> tuple[Sample, str]:
    """One run of ``cmd`` (a fresh process) and its stdout.

    Dirty pages are flushed first (``os.sync``, untimed): otherwise the writeback of what the
    previous step wrote (a checkout, a reset) is paid by whichever command writes next.
    """
    os.sync()
    with tempfile.TemporaryDirectory(prefix="lp-bench-io-") as io:
        out_path, err_path = os.path.join(io, "out"), os.path.join(io, "err")
        spec = {
            "cmd": list(cmd),
            "cwd": str(cwd),
            "env": {**os.environ, **(env or {})},
            "timeout": TIMEOUT[0],
            "stdout": out_path,
            "stderr": err_path,
        }
        proc = subprocess.run(
            [sys.executable, "-c", WRAPPER, json.dumps(spec)],
            capture_output=True,
            text=True,
            check=True,
        )
        got = json.loads(proc.stdout)
        out = Path(out_path).read_text(encoding="utf-8", errors="replace")
        err_lines = Path(err_path).read_text(encoding="utf-8", errors="replace").split("\n")
    wall = float(got["wall"])
    if timing_file is not None and got["rc"] == 0:
        wall = float(timing_file.read_text(encoding="utf-8"))
    tail = next((line for line in reversed(err_lines) if line.strip()), "")
    tail = tail.replace("|", "/")[:160]
    return Sample(wall, float(got["cpu"]), got["rss_kib"] / 1024, int(got["rc"]), tail), out


def measure(
    name: str,
    cmd: Sequence[str],
    cwd: Path,
    repeat: int,
    *,
    env: dict[str, str] | None = None,
    cold: bool = True,
    before: Callable[[], None] | None = None,
    after: Callable[[], None] | None = None,
    expect: Sequence[int] = (0,),
    timing_file: Path | None = None,
    fill: bool = False,
    prime: Sequence[str] | None = None,
) -> Measurement:
    """``repeat`` samples of ``cmd``; ``cold``: a fresh ``LABELPOOL_CACHE_DIR`` for each.

    ``before`` and ``after`` run around each sample (untimed), e.g. to put a repository back.
    ``fill`` (with ``cold`` False): one untimed sample first, so that every measured one finds
    the cache it left (the command run twice, the second measured). ``prime``: a command run
    untimed with the sample's cache just before it (after ``before``), e.g. to fill a fresh
    cache from the repository as it stands. A sample whose exit code is not in ``expect`` ends
    the measurement (``ok`` False, with the command's last stderr line as the note).
    """
    samples: list[Sample] = []
    warm_cache = Path(tempfile.mkdtemp(prefix="lp-bench-cache-"))
    try:
        for i in range(repeat + (1 if fill and not cold else 0)):
            cache = Path(tempfile.mkdtemp(prefix="lp-bench-cache-")) if cold else warm_cache
            try:
                if before is not None:
                    before()
                full_env = {"LABELPOOL_CACHE_DIR": str(cache), **(env or {})}
                if prime is not None:
                    subprocess.run(
                        list(prime),
                        cwd=cwd,
                        env={**os.environ, **full_env},
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                        check=False,
                    )
                one, _ = sample(cmd, cwd, full_env, timing_file)
                if after is not None:
                    after()
            finally:
                if cold:
                    shutil.rmtree(cache, ignore_errors=True)
            if one.rc not in expect:
                return Measurement(name, tuple(samples), ok=False, note=f"exit {one.rc}: {one.err}")
            if not (fill and not cold and i == 0):
                samples.append(one)
    finally:
        shutil.rmtree(warm_cache, ignore_errors=True)
    return Measurement(name, tuple(samples))


def warm(cmd: Sequence[str], cwd: Path, cache: Path) -> None:
    """Run ``cmd`` once with ``cache`` as its cache folder (to fill it)."""
    subprocess.run(
        list(cmd),
        cwd=cwd,
        env={**os.environ, "LABELPOOL_CACHE_DIR": str(cache)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )


def measure_warm(
    name: str, cmd: Sequence[str], cwd: Path, repeat: int, expect: Sequence[int] = (0,)
) -> Measurement:
    """``repeat`` samples of ``cmd`` with a cache filled by one untimed run first."""
    cache = Path(tempfile.mkdtemp(prefix="lp-bench-warm-"))
    try:
        warm(cmd, cwd, cache)
        samples: list[Sample] = []
        for _ in range(repeat):
            one, _ = sample(cmd, cwd, {"LABELPOOL_CACHE_DIR": str(cache)})
            if one.rc not in expect:
                return Measurement(name, tuple(samples), ok=False, note=f"exit {one.rc}: {one.err}")
            samples.append(one)
        return Measurement(name, tuple(samples))
    finally:
        shutil.rmtree(cache, ignore_errors=True)


# --------------------------------------------------------------------------- floors

READ_FLOOR = r"""
import os, sys, yaml
folder = sys.argv[1]
for name in sorted(os.listdir(folder)):
    if name.endswith(".yaml"):
        with open(os.path.join(folder, name), "rb") as fh:
            yaml.load(fh, Loader=yaml.CSafeLoader)
"""

WRITE_FLOOR = r"""
import os, subprocess, sys, time
folder, timing, commit = sys.argv[1], sys.argv[2], sys.argv[3] == "commit"
names = sorted(n for n in os.listdir(folder) if n.endswith(".yaml"))
texts = []
for name in names:
    with open(os.path.join(folder, name), "rb") as fh:
        texts.append(fh.read() + b"# floor\n")
start = time.perf_counter()
for name, text in zip(names, texts):
    with open(os.path.join(folder, name), "wb") as fh:
        fh.write(text)
if commit:
    top = os.path.dirname(os.path.abspath(folder))
    subprocess.run(["git", "add", "--", folder], cwd=top, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "floor"], cwd=top, check=True)
with open(timing, "w") as fh:
    fh.write(str(time.perf_counter() - start))
"""

PYTREC = r"""
import sys, pytrec_eval
qrels = {}
with open(sys.argv[1]) as fh:
    for line in fh:
        q, _, d, g = line.split()
        qrels.setdefault(q, {})[d] = int(g)
run = {}
with open(sys.argv[2]) as fh:
    for line in fh:
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, {})[d] = float(s)
measures = {"ndcg_cut.10", "recall.10", "recall.100", "map", "recip_rank", "P.10"}
res = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
names = sorted(next(iter(res.values())))
print({n: sum(v[n] for v in res.values()) / len(res) for n in names})
"""

TREC_EVAL_MEASURES = ("ndcg_cut.10", "recall.10,100", "map", "recip_rank", "P.10")
LABELPOOL_MEASURES = "nDCG@10,R@10,R@100,AP,RR,P@10"


def pytrec_installed() -> bool:
    import importlib.util

    return importlib.util.find_spec("pytrec_eval") is not None


def build_trec_eval(source: Path, into: Path) -> tuple[Path | None, str]:
    """Copy trec_eval's source to ``into`` and ``make`` it: (the binary, or None and why)."""
    if not (source / "Makefile").is_file():
        return None, f"no trec_eval source at {source}"
    if shutil.which("make") is None or shutil.which("cc") is None:
        return None, "no make or C compiler"
    target = into / "trec_eval-src"
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    proc = subprocess.run(["make"], cwd=target, capture_output=True, text=True, check=False)
    binary = target / "trec_eval"
    if proc.returncode != 0 or not binary.is_file():
        last = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"make failed: {last}"
    return binary, ""
