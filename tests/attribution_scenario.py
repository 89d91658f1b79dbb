"""Real git histories of label-like files, for the attribution tests.

:func:`random_history` builds, from a seed, a history of a few files under ``labels/`` made of
lines from a small alphabet (repeated lines make diffs ambiguous, as verdict lines are):
commits by several authors, some with ``Co-authored-by:`` trailers (duplicates, other case,
the author's own address), branches merged with a merge commit (conflicts resolved by hand:
evil merges), branches rebased (cherry-picked), reformatting commits listed in
``.git-blame-ignore-revs``, files created, deleted and renamed, and uncommitted edits.
:func:`blame_truth` is the reference: ``git blame`` of every line plus its commit's trailers.
"""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

from labelpool import gitio
from labelpool.workflows.audit import attribution

AUTHORS = [
    ("Alice Judge", "alice@example.invalid"),
    ("Bob Reviewer", "bob@example.invalid"),
    ("Carol Ünïcode", "carol@example.invalid"),
    ("dave", "dave@example.invalid"),
]
WORDS = ["  - {doc: a, verdict: null}", "  - {doc: a, verdict: 1}", "  - b", "  - c", "x: 1", ""]


def git(
    repo: Path,
    *args: str,
    author: tuple[str, str] | None = None,
    check: bool = True,
    input_text: str | None = None,
) -> str:
    env = dict(os.environ)
    env.update(GIT_COMMITTER_NAME="Runner", GIT_COMMITTER_EMAIL="runner@example.invalid")
    if author is not None:
        env.update(GIT_AUTHOR_NAME=author[0], GIT_AUTHOR_EMAIL=author[1])
    proc = subprocess.run(
        ["git", *args],
        cwd=repo,
        env=env,
        input=input_text,
        capture_output=True,
        text=True,
        check=False,
    )
    if check and proc.returncode != 0:
        raise AssertionError(f"git {args}: {proc.stderr}")
    return proc.stdout


def init(repo: Path) -> None:
    (repo / "labels").mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.name", "Runner")
    git(repo, "config", "user.email", "runner@example.invalid")
    git(repo, "config", "commit.gpgsign", "false")
    git(repo, "config", "merge.conflictstyle", "merge")


def commit(repo: Path, message: str, author: tuple[str, str]) -> str:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--allow-empty", "-m", message, author=author)
    return git(repo, "rev-parse", "HEAD").strip()


def trailer_block(rng: random.Random, author: tuple[str, str]) -> str:
    if rng.random() < 0.5:
        return ""
    lines = []
    for _ in range(rng.randint(1, 3)):
        name, email = rng.choice(AUTHORS)
        if rng.random() < 0.3:
            email = email.upper()
        lines.append(f"Co-authored-by: {name} <{email}>")
    if rng.random() < 0.2:
        lines.append(f"Co-authored-by: {author[0]} <{author[1]}>")
    return "\n\n" + "\n".join(lines)


def _edit(rng: random.Random, lines: list[str]) -> list[str]:
    lines = list(lines)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        i = rng.randint(0, len(lines))
        if op < 0.4 or not lines:
            lines.insert(i, rng.choice(WORDS))
        elif op < 0.7:
            lines[min(i, len(lines) - 1)] = rng.choice(WORDS)
        else:
            del lines[min(i, len(lines) - 1)]
    return lines


def _files(repo: Path) -> list[Path]:
    return sorted((repo / "labels").glob("*.yaml"))


def _change(repo: Path, rng: random.Random) -> None:
    files = _files(repo)
    roll = rng.random()
    if not files or roll < 0.1:
        name = repo / "labels" / f"f{rng.randint(0, 5)}.yaml"
        name.write_text("".join(w + "\n" for w in _edit(rng, [])), encoding="utf-8")
        return
    path = rng.choice(files)
    if roll < 0.14 and len(files) > 1:
        path.unlink()
        return
    if roll < 0.18:
        target = repo / "labels" / f"r{rng.randint(0, 5)}.yaml"
        if not target.exists():
            path.rename(target)
            return
    old = path.read_text(encoding="utf-8").split("\n")[:-1]
    path.write_text("".join(w + "\n" for w in _edit(rng, old)), encoding="utf-8")


