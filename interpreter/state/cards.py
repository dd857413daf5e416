"""The runtime's card tables: the language's card model (see :mod:`tricklang.deck`)
and reading the card codes typed in actions."""

from __future__ import annotations

from tricklang.deck import NO_TRUMP, CardModel

from ..errors import InvalidActionError

__all__ = ["NO_TRUMP", "CardTables"]


class CardTables(CardModel):
    """The card model of one deck, with the parsing of typed card codes."""

    def parse_card(self, text: str) -> int:
        """The card for a code such as ``KS``, ``10H`` or ``TH``.

        Raises:
            InvalidActionError: the code names no card of this deck.
        """
        if not isinstance(text, str):
            raise InvalidActionError(f"a card code is text such as {self.codes[0]}, not {type(text).__name__}")
        code = text.strip().upper()
        if code in self.index:
            return self.index[code]
        if code.startswith("T") and "10" + code[1:] in self.index:
            return self.index["10" + code[1:]]
        for rank in self.ranks:  # ranks written in lower case in the rule file
            if code == (rank + code[-1:]).upper() and rank + code[-1:] in self.index:
                return self.index[rank + code[-1:]]
        raise InvalidActionError(
            f"unknown card code {text[:20]!r}: codes are a rank then a suit letter, e.g. {self.codes[0]}"
        )
