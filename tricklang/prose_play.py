"""Trick play in English, for :mod:`tricklang.explain`: the tricks statement with its
obligations, card rules, tie rule and declarations, on the words of :mod:`tricklang.prose`."""

from __future__ import annotations

from . import model as m
from .prose import _OBLIGATIONS, Item, Words, capitalised

__all__ = ["PlayWords"]


class PlayWords(Words):
    """The readings of trick play (the statements are :class:`tricklang.prose_statements.Prose`'s)."""

    def tricks(self, st: m.Tricks) -> list[Item]:
        text = (f"Play {self.expr(st.count)} tricks: {self.expr(st.leader)} leads to the first, and the winner "
                f"of each trick leads to the next")
        subs: list[Item] = []
        if not st.obligations:
            subs.append(("Any card may be played to any trick", [], []))
        for ob in st.obligations:
            subs.append(self.obligation(ob))
        for rule in st.card_rules:
            subs.append(self.card_rule(rule))
        for tie in st.ties:
            subs.append(self.tie_rule(tie))
        for seats in st.plays_for:
            subs.append(self.plays_for(seats))
        for d in st.declarations:
            subs.extend(self.declaration(d))
        for hook in st.hooks:
            subs.extend(self.hook(hook))
        return [self.item(text, st.cite, lines=[st.span.line], subs=subs)]

    def obligation(self, ob: m.Obligation) -> Item:
        if ob.kind == "lead_until_broken" and ob.pattern is not None:
            rule = f"nobody may lead {self.pattern(ob.pattern)} until such a card has been played to a trick"
        elif ob.kind == "lead_first" and ob.pattern is not None:
            rule = f"the first trick must be led with {self.pattern(ob.pattern)} if the leader holds it"
        elif ob.kind == "not_first_trick" and ob.pattern is not None:
            rule = f"nobody may play {self.pattern(ob.pattern)} to the first trick unless he has nothing else he may play"
        else:
            rule = _OBLIGATIONS.get(ob.kind, ob.kind.replace("_", " "))
        if ob.guard is not None:
            rule += f", but only when {self.condition(ob.guard)}"
        return self.item(capitalised(rule), ob.cite, lines=[ob.span.line])

    def card_rule(self, rule: m.CardRule) -> Item:
        cards = self.pattern(rule.pattern)
        text = {"free": f"{cards} may be played at any time, and no obligation counts it",
                "never_wins": f"a trick is never won by {cards}",
                "sets_no_suit": f"{cards}, led, does not set the suit led: the next card that is not one does"}[rule.kind]
        if rule.guard is not None:
            text += f", but only when {self.condition(rule.guard)}"
        return self.item(capitalised(text), rule.cite, lines=[rule.span.line])

    def tie_rule(self, tie: m.TieRule) -> Item:
        text = f"of two equal cards the {tie.winner} played wins"
        if tie.matching is not None:
            text += f" (only {self.pattern(tie.matching)})"
        if tie.guard is not None:
            text += f", but only when {self.condition(tie.guard)}"
        return self.item(capitalised(text), tie.cite, lines=[tie.span.line])

    def plays_for(self, rule: m.PlaysFor) -> Item:
        who, whom = self.expr(rule.controller), self.expr(rule.player)
        text = (f"{who} plays for {whom}: at {whom}'s turns {who} chooses the card, from {whom}'s hand and under "
                f"the obligations as they apply to {whom}, and sees that hand from his first such turn to the end "
                "of the deal")
        if rule.guard is not None:
            text += f", but only when {self.condition(rule.guard)}"
        return self.item(capitalised(text), rule.cite, lines=[rule.span.line])

    def hook(self, hook: m.Hook) -> list[Item]:
        if hook.event == "each_trick" or hook.pattern is None:
            when = "After each trick (once it is won)"
        else:
            verb = "is played to a trick" if hook.event == "playing" else "leads a trick"
            when = f"After a card that is {self.pattern(hook.pattern)} {verb}"
        if hook.guard is not None:
            when += f", when {self.condition(hook.guard)}"
        return self.inline(when, hook.body, hook.cite, lines=[hook.span.line])

    def declaration(self, d: m.Declaration) -> list[Item]:
        deadline = {"before_first_card": "before playing their own first card",
                    "before_nth_card": f"before playing their own card {d.card_number}",
                    "at_own_turn": "at any of their turns to play (once a deal)",
                    }.get(d.deadline, "at the latest as they play that card")
        who = "A player" if d.no_holding else f"A player holding {self.pattern(d.holding)}"
        lead = f"{who} may declare **{d.name}** {deadline}"
        if d.guard is not None:
            lead += f", but only when {self.condition(d.guard)}"
        return self.inline(lead + "; then", d.body, d.cite, lines=[d.span.line])