def _work(repo: Path, rng: random.Random, n: int) -> list[str]:
    made = []
    for _ in range(n):
        author = rng.choice(AUTHORS)
        for _ in range(rng.randint(1, 2)):
            _change(repo, rng)
        made.append(commit(repo, f"edit{trailer_block(rng, author)}", author))
    return made


def random_history(repo: Path, seed: int, steps: int = 6) -> None:
    rng = random.Random(seed)
    init(repo)
    _work(repo, rng, 2)
    ignored: list[str] = []
    for step in range(steps):
        roll = rng.random()
        if roll < 0.35:
            _work(repo, rng, rng.randint(1, 2))
        elif roll < 0.6:  # a branch merged with a merge commit (conflicts resolved by hand)
            git(repo, "switch", "-q", "-c", f"side{step}")
            _work(repo, rng, rng.randint(1, 2))
            git(repo, "switch", "-q", "main")
            _work(repo, rng, rng.randint(0, 2))
            author = rng.choice(AUTHORS)
            result = git(repo, "merge", "--no-ff", "-q", "-m", "merge", f"side{step}", check=False)
            if "CONFLICT" in result or git(repo, "ls-files", "-u"):
                for path in _files(repo):
                    text = path.read_text(encoding="utf-8")
                    kept = [
                        ln
                        for ln in text.split("\n")[:-1]
                        if not ln.startswith(("<<<<<<<", "=======", ">>>>>>>"))
                    ]
                    if rng.random() < 0.5:
                        kept = _edit(rng, kept)
                    path.write_text("".join(w + "\n" for w in kept), encoding="utf-8")
                git(repo, "add", "-A")
                git(repo, "commit", "-q", "--no-edit", author=author, check=False)
            elif rng.random() < 0.3:  # an evil merge: amended with a change of its own
                _change(repo, rng)
                git(repo, "add", "-A")
                git(repo, "commit", "-q", "--amend", "--no-edit", author=author)
        elif roll < 0.8:  # a branch rebased onto main (its commits cherry-picked)
            base = git(repo, "rev-parse", "HEAD").strip()
            git(repo, "switch", "-q", "-c", f"topic{step}")
            picks = _work(repo, rng, rng.randint(1, 2))
            git(repo, "switch", "-q", "main")
            git(repo, "reset", "-q", "--hard", base)
            _work(repo, rng, rng.randint(0, 1))
            for sha in picks:
                git(repo, "cherry-pick", "--allow-empty", sha, check=False)
                if (repo / ".git" / "CHERRY_PICK_HEAD").exists():  # a conflict: leave it out
                    git(repo, "cherry-pick", "--abort")
        else:  # a reformatting commit, listed in .git-blame-ignore-revs
            for path in _files(repo):
                text = path.read_text(encoding="utf-8")
                path.write_text(text.replace("verdict: 1", "verdict: '1'"), encoding="utf-8")
            sha = commit(repo, "reformat", ("Format Bot", "bot@example.invalid"))
            ignored.append(sha)
            (repo / ".git-blame-ignore-revs").write_text(
                "# bulk reformatting\n" + "".join(s + "\n" for s in ignored), encoding="utf-8"
            )
            commit(repo, "ignore the reformat", ("Format Bot", "bot@example.invalid"))
    if rng.random() < 0.6:  # uncommitted edits
        _change(repo, rng)


Answer = dict[str, dict[int, attribution.Author | None] | str]


def blame_truth(repo: Path) -> Answer:
    """path -> line -> ``git blame``'s author with the commit's trailers (None: uncommitted;
    ``"unreadable"``: blame refuses the file, e.g. one not in HEAD)."""
    per_line: dict[str, dict[int, str]] = {}
    unreadable: Answer = {}
    for path in _files(repo):
        rel = path.relative_to(repo).as_posix()
        try:
            per_line[rel] = {b.line: b.commit for b in gitio.blame(repo, rel)}
        except gitio.GitError:
            unreadable[rel] = "unreadable"
    authors = attribution.authors_of(repo, (c for v in per_line.values() for c in v.values()))
    truth: Answer = {
        p: {n: authors.get(c) for n, c in lines.items()} for p, lines in per_line.items()
    }
    return truth | unreadable


