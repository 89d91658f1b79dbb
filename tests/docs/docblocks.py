"""The documentation's code blocks, read and run as ``tests/docs/test_doc_blocks.py`` does.

Reading (:func:`read`): the fenced blocks of a markdown file, at column 0, and the markers
``<!-- doc-test: ... -->`` that steer them. ``sh``, ``bash`` and ``shell`` blocks run in bash;
``console`` blocks hold ``$ command`` lines, each followed by what it prints; ``python`` blocks
run in a fresh interpreter. A ``text`` block is the expected output of the block before it:
right after it (blank lines only between), or anywhere after it under an ``output`` marker.
Other languages (``yaml``, ``toml``, ``json``, no tag) are examples and are not run.

Running (:class:`Session`): one temporary folder per document, outside any git work tree,
with a fixed environment (see :func:`Session.start`). Blocks run in order in one shell
state: after each shell block its working folder and exported variables carry over to the
next block (a ``cd`` or ``export`` in a tutorial holds for the rest of it; plain shell
variables and functions do not).
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import labelpool

ROOT = Path(__file__).resolve().parents[2]
SHARED_DATA = ROOT.parent / "shared" / "data"
DOCUMENTS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))

# a fence's language -> how its block runs
RUNNABLE = {
    "sh": "shell",
    "bash": "shell",
    "shell": "shell",
    "console": "console",
    "python": "python",
}
DOC_KEYS = frozenset({"setup", "data"})
BLOCK_KEYS = frozenset({"skip", "skip-line", "reason", "exit", "interrupt", "output"})
SETUPS = frozenset({"example"})
# the example label repository shipped in this checkout, as `setup=example` copies it
EXAMPLE = ("pyproject.toml", "labels", "runs", "corpus", "schema", ".gitattributes", "judges")
SYSTEM_PATH = ("/usr/local/bin", "/usr/bin", "/bin")
BLOCK_TIMEOUT = 120.0  # seconds: a block still running then is killed and fails
IDENTITY = {
    "GIT_AUTHOR_NAME": "Ana Lopez",
    "GIT_AUTHOR_EMAIL": "ana@example.org",
    "GIT_COMMITTER_NAME": "Ana Lopez",
    "GIT_COMMITTER_EMAIL": "ana@example.org",
}

MARKER = re.compile(r"<!-- doc-test:(.*?)-->\s*")
FENCE = re.compile(r"```+")
# `python -m pip install ... && rest`: the install is dropped, the rest runs
INSTALL_PREFIX = re.compile(r"^(\s*)(?:python3? -m )?pip install [^&\n]*&&\s*")
INSTALL_LINE = re.compile(r"^\s*(?:python3? -m )?pip install [^&\n]*$")

# What varies from run to run, replaced in an expected block by a pattern of the same shape:
# dates and git timestamps; hexadecimal ids of 7 to 40 characters holding a digit (commit,
# blob and tree ids, abbreviated or not); mktemp's folder names.
VARIABLE = re.compile(
    r"(?P<stamp>(?<!\d)\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?: ?[+-]\d{2}:?\d{2}|Z)?)?)"
    r"|(?P<hex>(?<![0-9A-Za-z])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![0-9A-Za-z]))"
    r"|(?P<mktemp>tmp\.[A-Za-z0-9]{10}(?![A-Za-z0-9]))"
)


def shown_path(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else path.name


@dataclass
class Output:
    """An expected-output block: its text, and where its body sits in the document."""

    line: int
    start: int
    end: int
    body: str


@dataclass
class Block:
    doc: Path
    line: int  # of the opening fence, 1-based
    kind: str  # shell | console | python
    code: str
    attrs: dict[str, str]
    output: Output | None = None

    @property
    def where(self) -> str:
        return f"{shown_path(self.doc)}:{self.line}"

    @property
    def skipped(self) -> bool:
        return "skip" in self.attrs


@dataclass
class Document:
    path: Path
    text: str
    attrs: dict[str, str] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return shown_path(self.path)


def parse_marker(raw: str) -> dict[str, str]:
    """``key=value key="a value" flag`` -> {key: value, flag: ""}."""
    attrs: dict[str, str] = {}
    for token in shlex.split(raw):
        key, _, value = token.partition("=")
        attrs[key] = value
    return attrs


def read(path: Path) -> Document:
    """The document's runnable blocks, their expected outputs and markers; every breach of
    the conventions is listed in ``problems`` (the harness's own test fails on any)."""
    text = path.read_text(encoding="utf-8")
    doc = Document(path, text)
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    pending: dict[str, str] | None = None
    pending_line = 0
    last: Block | None = None
    adjacent = False  # only blank lines since the last runnable block closed
    seen_fence = False
    i = 0
    while i < len(lines):
        line = lines[i]
        here = f"{doc.name}:{i + 1}"
        marker = MARKER.fullmatch(line)
        if marker:
            attrs = parse_marker(marker.group(1))
            if set(attrs) & DOC_KEYS:
                _document_marker(doc, attrs, here, seen_fence)
            else:
                if pending is not None:
                    doc.problems.append(f"{here}: a second marker before a block")
                pending, pending_line = attrs, i + 1
            adjacent = False
            i += 1
            continue
        if line.lstrip().startswith("```") and not line.startswith("```"):
            doc.problems.append(f"{here}: an indented fence (the harness reads column 0 only)")
        if not line.startswith("```"):
            if line.strip():
                adjacent = False
            i += 1
            continue
        seen_fence = True
        fence = FENCE.match(line)
        assert fence
        lang = line[fence.end() :].strip().split(" ")[0]
        close = i + 1
        while close < len(lines) and lines[close].rstrip() != fence.group(0):
            close += 1
        if close == len(lines):
            doc.problems.append(f"{here}: a fence that is never closed")
            break
        body = "".join(lines[i + 1 : close])
        attrs = pending or {}
        where = f"{doc.name}:{pending_line}" if pending is not None else here
        pending = None
        if lang in RUNNABLE:
            block = Block(path, i + 1, RUNNABLE[lang], body, attrs)
            _check_block(doc, block, where)
            doc.blocks.append(block)
            last, adjacent = block, True
        elif lang == "text":
            if set(attrs) - {"output"}:
                doc.problems.append(f"{where}: only `output` applies to a text block")
            if last is None or not (adjacent or "output" in attrs):
                doc.problems.append(
                    f"{here}: a text block that is no block's output (right after a shell or "
                    "python block, or under <!-- doc-test: output -->); an example that is "
                    "not output takes another language tag"
                )
            elif last.output is not None or last.kind == "console":
                doc.problems.append(f"{here}: a second output for the block at line {last.line}")
            else:
                last.output = Output(i + 1, offsets[i + 1], offsets[close], body)
            adjacent = False
        else:
            if attrs:
                doc.problems.append(f"{where}: a marker before a {lang or 'plain'} block")
            adjacent = False
        i = close + 1
    if pending is not None:
        doc.problems.append(f"{doc.name}:{pending_line}: a marker with no block after it")
    return doc


def _document_marker(doc: Document, attrs: dict[str, str], here: str, seen_fence: bool) -> None:
    if seen_fence:
        doc.problems.append(f"{here}: setup= and data= go before the document's first block")
    if set(attrs) - DOC_KEYS:
        doc.problems.append(f"{here}: setup= and data= share their marker with nothing else")
    if "setup" in attrs and attrs["setup"] not in SETUPS:
        doc.problems.append(f"{here}: unknown setup {attrs['setup']!r}")
    if "data" in attrs and not re.fullmatch(r"[A-Z_]+:[\w./-]+", attrs["data"]):
        doc.problems.append(f"{here}: data= is VARIABLE:folder-under-../shared/data")
    doc.attrs.update(attrs)


def _check_block(doc: Document, block: Block, where: str) -> None:
    attrs = block.attrs
    unknown = set(attrs) - BLOCK_KEYS
    if unknown:
        doc.problems.append(f"{where}: unknown marker keys {sorted(unknown)}")
    if ("skip" in attrs or "skip-line" in attrs) and len(attrs.get("reason", "").split()) < 3:
        doc.problems.append(f"{where}: a skip says why, in a few words (reason=...)")
    if "skip-line" in attrs and attrs["skip-line"] not in block.code:
        doc.problems.append(f"{where}: skip-line text {attrs['skip-line']!r} is not in the block")
    if "reason" in attrs and not ({"skip", "skip-line"} & set(attrs)):
        doc.problems.append(f"{where}: reason= belongs to a skip")
    if "output" in attrs:
        doc.problems.append(f"{where}: output belongs to a text block")
    if "exit" in attrs and not attrs["exit"].isdigit():
        doc.problems.append(f"{where}: exit= is a number")
    if "interrupt" in attrs and not re.fullmatch(r"\d+(\.\d+)?", attrs["interrupt"]):
        doc.problems.append(f"{where}: interrupt= is a number of seconds")


def runnable_code(block: Block) -> str:
    """The code the harness runs: a ``skip-line`` line left out, an install prefix
    (``python -m pip install ... &&``) dropped, a line that only installs left out."""
    out = []
    for line in block.code.splitlines():
        if "skip-line" in block.attrs and block.attrs["skip-line"] in line:
            continue
        if INSTALL_LINE.match(line):
            continue
        out.append(INSTALL_PREFIX.sub(r"\1", line))
    return "\n".join(out) + "\n"


def console_steps(code: str) -> list[tuple[str, str]]:
    """A console block's ``$ command`` lines, each with the lines printed after it."""
    steps: list[tuple[str, str]] = []
    for line in code.splitlines(keepends=True):
        if line.startswith("$ "):
            steps.append((line[2:].rstrip("\n"), ""))
        elif steps:
            steps[-1] = (steps[-1][0], steps[-1][1] + line)
    return steps


def pattern(expected: str) -> re.Pattern[str]:
    """The expected text as a pattern: literal, except each variable token (dates, hex ids,
    mktemp names) stands for any token of the same shape and length."""
    parts: list[str] = []
    pos = 0
    for match in VARIABLE.finditer(expected):
        parts.append(re.escape(expected[pos : match.start()]))
        token = match.group(0)
        if match.group("hex"):
            parts.append(f"[0-9a-f]{{{len(token)}}}")
        elif match.group("mktemp"):
            parts.append(r"tmp\.[A-Za-z0-9]{10}")
        else:
            parts.append(re.sub(r"\\?\d", r"\\d", re.escape(token)))
        pos = match.end()
    parts.append(re.escape(expected[pos:]))
    return re.compile("".join(parts))


def shows(expected: str, actual: str) -> bool:
    return pattern(expected).fullmatch(actual) is not None


def diff(expected: str, actual: str, where: str) -> str:
    return "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True),
            actual.splitlines(keepends=True),
            f"{where} (shown)",
            "printed",
        )
    )


