"""Hostile files through every entry point: the loader, `sekigahara replay` and
`sekigahara --load` (real processes). Each must be refused with one short
plain line, a non-zero exit, and nothing created (issue 10).

The corpus is tests/hostile/: the small files are committed (regenerate them
with `python3 tests/hostile/corpus.py`), the big ones are made here in
tmp_path.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hostile.corpus import (
    BIG_CASES,
    HOSTILE_NAMES,
    RECORDS,
    all_problems,
    padded_record,
    small_cases,
    write_hostile_names,
    write_special,
)
from rules.infra import record as record_module
from rules.infra import untrusted
from rules.infra.record import MAX_RECORD_BYTES, RecordError, load_record

COMMITTED = sorted(RECORDS.glob("*.json"))


def test_the_committed_corpus_is_the_generated_one():
    assert [path.name for path in COMMITTED] == sorted(small_cases())


@pytest.mark.parametrize("path", COMMITTED, ids=[path.name for path in COMMITTED])
def test_a_committed_hostile_file_is_refused_everywhere(path, tmp_path):
    assert all_problems(path, tmp_path) == []


@pytest.mark.parametrize("name", sorted(BIG_CASES))
def test_a_big_hostile_file_is_refused_everywhere(name, tmp_path):
    path = tmp_path / "corpus" / name
    path.parent.mkdir()
    BIG_CASES[name](path)
    assert all_problems(path, tmp_path / "scratch") == []


@pytest.mark.parametrize("index", range(len(HOSTILE_NAMES)), ids=[repr(name) for name in HOSTILE_NAMES])
def test_a_hostile_file_name_is_shown_escaped(index, tmp_path):
    path = write_hostile_names(tmp_path / "names")[index]
    assert all_problems(path, tmp_path / "scratch") == []


def test_ten_million_padding_commands_are_refused_in_a_moment(tmp_path, monkeypatch):
    """In a moment: counted in work, not in seconds of a loaded machine. The
    loader reads at most the limit and a byte of the file, and parses none of it."""
    path = tmp_path / "padded.json"
    padded_record(path, 5_000_000)
    assert path.stat().st_size > 100 * MAX_RECORD_BYTES
    read: list[int] = []

    class CountingFile:
        def __init__(self, file) -> None:
            self._file = file

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            self._file.close()

        def read(self, size: int = -1) -> bytes:
            data = self._file.read(size)
            read.append(len(data))
            return data

    def counting_open(file, mode="r", *args, **kwargs):
        return CountingFile(open(file, mode, *args, **kwargs))

    def never(*args, **kwargs):
        raise AssertionError("the padded record was parsed")

    monkeypatch.setattr(untrusted, "open", counting_open, raising=False)
    monkeypatch.setattr(record_module, "strict_json", never)
    with pytest.raises(RecordError, match="larger than 2,097,152 bytes"):
        load_record(path)
    assert 0 < sum(read) <= MAX_RECORD_BYTES + 1


@pytest.mark.parametrize("index", range(2), ids=["fifo", "directory"])
def test_a_save_that_is_not_a_regular_file_is_refused_at_once(index, tmp_path):
    path = write_special(tmp_path / "special")[index]
    assert all_problems(path, tmp_path / "scratch") == []


def test_a_device_is_refused_without_reading_it():
    with pytest.raises(RecordError, match="not a regular file"):
        load_record(Path("/dev/zero"))