def walk_answer(repo: Path) -> Answer:
    wanted: dict[str, list[int]] = {}
    for path in _files(repo):
        data = path.read_bytes()
        n = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
        wanted[path.relative_to(repo).as_posix()] = list(range(1, n + 1))
    result = attribution.attribute(repo, "labels", wanted)
    out: Answer = {}
    for p, lines in wanted.items():
        if p in result.unreadable:
            out[p] = "unreadable"
            continue
        found: dict[int, attribution.Author | None] = {}
        out[p] = found
        for n in lines:
            if n in result.uncommitted.get(p, ()):
                found[n] = None
            else:
                found[n] = result.lines[p][n]
    return out


# --- the pooled label repository of the merge tests, judged through GitHub-like commits --------

RD = "labels/returns-damaged.yaml"
CO = "labels/cancel-order.yaml"
RD_DOCS = ("faq-shipping#damaged", "policy-returns-v2#sec-2", "tenant-acme#returns")
CO_DOCS = ("no", "1239")
RUNNER = ("Runner", "runner@example.invalid")


def pooled_repo(root: Path) -> Path:
    """pool_scenario's repository with a batch of ``a`` and ``b`` at depth 3 on its branch
    (five documents: three in returns-damaged, two in cancel-order)."""
    from pool_scenario import cli, make_repo

    repo = make_repo(root)
    assert cli(repo, "pool", "a", "b", "--depth", "3") == 0
    return repo


def set_verdict(repo: Path, rel: str, doc: str, verdict: str) -> None:
    path = repo / rel
    text = path.read_text(encoding="utf-8")
    doc_yaml = f"'{doc}'" if doc in ("no", "1239") else doc
    old = f"- {{doc: {doc_yaml}, verdict: null}}"
    assert text.count(old) == 1, (doc, text)
    path.write_text(text.replace(old, f"- {{doc: {doc_yaml}, verdict: {verdict}}}"))


def commit_as(repo: Path, author: tuple[str, str], message: str) -> str:
    """Commit every tracked change as ``author`` (the committer stays Runner)."""
    git(repo, "commit", "-q", "-a", "--allow-empty", "-F", "-", author=author, input_text=message)
    return git(repo, "rev-parse", "HEAD").strip()


def merge_commits(repo: Path, since: str) -> list[tuple[str, list[str]]]:
    """``("Name <email>", [Co-authored-by values])`` of every commit after ``since``, oldest
    first, read with ``git log --format=%(trailers:key=Co-authored-by)``."""
    out = git(
        repo,
        "log",
        "--reverse",
        "--format=%an <%ae>%x00%(trailers:key=Co-authored-by,valueonly,separator=%x1f)%x1e",
        f"{since}..HEAD",
    )
    commits = []
    for record in out.split("\x1e"):
        record = record.strip("\n")
        if record:
            who, _, trailers = record.partition("\x00")
            commits.append((who, [t for t in trailers.split("\x1f") if t]))
    return commits


def snapshot(repo: Path) -> dict[str, bytes]:
    """Every file of the work tree and of ``.git/labelpool`` but the repository lock's (what
    a refused command must leave as it was), with ``HEAD`` and the branch."""
    files = {
        str(p.relative_to(repo)): p.read_bytes()
        for p in sorted(repo.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(repo).parts[:1]
    }
    scratch = (repo / ".git" / "labelpool").rglob("*")
    files[".git/labelpool"] = str(sorted(p for p in scratch if p.name != "lock")).encode()
    files["HEAD"] = git(repo, "rev-parse", "HEAD").encode()
    files["index"] = (repo / ".git" / "index").read_bytes()
    return files


def lp(repo: Path, *args: str) -> int:
    """``labelpool ARGS --repo REPO`` in this process (output through capsys)."""
    from pool_scenario import cli

    return cli(repo, *args)


def head(repo: Path) -> str:
    return git(repo, "rev-parse", "HEAD").strip()
