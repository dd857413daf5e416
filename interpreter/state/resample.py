"""Information-set sampling: a state a seat cannot tell from the real one.

``state.resample(seat, rng)`` (or :func:`resample`) returns a new :class:`State` in
which everything ``seat`` can know is unchanged and the cards hidden from it are dealt
again at random among the places they could be. The definition it is tested against:
replaying the whole history from the sampled decks is legal at every step and gives
``seat`` the same observations (the event log, the legal actions at each of its
decisions, and the final :meth:`State.observation`).

How. A state is (rules, options, seed or decks, first dealer, actions), so a sampled
state is a prearranged deck per deal (``new_game(decks=...)``) and the same history,
with the hidden cards renamed. For each deal:

1. The cards ``seat`` has seen are fixed: every card code in its view of the deal's
   events, in the legal actions it was offered (a dealer robbing the pack sees the
   pack), and, for the deal under way, in its observation now.
2. The other cards are the hidden ones; each is also a *role* (the place, over time, of
   that card in the real deal). A sample is a permutation ``sigma`` of the hidden cards:
   card ``sigma(x)`` lies wherever ``x`` lay, and an action that named ``x`` (a face-down
   discard by another seat) names ``sigma(x)``.
3. Inferences the laws allow narrow the roles: at each card another seat played, the
   cards it could not have held, given the cards known to be in its hand then, are those
   with which the play would have been illegal (:meth:`State.allowed_plays`): a player
   who did not follow suit holds none of it, one who did not beat holds nothing higher.
   This assumes the legal-play rules are monotone (a card that forbids the play with a
   small hand forbids it with a larger one), which holds for every rule the language
   has.
4. ``sigma`` is drawn uniformly among the permutations that respect (1) and (3), by
   exact counting over classes of roles and cards with the same constraints; the
   replay then checks it, and a permutation that does not fit (a hidden card that an
   automatic move, a declaration or a pattern would have revealed) is rejected and
   drawn again. Rejection keeps the draw uniform over the consistent deals.

Deals are sampled one after another (each one's check replays it), so finished deals
are redealt too. The deals after the current one are shuffled from a fresh seed drawn
from ``rng`` (:meth:`State.reseed`), so a sampled state says nothing about the real
future. Random remedies so far (``move 1 at random``) keep their real draws: they pick
places, and the cards there are renamed like the rest.

Uniform means: each consistent assignment of hidden cards to roles is equally likely.

Equal cards (``copies N``). The roles are the physical cards, by name (``QC#0``, ``QC#1``:
:mod:`interpreter.state.equal_cards`): the real match is read under these names, so a
card the seat saw is the very card it saw, and the sampled deck is written back in faces
(copies numbered canonically by ``new_game(decks=...)``); everything compared with the
sampled world stays in faces. A meld of another seat shows some cards of a face in its
hand but not whether it holds more: the first ones it really held are fixed, so a world
where it holds ``m`` of a face of which ``k`` were fixed is proposed ``C(m, k)`` times too
often and kept with probability ``1 / C(m, k)`` (:meth:`Resampler._weigh`).

>>> import random, tricklang, interpreter
>>> state = interpreter.new_game(tricklang.load("rules/ecarte.trick"), seed=4)
>>> state.apply("propose"); state.apply("accept")
>>> world = state.resample(0, random.Random(1))
>>> world.observation(0) == state.observation(0)
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from math import comb
from typing import TYPE_CHECKING, Any

from ..errors import GameError, ResampleError
from .equal_cards import CardNames
from .matching import sample_matching
from .redeal import redealt_cores
from .seen import codes_in, offer

if TYPE_CHECKING:  # the state module calls this one (State.resample): only a protocol of it
    from .protocol import StateLike as State

MAX_ATTEMPTS = 20_000
"""Draws tried for one deal before :class:`ResampleError` is raised."""

_MOVING = {"move", "dealt", "draw", "select", "play", "turn_up", "deal", "redeal", "exposed", "trick", "leads", "replay"}
"""Event types that move cards (or start a deal)."""


@dataclass
class _Deal:
    """What the real history says about one deal, from the sampling seat's view."""

    number: int  # 1 for the first deal
    trigger: int  # actions applied before the deal was laid out
    end: int  # actions applied when the next deal was laid out (or all of them)
    deck: list[str]
    known: set[str] = field(default_factory=set)
    excluded: dict[str, set[str]] = field(default_factory=dict)
    hidden: list[str] = field(default_factory=list)
    learned: dict[str, set[str]] = field(default_factory=dict)  # exclusions learned while sampling


