"""Finished games' records on the web front (issue 24; club/web_records.py),
with a real HTTP client (aiohttp) against the real web front of a real club:
a player downloads a finished game's record from the /records page's link;
any member gets a public finished game's; a private game's record is refused
to a stranger with the very answer a game that does not exist gets; a game
in play is refused; nobody signed in gets nothing; each refusal is one
audit line."""

from __future__ import annotations

import json

import aiohttp
import pytest

from club_helpers import resigned_game, start_club
from rules.sides import Side
from sekigahara_tui.club.web_front import start_web
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.web_tokens import issue_web_token


@pytest.fixture
async def club_and_web(data_dir):
    audit = AuditLog(members.prepare_data_dir(data_dir))
    club = await start_club(data_dir, audit=audit)
    web = await start_web(club.server, data_dir, 0, audit=audit)
    yield club, web, audit
    await web.wait_closed()
    await club.stop()
    audit.close()


async def signed_in(web, data_dir, member: str) -> aiohttp.ClientSession:
    http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    response = await http.post(web.url + "sign-in", data={"member": member, "token": issue_web_token(data_dir, member)},
                               headers={"Origin": web.url.rstrip("/")}, allow_redirects=False)
    assert response.status == 303
    response.release()
    return http


async def get(http: aiohttp.ClientSession, url: str) -> tuple[int, str, aiohttp.ClientResponse]:
    async with http.get(url) as response:
        return response.status, await response.text(), response


def refusals(audit: AuditLog) -> list[str]:
    return [line for line in audit.lines() if " refused " in line]


async def test_records_are_downloaded_by_the_lobby_rule(club_and_web, data_dir):
    club, web, audit = club_and_web
    public, private = await resigned_game(club, False), await resigned_game(club, True)
    in_play = (await club.lobby_client("carol").new_game(Side.ISHIDA, "open")).game
    alice, carol = await signed_in(web, data_dir, "alice"), await signed_in(web, data_dir, "carol")
    try:
        # alice, a player: the page links both her finished games; the link downloads the record.
        status, page, _ = await get(alice, web.url + "records")
        assert status == 200 and f'href="{web.url}record/{public}"' in page and f'href="{web.url}record/{private}"' in page
        for game in (public, private):
            status, body, response = await get(alice, web.url + f"record/{game}")
            assert status == 200 and response.content_type == "application/json"
            assert response.headers["Content-Disposition"] == f'attachment; filename="sekigahara-{game}.json"'
            assert json.loads(body) == json.loads(club.store.record_json(game))
        # carol, a stranger: a public game once over, yes; a private one, as if it did not exist.
        status, body, _ = await get(carol, web.url + f"record/{public}")
        assert status == 200 and json.loads(body) == json.loads(club.store.record_json(public))
        before = len(refusals(audit))
        hidden = await get(carol, web.url + f"record/{private}")
        missing_id = "Z" * len(private)
        missing = await get(carol, web.url + f"record/{missing_id}")
        assert hidden[0] == missing[0] == 404
        assert hidden[1].replace(private, "GAME") == missing[1].replace(missing_id, "GAME") == "no game 'GAME' in this club\n"
        assert len(refusals(audit)) == before + 2
        # a game in play: no record yet (the seed decides every hidden draw, R55)
        status, body, _ = await get(carol, web.url + f"record/{in_play}")
        assert status == 409 and "still in play" in body and len(refusals(audit)) == before + 3
        # no sign-in, no record
        async with aiohttp.ClientSession() as stranger:
            status, body, _ = await get(stranger, web.url + f"record/{public}")
        assert status == 403 and body == "Sign in first." and len(refusals(audit)) == before + 4
    finally:
        await alice.close()
        await carol.close()
