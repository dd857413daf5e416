"""The two match-long logs of a State, stored compactly.

:class:`ActionLog` holds the texts of the actions taken as small integers (the ids of
their words) in an :class:`array.array`, and renders a text only when it is read: a
match of a thousand deals keeps a few bytes an action instead of a string each.

:class:`EventLog` holds the entries of :mod:`interpreter.events`. The entries of the
deal under way stay a plain list (observations read them at every step); at the start
of a deal, once enough have gathered, the earlier ones are sealed into a chunk of
bytes (:mod:`pickle` of the entries, which shares their repeated strings and tuples),
and unpacked only when read. Both logs read like the lists they replace (``len``,
indexing, slices, iteration) and are copied cheaply: a copy shares the sealed chunks.

>>> log = ActionLog()
>>> log.append("play 10H"); log.append("discard 7S 8S")
>>> log[1], len(log), log == ["play 10H", "discard 7S 8S"]
('discard 7S 8S', 2, True)
"""

from __future__ import annotations

import pickle
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from .actions import Action
from .core import Event

_BLOCK = 16
"""ActionLog keeps where every 16th action starts (reading one scans at most 15 others)."""

ENCODE_AT_LEAST = 1024
"""The State has the actions logged encoded at a checkpoint once this many are waiting: a
short match (a random playout, a search's rollout) that is never read encodes none."""


