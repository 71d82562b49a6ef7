"""10,000 hostile messages against a real host over a real Unix socket.

A seeded mutator (deterministic, no hypothesis: the same 10,000 lines every
run) writes garbage, truncated JSON, wrong types, missing and unknown fields,
deep nesting, huge numbers, over-long lines, messages of unknown types, a
second hello, commands for the other side, illegal commands, commands in bad
notation, stale versions, resends of ids already applied and undos that R58
forbids. Most of them are one mutation away from a command the host would
apply: a legal command at the current version with a fresh id.

They go through the socket on two connections that hold the seats and on
short-lived connections that never said hello. Every one must be answered
as the protocol says (a refusal of the expected kind; the current state for
an id already applied; a closed connection only for the connection that
broke the rules before its hello, or that sent a megabyte with no newline),
the host must keep serving, nothing may reach the asyncio exception handler,
and the game (GameHost.state, the record, the version, the applied ids) and
the store's rows must be exactly as before.
"""

from __future__ import annotations

import asyncio
import gc
import json
import logging
import random
import sqlite3
from collections import Counter

from attrs import frozen

from net_helpers import GAME, TOKENS, RawConnection, hello, take_seat
from rules.engine import apply_trusted, legal_commands, start_game
from rules.notation import NotationError, format_command, parse_command
from rules.sides import BOTH_SIDES, Side
from sekigahara_tui.net.protocol import MAX_CLIENT_LINE, MAX_COMMAND_TEXT, MAX_ID_LENGTH, MAX_SKIPPED_BYTES, PROTOCOL_VERSION

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
SEED = 1111
COUNT = 10_000
PING = b'{"type":"ping"}\n'


@frozen
class Hostile:
    """One hostile line, and what the host must answer: a refusal of one of
    `kinds`, or ("state",) the current state replying to `id`. `seat` None:
    sent first thing on a fresh connection, which the host then closes."""

    line: bytes
    category: str
    kinds: frozenset[str]
    id: str | None = None
    seat: Side | None = None


@frozen
class Situation:
    """The game the messages are aimed at."""

    version: int
    used: dict[Side, tuple[str, ...]]  # ids each seat had applied
    legal: dict[Side, tuple[str, ...]]  # commands each seat could play now
    pool: tuple[str, ...]  # well-formed commands from another game


# --- the mutator ------------------------------------------------------------------

