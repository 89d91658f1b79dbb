"""``labelpool judge`` in a real browser with two judges (issue 24): a batch for two judges
(``pool --judges 2``), Ana then Bo judge blind in the page (two servers, one after the other,
each with its own git identity), each page claims a seat with its first verdict and commits;
the batch branch is squash-merged by a third person, and ``merge`` on ``main`` credits every
verdict to its judge and lists the disputes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from judge_scenario import browser, current, open_page, press, start_server
from labelpool import yamlfile
from labelpool.cli import main
from labelpool.model import label_from_data
from labelpool.verdicts import disputed, record
from pool_scenario import git, make_repo

ANA = ("Ana Lopez", "ana@example.org")
BO = ("Bo Chen", "bo@example.org")


def _who(person: tuple[str, str]) -> str:
    return f"{person[0]} <{person[1]}>"


def _judge_all(chrome: Any, repo: Path, person: tuple[str, str], key: str) -> list[str]:
    """Judge every document the page serves ``person`` with ``key``; the statuses it showed."""
    git(repo, "config", "user.name", person[0])
    git(repo, "config", "user.email", person[1])
    server = start_server(repo)
    seen: list[str] = []
    try:
        page = open_page(chrome, server.url)
        for _ in range(5):
            seen.append(page.inner_text("#doc-status"))
            seen.append(page.inner_text("#relevant-box"))
            current(page)
            press(page, key)
        seen.append(page.inner_text("#progress"))
        page.click("#commit-button")
        page.wait_for_function("() => document.body.dataset.busy !== '1'")
        assert not page.errors
        page.close()
    finally:
        server.stop()
    return seen


def test_two_judges_blind_in_the_browser_then_a_squash_and_merge(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    assert main(["pool", "a", "b", "--depth", "3", "--judges", "2", "--repo", str(repo)]) == 0
    branch = git(repo, "symbolic-ref", "--short", "HEAD").strip()
    with browser() as chrome:
        ana = _judge_all(chrome, repo, ANA, "1")
        bo = _judge_all(chrome, repo, BO, "0")
    assert ana[:-1:2] == ["pending"] * 5
    assert "5 documents wait for another judge" in ana[-1]
    assert bo[:-1:2] == ["pending"] * 5  # Ana's verdicts are not shown to Bo
    assert not any("grade" in box for box in bo[1:-1:2])  # nor among the relevant ones
    assert _who(ANA) in git(repo, "log", "--format=%an <%ae>")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--squash", branch)
    git(repo, "-c", "user.name=Sam", "-c", "user.email=sam@example.org", "commit", "-qm", "PR")
    assert main(["merge", "--repo", str(repo)]) == 0
    label = label_from_data(yamlfile.load_fast(repo / "labels" / "returns-damaged.yaml"))
    docs = ("faq-shipping#damaged", "policy-returns-v2#sec-2", "tenant-acme#returns")
    for doc in docs:
        assert {(v.judge, v.verdict) for v in record(label, doc)} == {
            (_who(ANA), "relevant"),
            (_who(BO), "irrelevant"),
        }
    assert disputed(label) == frozenset(docs)
