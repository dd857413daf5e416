"""`tricklang demo` (also `make demo` and the `tricklang-demo` script,
:func:`interpreter.cli.demo_main`): a full match between built-in players, printed as a
transcript."""

from __future__ import annotations

import argparse

from ..players import make_agent, play_match
from ..state.state import new_game
from ..transcript import render
from .common import Subparsers, UsageError, integer, load, seat_list

DEFAULT_RULES = "ecarte"
"""The bundled game played by default (found by name, wherever the package is installed)."""


def register(sub: Subparsers, opts: argparse.ArgumentParser) -> None:
    """Add the subcommand ``demo`` to the ``tricklang`` parser."""
    p = sub.add_parser("demo", parents=[opts], help="a whole match between built-in players, as a transcript",
                       description="Play a whole match between built-in players and print it as a transcript.")
    p.add_argument("rules", nargs="?", default=DEFAULT_RULES, help="rule file or bundled game (default: ecarte)")
    p.add_argument("--seed", type=integer, default=2026, help="seed for the shuffles and the players (default 2026)")
    p.add_argument("--seats", metavar="P,P,...",
                   help="the player of each seat, comma-separated (heuristic, random, search:N[:ROLLOUT]), or one player for "
                   "every seat (default: heuristic at the even seats, random at the odd ones, whatever the game's size)")
    p.set_defaults(run=cmd_demo)


def default_seats(players: int) -> list[str]:
    """The demo's players when none are given: heuristic at the even seats, random at the odd
    ones (one side of heuristic players against one of random ones in a partnership game).

    >>> default_seats(2), default_seats(4)
    (['heuristic', 'random'], ['heuristic', 'random', 'heuristic', 'random'])
    """
    return ["heuristic" if seat % 2 == 0 else "random" for seat in range(players)]


def cmd_demo(args: argparse.Namespace) -> int:
    """Play and print the match; UsageError for a wrong number of seats or an unknown player."""
    rules = load(args.rules, args)
    names = default_seats(rules.player_count) if args.seats is None else seat_list(args.seats, rules)
    try:
        agents = [make_agent(n, args.seed + i) for i, n in enumerate(names)]
    except ValueError as err:
        raise UsageError(str(err)) from None
    state = play_match(new_game(rules, seed=args.seed), agents)
    print(render(state))
    print("seats: " + ", ".join(f"{i} = {n}" for i, n in enumerate(names)))
    return 0

