"""Data loss, ``merge``: killed at every git call and every write, on a full disk, with the
branch moved behind its back, with a journal left in every state, with label files changed
beyond verdicts. Each case asserts the files byte for byte and the commits author for author.

0.1.0 wrote one judge's files, ``git add``-ed and committed them, then the next judge's; the
issue measured that "killed before one of its git calls and rerun, 7 of 41 kill points credited
verdicts to the wrong judge", and `.tmp` files stayed behind.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from faults import (
    REAL_GIT,
    copy_repo,
    disk_sweep,
    git_wrapper,
    head,
    judged_repo,
    kill_matrix,
    run,
    set_verdict,
    tree_state,
)

MERGE = ("merge", "--partial")
RD = "labels/returns-damaged.yaml"
CO = "labels/cancel-order.yaml"
CAROL = "Carol Second <carol@example.invalid>"  # Alice's co-author (a Co-authored-by trailer)


def git(repo: Path, *args: str, env: dict[str, str] | None = None) -> str:
    full = dict(os.environ)
    full.update(env or {})
    proc = subprocess.run(
        [REAL_GIT, *args], cwd=repo, capture_output=True, text=True, env=full, check=False
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The judged scenario, built once; each test works on a copy."""
    return judged_repo(tmp_path_factory.mktemp("judged") / "repo")


