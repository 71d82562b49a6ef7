"""The hostile-file corpus: records that are corrupt, truncated, wrong-typed,
duplicated, nested, huge, badly encoded, or full of control and markup
characters. Every one must be refused with one short, plain line (issue 10).

`python3 tests/hostile/corpus.py` rewrites the small files committed in
tests/hostile/records/. The big ones (megabytes, a record padded with ten
million select/deselect commands) are made at test time by `write_big`, so
they are never committed. `python3 tests/hostile/corpus.py --check` builds
everything in a temporary directory, runs every check on every file and
prints how many files were tried and how many were handled.

A check returns the problems it found (none: the file was handled): the
loader must raise RecordError; `sekigahara replay FILE` and
`sekigahara --load FILE` (a real process, which must stop before Textual
starts) must exit non-zero with one line on stderr, no traceback, no control
character, at most MAX_MESSAGE characters, and create nothing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable

RECORDS = Path(__file__).parent / "records"
MAX_MESSAGE = 300
TIMEOUT = 60  # seconds; a refused file takes well under one


# ---------------------------------------------------------------------------
# the small cases, committed


def _data_version() -> str:
    from rules.components import default_components

    return default_components().data_version


def _record(**changes: object) -> dict:
    """A well-formed record with no commands, with `changes` applied
    (a value of ... removes the key)."""
    record: dict = {
        "seed": 1,
        "data_version": _data_version(),
        "commands": [],
        "format": "sekigahara-record",
        "version": 1,
    }
    for key, value in changes.items():
        if value is ...:
            record.pop(key)
        else:
            record[key] = value
    return record


def _json(**changes: object) -> bytes:
    return json.dumps(_record(**changes), indent=1).encode()


def _with_commands(*commands: object) -> bytes:
    return _json(commands=list(commands))


def _raw(template: str) -> bytes:
    """A record with `template` spliced in as raw JSON text: {R} is the record's
    fields without their braces."""
    fields = json.dumps(_record())[1:-1]
    return template.replace("{R}", fields).encode()


def _nested(depth: int, opening: str, closing: str) -> bytes:
    return (opening * depth + closing * depth).encode()


VALID_POSITION = '[game]\nweek = 2\nphase = "bid"\nseed = 5\n'


def small_cases() -> dict[str, bytes]:
    """Each committed file's name and contents."""
    valid = _json()
    return {
        # corrupt and truncated
        "empty.json": b"",
        "whitespace.json": b"  \n\t \n",
        "truncated.json": valid[: len(valid) // 2],
        "truncated-after-brace.json": b"{",
        "trailing-garbage.json": valid + b" x",
        "two-documents.json": valid + valid,
        "comment.json": b"// a save\n" + valid,
        "single-quotes.json": valid.replace(b'"', b"'"),
        "binary-noise.json": bytes(range(256)) * 4,
        "nul-bytes.json": valid.replace(b"seed", b"se\x00ed"),
        # encodings
        "invalid-utf8.json": valid.replace(b'"commands": []', b'"commands": ["ishida: bid \xff\xfe"]'),
        "overlong-utf8.json": valid.replace(b"seed", b"se\xc0\xafed"),
        "utf16.json": valid.decode().encode("utf-16"),
        "utf8-bom.json": b"\xef\xbb\xbf" + valid,
        "latin1.json": _with_commands("ishida: bid cafe").replace(b"cafe", "caf\u00e9".encode("latin-1")),
        "lone-surrogate.json": _raw('{{R}, "\\udfff": "\\ud800"}'),
        "surrogate-command.json": _raw('{"seed": 1, "data_version": "x", "commands": ["\\ud800"]}'),
        # the top level is not an object
        "top-list.json": b"[]",
        "top-null.json": b"null",
        "top-number.json": b"7",
        "top-string.json": b'"sekigahara-record"',
        "top-true.json": b"true",
        "top-list-of-record.json": b"[" + valid + b"]",
        # deep nesting
        "nested-arrays.json": _nested(5_000, "[", "]"),
        "nested-objects.json": ('{"a":' * 3_000 + "1" + "}" * 3_000).encode(),
        "nested-in-commands.json": _raw('{{R}}').replace(b'"commands": []', b'"commands": ' + _nested(3_000, "[", "]")),
        "nested-unclosed.json": b"[" * 5_000,
        "nested-just-too-deep.json": _with_commands(*[[[[[[[[[["ishida: end"]]]]]]]]]]),
        # wrong types
        "seed-string.json": _json(seed="7"),
        "seed-float.json": _json(seed=7.0),
        "seed-exponent.json": _raw('{{R}}').replace(b'"seed": 1', b'"seed": 7e0'),
        "seed-bool.json": _json(seed=True),
        "seed-null.json": _json(seed=None),
        "seed-list.json": _json(seed=[1]),
        "seed-thousands-of-digits.json": _raw('{{R}}').replace(b'"seed": 1', b'"seed": ' + b"9" * 5000),
        "seed-negative-digits.json": _raw('{{R}}').replace(b'"seed": 1', b'"seed": -' + b"9" * 5000),
        "seed-beyond-64-bits.json": _json(seed=2**64),
        "seed-nan.json": _raw('{{R}}').replace(b'"seed": 1', b'"seed": NaN'),
        "seed-infinity.json": _raw('{{R}}').replace(b'"seed": 1', b'"seed": -Infinity'),
        "version-string.json": _json(version="1"),
        "version-float.json": _json(version=1.0),
        "version-bool.json": _json(version=True),
        "version-2.json": _json(version=2),
        "format-chess.json": _json(format="chess"),
        "format-number.json": _json(format=1),
        "data-version-number.json": _json(data_version=1),
        "data-version-other.json": _json(data_version="000000000000"),
        "commands-string.json": _json(commands="ishida: bid mori-plain-9"),
        "commands-object.json": _json(commands={"1": "ishida: bid mori-plain-9"}),
        "command-number.json": _with_commands(1),
        "command-null.json": _with_commands(None),
        "command-list.json": _with_commands(["ishida: bid mori-plain-9"]),
        "position-number.json": _json(position=1),
        "position-null.json": _json(position=None),
        # missing, unknown and duplicated keys
        "missing-seed.json": _json(seed=...),
        "missing-data-version.json": _json(data_version=...),
        "unknown-key.json": _json(winner="ishida"),
        "unknown-key-markup.json": _json(**{"[@click=app.quit]x": 1}),
        "unknown-key-escape.json": _json(**{"\x1b[2J\x1b[Hyou win": 1}),
        "duplicate-commands.json": _raw('{{R}, "commands": []}').replace(b'"commands": []', b'"commands": ["ishida: end"]', 1),
        "duplicate-seed.json": _raw('{{R}, "seed": 2}'),
        "duplicate-version.json": _raw('{{R}, "version": 1}'),
        "duplicate-nested.json": _with_commands({"a": 1, "b": 2}).replace(b'"b"', b'"a"'),
        # commands that are not commands
        "command-escape-clear.json": _with_commands("\x1b[2J\x1b[Hishida wins"),
        "command-escape-title.json": _with_commands("\x1b]0;pwned\x07"),
        "command-newline.json": _with_commands("ishida: end\nsekigahara: all is well"),
        "command-carriage-return.json": _with_commands("ishida: end\rwinner: ishida"),
        "command-nul.json": _with_commands("ishida: bid \x00"),
        "command-bidi.json": _with_commands("ishida: bid \u202emori"),
        "command-markup-close.json": _with_commands("ishida: bid [/]x"),
        "command-markup-click.json": _with_commands("[@click=app.quit]x"),
        "command-markup-style.json": _with_commands("[bold red]ishida wins[/bold red]"),
        "command-too-long.json": _with_commands("ishida: bid " + "x" * 600),
        "command-illegal-first.json": _with_commands("ishida: end"),
        "command-unknown-verb.json": _with_commands("ishida: frobnicate osaka"),
        "command-other-side-card.json": _with_commands("tokugawa: bid mori-plain-9"),
        "command-empty.json": _with_commands(""),
        "command-unicode-digits.json": _with_commands("ishida: bid \u0663\u0664"),
        # positions inside a record
        "position-not-toml.json": _json(position="[game\nweek = "),
        "position-impossible.json": _json(position='[game]\nweek = 9\nphase = "bid"\n'),
        "position-wrong-seed.json": _json(seed=6, position=VALID_POSITION),
        "position-nested.json": _json(position="a = " + "[" * 5_000 + "]" * 5_000 + "\n"),
        "position-escape.json": _json(position='[game]\nweek = 2\nphase = "\x1b[2J"\n'),
        "position-markup.json": _json(position='[game]\nweek = 2\nphase = "[@click=app.quit]x"\n'),
    }


def write_small(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, data in small_cases().items():
        path = directory / name
        path.write_bytes(data)
        paths.append(path)
    return paths


# ---------------------------------------------------------------------------
# the big cases, made at test time


def _select_prefix() -> tuple[int, list[str], str, str]:
    """A legal game prefix after which the side to move may select a block:
    (seed, commands, the select command, the deselect command)."""
    from rules.commands import Select
    from rules.engine import legal_commands
    from rules.notation import format_command
    from rules.infra.selfplay import random_game

    found: list = []

    def on_step(before, command, after, events) -> None:
        commands.append(format_command(command))
        if not found:
            for side in after.decision.sides:
                selects = [c for c in legal_commands(after, side) if isinstance(c, Select)]
                if selects:
                    found.append((list(commands), selects[0]))
                    return

    commands: list[str] = []
    random_game(1, on_step=on_step)
    prefix, select = found[0]
    line = format_command(select)
    return 1, prefix, line, line.replace(": select ", ": deselect ")


def padded_record(path: Path, pairs: int) -> None:
    """A legal game prefix, then `pairs` select/deselect pairs, streamed to disk."""
    seed, prefix, select, deselect = _select_prefix()
    head, tail = json.dumps(_record(seed=seed, commands=[*prefix, "PAD"])).split('"PAD"')
    pair = f"{json.dumps(select)}, {json.dumps(deselect)}"
    with open(path, "w", encoding="utf-8") as file:
        file.write(head)
        for done in range(0, pairs - 1, 10_000):
            file.write(f"{pair}, " * min(10_000, pairs - 1 - done))
        file.write(pair + tail)


BIG_CASES: dict[str, Callable[[Path], None]] = {
    "padded-10-million.json": lambda path: padded_record(path, 5_000_000),
    "padded-over-command-cap.json": lambda path: padded_record(path, 10_001),
    "nested-a-million.json": lambda path: path.write_bytes(_nested(1_000_000, "[", "]")),
    "huge-spaces.json": lambda path: path.write_bytes(_json().replace(b"{", b"{" + b" " * 3_000_000, 1)),
    "huge-command.json": lambda path: path.write_bytes(_with_commands("ishida: bid " + "x" * 2_500_000)),
    "huge-key.json": lambda path: path.write_bytes(_json(**{"k" * 1_000_000: 1})),
    "brackets-in-a-string.json": lambda path: path.write_bytes(_with_commands("[" * 1_000_000)),
    "many-duplicate-keys.json": lambda path: path.write_bytes(
        b"{" + b'"seed": 1, ' * 100_000 + _raw("{R}}")
    ),
    "many-commands-wrong-type.json": lambda path: path.write_bytes(_json(commands=[0] * 30_000)),
}


def write_big(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, make in BIG_CASES.items():
        path = directory / name
        make(path)
        paths.append(path)
    return paths


# Hostile file names, made at test time (a control character has no place in
# a committed file name): each holds a refused record. "save[/]x.json" is a
# file in a folder named "save[".
HOSTILE_NAMES = (
    "save[/]x.json",
    "[@click=app.quit]x.json",
    "[bold]loud[/bold].json",
    "esc\x1b[2Jname.json",
    "new\nline.json",
    "bidi\u202eredro.json",
)


def write_hostile_names(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in HOSTILE_NAMES:
        path = directory / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(_with_commands("ishida: end"))
        paths.append(path)
    return paths


def write_special(directory: Path) -> list[Path]:
    """Saves that are not regular files: a FIFO (opening it would wait for a
    writer for ever) and a directory."""
    directory.mkdir(parents=True, exist_ok=True)
    fifo, folder = directory / "fifo.json", directory / "folder.json"
    os.mkfifo(fifo)
    folder.mkdir()
    return [fifo, folder]


# ---------------------------------------------------------------------------
# the checks


def message_problems(text: str, what: str) -> list[str]:
    """A message must be one line of plain printable text, not too long."""
    problems = []
    lines = text.splitlines()
    if len(lines) != 1:
        problems.append(f"{what}: {len(lines)} lines, not one: {text[:200]!r}")
    if "Traceback" in text:
        problems.append(f"{what}: a traceback")
    if any(not c.isprintable() for c in text.rstrip("\n")):
        problems.append(f"{what}: a control character: {text[:200]!r}")
    if len(text.rstrip("\n")) > MAX_MESSAGE:
        problems.append(f"{what}: {len(text)} characters")
    return problems


def check_loader(path: Path) -> list[str]:
    """The loader and replay, called directly, raise RecordError and nothing else."""
    from rules.infra.record import RecordError, load_record, replay

    try:
        replay(load_record(path))
    except RecordError as error:
        return message_problems(str(error), "loader")
    except Exception as error:  # noqa: BLE001: the point is to catch anything
        return [f"loader: {type(error).__name__}: {str(error)[:200]!r}"]
    return ["loader: the file was accepted"]


def _listing(directory: Path) -> list[str]:
    return sorted(str(p.relative_to(directory)) for p in directory.rglob("*"))


def _run(arguments: list[str], scratch: Path) -> tuple[subprocess.CompletedProcess | None, list[str]]:
    """Run `sekigahara` with a private home and data directory in `scratch`."""
    home, data = scratch / "home", scratch / "xdg-data"
    home.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, HOME=str(home), XDG_DATA_HOME=str(data), XDG_CONFIG_HOME=str(home / ".config"))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sekigahara_tui", *arguments],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=TIMEOUT,
            cwd=home,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return None, [f"{arguments[0]}: still running after {TIMEOUT} s"]
    problems = []
    if _listing(home) or data.exists():
        problems.append(f"{arguments[0]}: created {_listing(home) or [str(data)]}")
    return done, problems


def _process_problems(done: subprocess.CompletedProcess, what: str, status: int | None) -> list[str]:
    out, err = done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")
    problems = []
    if done.returncode == 0 or (status is not None and done.returncode != status):
        problems.append(f"{what}: exit status {done.returncode}")
    if out:
        problems.append(f"{what}: wrote to stdout: {out[:200]!r}")
    return problems + message_problems(err, what)


def check_replay(path: Path, scratch: Path) -> list[str]:
    """`sekigahara replay FILE` exits non-zero with one plain line."""
    before = _listing(path.parent)
    done, problems = _run(["replay", str(path)], scratch)
    if done is not None:
        problems += _process_problems(done, "replay", None)
    if _listing(path.parent) != before:
        problems.append("replay: changed the record's directory")
    return problems


def check_load(path: Path, scratch: Path) -> list[str]:
    """`sekigahara --load FILE` exits 2 with one plain line before Textual starts,
    and writes no save directory (so no autosave)."""
    save_dir = scratch / "saves"
    before = _listing(path.parent)
    done, problems = _run(["--load", str(path), "--save-dir", str(save_dir)], scratch)
    if done is not None:
        problems += _process_problems(done, "--load", 2)
    if save_dir.exists():
        problems.append("--load: created the save directory")
    if _listing(path.parent) != before:
        problems.append("--load: changed the record's directory")
    return problems


def all_problems(path: Path, scratch: Path) -> list[str]:
    return check_loader(path) + check_replay(path, scratch / "replay") + check_load(path, scratch / "load")


def check_everything() -> int:
    """Build the whole corpus in a temporary directory and check every file."""
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        paths = (
            write_small(root / "small")
            + write_big(root / "big")
            + write_hostile_names(root / "names")
            + write_special(root / "special")
        )
        handled = 0
        for number, path in enumerate(paths):
            problems = all_problems(path, root / f"scratch-{number}")
            handled += not problems
            for problem in problems:
                print(f"{path.name!r}: {problem}")
        print(f"{len(paths)} hostile files tried, {handled} handled")
        return 0 if handled == len(paths) else 1


def main(arguments: list[str]) -> int:
    if arguments == ["--check"]:
        return check_everything()
    if arguments:
        print("usage: corpus.py [--check]", file=sys.stderr)
        return 2
    for old in RECORDS.glob("*.json"):
        old.unlink()
    paths = write_small(RECORDS)
    print(f"wrote {len(paths)} files to {RECORDS}")
    return 0


if __name__ == "__main__":
    sys.path[:0] = [str(Path(__file__).parents[2] / "src")]
    raise SystemExit(main(sys.argv[1:]))
