"""Lines of a text file read in blocks, none longer than a bound: the one line reader of the
run files (:mod:`labelpool.runs.lines`) and of ``import``'s line files (qrels, questions,
JSON Lines; :mod:`labelpool.workflows.importing.input`).

A line longer than :data:`MAX_LINE` is refused at its number before it is held whole (at most
the bound and one block are held), a UTF-8 byte order mark at the start is dropped, and blank
lines are skipped (whole blank blocks without a Python loop). Only the standard library: any
reader can use it without importing what the run readers need (numpy, pyarrow).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

MAX_LINE = 1 << 20  # bytes
BOM = b"\xef\xbb\xbf"


def too_long(kind: str) -> str:
    """The message of a line over the bound; ``kind``: what such a file is not."""
    return f"line longer than {MAX_LINE // (1 << 20)} MiB (not {kind}?)"


def split_lines(
    read: Callable[[], bytes],
    refuse: Callable[[int], Exception],
    *,
    final: bool = True,
    lone_cr: bool = True,
) -> Iterator[tuple[int, bytes]]:
    """(1-based physical line number, line without its break) of the non-blank lines of the
    blocks ``read()`` returns (until an empty one); ``refuse(number)`` is raised for a line
    over :data:`MAX_LINE`. ``final=False``: an unfinished last line is left out (a file's
    head). ``lone_cr``: a line break is LF, CRLF or a lone CR (as pyarrow's CSV reader, the
    run readers' fast path, counts them); without it only LF ends a line (as git and
    trec_eval count lines), and a CR before it stays on the line for the caller to drop."""
    number = 0  # lines finished so far
    pending = b""
    first = True
    while True:
        block = read()
        if first:
            first = False
            if block.startswith(BOM):
                block = block[len(BOM) :]
        if not block:
            break
        data = pending + block if pending else block
        if lone_cr and b"\r" in data[:-1]:  # CRLF and lone CR are line breaks (a final CR waits)
            data = data[:-1].replace(b"\r\n", b"\n").replace(b"\r", b"\n") + data[-1:]
        cut = data.rfind(b"\n")
        if cut < 0:
            pending = data
        else:
            body, pending = data[:cut], data[cut + 1 :]
            if body.isspace() or not body:
                number += body.count(b"\n") + 1
            else:
                for raw in body.split(b"\n"):
                    number += 1
                    if len(raw) > MAX_LINE:
                        raise refuse(number)
                    if raw and not raw.isspace():
                        yield number, raw
        if len(pending) > MAX_LINE:
            if not pending.isspace():
                raise refuse(number + 1)
            pending = b" "  # a blank start of a line: what follows counts
    if final and pending and not pending.isspace():
        yield number + 1, pending.rstrip(b"\r")