@dataclass
class _Play:
    deal: int
    seat: int
    card: str
    hand: list[str]
    state: State
    cache: tuple[tuple[str, ...], dict[str, bool]] | None = None  # the known cards of the hand, and whether
    # the play was allowed with each other card (face) added to them


def resample(state: State, seat: int, rng: random.Random | None = None) -> State:
    """A state ``seat`` cannot tell from ``state``, hidden cards redealt (module doc).

    Raises:
        ResampleError: ``seat`` is not a seat of the game, the state is not in the
            default modes (``selections='all'``, ``chance='automatic'``), or no consistent
            deal was found within :data:`MAX_ATTEMPTS` draws; ``state`` is unchanged.
    """
    rng = rng if rng is not None else random.Random()
    return Resampler(state, seat, rng).sample(rng)


class Resampler:
    """Draws many samples for one seat: the history is read, and the finished deals are
    sampled, once; each :meth:`sample` then redeals only the current deal.
    :meth:`update` reads the actions taken since (a player keeps one per match).

    With ``redeal_past=False`` the finished deals are kept as they really were: cheaper,
    and enough for a player that only looks ahead (:mod:`interpreter.players.search`); nothing
    in them bears on what is still to come.

    Raises:
        ResampleError: as :func:`resample`.
    """

    def __init__(self, state: State, seat: int, rng: random.Random, *, redeal_past: bool = True) -> None:
        n = state.ruleset.player_count
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ResampleError(f"seat {seat!r} does not exist: this game has seats 0..{n - 1}")
        if state.selections != "all" or state.chance != "automatic":
            raise ResampleError("resample needs the default selections ('all') and chance ('automatic')")
        self.seat = seat
        # A pack with copies: the roles are cards by name (QC#0, QC#1), the seat sees faces.
        self._names = CardNames(state.game) if state.game.tables.copies > 1 else None
        self._shows: dict[int, list[tuple[int, str, int]]] = {}  # action -> (melder, face, cards shown)
        self._renamed: dict[int, list[str]] = {}  # action -> its words, hidden cards by name
        self.pevents: list[dict[str, Any]] = []  # the seat's events, cards by name
        self._weight = 1.0  # the weight of the world being replayed (see _weigh)
        self.redeal_past = redeal_past
        data = state.to_dict()
        self._new: dict[str, Any] = {"dealer": data["dealer"], "mode": data.get("mode", "strict")}
        decks = {int(k): v for k, v in data.get("decks", {}).items()} or None
        reseeds = {int(k): v for k, v in data.get("reseeds", {}).items()} or None
        self._truth = state.new_match(seed=data["seed"], deck=data.get("deck"), decks=decks,
                               reseeds=reseeds, record_events=True, **self._new)
        self._codes = set(self._names.names if self._names else self._truth.deal_deck(1))
        self.seed = data["seed"]
        self.actions: list[str] = []
        self.actors: list[int] = []
        self.events: list[dict[str, Any]] = []  # the seat's events in the match read so far
        self._deal_starts: list[int] = []  # the index of the event that opens each deal (see _deal_event)
        self._deal_scanned = 0
        self._event_codes: list[tuple[bool, set[str]]] = []  # per event: whether it opens a deal, the codes it names
        self.offered: dict[int, Any] = {}  # the seat's legal actions at each of its decisions (see seen.offer)
        self.deals: list[_Deal] = []
        self._moves: dict[int, tuple[int, list[str]]] = {}  # event index -> (deal, cards left in the source)
        self._plays: list[_Play] = []
        self._seen: dict[int, set[str]] = {}
        self._logged = 0
        self._real_pre: State | None = None  # the real state before the current deal's trigger
        self._finalised = 0  # deals whose known cards and exclusions are final
        self._groups_done = 0
        self._pre: State | None = None  # the sampled world just before the current deal's trigger
        self._sigma_before: dict[str, str] = {}  # the renaming of the deal before it
        self._pre_events = 0  # the length of its event log
        self._last_sigma: dict[str, str] = {}  # the renaming of the last draw's current deal
        self._pool: list[tuple[State, dict[str, str], int, int]] = []  # (state, renaming, actions, events)
        self._pool_key: tuple[int, int] | None = None
        self._open_deals(self._truth, 0, 0)
        self._logged = len(self._truth.events(seat))
        if self._names is not None:
            self.pevents = self._names.events(self._truth, seat, 0)
            self._seen.setdefault(1, set()).update(self._names.visible(self._truth, seat))
            self._read_shows(self._truth, -1, self._truth.events(seat))
        self.update(state, rng)

    def update(self, state: State, rng: random.Random) -> None:
        """Read the actions taken since the last update (``state`` must continue the same
        match) and sample the deals finished since.

        Raises:
            ResampleError: ``state`` is not a continuation of the match read so far, or a
                finished deal has no consistent redeal.
        """
        if state.actions[:len(self.actions)] != self.actions or state.seed != self._truth.seed:
            raise ResampleError("the state does not continue the match this sampler has read")
        for text in state.actions[len(self.actions):]:
            self._read(text)
        self.state = state
        # (the seat's events so far are those read at the last update: only the new ones are rendered)
        self.events = self.events + state.events(self.seat, start=len(self.events))
        self._view = state._observation_but_events(self.seat)  # what every sampled world must show
        # the seat (its events too: the replay compares them one by one, see _check)
        for d in self.deals[:-1]:
            d.end = self.deals[d.number].trigger  # the next deal's trigger
        self.deals[-1].end = len(self.actions)
        self._known_cards()
        groups = self._groups()
        self._current = groups[-1]
        for group in groups[self._groups_done:-1]:
            if self.redeal_past:
                self._pre = self._draw(group, rng, last=False)
            else:
                self._pre = None
        self._groups_done = len(groups) - 1
        keep = self._current[0].trigger - 1  # what finished deals offered is not needed again
        self.offered = {i: v for i, v in self.offered.items() if i >= keep}
        if not self.redeal_past and self._current[0].trigger > 0:
            assert self._real_pre is not None
            self._pre = self._real_pre
            self._pre_events = self._real_pre.event_count  # (one event of the seat an event of the match)

    def _read(self, text: str) -> None:
        """Apply one real action to the replica, noting what the seat could learn from it."""
        truth, seat, codes = self._truth, self.seat, self._codes
        i = len(self.actions)
        p = truth.current_player
        assert p is not None, "a state's actions replay"
        self.actors.append(p)
        self.actions.append(text)
        deal = truth.deal_number
        names = self._names
        if p == seat:
            offered, cards = offer(truth)
            self.offered[i] = offered
            if names is not None:  # the cards of a selection by name; plays are from the seat's own hand
                sel = truth.legal_actions().selection
                cards = {names.names[c] for c in sel.cards} if sel is not None else set()
            self._seen.setdefault(deal, set()).update(cards & codes)
        elif text.startswith("play ") and truth.phase == "play":
            card = text.split()[1]  # (from the hand of the seat whose turn it is: another may play it, `plays for`)
            owner = p if card in truth.hand(p) else next(
                (q for q in range(truth.player_count) if card in truth.hand(q)), p)
            hand = names.hand(truth, owner) if names is not None else truth.hand(owner)
            self._plays.append(_Play(deal, owner, card, hand, truth.clone()))
        held = [names.hand(truth, q) for q in range(truth.player_count)] if names is not None and p != seat else None
        before = truth.clone() if not self.redeal_past else None
        truth.apply(text)
        opened = len(self.deals)
        self._open_deals(truth, i + 1, opened)
        if before is not None and len(self.deals) > opened:
            self._real_pre = before
        batch = truth.events(seat, start=self._logged)
        if names is not None:
            self._read_names(truth, i, text, p, held, batch)
        else:
            self._note_moves(truth, self._logged, batch)
        self._logged += len(batch)

    def _read_names(self, truth: State, i: int, text: str, actor: int, held: list[list[str]] | None,
                    batch: list[dict[str, Any]]) -> None:
        """With copies: the batch under card names, the cards the seat sees now, the cards
        each meld shows (the melder's first cards of each face shown), and the hidden
        cards another seat's action named (those that left its hand, by face)."""
        names, seat, deal = self._names, self.seat, truth.deal_number
        assert names is not None
        self.pevents.extend(names.events(truth, seat, self._logged))
        self._seen.setdefault(deal, set()).update(names.visible(truth, seat))
        self._read_shows(truth, i, batch)
        words = text.split()
        if held is None or len(words) < 2 or words[0] == "play" or not any(w in names.face.values() for w in words):
            return
        left = sorted(set(held[actor]) - set(names.hand(truth, actor)))
        renamed = []
        for w in words:
            name = next((x for x in left if names.face[x] == w), None)
            if name is not None:
                left.remove(name)
            renamed.append(name or w)
        self._renamed[i] = renamed

    def _note_moves(self, truth: State, logged: int, batch: list[dict[str, Any]]) -> None:
        """Remember what each visible automatic move left in its source zone, for
        learning from a sampled deal in which the move took more cards (see _learn).
        Only when nothing else moved cards after it in the same batch."""
        for k, event in enumerate(batch):
            if event.get("type") != "move" or "cards" not in event:
                continue
            if any(e.get("type") in _MOVING for e in batch[k + 1:]):
                continue
            name, _, owner = str(event["from"]).partition(" of ")
            try:
                left = truth.zone(name, int(owner.split()[-1]) if owner else None)
            except (KeyError, ValueError, IndexError):
                continue
            self._moves[logged + k] = (truth.deal_number, left)

    def _read_shows(self, truth: State, i: int, batch: list[dict[str, Any]]) -> None:
        """With copies: the cards the melds of another seat in a batch show, taken as the
        melder's first cards of each face (see _weigh); ``i``: the action (-1: none yet)."""
        names = self._names
        assert names is not None
        for event in batch:
            shown = names.shown(event)
            if shown is None or shown[0] == self.seat:
                continue
            melder, faces = shown
            self._seen.setdefault(truth.deal_number, set()).update(names.pick(names.hand(truth, melder), faces))
            self._shows.setdefault(i, []).extend((melder, f, k) for f, k in faces.items())

    def _open_deals(self, truth: State, applied: int, known: int) -> None:
        for number in range(known + 1, truth.deal_number + 1):
            deck = self._names.deck(truth, number) if self._names else truth.deal_deck(number)
            self.deals.append(_Deal(number, applied, applied, deck))

    def _known_cards(self) -> None:
        """Fix, per deal not yet final, every card the seat's view of it names, and
        narrow the roles by the plays of the other seats."""
        first = self._finalised
        for d in self.deals[first:]:
            d.known = set(self._seen.get(d.number, ()))
        deal = first
        events = self.pevents if self._names else self.events
        named = self._event_codes  # the card codes each event names (events do not change: read once)
        for event in events[len(named):]:
            found: set[str] = set()
            codes_in(event, self._codes, found)
            named.append((event.get("type") == "deal", found))
        for opens, found in named[self._deal_event(first + 1):]:
            if opens:
                deal += 1
            self.deals[deal - 1].known |= found
        if self._names is None:  # (with copies, what the seat sees now was read with the last action)
            codes_in(self._view, self._codes, self.deals[-1].known)
        for d in self.deals[first:]:
            d.hidden = [c for c in d.deck if c not in d.known]
            hidden = set(d.hidden)
            d.excluded = {x: v & hidden for x, v in d.learned.items() if x in hidden}
        for play in self._plays:
            self._exclude(play)
        self._finalised = len(self.deals) - 1
        self._plays = [p for p in self._plays if p.deal > self._finalised]

    def _exclude(self, play: _Play) -> None:
        """The cards the player could not have held when he played (void, could not beat...)."""
        deal = self.deals[play.deal - 1]
        roles = [c for c in play.hand if c not in deal.known]
        if not roles:
            return
        base = [c for c in play.hand if c in deal.known]
        key = tuple(base)
        if play.cache is None or play.cache[0] != key:  # (whether a card fits depends on the known ones only)
            play.cache = (key, {})
        fits = play.cache[1]
        face = self._names.face if self._names else {}
        faces: list[str] | None = None
        for f in {face.get(y, y) for y in deal.hidden}:
            if f not in fits:
                faces = faces if faces is not None else [face.get(c, c) for c in base]
                fits[f] = play.card in play.state.allowed_plays([*faces, f])
        excluded = {y for y in deal.hidden if not fits[face.get(y, y)]}
        if excluded:
            for x in roles:
                deal.excluded.setdefault(x, set()).update(excluded)

    # ------------------------------------------------------------ sampling
    def _groups(self) -> list[list[_Deal]]:
        """Deals laid out by the same action (or at the start) are sampled together."""
        groups: list[list[_Deal]] = []
        for d in self.deals:
            if groups and groups[-1][0].trigger == d.trigger:
                groups[-1].append(d)
            else:
                groups.append([d])
        return groups

    def sample(self, rng: random.Random) -> State:
        """One sampled state (the module doc says what it keeps and what it redeals).

        Raises:
            ResampleError: no consistent deal within :data:`MAX_ATTEMPTS` draws.
        """
        world = self._draw(self._current, rng, last=True)
        world.reseed(rng.randrange(2**31))  # later deals: a fresh shuffle, nothing of the real future
        return world

    def pool(self, rng: random.Random, count: int) -> list[State]:
        """``count`` sampled states for the position read last, reusing those of earlier
        calls in the same deal: each is carried forward through the actions taken since
        (renamed as when it was drawn) and kept only if it still fits, then the pool is
        topped up with new draws. A draw uniform over the deals consistent then, kept
        only if consistent now, is uniform over the deals consistent now; the states
        of successive calls are not independent of each other. Clone a state before
        changing it.

        Raises:
            ResampleError: as :meth:`sample`.
        """
        key = (self._current[0].number, self._current[0].trigger)
        kept: list[tuple[State, dict[str, str], int, int]] = []
        if self._pool_key == key:
            for world, sigma, done, pos in self._pool:
                if done == len(self.actions):
                    kept.append((world, sigma, done, pos))
                elif (got := self._follow(world, sigma, done, pos, rng)) is not None:
                    kept.append((world, sigma, len(self.actions), got))
        while len(kept) < count:
            world = self.sample(rng)
            kept.append((world, self._last_sigma, len(self.actions), world.event_count))
        self._pool, self._pool_key = kept, key
        return [w for w, _, _, _ in kept[:count]]

    def redealt_cores(self, rng: random.Random, count: int) -> list[Any] | None:
        """``count`` cores of the position read last (:meth:`update`), each with the hidden
        cards of the current deal redealt *in place* (:mod:`interpreter.state.redeal`), for
        the search player's random rollouts: no replay, no events, no :class:`State`. None
        where that does not apply: a pack with copies, several deals laid out at once, or a
        hidden card in no hidden zone.

        The draw is :meth:`sample`'s (uniform under the known cards and the exclusions the
        plays imply), kept when the pending decision is unchanged; unlike :meth:`sample`,
        what a replay checks beyond those constraints (an automatic move or a pattern that
        would have revealed a hidden card, a value computed from one) is not checked: exact
        for plain trick play, an approximation elsewhere.

        Raises:
            ResampleError: no draw kept the pending decision within :data:`MAX_ATTEMPTS`.
        """
        if self._names is not None or len(self._current) != 1:
            return None
        deal = self._current[0]
        return redealt_cores(self.state, self.seat, deal.hidden, deal.excluded, rng, count, MAX_ATTEMPTS)

    def _follow(self, world: State, sigma: dict[str, str], done: int, pos: int, rng: random.Random) -> int | None:
        """Carry a sampled state through the real actions from ``done`` on; its new event
        position, or None if it no longer fits."""
        self._weight = 1.0
        for i in range(done, len(self.actions)):
            if not self._step(world, i, sigma):
                return None
            got = self._check(world, pos)
            if got is None:
                return None
            pos = got
            self._weigh(world, i)
        if self._weight < 1.0 and rng.random() >= self._weight:
            return None
        if pos != len(self.events) or world._observation_but_events(self.seat) != self._view:
            return None
        return pos

    def _draw(self, group: list[_Deal], rng: random.Random, *, last: bool) -> State:
        for _ in range(MAX_ATTEMPTS):
            sigmas = {d.number: sample_matching(d.hidden, d.excluded, rng) for d in group}
            self._weight = 1.0
            world = self._replay(group, sigmas, last)
            if world is not None and (self._weight == 1.0 or rng.random() < self._weight):
                self._last_sigma = sigmas[group[-1].number]
                return world
        numbers = ", ".join(str(d.number) for d in group)
        raise ResampleError(f"no deal consistent with seat {self.seat}'s view of deal {numbers} "
                            f"was found in {MAX_ATTEMPTS} draws")

    def _replay(self, group: list[_Deal], sigmas: dict[int, dict[str, str]], last: bool) -> State | None:
        """Replay the group's deals from the sampled decks; None if they do not fit.

        When the group is not the last one, the world returned is the one just before
        the action that lays the next deal out (kept as the next group's start).
        """
        face = self._names.face if self._names else {}
        decks = {d.number: [face.get(x, x) for x in (sigmas[d.number].get(c, c) for c in d.deck)] for d in group}
        trigger = group[0].trigger
        if trigger == 0:
            world: State = self.state.new_match(seed=self.seed, decks=decks, record_events=True, **self._new)
            pos = 0
            self._weigh(world, -1)
        else:
            assert self._pre is not None
            world = self._pre.clone()
            pos = self._pre_events
            for number, deck in decks.items():
                world.prearrange(number, deck)
            if not self._step(world, trigger - 1, self._sigma_before):
                return None
            self._weigh(world, trigger - 1)
        got = self._check(world, pos)
        if got is None:
            return None
        pos = got
        sigma = sigmas[group[-1].number]
        end = group[-1].end
        for i in range(trigger, end):
            if not last and i == end - 1:
                kept: State = world.clone()
                kept_pos = pos
                # Compare up to the next deal's start (its cards are not sampled yet).
                if not self._step(world, i, sigma) or self._check(world, pos, self._deal_event(group[-1].number + 1)) is None:
                    return None
                self._sigma_before, self._pre_events = sigma, kept_pos
                return kept
            if not self._step(world, i, sigma):
                return None
            got = self._check(world, pos)
            if got is None:
                return None
            pos = got
            self._weigh(world, i)
        if last and (pos != len(self.events) or world._observation_but_events(self.seat) != self._view):
            return None
        return world

    def _step(self, world: State, i: int, sigma: dict[str, str]) -> bool:
        """Apply action i, renamed by sigma; False if it does not fit."""
        if world.current_player != self.actors[i]:
            return False
        offered = self.offered.get(i)
        if offered is not None and offer(world)[0] != offered:
            return False
        text = self.actions[i]
        if self._names is not None:
            if i in self._renamed:
                face = self._names.face
                text = " ".join(face.get(x, x) for x in (sigma.get(w, w) for w in self._renamed[i]))
        elif sigma:
            text = " ".join(sigma.get(w, w) for w in text.split())
        try:
            world.apply(text)
        except GameError:  # illegal here, or a rule failed: the sampled deal does not fit
            return False
        return True

    def _weigh(self, world: State, i: int) -> None:
        """With copies, after action i of a sampled world: for each meld another seat showed
        then, k cards of a face were kept in the melder's hand (the first ones it really
        held); a world where it holds m of that face is reached by C(m, k) choices of which
        k were kept, so it is kept with weight 1 / C(m, k) (uniform over the real deals)."""
        for melder, face, k in self._shows.get(i, ()):
            m = world.hand(melder).count(face)
            if m > k:
                self._weight /= comb(m, k)

    def _deal_event(self, number: int) -> int:
        """The index of the seat's event that opens deal ``number`` (the number of its
        events if that deal has not opened)."""
        starts = self._deal_starts  # (events do not change: each is looked at once)
        for i in range(self._deal_scanned, len(self.events)):
            if self.events[i].get("type") == "deal":
                starts.append(i)
        self._deal_scanned = len(self.events)
        return starts[number - 1] if number <= len(starts) else len(self.events)

    def _check(self, world: State, pos: int, upto: int | None = None) -> int | None:
        """Compare the world's new events (from ``pos``) with the real ones the seat saw:
        the new position, or None (after learning from the difference) if they differ."""
        new = world.events(self.seat, start=pos)
        if upto is not None:
            new = new[:max(0, upto - pos)]
        real = self.events[pos:pos + len(new)]
        if new == real:
            return pos + len(new)
        k = next((j for j, (a, b) in enumerate(zip(new, real, strict=False)) if a != b), None)
        if k is not None:
            self._learn(pos + k, new[k])
        return None

    def _learn(self, index: int, seen: dict[str, Any]) -> None:
        """A sampled deal in which a visible automatic move took more cards than the real
        one did: the move takes every card that fits it (it took fewer than it could in
        the real deal), so none of the extra cards can lie where the real deal left
        cards in the source zone. Excluding them there is a necessary condition, so
        draws stay uniform over the consistent deals."""
        real = self.events[index]
        note = self._moves.get(index)
        if note is None or real.get("type") != "move" or seen.get("type") != "move":
            return
        if (real.get("from"), real.get("to")) != (seen.get("from"), seen.get("to")):
            return
        had, took = set(real.get("cards", ())), set(seen.get("cards", ()))
        if not had < took:
            return
        number, left = note
        deal = self.deals[number - 1]
        hidden = set(deal.hidden)
        extra = (took - had) & hidden
        for x in left:
            if x in hidden:
                deal.excluded.setdefault(x, set()).update(extra - {x})
                deal.learned.setdefault(x, set()).update(extra - {x})
