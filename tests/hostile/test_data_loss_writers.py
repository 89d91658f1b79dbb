"""Data loss, the commands that write many files (``fmt``, ``import``, ``add``, ``init``):
killed at every write (``LABELPOOL_TEST_KILL_WRITE``), each file is old or new, no temporary
file is left, and a rerun completes the job; on a full disk: a clear error, exit 1, the file
as it was.

0.1.0's atomic writer used a named temporary file (``.NAME.XXXX.tmp``) in the target's folder:
a kill between its creation and ``os.replace`` left it behind; ``import`` rerun after a kill
refused the files the killed run had written ("N label file(s) exist already; nothing written
(use --force to overwrite)"), ``init`` refused the folder it had half filled ("folder is not
empty; use --force ...") and ``add`` refused its own file ("exists already").
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from faults import fill, mounted_tmpfs, run
from pool_scenario import LABELS, make_repo

QRELS = "".join(f"q{i} 0 doc-{i}-{j} {j % 3 - 1}\n" for i in range(3) for j in range(4))
QUERIES = "".join(f"q{i}\tQuestion number {i}?\n" for i in range(3))


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (hidden ones too, but ``.git``), by relative path."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(folder).parts
    }


def write_matrix(
    tmp: Path,
    setup: Callable[[Path], Path],
    args: Callable[[Path], tuple[str, ...]],
    repo_option: bool = True,
) -> int:
    """Kill the command at write 1, 2, ... (until a run outlives the last write): after each
    kill every file under the folder ``setup`` made is its old or its new content and none
    is added; the rerun exits 0 and leaves exactly what an uninterrupted run leaves."""

    def go(folder: Path, kill: int | None = None) -> int:
        return run(folder, *args(folder), kill_write=kill, repo_option=repo_option).code

    ref = setup(tmp / "ref")
    before = snapshot(ref)
    assert go(ref) == 0
    want = snapshot(ref)
    assert want != before
    n = 0
    while True:
        n += 1
        folder = setup(tmp / f"kill-{n}")
        code = go(folder, n)
        state = snapshot(folder)
        if code != 137:
            assert code == 0 and state == want
            return n - 1
        assert set(state) <= set(before) | set(want), (n, sorted(set(state) - set(want)))
        for name, data in state.items():
            assert data in (before.get(name), want.get(name)), (n, name, "torn")
        assert go(folder) == 0, n
        assert snapshot(folder) == want, n


def _unformatted(root: Path) -> Path:
    """The scenario's three labels with their lists out of order (fmt sorts them)."""
    labels = {}
    for qid, text in LABELS.items():
        lines = text.splitlines(keepends=True)
        i = lines.index("judged_ids:\n")
        j = i + 1
        while j < len(lines) and lines[j].startswith("  - "):
            j += 1
        lines[i + 1 : j] = reversed(lines[i + 1 : j])
        labels[qid] = "".join(lines) + "extra:   [b, a]\n"
    return make_repo(root, labels=labels, commit=False)


def test_fmt_killed_at_every_write_reruns_to_the_same_files(tmp_path: Path) -> None:
    """0.1.0: a kill inside a write left `.cancel-order.yaml.XXXX.tmp` in labels/; the rerun
    formatted the rest but the temporary file stayed (and validate then read it as a label:
    LP010 not a .yaml file)."""
    assert write_matrix(tmp_path, _unformatted, lambda r: ("fmt",)) == 3


