"""Hosting: the code that owns games, apart from the app that shows them.

- `host.py`: GameHost, one game (the engine, the record, undo, the autosave);
- `store.py`, `group_commit.py`: the SQLite store every networked game is
  committed to before it is acknowledged;
- `game_server.py`: GameServer, games over sockets (two terminals, the club);
- `club_server.py`: ClubServer, the club's many games, its lobby, spectators
  and computer seats; `sessions.py`, `members.py`, `web_tokens.py`: who may
  come in.

Nothing here imports Textual or the app (screens, widgets): the app reaches a
hosted game through the wire (net/client.py, club/client.py) or, in hot seat,
through a Seat over a GameHost in its own process (local.py, versus.py).
tests/tui/test_client_surface.py holds it to that.
"""
