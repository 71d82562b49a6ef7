"""Hosting: the code that owns games, apart from the app that shows them.

- `host.py`: GameHost, one game (the engine, the record, undo, the autosave);
- `store.py`, `group_commit.py`: the SQLite store every networked game is
  committed to before it is acknowledged;
- `game_server.py`: GameServer, games over sockets (two terminals, the club),
  given its collaborators: where games come from (`games.py`), how a commit is
  made (`store_commits.py`), its subscribers and the doors a connection's
  first message opens (`connections.py`); `seats.py` (a seat's hello and
  session, what seats are told) and `chairs.py` (the views it sends);
- `club_server.py`: ClubServer, a composition: a game server given the club's
  collaborators (`store_games.py`, `eviction.py`, `catalog.py`,
  `spectators.py`, `computer_seat.py`, `club_games.py`) and its lobby
  (`lobby.py`, `lobby_push.py`); `tokens.py`, `sessions.py`, `members.py`,
  `web_tokens.py`, `member_store.py` (their tables): who may come in.

Nothing here imports Textual or the app (screens, widgets): the app reaches a
hosted game through the wire (net/client.py, club/client.py) or, in hot seat,
through a Seat over a GameHost in its own process (local.py, versus.py).
tests/tui/test_client_surface.py holds it to that.
"""