BAD_UTF8 = [b"\xff", b"\xfe\xff", b"\xc3\x28", b"\xa0\xa1", b"\xe2\x28\xa1", b"\xf0\x28\x8c\xbc", b"\xc0\xaf",
            b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"]
WEIRD_TEXT = ["\x00", "\x1b[2J", "\x07", "\u202e", "\u2028", "\ufeff", "\ud800", "\udfff", "\x7f", "\t", "\r",
              "é", "漢字", "🀄", "\u0301", "\uffff", "\\", '"', "'", " ", ""]
WRONG_VALUES = [None, True, False, 0, -1, 1.5, 6.0, "6", "", "ishida", [], {}, [6], {"a": 1}, ["tokugawa"], 1e300]
JSON_BITS = ["{", "}", "[", "]", ":", ",", '"', '"type"', '"submit"', '"id"', '"version"', "null", "true", "1",
             "-", "e", ".", "\\u00", " ", '"command"', "9" * 40, "\\", "NaN", "Infinity"]


def dumps(value: object, rng: random.Random) -> bytes:
    """JSON as a client might write it: ASCII or raw UTF-8, lone surrogates
    and all (they come out as invalid UTF-8)."""
    text = json.dumps(value, ensure_ascii=rng.random() < 0.5, separators=(",", ":") if rng.random() < 0.7 else None)
    return text.encode("utf-8", "surrogatepass") + b"\n"


def one_line(data: bytes, rng: random.Random) -> bytes:
    """`data` as exactly one line: its newlines replaced."""
    return data.replace(b"\n", bytes([rng.choice(b" \r\x00x")])) + b"\n"


class Mutator:
    def __init__(self, situation: Situation, seed: int) -> None:
        self.s = situation
        self.rng = random.Random(seed)
        self.serial = 0
        self.legal_sets = {side: set(map(parse_command, situation.legal[side])) for side in BOTH_SIDES}

    # --- building blocks ---

    def fresh_id(self) -> str:
        self.serial += 1
        return f"h{self.serial}-{self.rng.getrandbits(24):x}"

    def legal_submit(self) -> dict:
        """Tokugawa's legal command at the current version, with a fresh id:
        the host would apply it. Every mutation of it must be refused."""
        return {"type": "submit", "id": self.fresh_id(), "version": self.s.version, "command": self.rng.choice(self.s.legal[TOKUGAWA])}

    def base(self, seat: Side) -> dict:
        rng = self.rng
        kind = rng.choice(["submit", "submit", "submit", "undo", "hello", "ping"])
        if kind == "submit":
            return self.legal_submit()
        if kind == "undo":
            return {"type": "undo", "id": self.fresh_id(), "version": self.s.version}
        if kind == "hello":
            return hello(seat, seen=rng.choice([None, 0, self.s.version]))
        return {"type": "ping"}

    def is_legal(self, side: Side, text: str) -> bool:
        try:
            command = parse_command(text, side=side)
        except NotationError:
            return False
        return command in self.legal_sets[side]

    def seat(self) -> Side:
        return self.rng.choice(BOTH_SIDES)

    # --- categories: each yields Hostile lines ---

    def garbage(self) -> Hostile:
        rng = self.rng
        style = rng.randrange(6)
        if style == 0:
            data = rng.randbytes(rng.randrange(0, 300))
        elif style == 1:
            data = bytes(rng.choice(b"\x00\x01\x07\x08\x0b\x0c\x0d\x1b\x7f") for _ in range(rng.randrange(1, 60)))
        elif style == 2:
            data = b"".join(rng.choice(BAD_UTF8 + [b"{", b'"type"', b":", b'"ping"', b"}"]) for _ in range(rng.randrange(1, 20)))
        elif style == 3:
            data = "".join(rng.choice(JSON_BITS) for _ in range(rng.randrange(1, 40))).encode()
        elif style == 4:
            data = rng.choice([b"", b" ", b"\r", b"\t\t", b"\x00", b"\xef\xbb\xbf{}", b"null", b"{}", b"[]", b"0", b'"ping"'])
        else:
            data = "".join(rng.choice(WEIRD_TEXT) for _ in range(rng.randrange(1, 30))).encode("utf-8", "surrogatepass")
        return Hostile(one_line(data, rng), "garbage", frozenset({"bad-message"}), seat=self.seat())

    def truncated(self) -> Hostile:
        seat = self.seat()
        whole = dumps(self.base(seat), self.rng)[:-1]
        cut = self.rng.randrange(0, len(whole))
        return Hostile(whole[:cut] + b"\n", "truncated", frozenset({"bad-message"}), seat=seat)

    def wrong_type(self) -> Hostile:
        seat = self.seat()
        message = self.base(seat)
        name = self.rng.choice(list(message))
        good = message[name]
        value = self.rng.choice([v for v in WRONG_VALUES if type(v) is not type(good) and not (good is None and v is None)])
        message[name] = value
        return self.expect_bad(message, "wrong-type", seat)

    def bad_value(self) -> Hostile:
        """Right types, values out of bounds: empty, too long, unprintable."""
        rng = self.rng
        seat = self.seat()
        message = self.base(seat)
        strings = [name for name, value in message.items() if isinstance(value, str) and name != "type"]
        if not strings:
            message = self.legal_submit()
            strings = ["id", "command"]
        name = rng.choice(strings)
        limit = {"id": MAX_ID_LENGTH, "command": MAX_COMMAND_TEXT, "token": 128, "game": 64}.get(name, 64)
        choice = rng.randrange(4)
        if choice == 0 and name != "token":
            message[name] = ""
        elif choice == 1:
            message[name] = message[name] + "x" * (limit + 1 - len(message[name]) + rng.randrange(3))
        else:
            text = message[name]
            at = rng.randrange(len(text) + 1)
            message[name] = text[:at] + rng.choice(["\x00", "\x1b", "\u202e", "\u2028", "\ud800", "\x7f", "\n", "\x85"]) + text[at:]
        return self.expect_bad(message, "bad-value", seat)

    def extra_field(self) -> Hostile:
        seat = self.seat()
        message = self.base(seat)
        key = self.rng.choice(["Type", "ID", "", "side", "seq", "__proto__", "token", "seat", "x" * 40, "\u202e", "versión"])
        if key in message:
            key += "2"
        message[key] = self.rng.choice(WRONG_VALUES + ["tokugawa"])
        return self.expect_bad(message, "extra-field", seat)

    def missing_field(self) -> Hostile:
        seat = self.seat()
        message = self.base(seat)
        for name in self.rng.sample(list(message), self.rng.randrange(1, len(message) + 1)):
            del message[name]
        return self.expect_bad(message, "missing-field", seat)

    def deep(self) -> Hostile:
        rng = self.rng
        depth = rng.choice([5, 6, 10, 50, 500, 1500])
        opening, closing = rng.choice([("[", "]"), ('{"a":', "}")])
        nested = opening * depth + "1" + closing * depth
        if rng.random() < 0.5:
            message = dict(self.legal_submit(), **{rng.choice(["command", "version", "id"]): "@@"})
            data = json.dumps(message).replace('"@@"', nested).encode()
        else:
            data = nested.encode()
        if rng.random() < 0.3:
            data = data[: rng.randrange(1, len(data))]  # unbalanced too
        return Hostile(one_line(data, rng), "deep", frozenset({"bad-message"}), seat=self.seat())

    def huge_number(self) -> Hostile:
        """A legal command whose version is a number that is not the version:
        too many digits, a float equal to it, beyond 64 bits, negative."""
        rng = self.rng
        message = self.legal_submit() if rng.random() < 0.8 else {"type": "undo", "id": self.fresh_id(), "version": 0}
        v = self.s.version
        literal = rng.choice([
            "9" * rng.randrange(31, 3000), "-" + "9" * rng.randrange(31, 200), f"{v}.0", f"{v}e0", f"{v * 10}e-1",
            "1e400", "-1e400", "1e-400", f"{v}.000000000000000001", str(2**63), str(2**64 + v), str(-(2**63) - 1),
            str(10**29), str(v + 2**32), str(v - 2**64), "-0", str(-v), "0" if v else "1",
        ])
        kinds = {"bad-message"}
        if literal.lstrip("-").isdigit() and len(literal.lstrip("-")) <= 30:
            kinds = {"stale"}  # a well-formed integer, just not the version
        data = json.dumps(dict(message, version="@@")).replace('"@@"', literal).encode() + b"\n"
        return Hostile(data, "huge-number", frozenset(kinds), message["id"], seat=TOKUGAWA)

    def long_line(self) -> Hostile:
        """Longer than MAX_CLIENT_LINE: skipped to its newline and refused."""
        rng = self.rng
        size = rng.choice([MAX_CLIENT_LINE + 1, MAX_CLIENT_LINE + 2, 5000, 65_537, 300_000, MAX_SKIPPED_BYTES])
        message = self.legal_submit()
        head = json.dumps(dict(message, command="@@")).encode()
        pad = size - (len(head) - 2 + len(message["command"].encode()) + 1)
        data = head.replace(b"@@", message["command"].encode() + b" " * pad) + b"\n"
        assert len(data) == size
        return Hostile(data, "long-line", frozenset({"bad-message"}), seat=self.seat())

    def unknown_type(self) -> Hostile:
        rng = self.rng
        value = rng.choice([
            {"type": rng.choice(["launch", "Submit", "SUBMIT", "submit ", "state", "welcome", "refused", "pong", "game_over", "", "\u202esubmit", "undo\x00"])},
            {"type": rng.choice(["state", "refused"]), "id": self.fresh_id(), "version": self.s.version, "command": rng.choice(self.s.legal[TOKUGAWA])},
            {"kind": "submit", "id": self.fresh_id(), "version": self.s.version, "command": rng.choice(self.s.legal[TOKUGAWA])},
            [{"type": "ping"}], [self.legal_submit()], "submit", 6, None, True, -1.5, [],
            {"type": None}, {"type": 1}, {"type": ["submit"]}, {"type": {"submit": 1}},
        ])
        return self.expect_bad(value, "unknown-type", self.seat())

    def hello_again(self) -> Hostile:
        seat = self.seat()
        message = hello(self.rng.choice(BOTH_SIDES), seen=self.rng.choice([None, 0, 3, self.s.version, 10**20]))
        if self.rng.random() < 0.3:
            message["token"] = "wrong"
        return Hostile(dumps(message, self.rng), "hello-again", frozenset({"bad-message"}), seat=seat)

    def other_side(self) -> Hostile:
        """A command for the other side, from a seat that holds a fresh id and
        the current version: Ishida playing Tokugawa's legal commands."""
        rng = self.rng
        text = rng.choice(self.s.legal[TOKUGAWA] + tuple(t for t in self.s.pool if t.startswith("tokugawa:")))
        message = {"type": "submit", "id": self.fresh_id(), "version": self.s.version, "command": text}
        if rng.random() < 0.25:  # Tokugawa playing Ishida's
            message["command"] = rng.choice([t for t in self.s.pool if t.startswith("ishida:")])
            return Hostile(dumps(message, rng), "other-side", frozenset({"illegal"}), message["id"], TOKUGAWA)
        return Hostile(dumps(message, rng), "other-side", frozenset({"illegal"}), message["id"], ISHIDA)

    def illegal(self) -> Hostile:
        seat = self.seat()
        while True:
            text = self.rng.choice(self.s.pool)
            if self.rng.random() < 0.5:
                text = text.partition(": ")[2]  # the sender's side is understood
            if not self.is_legal(seat, text):
                break
        message = {"type": "submit", "id": self.fresh_id(), "version": self.s.version, "command": text}
        return Hostile(dumps(message, self.rng), "illegal", frozenset({"illegal"}), message["id"], seat)

    def bad_notation(self) -> Hostile:
        rng = self.rng
        seat = TOKUGAWA if rng.random() < 0.7 else ISHIDA
        while True:
            text = rng.choice(self.s.legal[TOKUGAWA] + self.s.pool[:200])
            words = text.split(" ")
            how = rng.randrange(9)
            if how == 0:
                text = text[: rng.randrange(len(text))]
            elif how == 1:
                at = rng.randrange(len(text) + 1)
                text = text[:at] + rng.choice("abcxyz-0123456789:;,.!?#@ ") + text[at:]
            elif how == 2:
                at = rng.randrange(len(text))
                text = text[:at] + text[at + 1:]
            elif how == 3:
                rng.shuffle(words)
                text = " ".join(words)
            elif how == 4:
                text = text + " " + " ".join(rng.choice(["extra", "osaka", "99", "-1", "leader", "ishida"]) for _ in range(rng.randrange(1, 4)))
            elif how == 5:
                text = text.upper() if rng.random() < 0.5 else text.replace(":", rng.choice(["::", ";", ""]), 1)
            elif how == 6:
                text = rng.choice(["mori", "ISHIDA", "tokugawa ", "both", "", "tokugawa: tokugawa"]) + ": " + text.partition(": ")[2]
            elif how == 7:
                text = rng.choice(["", " ", ":", "tokugawa:", "move", "bid", "undo", "ping", "submit", "tokugawa: " + "move " * 99])
            else:
                text = "".join(rng.choice(WEIRD_TEXT[9:]) + c for c in text)  # oddities between the letters
            text = text[: MAX_COMMAND_TEXT + 20] if rng.random() < 0.9 else text + "z" * MAX_COMMAND_TEXT
            if not self.is_legal(seat, text):
                break
        message = {"type": "submit", "id": self.fresh_id(), "version": self.s.version, "command": text}
        kinds = {"illegal"}
        if not text or not text.isprintable() or len(text) > MAX_COMMAND_TEXT:
            kinds = {"bad-message"}
        return Hostile(dumps(message, rng), "bad-notation", frozenset(kinds), message["id"], seat)

    def stale(self) -> Hostile:
        """The right command (a legal one), the wrong version."""
        rng = self.rng
        version = rng.choice([v for v in range(-3, self.s.version + 6) if v != self.s.version])
        if rng.random() < 0.8:
            message = dict(self.legal_submit(), version=version)
            seat = TOKUGAWA
        else:
            message = {"type": "undo", "id": self.fresh_id(), "version": version}
            seat = self.seat()
        return Hostile(dumps(message, rng), "stale", frozenset({"stale"}), message["id"], seat)

    def replay(self) -> Hostile:
        """An id already applied: answered with the current state, applied
        never again, whatever it now carries."""
        rng = self.rng
        seat = self.seat()
        message_id = rng.choice(self.s.used[seat])
        version = rng.choice([self.s.version, 0, self.s.version - 1, 10**20, -5])
        if rng.random() < 0.3:
            message = {"type": "undo", "id": message_id, "version": version}
        else:
            command = rng.choice(self.s.legal[TOKUGAWA] + self.s.pool[:50] + ("nonsense", "move nowhere"))
            message = {"type": "submit", "id": message_id, "version": version, "command": command}
        return Hostile(dumps(message, rng), "replay", frozenset({"state"}), message_id, seat)

    def foreign_id(self) -> Hostile:
        """The other seat's applied id: for this seat it is new, so the message
        is judged on its own (Ishida's command is not legal now)."""
        rng = self.rng
        message_id = rng.choice(self.s.used[TOKUGAWA])
        message = {"type": "submit", "id": message_id, "version": self.s.version, "command": rng.choice(self.s.legal[TOKUGAWA]).partition(": ")[2]}
        return Hostile(dumps(message, rng), "foreign-id", frozenset({"illegal"}), message_id, ISHIDA)

    def forbidden_undo(self) -> Hostile:
        """Undo at the current version when R58 forbids it to both seats."""
        message = {"type": "undo", "id": self.fresh_id(), "version": self.s.version}
        return Hostile(dumps(message, self.rng), "undo-r58", frozenset({"illegal"}), message["id"], self.seat())

    def unauthenticated(self) -> Hostile:
        """The first line of a connection, which is then closed."""
        rng = self.rng
        seat = rng.choice(BOTH_SIDES)
        how = rng.randrange(10)
        if how == 0:
            return Hostile(self.garbage().line, "no-hello", frozenset({"bad-message"}))
        if how == 1:
            return Hostile(self.truncated().line, "no-hello", frozenset({"bad-message"}))
        if how == 2:
            message = rng.choice([{"type": "ping"}, self.legal_submit(), {"type": "undo", "id": self.fresh_id(), "version": self.s.version}])
            return Hostile(dumps(message, rng), "no-hello", frozenset({"protocol"}))
        if how == 3:
            return Hostile(dumps(hello(seat, token=rng.choice(["", "wrong", TOKENS[seat.other], TOKENS[seat] + "x", TOKENS[seat][:-1]])), rng),
                           "no-hello", frozenset({"not-authorised"}))
        if how == 4:
            return Hostile(dumps(hello(seat, game=rng.choice(["game-2", "GAME-1", "x" * 64, "game-1 ", "*"])), rng),
                           "no-hello", frozenset({"not-authorised"}))  # an unknown game is a wrong token's answer
        if how == 5:
            return Hostile(dumps(hello(seat, protocol=rng.choice([0, PROTOCOL_VERSION + 1, -1, 10**29])), rng), "no-hello", frozenset({"protocol"}))
        if how == 6:  # right in every way, but the seat is held
            return Hostile(dumps(hello(seat, seen=rng.choice([None, 0, self.s.version])), rng), "no-hello", frozenset({"seat-taken"}))
        if how == 7:
            message = hello(seat)
            name = rng.choice(["protocol", "game", "seat", "token", "seen"])
            message[name] = rng.choice([v for v in WRONG_VALUES if type(v) is not type(message[name]) and v is not None])
            return Hostile(dumps(message, rng), "no-hello", frozenset({"bad-message"}))
        if how == 8:
            return Hostile(dumps(dict(hello(seat), extra=1), rng), "no-hello", frozenset({"bad-message"}))
        line = dumps(hello(seat), rng)[:-1] + b" " * rng.choice([MAX_CLIENT_LINE, 20_000]) + b"\n"
        return Hostile(line, "no-hello", frozenset({"bad-message"}))

    def expect_bad(self, value: object, category: str, seat: Side) -> Hostile:
        given = value.get("id") if isinstance(value, dict) else None
        return Hostile(dumps(value, self.rng), category, frozenset({"bad-message"}), given if isinstance(given, str) else None, seat)


PLAN: list[tuple[str, int]] = [
    ("garbage", 1000), ("truncated", 900), ("wrong_type", 900), ("bad_value", 500), ("extra_field", 400),
    ("missing_field", 400), ("deep", 300), ("huge_number", 400), ("long_line", 20), ("unknown_type", 400),
    ("hello_again", 200), ("other_side", 800), ("illegal", 1000), ("bad_notation", 900), ("stale", 700),
    ("replay", 300), ("foreign_id", 100), ("forbidden_undo", 200), ("unauthenticated", 578),
]
# and two lines of more than MAX_SKIPPED_BYTES with no newline (one before a hello, one after)
assert sum(n for _, n in PLAN) + 2 == COUNT


def hostile_messages(situation: Situation, seed: int) -> list[Hostile]:
    mutator = Mutator(situation, seed)
    messages = [getattr(mutator, name)() for name, count in PLAN for _ in range(count)]
    random.Random(seed).shuffle(messages)
    return messages


# --- the game they are aimed at -----------------------------------------------------


def command_pool(seed: int, steps: int) -> tuple[str, ...]:
    """Every legal command of both sides over the first `steps` decisions of a
    random game: well-formed notation, nearly all of it illegal elsewhere."""
    chooser = random.Random(seed)
    state, _ = start_game(seed)
    texts: set[str] = set()
    for _ in range(steps):
        if state.is_over:
            break
        for side in BOTH_SIDES:
            texts.update(format_command(c) for c in legal_commands(state, side))
        side = chooser.choice(sorted(state.decision.sides))
        state, _ = apply_trusted(state, chooser.choice(legal_commands(state, side)))
    return tuple(sorted(texts))


async def played(raw: dict[Side, RawConnection], side: Side, message: dict) -> dict:
    """Send a legitimate message; both seats read their new state."""
    raw[side].send(message)
    mine = (await raw[side].receive_until("state"))[-1]
    assert mine["reply_to"] == message["id"], mine
    theirs = (await raw[side.other].receive_until("state"))[-1]
    assert theirs["version"] == mine["version"]
    return mine if side is TOKUGAWA else theirs


def snapshot(hosted) -> dict:
    """Everything that must not change: the game in memory and the store's rows."""
    game = hosted.game
    db = sqlite3.connect(f"{hosted.store.path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        rows = {table: db.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall() for table in ("games", "actions")}
    finally:
        db.close()
    return {
        "state": game.host.state,
        "record": game.host.record,
        "steps": game.host.step_count,
        "version": game.version,
        "actions": list(game.actions),
        "stored": hosted.store.load_game(GAME),
        "rows": rows,
    }


# --- sending them -------------------------------------------------------------------


class Judge:
    def __init__(self, version: int) -> None:
        self.version = version
        self.wrong: list[str] = []
        self.answered: Counter[str] = Counter()

    def check(self, message: Hostile, answer: dict | None) -> None:
        def fail(why: str) -> None:
            self.wrong.append(f"{message.category} {message.line[:120]!r}: {why}: {str(answer)[:200]}")

        if answer is None:
            raise AssertionError(f"the host closed the connection after {message.category} {message.line[:200]!r}")
        if message.kinds == {"state"}:
            if answer.get("type") != "state" or answer.get("reply_to") != message.id or answer.get("version") != self.version:
                fail("expected the current state replying to it")
            self.answered["state"] += 1
            return
        if answer.get("type") != "refused" or answer.get("kind") not in message.kinds:
            return fail(f"expected a refusal {sorted(message.kinds)}")
        reason = answer["reason"]
        if not (isinstance(reason, str) and reason and reason.isprintable()):
            fail("a refusal's reason must be one printable line")
        if answer["kind"] in ("stale", "illegal") and answer["id"] != message.id:
            fail("the refusal must name the message's id")
        if answer["kind"] == "bad-message" and answer["id"] not in (None, message.id):
            fail("the refusal names another id")
        self.answered[answer["kind"]] += 1


async def seat_stream(raw: RawConnection, messages: list[Hostile], judge: Judge, batch: int = 250) -> None:
    """Pipeline the messages in batches, a ping after each batch: the answers
    come back one per line, in order, then the pong."""
    for start in range(0, len(messages), batch):
        chunk = messages[start:start + batch]
        for message in chunk:
            raw.send(message.line)
        raw.send(PING)
        for message in chunk:
            judge.check(message, await raw.receive(timeout=10))
        pong = await raw.receive()
        assert pong == {"type": "pong"}, f"out of step: {str(pong)[:200]}; wrong answers: {judge.wrong[:5]}"


async def unauthenticated_stream(hosted, messages: list[Hostile], judge: Judge, at_once: int = 8) -> None:
    async def one(message: Hostile) -> None:
        raw = await RawConnection.open(hosted.address)
        try:
            raw.send(message.line)
            judge.check(message, await raw.receive())
            assert await raw.receive() is None, f"still open after {message.line[:100]!r}"  # closed after the refusal
        finally:
            await raw.close()

    for start in range(0, len(messages), at_once):
        await asyncio.gather(*(one(m) for m in messages[start:start + at_once]))


async def a_megabyte_without_newline(raw: RawConnection) -> dict | None:
    raw.send(b'{"type":"submit","id":"mega","version":0,"command":"' + b"x" * (MAX_SKIPPED_BYTES + 4096))
    refusal = await raw.receive(timeout=10)
    assert await raw.receive(timeout=10) is None  # closed: not worth recovering
    return refusal


# --- the test -----------------------------------------------------------------------


async def test_ten_thousand_hostile_messages_change_nothing(hosted, caplog):
    loop = asyncio.get_running_loop()
    crashes: list[dict] = []
    loop.set_exception_handler(lambda _loop, context: crashes.append(context))
    caplog.set_level(logging.WARNING)

    # A few legitimate moves first, with known ids: bids (one taken back with
    # an undo), the first player, a movement card that R58 makes final.
    raw = {side: (await take_seat(hosted, side))[0] for side in BOTH_SIDES}
    states = {side: hosted.game.host.view(side) for side in BOTH_SIDES}
    bid = {side: format_command(states[side].legal[0]) for side in BOTH_SIDES}
    await played(raw, TOKUGAWA, {"type": "submit", "id": "t-1", "version": 0, "command": bid[TOKUGAWA]})
    await played(raw, TOKUGAWA, {"type": "undo", "id": "t-2", "version": 1})
    await played(raw, TOKUGAWA, {"type": "submit", "id": "t-3", "version": 2, "command": bid[TOKUGAWA]})
    await played(raw, ISHIDA, {"type": "submit", "id": "i-1", "version": 3, "command": bid[ISHIDA]})
    state = await played(raw, TOKUGAWA, {"type": "submit", "id": "t-4", "version": 4, "command": "tokugawa: first tokugawa"})
    movement = next(c for c in state["view"]["legal"] if c.startswith("tokugawa: movement full"))
    state = await played(raw, TOKUGAWA, {"type": "submit", "id": "t-5", "version": 5, "command": movement})
    host = hosted.game.host
    assert hosted.game.version == 6 and all(host.why_no_undo(side) for side in BOTH_SIDES)
    assert not host.view(ISHIDA).legal and len(host.view(TOKUGAWA).legal) > 5
    situation = Situation(
        version=6,
        used={ISHIDA: ("i-1",), TOKUGAWA: ("t-1", "t-2", "t-3", "t-4", "t-5")},
        legal={side: tuple(format_command(c) for c in host.view(side).legal) for side in BOTH_SIDES},
        pool=command_pool(2, 150),
    )
    before = snapshot(hosted)

    messages = hostile_messages(situation, SEED)
    categories = Counter(m.category for m in messages)
    assert len(messages) + 2 == COUNT and categories["no-hello"] == 578
    judge = Judge(situation.version)
    await asyncio.gather(
        seat_stream(raw[ISHIDA], [m for m in messages if m.seat is ISHIDA], judge),
        seat_stream(raw[TOKUGAWA], [m for m in messages if m.seat is TOKUGAWA], judge),
        unauthenticated_stream(hosted, [m for m in messages if m.seat is None], judge),
    )
    assert not judge.wrong, f"{len(judge.wrong)} wrong answers, the first: " + "\n".join(judge.wrong[:10])
    assert snapshot(hosted) == before

    # A megabyte with no newline closes that one connection, before a hello or after.
    stranger = await RawConnection.open(hosted.address)
    refusal = await a_megabyte_without_newline(stranger)
    assert refusal["kind"] == "bad-message" and "longer than" in refusal["reason"]
    refusal = await a_megabyte_without_newline(raw[TOKUGAWA])
    assert refusal["kind"] == "bad-message" and "longer than" in refusal["reason"]
    raw[ISHIDA].send(PING)
    assert await raw[ISHIDA].receive_until("pong") == [{"type": "presence", "seat": "tokugawa", "connected": False}, {"type": "pong"}]
    await raw[TOKUGAWA].close()
    assert snapshot(hosted) == before
    print(f"\n{COUNT} hostile messages: {dict(sorted(categories.items()))} + 2 megabyte lines; answers {dict(judge.answered)}")

    # The host still serves: a legitimate client takes the freed seat, sees
    # the game as it was, and plays; Ishida's old connection hears of it.
    client = hosted.client(TOKUGAWA)
    running = asyncio.create_task(client.run())
    await client.wait_for(lambda c: c.view is not None, 5)
    assert client.version == situation.version and client.view == host.view(TOKUGAWA)
    sent = client.submit(situation.legal[TOKUGAWA][0])
    await client.wait_for(lambda c: c.reply_to == sent, 5)
    assert client.version == hosted.game.version == hosted.stored_rows() == situation.version + 1
    heard = await raw[ISHIDA].receive_until("state")
    assert heard[-1]["version"] == situation.version + 1
    await client.close()
    await running
    await raw[ISHIDA].close()

    gc.collect()  # "Task exception was never retrieved" is reported when a task is collected
    await asyncio.sleep(0)
    assert crashes == [], crashes
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info], caplog.text


def test_the_mutator_is_deterministic_and_covers_its_categories():
    situation = Situation(6, {ISHIDA: ("i-1",), TOKUGAWA: ("t-1", "t-2")}, {ISHIDA: (), TOKUGAWA: ("tokugawa: end",)},
                          ("ishida: bid a", "tokugawa: bid b", "tokugawa: move x"))
    first, again = hostile_messages(situation, 5), hostile_messages(situation, 5)
    assert first == again and len(first) + 2 == COUNT
    assert all(m.line.endswith(b"\n") and m.line.count(b"\n") == 1 for m in first)
    assert {m.category for m in first} >= {"garbage", "truncated", "wrong-type", "bad-value", "extra-field", "missing-field",
                                           "deep", "huge-number", "long-line", "unknown-type", "hello-again", "other-side",
                                           "illegal", "bad-notation", "stale", "replay", "foreign-id", "undo-r58", "no-hello"}
