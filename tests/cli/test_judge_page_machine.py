"""Issue 25's loop with a person in a real browser: the example pooled, pre-judged by the
example's machine judge (``judges/minilm.yaml``, its real model) and merged; ``pool
--second-opinion 0.5 --of machines`` sends half of the machine's documents to a person, who
judges them in the page blind to the machine's verdicts (neither the DOM nor any response
holds them), commits from the page; ``merge`` keeps both verdicts with their kinds, and
``agreement --judges machine:minilm,people`` pairs the person with the machine."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from judge_scenario import ROOT, browser, current, labelpool, press, start_server
from labelpool import yamlfile
from labelpool.machine import definition
from labelpool.model import label_from_data
from labelpool.verdicts import MACHINE, PERSON, grade_of, record
from pool_scenario import committed_example, git

PERSON_NAME, PERSON_EMAIL = "Pat Reader", "pat@example.org"
# the key the person presses -> the verdict the page writes
VERDICT_OF_KEY: dict[str, object] = {"0": "irrelevant", "1": "relevant", "2": 2}


def _truth(repo: Path) -> dict[tuple[str, str], int]:
    """What the person answers: the example's ground truth (a document it omits: 0)."""
    out = {}
    for line in (repo / "corpus" / "ground-truth.qrels").read_text(encoding="utf-8").split("\n"):
        parts = line.split()
        if len(parts) == 4:
            out[(parts[0], parts[2])] = int(parts[3])
    return out


def _machine_judged(repo: Path, env: dict[str, str]) -> str:
    """The example with its judges, a batch of 6 pooled, judged by the machine and merged;
    the machine's identity."""
    shutil.copytree(ROOT / "judges", repo / "judges", ignore=shutil.ignore_patterns("__pycache__"))
    git(repo, "add", "judges")
    git(repo, "commit", "-qm", "the example's machine judge")
    for args in (
        ("pool", "runs/bm25.trec", "runs/dense.trec", "--depth", "20", "--max-docs", "6"),
        ("judge", "--machine", "minilm"),
        ("merge",),
        ("pool", "--second-opinion", "0.5", "--of", "machines", "--branch", "second"),
    ):
        proc = labelpool(repo, *args, env=env)
        assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    return definition.load(repo, "minilm").identity


def _second_opinion_docs(repo: Path) -> dict[tuple[str, str], int | None]:
    """(question, document) of the second-opinion batch -> the machine's grade of it."""
    out: dict[tuple[str, str], int | None] = {}
    for path in sorted((repo / "labels").glob("*.yaml")):
        data = yamlfile.load_fast(path)
        for batch in data.get("pending") or ():
            if batch.get("task") != "second-opinion":
                continue
            label = label_from_data(data)
            for entry in batch["docs"]:
                (machine,) = [v for v in record(label, entry["doc"]) if v.kind == MACHINE]
                out[(data["id"], entry["doc"])] = grade_of(label, machine.verdict)
    return out


def _docs_in(body: Any) -> list[tuple[str, dict[str, Any]]]:
    """(question, document object) of every document of a page answer (state, question)."""
    if not isinstance(body, dict):
        return []
    questions = body.get("questions") or ([body] if "docs" in body else [])
    return [(q["qid"], d) for q in questions for d in q.get("docs", ())]


def test_a_person_rejudges_the_machines_documents_blind_in_the_page(tmp_path: Path) -> None:
    repo = committed_example(tmp_path)
    env = {**os.environ, "LABELPOOL_CACHE_DIR": str(tmp_path / "cache")}
    identity = _machine_judged(repo, env)
    digits = identity.split("@sha256:")[1]
    asked = _second_opinion_docs(repo)
    assert 2 <= len(asked) <= 6
    truth = _truth(repo)
    git(repo, "config", "user.name", PERSON_NAME)
    git(repo, "config", "user.email", PERSON_EMAIL)

    bodies: list[tuple[str, bytes]] = []
    given: dict[tuple[str, str], str] = {}
    server = start_server(repo, env=env)
    try:
        with browser() as chrome:
            page = chrome.new_page(viewport={"width": 1280, "height": 800})
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))

            def keep(route: Any) -> None:
                answer = route.fetch()
                bodies.append((route.request.url, answer.body()))
                route.fulfill(response=answer)

            page.route("**/*", keep)
            page.goto(server.url)
            page.wait_for_selector("body[data-ready='1']")
            for _ in range(len(asked)):
                qid, doc = current(page)
                assert (qid, doc) in asked
                assert page.inner_text("#doc-status") == "pending"  # not the machine's
                assert doc not in page.inner_text("#relevant-box")
                dom = page.content()
                assert identity not in dom and digits not in dom and "machine" not in dom
                key = str(min(truth.get((qid, doc), 0), 2))
                given[(qid, doc)] = key
                press(page, key)
            assert sorted(given) == sorted(asked)
            page.click("#commit-button")
            page.wait_for_function("() => document.body.dataset.busy !== '1'")
            assert not errors
            page.close()
    finally:
        server.stop()

    # blind: no answer of the server named the machine or held its verdict
    assert any("/api/state" in url for url, _ in bodies)
    for url, raw in bodies:
        assert identity.encode() not in raw and digits.encode() not in raw, url
        if "/api/" not in url:
            continue
        for qid, d in _docs_in(json.loads(raw)):
            assert "verdicts" not in d  # the record is for an adjudicator only
            # a verdict shown is the person's own, given in this page; else none
            assert d["verdict"] is None or d["verdict"] == VERDICT_OF_KEY[given[(qid, d["doc"])]]

    assert git(repo, "log", "-1", "--format=%an <%ae>") == f"{PERSON_NAME} <{PERSON_EMAIL}>\n"
    assert git(repo, "status", "--porcelain") == ""
    proc = labelpool(repo, "merge", env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    # the label files record both verdicts, each with its judge and kind
    person = f"{PERSON_NAME} <{PERSON_EMAIL}>"
    for (qid, doc), machine_grade in asked.items():
        label = label_from_data(yamlfile.load_fast(repo / "labels" / f"{qid}.yaml"))
        kept = {(v.judge, v.kind, v.verdict) for v in record(label, doc)}
        key = given[(qid, doc)]
        assert (person, PERSON, VERDICT_OF_KEY[key]) in kept, kept
        (machine,) = [v for v in record(label, doc) if v.kind == MACHINE]
        assert machine.judge == identity and grade_of(label, machine.verdict) == machine_grade
        assert len(kept) == 2
        assert label.gain.get(doc, 0) == int(key)  # the person's verdict counts

    # agreement pairs the person and the machine on exactly these documents
    proc = labelpool(
        repo, "agreement", "--judges", "machine:minilm,people", "--format", "json", env=env
    )
    assert proc.returncode == 0, proc.stderr
    (pair,) = json.loads(proc.stdout)["pairs"]
    assert pair["judges"] == [identity, "people"]
    assert pair["documents"] == len(asked)
