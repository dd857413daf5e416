"""Each statement of a rule file in English, for :mod:`tricklang.explain`: one ``visit_<Statement>``
method per kind of statement, on the words of :mod:`tricklang.prose`."""

from __future__ import annotations

import re
from typing import Any

from . import model as m
from .prose import CITE_RE, Item, capitalised, joined
from .prose_bids import BidWords
from .prose_play import PlayWords

__all__ = ["Prose"]


class Prose(PlayWords, BidWords):
    """Reads a ruleset's pieces as English; :class:`tricklang.explain` assembles a document."""

    # ------------------------------------------------------------ statements
    # ------------------------------------------------------------ statements, one method each
    def stmt(self, st: Any) -> list[Item]:
        """The reading of one statement, as list items."""
        return self.visit(st)

    def say(self, st: m.Stmt, text: str) -> list[Item]:
        """One sentence for a statement, with its laws."""
        return [self.item(capitalised(text), st.cite, lines=[st.span.line])]

    def generic_visit(self, node: m.Node, *args: Any) -> list[Item]:
        """A node without a ``visit_`` method.

        Raises:
            TypeError: always: every kind of statement has a reading of its own.
        """
        raise TypeError(f"the prose does not word {type(node).__name__}")

    def as_code(self, st: m.Statement) -> list[Item]:
        """A statement read as its own source line, in code style."""
        text = self.source_line(st.span.line) or type(st).__name__
        return [self.item(f"`{CITE_RE.sub('', text).strip()}`", st.cite, lines=[st.span.line])]

    def visit_EndMatch(self, st: m.EndMatch) -> list[Item]:  # noqa: N802 - visitor naming
        return self.as_code(st)  # `end the match` reads as itself

    def visit_DealCards(self, st: m.DealCards) -> list[Item]:  # noqa: N802 - visitor naming
        packets = [self.expr(p) for p in st.packets]
        how = joined(packets, "then") if len(packets) > 1 else packets[0]
        first = self.expr(st.first) if st.first is not None else "the player to the dealer's left"
        return self.say(st, f"deal {how} cards to each player, starting with {first}")

    def visit_TurnUp(self, st: m.TurnUp) -> list[Item]:  # noqa: N802 - visitor naming
        n = self.expr(st.count)
        what = "the top card of the pack is" if n == "1" else f"the top {n} cards of the pack are"
        return self.say(st, f"{what} turned up to {self.zone(st.to)}")

    def visit_SetTrump(self, st: m.SetTrump) -> list[Item]:  # noqa: N802 - visitor naming
        if st.source == "zone" and st.zone is not None:
            return self.say(st, f"the suit of the card turned up to {self.zone(st.zone)} is trumps")
        if st.source == "fixed" and st.suit in {o.name for o in self.rules.orders}:
            return self.say(st, f"the card order {st.suit} is in force")
        if st.source == "fixed":
            return self.say(st, f"{st.suit} are trumps")
        if st.source == "value" and st.value is not None:
            return self.say(st, f"{self.expr(st.value)} is trumps")
        return self.say(st, "there are no trumps")

    def visit_NameTrump(self, st: m.NameTrump) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.expr(st.player)} names the trump suit")

    def visit_Score(self, st: m.Score) -> list[Item]:  # noqa: N802 - visitor naming
        amount = self.expr(st.amount)
        if isinstance(st.amount, m.IntLit):
            amount = f"{st.amount.value} point{'s' if st.amount.value != 1 else ''}"
        label = f" (“{st.label}”)" if st.label else ""
        return self.say(st, f"{self.expr(st.who)} {'loses' if st.negative else 'scores'} {amount}{label}")

    def visit_Let(self, st: m.Let) -> list[Item]:  # noqa: N802 - visitor naming
        if st.rebind:
            return self.say(st, f"set `{st.name}` to {self.expr(st.value)}")
        return self.say(st, f"let `{st.name}` be {self.expr(st.value)}")

    def visit_StopLoop(self, st: m.StopLoop) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, "stop repeating")

    def visit_Pass(self, st: m.Pass) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, "nothing more happens")

    def visit_EndDeal(self, st: m.EndDeal) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, "the deal ends here")

    def only(self, matching: Any, fallback: Any) -> str:
        """`` (only cards that are P[, or ...])`` for a selection's ``matching P[, else Q]``."""
        if matching is None:
            return ""
        if fallback is None:
            return f" (only cards that are {self.pattern(matching)})"
        return (f" (cards that are {self.pattern(matching)} while there are enough of them; else all of those, "
                f"and the rest among cards that are {self.pattern(fallback)})")

    def visit_Discard(self, st: m.Discard) -> list[Item]:  # noqa: N802 - visitor naming
        match = self.only(st.matching, st.fallback)
        return self.say(st, f"{self.expr(st.player)} discards {self.count(st.count, 'discard')}{match} to {self.zone(st.to)}")

    def visit_Take(self, st: m.Take) -> list[Item]:  # noqa: N802 - visitor naming
        match = self.only(st.matching, st.fallback)
        called = f"; this move is called “{st.verb}”" if st.verb != "take" else ""
        if st.count.kind == "to":
            text = f"{self.expr(st.player)} picks cards{match} from {self.zone(st.source)} until holding {self.expr(st.count.low)}"
        else:
            text = f"{self.expr(st.player)} picks {self.count(st.count, 'take')}{match} from {self.zone(st.source)}"
        return self.say(st, text + called)

    def visit_Draw(self, st: m.Draw) -> list[Item]:  # noqa: N802 - visitor naming
        src = self.zone(st.source)
        if st.count.kind == "to":
            text = f"{self.expr(st.player)} draws from the top of {src} until holding {self.expr(st.count.low)} cards"
        else:
            text = f"{self.expr(st.player)} draws {self.count(st.count, 'draw')} from the top of {src}"
        if st.fallback is not None:
            only = f", taking only cards that are {self.pattern(st.fallback_matching)}" if st.fallback_matching is not None else ""
            text += f"; when it runs out, from {self.zone(st.fallback)}{only}"
        return self.say(st, text)

    def visit_Move(self, st: m.Move) -> list[Item]:  # noqa: N802 - visitor naming
        mode = getattr(st, "mode", "all")
        moved: Any = getattr(st, "amount", None)
        match = f" that are {self.pattern(st.matching)}" if st.matching is not None else ""
        n = self.expr(moved) if moved is not None else ""
        src = self.zone(st.source)
        if mode == "top" and moved is not None:
            what = f"the top card{match} of {src} is" if n == "1" else f"the top {n} cards{match} of {src} are"
        elif mode == "random" and moved is not None:
            what = f"{n} card{'s' if n != '1' else ''}{match} chosen at random from {src} {'are' if n != '1' else 'is'}"
        else:
            what = f"all cards of {src}{match} are"
        return self.say(st, f"{what} moved to {'the bottom of ' if st.bottom else ''}{self.zone(st.to)}")

    def visit_Keep(self, st: m.Keep) -> list[Item]:  # noqa: N802 - visitor naming
        called = f"; taking is called “{st.verb}”" if st.verb != "take" else ""
        rest = self.zone(st.rest) if st.rest is not None else "it"
        src = self.zone(st.source)
        if not st.choose:
            return self.say(st, f"{self.expr(st.player)} takes every card of {src} into his hand and discards "
                                f"down to {self.expr(st.count)} cards, to {rest}, unseen by the other players "
                                f"unless {rest} is public")
        return self.say(st, f"{self.expr(st.player)} looks through {src} and keeps {self.expr(st.count)} cards of "
                            f"his hand and {src} together, as he chooses (all of them when there are no more); "
                            f"the others go to {rest}, unseen by the other players unless {rest} is public{called}")

    def visit_Cut(self, st: m.Cut) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.zone(st.zone)} is cut: a random number of cards from its top go under the rest")

    def visit_Leads(self, st: m.Leads) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"the cards played to the trick in progress, if any, go back to the hands of those who "
                            f"played them, and {self.expr(st.player)} leads it")

    def visit_ReplayTricks(self, st: m.ReplayTricks) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, "the tricks are played again from the first: every card played this deal goes back "
                            "to the hand of the player who played it, and the first trick is led as before")

    def visit_BecomesDealer(self, st: m.BecomesDealer) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.expr(st.player)} becomes the dealer: the roles follow him for the rest of "
                            f"the deal, and the next deal passes on from him")

    def visit_Redeal(self, st: m.Redeal) -> list[Item]:  # noqa: N802 - visitor naming
        who = "the same dealer" if getattr(st, "same_dealer", False) else "the next dealer"
        return self.say(st, f"the deal is cancelled and {who} deals again")

    def visit_Expose(self, st: m.Expose) -> list[Item]:  # noqa: N802 - visitor naming
        if st.zone.owner is None and st.zone.name in self.card_parameters:
            return self.say(st, f"the card named *{st.zone.name}* is shown to everybody")
        if st.matching is not None:
            to = f"to {self.expr(st.to)}" if st.to is not None else "to everybody"
            return self.say(st, f"the cards of {self.zone(st.zone)} that are {self.pattern(st.matching)} are shown "
                                f"{to} (the others stay unseen)")
        if st.to is not None:
            return self.say(st, f"{self.zone(st.zone)} is shown to {self.expr(st.to)}: that player sees it for the "
                                "rest of the deal")
        return self.say(st, f"{self.zone(st.zone)} is exposed: everybody sees it for the rest of the deal")

    def visit_Forbid(self, st: m.Forbid) -> list[Item]:  # noqa: N802 - visitor naming
        if getattr(st, "kind", "declare") == "choice":
            return self.say(st, f"{self.expr(st.who)} may not choose **{st.declaration}** the next time that choice comes")
        return self.say(st, f"{self.expr(st.who)} may no longer declare **{st.declaration}**")

    def visit_Cancel(self, st: m.Cancel) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"the points that {self.expr(st.who)} scored this deal as “{st.label}” are cancelled")

    def visit_If(self, st: m.If) -> list[Item]:  # noqa: N802 - visitor naming
        return self.if_stmt(st)

    def visit_Phase(self, st: m.Phase) -> list[Item]:  # noqa: N802 - visitor naming
        return self.inline(f"Phase **{st.name}**", st.body, st.cite, lines=[st.span.line])

    def visit_Add(self, st: m.Add) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.expr(st.amount)} is added to the {st.counter} of {self.expr(st.owner)}")

    def visit_Repeat(self, st: m.Repeat) -> list[Item]:  # noqa: N802 - visitor naming
        cond = f", while {self.condition(st.condition)}" if st.condition is not None else ""
        return [self.item(f"Repeat at most {self.expr(st.bound)} times{cond}", st.cite, lines=[st.span.line], subs=self.block(st.body))]

    def visit_ForEach(self, st: m.ForEach) -> list[Item]:  # noqa: N802 - visitor naming
        lead = "For each side" if st.kind == "side" else "For each player in turn"
        if st.start is not None:
            lead += f", starting with {self.expr(st.start)}"
        if st.exclude is not None:
            lead += f", except {self.expr(st.exclude)}"
        return self.inline(lead, st.body, st.cite, lines=[st.span.line])

    def visit_NameLed(self, st: m.NameLed) -> list[Item]:  # noqa: N802 - visitor naming
        but = f", but not {self.expr(st.exclude)}" if st.exclude is not None else ""
        return self.say(st, f"{self.expr(st.player)} names the suit led, the suit the others must follow{but}")

    def visit_Shows(self, st: m.Shows) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.expr(st.player)} shows {self.count(st.count, 'show')}"
                            f"{self.only(st.matching, st.fallback)} to everybody; they stay in his hand")

    def visit_Melds(self, st: m.Melds) -> list[Item]:  # noqa: N802 - visitor naming
        where = self.zone(st.zone) if st.zone is not None else "his hand"
        return self.say(st, f"{self.expr(st.player)} melds: the melds of the table **{st.table}** in {where} are "
                            "counted for him and shown to everybody")

    def visit_Joins(self, st: m.Joins) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, f"{self.expr(st.player)} joins {self.expr(st.team)} for the rest of the deal "
                            "(nobody is told)")

    def visit_EndPlay(self, st: m.EndPlay) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, "no more tricks are played this deal; the cards left stay in the hands")

    def visit_ForCard(self, st: m.ForCard) -> list[Item]:  # noqa: N802 - visitor naming
        which = f" that is {self.pattern(st.matching)}" if st.matching is not None else ""
        return self.inline(f"For each card{which} in {self.zone(st.zone)} (in deck order; the body names it *card*)",
                           st.body, st.cite, lines=[st.span.line])

    def visit_Choose(self, st: m.Choose) -> list[Item]:  # noqa: N802 - visitor naming
        options: list[Item] = []
        for opt in st.options:
            lead = f"**{opt.name}**" + (f" (offered only when {self.condition(opt.guard)})" if opt.guard is not None else "")
            options.extend(self.inline(lead, opt.body, lines=[opt.span.line]))
        return [self.item(f"{capitalised(self.expr(st.player))} chooses one of", st.cite, lines=[st.span.line], subs=options)]

    def visit_Auction(self, st: m.Auction | m.TableAuction) -> list[Item]:  # noqa: N802 - visitor naming
        return self.auction(st)

    visit_TableAuction = visit_Auction  # noqa: N815

    def visit_Bid(self, st: m.Bid | m.TableBid) -> list[Item]:  # noqa: N802 - visitor naming
        return self.say(st, self.own_bid(st))

    visit_TableBid = visit_Bid  # noqa: N815

    def visit_Tricks(self, st: m.Tricks) -> list[Item]:  # noqa: N802 - visitor naming
        return self.tricks(st)

    def if_stmt(self, st: m.If) -> list[Item]:
        out: list[Item] = []
        for i, (cond, body) in enumerate(st.branches):
            lead = ("If " if i == 0 else "Otherwise, if ") + self.condition(cond)
            out.extend(self.inline(lead, body, st.cite if i == 0 else None, lines=[cond.span.line]))
        if st.orelse:
            out.extend(self.inline("Otherwise", st.orelse, lines=self.else_lines(st)))
        return out

    def else_lines(self, st: m.If) -> list[int]:
        """The line of an ``else:`` (found above the first statement of its block)."""
        first = st.orelse[0].span.line
        last_branch = st.branches[-1][0].span.line
        for n in range(first, last_branch, -1):
            if re.match(r"\s*else\s*:", self.source_line(n)):
                return [n]
        return []

    # ------------------------------------------------------------ sections
