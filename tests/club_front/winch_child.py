"""A session child for the tests: says its terminal size whenever SIGWINCH comes.

It also says whether its terminal is its controlling terminal (only then does
the kernel send SIGWINCH on a resize), its pid, and what it got in its
environment; `q` ends it with status 3, any other key is echoed.
"""

import os
import signal
import sys
import tty

tty.setraw(0)


def say(text: str) -> None:
    # os.write, not sys.stdout: the SIGWINCH handler may run in the middle of
    # another line, and a buffered writer refuses to be entered twice.
    os.write(1, (text + "\r\n").encode())


def size(*_) -> None:
    columns, rows = os.get_terminal_size(0)
    try:
        controlling = os.tcgetpgrp(0) == os.getpgrp()
    except OSError:
        controlling = False
    say(f"size {columns}x{rows} controlling={controlling}")


signal.signal(signal.SIGWINCH, size)
say(f"pid {os.getpid()}")
for name in ("TERM", "COLORTERM", "LANG", "LC_ALL", "SEKIGAHARA_CLUB", "SEKIGAHARA_SESSION", "LD_PRELOAD", "SECRET"):
    say(f"env {name}={os.environ.get(name, '-')}")
size()
while True:
    key = os.read(0, 1)
    if key in (b"q", b""):
        say("bye")
        sys.exit(3)
    say(f"key {key!r}")
