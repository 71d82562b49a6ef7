"""Finished games' records on the web front (issue 24): `/records`, a page
of the signed-in member's finished games, each a download link, and
`/record/GAME`, the record itself (rules.infra.record's JSON, as `sekigahara
export` writes it), as a file to save.

The rule is the lobby's (`get_record`, hosting/invitations.finished_record),
asked over the club protocol with the member's own session: a finished
game's record for its players, and for any member once over if it was
public. A private game of others and a game that does not exist get the
same answer, word for word (404); a game still in play is refused (409);
someone not signed in gets the sign-in's 403. Each refusal is one line in
the audit log (the lobby's, or this front's when nobody signed in).
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from aiohttp import web

from sekigahara_tui.club.client import ClubRefused
from sekigahara_tui.club.member_requests import GAME_ID, NoSession, ask_as_member
from sekigahara_tui.club.web_sign_in import COOKIE_NAME
from sekigahara_tui.hosting.club_games import unknown

if TYPE_CHECKING:
    from sekigahara_tui.club.web_front import WebFront

STATUS = {"unknown-game": 404, "illegal": 409, "not-authorised": 403}


async def signed_in(front: WebFront, request: web.Request) -> tuple[str, str]:
    """(member, web token generation) of the request's cookie; 403, audited, if none."""
    found = await front.cookies.signed_in(request.cookies.get(COOKIE_NAME))
    if found is None:
        front.audit_refusal("a record asked without a sign-in", address=request.remote)
        raise web.HTTPForbidden(text="Sign in first.")
    return found


async def _ask(front: WebFront, member: str, web_generation: str, ask):
    """`ask(client)` with a lobby connection of the member's own club session;
    503 if the club does not answer."""
    try:
        return await ask_as_member(front.link, member, ask, web_generation=web_generation)
    except NoSession as error:  # the club's refusal (the member removed, the token replaced), in one line
        front.audit_refusal(f"no session: {error}", member=member)
        raise web.HTTPForbidden(text=f"The club would not open a session: {error}") from None
    except (OSError, TimeoutError) as error:
        front.audit("club-unreachable", str(error), member=member)
        raise web.HTTPServiceUnavailable(text="The club is not answering: try again in a moment.") from None


async def handle_record(front: WebFront, request: web.Request) -> web.StreamResponse:
    member, web_generation = await signed_in(front, request)
    game = request.match_info["game"]
    if not GAME_ID.fullmatch(game):  # no game has such an id: the club's own answer for an unknown game
        refusal = unknown(game)
        front.audit_refusal(refusal.reason, member=member, address=request.remote)
        return web.Response(status=404, text=refusal.reason + "\n")
    try:
        reply = await _ask(front, member, web_generation, lambda client: client.record(game))
    except ClubRefused as refusal:  # the lobby audited it
        return web.Response(status=STATUS.get(refusal.kind, 400), text=str(refusal) + "\n")
    return web.Response(
        text=reply, content_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="sekigahara-{game}.json"'},
    )


async def handle_records(front: WebFront, request: web.Request) -> web.StreamResponse:
    member, web_generation = await signed_in(front, request)
    try:
        lobby = await _ask(front, member, web_generation, lambda client: client.lobby())
    except ClubRefused as refusal:  # the lobby audited it
        return web.Response(status=STATUS.get(refusal.kind, 400), text=str(refusal) + "\n")
    rows = []
    for line in lobby.finished:
        game = html.escape(line.game)
        players = html.escape(f"{line.ishida or '?'} (Ishida) against {line.tokugawa or '?'} (Tokugawa)")
        result = html.escape(line.result or "over")
        rows.append(f'<li><a href="{front.url}record/{game}" download>game {game}</a>: {players}; {result}</li>')
    body = "\n".join(rows) or "<li>No finished game yet.</li>"
    page = (f"<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Sekigahara: records</title></head><body>"
            f"<h1>{html.escape(member)}'s finished games</h1><p>Each link downloads the game's record "
            f"(open it with <code>sekigahara replay FILE</code>).</p><ul>\n{body}\n</ul>"
            f"<p><a href=\"{front.url}\">Back to the club</a></p></body></html>")
    return web.Response(text=page, content_type="text/html")