class ActionLog(Sequence[str]):
    """The texts of the actions taken, in order (a read-only sequence of strings to its
    readers; ``append``, :meth:`pop` and :meth:`compact` are the State's).

    ``append`` is the bound ``append`` of a short list of the actions (an :class:`~interpreter.actions.Action`
    or its text) not yet encoded: a random playout logs every action and reads none;
    they are encoded when the log is read or copied, or by :meth:`compact`, which the
    State calls at a checkpoint (every :data:`~interpreter.snapshot.CHECKPOINT_EVERY`
    actions) once :data:`ENCODE_AT_LEAST` are waiting.

    A text of one or two words (``play KS``, ``bid 7``, ``pass``) is stored as one code,
    a longer one (``discard 7H 8C 9D``) word by word: each code is the id of the text or
    word in a vocabulary shared by the copies of one log (it grows only with the distinct
    short texts and words used, which the rules bound), shifted left once, with the low
    bit marking the last code of an action.
    """

    __slots__ = ("_words", "_ids", "_codes", "_starts", "_n", "_pending", "append")

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self._words: list[str] = []
        self._ids: dict[str, int] = {}  # unit -> its id, shifted left once
        self._codes = array("H")
        self._starts = array("L")  # where action 16k starts in _codes, for the first blocks read
        self._n = 0  # the actions encoded
        self._pending: list[str | Action] = list(texts)
        self.append = self._pending.append  # log an action or its text (encoded later)
        if self._pending:
            self.compact()

    def compact(self, at_least: int = 0) -> None:
        """Encode the actions appended since the last time (when there are ``at_least``)."""
        pending = self._pending
        if pending and len(pending) >= at_least:
            for item in pending:
                self._encode(item if type(item) is str else item.text)  # type: ignore[union-attr]
            pending.clear()

    def _encode(self, text: str) -> None:
        self._n += 1
        unit = self._ids.get(text)
        if unit is not None:  # a text of one or two words, seen before: one code
            self._codes.append(unit | 1)
            return
        words = text.split(" ")
        if len(words) <= 2:
            words = [text]
        codes = self._codes
        for word in words:
            unit = self._ids.get(word)
            if unit is None:
                unit = self._ids[word] = len(self._words) << 1
                self._words.append(word)
                if unit >= 1 << 16 and codes.typecode == "H":  # more units than 2 bytes hold
                    self._codes = codes = array("L", codes)
            codes.append(unit)
        codes[-1] |= 1

    def pop(self) -> str:
        """Take back the last action; returns its text.

        Raises:
            IndexError: the log is empty.
        """
        self.compact()
        if not self._n:
            raise IndexError("pop from an empty action log")
        text = self[self._n - 1]
        start = self._start(self._n - 1)
        del self._codes[start:]
        self._n -= 1
        del self._starts[-(-self._n // _BLOCK):]  # the blocks that start at an action still logged
        return text

    def _start(self, i: int) -> int:
        """Where action ``i`` (0 <= i < len) starts in the codes (the starts of the blocks
        of :data:`_BLOCK` actions are found when first needed, and kept)."""
        starts, codes = self._starts, self._codes
        while len(starts) <= i // _BLOCK:
            pos = starts[-1] if starts else 0
            if starts:
                for _ in range(_BLOCK):
                    while not codes[pos] & 1:
                        pos += 1
                    pos += 1
            starts.append(pos)
        pos = starts[i // _BLOCK]
        for _ in range(i % _BLOCK):
            while not codes[pos] & 1:
                pos += 1
            pos += 1
        return pos

    def _texts(self, start: int, stop: int) -> list[str]:
        self.compact()
        if start >= stop:
            return []
        words, codes = self._words, self._codes
        out: list[str] = []
        current: list[str] = []
        pos = self._start(start)
        while len(out) < stop - start:
            c = codes[pos]
            current.append(words[c >> 1])
            if c & 1:
                out.append(" ".join(current))
                current = []
            pos += 1
        return out

    def __len__(self) -> int:
        return self._n + len(self._pending)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...

    def __getitem__(self, i: int | slice) -> str | list[str]:
        self.compact()
        if isinstance(i, slice):
            start, stop, step = i.indices(self._n)
            if step != 1:
                return self._texts(0, self._n)[i]
            return self._texts(start, stop)
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("action log index out of range")
        return self._texts(i, i + 1)[0]

    def __iter__(self) -> Iterator[str]:
        self.compact()
        return iter(self._texts(0, self._n))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):
            return len(self) == len(other) and list(self) == list(other)
        if isinstance(other, (list, tuple)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))

    def copy(self) -> ActionLog:
        """An independent log with the same actions (the vocabulary is shared)."""
        self.compact()
        new = ActionLog.__new__(ActionLog)
        new._words = self._words
        new._ids = self._ids
        new._codes = array(self._codes.typecode, self._codes)
        new._starts = array("L", self._starts)
        new._n = self._n
        new._pending = []
        new.append = new._pending.append
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        return ActionLog, (list(self),)


SEAL_AT_LEAST = 256
"""Entries gathered before :meth:`EventLog.seal` packs them into a chunk."""


class EventLog:
    """The event log of a match: entries of :mod:`interpreter.events`, numbered from 0.

    ``append`` is the list's own (the hottest call of a match); ``log[i]``, slices,
    ``len`` and iteration read sealed chunks and the open tail alike; ``log[i] = e``
    replaces an entry of the tail and ``del log[n:]`` drops the entries from ``n`` on
    (a rollback), unpacking a sealed chunk when needed.
    """

    __slots__ = ("_chunks", "_sealed", "_tail", "append")

    def __init__(self, entries: Iterable[Event] = ()) -> None:
        self._chunks: list[tuple[int, int, bytes]] = []  # (number of the first entry, how many, pickled)
        self._sealed = 0
        self._tail: list[Event] = list(entries)
        self.append = self._tail.append

    def seal(self) -> None:
        """Pack the open entries into a chunk, if at least :data:`SEAL_AT_LEAST` have gathered."""
        tail = self._tail
        if len(tail) >= SEAL_AT_LEAST:
            self._chunks.append((self._sealed, len(tail), pickle.dumps(tail, protocol=pickle.HIGHEST_PROTOCOL)))
            self._sealed += len(tail)
            tail.clear()

    def __len__(self) -> int:
        return self._sealed + len(self._tail)

    def _entries(self, start: int) -> list[Event]:
        """The entries from ``start`` (0 <= start) on."""
        sealed = self._sealed
        if start >= sealed:
            return self._tail[start - sealed:]
        out: list[Event] = []
        for first, count, chunk in self._chunks:
            if first + count > start:
                entries: list[Event] = pickle.loads(chunk)  # bytes this log packed itself
                out.extend(entries[max(0, start - first):])
        out.extend(self._tail)
        return out

    @overload
    def __getitem__(self, i: int) -> Event: ...
    @overload
    def __getitem__(self, i: slice) -> list[Event]: ...

    def __getitem__(self, i: int | slice) -> Event | list[Event]:
        n = len(self)
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            if step == 1 and stop == n:
                return self._entries(start)
            return self._entries(0)[i]
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("event log index out of range")
        if i >= self._sealed:
            return self._tail[i - self._sealed]
        return self._entries(i)[0]

    def __setitem__(self, i: int, entry: Event) -> None:
        """Replace an entry of the deal under way.

        Raises:
            IndexError: ``i`` is not an entry of the open tail.
        """
        if i < 0:
            i += len(self)
        if not self._sealed <= i < len(self):
            raise IndexError("only the entries of the deal under way can be replaced")
        self._tail[i - self._sealed] = entry

    def __delitem__(self, i: slice) -> None:
        """``del log[n:]``: drop the entries from ``n`` on.

        Raises:
            TypeError: anything but a slice to the end.
        """
        if not isinstance(i, slice) or i.stop is not None or i.step is not None:
            raise TypeError("only the entries from some n on can be dropped (del log[n:])")
        n = max(0, min(len(self), (i.start or 0) if (i.start or 0) >= 0 else len(self) + i.start))
        tail = self._tail
        if n >= self._sealed:
            del tail[n - self._sealed:]
            return
        kept = self._entries(0)[:n]
        chunks = self._chunks
        while chunks and chunks[-1][0] + chunks[-1][1] > n:  # the chunks that hold entry n or later
            chunks.pop()
        self._sealed = chunks[-1][0] + chunks[-1][1] if chunks else 0
        tail.clear()
        tail.extend(kept[self._sealed:])

    def __iter__(self) -> Iterator[Event]:
        return iter(self._entries(0))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (EventLog, list)):
            return len(self) == len(other) and self._entries(0) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<EventLog of {len(self)} entries, {self._sealed} sealed>"

    def copy(self) -> EventLog:
        """An independent log with the same entries (the sealed chunks are shared)."""
        new = EventLog(self._tail)
        new._chunks = list(self._chunks)
        new._sealed = self._sealed
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt_events, (self._chunks, self._sealed, self._tail)


def _rebuilt_events(chunks: list[tuple[int, int, bytes]], sealed: int, tail: list[Event]) -> EventLog:
    log = EventLog(tail)
    log._chunks = list(chunks)
    log._sealed = sealed
    return log

