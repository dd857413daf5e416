"""The progress of a long command on stderr: the count, the rate and the time left.

On a terminal it is a bar redrawn in place (``\\r``) at most ten times a second. Asked for
where stderr is a file or a pipe (``--progress``), it degrades to a plain line every few
seconds, which logs keep readably; by default it shows nothing there. No library is
needed: the rate is the matches done over the time since the first, the time left the
matches to go at that rate.

>>> import io
>>> clock = iter([0.0, 10.0, 10.0]).__next__
>>> bar = Progress(40, mode="plain", stream=io.StringIO(), clock=clock)
>>> bar.update(10)
>>> bar.stream.getvalue()
'  10/40 matches (25%), 1.0 matches/s, 30 s left\\n'
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Literal, TextIO

Mode = Literal["auto", "on", "off", "plain", "bar"]

PLAIN_EVERY = 5.0
"""Seconds between two plain lines."""
BAR_EVERY = 0.1
"""Seconds between two redraws of the bar."""

__all__ = ["Progress", "clock_text"]


def clock_text(seconds: float) -> str:
    """A duration for people: ``42 s``, ``3 min 05 s``, ``2 h 07 min``.

    >>> clock_text(42.4), clock_text(185), clock_text(7620)
    ('42 s', '3 min 05 s', '2 h 07 min')
    """
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


class Progress:
    """Progress of ``total`` matches: ``mode`` auto (a bar on a terminal, else nothing),
    on (a bar on a terminal, else plain lines), off, plain or bar."""

    def __init__(self, total: int, mode: Mode = "auto", *, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic, what: str = "matches") -> None:
        self.total = max(1, total)
        self.stream = stream if stream is not None else sys.stderr
        self.clock = clock
        self.what = what
        terminal = self._isatty()
        if mode == "auto":
            mode = "bar" if terminal else "off"
        elif mode == "on":
            mode = "bar" if terminal else "plain"
        self.mode: Mode = mode
        self.start = clock()
        self.last = self.start
        self.drawn = 0

    def _isatty(self) -> bool:
        try:
            return self.stream.isatty()
        except (AttributeError, ValueError):
            return False

    def line(self, done: int) -> str:
        """The text: count, share, rate and time left (once the rate is known)."""
        elapsed = self.clock() - self.start
        text = f"{done}/{self.total} {self.what} ({100 * done // self.total}%)"
        if done and elapsed > 0:
            rate = done / elapsed
            text += f", {rate:,.1f} {self.what}/s"
            if done < self.total:
                text += f", {clock_text((self.total - done) / rate)} left"
        return text

    def update(self, done: int) -> None:
        """Show that ``done`` matches are over (drawn only when it is time to)."""
        if self.mode == "off":
            return
        now = self.clock()
        every = BAR_EVERY if self.mode == "bar" else PLAIN_EVERY
        if now - self.last < every and done < self.total:
            return
        self.last = now
        if self.mode == "plain":
            self.stream.write(f"  {self.line(done)}\n")
        else:
            width = 30
            filled = width * done // self.total
            text = f"\r  [{'#' * filled}{'.' * (width - filled)}] {self.line(done)}"
            self.drawn = max(self.drawn, len(text))
            self.stream.write(text)
        self.stream.flush()

    def close(self) -> None:
        """Clear the bar (plain lines stay)."""
        if self.mode == "bar" and self.drawn:
            self.stream.write("\r" + " " * self.drawn + "\r")
            self.stream.flush()
