"""The bytes of a run file, plain or gzip (told by its magic bytes, not its name)."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

from labelpool.runs.errors import RunError

GZIP_MAGIC = b"\x1f\x8b"
HEAD_BYTES = 1 << 16


def open_error(path: Path, exc: OSError) -> RunError:
    """The :class:`RunError` of a file that cannot be opened."""
    if isinstance(exc, IsADirectoryError):
        return RunError(path, None, "is a folder, not a run file")
    if isinstance(exc, FileNotFoundError):
        return RunError(path, None, "no such run file")
    return RunError(path, None, f"cannot read: {exc.strerror or exc}")


def sha256_file(path: Path, out: list[str]) -> None:
    """Append the hex SHA-256 of the file's bytes as stored to ``out`` (run on a thread)."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)  # releases the GIL: runs beside the parser
    out.append(digest.hexdigest())


def head(path: Path) -> tuple[bool, bytes]:
    """(gzip?, the first bytes of the decompressed content)."""
    try:
        with path.open("rb") as handle:
            magic = handle.read(2)
        if magic == GZIP_MAGIC:
            with gzip.open(path, "rb") as handle:
                return True, handle.read(HEAD_BYTES)
        with path.open("rb") as handle:
            return False, handle.read(HEAD_BYTES)
    except (EOFError, gzip.BadGzipFile) as exc:
        raise RunError(path, None, f"not a valid gzip file: {exc}") from None
    except OSError as exc:
        raise open_error(path, exc) from None


def all_bytes(path: Path, gz: bool) -> bytes:
    """The whole decompressed content."""
    try:
        return gzip.decompress(path.read_bytes()) if gz else path.read_bytes()
    except (EOFError, gzip.BadGzipFile) as exc:
        raise RunError(path, None, f"not a valid gzip file: {exc}") from None
    except OSError as exc:
        raise open_error(path, exc) from None
