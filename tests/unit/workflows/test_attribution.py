"""workflows/attribution: the one ``git log -p`` walk gives every line the (author, co-authors)
``git blame`` plus the commit's trailers give it, on real git histories: random ones (rebases,
merge commits with conflicts resolved by hand, evil merges, co-authors, ignored reformatting
commits, renames, uncommitted edits) and constructed ones that pin which files the walk answers
itself and which fall back to ``git blame``."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from attribution_scenario import (
    blame_truth,
    commit,
    git,
    init,
    random_history,
    walk_answer,
)
from labelpool import gitio
from labelpool.workflows.audit import attribution

ALICE = ("Alice Judge", "alice@example.invalid")
BOB = ("Bob Reviewer", "bob@example.invalid")
BOT = ("Format Bot", "bot@example.invalid")


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_walk_equals_blame_on_random_histories(tmp_path_factory, seed: int) -> None:  # type: ignore[no-untyped-def]
    repo = tmp_path_factory.mktemp("history") / "repo"
    random_history(repo, seed, steps=10)
    assert walk_answer(repo) == blame_truth(repo)


def test_the_walk_answers_most_files_itself_on_random_histories(tmp_path: Path) -> None:
    """Guard against a walk that always falls back (which would make the property trivial)."""
    asked = blamed = 0
    for seed in range(6):
        repo = tmp_path / f"r{seed}"
        random_history(repo, seed, steps=10)
        files = sorted(p.relative_to(repo).as_posix() for p in (repo / "labels").glob("*.yaml"))
        result = attribution.attribute(repo, "labels", {f: [1] for f in files})
        asked += len(files)
        blamed += len(result.blamed)
        assert walk_answer(repo) == blame_truth(repo)
    assert asked >= 12 and blamed <= asked // 2, (asked, blamed)


def write(repo: Path, name: str, lines: list[str]) -> None:
    (repo / "labels" / name).write_text("".join(ln + "\n" for ln in lines), encoding="utf-8")


def answer(
    repo: Path, name: str = "q.yaml"
) -> tuple[dict[int, tuple[str, tuple[tuple[str, str], ...]] | None], frozenset[str]]:
    data = (repo / "labels" / name).read_text(encoding="utf-8").splitlines()
    rel = f"labels/{name}"
    result = attribution.attribute(repo, "labels", {rel: range(1, len(data) + 1)})
    out: dict[int, tuple[str, tuple[tuple[str, str], ...]] | None] = {}
    for n in range(1, len(data) + 1):
        if n in result.uncommitted.get(rel, ()):
            out[n] = None
        else:
            a = result.lines[rel][n]
            out[n] = (a.name, a.co_authors)
    return out, result.blamed


def repo_with_base(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    init(repo)
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: null}", "  - {doc: b, verdict: null}"],
    )
    commit(repo, "pool", ("Pooler", "pool@example.invalid"))
    return repo


def test_linear_history_with_co_authors_is_answered_by_the_walk(tmp_path: Path) -> None:
    repo = repo_with_base(tmp_path)
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: null}"],
    )
    commit(
        repo,
        "a\n\nCo-authored-by: Zed <z@example.invalid>\nCo-authored-by: Amy <a@example.invalid>",
        BOB,
    )
    write(
        repo, "q.yaml", ["id: q", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: 0}"]
    )
    got, blamed = answer(repo)
    assert got == {
        1: ("Pooler", ()),
        2: ("Pooler", ()),
        3: ("Bob Reviewer", (("Amy", "a@example.invalid"), ("Zed", "z@example.invalid"))),
        4: None,
    }
    assert blamed == frozenset()
    assert walk_answer(repo) == blame_truth(repo)


def test_merge_commit_passes_lines_to_the_branch_that_wrote_them(tmp_path: Path) -> None:
    repo = repo_with_base(tmp_path)
    git(repo, "switch", "-q", "-c", "judging")
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: null}"],
    )
    commit(repo, "alice judges", ALICE)
    git(repo, "switch", "-q", "main")
    write(repo, "other.yaml", ["id: other"])
    commit(repo, "elsewhere", BOB)
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge pull request #1", "judging", author=BOB)
    got, blamed = answer(repo)
    assert got[3] == ("Alice Judge", ())
    assert blamed == frozenset()
    assert walk_answer(repo) == blame_truth(repo)


def test_rebased_commits_keep_their_authors(tmp_path: Path) -> None:
    repo = repo_with_base(tmp_path)
    git(repo, "switch", "-q", "-c", "judging")
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: null}"],
    )
    commit(repo, "alice judges", ALICE)
    git(repo, "switch", "-q", "main")
    write(repo, "other.yaml", ["id: other"])
    commit(repo, "elsewhere", BOB)
    git(repo, "switch", "-q", "judging")
    git(repo, "rebase", "-q", "main")
    got, blamed = answer(repo)
    assert got[3] == ("Alice Judge", ()) and blamed == frozenset()
    assert walk_answer(repo) == blame_truth(repo)


def test_a_verdict_line_changed_by_an_ignored_commit_falls_back_to_blame(tmp_path: Path) -> None:
    repo = repo_with_base(tmp_path)
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: null}"],
    )
    commit(repo, "alice judges", ALICE)
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: '1'}", "  - {doc: b, verdict: null}"],
    )
    fmt = commit(repo, "reformat\n\nCo-authored-by: Mallory <m@example.invalid>", BOT)
    (repo / ".git-blame-ignore-revs").write_text(f"{fmt}  # fmt\n", encoding="utf-8")
    commit(repo, "ignore the reformat", BOT)
    got, blamed = answer(repo)
    assert got[3] == ("Alice Judge", ()) and blamed == frozenset({"labels/q.yaml"})
    assert walk_answer(repo) == blame_truth(repo)


def test_an_ignored_commit_that_left_the_line_alone_is_walked_through(tmp_path: Path) -> None:
    repo = repo_with_base(tmp_path)
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: null}"],
    )
    commit(repo, "alice judges", ALICE)
    write(
        repo,
        "q.yaml",
        ["id: 'q'", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: null}"],
    )
    fmt = commit(repo, "reformat", BOT)
    (repo / ".git-blame-ignore-revs").write_text(f"{fmt}\n", encoding="utf-8")
    commit(repo, "ignore the reformat", BOT)
    rel = "labels/q.yaml"
    result = attribution.attribute(repo, "labels", {rel: [3]})
    assert result.lines[rel][3].name == "Alice Judge" and result.blamed == frozenset()


def test_an_evil_merge_falls_back_to_blame(tmp_path: Path) -> None:
    repo = repo_with_base(tmp_path)
    git(repo, "switch", "-q", "-c", "judging")
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: null}"],
    )
    commit(repo, "alice judges", ALICE)
    git(repo, "switch", "-q", "main")
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 0}", "  - {doc: b, verdict: null}"],
    )
    commit(repo, "bob judges", BOB)
    git(repo, "merge", "-q", "judging", check=False)
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 2}", "  - {doc: b, verdict: null}"],
    )
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--no-edit", author=("Carol Merger", "carol@example.invalid"))
    got, blamed = answer(repo)
    assert got[3] == ("Carol Merger", ()) and blamed == frozenset({"labels/q.yaml"})
    assert walk_answer(repo) == blame_truth(repo)


def test_a_renamed_file_falls_back_to_blame(tmp_path: Path) -> None:
    repo = repo_with_base(tmp_path)
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: null}"],
    )
    commit(repo, "alice judges", ALICE)
    git(repo, "mv", "labels/q.yaml", "labels/q2.yaml")
    commit(repo, "rename", BOB)
    got, blamed = answer(repo, "q2.yaml")
    assert got[3] == ("Alice Judge", ()) and blamed == frozenset({"labels/q2.yaml"})


def test_mailmap_names_as_blame_shows_them(tmp_path: Path) -> None:
    repo = repo_with_base(tmp_path)
    write(
        repo,
        "q.yaml",
        ["id: q", "docs:", "  - {doc: a, verdict: 1}", "  - {doc: b, verdict: null}"],
    )
    commit(repo, "alice judges", ("alice", "old@example.invalid"))
    (repo / ".mailmap").write_text("Alice Judge <alice@example.invalid> <old@example.invalid>\n")
    commit(repo, "mailmap", BOB)
    rel = "labels/q.yaml"
    author = attribution.attribute(repo, "labels", {rel: [3]}).lines[rel][3]
    assert (author.name, author.email) == ALICE
    assert walk_answer(repo) == blame_truth(repo)


def test_odd_file_names_are_read_from_quoted_diff_headers(tmp_path: Path) -> None:
    repo = repo_with_base(tmp_path)
    name = 'q ü "tab\t".yaml'
    write(repo, name, ["id: x", "  - {doc: a, verdict: null}"])
    commit(repo, "add", BOB)
    write(repo, name, ["id: x", "  - {doc: a, verdict: 1}"])
    commit(repo, "judge", ALICE)
    got, blamed = answer(repo, name)
    assert got == {1: ("Bob Reviewer", ()), 2: ("Alice Judge", ())} and blamed == frozenset()


def test_a_line_whose_text_starts_like_a_diff_header_is_content(tmp_path: Path) -> None:
    """An added line ``++ x`` prints as ``+++ x`` in the patch: it must not be read as a
    file header."""
    repo = repo_with_base(tmp_path)
    write(repo, "q.yaml", ["id: q", "++ b/labels/q.yaml", "-- a/x", "  - {doc: a, verdict: 1}"])
    commit(repo, "odd lines", ALICE)
    got, blamed = answer(repo)
    assert got == {n: ("Alice Judge", ()) for n in (2, 3, 4)} | {1: ("Pooler", ())}
    assert blamed == frozenset()
    assert walk_answer(repo) == blame_truth(repo)


def test_no_commit_yet_means_every_line_uncommitted(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    init(repo)
    write(repo, "q.yaml", ["id: q"])
    result = attribution.attribute(repo, "labels", {"labels/q.yaml": [1]})
    assert result.uncommitted == {"labels/q.yaml": frozenset({1})} and result.lines == {}


def test_co_authors_of_parses_trailers_like_interpret_trailers(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    init(repo)
    message = (
        "subject\n\nbody\n\n"
        "Signed-off-by: X <x@example.invalid>\n"
        "Co-authored-by: Zed <zed@example.invalid>\n"
        "CO-AUTHORED-BY: zed again <ZED@example.invalid>\n"
        "Co-authored-by: Me <me@example.invalid>\n"
        "Co-authored-by: no email\n"
        "Co-authored-by: Amy\n"
        " <amy@example.invalid>\n"
    )
    assert attribution.co_authors_of(message, "ME@example.invalid", repo) == (
        ("Amy", "amy@example.invalid"),
        ("Zed", "zed@example.invalid"),
    )
    assert gitio.is_shallow(repo) is False
