"""Duplicate maps: MS MARCO's ``canonical:dup1,dup2`` lines and two-column TSV."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelpool.dedup.dupmap import read_map
from labelpool.errors import InputError


def test_the_marco_map_of_trec_cast(cast_dir: Path) -> None:
    got = read_map(cast_dir / "duplicate_files" / "marco_duplicates.txt", prefix="MARCO_")
    assert got.lines == 102_396
    assert got.ids == 263_960
    assert got.groups[0] == ("MARCO_D93515", "MARCO_D3051914")
    assert all(i.startswith("MARCO_D") for g in got.groups[:1000] for i in g)


def test_both_forms_and_ids_with_hash_or_colon(tmp_path: Path) -> None:
    path = tmp_path / "map.txt"
    path.write_bytes(
        b"\xef\xbb\xbfD1:D2,D3\n\nfaq#damaged\thandbook#returns-damaged\r\nurn:a:1\turn:b:2\n"
    )
    got = read_map(path, prefix="P_")
    assert got.groups == (
        ("P_D1", "P_D2", "P_D3"),
        ("P_faq#damaged", "P_handbook#returns-damaged"),
        ("P_urn:a:1", "P_urn:b:2"),
    )
    assert (got.lines, got.ids) == (3, 7)


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        (b"D1:D2\nno separator here\n", 2, "expected canonical"),
        (b"D1:D2,,D3\n", 1, "an empty id"),
        (b"a\tb\tc\n", 1, "two tab-separated ids"),
        (b"D1:D2\n\nD3:\xff\n", 3, "not UTF-8"),
        (b"D1:D2 D3\n", 1, "space"),
        (b"D1:" + b"D" * (2 << 20) + b"\n", 1, "longer than 1 MiB"),
    ],
)
def test_errors_name_path_and_line(tmp_path: Path, content: bytes, line: int, message: str) -> None:
    path = tmp_path / "map.txt"
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        read_map(path)
    assert err.value.line == line and err.value.path == str(path)
    assert message in str(err.value)


def test_a_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read"):
        read_map(tmp_path / "absent.txt")


def test_a_canonical_without_duplicates_is_a_group_of_one(tmp_path: Path) -> None:
    """MARCO's README: "followed by a list of its duplicate document ids (0 or many)"."""
    path = tmp_path / "map.txt"
    path.write_bytes(b"D1:\nD2: \r\nD3:D4\n")
    got = read_map(path)
    assert got.groups == (("D1",), ("D2",), ("D3", "D4"))
    assert (got.lines, got.ids) == (3, 4)
