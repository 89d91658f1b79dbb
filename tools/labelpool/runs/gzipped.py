"""The bytes of a run file, plain or gzip (told by its magic bytes, not its name), read in
blocks so that no file, however large once decompressed, is ever held whole."""

from __future__ import annotations

import gzip
import hashlib
import io
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from labelpool.runs.errors import RunError

GZIP_MAGIC = b"\x1f\x8b"
HEAD_BYTES = 1 << 16
BLOCK_BYTES = 1 << 20


def open_error(path: Path, exc: OSError) -> RunError:
    """The :class:`RunError` of a file that cannot be opened."""
    if isinstance(exc, IsADirectoryError):
        return RunError(path, None, "is a folder, not a run file")
    if isinstance(exc, FileNotFoundError):
        return RunError(path, None, "no such run file")
    return RunError(path, None, f"cannot read: {exc.strerror or exc}")


def read_error(path: Path, gz: bool, exc: Exception) -> RunError:
    """The :class:`RunError` of a file whose bytes stop making sense while it is read."""
    if gz and isinstance(exc, (EOFError, gzip.BadGzipFile, zlib.error)):
        return RunError(path, None, f"not a valid gzip file: {exc}")
    if isinstance(exc, OSError):
        return open_error(path, exc)
    return RunError(path, None, f"cannot read: {exc}")


def sha256_file(path: Path, out: list[str]) -> None:
    """Append the hex SHA-256 of the file's bytes as stored to ``out`` (run on a thread)."""
    digest = hashlib.sha256()
    try:
        with path.open("rb") as handle:
            while chunk := handle.read(BLOCK_BYTES):
                digest.update(chunk)  # releases the GIL: runs beside the parser
    except OSError:
        return  # the reader names the problem
    out.append(digest.hexdigest())


def head(path: Path) -> tuple[bool, bytes, bool]:
    """(gzip?, the first :data:`HEAD_BYTES` of the decompressed content, whether that is the
    whole content); a gzip fault after the first bytes is left for the line reader."""
    try:
        with path.open("rb") as handle:
            magic = handle.read(2)
        gz = magic == GZIP_MAGIC
    except OSError as exc:
        raise open_error(path, exc) from None
    with opened(path, gz) as handle:
        blocks = Blocks(path, gz, handle, HEAD_BYTES)
        data = blocks()
        return gz, data, len(data) < HEAD_BYTES and blocks.fault is None


@contextmanager
def opened(path: Path, gz: bool) -> Iterator[io.BufferedIOBase]:
    """The file's decompressed content as a binary stream."""
    try:
        raw = path.open("rb")
    except OSError as exc:
        raise open_error(path, exc) from None
    with raw:
        if gz:
            with gzip.GzipFile(fileobj=raw, mode="rb") as unzipped:
                yield unzipped
        else:
            yield raw


class Blocks:
    """Successive blocks of ``handle`` (an empty one at the end). A truncated or corrupt gzip
    gives every byte before the fault first, then its :class:`RunError`, so that a bad line
    before the fault is the one named."""

    def __init__(
        self, path: Path, gz: bool, handle: io.BufferedIOBase, size: int = BLOCK_BYTES
    ) -> None:
        self.path, self.gz, self.handle, self.size = path, gz, handle, size
        self.fault: RunError | None = None

    def __call__(self) -> bytes:
        if self.fault is not None:
            raise self.fault
        parts: list[bytes] = []
        got = 0
        while got < self.size:
            try:
                want = self.size - got
                part = self.handle.read1(want) if self.gz else self.handle.read(want)
            except (EOFError, OSError, zlib.error) as exc:
                self.fault = read_error(self.path, self.gz, exc)
                if not parts:
                    raise self.fault from None
                break
            if not part:
                break
            parts.append(part)
            got += len(part)
            if not self.gz:
                break
        return b"".join(parts)
