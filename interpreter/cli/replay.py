"""`tricklang replay`: re-check a game record and print its transcript."""

from __future__ import annotations

import argparse

from tricklang.diagnostics import printable

from ..errors import RecordError
from ..record import Record
from ..transcript import render as render_transcript
from .common import Subparsers, UsageError, error, integer, plural


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``replay`` to the ``tricklang`` parser."""
    p = sub.add_parser("replay", help="re-check a game record and print its transcript",
                       description="Re-load a record's rule file (refused if its text has changed), replay every "
                       "action and print the transcript. A record of a bundled game names the game, so it "
                       "replays anywhere; --rules gives the rule file when the record's is elsewhere. A record "
                       "whose actions do not fit is rejected, naming the step and the reason.")
    p.add_argument("record", metavar="RECORD", help="record file (.json) from 'play --record' or 'simulate --record'")
    p.add_argument("--rules", metavar="FILE", help="replay against this rule file instead of the one the record names "
                   "(refused unless its SHA-256 is the record's)")
    p.add_argument("--seat", dest="view", type=integer, metavar="N", help="show only what seat N saw")
    p.add_argument("-q", "--quiet", action="store_true", help="only check the record, print no transcript")
    p.set_defaults(run=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        record = Record.load(args.record)
        state = record.replay(rules_file=args.rules)
    except RecordError as err:
        message = str(err)
        error(args, message if args.record in message else f"{args.record}: {message}")
        return 1
    if args.view is not None and not 0 <= args.view < state.ruleset.player_count:
        raise UsageError(f"--seat {args.view}: the game has seats 0..{state.ruleset.player_count - 1}")
    if not args.quiet:
        print(render_transcript(state, args.view))
        if record.seats:  # (the record's own words: escaped)
            print(printable("seats: " + ", ".join(f"{i} = {name[:80]}" for i, name in enumerate(record.seats))))
    outcome = state.outcome()
    how = outcome.result() if outcome is not None else "unfinished; scores " + ", ".join(map(str, state.scores))
    print(printable(f"{args.record}: {plural(len(record.moves), 'action')} replayed and checked; {how}"))
    return 0
