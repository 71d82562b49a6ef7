"""Issue 28: a club from before kept its members' keys, web tokens and the
fronts' credentials in files of its DATA_DIR; they are imported into the
club's database once, when the club is first opened (member_store.py), and
the files renamed NAME.imported. On SQLite nothing changes from the user's
side: the same commands, the same keys, a web token (and so a browser's
cookie: the same generation) and a front's credential still good. Over
PostgreSQL, each host's DIR is imported into the one database, the first
one's winning where two disagree.

The administrator's commands are the real ones, in processes of their own."""

from __future__ import annotations

import hashlib
import subprocess
import sys

import pytest

from club_helpers import fake_key
from helpers import needs_program
from pg_server import INITDB, WHAT
from sekigahara_tui.hosting import front_credentials, members, web_tokens
from sekigahara_tui.hosting.member_store import CREDENTIALS_FILE, IMPORTED, KEYS_FILE, WEB_TOKENS_FILE, web_generation


def member(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sekigahara_tui", "member", *arguments], capture_output=True, text=True, timeout=60)


def old_club(data_dir, names: dict[str, str], token: str, secret: str, members_too: bool = True) -> None:
    """DATA_DIR as the club kept it before: names (member -> key) in the members
    table and authorized_keys, alice's web token and a front eu1's credential in their files."""
    members.prepare_data_dir(data_dir)
    if members_too:
        import sqlite3

        db = sqlite3.connect(data_dir / members.STORE_FILE)
        db.executescript("CREATE TABLE members (name TEXT PRIMARY KEY, added REAL NOT NULL, generation TEXT);")
        db.executemany("INSERT INTO members VALUES (?, 1.0, ?)", [(name, f"g-{name}") for name in names])
        db.commit()
        db.close()
    (data_dir / KEYS_FILE).write_text("".join(" ".join(key.split()[:2]) + f" {name}\n" for name, key in names.items())
                                      + "# a comment\nnot a key line\n")
    salt = b"s" * 16
    (data_dir / WEB_TOKENS_FILE).write_text(f"alice scrypt {salt.hex()} {web_tokens._hash(token, salt).hex()}\n")
    (data_dir / CREDENTIALS_FILE).write_text(f"eu1 {salt.hex()} {hashlib.sha256(salt + secret.encode()).hexdigest()}\n")


def test_a_sqlite_club_from_before_keeps_its_keys_tokens_and_credentials_imported_once(tmp_path):
    data = tmp_path / "club"
    alice, bob = fake_key(), fake_key()
    old_club(data, {"alice": alice, "bob": bob}, "alices-old-token", "fronts-secret")
    old_generation = web_generation(b"s" * 16, web_tokens._hash("alices-old-token", b"s" * 16))

    listed = member("list", "--data", str(data))  # the first opening imports them
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout == "alice\t1 key\nbob\t1 key\n"
    for name in (KEYS_FILE, WEB_TOKENS_FILE, CREDENTIALS_FILE):
        assert not (data / name).exists() and (data / (name + IMPORTED)).exists()
    assert members.member_for_key(data, alice) == "alice" and members.member_for_key(data, bob) == "bob"
    assert web_tokens.signed_in_generation(data, "alice", "alices-old-token") == old_generation  # her browser's cookie still good
    assert front_credentials.front_of(data, "eu1:fronts-secret") == "eu1"
    assert front_credentials.front_of(data, "eu1:another") is None

    # Once: a key removed stays removed (the renamed file is not read again).
    assert member("remove", "bob", "--data", str(data)).returncode == 0
    assert member("list", "--data", str(data)).stdout == "alice\t1 key\n"
    assert members.member_for_key(data, bob) is None
    assert not (data / KEYS_FILE).exists()


def test_a_file_that_cannot_be_read_is_one_line_and_imports_nothing(tmp_path):
    data = tmp_path / "club"
    old_club(data, {"alice": fake_key()}, "t", "s")
    (data / KEYS_FILE).write_bytes(b"x" * (2 * 1024 * 1024))  # larger than any key file
    refused = member("list", "--data", str(data))
    assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1
    assert "is larger than" in refused.stderr
    assert (data / WEB_TOKENS_FILE).exists() and not (data / (WEB_TOKENS_FILE + IMPORTED)).exists()  # nothing moved


@needs_program(INITDB, WHAT)
def test_each_hosts_files_go_into_the_one_postgresql_database_the_first_winning(postgres, tmp_path):
    url = postgres.new_database()
    alice, carol = fake_key(), fake_key()
    old_club(tmp_path / "a", {"alice": alice}, "token-on-a", "secret-on-a", members_too=False)
    old_club(tmp_path / "b", {"alice": alice, "carol": carol}, "token-on-b", "secret-on-b", members_too=False)
    for name in ("alice", "carol"):  # the members, as serve --store had them: the database's
        added = member("add", name, "--key", str(write(tmp_path / f"{name}.pub", fake_key())), "--data", str(tmp_path / "a"),
                       "--store", url)
        assert added.returncode == 0, added.stderr
    assert member("list", "--data", str(tmp_path / "b"), "--store", url).returncode == 0  # B's files, imported into the same database
    for side in ("a", "b"):
        assert members.member_for_key(tmp_path / side, alice) == "alice"
        assert members.member_for_key(tmp_path / side, carol) == "carol"  # only B had it: every host knows it now
        assert web_tokens.check_web_token(tmp_path / side, "alice", "token-on-a")  # A's came first
        assert not web_tokens.check_web_token(tmp_path / side, "alice", "token-on-b")
        assert front_credentials.front_of(tmp_path / side, "eu1:secret-on-a") == "eu1"
    assert member("list", "--data", str(tmp_path / "b")).stdout == "alice\t2 keys\ncarol\t2 keys\n"


def write(path, text: str):
    path.write_text(text)
    return path


@pytest.mark.parametrize("url", ["sqlite:///x", "postgresql://nobody@127.0.0.1:1/none"])
def test_a_store_that_cannot_be_used_is_one_line_and_binds_nothing(tmp_path, url):
    done = member("list", "--data", str(tmp_path / "club"), "--store", url)
    assert done.returncode == 1 and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "club" / "store.url").exists()
