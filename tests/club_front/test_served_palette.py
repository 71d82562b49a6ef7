"""Issue 23, item 5: a served session offers no command that writes on the
server. Over SSH, Textual's palette Screenshot wrote an SVG of the member's
hand into the server account's ~/Downloads, once per key press. Here a real
SSH session runs the real app; the member opens the palette and asks for a
screenshot; the server account's home is compared before and after."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from front_helpers import connect, hot_seat_app, serving, StubClub, take_the_keyboard, Terminal, write_member


@pytest.fixture
def setup(tmp_path, monkeypatch):
    home = tmp_path / "server-home"
    (home / "Downloads").mkdir(parents=True)  # where Textual saves a screenshot, when the folder is there
    monkeypatch.setenv("HOME", str(home))  # the session's child inherits the server account's HOME
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        monkeypatch.delenv(name, raising=False)
    data_dir = tmp_path / "club"
    data_dir.mkdir()
    key = asyncssh.generate_private_key("ssh-ed25519")
    write_member(data_dir, key, "alice")
    return StubClub(tmp_path / "club.sock"), data_dir, key, home


async def test_the_palette_offers_no_screenshot_and_nothing_is_written_on_the_server(setup, tmp_path):
    club, data_dir, key, home = setup
    saves = tmp_path / "saves"
    async with serving(club, data_dir, hot_seat_app(saves)) as front, connect(front, key) as conn:
        terminal = await Terminal.open(conn, 80, 24)
        await take_the_keyboard(terminal, "Ishida")  # Ishida sits down: the game screen, a bid to make
        await asyncio.sleep(1.0)  # the game screen settles: keys before it go to the hand-over
        before = sorted(home.rglob("*"))
        terminal.press(b"\x10")  # ctrl+p: the palette, as a member opens it
        await terminal.wait_text("Search for commands")
        terminal.press(b"screenshot")
        await asyncio.sleep(0.5)
        terminal.press(b"\r")
        await asyncio.sleep(1.0)  # Textual's Screenshot wrote on a 0.1 s timer
        terminal.press(b"\x11")  # ctrl+q
        await terminal.finish()
    assert sorted(home.rglob("*")) == before == [home / "Downloads"]
