"""Shared by the gandengyan engine tests: cards from codes, hand-built states."""

from games.engine.cards import RANK_INDEX, RANK_OF, cards_from_codes, make_pack
from games.engine.combos import Reading
from games.engine.rulesets.gandengyan import RULESET
from games.engine.rulesets.gandengyan.combos import rank_counts, readings_of_counts
from games.engine.rulesets.gandengyan.state import Match, Round, TablePlay, sort_hand

RULES = RULESET


def cards(text: str, decks: int = 1) -> tuple[int, ...]:
    """`"8H 8D SJ"` → card ids; a repeated code is the second copy."""
    return cards_from_codes(text.split(), make_pack(decks))


def reading(kind: str, rank: str, length: int) -> Reading:
    return Reading(kind, RANK_INDEX[rank], length)


def ranks(ids) -> tuple[int, ...]:
    return tuple(sorted(RANK_OF[c] for c in ids))


def playing(*hands: str, pile: str = "", table=(), to_act: int = 0, decks: int = 1,
            scores=None, humans=None, eliminated=None, played_any=None, bombs=(),
            number: int = 2) -> Match:
    """A match mid-round with these hands (codes; "" for a seat not dealt in when `eliminated`
    says so); `table` = (seat, codes) plays of the trick so far; `pile` = codes, the last one is
    drawn first."""
    players = len(hands)
    texts = [*hands, *(codes for _, codes in table), pile]
    ids = cards(" ".join(texts), decks)
    parts, at = [], 0
    for text in texts:
        size = len(text.split())
        parts.append(ids[at:at + size])
        at += size
    plays = tuple(
        TablePlay(seat, sort_hand(part), readings_of_counts(rank_counts(part), 4 * decks)[0])
        for (seat, _), part in zip(table, parts[players:-1], strict=True)
    )
    eliminated = tuple(eliminated or (False,) * players)
    no = (False,) * players
    rnd = Round(
        number=number, seated=tuple(not e for e in eliminated),
        hands=tuple(sort_hand(h) for h in parts[:players]), pile=tuple(parts[-1]), dice=(),
        leader=0, to_act=to_act, trick=plays, forfeited=no,
        played_any=tuple(played_any or no), bombs=tuple(bombs), winner=None,
    )
    return Match(decks, players, 500, tuple(humans or no), tuple(scores or (500,) * players),
                 eliminated, rnd)


def act(state: Match, seat: int, action) -> Match:
    """`seat`'s action applied as the service applies it: the round's log kept (`remember`)."""
    state, events = RULES.apply(state, seat, action)
    return RULES.remember(state, events)