def _import_setup(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n")
    (root / "labels").mkdir()
    (root.parent / f"{root.name}.qrels").write_text(QRELS)
    (root.parent / f"{root.name}.tsv").write_text(QUERIES)
    return root


def _import_args(root: Path) -> tuple[str, ...]:
    qrels, queries = root.parent / f"{root.name}.qrels", root.parent / f"{root.name}.tsv"
    return ("import", "trec", str(qrels), "--queries", str(queries), "--pool-date", "2026-01-02")


def test_import_killed_at_every_write_reruns_to_the_same_files(tmp_path: Path) -> None:
    """0.1.0: the rerun refused: "2 label file(s) exist already: ...; nothing written (use
    --force to overwrite)", exit 1, the import left half done."""
    assert write_matrix(tmp_path, _import_setup, _import_args) == 3


def test_import_still_refuses_a_file_with_other_content(tmp_path: Path) -> None:
    """0.1.0: the same refusal (exit 1); kept for a file the import would change."""
    root = _import_setup(tmp_path / "r")
    (root / "labels" / "q1.yaml").write_text("id: q1\nquestion: Mine?\n")
    out = run(root, *_import_args(root))
    assert out.code == 1
    assert out.err == (
        f"error: 1 label file(s) exist already: {root / 'labels' / 'q1.yaml'}; nothing written "
        "(use --force to overwrite)\n"
    )
    assert sorted(p.name for p in (root / "labels").iterdir()) == ["q1.yaml"]


def _add_setup(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text("[tool.labelpool]\nformat = 1\n")
    (root / "labels").mkdir()
    return root


def test_add_killed_then_rerun_creates_the_file(tmp_path: Path) -> None:
    """0.1.0: killed inside its write, add left `.where.yaml.XXXX.tmp` in labels/."""
    points = write_matrix(tmp_path, _add_setup, lambda r: ("add", "where", "Where is it?"))
    assert points == 1


def test_add_rerun_over_its_own_file_exits_0(tmp_path: Path) -> None:
    """0.1.0: `error: labels/where.yaml: exists already`, exit 1, for the file it had
    written itself before a kill."""
    root = _add_setup(tmp_path / "r")
    assert run(root, "add", "where", "Where   is it?").code == 0
    before = snapshot(root)
    again = run(root, "add", "where", "Where is it?")
    assert again.code == 0, again.err
    assert snapshot(root) == before
    other = run(root, "add", "where", "Another question?")
    assert other.code == 1
    assert other.err == f"error: {root / 'labels' / 'where.yaml'}: exists already\n"


def _init_setup(root: Path) -> Path:
    root.mkdir(parents=True)
    return root


def test_init_killed_at_every_write_reruns_to_the_same_files(tmp_path: Path) -> None:
    """0.1.0: the rerun refused: "folder is not empty; use --force to add the missing files",
    exit 2, the scaffold left half made (and a `.pyproject.toml.XXXX.tmp` after a kill inside
    a write)."""
    points = write_matrix(
        tmp_path, _init_setup, lambda r: ("init", str(r / "labels-repo")), repo_option=False
    )
    assert points == 7  # pyproject, schema, pre-commit, gitattributes, workflow, two .gitkeep


def test_init_still_refuses_a_folder_with_other_files(tmp_path: Path) -> None:
    """0.1.0: the same refusal (exit 2); kept for a folder holding anything init does not
    write."""
    target = tmp_path / "t"
    target.mkdir()
    (target / "notes.txt").write_text("mine\n")
    out = run(target, "init", str(target), repo_option=False)
    assert out.code == 2
    assert out.err == (
        f"error: {target}: folder is not empty; use --force to add the missing files "
        "(existing files are never overwritten)\n"
    )
    assert snapshot(target) == {"notes.txt": b"mine\n"}


def test_fmt_on_a_full_disk_keeps_the_file(tmp_path: Path) -> None:
    """0.1.0: exit 1 with `error: No space left on device`, naming no file."""
    with mounted_tmpfs(tmp_path / "mnt", "1m") as mnt:
        root = _unformatted(mnt / "repo")
        before = snapshot(root)
        fill(mnt)
        out = run(root, "fmt")
        assert out.code == 1
        assert re.fullmatch(
            rf"error: {re.escape(str(root / 'labels'))}/[a-z-]+\.yaml: No space left on device; "
            r"nothing changed; free some space, then run it again\n",
            out.err.splitlines(keepends=True)[-1],
        ), out.err
        (mnt / "filler").unlink()
        assert snapshot(root) == before
        assert run(root, "fmt").code == 0


def _corpus_setup(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text(
        '[tool.labelpool]\nformat = 1\ncorpus = "corpus/corpus.jsonl"\n'
    )
    (root.parent / f"{root.name}.trec").write_text(
        "".join(f"<DOC>\n<DOCNO>d{i}</DOCNO>\n<TEXT>text {i}</TEXT>\n</DOC>\n" for i in range(50))
    )
    return root


def test_import_corpus_killed_in_its_write_leaves_no_file(tmp_path: Path) -> None:
    """New in this version (0.1.0 had no ``import corpus``): the corpus file is written while
    the source is read, through the one atomic writer; a kill leaves no file and no temporary
    file, and the rerun writes it."""
    points = write_matrix(
        tmp_path,
        _corpus_setup,
        lambda r: ("import", "corpus", str(r.parent / f"{r.name}.trec"), "--format", "trec"),
    )
    assert points == 1