@pytest.fixture(scope="module")
def merged(judged: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The state an uninterrupted ``merge --partial`` leaves."""
    ref = copy_repo(judged, tmp_path_factory.mktemp("merged") / "repo")
    done = run(ref, *MERGE)
    assert done.code == 0, done.err
    return tree_state(ref, head(judged))


def test_merge_killed_at_every_git_call_reruns_to_the_same_commits(
    judged: Path, merged: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0: killed before one of its git calls and rerun, 7 of 41 kill points credited
    verdicts to the wrong judge (one judge's verdicts folded into the next judge's commit)."""
    points = kill_matrix(tmp_path, judged, MERGE, merged, "git")
    assert points >= 15  # blame, objects, update-ref, index: every one was a kill point
    batch = _batch(judged)
    assert merged["log"] == [
        "Bob Reviewer <bob@example.invalid>|Runner <runner@example.invalid>|"
        f"labelpool merge: 2 verdicts by Bob Reviewer ({batch})|",
        "Alice Judge <alice@example.invalid>|Runner <runner@example.invalid>|"
        f"labelpool merge: 2 verdicts by Alice Judge ({batch})|{CAROL}",
    ]


def test_merge_killed_at_every_write_reruns_to_the_same_commits(
    judged: Path, merged: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0: a kill between two judges' writes left folded verdicts uncommitted, and the
    next merge committed them as the next judge's; a kill inside a write left a `.tmp` file
    in labels/."""
    points = kill_matrix(tmp_path, judged, MERGE, merged, "write")
    assert points == 6  # two staged files, the journal, the reserve, two moves into labels/


def test_merge_no_commit_killed_at_every_write_converges(judged: Path, tmp_path: Path) -> None:
    """0.1.0: `merge --no-commit` killed mid-way left `.tmp` files beside the label files."""
    ref = copy_repo(judged, tmp_path / "ref")
    assert run(ref, "merge", "--partial", "--no-commit").code == 0
    want = tree_state(ref, head(judged))
    assert want["log"] == [] and "M labels/returns-damaged.yaml" in str(want["status"])
    points = kill_matrix(tmp_path, judged, ("merge", "--partial", "--no-commit"), want, "write")
    assert points == 2


def test_merge_as_the_disk_fills_up_is_all_or_nothing(
    judged: Path, merged: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0, on a tmpfs with 28 to 44 KiB free: Alice's commit made, then Bob's `git commit`
    failed (`fatal: unable to write loose object file` / `cannot update ref`), exit 1, Bob's
    folded files left staged and uncommitted: half merged, and the next merge (with space)
    had nothing left to credit to Bob."""
    codes = disk_sweep(tmp_path, judged, MERGE, merged)
    assert codes[0] == 1 and codes[-1] == 0 and len(codes) >= 3


def test_branch_moved_during_merge_is_refused(judged: Path, tmp_path: Path) -> None:
    """0.1.0: `git commit` on top of whatever HEAD had become: a commit made meanwhile by
    someone else became the parent of the judges' commits, silently."""
    wrapper = git_wrapper(tmp_path / "bin")
    probe = copy_repo(judged, tmp_path / "probe")
    calls = run(probe, *MERGE, wrapper=wrapper).git_log
    at = next(i for i, c in enumerate(calls, 1) if c.startswith("update-ref"))
    repo = copy_repo(judged, tmp_path / "repo")
    base = head(repo)
    before = tree_state(repo, base)
    out = run(
        repo,
        *MERGE,
        wrapper=wrapper,
        git_run_at=at,
        git_run='"$REAL_GIT" commit -q --allow-empty -m "someone else"',
    )
    now = head(repo)
    assert out.code == 1
    branch = before["branch"]
    assert out.err == (
        f"error: {branch} moved during merge (was {base}, now {now}); nothing changed; "
        "run merge again\n"
    )
    after = tree_state(repo, base)
    assert after["files"] == before["files"]
    assert after["log"] == [
        "Runner <runner@example.invalid>|Runner <runner@example.invalid>|someone else|"
    ]
    assert after["labelpool_dir"] == []  # no journal, no staged file
    assert run(repo, *MERGE).code == 0  # run merge again: it goes through


def _killed_after(judged: Path, repo: Path, tmp_path: Path, call: str) -> None:
    """Kill ``merge`` at its last git call starting with ``call``."""
    wrapper = git_wrapper(tmp_path / "bin")
    probe = copy_repo(judged, tmp_path / "probe")
    calls = run(probe, *MERGE, wrapper=wrapper).git_log
    at = max(i for i, c in enumerate(calls, 1) if c.startswith(call))
    assert run(repo, *MERGE, wrapper=wrapper, kill_git=at).code == -9


def test_journal_with_branch_at_new_is_finished(
    judged: Path, merged: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0 had no journal: a merge killed after its first commit left the second judge's
    folded verdicts in the working tree, and the next merge committed nothing for them."""
    repo = copy_repo(judged, tmp_path / "repo")
    _killed_after(judged, repo, tmp_path, "update-index -z --index-info")
    assert (repo / ".git" / "labelpool" / "merge.json").is_file()
    assert git(repo, "rev-parse", "HEAD").strip() != head(judged)
    again = run(repo, *MERGE)
    assert again.code == 0
    assert "finished the merge a kill interrupted (.git/labelpool/merge.json)" in again.err
    assert "nothing to merge" in again.out
    assert tree_state(repo, head(judged)) == merged


def test_journal_with_branch_at_old_is_discarded(
    judged: Path, merged: dict[str, object], tmp_path: Path
) -> None:
    """0.1.0 had no journal; killed before its first `git commit` it left files folded for
    every judge, and the rerun committed them all as the first judge."""
    repo = copy_repo(judged, tmp_path / "repo")
    _killed_after(judged, repo, tmp_path, "update-ref")
    journal = repo / ".git" / "labelpool" / "merge.json"
    assert journal.is_file() and head(repo) == head(judged)
    assert tree_state(repo, head(judged))["files"] == tree_state(judged, head(judged))["files"]
    again = run(repo, *MERGE)
    assert again.code == 0 and "finished" not in again.err
    assert not journal.exists()
    assert tree_state(repo, head(judged)) == merged


def test_journal_with_branch_elsewhere_names_journal_and_paths(
    judged: Path, tmp_path: Path
) -> None:
    """0.1.0: no journal; a rerun after someone moved the branch merged on top silently."""
    repo = copy_repo(judged, tmp_path / "repo")
    _killed_after(judged, repo, tmp_path, "update-index -z --index-info")
    git(repo, "reset", "-q", "--soft", "HEAD~1")  # the branch is neither OLD nor NEW now
    at = head(repo)
    before = tree_state(repo, head(judged))
    out = run(repo, *MERGE)
    journal = repo / ".git" / "labelpool" / "merge.json"
    assert out.code == 1
    assert out.err.startswith(f"error: {journal}: an interrupted merge cannot be finished: ")
    assert f"is at {at}, neither {head(judged)} nor " in out.err
    assert f"its paths: {CO}, {RD}. Check them, then delete the journal\n" in out.err
    assert tree_state(repo, head(judged)) == before and journal.is_file()


def test_journal_with_a_path_changed_since_names_it(judged: Path, tmp_path: Path) -> None:
    """0.1.0: no journal; a file edited between the kill and the rerun was committed under
    the next judge's name."""
    repo = copy_repo(judged, tmp_path / "repo")
    _killed_after(judged, repo, tmp_path, "update-index -z --index-info")
    (repo / CO).write_text((repo / CO).read_text() + "# an edit\n")
    before = tree_state(repo, head(judged))
    out = run(repo, *MERGE)
    assert out.code == 1
    assert f"an interrupted merge cannot be finished: files changed since: {CO}; " in out.err
    assert tree_state(repo, head(judged)) == before


def test_unreadable_journal_is_named(judged: Path, tmp_path: Path) -> None:
    """0.1.0: no journal (nothing to read)."""
    repo = copy_repo(judged, tmp_path / "repo")
    journal = repo / ".git" / "labelpool" / "merge.json"
    journal.parent.mkdir(exist_ok=True)
    journal.write_text("{not json")
    out = run(repo, *MERGE)
    assert out.code == 1
    assert out.err.startswith(f"error: {journal}: cannot read this journal of an interrupted ")
    assert head(repo) == head(judged)


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text().splitlines(), 1) if needle in ln)


def test_label_edited_beyond_verdicts_is_refused(judged: Path, tmp_path: Path) -> None:
    """0.1.0: an uncommitted edit of a label file (here a judged id added by hand) was folded
    and committed under the first judge's name."""
    repo = copy_repo(judged, tmp_path / "repo")
    path = repo / RD
    path.write_text(
        path.read_text().replace(
            "  - handbook#returns\n", "  - handbook#returns\n  - forged#1\n", 1
        )
    )
    line = _line_of(path, "forged#1")
    before = tree_state(repo, head(repo))
    out = run(repo, *MERGE)
    assert out.code == 1
    assert out.err == (
        f"error: {path}:{line}:1: changed since the last commit beyond verdicts; commit or "
        "undo that change first (merge commits uncommitted verdicts only)\n"
    )
    assert tree_state(repo, head(repo)) == before


def test_staged_change_beyond_verdicts_is_refused(judged: Path, tmp_path: Path) -> None:
    """0.1.0: `git add` of the folded file replaced the staged change with the working
    tree's text: the staged edit was lost without a word."""
    repo = copy_repo(judged, tmp_path / "repo")
    path = repo / CO
    original = path.read_text()
    path.write_text(original.replace("question: How do I cancel an order?", "question: Forged?"))
    git(repo, "add", CO)
    path.write_text(original)  # the working tree is as committed; the index is not
    before = tree_state(repo, head(repo))
    out = run(repo, *MERGE)
    assert out.code == 1
    assert out.err.startswith(f"error: {path}:2:1: changed since the last commit beyond ")
    assert tree_state(repo, head(repo)) == before


def test_verdict_changed_on_a_committed_line_is_refused_beyond_the_value(
    judged: Path, tmp_path: Path
) -> None:
    """0.1.0: an uncommitted change of a pending entry's document id was folded as a verdict
    for another document, attributed to whoever ran the merge."""
    repo = copy_repo(judged, tmp_path / "repo")
    path = repo / CO
    path.write_text(
        path.read_text().replace("{doc: '1239', verdict: null}", "{doc: '1240', verdict: relevant}")
    )
    line = _line_of(path, "'1240'")
    out = run(repo, *MERGE)
    assert out.code == 1
    assert out.err.startswith(f"error: {path}:{line}:1: changed since the last commit beyond ")


def test_uncommitted_verdict_is_merged_as_the_current_user(judged: Path, tmp_path: Path) -> None:
    """0.1.0: the same (an uncommitted verdict was attributed to the current git user); kept."""
    repo = copy_repo(judged, tmp_path / "repo")
    set_verdict(repo / CO, "1239", "irrelevant")
    base = head(repo)
    out = run(repo, "merge")
    assert out.code == 0, out.err
    log = tree_state(repo, base)["log"]
    assert log == [
        "Bob Reviewer <bob@example.invalid>|Runner <runner@example.invalid>|"
        "labelpool merge: 2 verdicts by Bob Reviewer (" + _batch(judged) + ")|",
        "Alice Judge <alice@example.invalid>|Runner <runner@example.invalid>|"
        "labelpool merge: 2 verdicts by Alice Judge (" + _batch(judged) + ")|" + CAROL,
        "Runner <runner@example.invalid>|Runner <runner@example.invalid>|"
        "labelpool merge: 1 verdict by Runner (" + _batch(judged) + ")|",
    ]
    assert git(repo, "status", "--porcelain") == ""


def _batch(repo: Path) -> str:
    text = (repo / RD).read_text()
    return text.split("  - batch: '", 1)[1].split("'", 1)[0]


def test_pending_uncommitted_verdict_is_committed_as_the_current_user(
    judged: Path, tmp_path: Path
) -> None:
    """0.1.0: an uncommitted verdict that stayed pending (a duplicate of a document not
    judged relevant) went into the next judge's commit, and blame credited that judge."""
    repo = copy_repo(judged, tmp_path / "repo")
    set_verdict(repo / CO, "1239", "{duplicate-of: faq-orders#late}")
    base = head(repo)
    out = run(repo, *MERGE)
    assert out.code == 0, out.err
    blame = git(repo, "blame", "--line-porcelain", CO)
    author = ""
    for line in blame.splitlines():
        if line.startswith("author "):
            author = line[len("author ") :]
        elif line.startswith("\t") and "'1239'" in line:
            assert "duplicate-of: faq-orders#late" in line
            assert author == "Runner"
            break
    else:
        raise AssertionError("the pending line went")
    log = tree_state(repo, base)["log"]
    assert isinstance(log, list)
    assert [entry.split("|")[0] for entry in log] == [
        "Bob Reviewer <bob@example.invalid>",
        "Alice Judge <alice@example.invalid>",
        "Runner <runner@example.invalid>",
    ]
    assert "labelpool merge: 0 verdicts by Runner|" in log[2]


def test_untouched_paths_keep_their_index_and_tree(judged: Path, tmp_path: Path) -> None:
    """0.1.0: `git commit -- paths` kept other staged changes, but the rerun after a kill
    committed every folded file as one judge; here: a staged and an unstaged change of paths
    merge does not touch stay exactly as they were."""
    repo = copy_repo(judged, tmp_path / "repo")
    (repo / "runs" / "a.trec").write_text("staged change\n")
    git(repo, "add", "runs/a.trec")
    login = repo / "labels" / "login.yaml"
    login.write_text(login.read_text() + "# an unstaged note\n")
    status = git(repo, "status", "--porcelain")
    out = run(repo, *MERGE)
    assert out.code == 0, out.err
    assert git(repo, "status", "--porcelain") == status
    assert login.read_text().endswith("# an unstaged note\n")
    assert git(repo, "diff", "--cached", "--name-only") == "runs/a.trec\n"


def test_label_file_not_committed_is_refused(judged: Path, tmp_path: Path) -> None:
    """0.1.0: a new label file never committed was merged and committed whole under the
    current user's name, its text unreviewed."""
    repo = copy_repo(judged, tmp_path / "repo")
    new = repo / "labels" / "new-question.yaml"
    text = (repo / CO).read_text().replace("id: cancel-order", "id: new-question")
    new.write_text(text)
    out = run(repo, *MERGE)
    assert out.code == 1
    assert out.err == (
        f"error: {new}:1:1: not committed yet: commit a label file before merging its verdicts\n"
    )


def test_detached_head_merge_moves_head(judged: Path, tmp_path: Path) -> None:
    """0.1.0: the same commits on a detached HEAD; the branch named in messages is HEAD."""
    repo = copy_repo(judged, tmp_path / "repo")
    base = head(repo)
    git(repo, "switch", "-q", "--detach")
    out = run(repo, *MERGE)
    assert out.code == 0, out.err
    assert git(repo, "rev-parse", "HEAD~2").strip() == base
    assert git(repo, "status", "--porcelain") == ""


def test_merge_leaves_no_temp_file(judged: Path, tmp_path: Path) -> None:
    """0.1.0: a merge killed inside a write left `.returns-damaged.yaml.XXXX.tmp` in
    labels/ (the atomic writer's named temporary file)."""
    repo = copy_repo(judged, tmp_path / "repo")
    for n in (1, 4):
        assert run(repo, *MERGE, kill_write=n).code == 137
        assert sorted(p.name for p in (repo / "labels").iterdir()) == [
            "cancel-order.yaml",
            "login.yaml",
            "returns-damaged.yaml",
        ]
    assert run(repo, *MERGE).code == 0
    assert not (repo / ".git" / "labelpool" / "merge.stage").exists()
    assert not (repo / ".git" / "labelpool" / "merge.json").exists()