@dataclass
class Result:
    status: int
    output: str
    timed_out: bool = False


@dataclass
class Session:
    """One document's temporary folder, environment and shell state."""

    root: Path
    cwd: Path
    env: dict[str, str]
    count: int = 0

    @classmethod
    def start(cls, root: Path, pycache: Path, setup: str | None) -> Session:
        """``root`` holds ``work/`` (where the document starts), ``home/``, ``bin/`` (a
        ``labelpool``, ``python`` and ``python3`` that run this interpreter and the package
        under test), ``cache/`` and ``.harness/``. The environment is built, not inherited:
        PATH (those shims, this interpreter's folder, the system's), ``HOME``, ``TMPDIR`` (=
        ``root``, so ``mktemp -d`` stays inside), ``COLUMNS=80``, ``NO_COLOR=1``,
        ``TERM=dumb``, ``LANG=C.UTF-8``, ``PYTHONUNBUFFERED=1`` (stdout and stderr interleave
        as on a terminal), ``PYTHONPATH`` (the package under test), ``LABELPOOL_CACHE_DIR``,
        git's identity (``GIT_AUTHOR_*``, ``GIT_COMMITTER_*`` and a ``GIT_CONFIG_GLOBAL`` file
        with ``user.name``/``user.email``; ``GIT_CONFIG_NOSYSTEM=1``)."""
        work, home, bin_dir = root / "work", root / "home", root / "bin"
        for folder in (work, home, bin_dir, root / ".harness"):
            folder.mkdir(parents=True)
        tools = Path(labelpool.__file__).resolve().parents[1]
        for name, command in (
            ("labelpool", f'exec "{sys.executable}" -m labelpool "$@"'),
            ("python", f'exec "{sys.executable}" "$@"'),
            ("python3", f'exec "{sys.executable}" "$@"'),
        ):
            shim = bin_dir / name
            shim.write_text(f"#!/bin/sh\n{command}\n", encoding="utf-8")
            shim.chmod(0o755)
        gitconfig = root / "gitconfig"
        name, email = IDENTITY["GIT_AUTHOR_NAME"], IDENTITY["GIT_AUTHOR_EMAIL"]
        gitconfig.write_text(
            f"[user]\n\tname = {name}\n\temail = {email}\n[init]\n\tdefaultBranch = main\n",
            encoding="utf-8",
        )
        env = {
            "PATH": os.pathsep.join((str(bin_dir), str(Path(sys.executable).parent), *SYSTEM_PATH)),
            "HOME": str(home),
            "TMPDIR": str(root),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TERM": "dumb",
            "COLUMNS": "80",
            "NO_COLOR": "1",
            "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": str(tools),
            "PYTHONPYCACHEPREFIX": str(pycache),
            "LABELPOOL_CACHE_DIR": str(root / "cache"),
            "GIT_CONFIG_GLOBAL": str(gitconfig),
            "GIT_CONFIG_NOSYSTEM": "1",
            **IDENTITY,
        }
        session = cls(root, work, env)
        outside = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=work, env=env, capture_output=True
        )
        assert outside.returncode != 0, f"{work} is inside a git work tree: {outside.stdout!r}"
        if setup == "example":
            session.copy_example()
        return session

    def copy_example(self) -> None:
        """The example shipped in this checkout, in ``work/`` as a git repository with one
        commit on ``main``."""
        for name in EXAMPLE:
            src = ROOT / name
            if src.is_dir():
                ignore = shutil.ignore_patterns("__pycache__", ".labelpool-cache")
                shutil.copytree(src, self.cwd / name, ignore=ignore)
            else:
                shutil.copy2(src, self.cwd / name)
        for args in ("init -q -b main", "add -A", "commit -q -m example"):
            subprocess.run(["git", *args.split()], cwd=self.cwd, env=self.env, check=True)

    def printed(self, raw: bytes) -> str:
        """What a block printed, with this session's folder shown as ``/tmp`` (where
        ``mktemp -d`` puts a reader's folders)."""
        text = raw.decode("utf-8", errors="replace")
        for path in sorted({str(self.root), str(self.root.resolve())}, key=len, reverse=True):
            text = text.replace(path, "/tmp")
        return text

    def _wait(self, args: list[str], interrupt: float | None) -> Result:
        proc = subprocess.Popen(
            args,
            cwd=self.cwd,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        if interrupt is None:
            try:
                out, _ = proc.communicate(timeout=BLOCK_TIMEOUT)
                return Result(proc.returncode, self.printed(out))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                out, _ = proc.communicate(timeout=30)
                return Result(proc.returncode, self.printed(out), timed_out=True)
        # a command that serves until stopped: Ctrl-C (SIGINT to the whole process group, as
        # a terminal sends it) once it has printed its first line, or after `interrupt` s
        chunks: list[bytes] = []
        first_line = threading.Event()
        stream = proc.stdout
        assert stream is not None

        def read() -> None:
            for chunk in iter(lambda: os.read(stream.fileno(), 4096), b""):
                chunks.append(chunk)
                if b"\n" in chunk:
                    first_line.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        first_line.wait(timeout=interrupt)
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
        timed_out = False
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            timed_out = True
        reader.join(timeout=30)
        return Result(proc.returncode, self.printed(b"".join(chunks)), timed_out=timed_out)

    def shell(self, code: str, interrupt: float | None = None) -> Result:
        """``code`` in ``bash -euo pipefail`` from the current folder and environment; the
        folder and exported variables it ends with carry over."""
        self.count += 1
        harness = self.root / ".harness"
        script = harness / f"block{self.count}.sh"
        cwd_file, env_file = harness / "cwd", harness / "env"
        save = f"pwd > {shlex.quote(str(cwd_file))}; env -0 > {shlex.quote(str(env_file))}"
        script.write_text(
            f"set -euo pipefail\ntrap 'status=$?; {save}; exit $status' EXIT\n{code}",
            encoding="utf-8",
        )
        result = self._wait(["bash", "--noprofile", "--norc", str(script)], interrupt)
        if cwd_file.exists():
            self.cwd = Path(cwd_file.read_text(encoding="utf-8").strip())
            env = {}
            for item in env_file.read_bytes().decode("utf-8").split("\0"):
                key, sep, value = item.partition("=")
                if sep and key not in ("_", "SHLVL", "OLDPWD", "PWD"):
                    env[key] = value
            self.env = env
            cwd_file.unlink()
        return result

    def python(self, code: str) -> Result:
        """``code`` in a fresh interpreter, from the current folder and environment."""
        self.count += 1
        script = self.root / ".harness" / f"block{self.count}.py"
        script.write_text(code, encoding="utf-8")
        return self._wait([sys.executable, str(script)], None)


@dataclass
class Check:
    """One expected output against what was printed (``expected`` None: nothing shown)."""

    where: str
    status: int
    wanted_status: int
    printed: str
    expected: str | None
    timed_out: bool = False

    @property
    def problem(self) -> str | None:
        if self.timed_out:
            return f"{self.where}: still running after {BLOCK_TIMEOUT:.0f} s\n{self.printed}"
        if self.status != self.wanted_status:
            return (
                f"{self.where}: exit {self.status}, the page says {self.wanted_status}\n"
                f"{self.printed[-3000:]}"
            )
        if self.expected is not None and not shows(self.expected, self.printed):
            return f"{self.where}: prints something else\n" + diff(
                self.expected, self.printed, self.where
            )
        return None


def run_block(session: Session, block: Block) -> list[Check]:
    """Run one block; one check per command of a console block, else one."""
    wanted = int(block.attrs.get("exit", "0"))
    interrupt = float(block.attrs["interrupt"]) if "interrupt" in block.attrs else None
    if block.kind == "console":
        steps = console_steps(block.code)
        checks = []
        for n, (command, shown) in enumerate(steps):
            result = session.shell(command + "\n", interrupt)
            status = wanted if n == len(steps) - 1 else 0
            checks.append(
                Check(block.where, result.status, status, result.output, shown, result.timed_out)
            )
            if result.status != status:
                break
        return checks
    if block.kind == "python":
        result = session.python(block.code)
    else:
        result = session.shell(runnable_code(block), interrupt)
    expected = block.output.body if block.output else None
    printed = result.output
    if expected is not None and printed and not printed.endswith("\n"):
        printed += "\n"  # a block's body always ends with a line break
    return [Check(block.where, result.status, wanted, printed, expected, result.timed_out)]


def updated(doc: Document, printed: dict[int, list[str]]) -> str:
    """The document with each expected output replaced by what its block printed
    (``printed``: block line -> outputs, one per command of a console block)."""
    text = doc.text
    edits: list[tuple[int, int, str]] = []
    lines = text.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    for block in doc.blocks:
        if block.line not in printed:
            continue
        outs = printed[block.line]
        if block.kind == "console":
            steps = console_steps(block.code)
            if len(outs) != len(steps):
                continue
            pairs = zip(steps, outs, strict=True)
            body = "".join(f"$ {command}\n{out}" for (command, _), out in pairs)
            start = offsets[block.line]
            edits.append((start, start + len(block.code), body))
        elif block.output is not None:
            edits.append((block.output.start, block.output.end, outs[0]))
    for start, end, body in sorted(edits, reverse=True):
        text = text[:start] + body + text[end:]
    return text
